//! Deadlines and clocks: reminders, losses on time, low-time warnings and
//! flags, on the core's one clock.

use super::*;

impl Core {
    /// Sends reminders and ends games on time, queueing what to announce in
    /// the same transaction.
    pub(super) async fn decide_deadlines(&self) -> Result<(), sqlx::Error> {
        self.decide_deadlines_at(self.time.now_ms(), true).await
    }

    /// Ends the correspondence games whose deadline passed before `until_ms`
    /// (a platform's time for an event the bot reads late, after being
    /// down), before that event is handled: what happened earlier is
    /// settled first. Reminders wait for the periodic check.
    pub async fn settle_deadlines(&self, until_ms: i64) {
        if let Err(e) = self.decide_deadlines_at(until_ms, false).await {
            tracing::warn!("cannot settle deadlines: {e}");
        }
    }

    async fn decide_deadlines_at(&self, now_ms: i64, remind: bool) -> Result<(), sqlx::Error> {
        let now = now_ms.div_euclid(1000);
        let mut tx = self.store.begin().await?;
        // Only games whose deadline or reminder has come (see `due_ms`).
        for row in store::due_games(&mut tx, now_ms).await? {
            let Some(deadline) = row.deadline_at else {
                continue;
            };
            let Some(TimeControl::Days(days)) = TimeControl::parse(&row.time_control) else {
                continue;
            };
            let period = days as i64 * self.settings.day_seconds;
            let channel = row.channel.clone();
            let Ok(g) = self.load(&mut tx, row).await else {
                continue;
            };
            let mover = g.pos.turn();
            let (to_move, other) = (g.player(mover), g.player(!mover));
            if now >= deadline {
                let (text, notify) = self.lost_on_time(&mut tx, &g).await?;
                store::queue_notice(&mut tx, &channel, &text, &notify).await?;
            } else if remind && !g.row.reminded && deadline - now <= period / 4 {
                store::mark_reminded(&mut tx, g.row.id).await?;
                let text = Text::new().mention(&to_move).say(format!(
                    ", it is your move in game #{} against {other}; time runs out in {}.",
                    g.row.id,
                    human_duration(deadline - now, self.settings.day_seconds)
                ));
                store::queue_notice(&mut tx, &channel, &text, &[to_move]).await?;
            }
        }
        tx.commit().await
    }

    /// Ends a correspondence game whose player to move let the deadline
    /// pass: the words, and who hears them.
    pub(super) async fn lost_on_time(
        &self,
        tx: &mut Tx,
        g: &Game,
    ) -> Result<(Text, Vec<Player>), sqlx::Error> {
        let mover = g.pos.turn();
        let (to_move, other) = (g.player(mover), g.player(!mover));
        let result = if mover == Color::White { "0-1" } else { "1-0" };
        store::finish(tx, g.row.id, result, "time forfeit").await?;
        store::set_deadline(tx, g.row.id, None).await?;
        let text = format!(
            "Game #{}: {to_move} did not move in time. {other} wins on time ({result}).",
            g.row.id
        );
        Ok((text.into(), vec![to_move, other]))
    }

    /// Notes that the core is running now (see [`Core::open_with_time`]).
    pub(super) async fn heartbeat(&self) {
        let now = self.time.now_ms().to_string();
        if let Err(e) = store::set_adapter_value(self.store.pool(), HEARTBEAT_KEY, &now).await {
            tracing::warn!("cannot note the time: {e}");
        }
    }

    /// Flags that fell and players low on time, announced through the outbox.
    pub(super) async fn decide_clocks(&self) -> Result<(), sqlx::Error> {
        let mut tx = self.store.begin().await?;
        // Only games whose flag or low-time warning has come (see `due_ms`).
        for row in store::due_games(&mut tx, self.time.now_ms()).await? {
            if row.turn_started_ms.is_none() {
                continue;
            }
            let channel = row.channel.clone();
            let Some(TimeControl::Clock { minutes, .. }) = TimeControl::parse(&row.time_control)
            else {
                continue;
            };
            let Ok(g) = self.load(&mut tx, row).await else {
                continue;
            };
            let mover = g.pos.turn();
            let Some(left) = g.clock_left(mover) else {
                continue;
            };
            if left <= 0 {
                let (loser, winner) = (g.player(mover), g.player(!mover));
                match self.flag_fell(&mut tx, g).await {
                    Ok(done) => {
                        store::queue_notice(&mut tx, &channel, &done.text, &[loser, winner]).await?
                    }
                    Err(Failure::Db(e)) => return Err(e),
                    Err(_) => {}
                }
            } else if !g.row.low_time_warned && left <= low_time_ms(minutes) {
                store::mark_low_time_warned(&mut tx, g.row.id).await?;
                let who = g.player(mover);
                let text = Text::new().mention(&who).say(format!(
                    ", you have {} left on your clock in game #{}.",
                    clock_face(left),
                    g.row.id
                ));
                store::queue_notice(&mut tx, &channel, &text, &[who]).await?;
            }
        }
        tx.commit().await
    }

    /// The deadline for the next move of a game with this time control,
    /// from now on the core's clock, with its reminder: when a quarter of
    /// the move's time is left.
    pub(super) fn deadline(&self, time_control: &str) -> Option<store::Deadline> {
        let now = self.time.now_ms().div_euclid(1000);
        self.deadline_from(time_control, now)
    }

    pub(super) fn deadline_from(&self, time_control: &str, start: i64) -> Option<store::Deadline> {
        match TimeControl::parse(time_control) {
            Some(TimeControl::Days(d)) => {
                let period = d as i64 * self.settings.day_seconds;
                Some(store::Deadline {
                    at: start + period,
                    remind_at: start + period - period / 4,
                })
            }
            _ => None,
        }
    }
}
