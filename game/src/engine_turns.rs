//! The engine's turns: a queue in the database (`games.engine_wanted_ms`),
//! each turn searched by one process at a time under a lease that the
//! searching process renews while it thinks. A process that dies mid-search
//! stops renewing; when the lease ends another process takes the turn. The
//! search starts inline after a player's move (`searches = "here"`), or an
//! engine worker takes it from the queue (`searches = "workers"`).

use crate::command::TimeControl;
use crate::core::Core;
use crate::ctx::Ctx;
use crate::done::Done;
use crate::error::{refuse, Failure};
use crate::handlers::play::play;
use crate::lease::Held;
use crate::load::stored_position;
use crate::record::GameRecord;
use crate::reply::Action;
use crate::store::{self, LeaseKind};
use std::time::Duration;
use voidmate_engine::{Clock, Level};

/// What a bot's move on a clock costs after its search, kept in reserve:
/// the lease, the store, the message to the room. The clock stops when the
/// move is stored, not when the search ends.
const CLOCK_OVERHEAD_MS: u64 = 300;

impl Core {
    /// Holds game `id`'s engine turn in this process (claimed in the
    /// database already), renewed while the search runs; `None` if it is
    /// searched here already.
    pub(crate) fn hold_search(&self, id: i64) -> Option<Held> {
        self.leases.hold(LeaseKind::EngineTurn, id)
    }

    /// The periodic check's part in the engine's turns: queues any turn an
    /// older version left unqueued, then (when this process searches) takes
    /// queued turns that nobody holds, up to the engine's threads: after a
    /// restart, or a search of a process that died, no game waits for ever
    /// on a move that nobody is thinking about.
    pub(crate) async fn resume_engine_turns(&self) {
        self.queue_unqueued_engine_turns().await;
        if self.searches_here() {
            // Reviews first: taking one costs a round trip, which must not
            // sit between starting an engine turn and the rest of the check.
            self.take_reviews().await;
            self.take_puzzle_searches().await;
            self.take_engine_turns().await;
        }
    }

    /// Takes queued engine turns nobody holds while this process has a free
    /// engine thread, and plays each in a task of its own. Each move is
    /// announced through the outbox, committed with the move. Returns how
    /// many it took.
    pub async fn take_engine_turns(&self) -> usize {
        let mut taken = 0;
        let threads = self.engine_cfg.threads.max(1);
        loop {
            let held = match self.leases.claim_next(LeaseKind::EngineTurn, threads).await {
                Ok(Some(held)) => held,
                Ok(None) => break,
                Err(e) => {
                    tracing::warn!("cannot take an engine turn: {e}");
                    break;
                }
            };
            taken += 1;
            let id = held.key();
            tracing::info!(game = id, "starting the engine's turn");
            let core = self.clone();
            tokio::spawn(async move {
                let _held = held;
                match core.engine_turn(id, None).await {
                    Ok(_) => {}
                    Err(Failure::Refused(why)) | Err(Failure::NotACommand(why)) => {
                        tracing::warn!(game = id, "engine move failed: {why}");
                    }
                    Err(Failure::Storage(e)) => {
                        tracing::error!(game = id, "engine move failed: {e}");
                    }
                }
            });
        }
        taken
    }

    /// An engine worker's life (`voidmate engine-worker`): takes queued
    /// engine turns as threads come free, looking every `poll`.
    pub async fn run_engine_worker(&self, poll: Duration) {
        self.set_process_kind("engine-worker");
        loop {
            self.take_engine_turns().await;
            self.take_reviews().await;
            self.take_puzzle_searches().await;
            self.report_process().await;
            let poll_ms = i64::try_from(poll.as_millis()).unwrap_or(i64::MAX);
            self.time
                .nap(self.time.now_ms().saturating_add(poll_ms), poll)
                .await;
        }
    }

    /// Games stored by a version that kept no queue of engine turns, where
    /// the bot is to move, get queued: once per process, when it knows who
    /// the bot is.
    async fn queue_unqueued_engine_turns(&self) {
        use std::sync::atomic::Ordering;
        if self.engine_backfilled.load(Ordering::Relaxed)
            || self.bots.read().expect("not poisoned").is_empty()
        {
            return;
        }
        let games = match store::engine_games(self.store.pool()).await {
            Ok(games) => games,
            Err(e) => {
                tracing::warn!("cannot list the engine's games: {e}");
                return;
            }
        };
        for (id, channel) in games {
            if self.bot_to_move(&channel, id).await {
                if let Err(e) = self.queue_engine_turn_if_due(id).await {
                    tracing::warn!(game = id, "cannot queue the engine's turn: {e}");
                    return;
                }
            }
        }
        self.engine_backfilled.store(true, Ordering::Relaxed);
    }

    /// Queues the engine's turn in game `id` if, as the game stands at the
    /// commit, the bot is to move and no turn is queued; whether it did.
    /// The scan that found the game read it earlier: an engine worker may
    /// have played the bot's move since, and a turn queued then would be
    /// the person's (issue 40, point 7). So the game is read again here,
    /// locked ([`store::lock_game`]).
    #[doc(hidden)]
    pub async fn queue_engine_turn_if_due(&self, id: i64) -> Result<bool, sqlx::Error> {
        let mut tx = self.store.begin().await?;
        let Some(rec) = store::lock_game(&mut tx, id).await? else {
            return Ok(false);
        };
        if rec.engine_wanted_ms.is_some() || !self.bot_moves_in(&rec) {
            // At once, not when the connection is next used: the row's lock
            // goes with it.
            tx.rollback().await?;
            return Ok(false);
        }
        store::set_engine_turn(&mut tx, id, Some(self.time.now_ms()), None).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Whether the bot is to move in game `id` (read without the write lock).
    pub(crate) async fn bot_to_move(&self, channel: &str, id: i64) -> bool {
        let Ok(mut read) = self.store.read().await else {
            return false;
        };
        let Ok(Some(rec)) = store::game(&mut read, channel, id).await else {
            return false;
        };
        self.bot_moves_in(&rec)
    }

    /// Whether, in the stored game `rec`, the bot is to move.
    fn bot_moves_in(&self, rec: &GameRecord) -> bool {
        let Ok(pos) = stored_position(rec) else {
            return false;
        };
        // A private game waiting for programs has none stored yet.
        let waiting = rec.mode == crate::command::ProgramMode::Private
            && (rec.seats.white.program.is_none() || rec.seats.black.program.is_none());
        rec.is_active() && !waiting && self.is_bot(&rec.player(pos.turn()).id)
    }

    /// The engine's move in game `id`, played in a transaction of its own
    /// after the search (which holds no lock on the database). The move's
    /// message and board go to the outbox in that same transaction: as the
    /// answer to `in_reply_to` if it follows a player's move (this process
    /// posts it, and holds it until then), else due for the periodic check
    /// at once. Returns the move's words and the outbox entry.
    pub(crate) async fn engine_turn(
        &self,
        id: i64,
        in_reply_to: Option<&str>,
    ) -> Result<(Done, i64), Failure> {
        // Read without the write lock: the search must not hold anyone up.
        let mut read = self.store.read().await?;
        let Some(rec) = store::game_anywhere(&mut read, id).await? else {
            return refuse(format!("game #{id} is gone"));
        };
        let g = self.load_unlocked(&mut read, rec).await?;
        drop(read);
        let ch = g.rec.channel.as_str();
        let bot = g.player(g.pos.turn());
        // Queued: the bot is to move (an engine worker may not know who the
        // bot is on each platform; the queue does).
        if !g.rec.is_active() || g.rec.engine_wanted_ms.is_none() {
            return refuse("it is not my move");
        }
        let searched = g.rec.version;
        // The engine plays only the bot's own moves: a turn queued where a
        // person is to move (by a version that did not check, issue 40
        // point 7) is dropped from the queue, not played for them.
        if !self.plays_for_bot(&bot.id).await? {
            let mut tx = self.store.begin().await?;
            if let Some(rec) = store::lock_game(&mut tx, id).await? {
                if rec.version == searched {
                    store::set_engine_turn(&mut tx, id, None, None).await?;
                }
            }
            tx.commit().await?;
            return refuse(format!(
                "game #{id} has {bot} to move, who is not me: the turn is dropped"
            ));
        }
        let level = g
            .rec
            .engine_level
            .and_then(Level::new)
            .unwrap_or(Level::MAX);
        let ms = Duration::from_millis;
        let (time, clock) = match g.rec.clock {
            TimeControl::Days(_) => (ms(self.engine_cfg.correspondence_move_time_ms), None),
            // On a clock the engine plans its own time from what is left
            // (`voidmate_engine::clock`), keeping back what a move costs
            // after the search: storing it, telling the room.
            TimeControl::Clock { increment, .. } => {
                let left = g.clock_left(g.pos.turn()).unwrap_or(0).max(0) as u64;
                let clock = Clock {
                    overhead: ms(CLOCK_OVERHEAD_MS),
                    ..Clock::new(ms(left), Duration::from_secs(increment as u64))
                };
                (ms(self.engine_cfg.clock_move_time_ms()), Some(clock))
            }
            TimeControl::None => (ms(self.engine_cfg.move_time_ms), None),
        };
        let Some(mv) = self
            .engine
            .best_move(g.pos.clone(), level, time, clock)
            .await
        else {
            return refuse("I could not find a move");
        };
        let coordinate = g.pos.coordinate(&mv);
        let mut tx = self.store.begin().await?;
        let Some(rec) = store::game(&mut tx, ch, id).await? else {
            return refuse(format!("game #{id} is gone"));
        };
        // The game changed while the engine thought (a resignation, or the
        // move played by a process that took the turn after this one's
        // lease ended): this search answers a position that is gone.
        if rec.version != searched {
            return refuse(format!("game #{id} moved on while I thought"));
        }
        let g = self.load(&mut tx, rec).await?;
        let ply = g.moves.len() as i64 + 1;
        let done = {
            let mut cx = Ctx::of_bot(self, &mut tx, ch, &bot);
            play(&mut cx, g, &coordinate).await?
        };
        let entry = store::queue_reply(
            &mut tx,
            bot.id.platform(),
            ch,
            &done.text,
            &done.notify,
            Some(store::BoardRef {
                game: id,
                ply,
                kind: store::BoardKind::Board,
            }),
            &Action::stored(&done.actions),
            in_reply_to,
            in_reply_to.map(|_| self.leases.claim(LeaseKind::Notice)),
        )
        .await?;
        tx.commit().await?;
        Ok((done, entry))
    }
}
