//! The periodic check: what the bot does by itself, every second or so,
//! on every process that runs adapters (`Core::tick`): engine work left
//! waiting, deadlines and clocks, first moves that never came, its own
//! heartbeat and report, pruning what only grows, and the notices owed to
//! channels. Tournament rounds and daily puzzles too.

mod aborts;
mod daily;
mod deadlines;
mod tournaments;

use crate::core::Core;
use crate::delivery::stale_before;
use crate::isolate;
use crate::reply::Notice;
use crate::store::{self, LeaseKind};

/// How long a handled event's id is kept to recognise a redelivery: far
/// longer than any platform redelivers (Discord resumes within minutes, a
/// Matrix sync token is days old at most after downtime).
const KEEP_EVENT_IDS_SECS: i64 = 30 * 24 * 3600;
/// How often the tick prunes them.
const PRUNE_EVERY_SECS: i64 = 3600;

/// Notices taken by one call of [`Core::tick`] at most (the rest wait for
/// the next one).
const NOTICES_PER_TICK: i64 = 100;
impl Core {
    /// Notices owed to channels (deadline reminders, losses on time): the
    /// ones that fell due just now and any earlier ones not yet confirmed,
    /// for the platforms whose adapters run in this process
    /// ([`Core::set_command_style`]). Post each, then confirm it with
    /// [`Core::delivered`] or report [`Core::failed`]. Each is this
    /// process's alone for a minute ([`NOTICE_LEASE_MS`](crate::NOTICE_LEASE_MS)): other processes
    /// on the same database do not take it meanwhile, and an unconfirmed
    /// notice comes back after that, also to another process or after a
    /// restart. Call it now and then (adapters do, every few seconds).
    pub async fn tick(&self) -> Vec<Notice> {
        match isolate::isolated(self.tick_once()).await {
            Ok(notices) => notices,
            Err(why) => {
                tracing::error!("the periodic check panicked: {why}");
                Vec::new()
            }
        }
    }

    /// Forgets old handled event ids, at most once an hour.
    pub(crate) async fn prune(&self) {
        use std::sync::atomic::Ordering;
        let now = self.time.now_secs();
        let last = self.pruned_at.load(Ordering::Relaxed);
        if now.saturating_sub(last) < PRUNE_EVERY_SECS
            || self
                .pruned_at
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        match store::prune_events(self.store.pool(), now - KEEP_EVENT_IDS_SECS).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(pruned = n, "forgot old handled event ids"),
            Err(e) => tracing::warn!("cannot prune handled event ids: {e}"),
        }
    }

    pub(crate) async fn tick_once(&self) -> Vec<Notice> {
        self.prune().await;
        // Games made under another process's definitions, before anything
        // reads them.
        if let Err(e) = self.store.learn_definitions().await {
            tracing::warn!("cannot look for new stored definitions: {e}");
        }
        match store::any_due(self.store.pool(), self.time.now_ms()).await {
            Ok(false) => {}
            Ok(true) => {
                if let Err(e) = self.decide_deadlines().await {
                    tracing::error!("deadline check failed: {e}");
                }
                if let Err(e) = self.decide_clocks().await {
                    tracing::error!("clock check failed: {e}");
                }
            }
            Err(e) => tracing::error!("cannot look for games that are due: {e}"),
        }
        match store::any_to_abort(self.store.pool(), self.time.now_ms()).await {
            Ok(false) => {}
            Ok(true) => {
                if let Err(e) = self.decide_aborts().await {
                    tracing::error!("abort check failed: {e}");
                }
            }
            Err(e) => tracing::error!("cannot look for games to abort: {e}"),
        }
        // Tournaments after the games' deadlines (a game lost on time is a
        // round's result), and both before the engine's turns: no round
        // trip of theirs is spent between an engine turn's start and the
        // notices' claim.
        if let Err(e) = self.decide_tournaments().await {
            tracing::error!("tournament check failed: {e}");
        }
        if let Err(e) = self.decide_dailies().await {
            tracing::error!("daily puzzle check failed: {e}");
        }
        self.resume_engine_turns().await;
        self.heartbeat().await;
        self.report_process().await;
        let now = self.time.now_ms();
        let platforms = self.platforms();
        // A notice whose hold was not renewed for longer than a live
        // poster renews it (a lease or a direct post's grace, begun
        // ORDER_WAIT_MS ago) is taken over when a newer one of its channel
        // is due.
        let claimed = store::claim_notices(
            self.store.pool(),
            now,
            self.leases.claim(LeaseKind::Notice),
            stale_before(now),
            &platforms,
            NOTICES_PER_TICK,
        )
        .await;
        let rows = match claimed {
            Ok(rows) => rows,
            Err(e) => {
                tracing::error!("cannot read the outbox: {e}");
                return Vec::new();
            }
        };
        self.notices_of(rows).await
    }
}
