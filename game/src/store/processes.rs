//! The `processes` table: who works on this database and how they are.

use super::Flag;
use sqlx::{AnyPool, FromRow};

/// One process as it last reported itself.
#[derive(Debug, Clone, FromRow)]
pub struct ProcessRow {
    pub claimant: String,
    pub kind: String,
    /// What it stands for in the deployment (see the migration).
    pub role: String,
    pub status: String,
    #[sqlx(try_from = "Flag")]
    pub healthy: bool,
    pub started_ms: i64,
    pub seen_ms: i64,
}

/// Records that process `claimant` is alive at `now_ms`, with its status.
pub async fn see_process(
    pool: &AnyPool,
    claimant: &str,
    kind: &str,
    role: &str,
    status: &str,
    healthy: bool,
    now_ms: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO processes (claimant, kind, status, healthy, started_ms, seen_ms, role) \
         VALUES ($1, $2, $3, $4, $5, $5, $6) \
         ON CONFLICT (claimant) DO UPDATE SET kind = $2, status = $3, healthy = $4, seen_ms = $5, role = $6",
    )
    .bind(claimant)
    .bind(kind)
    .bind(status)
    .bind(healthy as i64)
    .bind(now_ms)
    .bind(role)
    .execute(pool)
    .await?;
    Ok(())
}

/// Every process seen since `since_ms`, oldest first; older ones are
/// forgotten.
pub async fn processes(pool: &AnyPool, since_ms: i64) -> Result<Vec<ProcessRow>, sqlx::Error> {
    sqlx::query("DELETE FROM processes WHERE seen_ms < $1")
        .bind(since_ms)
        .execute(pool)
        .await?;
    sqlx::query_as(
        "SELECT claimant, kind, role, status, healthy, started_ms, seen_ms FROM processes \
         ORDER BY started_ms, claimant",
    )
    .fetch_all(pool)
    .await
}

/// The outbox: (due now and held by nobody, parked, all owed).
pub async fn outbox_queue(pool: &AnyPool, now_ms: i64) -> Result<(i64, i64, i64), sqlx::Error> {
    sqlx::query_as(
        "SELECT COUNT(CASE WHEN parked = 0 AND next_attempt_ms <= $1 THEN 1 END), \
         COUNT(CASE WHEN parked = 1 THEN 1 END), COUNT(*) FROM outbox",
    )
    .bind(now_ms)
    .fetch_one(pool)
    .await
}

/// Forgets every process's report: at the start of the only process on a
/// SQLite file, whose predecessor stopped.
pub async fn forget_processes(pool: &AnyPool) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM processes").execute(pool).await?;
    Ok(())
}
