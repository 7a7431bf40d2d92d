//! Delivery: the periodic check, the outbox of notices, retries that back
//! off, parking, and pruning what only grows.

use super::*;

impl Core {
    /// Notices owed to channels (deadline reminders, losses on time): the
    /// ones that fell due just now and any earlier ones not yet confirmed,
    /// for the platforms whose adapters run in this process
    /// ([`Core::set_command_style`]). Post each, then confirm it with
    /// [`Core::delivered`] or report [`Core::failed`]. Each is this
    /// process's alone for a minute ([`NOTICE_LEASE_MS`]): other processes
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
    pub(super) async fn prune(&self) {
        use std::sync::atomic::Ordering;
        let now = store::now();
        let last = self.pruned_at.load(Ordering::Relaxed);
        if now - last < PRUNE_EVERY_SECS
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

    pub(super) async fn tick_once(&self) -> Vec<Notice> {
        self.prune().await;
        self.resume_engine_turns().await;
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
        self.heartbeat().await;
        self.report_process().await;
        let now = self.time.now_ms();
        let platforms = self.platforms();
        let claimed = store::claim_notices(
            self.store.pool(),
            now,
            now + NOTICE_LEASE_MS,
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
        let mut notices = Vec::with_capacity(rows.len());
        for row in rows {
            let image = match (row.board_game, row.board_ply) {
                (Some(game), Some(ply)) => self.board_after(&row.channel, game, ply).await,
                _ => None,
            };
            notices.push(Notice {
                id: row.id,
                in_reply_to: row.in_reply_to,
                channel: row.channel,
                reply: Reply {
                    text: Text::from_stored(row.text, &row.text_mentions),
                    image,
                    notify: crate::contract::players_from_stored(&row.mentions),
                    actions: Action::from_stored(&row.actions),
                    is_error: false,
                    audience: Audience::Everyone,
                    deliveries: vec![row.id],
                    direct: None,
                    thread: None,
                },
            });
        }
        notices
    }

    /// The board image of game `id` if it still stands after `ply` plies
    /// (a later move makes an old notice go out without a stale board).
    pub(super) async fn board_after(&self, ch: &str, id: i64, ply: i64) -> Option<Image> {
        let mut read = self.store.pool().begin().await.ok()?;
        let row = store::game(&mut read, ch, id).await.ok()??;
        let g = self.load(&mut read, row).await.ok()?;
        if g.moves.len() as i64 != ply {
            return None;
        }
        let picture = self
            .picture(&mut read, ch, &g, &PlayerId::from_stored(""), None)
            .await
            .ok()?;
        drop(read);
        finish_reply(Done {
            picture: Some(picture),
            ..Done::text("")
        })
        .await
        .image
    }

    /// A notice from [`Core::tick`] could not be posted: it comes back
    /// later, after a wait that grows with each failure, or, refused for
    /// good, is parked until the bot is seen in its channel again (logged
    /// once, when it is parked).
    pub async fn failed(&self, notice_id: i64, refusal: Refusal) {
        let now = self.time.now_ms();
        let (permanent, asked) = match refusal {
            Refusal::Temporary { retry_after } => (false, retry_after),
            Refusal::Permanent => (true, None),
        };
        let retry_at = |attempts: i64| {
            let wait = asked.unwrap_or_else(|| retry_wait(attempts));
            now.saturating_add(wait.as_millis().min(i64::MAX as u128) as i64)
        };
        match store::notice_failed(
            self.store.pool(),
            notice_id,
            PARK_AFTER,
            permanent,
            retry_at,
        )
        .await
        {
            Ok(Some((attempts, true))) => tracing::warn!(
                notice = notice_id,
                attempts,
                "a notice was refused for good; parked until I am seen in its channel again"
            ),
            Ok(Some((attempts, false))) => tracing::debug!(
                notice = notice_id,
                attempts,
                ?refusal,
                "a notice could not be posted; trying again later"
            ),
            Ok(None) => {}
            Err(e) => tracing::error!(notice = notice_id, "cannot note a failed post: {e}"),
        }
    }

    /// The bot is in `channel` (an adapter joined it, or saw it): notices
    /// parked for it are tried again.
    pub async fn seen_in(&self, channel: &str) {
        match store::unpark_channel(self.store.pool(), channel).await {
            Ok(0) => {}
            Ok(n) => {
                tracing::info!(%channel, notices = n, "back in a channel; posting what waited")
            }
            Err(e) => tracing::warn!(%channel, "cannot bring back parked notices: {e}"),
        }
    }

    /// Game `game` is now played in `to`, a thread the adapter opened for it
    /// in `from` (see [`Reply::thread`]): its moves, notices and the
    /// `entries` of the reply that began it go there, and the thread takes
    /// the channel's settings. `false` if the game was not in `from` (it
    /// stays where it is).
    pub async fn move_game(
        &self,
        game: i64,
        from: &str,
        to: &str,
        entries: &[i64],
    ) -> Result<bool, sqlx::Error> {
        let mut tx = self.store.begin().await?;
        if !store::move_game(&mut tx, game, from, to).await? {
            return Ok(false);
        }
        for entry in entries {
            store::move_notice(&mut tx, *entry, from, to).await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// A notice from [`Core::tick`] was posted: do not send it again.
    pub async fn delivered(&self, notice_id: i64) {
        if let Err(e) = store::delete_notice(self.store.pool(), notice_id).await {
            tracing::error!(notice = notice_id, "cannot clear a delivered notice: {e}");
        }
    }
}
