//! The core's one clock: every time a handler, a deadline or a clock reads
//! comes from here, so tests move it by hand.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

/// Where the core reads the time for clocks: the system clock, or one a
/// test moves by hand.
#[derive(Clone)]
pub struct TimeSource(Arc<dyn Fn() -> i64 + Send + Sync>);

impl TimeSource {
    pub fn system() -> TimeSource {
        TimeSource(Arc::new(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_millis() as i64)
                .unwrap_or(0)
        }))
    }

    /// A clock that reads `millis` (tests move it by hand).
    pub fn manual(millis: Arc<AtomicI64>) -> TimeSource {
        TimeSource(Arc::new(move || millis.load(Ordering::SeqCst)))
    }

    /// Milliseconds since the epoch.
    pub fn now_ms(&self) -> i64 {
        (self.0)()
    }
}
