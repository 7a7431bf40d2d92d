//! The engine's own threads: a search never runs on the async workers, so
//! the bot keeps answering everyone else while it thinks.

use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use voidmate_engine::{choose, Level, Limits};
use voidmate_rules::{Move, Position};

type Job = Box<dyn FnOnce() + Send>;

/// A fixed pool of search threads fed through a queue.
pub struct EnginePool {
    jobs: Mutex<mpsc::Sender<Job>>,
}

impl EnginePool {
    pub fn new(threads: usize) -> Arc<EnginePool> {
        let (tx, rx) = mpsc::channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..threads.max(1) {
            let rx = rx.clone();
            std::thread::Builder::new()
                .name(format!("voidmate-engine-{i}"))
                .stack_size(16 << 20)
                .spawn(move || loop {
                    let job = match rx.lock().expect("not poisoned").recv() {
                        Ok(job) => job,
                        Err(_) => return,
                    };
                    job();
                })
                .expect("spawn an engine thread");
        }
        Arc::new(EnginePool {
            jobs: Mutex::new(tx),
        })
    }

    /// The engine's move in `pos` at `level`, thinking for `time`.
    pub async fn best_move(&self, pos: Position, level: Level, time: Duration) -> Option<Move> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let seed = pos.board().key();
        let job: Job = Box::new(move || {
            let found = choose(&pos, level, Limits::time(time), seed).map(|r| r.best);
            let _ = tx.send(found);
        });
        self.jobs.lock().expect("not poisoned").send(job).ok()?;
        rx.await.ok().flatten()
    }
}
