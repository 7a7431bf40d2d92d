//! One event from an adapter: isolation, the write or read transaction, the
//! record of handled events, and the dispatcher from commands to handlers.

use crate::command::{self, Command};
use crate::core::{Core, HEARTBEAT_KEY};
use crate::ctx::Ctx;
use crate::dispatch::execute;
use crate::draw::Drawing;
use crate::error::{db_failure, error_reply, Failure};
use crate::incoming::{Incoming, Input};
use crate::isolate;
use crate::reply::{Action, Audience, Reply};
use crate::store::{self, Tx};
use std::time::Duration;

impl Core {
    /// Handles one event. `None` when the event was handled before (a
    /// redelivery): nothing is said twice and nothing happens twice.
    ///
    /// A panic while handling it is caught here ([`isolate`]): logged with
    /// the event, answered with an apology when the bot was addressed, and
    /// the event is remembered so that a redelivery does not fail again.
    /// The process and every other channel go on.
    pub async fn handle(&self, ev: &Incoming) -> Option<Reply> {
        let reply = self.handle_isolated(ev).await;
        // What answers a private command is the author's alone.
        reply.map(|mut r| {
            if ev.private {
                r.audience = Audience::Author;
            }
            r
        })
    }

    async fn handle_isolated(&self, ev: &Incoming) -> Option<Reply> {
        match isolate::isolated(Box::pin(self.handle_event(ev))).await {
            Ok(reply) => reply,
            Err(why) => {
                tracing::error!(
                    event = %ev.event_id,
                    channel = %ev.channel,
                    author = %ev.author.id,
                    text = ?ev.text(),
                    "handling an event panicked: {why}"
                );
                if let Err(e) = self.remember_only(&ev.event_id).await {
                    tracing::warn!(event = %ev.event_id, "cannot remember the failed event: {e}");
                }
                ev.addressed
                    .then(|| error_reply(isolate::APOLOGY.to_string()))
            }
        }
    }

    pub(crate) async fn handle_event(&self, ev: &Incoming) -> Option<Reply> {
        let chars = ev.text().chars().count();
        if chars > self.settings.max_message_chars {
            // Chatter is never answered, however long: only someone who
            // spoke to the bot hears that their message was too long.
            if !ev.addressed {
                return None;
            }
            return Some(error_reply(format!(
                "That message is too long for me ({chars} characters; commands are at most {}).",
                self.settings.max_message_chars
            )));
        }
        let parsed = match &ev.input {
            Input::Line(line) => command::parse(line),
            Input::Command(cmd) => Ok(cmd.clone()),
        };
        if !ev.addressed && !matches!(parsed, Ok(Command::Bare { .. })) {
            return None;
        }
        if let Ok(cmd) = &parsed {
            if cmd.is_read_only() {
                // Boxed: the command's state machine is large, and one copy
                // of it inline per path would crowd a small stack.
                return Box::pin(self.read(ev, cmd.clone())).await;
            }
        }
        // One wait for the write lock at most: everything this event
        // writes, the heartbeat included, is in this one transaction.
        let mut tx = match self.store.begin().await {
            Ok(tx) => tx,
            Err(e) => return Some(db_failure(e)),
        };
        // The event's id, the channel's parked notices, the names seen.
        let mut seen = vec![&ev.author];
        seen.extend(ev.mentions.iter().map(|m| &m.who));
        let intake = match store::intake(&mut tx, &ev.event_id, &ev.channel, &seen).await {
            Ok(intake) if intake.new => intake,
            Ok(_) => {
                let _ = tx.rollback().await;
                return None;
            }
            Err(e) => return give_up(tx, e).await,
        };
        // Adapters without a ticker (the console) still mark the time here.
        // Not on PostgreSQL: that one row, written by every event of every
        // process, would make them all wait for each other; there every
        // process marks it on its periodic check.
        if self.store.backend() == store::Backend::Sqlite {
            let now = self.time.now_ms().to_string();
            if let Err(e) = store::set_adapter_value(&mut *tx, HEARTBEAT_KEY, &now).await {
                return give_up(tx, e).await;
            }
        }
        // What belongs to the channel (its challenges, its settings) is
        // settled one command at a time; see `Command::touches_channel`.
        if parsed.as_ref().is_ok_and(|c| c.touches_channel()) {
            let key = format!("channel {}", ev.channel);
            if let Err(e) = store::lock_keys(&mut tx, &[key]).await {
                return give_up(tx, e).await;
            }
        }
        // Boxed: a command's state machine is large, and the future of an
        // event must stay small enough for any worker's stack.
        let result = match parsed {
            Ok(cmd) => {
                let mut cx = Ctx::of_event(self, &mut tx, ev);
                cx.view = intake.view;
                // A command that settles the channel may start a game and
                // look for it: it looks for itself.
                if !cmd.touches_channel() {
                    cx.own_active = intake.own_active;
                }
                Box::pin(execute(&mut cx, cmd)).await
            }
            Err(e) => Err(Failure::Refused(e.0)),
        };
        match result {
            Ok(mut done) => {
                // Claimed before the commit, so that no tick starts a second
                // search of this game in between; released when this reply
                // is done or dropped.
                let claim = match done.engine.take() {
                    Some(id) if self.searches_here() => self.hold_search(id),
                    Some(_) => {
                        // An engine worker takes the turn; its move is
                        // posted when played.
                        done.text.push_str(" I am thinking about my move.");
                        None
                    }
                    None => None,
                };
                // The answer is owed from the moment the change is stored:
                // written with it, posted by the adapter, and by the
                // periodic check if the adapter never confirms it.
                let hold = self.leases.claim(store::LeaseKind::Notice);
                let board = done.picture.as_ref().and_then(|p| {
                    p.at.map(|(game, ply)| store::BoardRef {
                        game,
                        ply,
                        kind: if p.replay.is_some() {
                            store::BoardKind::Replay
                        } else {
                            store::BoardKind::Board
                        },
                    })
                });
                // Stored with the event marked as acted on.
                let owed = store::queue_answer(
                    &mut tx,
                    ev.author.id.platform(),
                    &ev.channel,
                    &done.text,
                    &done.notify,
                    board,
                    &Action::stored(&done.actions),
                    &ev.event_id,
                    hold,
                )
                .await;
                let older = match owed {
                    Ok((entry, older)) => {
                        done.deliveries.push(entry);
                        older.then_some(entry)
                    }
                    Err(e) => return give_up(tx, e).await,
                };
                // The board is drawn while the commit syncs to disk (unless
                // the engine's move will replace it); a failed commit throws
                // the drawing away.
                let drawing = match claim {
                    None => done.picture.take().map(Drawing::start),
                    Some(_) => None,
                };
                if let Err(e) = tx.commit().await {
                    return Some(db_failure(e));
                }
                if let Some(id) = claim.as_ref().map(crate::lease::Held::key) {
                    // The bot's answer comes in the same reply.
                    let turn = self.engine_turn(id, Some(&ev.event_id));
                    match Box::pin(turn).await {
                        Ok((reply, entry)) => {
                            done.deliveries.push(entry);
                            // "Game #3: Voidmate plays ..." follows the
                            // reply that led to it, without its heading.
                            let answer = match reply.text.split_once(": ") {
                                Some((head, _)) => reply.text.tail(head.len() + 2),
                                None => reply.text,
                            };
                            done.text.push_str(" ");
                            done.text.push_text(&answer);
                            done.picture = reply.picture.or(done.picture);
                            done.notify = reply.notify;
                        }
                        Err(Failure::Refused(why)) | Err(Failure::NotACommand(why)) => {
                            tracing::warn!(game = id, channel = %ev.channel, "engine move failed: {why}");
                        }
                        Err(Failure::Storage(e)) => {
                            tracing::error!(game = id, channel = %ev.channel, "engine move failed: {e}");
                        }
                    }
                }
                let mut reply = done.finish().await;
                if let Some(d) = drawing {
                    reply.image = d.image().await;
                }
                // Answers to earlier events of this channel still owed go
                // out first (issue 40, point 4).
                if let Some(entry) = older {
                    reply.before = self.owed_before(&ev.channel, entry).await;
                }
                Some(reply)
            }
            Err(Failure::Refused(msg)) => {
                // Nothing may change but the record that this event was seen.
                // Rolled back now, not when the connection is next used: the
                // game's row lock goes with it.
                let _ = tx.rollback().await;
                if let Err(e) = self.remember_only(&ev.event_id).await {
                    return Some(db_failure(e));
                }
                Some(error_reply(msg))
            }
            Err(Failure::NotACommand(_)) if !ev.addressed => {
                let _ = tx.rollback().await;
                None
            }
            Err(Failure::NotACommand(word)) => {
                let _ = tx.rollback().await;
                if let Err(e) = self.remember_only(&ev.event_id).await {
                    return Some(db_failure(e));
                }
                Some(error_reply(match crate::help::did_you_mean(&word) {
                    Some(meant) => format!(
                        "I do not know the command `{word}`: did you mean `{meant}`? Say `help` for the list."
                    ),
                    None => format!("I do not know the command `{word}`. Say `help` for the list."),
                }))
            }
            Err(Failure::Storage(e)) => give_up(tx, e).await,
        }
    }

    /// A command that only reads, in a transaction that never takes the
    /// write lock (WAL readers do not wait for writers). The event is
    /// recorded afterwards, off the reply's path: if the database is busy
    /// the record waits, the answer does not.
    pub(crate) async fn read(&self, ev: &Incoming, cmd: Command) -> Option<Reply> {
        let mut tx = match self.store.read().await {
            Ok(tx) => tx,
            Err(e) => return Some(db_failure(e)),
        };
        match store::event_seen(&mut tx, &ev.event_id).await {
            Ok(false) => {}
            Ok(true) => return None,
            Err(e) => return Some(db_failure(e)),
        }
        let result = {
            let mut cx = Ctx::of_event(self, &mut tx, ev);
            cx.reads_only = true;
            Box::pin(execute(&mut cx, cmd)).await
        };
        drop(tx);
        let store = self.store.clone();
        let event_id = ev.event_id.clone();
        let channel = ev.channel.clone();
        let mut players = vec![ev.author.clone()];
        players.extend(ev.mentions.iter().map(|m| m.who.clone()));
        let record = tokio::spawn(async move {
            let mut tx = store.begin().await?;
            let seen: Vec<&crate::contract::Player> = players.iter().collect();
            store::intake(&mut tx, &event_id, &channel, &seen).await?;
            tx.commit().await
        });
        // Usually done at once; a redelivery right behind it is then
        // recognised. Under a held lock it goes on by itself.
        let _ = tokio::time::timeout(Duration::from_millis(50), record).await;
        Some(match result {
            Ok(done) => done.finish().await,
            Err(Failure::Refused(msg)) | Err(Failure::NotACommand(msg)) => error_reply(msg),
            Err(Failure::Storage(e)) => db_failure(e),
        })
    }

    /// An edit of an earlier message (`original`), carrying the new text.
    /// If the original was acted on, what was done stands and the author is
    /// told so once; otherwise (refused, never seen, or chatter) the new text
    /// is handled as a command of its own, and the original is never run.
    pub async fn handle_edit(&self, ev: &Incoming, original: &str) -> Option<Reply> {
        let acted = async {
            let mut read = self.store.read().await?;
            let acted = store::event_acted(&mut read, original).await?;
            let edit_seen = store::event_seen(&mut read, &ev.event_id).await?;
            Ok::<_, sqlx::Error>((acted, edit_seen))
        };
        match acted.await {
            Err(e) => Some(db_failure(e)),
            Ok((_, true)) => None,
            Ok((Some(true), false)) => {
                if let Err(e) = self.remember_only(&ev.event_id).await {
                    return Some(db_failure(e));
                }
                Some(error_reply(
                    "I had already acted on that message before your edit, so what I did stands (`undo` asks to take a move back)."
                        .to_string(),
                ))
            }
            Ok((_, false)) => {
                if let Err(e) = self.remember_only(original).await {
                    return Some(db_failure(e));
                }
                self.handle(ev).await
            }
        }
    }

    pub(crate) async fn remember_only(&self, event_id: &str) -> Result<(), sqlx::Error> {
        let mut tx = self.store.begin().await?;
        store::record_event(&mut tx, event_id).await?;
        tx.commit().await
    }
}

/// A write transaction given up for a storage failure: rolled back at
/// once (a dropped one would keep its locks until its connection is next
/// used), and the failure in words.
async fn give_up(tx: Tx, e: sqlx::Error) -> Option<Reply> {
    let _ = tx.rollback().await;
    Some(db_failure(e))
}
