//! The bot's own abort of a clock game whose first moves do not come in
//! time: no result, not rated, not a loss on time.

use crate::core::Core;
use crate::handlers::after::called_off;
use crate::store;
use voidmate_rules::Color;

impl Core {
    /// Aborts the clock games whose first moves did not come in time (a
    /// tenth of the base time, at least 30 seconds, from the start or from
    /// the opponent's first move), announcing each in its channel: no
    /// result, not rated, not a loss on time.
    pub(crate) async fn decide_aborts(&self) -> Result<(), sqlx::Error> {
        let mut tx = self.store.begin().await?;
        let now = self.time.now_ms();
        for rec in store::games_to_abort(&mut tx, now).await? {
            // A damaged game is left as it is (`check-db` names it).
            let Ok(rec) = rec else {
                continue;
            };
            let Ok(g) = self.load(&mut tx, rec).await else {
                continue;
            };
            if g.ply() >= 2 {
                store::set_abort_at(&mut tx, g.id(), None).await?;
                continue;
            }
            let text = called_off(&mut tx, &g, now).await?;
            let both = [g.player(Color::White), g.player(Color::Black)];
            store::queue_notice(&mut tx, &g.rec.channel, &text, &both).await?;
        }
        tx.commit().await
    }
}
