//! Handled event ids: a redelivered event is recognised, and old ids pruned.

use super::{now, Tx};
use sqlx::AnyPool;

/// Forgets handled event ids recorded before `before` (seconds since the
/// epoch, as [`now`]); returns how many.
pub async fn prune_events(pool: &AnyPool, before: i64) -> Result<u64, sqlx::Error> {
    let done = sqlx::query("DELETE FROM handled_events WHERE handled_at < $1")
        .bind(before)
        .execute(pool)
        .await?;
    Ok(done.rows_affected())
}

/// Whether an event id was handled before (a read, without the write lock).
pub async fn event_seen(tx: &mut Tx, event_id: &str) -> Result<bool, sqlx::Error> {
    let row = sqlx::query("SELECT 1 FROM handled_events WHERE event_id = $1")
        .bind(event_id)
        .fetch_optional(&mut **tx)
        .await?;
    Ok(row.is_some())
}

/// Marks a recorded event as one that changed something (in the same
/// transaction as the change).
pub async fn mark_acted(tx: &mut Tx, event_id: &str) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE handled_events SET acted = 1 WHERE event_id = $1")
        .bind(event_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// What became of an event: `None` if never handled, `Some(true)` if it
/// changed something, `Some(false)` if it was refused or only read.
pub async fn event_acted(tx: &mut Tx, event_id: &str) -> Result<Option<bool>, sqlx::Error> {
    let row: Option<i64> =
        sqlx::query_scalar("SELECT acted FROM handled_events WHERE event_id = $1")
            .bind(event_id)
            .fetch_optional(&mut **tx)
            .await?;
    Ok(row.map(|a| a != 0))
}

/// Records an event id; `false` if it was handled before.
pub async fn record_event(tx: &mut Tx, event_id: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "INSERT INTO handled_events (event_id, handled_at) VALUES ($1, $2) ON CONFLICT DO NOTHING",
    )
    .bind(event_id)
    .bind(now())
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}
