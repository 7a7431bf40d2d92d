//! Puzzle searches as engine work (issue 49, point 1). Every finished game
//! is queued for a search in the transaction that finishes it; a process
//! that searches (`[engine] puzzle_searches`) takes one at a time from the
//! queue under a lease it renews, as reviews are taken. The candidates
//! come from the game's stored review where it has one, else from a quick
//! scan of every position (a quarter of the puzzle effort); each candidate
//! is solved by `voidmate_engine::puzzle`. The puzzles and the search's end
//! are written in one transaction: a search cut short by a kill is done
//! again from the start after its lease lapses, and a puzzle stored once
//! (`UNIQUE (game_id, ply)`) is never stored twice.

use crate::core::Core;
use crate::review::{coefficient, Eval};
use crate::review_flow::positions;
use crate::store::{self, LeaseKind, NewPuzzle};
use voidmate_engine::puzzle::{self, Thresholds};
use voidmate_engine::MATE;
use voidmate_rules::Position;

/// A score for the side to move from a stored evaluation.
fn score_of(eval: Eval) -> i32 {
    match eval {
        Eval::Cp(cp) => cp,
        Eval::Mate(plies) if plies > 0 => MATE - plies,
        Eval::Mate(plies) => -(MATE + plies),
        Eval::Over(r) => i32::from(r) * MATE,
    }
}

impl Core {
    /// The effort of each search of a puzzle's line, in nodes.
    pub(crate) fn puzzle_nodes(&self) -> u64 {
        self.engine_cfg.puzzle_nodes.max(1)
    }

    /// Takes a queued puzzle search nobody holds, if this process searches
    /// for puzzles and runs none now, and runs it in a task of its own.
    pub(crate) async fn take_puzzle_searches(&self) {
        if !self.engine_cfg.puzzle_searches {
            return;
        }
        self.take_one(LeaseKind::PuzzleSearch, |core, id| async move {
            core.run_puzzle_search(id).await.map(|_| ())
        })
        .await;
    }

    /// `voidmate puzzles generate`: searches the finished games not searched
    /// yet (ended at `since_ms` or later, at most `limit`, oldest first),
    /// one at a time under each search's lease (a game another process is
    /// searching is passed over), telling `progress` after each game (games
    /// done, of how many, puzzles found so far). Resumable: a game searched
    /// is never searched again. Returns (games searched, puzzles found).
    pub async fn generate_puzzles(
        &self,
        since_ms: Option<i64>,
        limit: Option<u32>,
        mut progress: impl FnMut(usize, usize, usize),
    ) -> Result<(usize, usize), String> {
        let games = {
            let mut tx = self.store.begin().await.map_err(|e| e.to_string())?;
            let now = tx.now_ms();
            let games = store::puzzle_backlog(&mut tx, since_ms, limit, now)
                .await
                .map_err(|e| e.to_string())?;
            tx.commit().await.map_err(|e| e.to_string())?;
            games
        };
        let (mut searched, mut found) = (0, 0);
        for (i, &id) in games.iter().enumerate() {
            let held = self
                .leases
                .claim_key(LeaseKind::PuzzleSearch, id)
                .await
                .map_err(|e| e.to_string())?;
            if let Some(_held) = held {
                found += self.run_puzzle_search(id).await?;
                searched += 1;
            }
            progress(i + 1, games.len(), found);
        }
        Ok((searched, found))
    }

    /// Searches game `id` for puzzles and stores them with the search's
    /// end; how many were new.
    pub async fn run_puzzle_search(&self, id: i64) -> Result<usize, String> {
        let g = {
            let mut read = self.store.read().await.map_err(|e| e.to_string())?;
            let row = store::game_anywhere(&mut read, id)
                .await
                .map_err(|e| e.to_string())?
                .ok_or("the game is gone")?;
            self.load_unlocked(&mut read, row)
                .await
                .map_err(|e| format!("{e:?}"))?
        };
        let mut found = Vec::new();
        // A reprogrammed Super Chess game's pieces are not in a FEN: its
        // positions cannot be set up again as puzzles.
        let replayable = g.rec.mode == crate::command::ProgramMode::Default;
        if let (true, Some((all, sans))) = (replayable, positions(&g)) {
            let scores = self.puzzle_scores(&g, &all).await;
            let t = Thresholds::for_curve(coefficient(g.kind()));
            let mut i = 1;
            while i < all.len() {
                if puzzle::is_candidate(&all, &scores, i, &t) {
                    if let Some((line, score, mated)) = self
                        .engine
                        .solve_puzzle(all[i].clone(), self.puzzle_nodes(), t)
                        .await
                    {
                        let mut themes = puzzle::themes(line.len(), score, mated, &t);
                        themes.extend(puzzle::game_themes(&all[i], &line));
                        let mut moves = vec![sans[i - 1].clone()];
                        let mut pos: Position = all[i].clone();
                        for m in &line {
                            moves.push(pos.san(m));
                            pos = pos.after(m);
                        }
                        let len = line.len();
                        found.push(NewPuzzle {
                            game_id: id,
                            ply: i as i64,
                            community: None,
                            platform: "",
                            kind: g.kind(),
                            fen: all[i - 1].fen(),
                            moves,
                            score,
                            themes: themes.iter().map(|t| t.name()).collect(),
                        });
                        i += len;
                    }
                }
                i += 1;
            }
        }
        let platform = g.rec.seats[voidmate_rules::Color::White]
            .player
            .id
            .platform()
            .to_string();
        let mut tx = self.store.begin().await.map_err(|e| e.to_string())?;
        let now = tx.now_ms();
        let mut new = 0;
        for p in &mut found {
            p.community = g.rec.community.as_deref();
            p.platform = &platform;
            if store::save_puzzle(&mut tx, p, now)
                .await
                .map_err(|e| e.to_string())?
            {
                new += 1;
            }
        }
        store::finish_puzzle_search(&mut tx, id, found.len(), now)
            .await
            .map_err(|e| e.to_string())?;
        tx.commit().await.map_err(|e| e.to_string())?;
        Ok(new)
    }

    /// Each position's score for its side to move: the stored review's
    /// where the game has a complete one, else a quick search of each.
    async fn puzzle_scores(&self, g: &crate::game::Game, all: &[Position]) -> Vec<Option<i32>> {
        if let Ok(stored) = store::review_positions(self.store.pool(), g.id()).await {
            let complete = stored.len() == all.len()
                && stored.iter().enumerate().all(|(i, s)| s.0 == i as i64);
            if complete {
                return stored.iter().map(|s| Some(score_of(s.1))).collect();
            }
        }
        let nodes = (self.puzzle_nodes() / 4).max(1);
        let mut scores = Vec::with_capacity(all.len());
        for pos in all {
            let score = match Eval::over(pos) {
                Some(e) => Some(score_of(e)),
                None => self
                    .engine
                    .analyse(pos.clone(), nodes)
                    .await
                    .map(|(s, _)| s),
            };
            scores.push(score);
        }
        scores
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_evaluations_become_engine_scores() {
        assert_eq!(score_of(Eval::Cp(-35)), -35);
        assert_eq!(score_of(Eval::Mate(3)), MATE - 3);
        assert_eq!(score_of(Eval::Mate(-2)), -(MATE - 2));
        assert_eq!(score_of(Eval::Over(1)), MATE);
        assert_eq!(score_of(Eval::Over(0)), 0);
        assert_eq!(Eval::from_score(score_of(Eval::Mate(-2))), Eval::Mate(-2));
        assert_eq!(Eval::from_score(score_of(Eval::Mate(5))), Eval::Mate(5));
    }
}
