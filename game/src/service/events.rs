//! One event from an adapter: isolation, the write or read transaction, the
//! record of handled events, and the dispatcher from commands to handlers.

use super::*;

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

    pub(super) async fn handle_event(&self, ev: &Incoming) -> Option<Reply> {
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
        match store::record_event(&mut tx, &ev.event_id).await {
            Ok(true) => {}
            Ok(false) => return None,
            Err(e) => return Some(db_failure(e)),
        }
        // Adapters without a ticker (the console) still mark the time here.
        let now = self.time.now_ms().to_string();
        if let Err(e) = store::set_adapter_value(&mut *tx, HEARTBEAT_KEY, &now).await {
            return Some(db_failure(e));
        }
        // The bot is evidently in this channel: what waited for that goes.
        if let Err(e) = store::unpark_channel(&mut *tx, &ev.channel).await {
            return Some(db_failure(e));
        }
        // Names as seen now: a rename shows in the next reply.
        if let Err(e) = see_players(&mut tx, ev).await {
            return Some(db_failure(e));
        }
        // Boxed: a command's state machine is large, and the future of an
        // event must stay small enough for any worker's stack.
        let result = match parsed {
            Ok(cmd) => Box::pin(self.execute(&mut tx, ev, cmd)).await,
            Err(e) => Err(Failure::User(e.0)),
        };
        match result {
            Ok(mut done) => {
                // Claimed before the commit, so that no tick starts a second
                // search of this game in between; released when this reply
                // is done or dropped.
                let claim = match done.engine.take() {
                    Some(id) if self.searches_here() => self.claim_search(id),
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
                let grace = self.time.now_ms() + DIRECT_POST_GRACE_MS;
                let board = done.picture.as_ref().and_then(|p| p.at);
                let owed = store::queue_reply(
                    &mut tx,
                    ev.author.id.platform(),
                    &ev.channel,
                    &done.text,
                    &done.notify,
                    board,
                    &Action::stored(&done.actions),
                    Some(&ev.event_id),
                    grace,
                )
                .await;
                match owed {
                    Ok(entry) => done.deliveries.push(entry),
                    Err(e) => return Some(db_failure(e)),
                }
                if let Err(e) = store::mark_acted(&mut tx, &ev.event_id).await {
                    return Some(db_failure(e));
                }
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
                if let Some(id) = claim.as_ref().map(|c| c.game) {
                    // The bot's answer comes in the same reply.
                    let grace = self.time.now_ms() + DIRECT_POST_GRACE_MS;
                    let turn = self.engine_turn(ev.channel.as_str(), id, Some(&ev.event_id), grace);
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
                        Err(Failure::User(why)) | Err(Failure::Unknown(why)) => {
                            tracing::warn!(game = id, channel = %ev.channel, "engine move failed: {why}");
                        }
                        Err(Failure::Db(e)) => {
                            tracing::error!(game = id, channel = %ev.channel, "engine move failed: {e}");
                        }
                    }
                }
                let mut reply = finish_reply(done).await;
                if let Some(d) = drawing {
                    reply.image = d.image().await;
                }
                Some(reply)
            }
            Err(Failure::User(msg)) => {
                // Nothing may change but the record that this event was seen.
                drop(tx);
                if let Err(e) = self.remember_only(&ev.event_id).await {
                    return Some(db_failure(e));
                }
                Some(error_reply(msg))
            }
            Err(Failure::Unknown(_)) if !ev.addressed => None,
            Err(Failure::Unknown(word)) => {
                drop(tx);
                if let Err(e) = self.remember_only(&ev.event_id).await {
                    return Some(db_failure(e));
                }
                Some(error_reply(format!(
                    "I do not know the command `{word}`. Say `help` for the list."
                )))
            }
            Err(Failure::Db(e)) => Some(db_failure(e)),
        }
    }

    /// A command that only reads, in a transaction that never takes the
    /// write lock (WAL readers do not wait for writers). The event is
    /// recorded afterwards, off the reply's path: if the database is busy
    /// the record waits, the answer does not.
    pub(super) async fn read(&self, ev: &Incoming, cmd: Command) -> Option<Reply> {
        let mut tx = match self.store.pool().begin().await {
            Ok(tx) => tx,
            Err(e) => return Some(db_failure(e)),
        };
        match store::event_seen(&mut tx, &ev.event_id).await {
            Ok(false) => {}
            Ok(true) => return None,
            Err(e) => return Some(db_failure(e)),
        }
        let result = Box::pin(self.execute(&mut tx, ev, cmd)).await;
        drop(tx);
        let store = self.store.clone();
        let event_id = ev.event_id.clone();
        let channel = ev.channel.clone();
        let seen = ev.clone();
        let record = tokio::spawn(async move {
            let mut tx = store.begin().await?;
            store::record_event(&mut tx, &event_id).await?;
            store::unpark_channel(&mut *tx, &channel).await?;
            see_players(&mut tx, &seen).await?;
            tx.commit().await
        });
        // Usually done at once; a redelivery right behind it is then
        // recognised. Under a held lock it goes on by itself.
        let _ = tokio::time::timeout(Duration::from_millis(50), record).await;
        Some(match result {
            Ok(done) => finish_reply(done).await,
            Err(Failure::User(msg)) | Err(Failure::Unknown(msg)) => error_reply(msg),
            Err(Failure::Db(e)) => db_failure(e),
        })
    }

    /// An edit of an earlier message (`original`), carrying the new text.
    /// If the original was acted on, what was done stands and the author is
    /// told so once; otherwise (refused, never seen, or chatter) the new text
    /// is handled as a command of its own, and the original is never run.
    pub async fn handle_edit(&self, ev: &Incoming, original: &str) -> Option<Reply> {
        let acted = async {
            let mut read = self.store.pool().begin().await?;
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

    pub(super) async fn remember_only(&self, event_id: &str) -> Result<(), sqlx::Error> {
        let mut tx = self.store.begin().await?;
        store::record_event(&mut tx, event_id).await?;
        tx.commit().await
    }

    pub(super) async fn execute(
        &self,
        tx: &mut Tx,
        ev: &Incoming,
        cmd: Command,
    ) -> Result<Done, Failure> {
        let me = &ev.author;
        let ch = ev.channel.as_str();
        match cmd {
            Command::Challenge {
                opponent,
                variant,
                time,
                color,
                level,
                mode,
                thread,
            } => {
                let opponent = self.resolve(tx, ev, &opponent).await?;
                let options = challenges::ChallengeOptions {
                    variant,
                    time,
                    color,
                    level,
                    mode,
                    thread,
                };
                self.challenge(tx, ch, me, &opponent, options).await
            }
            Command::Accept { challenger } => {
                let unknown = |who: &Someone| format!("{who} has not challenged you here.");
                let from = self.resolve_if_named(tx, ev, challenger, unknown).await?;
                self.accept(tx, ch, me, from).await
            }
            Command::Decline { other } => {
                let unknown = |who: &Someone| format!("You have no challenge with {who} here.");
                let other = self.resolve_if_named(tx, ev, other, unknown).await?;
                self.decline(tx, ch, me, other).await
            }
            Command::Move { text, game } => {
                let g = self.pick(tx, ch, me, game, true).await?;
                self.play(tx, ch, me, g, &text, ev.sent_ms).await
            }
            Command::Bare { text, game } => self.bare(tx, ev, &text, game).await,
            Command::Board { game } => {
                let g = self.pick_any(tx, ch, me, game).await?;
                let mut text = format!("{}: {}.", g.title(), g.status());
                if g.row.status == "active" {
                    for side in [g.pos.turn(), !g.pos.turn()] {
                        text.push_str(&g.standing_on_own_tile(side));
                    }
                }
                let picture = self.picture(tx, ch, &g, &me.id, None).await?;
                Ok(Done::board(text, picture))
            }
            Command::Moves { square, game } => {
                self.moves(tx, ch, me, ev.private, square, game).await
            }
            Command::Resign { game } => {
                let g = self.pick(tx, ch, me, game, true).await?;
                let color = g.player_color(&me.id).expect("own game");
                let result = if color == Color::White { "0-1" } else { "1-0" };
                store::finish(tx, g.row.id, result, "resignation").await?;
                let text = format!(
                    "{me} resigns game #{}. {} wins ({result}).",
                    g.row.id,
                    g.name(!color)
                );
                Ok(Done {
                    notify: vec![g.player(!color)],
                    ..self.final_board(tx, ch, g.row.id, me, text).await?
                })
            }
            Command::Draw { answer, game } => self.draw(tx, ch, me, answer, game).await,
            Command::Undo { answer, game } => self.undo(tx, ch, me, answer, game).await,
            Command::Games => self.games(tx, ch).await,
            Command::History { game, pgn } => {
                let g = self.pick_any(tx, ch, me, game).await?;
                Ok(Done::text(if pgn {
                    pgn_text(&g, ch)
                } else {
                    history_text(&g)
                }))
            }
            Command::Variants => {
                let mut text = String::from("I play:");
                for r in variants::all() {
                    let _ = write!(text, "\n  {} ({}, {} board)", r.name(), r.title(), r.size());
                }
                text.push_str("\nChallenge with `challenge @someone <variant>`; learn with `rules <variant>`.");
                Ok(Done::text(text))
            }
            Command::Rules { query } => self.rules(tx, ch, me, &query).await,
            Command::Help { topic } => Ok(Done::text(match topic {
                None => help::commands().to_string(),
                Some(word) => help::command_help(&word).unwrap_or_else(|| {
                    format!("There is no command `{word}`.\n\n{}", help::commands())
                }),
            })),
            Command::Settings { key, value } => self.settings(tx, ev, key, value).await,
            Command::Direct if ev.private => Ok(Done::text(
                "We are talking privately already: programs and private moves go right here.",
            )),
            Command::Direct => Ok(Done {
                direct: Some(Direct {
                    with: me.clone(),
                    greeting: Text::new().mention(me).say(
                        ", this is our direct conversation: send Super Chess programs (`program #N ...`) and ask for the moves of private games (`moves #N`) here. Games themselves stay in their rooms.",
                    ),
                }),
                ..Done::text(
                    Text::new()
                        .mention(me)
                        .say(", I have started a direct conversation with you: look for my message there."),
                )
            }),
            Command::Claim { text, game } => self.claim(tx, ch, me, text, game).await,
            Command::Program { text, game } => {
                self.program(tx, ch, me, ev.private, text, game).await
            }
            Command::Colour { colour, game } => self.colour(tx, ch, me, colour, game).await,
        }
    }
}

impl Core {
    /// Who a command names: a player the adapter resolved (a mention, a
    /// slash command's user option), the bot, or someone seen before on
    /// the author's platform under that name.
    pub(super) async fn resolve(
        &self,
        tx: &mut Tx,
        ev: &Incoming,
        who: &Someone,
    ) -> Result<Player, Failure> {
        let written = match who {
            Someone::Known(p) => return Ok(p.clone()),
            Someone::Named(w) => w.as_str(),
        };
        if written.is_empty() {
            return refuse("Challenge whom? For example: `challenge @bob void`.");
        }
        let bare = written.trim_start_matches('@');
        let mut named: Vec<&Player> = Vec::new();
        for m in &ev.mentions {
            if (m.written == written || m.written.trim_start_matches('@') == bare)
                && !named.iter().any(|p| p.id == m.who.id)
            {
                named.push(&m.who);
            }
        }
        match named.as_slice() {
            [one] => return Ok((*one).clone()),
            [] => {}
            several => {
                let list: Vec<String> = several
                    .iter()
                    .map(|p| format!("{} ({})", p.name, p.id.local()))
                    .collect();
                return refuse(format!(
                    "`{written}` could be {}. Mention the one you mean (type @ and pick them), or write their full id.",
                    or_list(&list)
                ));
            }
        }
        let platform = ev.author.id.platform();
        let bot = self
            .bots
            .read()
            .expect("not poisoned")
            .iter()
            .find(|b| {
                b.id.platform() == platform
                    && (b.name.eq_ignore_ascii_case(bare)
                        || b.id.local() == bare
                        || b.id.local() == written)
            })
            .cloned();
        if let Some(bot) = bot {
            return Ok(bot);
        }
        match store::players_named(tx, platform, bare).await?.as_slice() {
            [one] => Ok(one.clone()),
            [] => refuse(format!(
                "I do not know who `{bare}` is. Mention them (type @ and pick them) so that I know whom you mean."
            )),
            _ => refuse(format!(
                "Several people here go by `{bare}`. Mention the one you mean (type @ and pick them)."
            )),
        }
    }
}

impl Core {
    /// [`Core::resolve`] for someone a command may name; someone nobody
    /// knows is refused with `unknown`'s words.
    async fn resolve_if_named(
        &self,
        tx: &mut Tx,
        ev: &Incoming,
        who: Option<Someone>,
        unknown: impl Fn(&Someone) -> String,
    ) -> Result<Option<Player>, Failure> {
        match who {
            None => Ok(None),
            Some(who) => match self.resolve(tx, ev, &who).await {
                Ok(p) => Ok(Some(p)),
                Err(Failure::Db(e)) => Err(Failure::Db(e)),
                Err(_) => Err(Failure::User(unknown(&who))),
            },
        }
    }
}

/// Records the names of the author and of everyone the event names.
async fn see_players(tx: &mut Tx, ev: &Incoming) -> Result<(), sqlx::Error> {
    store::see_player(tx, &ev.author).await?;
    for m in &ev.mentions {
        store::see_player(tx, &m.who).await?;
    }
    Ok(())
}
