//! The `games` table: a game's row (typed above the store as a
//! [`GameRecord`]), its players, result, offers, programs and engine turns.

use super::{backend_of, backend_of_tx, indexed_by, Claim, Flag, Tx};
use crate::command::{OfferKind, ProgramMode, TimeControl};
use crate::contract::PlayerId;
use crate::record::GameRecord;
use sqlx::{AnyPool, FromRow};
use voidmate_render::PieceColour;
use voidmate_rules::{ByColor, Color, GameKind};

#[derive(Debug, Clone, FromRow)]
pub struct GameRow {
    pub id: i64,
    pub channel: String,
    pub variant: String,
    pub white: String,
    pub black: String,
    pub start_fen: String,
    pub fen: String,
    pub time_control: String,
    pub status: String,
    pub result: Option<String>,
    pub termination: Option<String>,
    pub version: i64,
    pub draw_offer_by: Option<String>,
    pub draw_offer_ply: Option<i64>,
    pub undo_by: Option<String>,
    pub undo_ply: Option<i64>,
    pub deadline_at: Option<i64>,
    #[sqlx(try_from = "Flag")]
    pub reminded: bool,
    /// The engine's level when the bot plays in this game.
    pub engine_level: Option<i64>,
    /// Since when the bot is to move (ms); `None` when it is not.
    pub engine_wanted_ms: Option<i64>,
    /// Clock games: time left per side, and when the side to move began.
    pub white_ms: Option<i64>,
    pub black_ms: Option<i64>,
    pub turn_started_ms: Option<i64>,
    #[sqlx(try_from = "Flag")]
    pub low_time_warned: bool,
    /// Super Chess reprogramming: `default`, `symmetric` or `private`.
    pub mode: String,
    /// Canonical program texts; `None` in a private game until sent.
    pub program_white: Option<String>,
    pub program_black: Option<String>,
    /// Cosmetic piece colours chosen by the players.
    pub colour_white: Option<String>,
    pub colour_black: Option<String>,
    /// The names the seats' players were last seen with.
    pub white_name: Option<String>,
    pub black_name: Option<String>,
    /// The community it is played in (a Discord server, a Matrix room).
    pub community: Option<String>,
    #[sqlx(try_from = "Flag")]
    pub rated: bool,
    pub finished_ms: Option<i64>,
    /// Until when its first moves may come before the bot aborts it.
    pub abort_at_ms: Option<i64>,
    /// When it began (seconds since 1970, UTC).
    pub created_at: i64,
}

pub(super) const GAME_COLUMNS: &str =
    "id, channel, variant, white, black, start_fen, fen, time_control, status, \
     result, termination, version, draw_offer_by, draw_offer_ply, undo_by, undo_ply, deadline_at, reminded, \
     engine_level, engine_wanted_ms, white_ms, black_ms, turn_started_ms, low_time_warned, \
     mode, program_white, program_black, colour_white, colour_black, community, rated, finished_ms, abort_at_ms, created_at, \
     (SELECT name FROM players WHERE players.id = games.white) AS white_name, \
     (SELECT name FROM players WHERE players.id = games.black) AS black_name";

pub async fn active_games(tx: &mut Tx, channel: &str) -> Result<Vec<GameRow>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE channel = $1 AND status = 'active' ORDER BY id"
    )))
    .bind(channel)
    .fetch_all(&mut **tx)
    .await
}

pub async fn game(tx: &mut Tx, channel: &str, id: i64) -> Result<Option<GameRow>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE channel = $1 AND id = $2"
    )))
    .bind(channel)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await
}

/// Every game, in every channel and state, oldest first.
pub async fn all_games(tx: &mut Tx) -> Result<Vec<GameRow>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {GAME_COLUMNS} FROM games ORDER BY id"
    )))
    .fetch_all(&mut **tx)
    .await
}

/// The most recent game of `user` in `channel`, finished or not.
pub async fn latest_game(
    tx: &mut Tx,
    channel: &str,
    user: &str,
) -> Result<Option<GameRow>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE channel = $1 AND (white = $2 OR black = $3) ORDER BY id DESC LIMIT 1"
    )))
    .bind(channel)
    .bind(user)
    .bind(user)
    .fetch_optional(&mut **tx)
    .await
}

/// Where and how a new game is played: its channel, its community (none:
/// unrated), and whether it is rated.
#[derive(Debug, Clone, Copy)]
pub struct Venue<'a> {
    pub channel: &'a str,
    pub community: Option<&'a str>,
    pub rated: bool,
    /// When the game begins, by the core's clock (the day's rated games
    /// between two players are counted by it).
    pub at_ms: i64,
}

/// Stores a new game of `kind` between `seats` from `start_fen`; its id.
pub async fn insert_game(
    tx: &mut Tx,
    venue: Venue<'_>,
    kind: GameKind,
    seats: ByColor<&PlayerId>,
    start_fen: &str,
    time: &TimeControl,
) -> Result<i64, sqlx::Error> {
    let t = venue.at_ms.div_euclid(1000);
    let channel = venue.channel;
    let id = sqlx::query_scalar::<_, i64>(
        "INSERT INTO games (channel, variant, white, black, start_fen, fen, time_control, created_at, updated_at, \
         community, rated) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id",
    )
    .bind(channel)
    .bind(kind.name())
    .bind(seats.white.as_str())
    .bind(seats.black.as_str())
    .bind(start_fen)
    .bind(start_fen)
    .bind(time.code())
    .bind(t)
    .bind(t)
    .bind(venue.community)
    .bind(i64::from(venue.rated))
    .fetch_one(&mut **tx)
    .await?;
    Ok(id)
}

/// Bumps the version if it is still `version`; `false` if someone else
/// changed the game first.
pub(super) async fn bump(tx: &mut Tx, game: &GameRecord, fen: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE games SET version = version + 1, fen = $1, updated_at = $2 WHERE id = $3 AND version = $4",
    )
    .bind(fen)
    .bind(tx.now_secs())
    .bind(game.id)
    .bind(game.version)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Ends game `game_id` with `result` (`*` for an aborted game) at
/// `now_ms`; whether it was still going (`false`: it had ended already, and
/// nothing was changed).
pub async fn finish(
    tx: &mut Tx,
    game_id: i64,
    result: &str,
    termination: &str,
    now_ms: i64,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE games SET status = 'finished', result = $1, termination = $2, version = version + 1, \
         engine_wanted_ms = NULL, engine_claimed_by = NULL, engine_claimed_until = NULL, \
         draw_offer_by = NULL, draw_offer_ply = NULL, undo_by = NULL, undo_ply = NULL, updated_at = $3, \
         finished_ms = $4, abort_at_ms = NULL WHERE id = $5 AND status = 'active'",
    )
    .bind(result)
    .bind(termination)
    .bind(tx.now_secs())
    .bind(now_ms)
    .bind(game_id)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Records (`by` = the proposer) or clears (`by` = `None`) a proposal of
/// `kind` at `ply`.
pub async fn set_offer(
    tx: &mut Tx,
    game_id: i64,
    kind: OfferKind,
    by: Option<&PlayerId>,
    ply: i64,
) -> Result<(), sqlx::Error> {
    let sql = match kind {
        OfferKind::Draw => "UPDATE games SET draw_offer_by = $1, draw_offer_ply = $2, version = version + 1 WHERE id = $3",
        OfferKind::Takeback => "UPDATE games SET undo_by = $1, undo_ply = $2, version = version + 1 WHERE id = $3",
    };
    sqlx::query(sql)
        .bind(by.map(PlayerId::as_str))
        .bind(by.map(|_| ply))
        .bind(game_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// A game by its number, in any channel (for commands sent privately).
pub async fn game_anywhere(tx: &mut Tx, id: i64) -> Result<Option<GameRow>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE id = $1"
    )))
    .bind(id)
    .fetch_optional(&mut **tx)
    .await
}

/// Private-program games in progress where `user` plays, in any channel.
pub async fn private_games_of(tx: &mut Tx, user: &PlayerId) -> Result<Vec<GameRow>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE status = 'active' AND mode = 'private' \
         AND (white = $1 OR black = $2) ORDER BY id"
    )))
    .bind(user.as_str())
    .bind(user.as_str())
    .fetch_all(&mut **tx)
    .await
}

/// Sets a game's reprogramming mode and the programs known so far.
pub async fn set_programs(
    tx: &mut Tx,
    game_id: i64,
    mode: ProgramMode,
    white: Option<&str>,
    black: Option<&str>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE games SET mode = $1, program_white = $2, program_black = $3, version = version + 1 WHERE id = $4",
    )
    .bind(mode.code())
    .bind(white)
    .bind(black)
    .bind(game_id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Sets one player's cosmetic piece colour in a game.
pub async fn set_colour(
    tx: &mut Tx,
    game_id: i64,
    side: Color,
    colour: PieceColour,
) -> Result<(), sqlx::Error> {
    let column = match side {
        Color::White => "colour_white",
        Color::Black => "colour_black",
    };
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "UPDATE games SET {column} = $1 WHERE id = $2"
    )))
    .bind(colour.name())
    .bind(game_id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

pub async fn set_engine_level(tx: &mut Tx, game_id: i64, level: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE games SET engine_level = $1 WHERE id = $2")
        .bind(level)
        .bind(game_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Active games against the engine: (id, channel).
pub async fn engine_games(pool: &AnyPool) -> Result<Vec<(i64, String)>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT id, channel FROM games {} \
         WHERE status = 'active' AND engine_level IS NOT NULL ORDER BY id",
        indexed_by(backend_of(pool), "games_engine_active")
    )))
    .fetch_all(pool)
    .await
}

/// Queues the engine's turn in game `game_id` (the bot is to move since
/// `since_ms`), taken at once by `lease` if given; `since_ms = None`: the
/// bot is not to move (its move was played), and any claim ends.
pub async fn set_engine_turn(
    tx: &mut Tx,
    game_id: i64,
    since_ms: Option<i64>,
    lease: Option<Claim<'_>>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE games SET engine_wanted_ms = $1, engine_claimed_by = $2, engine_claimed_until = $3 \
         WHERE id = $4",
    )
    .bind(since_ms)
    .bind(lease.map(|l| l.by))
    .bind(lease.map(|l| l.until_ms))
    .bind(game_id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Engine turns queued and not held by anyone now (for the health report),
/// and all queued ones.
pub async fn engine_queue(pool: &AnyPool, now_ms: i64) -> Result<(i64, i64), sqlx::Error> {
    sqlx::query_as(
        "SELECT COUNT(CASE WHEN engine_claimed_until IS NULL OR engine_claimed_until < $1 \
         THEN 1 END), COUNT(*) FROM games \
         WHERE status = 'active' AND engine_wanted_ms IS NOT NULL",
    )
    .bind(now_ms)
    .fetch_one(pool)
    .await
}

/// Sets (or clears) when game `game_id` is aborted if its next first move
/// has not come (a clock game before both sides have moved).
pub async fn set_abort_at(
    tx: &mut Tx,
    game_id: i64,
    at_ms: Option<i64>,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE games SET abort_at_ms = $1 WHERE id = $2")
        .bind(at_ms)
        .bind(game_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Active games whose first moves are overdue at `now_ms`, through the
/// partial index (`INDEXED BY`: SQLite would otherwise pick the index on
/// status and read every active game, as `voidmate bench` showed).
pub async fn games_to_abort(tx: &mut Tx, now_ms: i64) -> Result<Vec<GameRow>, sqlx::Error> {
    let backend = backend_of_tx(tx);
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {GAME_COLUMNS} FROM games {} WHERE status = 'active' AND abort_at_ms IS NOT NULL \
         AND abort_at_ms <= $1 ORDER BY id",
        indexed_by(backend, "games_abort")
    )))
    .bind(now_ms)
    .fetch_all(&mut **tx)
    .await
}

/// Whether any game's first moves are overdue at `now_ms` (through the
/// partial index, as [`games_to_abort`]).
pub async fn any_to_abort(pool: &AnyPool, now_ms: i64) -> Result<bool, sqlx::Error> {
    let row = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT 1 FROM games {} WHERE status = 'active' AND abort_at_ms IS NOT NULL \
         AND abort_at_ms <= $1 LIMIT 1",
        indexed_by(backend_of(pool), "games_abort")
    )))
    .bind(now_ms)
    .fetch_optional(pool)
    .await?;
    Ok(row.is_some())
}

/// The last `limit` games to end in `channel`, latest first.
pub async fn finished_games(
    tx: &mut Tx,
    channel: &str,
    limit: i64,
) -> Result<Vec<GameRow>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE channel = $1 AND status = 'finished' \
         ORDER BY finished_ms DESC, id DESC LIMIT $2"
    )))
    .bind(channel)
    .bind(limit)
    .fetch_all(&mut **tx)
    .await
}

/// The finished games of `player` in `community`, latest first.
/// A player's latest games in a channel, newest first (for suggestions).
pub async fn recent_games_of(
    tx: &mut Tx,
    channel: &str,
    player: &PlayerId,
    limit: i64,
) -> Result<Vec<GameRow>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE channel = $1 AND (white = $2 OR black = $3) \
         ORDER BY id DESC LIMIT $4"
    )))
    .bind(channel)
    .bind(player.as_str())
    .bind(player.as_str())
    .bind(limit)
    .fetch_all(&mut **tx)
    .await
}

pub async fn finished_games_of(
    tx: &mut Tx,
    community: &str,
    player: &PlayerId,
) -> Result<Vec<GameRow>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE community = $1 AND status = 'finished' \
         AND (white = $2 OR black = $3) ORDER BY finished_ms DESC, id DESC"
    )))
    .bind(community)
    .bind(player.as_str())
    .bind(player.as_str())
    .fetch_all(&mut **tx)
    .await
}

/// Rated games between `a` and `b` in `community`, game `kind`, whose time
/// control is one of `clocks` (a pool's), begun since `since` (seconds).
pub async fn rated_between(
    tx: &mut Tx,
    community: &str,
    a: &PlayerId,
    b: &PlayerId,
    since: i64,
) -> Result<Vec<GameRow>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE community = $1 AND rated = 1 AND created_at >= $2 \
         AND ((white = $3 AND black = $4) OR (white = $5 AND black = $6)) ORDER BY id"
    )))
    .bind(community)
    .bind(since)
    .bind(a.as_str())
    .bind(b.as_str())
    .bind(b.as_str())
    .bind(a.as_str())
    .fetch_all(&mut **tx)
    .await
}

/// Marks a game unrated: it ended before both sides moved, so it does not
/// count (nor towards the day's rated games between two players).
pub async fn set_unrated(tx: &mut Tx, game_id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE games SET rated = 0 WHERE id = $1")
        .bind(game_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Every rated game that ended, in the order they ended (for `check-db`).
pub async fn rated_games(tx: &mut Tx) -> Result<Vec<GameRow>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE rated = 1 AND status = 'finished' \
         ORDER BY finished_ms, id"
    )))
    .fetch_all(&mut **tx)
    .await
}
