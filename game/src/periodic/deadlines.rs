//! Deadlines and clocks: reminders, losses on time, low-time warnings and
//! flags, on the core's one clock.

use crate::command::TimeControl;
use crate::contract::Text;
use crate::core::{Core, HEARTBEAT_KEY};
use crate::ctx::Ctx;
use crate::error::Failure;
use crate::game::low_time_ms;
use crate::handlers::ending::{flag_fell, lost_on_time};
use crate::store;
use crate::words::{clock_face, human_duration};

impl Core {
    /// Sends reminders and ends games on time, queueing what to announce in
    /// the same transaction.
    pub(crate) async fn decide_deadlines(&self) -> Result<(), sqlx::Error> {
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
        // A damaged game is left as it is (`check-db` names it).
        for rec in store::due_games(&mut tx, now_ms)
            .await?
            .into_iter()
            .flatten()
        {
            let (Some(_), &TimeControl::Days(days)) = (rec.deadline_at, &rec.clock) else {
                continue;
            };
            let period = days as i64 * self.settings.day_seconds;
            let channel = rec.channel.clone();
            let Ok(g) = self.load(&mut tx, rec).await else {
                continue;
            };
            // As it stands now: another process may have settled it, or a
            // move set a new deadline, while this one waited for the game.
            let Some(deadline) = g.rec.deadline_at else {
                continue;
            };
            let mover = g.pos.turn();
            let (to_move, other) = (g.player(mover), g.player(!mover));
            if now >= deadline {
                let lost = {
                    let mut cx = Ctx::of_bot(self, &mut tx, &channel, &to_move);
                    lost_on_time(&mut cx, &g).await
                };
                match lost {
                    Ok((text, notify)) => {
                        store::queue_notice(&mut tx, &channel, &text, &notify).await?
                    }
                    Err(Failure::Storage(e)) => return Err(e),
                    Err(_) => {}
                }
            } else if remind && !g.rec.reminded && deadline - now <= period / 4 {
                store::mark_reminded(&mut tx, g.id()).await?;
                let text = Text::new().mention(&to_move).say(format!(
                    ", it is your move in game #{} against {other}; time runs out in {}.",
                    g.id(),
                    human_duration(deadline - now, self.settings.day_seconds)
                ));
                store::queue_notice(&mut tx, &channel, &text, &[to_move]).await?;
            }
        }
        tx.commit().await
    }

    /// Notes that the core is running now (see [`Core::open_with_time`]).
    pub(crate) async fn heartbeat(&self) {
        let now = self.time.now_ms().to_string();
        if let Err(e) = store::set_adapter_value(self.store.pool(), HEARTBEAT_KEY, &now).await {
            tracing::warn!("cannot note the time: {e}");
        }
    }

    /// Flags that fell and players low on time, announced through the outbox.
    pub(crate) async fn decide_clocks(&self) -> Result<(), sqlx::Error> {
        let mut tx = self.store.begin().await?;
        // Only games whose flag or low-time warning has come (see `due_ms`).
        for rec in store::due_games(&mut tx, self.time.now_ms())
            .await?
            .into_iter()
            .flatten()
        {
            let (Some(_), &TimeControl::Clock { minutes, .. }) = (rec.turn_started_ms, &rec.clock)
            else {
                continue;
            };
            let channel = rec.channel.clone();
            let Ok(g) = self.load(&mut tx, rec).await else {
                continue;
            };
            let mover = g.pos.turn();
            let Some(left) = g.clock_left(mover) else {
                continue;
            };
            if left <= 0 {
                let (loser, winner) = (g.player(mover), g.player(!mover));
                let fell = {
                    let mut cx = Ctx::of_bot(self, &mut tx, &channel, &loser);
                    flag_fell(&mut cx, g).await
                };
                match fell {
                    Ok(done) => {
                        store::queue_notice(&mut tx, &channel, &done.text, &[loser, winner]).await?
                    }
                    Err(Failure::Storage(e)) => return Err(e),
                    Err(_) => {}
                }
            } else if !g.rec.low_time_warned && left <= low_time_ms(minutes) {
                store::mark_low_time_warned(&mut tx, g.id()).await?;
                let who = g.player(mover);
                let text = Text::new().mention(&who).say(format!(
                    ", you have {} left on your clock in game #{}.",
                    clock_face(left),
                    g.id()
                ));
                store::queue_notice(&mut tx, &channel, &text, &[who]).await?;
            }
        }
        tx.commit().await
    }
}
