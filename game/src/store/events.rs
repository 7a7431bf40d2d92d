//! Handled event ids: a redelivered event is recognised, and old ids pruned.

use super::*;

/// Forgets handled event ids recorded before `before` (seconds since the
/// epoch, as [`now`]); returns how many.
pub async fn prune_events(pool: &SqlitePool, before: i64) -> Result<u64, sqlx::Error> {
    let done = sqlx::query("DELETE FROM handled_events WHERE handled_at < ?")
        .bind(before)
        .execute(pool)
        .await?;
    Ok(done.rows_affected())
}

/// Whether an event id was handled before (a read, without the write lock).
pub async fn event_seen(tx: &mut Tx, event_id: &str) -> Result<bool, sqlx::Error> {
    let row = sqlx::query("SELECT 1 FROM handled_events WHERE event_id = ?")
        .bind(event_id)
        .fetch_optional(&mut **tx)
        .await?;
    Ok(row.is_some())
}

/// Records an event id; `false` if it was handled before.
pub async fn record_event(tx: &mut Tx, event_id: &str) -> Result<bool, sqlx::Error> {
    let done =
        sqlx::query("INSERT OR IGNORE INTO handled_events (event_id, handled_at) VALUES (?, ?)")
            .bind(event_id)
            .bind(now())
            .execute(&mut **tx)
            .await?;
    Ok(done.rows_affected() == 1)
}
