//! The core's one clock. Every timestamp the core writes and every wait it
//! makes (a deadline, a lease and its renewal, the order wait before a
//! reply, pruning) reads this clock, so a test moves time by hand instead
//! of sleeping, and several cores ("processes") in one test share one.
//!
//! Two things stay on real time on purpose: the database's and the
//! network's own timeouts, and the short pauses of a wait that watches for
//! another process's work (see [`Clock::nap`]): those are about other
//! programs, not about the time a game or a lease counts.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;

/// Where the core reads the time: the system's clock, or one a test moves
/// by hand ([`Clock::manual`]). Cheap to clone; clones read the same time.
#[derive(Clone)]
pub struct Clock(Arc<Source>);

enum Source {
    System,
    /// The time a test set, and a channel that wakes sleepers when it moves.
    Manual {
        now_ms: AtomicI64,
        moved: watch::Sender<i64>,
    },
}

impl Clock {
    /// The system's clock.
    pub fn system() -> Clock {
        Clock(Arc::new(Source::System))
    }

    /// A clock that stands at `start_ms` (milliseconds since 1970) until a
    /// test moves it with [`Clock::advance`] or [`Clock::set`].
    pub fn manual(start_ms: i64) -> Clock {
        let (moved, _) = watch::channel(start_ms);
        Clock(Arc::new(Source::Manual {
            now_ms: AtomicI64::new(start_ms),
            moved,
        }))
    }

    /// Milliseconds since 1970 (UTC).
    pub fn now_ms(&self) -> i64 {
        match &*self.0 {
            Source::System => system_ms(),
            Source::Manual { now_ms, .. } => now_ms.load(Ordering::SeqCst),
        }
    }

    /// Whole seconds since 1970 (UTC): what the tables that count in
    /// seconds keep (`created_at`, deadlines).
    pub fn now_secs(&self) -> i64 {
        self.now_ms().div_euclid(1000)
    }

    /// Whether a test moves this clock.
    pub fn is_manual(&self) -> bool {
        matches!(&*self.0, Source::Manual { .. })
    }

    /// Moves a manual clock on by `ms`, waking whatever waits on it; the
    /// new time. On the system's clock it does nothing (time moves by
    /// itself there).
    pub fn advance(&self, ms: i64) -> i64 {
        match &*self.0 {
            Source::System => system_ms(),
            Source::Manual { now_ms, moved } => {
                let now = now_ms.fetch_add(ms, Ordering::SeqCst) + ms;
                moved.send_replace(now);
                now
            }
        }
    }

    /// Sets a manual clock to `at_ms` (which may be earlier: a machine whose
    /// clock was put back), waking whatever waits on it.
    pub fn set(&self, at_ms: i64) {
        if let Source::Manual { now_ms, moved } = &*self.0 {
            now_ms.store(at_ms, Ordering::SeqCst);
            moved.send_replace(at_ms);
        }
    }

    /// Waits until this clock reads `at_ms` or later.
    pub async fn sleep_until(&self, at_ms: i64) {
        match &*self.0 {
            Source::System => {
                let left = at_ms.saturating_sub(system_ms());
                if left > 0 {
                    tokio::time::sleep(Duration::from_millis(left as u64)).await;
                }
            }
            Source::Manual { now_ms, moved } => {
                // Subscribed before the time is read: a move in between
                // is seen as a change.
                let mut rx = moved.subscribe();
                while now_ms.load(Ordering::SeqCst) < at_ms {
                    if rx.changed().await.is_err() {
                        // The clock is gone with every core that read it.
                        std::future::pending::<()>().await;
                    }
                }
            }
        }
    }

    /// Waits `d` on this clock.
    pub async fn sleep(&self, d: Duration) {
        let ms = i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
        self.sleep_until(self.now_ms().saturating_add(ms)).await;
    }

    /// Waits until this clock reads `at_ms`, or until `look_again` of real
    /// time has passed, whichever comes first: a wait whose end is a time
    /// on the clock (a hold that lapses) but which also watches for another
    /// process's work (the hold confirmed meanwhile). The pause is real
    /// time because the other process's work is.
    pub async fn nap(&self, at_ms: i64, look_again: Duration) {
        tokio::select! {
            () = self.sleep_until(at_ms) => {}
            () = tokio::time::sleep(look_again) => {}
        }
    }
}

impl std::fmt::Debug for Clock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &*self.0 {
            Source::System => f.write_str("Clock::system"),
            Source::Manual { now_ms, .. } => {
                write!(f, "Clock::manual({})", now_ms.load(Ordering::SeqCst))
            }
        }
    }
}

fn system_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// The calendar date (year, month, day) and the seconds into that day of
/// a time in seconds since 1970 (UTC), by Howard Hinnant's
/// civil-from-days arithmetic (no date crate for one function).
pub(crate) fn civil(secs: i64) -> (i64, i64, i64, i64) {
    let (days, of_day) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day, of_day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_manual_clock_wakes_a_sleeper_only_when_moved_past_its_time() {
        let clock = Clock::manual(1_000);
        let sleeper = tokio::spawn({
            let clock = clock.clone();
            async move { clock.sleep_until(5_000).await }
        });
        // Real time passes; the clock does not: the sleeper sleeps on.
        tokio::time::sleep(Duration::from_millis(30)).await;
        assert!(!sleeper.is_finished());
        assert_eq!(clock.advance(3_000), 4_000);
        tokio::time::sleep(Duration::from_millis(30)).await;
        assert!(!sleeper.is_finished(), "4 s is before 5 s");
        clock.advance(1_000);
        tokio::time::timeout(Duration::from_secs(5), sleeper)
            .await
            .expect("woken at 5 s")
            .unwrap();
        assert_eq!(clock.now_ms(), 5_000);
        assert_eq!(clock.now_secs(), 5);
    }

    #[tokio::test]
    async fn a_nap_ends_at_its_time_or_after_a_real_pause() {
        let clock = Clock::manual(0);
        // Nothing moves the clock: the real pause ends the nap.
        tokio::time::timeout(
            Duration::from_secs(5),
            clock.nap(60_000, Duration::from_millis(10)),
        )
        .await
        .expect("the pause ends it");
        // The clock reaches the time first.
        let napper = tokio::spawn({
            let clock = clock.clone();
            async move { clock.nap(60_000, Duration::from_secs(3600)).await }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        clock.set(60_000);
        tokio::time::timeout(Duration::from_secs(5), napper)
            .await
            .expect("the clock ends it")
            .unwrap();
    }

    #[tokio::test]
    async fn the_system_clock_cannot_be_moved_by_hand() {
        let clock = Clock::system();
        assert!(!clock.is_manual());
        let now = clock.now_ms();
        assert!(clock.advance(3_600_000) < now + 3_600_000);
        clock.set(0);
        assert!(clock.now_ms() >= now);
    }
}
