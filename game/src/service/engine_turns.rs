//! The engine's turns: one search per game at a time, started inline after a
//! player's move or by the tick for any game where the bot is to move.

use super::*;

impl Core {
    /// Claims game `id`'s engine search; `None` if one already runs here.
    pub(super) fn claim_search(&self, id: i64) -> Option<Search> {
        let mut running = self.searching.lock().unwrap_or_else(|e| e.into_inner());
        running.insert(id).then(|| Search {
            game: id,
            registry: self.searching.clone(),
        })
    }

    /// Starts the engine's search in every active game where the bot is to
    /// move and no search runs: after a restart (or a search cut short) no
    /// game waits for ever on a move that nobody is thinking about. Each
    /// move is announced through the outbox, committed with the move.
    pub(super) async fn resume_engine_turns(&self) {
        let games = match store::engine_games(self.store.pool()).await {
            Ok(games) => games,
            Err(e) => {
                tracing::warn!("cannot list the engine's games: {e}");
                return;
            }
        };
        for (id, channel) in games {
            let Some(claim) = self.claim_search(id) else {
                continue;
            };
            if !self.bot_to_move(&channel, id).await {
                continue;
            }
            tracing::info!(game = id, %channel, "starting the engine's turn");
            let core = self.clone();
            tokio::spawn(async move {
                let _claim = claim;
                match core.engine_turn(&channel, id, None, 0).await {
                    Ok(_) => {}
                    Err(Failure::User(why)) | Err(Failure::Unknown(why)) => {
                        tracing::warn!(game = id, %channel, "engine move failed: {why}");
                    }
                    Err(Failure::Db(e)) => {
                        tracing::error!(game = id, %channel, "engine move failed: {e}");
                    }
                }
            });
        }
    }

    /// Whether the bot is to move in game `id` (read without the write lock).
    pub(super) async fn bot_to_move(&self, channel: &str, id: i64) -> bool {
        let Ok(mut read) = self.store.pool().begin().await else {
            return false;
        };
        let Ok(Some(row)) = store::game(&mut read, channel, id).await else {
            return false;
        };
        // A private game waiting for programs has none stored yet.
        let waiting =
            row.mode == "private" && (row.program_white.is_none() || row.program_black.is_none());
        let Ok(pos) = Self::stored_position(&row) else {
            return false;
        };
        let mover = match pos.turn() {
            Color::White => &row.white,
            Color::Black => &row.black,
        };
        row.status == "active" && !waiting && self.is_bot(mover)
    }

    /// Whether the player with this id is the bot itself.
    pub(super) fn is_bot(&self, id: &str) -> bool {
        self.bots
            .read()
            .expect("not poisoned")
            .iter()
            .any(|b| b.id.as_str() == id)
    }

    /// The engine's move in game `id`, played in a transaction of its own
    /// after the search (which holds no lock on the database). The move's
    /// message and board go to the outbox in that same transaction, as the
    /// answer to `in_reply_to` if it follows a player's move, due for the
    /// periodic check at `not_before_ms` (now, when no reply waits for it).
    /// Returns the move's words and the outbox entry.
    pub(super) async fn engine_turn(
        &self,
        ch: &str,
        id: i64,
        in_reply_to: Option<&str>,
        not_before_ms: i64,
    ) -> Result<(Done, i64), Failure> {
        // Read without the write lock: the search must not hold anyone up.
        let mut read = self.store.pool().begin().await?;
        let Some(row) = store::game(&mut read, ch, id).await? else {
            return refuse(format!("game #{id} is gone"));
        };
        let g = self.load(&mut read, row).await?;
        drop(read);
        let bot = g.player(g.pos.turn());
        if g.row.status != "active" || !self.is_bot(bot.id.as_str()) {
            return refuse("it is not my move");
        }
        let level = g
            .row
            .engine_level
            .and_then(|l| Level::new(l as u8))
            .unwrap_or(Level::MAX);
        let time = match TimeControl::parse(&g.row.time_control) {
            Some(TimeControl::Days(_)) => self.engine_cfg.correspondence_move_time_ms,
            // On a clock: a thirtieth of what is left plus the increment,
            // never more than the usual time.
            Some(TimeControl::Clock { increment, .. }) => {
                let left = g.clock_left(g.pos.turn()).unwrap_or(0).max(0) as u64;
                (left / 30 + increment as u64 * 500).min(self.engine_cfg.move_time_ms)
            }
            _ => self.engine_cfg.move_time_ms,
        };
        let Some(mv) = self
            .engine
            .best_move(g.pos.clone(), level, Duration::from_millis(time))
            .await
        else {
            return refuse("I could not find a move");
        };
        let coordinate = g.pos.coordinate(&mv);
        let mut tx = self.store.begin().await?;
        let Some(row) = store::game(&mut tx, ch, id).await? else {
            return refuse(format!("game #{id} is gone"));
        };
        let g = self.load(&mut tx, row).await?;
        let ply = g.moves.len() as i64 + 1;
        let done = self.play(&mut tx, ch, &bot, g, &coordinate, None).await?;
        let entry = store::queue_reply(
            &mut tx,
            bot.id.platform(),
            ch,
            &done.text,
            &done.notify,
            Some((id, ply)),
            &Action::stored(&done.actions),
            in_reply_to,
            not_before_ms,
        )
        .await?;
        tx.commit().await?;
        Ok((done, entry))
    }
}
