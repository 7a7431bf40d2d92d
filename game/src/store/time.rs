//! Deadlines and clocks of the games, and what is due for the periodic check.

use super::{backend_of, backend_of_tx, indexed_by, records, GameRow, Read, Tx, GAME_COLUMNS};
use crate::command::TimeControl;
use crate::record::GameRecord;
use sqlx::AnyPool;

/// When the player to move must move, and when to remind them (seconds
/// since the epoch).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deadline {
    pub at: i64,
    pub remind_at: i64,
}

/// Sets (or clears) the time by which the player to move must move.
pub async fn set_deadline(
    tx: &mut Tx,
    game_id: i64,
    deadline: Option<Deadline>,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE games SET deadline_at = $1, remind_at = $2, reminded = 0 WHERE id = $3")
        .bind(deadline.map(|d| d.at))
        .bind(deadline.map(|d| d.remind_at))
        .bind(game_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Active games that need the periodic check at `now_ms` (their `due_ms`,
/// kept by triggers, has come), through the partial index on it. `INDEXED
/// BY` makes SQLite use that index or refuse the query: the tick never
/// falls back to reading every game.
pub async fn due_games(tx: &mut Tx, now_ms: i64) -> Result<Vec<Read<GameRecord>>, sqlx::Error> {
    let backend = backend_of_tx(tx);
    sqlx::query_as::<_, GameRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {GAME_COLUMNS} FROM games {} \
         WHERE status = 'active' AND due_ms <= $1 ORDER BY due_ms",
        indexed_by(backend, "games_due")
    )))
    .bind(now_ms)
    .fetch_all(&mut **tx)
    .await
    .map(records)
}

/// Whether any active game is due at `now_ms` (a read through the index,
/// so the periodic check takes the write lock only when there is work).
pub async fn any_due(pool: &AnyPool, now_ms: i64) -> Result<bool, sqlx::Error> {
    let row = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT 1 FROM games {} WHERE status = 'active' AND due_ms <= $1 LIMIT 1",
        indexed_by(backend_of(pool), "games_due")
    )))
    .bind(now_ms)
    .fetch_optional(pool)
    .await?;
    Ok(row.is_some())
}

/// Games with a deadline but no reminder time (made before reminders were
/// stored): (id, deadline, time control). One whose time control does not
/// read is left out (`check-db` names it).
pub async fn deadlines_without_reminder(
    pool: &AnyPool,
) -> Result<Vec<(i64, i64, TimeControl)>, sqlx::Error> {
    let rows: Vec<(i64, i64, String)> = sqlx::query_as(
        "SELECT id, deadline_at, time_control FROM games \
         WHERE status = 'active' AND deadline_at IS NOT NULL AND remind_at IS NULL",
    )
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .filter_map(|(id, at, code)| Some((id, at, TimeControl::parse(&code)?)))
        .collect())
}

pub async fn set_reminder(pool: &AnyPool, game_id: i64, remind_at: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE games SET remind_at = $1 WHERE id = $2")
        .bind(remind_at)
        .bind(game_id)
        .execute(pool)
        .await?;
    Ok(())
}

/// Sets a clock game's clocks (and clears the low-time warning).
pub async fn set_clocks(
    tx: &mut Tx,
    game_id: i64,
    white_ms: i64,
    black_ms: i64,
    turn_started_ms: Option<i64>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE games SET white_ms = $1, black_ms = $2, turn_started_ms = $3, low_time_warned = 0 WHERE id = $4",
    )
    .bind(white_ms)
    .bind(black_ms)
    .bind(turn_started_ms)
    .bind(game_id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

pub async fn mark_low_time_warned(tx: &mut Tx, game_id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE games SET low_time_warned = 1 WHERE id = $1")
        .bind(game_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Time the bot was away is not charged: every running clock restarts
/// `by` milliseconds later, and a first move's window (see `abort`) ends
/// that much later too.
pub async fn shift_clocks(tx: &mut Tx, by: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE games SET turn_started_ms = turn_started_ms + $1 WHERE status = 'active' AND turn_started_ms IS NOT NULL",
    )
    .bind(by)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "UPDATE games SET abort_at_ms = abort_at_ms + $1 WHERE status = 'active' AND abort_at_ms IS NOT NULL",
    )
    .bind(by)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

pub async fn mark_reminded(tx: &mut Tx, game_id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE games SET reminded = 1 WHERE id = $1")
        .bind(game_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}
