//! The `moves` table: the moves of each game, in order.

use super::{backend_of_tx, bump, Backend, Claim, Deadline, Tx};
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

/// A move and everything it changes in its game, written together by
/// [`advance`].
#[derive(Debug, Clone, Copy)]
pub struct Advance<'a> {
    pub ply: i64,
    pub san: &'a str,
    pub coordinate: &'a str,
    pub by: &'a PlayerId,
    /// The position after it.
    pub fen: &'a str,
    /// The next move's deadline (correspondence); `None`: there is none.
    pub deadline: Option<Deadline>,
    /// A clock game's clocks after the move; `None` without a clock.
    pub clocks: Option<Clocks>,
    /// A clock game before both sides have moved: when the next first
    /// move is due (see `abort`); `None`: none is.
    pub abort_at_ms: Option<i64>,
    /// The engine's turn after the move: queued since that time, and taken
    /// at once with the claim when this process searches; `None`: a person
    /// is to move (or nobody: the game is over).
    pub engine: Option<(i64, Option<Claim<'a>>)>,
}

/// A clock game's clocks after a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clocks {
    pub white_ms: i64,
    pub black_ms: i64,
    /// The mover's time after the move, increment added: kept with the
    /// move for the PGN's `[%clk]`.
    pub mover_ms: i64,
    /// When the running clock started; `None` once the game is over.
    pub started_ms: Option<i64>,
}

/// The columns a move sets in its game: `$1` to `$14` of [`advance`]'s
/// statements (the game's id and version follow).
const ADVANCED: &str = "version = version + 1, fen = $1, updated_at = $2, \
     deadline_at = $3, remind_at = $4, reminded = 0, \
     white_ms = CASE WHEN $5 = 1 THEN $6 ELSE white_ms END, \
     black_ms = CASE WHEN $5 = 1 THEN $7 ELSE black_ms END, \
     turn_started_ms = CASE WHEN $5 = 1 THEN $8 ELSE turn_started_ms END, low_time_warned = 0, \
     abort_at_ms = $9, engine_wanted_ms = $10, engine_claimed_by = $11, engine_claimed_until = $12";

/// Plays move `m` in `game`, if the game is still at `game`'s version: the
/// move (with the mover's clock), the new position, the next deadline, the
/// clocks, the first move's window and the engine's turn, in one statement
/// on PostgreSQL (one round trip for a move) and one transaction on SQLite.
/// `false` if someone else changed the game first.
pub async fn advance(tx: &mut Tx, game: &GameRecord, m: &Advance<'_>) -> Result<bool, sqlx::Error> {
    let postgres = backend_of_tx(tx) == Backend::Postgres;
    let sql = if postgres {
        format!(
            "WITH bumped AS (UPDATE games SET {ADVANCED} WHERE id = $13 AND version = $14 RETURNING id) \
             INSERT INTO moves (game_id, ply, san, coordinate, played_by, created_at, clock_ms) \
             SELECT id, $15, $16, $17, $18, $2, $19 FROM bumped"
        )
    } else {
        format!("UPDATE games SET {ADVANCED} WHERE id = $13 AND version = $14")
    };
    let now = tx.now_secs();
    let claim = m.engine.and_then(|(_, c)| c);
    let query = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(m.fen)
        .bind(now)
        .bind(m.deadline.map(|d| d.at))
        .bind(m.deadline.map(|d| d.remind_at))
        .bind(i64::from(m.clocks.is_some()))
        .bind(m.clocks.map(|c| c.white_ms))
        .bind(m.clocks.map(|c| c.black_ms))
        .bind(m.clocks.and_then(|c| c.started_ms))
        .bind(m.abort_at_ms)
        .bind(m.engine.map(|(since, _)| since))
        .bind(claim.map(|c| c.by))
        .bind(claim.map(|c| c.until_ms))
        .bind(game.id)
        .bind(game.version);
    let query = if postgres {
        query
            .bind(m.ply)
            .bind(m.san)
            .bind(m.coordinate)
            .bind(m.by.as_str())
            .bind(m.clocks.map(|c| c.mover_ms))
    } else {
        query
    };
    let done = query.execute(&mut **tx).await?;
    if postgres || done.rows_affected() != 1 {
        return Ok(done.rows_affected() == 1);
    }
    sqlx::query(
        "INSERT INTO moves (game_id, ply, san, coordinate, played_by, created_at, clock_ms) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(game.id)
    .bind(m.ply)
    .bind(m.san)
    .bind(m.coordinate)
    .bind(m.by.as_str())
    .bind(now)
    .bind(m.clocks.map(|c| c.mover_ms))
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
