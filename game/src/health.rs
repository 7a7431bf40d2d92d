//! Health: each process writes what it runs and how that goes into the
//! database every few seconds; `voidmate health` reads every process's
//! report beside the database's own state (reachable, queues).

use crate::core::Core;
use crate::store;
use std::time::Duration;

/// How often a process writes its report.
const REPORT_EVERY_MS: i64 = 5_000;
/// A process unheard of for this long is silent (stopped, or stuck).
pub const SILENT_AFTER_MS: i64 = 30_000;
/// A process silent for this long is forgotten: it was stopped, or died
/// and was replaced (a restarted process reports under a new name). Until
/// then `health` shows it, and fails.
const FORGET_AFTER_MS: i64 = 10 * 60 * 1000;

/// A process as `voidmate health` shows it.
#[derive(Debug, Clone)]
pub struct ProcessHealth {
    pub name: String,
    pub kind: String,
    pub role: String,
    /// The live process of the same kind and role that started after this
    /// one fell silent: it took this one's place (and its work).
    pub replaced_by: Option<String>,
    pub status: String,
    pub healthy: bool,
    pub up_ms: i64,
    pub silent_ms: i64,
}

/// The state of a deployment, as one process sees it through the database.
#[derive(Debug, Clone)]
pub struct Health {
    pub backend: store::Backend,
    pub round_trip: Duration,
    pub games_in_play: i64,
    /// Engine turns queued, and those of them nobody searches now.
    pub engine_queued: i64,
    pub engine_waiting: i64,
    /// Outbox: due and held by nobody, parked, all owed.
    pub outbox_due: i64,
    pub outbox_parked: i64,
    pub outbox_owed: i64,
    pub processes: Vec<ProcessHealth>,
}

impl Health {
    /// Whether everything is well: every process heard from lately reports
    /// itself healthy.
    pub fn is_healthy(&self) -> bool {
        self.processes
            .iter()
            .filter(|p| p.replaced_by.is_none())
            .all(|p| p.healthy && p.silent_ms < SILENT_AFTER_MS)
    }
}

impl std::fmt::Display for Health {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let backend = match self.backend {
            store::Backend::Sqlite => "SQLite",
            store::Backend::Postgres => "PostgreSQL",
        };
        writeln!(
            f,
            "database: {backend}, reachable ({} ms)",
            self.round_trip.as_millis()
        )?;
        writeln!(f, "games in play: {}", self.games_in_play)?;
        writeln!(
            f,
            "engine turns queued: {} ({} not being searched)",
            self.engine_queued, self.engine_waiting
        )?;
        writeln!(
            f,
            "outbox: {} owed, {} due now, {} parked",
            self.outbox_owed, self.outbox_due, self.outbox_parked
        )?;
        writeln!(f, "processes: {}", self.processes.len())?;
        for p in &self.processes {
            let state = if let Some(by) = &p.replaced_by {
                format!("GONE, replaced by {by}")
            } else if p.silent_ms >= SILENT_AFTER_MS {
                format!("SILENT for {} s", p.silent_ms / 1000)
            } else if p.healthy {
                "ok".to_string()
            } else {
                "UNWELL".to_string()
            };
            writeln!(
                f,
                "  {} {} [{state}] up {} s: {}",
                p.kind,
                p.name,
                p.up_ms / 1000,
                p.status
            )?;
        }
        write!(
            f,
            "{}",
            if self.is_healthy() {
                "healthy"
            } else {
                "NOT healthy"
            }
        )
    }
}

impl Core {
    /// Names what this process is in its reports (`run`, `engine-worker`,
    /// `console`).
    pub fn set_process_kind(&self, kind: &str) {
        self.status.lock().unwrap_or_else(|e| e.into_inner()).kind = kind.to_string();
    }

    /// What this process stands for in the deployment, the same for the
    /// process that replaces it (`discord shards 0-3 of 8; matrix`): a
    /// process of the same kind and role started after this one fell
    /// silent has taken its place, and `health` says so.
    pub fn set_process_role(&self, role: &str) {
        self.status.lock().unwrap_or_else(|e| e.into_inner()).role = role.to_string();
    }

    /// How one part of this process is (an adapter: "discord", "matrix"),
    /// for the next report.
    pub fn report(&self, part: &str, healthy: bool, detail: impl Into<String>) {
        self.status
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .parts
            .insert(part.to_string(), (healthy, detail.into()));
    }

    /// Writes this process's report, at most every few seconds.
    pub(crate) async fn report_process(&self) {
        let now = self.time.now_ms();
        let (kind, role, text, healthy) = {
            let mut status = self.status.lock().unwrap_or_else(|e| e.into_inner());
            if now - status.reported_ms < REPORT_EVERY_MS {
                return;
            }
            status.reported_ms = now;
            let mut parts: Vec<String> = status
                .parts
                .iter()
                .map(|(part, (_, detail))| format!("{part}: {detail}"))
                .collect();
            parts.push(match self.engine_cfg.searches {
                crate::config::Searches::Here => format!(
                    "engine: {} of {} threads searching",
                    self.leases.count(store::LeaseKind::EngineTurn),
                    self.engine_cfg.threads.max(1)
                ),
                crate::config::Searches::Workers => "engine: searched by workers".into(),
            });
            let kind = if status.kind.is_empty() {
                "bot".to_string()
            } else {
                status.kind.clone()
            };
            let healthy = status.parts.values().all(|(ok, _)| *ok);
            (kind, status.role.clone(), parts.join("; "), healthy)
        };
        if let Err(e) = store::see_process(
            self.store.pool(),
            self.leases.holder(),
            &kind,
            &role,
            &text,
            healthy,
            now,
        )
        .await
        {
            tracing::warn!("cannot write this process's report: {e}");
        }
    }

    /// The deployment's state: the database (reachable, how fast), its
    /// queues, and every process's last report.
    pub async fn health(&self) -> Result<Health, sqlx::Error> {
        let pool = self.store.pool();
        let started = std::time::Instant::now();
        sqlx::query("SELECT 1").execute(pool).await?;
        let round_trip = started.elapsed();
        let now = self.time.now_ms();
        let games_in_play = store::games_in_play(pool).await?;
        let (engine_waiting, engine_queued) = store::engine_queue(pool, now).await?;
        let (outbox_due, outbox_parked, outbox_owed) = store::outbox_queue(pool, now).await?;
        let rows = store::processes(pool, now - FORGET_AFTER_MS).await?;
        let replaced = replacements(&rows, now);
        let processes = rows
            .into_iter()
            .zip(replaced)
            .map(|(p, replaced_by)| ProcessHealth {
                name: p.claimant,
                kind: p.kind,
                role: p.role,
                replaced_by,
                status: p.status,
                healthy: p.healthy,
                up_ms: p.seen_ms - p.started_ms,
                silent_ms: (now - p.seen_ms).max(0),
            })
            .collect();
        Ok(Health {
            backend: self.store.backend(),
            round_trip,
            games_in_play,
            engine_queued,
            engine_waiting,
            outbox_due,
            outbox_parked,
            outbox_owed,
            processes,
        })
    }
}

/// For each process of `rows`, the process that replaced it, if it is
/// silent at `now_ms` and one has: a live process of the same kind and role
/// that started after it was last heard of. Each live process replaces one
/// silent process at most (the one silent longest first): two workers
/// killed and one started leave one of them missing.
fn replacements(rows: &[store::ProcessRow], now_ms: i64) -> Vec<Option<String>> {
    let live = |p: &store::ProcessRow| now_ms - p.seen_ms < SILENT_AFTER_MS;
    let mut silent: Vec<usize> = (0..rows.len()).filter(|&i| !live(&rows[i])).collect();
    silent.sort_by_key(|&i| rows[i].seen_ms);
    let mut used = vec![false; rows.len()];
    let mut out = vec![None; rows.len()];
    for i in silent {
        let gone = &rows[i];
        let by = (0..rows.len()).find(|&j| {
            !used[j]
                && live(&rows[j])
                && rows[j].kind == gone.kind
                && rows[j].role == gone.role
                && rows[j].started_ms >= gone.seen_ms
        });
        if let Some(j) = by {
            used[j] = true;
            out[i] = Some(rows[j].claimant.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(name: &str, kind: &str, role: &str, started_ms: i64, seen_ms: i64) -> store::ProcessRow {
        store::ProcessRow {
            claimant: name.into(),
            kind: kind.into(),
            role: role.into(),
            status: String::new(),
            healthy: true,
            started_ms,
            seen_ms,
        }
    }

    #[test]
    fn a_silent_process_is_replaced_only_by_a_later_one_of_its_kind_and_role() {
        let now = 1_000_000;
        let rows = [
            // Killed at 900 s; a run of the same shards started after it.
            row("a", "run", "discord shards 0-1 of 4", 0, 900_000),
            row("a2", "run", "discord shards 0-1 of 4", 905_000, now),
            // Silent, and nobody of its role came after.
            row("b", "run", "discord shards 2-3 of 4", 0, 900_000),
            row("c", "run", "discord shards 0-1 of 4", 0, now),
            // Two workers killed, one started: one stays missing.
            row("w1", "engine-worker", "", 0, 800_000),
            row("w2", "engine-worker", "", 0, 850_000),
            row("w3", "engine-worker", "", 860_000, now),
            // Started before the silent one went quiet: not its replacement.
            row("w4", "engine-worker", "", 100, now),
        ];
        let r = replacements(&rows, now);
        assert_eq!(r[0].as_deref(), Some("a2"));
        assert_eq!(r[1], None, "live");
        assert_eq!(r[2], None, "no process of its role");
        assert_eq!(r[3], None, "live");
        assert_eq!(r[4].as_deref(), Some("w3"));
        assert_eq!(
            r[5], None,
            "w3 replaced w1 already; w4 is older than w2's silence"
        );
        assert_eq!((r[6].clone(), r[7].clone()), (None, None));
    }
}
