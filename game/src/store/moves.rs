//! The `moves` table: the moves of each game, in order.

use super::{backend_of_tx, bump, Backend, Tx};
use crate::contract::PlayerId;
use crate::record::GameRecord;
use sqlx::FromRow;

#[derive(Debug, Clone, FromRow)]
pub struct MoveRow {
    pub ply: i64,
    pub san: String,
    pub coordinate: String,
    /// In a clock game, the mover's time left after the move (increment
    /// added), in milliseconds.
    pub clock_ms: Option<i64>,
}

pub async fn moves(tx: &mut Tx, game_id: i64) -> Result<Vec<MoveRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT ply, san, coordinate, clock_ms FROM moves WHERE game_id = $1 ORDER BY ply",
    )
    .bind(game_id)
    .fetch_all(&mut **tx)
    .await
}

/// Records the mover's clock after move `ply` of game `game_id`.
pub async fn set_move_clock(
    tx: &mut Tx,
    game_id: i64,
    ply: i64,
    clock_ms: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE moves SET clock_ms = $1 WHERE game_id = $2 AND ply = $3")
        .bind(clock_ms)
        .bind(game_id)
        .bind(ply)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Appends a move (and the new position, and the deadline for the next
/// move: `None` for none), checking the version.
#[allow(clippy::too_many_arguments)]
pub async fn append_move(
    tx: &mut Tx,
    game: &GameRecord,
    ply: i64,
    san: &str,
    coordinate: &str,
    by: &PlayerId,
    fen_after: &str,
    deadline: Option<super::Deadline>,
) -> Result<bool, sqlx::Error> {
    if backend_of_tx(tx) == Backend::Postgres {
        // One statement: the game's new version, position and deadline,
        // and the move, stored only if the version still held.
        let done = sqlx::query(
            "WITH bumped AS (UPDATE games SET version = version + 1, fen = $1, updated_at = $2, \
             deadline_at = $5, remind_at = $6, reminded = 0 WHERE id = $3 AND version = $4 RETURNING id) \
             INSERT INTO moves (game_id, ply, san, coordinate, played_by, created_at) \
             SELECT id, $7, $8, $9, $10, $2 FROM bumped",
        )
        .bind(fen_after)
        .bind(tx.now_secs())
        .bind(game.id)
        .bind(game.version)
        .bind(deadline.map(|d| d.at))
        .bind(deadline.map(|d| d.remind_at))
        .bind(ply)
        .bind(san)
        .bind(coordinate)
        .bind(by.as_str())
        .execute(&mut **tx)
        .await?;
        return Ok(done.rows_affected() == 1);
    }
    if !bump(tx, game, fen_after).await? {
        return Ok(false);
    }
    super::set_deadline(tx, game.id, deadline).await?;
    sqlx::query("INSERT INTO moves (game_id, ply, san, coordinate, played_by, created_at) VALUES ($1, $2, $3, $4, $5, $6)")
        .bind(game.id)
        .bind(ply)
        .bind(san)
        .bind(coordinate)
        .bind(by.as_str())
        .bind(tx.now_secs())
        .execute(&mut **tx)
        .await?;
    Ok(true)
}

/// Takes back every move after ply `keep` (a takeback of one or two
/// plies), if the game is still at `game`'s version; clears any standing
/// offer. `false` if someone else changed the game first.
pub async fn take_back_to(
    tx: &mut Tx,
    game: &GameRecord,
    keep: i64,
    fen_after: &str,
) -> Result<bool, sqlx::Error> {
    if !bump(tx, game, fen_after).await? {
        return Ok(false);
    }
    sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply > $2")
        .bind(game.id)
        .bind(keep)
        .execute(&mut **tx)
        .await?;
    sqlx::query("UPDATE games SET undo_by = NULL, undo_ply = NULL, draw_offer_by = NULL, draw_offer_ply = NULL WHERE id = $1")
        .bind(game.id)
        .execute(&mut **tx)
        .await?;
    Ok(true)
}
