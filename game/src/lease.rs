//! This process's leases: the work it holds in the database (an engine
//! turn, a review, a notice it is posting), each kept renewed by one task
//! while the work goes on, and let go when the work ends.
//!
//! A lease is claimed in the database ([`store::leases`]), or inside a
//! transaction that also does something else (a move that queues the
//! engine's turn, an answer stored with its event), and then *held* here
//! ([`Leases::hold`]): the [`Held`] guard keeps it renewed until it is
//! dropped, also when the work holding it panics or is cancelled. A process
//! that dies stops renewing; once its leases lapse, another process claims
//! the work ([`Leases::claim_next`]) and finishes it.
//!
//! One task renews every lease of the process, on the core's clock, a
//! statement per kind of lease at a time.

use crate::store::{self, Claim, LeaseKind, Store};
use crate::time::Clock;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};

/// How long a claim on an engine turn or a review holds without renewal.
pub const ENGINE_LEASE_MS: i64 = 15_000;

/// How long a notice is its poster's without renewal: longer than any
/// post takes (a board upload included), short enough that a notice held
/// by a process that died goes out soon after.
pub const NOTICE_LEASE_MS: i64 = 60_000;

impl LeaseKind {
    /// How long a lease of this kind holds unless renewed (ms).
    pub fn lease_ms(self) -> i64 {
        match self {
            LeaseKind::EngineTurn | LeaseKind::Review | LeaseKind::PuzzleSearch => ENGINE_LEASE_MS,
            LeaseKind::Notice => NOTICE_LEASE_MS,
        }
    }

    /// How often a held lease of this kind is renewed (ms): well within the
    /// lease; a notice's often, because a reply waiting behind it judges by
    /// its renewals whether its poster lives (see `delivery`).
    pub fn renew_every_ms(self) -> i64 {
        match self {
            LeaseKind::EngineTurn | LeaseKind::Review | LeaseKind::PuzzleSearch => 5_000,
            LeaseKind::Notice => 1_000,
        }
    }
}

/// This process's name in the claims it makes: host, process id and start
/// time, so that a restarted process with the same id is someone else. Real
/// time, not the core's clock: several cores of one test are several
/// processes, and must not share a name.
pub fn claimant() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_default();
    let started = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    format!("{host}:{}:{started}:{n}", std::process::id())
}

/// Tells apart the cores one process opens (tests do).
static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The leases this process holds, and the task that renews them.
#[derive(Clone)]
pub struct Leases(Arc<Inner>);

struct Inner {
    store: Store,
    clock: Clock,
    holder: Arc<str>,
    held: Mutex<HashMap<(LeaseKind, i64), Entry>>,
    /// Wakes the renewing task when a lease is held (it may sleep longer
    /// than the new one can wait).
    changed: Arc<tokio::sync::Notify>,
    /// The renewing task, once started.
    keeper: Mutex<Option<tokio::task::AbortHandle>>,
    /// Taken while a claim is made from a queue, so that two of this
    /// process's tasks do not both claim when only one more may run.
    claiming: tokio::sync::Mutex<()>,
    /// Set by [`Leases::stop`]: nothing is renewed any more.
    stopped: AtomicBool,
    /// Held while a renewal is written, so that [`Leases::stop`] returns
    /// only once none is under way.
    renewing: tokio::sync::Mutex<()>,
}

/// A lease held here.
struct Entry {
    /// When it is renewed next (core's clock).
    renew_at: i64,
    /// When it is renewed no more, whatever happens (a post that hangs).
    until_at_most: Option<i64>,
    /// Set when a renewal finds it is no longer ours.
    lost: Arc<AtomicBool>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        if let Some(keeper) = self.keeper.lock().unwrap_or_else(|e| e.into_inner()).take() {
            keeper.abort();
        }
    }
}

impl Leases {
    /// The leases of a process named `holder` (see [`claimant`]).
    pub fn new(store: Store, clock: Clock, holder: impl Into<Arc<str>>) -> Leases {
        Leases(Arc::new(Inner {
            store,
            clock,
            holder: holder.into(),
            held: Mutex::default(),
            changed: Arc::default(),
            keeper: Mutex::default(),
            claiming: tokio::sync::Mutex::new(()),
            stopped: AtomicBool::new(false),
            renewing: tokio::sync::Mutex::new(()),
        }))
    }

    /// Who this process is in its claims.
    pub fn holder(&self) -> &str {
        &self.0.holder
    }

    /// A claim of `kind` from now, for a statement that claims the work
    /// itself (then [`Leases::hold`] it).
    pub fn claim(&self, kind: LeaseKind) -> Claim<'_> {
        Claim {
            by: &self.0.holder,
            until_ms: self.0.clock.now_ms() + kind.lease_ms(),
        }
    }

    /// How many leases of `kind` are held here.
    pub fn count(&self, kind: LeaseKind) -> usize {
        self.entries().keys().filter(|(k, _)| *k == kind).count()
    }

    /// Keeps this process's lease of `kind` on `key` (claimed in the
    /// database already) renewed while the returned guard lives; `None` if
    /// it is held here already (the work runs here: it is not started
    /// twice).
    pub fn hold(&self, kind: LeaseKind, key: i64) -> Option<Held> {
        self.hold_until(kind, key, None)
    }

    /// [`Leases::hold`] renewed for `at_most_ms` at most, whatever the
    /// work does meanwhile (a post that hangs must not hold its channel
    /// for ever).
    pub fn hold_for(&self, kind: LeaseKind, key: i64, at_most_ms: i64) -> Option<Held> {
        let until = self.0.clock.now_ms().saturating_add(at_most_ms);
        self.hold_until(kind, key, Some(until))
    }

    fn hold_until(&self, kind: LeaseKind, key: i64, at_most: Option<i64>) -> Option<Held> {
        let lost = Arc::new(AtomicBool::new(false));
        {
            let mut held = self.entries();
            if held.contains_key(&(kind, key)) {
                return None;
            }
            held.insert(
                (kind, key),
                Entry {
                    renew_at: self.0.clock.now_ms() + kind.renew_every_ms(),
                    until_at_most: at_most,
                    lost: lost.clone(),
                },
            );
        }
        self.keep_renewing();
        Some(Held {
            kind,
            key,
            leases: Arc::downgrade(&self.0),
            lost,
        })
    }

    /// Claims the first work of `kind` nobody holds and holds it, if fewer
    /// than `at_most` of its kind are held here; `None` if there is none
    /// (or this process is full).
    pub async fn claim_next(
        &self,
        kind: LeaseKind,
        at_most: usize,
    ) -> Result<Option<Held>, sqlx::Error> {
        let _one_at_a_time = self.0.claiming.lock().await;
        loop {
            if self.count(kind) >= at_most || self.0.stopped.load(Ordering::SeqCst) {
                return Ok(None);
            }
            let now = self.0.clock.now_ms();
            let claim = self.claim(kind);
            let Some(key) =
                store::leases::claim_next(self.0.store.pool(), kind, now, claim).await?
            else {
                return Ok(None);
            };
            match self.hold(kind, key) {
                Some(held) => return Ok(Some(held)),
                // Held here already (its lease lapsed while the work went
                // on, and was just claimed again): the running work goes on
                // renewing it. Look further.
                None => continue,
            }
        }
    }

    /// Claims the work of `kind` on `key` and holds it; `None` if another
    /// process holds it, it is no longer wanted, or it runs here already.
    pub async fn claim_key(&self, kind: LeaseKind, key: i64) -> Result<Option<Held>, sqlx::Error> {
        let _one_at_a_time = self.0.claiming.lock().await;
        if self.0.stopped.load(Ordering::SeqCst) {
            return Ok(None);
        }
        let now = self.0.clock.now_ms();
        let claim = self.claim(kind);
        if !store::leases::claim_key(self.0.store.pool(), kind, key, now, claim).await? {
            return Ok(None);
        }
        Ok(self.hold(kind, key))
    }

    /// Stops renewing anything, as a process that was killed: the leases
    /// stay in the database until they lapse. Returns once no renewal is
    /// under way (one begun before is written first). For tests of what
    /// other processes do then.
    pub async fn stop(&self) {
        self.0.stopped.store(true, Ordering::SeqCst);
        let _no_renewal = self.0.renewing.lock().await;
        let keeper = self
            .0
            .keeper
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        if let Some(keeper) = keeper {
            keeper.abort();
        }
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, HashMap<(LeaseKind, i64), Entry>> {
        self.0.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts the renewing task if it is not running, and wakes it.
    fn keep_renewing(&self) {
        if self.0.stopped.load(Ordering::SeqCst) {
            return;
        }
        let mut keeper = self.0.keeper.lock().unwrap_or_else(|e| e.into_inner());
        if keeper.is_none() {
            let weak = Arc::downgrade(&self.0);
            *keeper = Some(tokio::spawn(renew_while_held(weak)).abort_handle());
        }
        drop(keeper);
        self.0.changed.notify_one();
    }
}

/// The renewing task: sleeps on the core's clock until a held lease is due
/// for renewal, renews the due ones (one statement a kind), and forgets
/// those no longer ours. It ends with the leases (the core is gone).
async fn renew_while_held(leases: Weak<Inner>) {
    loop {
        let Some(inner) = leases.upgrade() else {
            return;
        };
        let next = inner
            .held
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .map(|e| e.renew_at)
            .min();
        let (clock, changed) = (inner.clock.clone(), inner.changed.clone());
        // Not holding the leases while asleep: when the core goes, so does
        // this task.
        drop(inner);
        let woken = changed.notified();
        tokio::pin!(woken);
        match next {
            Some(at) => {
                tokio::select! {
                    () = clock.sleep_until(at) => {}
                    () = &mut woken => continue,
                }
            }
            None => {
                woken.await;
                continue;
            }
        }
        let Some(inner) = leases.upgrade() else {
            return;
        };
        renew_due(&inner).await;
    }
}

/// Renews the leases due now; forgets the ones that are not ours any more
/// or have been held as long as they may.
async fn renew_due(inner: &Inner) {
    let _renewing = inner.renewing.lock().await;
    if inner.stopped.load(Ordering::SeqCst) {
        return;
    }
    let now = inner.clock.now_ms();
    let due: Vec<(LeaseKind, i64)> = {
        let mut held = inner.held.lock().unwrap_or_else(|e| e.into_inner());
        held.retain(|_, e| e.until_at_most.is_none_or(|end| now < end));
        held.iter()
            .filter(|(_, e)| e.renew_at <= now)
            .map(|(k, _)| *k)
            .collect()
    };
    for kind in LeaseKind::ALL {
        let keys: Vec<i64> = due
            .iter()
            .filter(|(k, _)| *k == kind)
            .map(|(_, key)| *key)
            .collect();
        if keys.is_empty() {
            continue;
        }
        let claim = Claim {
            by: &inner.holder,
            until_ms: now + kind.lease_ms(),
        };
        match store::leases::renew(inner.store.pool(), kind, &keys, claim).await {
            Ok(kept) => {
                let mut held = inner.held.lock().unwrap_or_else(|e| e.into_inner());
                for key in keys {
                    let Some(entry) = held.get_mut(&(kind, key)) else {
                        continue;
                    };
                    if kept.contains(&key) {
                        entry.renew_at = now + kind.renew_every_ms();
                    } else {
                        entry.lost.store(true, Ordering::SeqCst);
                        held.remove(&(kind, key));
                    }
                }
            }
            Err(e) => {
                tracing::warn!(kind = kind.name(), "cannot renew leases: {e}");
                // Tried again soon, well within the lease.
                let mut held = inner.held.lock().unwrap_or_else(|e| e.into_inner());
                for key in keys {
                    if let Some(entry) = held.get_mut(&(kind, key)) {
                        entry.renew_at = now + kind.renew_every_ms().min(1_000);
                    }
                }
            }
        }
    }
}

/// A lease held by this process: renewed while this lives. Dropped, it is
/// renewed no more (the database's lease lapses by itself, or the work's
/// own statement ended it: a move played, a review finished, a notice
/// confirmed).
pub struct Held {
    kind: LeaseKind,
    key: i64,
    leases: Weak<Inner>,
    lost: Arc<AtomicBool>,
}

impl Held {
    /// The row the lease is on.
    pub fn key(&self) -> i64 {
        self.key
    }

    /// Whether a renewal found that the lease is not ours any more (the
    /// work was finished or taken over by another process).
    pub fn is_lost(&self) -> bool {
        self.lost.load(Ordering::SeqCst)
    }

    /// Gives the lease up now, so that the work may be taken at once.
    pub async fn release(self) -> Result<bool, sqlx::Error> {
        let Some(inner) = self.leases.upgrade() else {
            return Ok(false);
        };
        store::leases::release(inner.store.pool(), self.kind, self.key, &inner.holder).await
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        if let Some(inner) = self.leases.upgrade() {
            inner
                .held
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&(self.kind, self.key));
        }
    }
}
