//! Engine reviews as engine work (issue 39, point 2). `analysis` queues a
//! finished game's review; processes that search (the engine's turns here,
//! or engine workers) take reviews from the queue under a lease they renew,
//! one at a time each, evaluating every position at the configured effort
//! and keeping each evaluation as it is found: a review cut short by a
//! crash goes on, after the lease lapses, from where it stopped. The
//! transaction that marks it done queues its notice (the words, and the
//! evaluation graph drawn when it is posted), so it is posted once.

use crate::core::Core;
use crate::game::Game;
use crate::review::{Eval, Review};
use crate::store::{self, LeaseKind};
use std::fmt::Write as _;
use voidmate_rules::{Color, Position};

/// Every position of `g`, from its start, and its moves in SAN.
pub(crate) fn positions(g: &Game) -> Option<(Vec<Position>, Vec<String>)> {
    let (mut all, mut sans) = (Vec::new(), Vec::new());
    for step in g.steps()? {
        sans.extend(step.by.map(|played| played.san));
        all.push(step.pos);
    }
    Some((all, sans))
}

/// The review of `g` from its stored evaluations, once every position has
/// one.
pub(crate) fn review_from(g: &Game, stored: &[(i64, Eval, Option<String>)]) -> Option<Review> {
    // Counted before the game is replayed: an unfinished review costs no
    // replay.
    let complete = stored.len() as i64 == g.ply() + 1
        && stored.iter().enumerate().all(|(i, s)| s.0 == i as i64);
    if !complete {
        return None;
    }
    let (all, sans) = positions(g)?;
    let evals: Vec<Eval> = stored.iter().map(|s| s.1).collect();
    let best: Vec<Option<String>> = stored.iter().map(|s| s.2.clone()).collect();
    Some(Review::new(g.kind(), all[0].turn(), &sans, &evals, &best))
}

/// The review in words: each side's accuracy and marks, and the three
/// costliest moves with the engine's choice, as rows of two columns (a
/// Discord embed's fields, a Matrix table).
pub(crate) fn review_text(g: &Game, r: &Review) -> String {
    let mut text = format!("Review of {}:", g.title());
    for color in Color::ALL {
        let [inacc, mistakes, blunders] = r.counts[color.index()];
        let plural =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let accuracy = r.accuracy[color.index()]
            .map_or("no moves".to_string(), |a| format!("accuracy {a:.0}%"));
        let _ = write!(
            text,
            "\n  {} ({})  {accuracy}: {}, {}, {}",
            one_spaced(&g.name(color)),
            g.side(color),
            plural(inacc, "inaccuracy", "inaccuracies"),
            plural(mistakes, "mistake", "mistakes"),
            plural(blunders, "blunder", "blunders"),
        );
    }
    let worst = r.worst(3);
    if worst.is_empty() {
        text.push_str("\n  Costliest moves  none lost a tenth of a player's winning chances");
    } else {
        let words: Vec<String> = worst
            .iter()
            .map(|m| match &m.better {
                Some(b) => format!("{} (better: {b})", m.numbered(r.first)),
                None => m.numbered(r.first),
            })
            .collect();
        let _ = write!(text, "\n  Costliest moves  {}", words.join(", "));
    }
    let _ = write!(text, "\n`pgn #{}` has every evaluation and mark.", g.id());
    text
}

/// A name with its runs of spaces made one, so it stays in its column.
fn one_spaced(name: &str) -> String {
    name.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl Core {
    /// The effort per position of a review, in nodes.
    pub(crate) fn review_nodes(&self) -> u64 {
        self.engine_cfg.review_nodes.max(1)
    }

    /// The stored review of `g`, if it is complete.
    pub(crate) async fn stored_review(&self, g: &Game) -> Option<Review> {
        let stored = store::review_positions(self.store.pool(), g.id())
            .await
            .ok()?;
        review_from(g, &stored)
    }

    /// Takes a queued review nobody holds, if this process reviews none
    /// now, and runs it in a task of its own, under its lease.
    pub(crate) async fn take_reviews(&self) {
        self.take_one(LeaseKind::Review, |core, id| async move {
            core.run_review(id).await
        })
        .await;
    }

    /// Evaluates each position of game `id`'s review not yet evaluated,
    /// then finishes the review and queues its notice, unless another
    /// process took it meanwhile.
    pub(crate) async fn run_review(&self, id: i64) -> Result<(), String> {
        let row = {
            let mut read = self.store.read().await.map_err(|e| e.to_string())?;
            store::review_of(&mut read, id)
                .await
                .map_err(|e| e.to_string())?
                .ok_or("the review is gone")?
        };
        self.review_positions(&row).await
    }

    async fn review_positions(&self, row: &store::ReviewRow) -> Result<(), String> {
        let id = row.game_id;
        let g = {
            let mut read = self.store.read().await.map_err(|e| e.to_string())?;
            let game_row = store::game(&mut read, &row.channel, id)
                .await
                .map_err(|e| e.to_string())?
                .ok_or("the game is gone")?;
            self.load_unlocked(&mut read, game_row)
                .await
                .map_err(|e| format!("{e:?}"))?
        };
        let (all, _) = positions(&g).ok_or("the game does not replay")?;
        let pool = self.store.pool();
        let done: Vec<i64> = store::review_positions(pool, id)
            .await
            .map_err(|e| e.to_string())?
            .into_iter()
            .map(|p| p.0)
            .collect();
        let nodes = (row.nodes.max(1)) as u64;
        for (ply, pos) in all.iter().enumerate() {
            if done.contains(&(ply as i64)) {
                continue;
            }
            let (eval, best) = match Eval::over(pos) {
                Some(over) => (over, None),
                None => {
                    let (score, mv) = self
                        .engine
                        .analyse(pos.clone(), nodes)
                        .await
                        .ok_or("the engine found no move")?;
                    (Eval::from_score(score), Some(pos.san(&mv)))
                }
            };
            store::save_review_position(pool, id, ply as i64, eval, best.as_deref())
                .await
                .map_err(|e| e.to_string())?;
        }
        let review = self
            .stored_review(&g)
            .await
            .ok_or("the review is not complete")?;
        let text = review_text(&g, &review);
        let mut tx = self.store.begin().await.map_err(|e| e.to_string())?;
        let now = self.time.now_ms();
        if store::finish_review(&mut tx, id, now)
            .await
            .map_err(|e| e.to_string())?
        {
            store::queue_board_notice(
                &mut tx,
                &row.platform,
                &row.channel,
                &crate::contract::Text::from(text),
                store::BoardRef {
                    game: id,
                    ply: g.ply(),
                    kind: store::BoardKind::ReviewGraph,
                },
                now,
            )
            .await
            .map_err(|e| e.to_string())?;
        }
        tx.commit().await.map_err(|e| e.to_string())
    }
}
