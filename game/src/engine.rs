//! The engine's own threads: a search never runs on the async workers, so
//! the bot keeps answering everyone else while it thinks.

use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use voidmate_engine::{choose_with, puzzle, Clock, Features, Level, Limits, Table};
use voidmate_rules::{Move, Position};

/// A search to run, handed the thread's transposition table.
type Job = Box<dyn FnOnce(&mut Table) + Send>;

/// A fixed pool of search threads fed through a queue.
pub struct EnginePool {
    jobs: Mutex<mpsc::Sender<Job>>,
}

impl EnginePool {
    /// `threads` search threads, each with a transposition table of about
    /// `table_mb` megabytes, kept from one search to the next (what it
    /// learnt of a game's position serves the next move in that game).
    pub fn new(threads: usize, table_mb: usize) -> Arc<EnginePool> {
        let (tx, rx) = mpsc::channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..threads.max(1) {
            let rx = rx.clone();
            std::thread::Builder::new()
                .name(format!("voidmate-engine-{i}"))
                .stack_size(16 << 20)
                .spawn(move || {
                    let mut table = Table::with_megabytes(table_mb);
                    loop {
                        // The lock only guards `recv`; a poisoned one still holds
                        // a sound receiver.
                        let job = match rx.lock().unwrap_or_else(|e| e.into_inner()).recv() {
                            Ok(job) => job,
                            Err(_) => return,
                        };
                        // A search that panics loses its answer (the caller
                        // sees the sender dropped), never the thread: the pool
                        // keeps its size for every later game.
                        let run = std::panic::AssertUnwindSafe(|| job(&mut table));
                        if let Err(panic) = std::panic::catch_unwind(run) {
                            tracing::error!(
                                "an engine search panicked: {}",
                                super::isolate::panic_message(panic.as_ref())
                            );
                            // Whatever the search left half-written is dropped.
                            table = Table::with_megabytes(table_mb);
                        }
                    }
                })
                .expect("spawn an engine thread");
        }
        Arc::new(EnginePool {
            jobs: Mutex::new(tx),
        })
    }

    /// The engine's move in `pos` at `level`, thinking for `time`, or on
    /// `clock` for as long as its plan says and never more than `time`.
    pub async fn best_move(
        &self,
        pos: Position,
        level: Level,
        time: Duration,
        clock: Option<Clock>,
    ) -> Option<Move> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let seed = pos.board().key();
        let job: Job = Box::new(move |table: &mut Table| {
            let limits = Limits {
                features: Features::for_game(pos.rules().kind()),
                clock,
                ..Limits::time(time)
            };
            let found = choose_with(&pos, level, limits, seed, table).map(|r| r.best);
            let _ = tx.send(found);
        });
        self.run(job)?;
        rx.await.ok().flatten()
    }

    /// The engine's score of `pos` for the side to move, in centipawns,
    /// after a search of `nodes` positions at `level`; `None` when the game
    /// is over.
    pub async fn score(&self, pos: Position, level: Level, nodes: u64) -> Option<i32> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move |table: &mut Table| {
            let limits = Limits {
                features: Features::for_game(pos.rules().kind()),
                nodes: Some(nodes),
                ..Default::default()
            };
            let found = choose_with(&pos, level, limits, 0, table).map(|r| r.score);
            let _ = tx.send(found);
        });
        self.run(job)?;
        rx.await.ok().flatten()
    }

    /// The engine's judgement of `pos` for a review: its score for the side
    /// to move and its best move, after `nodes` positions at full strength,
    /// from an empty table (the same position reviewed twice gets the same
    /// answer). `None` when the game is over.
    pub async fn analyse(&self, pos: Position, nodes: u64) -> Option<(i32, Move)> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move |table: &mut Table| {
            table.clear();
            let limits = Limits {
                features: Features::for_game(pos.rules().kind()),
                nodes: Some(nodes),
                ..Default::default()
            };
            let found = choose_with(&pos, Level::MAX, limits, 0, table).map(|r| (r.score, r.best));
            let _ = tx.send(found);
        });
        self.run(job)?;
        rx.await.ok().flatten()
    }

    /// A puzzle's line from `start` (the solver to move), each search
    /// within `nodes` (a solver's move confirmed at twice that), from an
    /// empty table (the same game searched twice finds the same puzzle):
    /// the moves, the solver's final score, whether it mates. `None`: no
    /// puzzle there.
    pub async fn solve_puzzle(
        &self,
        start: Position,
        nodes: u64,
        thresholds: puzzle::Thresholds,
    ) -> Option<(Vec<Move>, i32, bool)> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move |table: &mut Table| {
            table.clear();
            let limits = Limits {
                features: Features::for_puzzles(start.rules().kind()),
                nodes: Some(nodes),
                time: None,
                ..Default::default()
            };
            let _ = tx.send(puzzle::solve(&start, &limits, table, &thresholds));
        });
        self.run(job)?;
        rx.await.ok().flatten()
    }

    /// Queues `job` for the next free search thread.
    fn run(&self, job: Job) -> Option<()> {
        self.jobs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .send(job)
            .ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_panicking_search_does_not_cost_the_pool_its_thread() {
        let pool = EnginePool::new(1, 1);
        pool.run(Box::new(|_| panic!("a search went wrong")))
            .unwrap();
        // The single thread is still there to play the next move.
        let pos = Position::new(voidmate_rules::variants::standard());
        let mv = pool
            .best_move(
                pos.clone(),
                Level::new(1).unwrap(),
                Duration::from_millis(50),
                None,
            )
            .await;
        assert!(mv.is_some_and(|m| pos.is_legal(&m)));
    }
}
