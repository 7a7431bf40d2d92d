//! Per-channel settings, and the adapters' own values (`adapter_state`).

use super::{Flag, Tx};
use sqlx::{Any, AnyPool, FromRow};

#[derive(Debug, Clone, FromRow)]
pub struct Settings {
    #[sqlx(try_from = "Flag")]
    pub bare_moves: bool,
    pub theme: String,
    /// New games get a thread of their own (where the platform has them).
    #[sqlx(try_from = "Flag")]
    pub threads: bool,
    /// An animated replay is posted after each finished game.
    #[sqlx(try_from = "Flag")]
    pub replays: bool,
}

pub async fn settings(tx: &mut Tx, channel: &str) -> Result<Option<Settings>, sqlx::Error> {
    sqlx::query_as(
        "SELECT bare_moves, theme, threads, replays FROM channel_settings WHERE channel = $1",
    )
    .bind(channel)
    .fetch_optional(&mut **tx)
    .await
}

pub async fn save_settings(tx: &mut Tx, channel: &str, s: &Settings) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO channel_settings (channel, bare_moves, theme, threads, replays) \
         VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (channel) DO UPDATE SET bare_moves = excluded.bare_moves, theme = excluded.theme, \
         threads = excluded.threads, replays = excluded.replays",
    )
    .bind(channel)
    .bind(i64::from(s.bare_moves))
    .bind(&s.theme)
    .bind(i64::from(s.threads))
    .bind(i64::from(s.replays))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Game `game` moves from channel `from` to `to` (its own thread), which
/// takes `from`'s settings unless it has its own. `false` if the game is
/// not in `from`.
pub async fn move_game(tx: &mut Tx, game: i64, from: &str, to: &str) -> Result<bool, sqlx::Error> {
    let moved = sqlx::query("UPDATE games SET channel = $1 WHERE id = $2 AND channel = $3")
        .bind(to)
        .bind(game)
        .bind(from)
        .execute(&mut **tx)
        .await?;
    if moved.rows_affected() == 0 {
        return Ok(false);
    }
    sqlx::query(
        "INSERT INTO channel_settings (channel, bare_moves, theme, threads) \
         SELECT $1, bare_moves, theme, 0 FROM channel_settings WHERE channel = $2 \
         ON CONFLICT (channel) DO NOTHING",
    )
    .bind(to)
    .bind(from)
    .execute(&mut **tx)
    .await?;
    Ok(true)
}

/// A value an adapter keeps across restarts (a sync token, a join time).
pub async fn adapter_value(pool: &AnyPool, key: &str) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT value FROM adapter_state WHERE key = $1")
        .bind(key)
        .fetch_optional(pool)
        .await
}

pub async fn set_adapter_value<'e>(
    db: impl sqlx::Executor<'e, Database = Any>,
    key: &str,
    value: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO adapter_state (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
        .bind(key)
        .bind(value)
        .execute(db)
        .await?;
    Ok(())
}
