//! Daily puzzles' periodic work: at each channel's time, the day's puzzle
//! (one the channel never had) is chosen and posted as a notice with its
//! board. The channel's row is moved to the next day in the same
//! transaction, by compare-and-set: two processes never post one day twice.

use crate::contract::Text;
use crate::core::Core;
use crate::store::{self, BoardKind, BoardRef};

const DAY_MS: i64 = 86_400_000;

impl Core {
    /// Posts the daily puzzles that have come due.
    pub(crate) async fn decide_dailies(&self) -> Result<(), sqlx::Error> {
        let now = self.time.now_ms();
        if !store::any_daily_due(self.store.pool(), now).await? {
            return Ok(());
        }
        let mut tx = self.store.begin().await?;
        let now = tx.now_ms();
        for d in store::due_dailies(&mut tx, now).await? {
            // After a long downtime: the next one at the channel's time, not
            // one for every day missed.
            let mut next = d.next_ms;
            while next <= now {
                next += DAY_MS;
            }
            if !store::reschedule_daily(&mut tx, &d.channel, d.next_ms, next).await? {
                continue;
            }
            let Some(p) = store::choose_daily(&mut tx, &d.community, &d.channel).await? else {
                tracing::info!(channel = %d.channel, "no puzzle left for the daily puzzle");
                continue;
            };
            if !store::post_daily(&mut tx, &d.channel, now.div_euclid(DAY_MS), p.id).await? {
                continue;
            }
            let Ok(line) = crate::solving::Line::of(&p) else {
                tracing::warn!(
                    puzzle = p.id,
                    "a damaged puzzle was chosen for a daily puzzle"
                );
                continue;
            };
            let text = Text::from(format!(
                "Puzzle of the day, {} ({}, from game #{}): after {}, {}. Anyone may answer with a move; the first to find each move is credited. `puzzle daily` shows it again.",
                p.label(),
                p.kind.title(),
                p.game_id,
                line.sans[0],
                crate::solving::to_move(line.solver()),
            ));
            let board = BoardRef {
                game: p.id,
                ply: 1,
                kind: BoardKind::Puzzle,
            };
            store::queue_board_notice(&mut tx, &d.platform, &d.channel, &text, board, now).await?;
        }
        tx.commit().await
    }
}
