//! The `games` table: games read as [`GameRecord`]s (converted from their
//! rows here, once), their players, offers, programs and engine turns, and
//! the named transitions that end one ([`finish`]).

use super::rows::GameRow;
use super::{backend_of, backend_of_tx, indexed_by, Claim, Tx};
use crate::command::{OfferKind, ProgramMode, TimeControl};
use crate::contract::PlayerId;
use crate::record::{DamagedGame, Ending, GameRecord, GameResult, RecordError, Termination};
use sqlx::AnyPool;
use voidmate_render::PieceColour;
use voidmate_rules::{ByColor, Color, GameKind};

/// A stored record as read: the record, or what is wrong with it, naming
/// it. Lists hand these up one by one, so that a damaged game does not hide
/// the others.
pub type Read<T> = Result<T, Box<DamagedGame>>;

/// Rows read as records, each on its own.
pub(super) fn records(rows: Vec<GameRow>) -> Vec<Read<GameRecord>> {
    rows.into_iter().map(GameRow::into_record).collect()
}

/// A row read as a record; one that does not convert is an error that
/// names the game ([`crate::error::Failure`] turns it into the refusal).
pub(super) fn one(row: Option<GameRow>) -> Result<Option<GameRecord>, sqlx::Error> {
    row.map(|r| r.into_record().map_err(|e| damaged(RecordError::Game(e))))
        .transpose()
}

/// A record that does not convert, as a storage error that carries it.
pub(super) fn damaged(e: RecordError) -> sqlx::Error {
    sqlx::Error::Decode(Box::new(e))
}

pub(super) const GAME_COLUMNS: &str =
    "id, channel, variant, white, black, start_fen, fen, time_control, status, \
     result, termination, version, draw_offer_by, draw_offer_ply, undo_by, undo_ply, deadline_at, reminded, \
     engine_level, engine_wanted_ms, white_ms, black_ms, turn_started_ms, low_time_warned, \
     mode, program_white, program_black, colour_white, colour_black, community, rated, finished_ms, abort_at_ms, created_at, \
     (SELECT name FROM players WHERE players.id = games.white) AS white_name, \
     (SELECT name FROM players WHERE players.id = games.black) AS black_name";

pub async fn active_games(
    tx: &mut Tx,
    channel: &str,
) -> Result<Vec<Read<GameRecord>>, sqlx::Error> {
    sqlx::query_as::<_, GameRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE channel = $1 AND status = 'active' ORDER BY id"
    )))
    .bind(channel)
    .fetch_all(&mut **tx)
    .await
    .map(records)
}

/// Whether game `id` was to be rated and lost its rating by how it ended
/// (an abort): a rematch of it is rated again.
pub async fn unrated_by_ending(tx: &mut Tx, id: i64) -> Result<bool, sqlx::Error> {
    let flag: Option<i64> = sqlx::query_scalar("SELECT unrated_by_ending FROM games WHERE id = $1")
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?;
    Ok(flag == Some(1))
}

pub async fn game(tx: &mut Tx, channel: &str, id: i64) -> Result<Option<GameRecord>, sqlx::Error> {
    sqlx::query_as::<_, GameRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE channel = $1 AND id = $2"
    )))
    .bind(channel)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await
    .and_then(one)
}

/// Every game, in every channel and state, oldest first.
pub async fn all_games(tx: &mut Tx) -> Result<Vec<Read<GameRecord>>, sqlx::Error> {
    sqlx::query_as::<_, GameRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {GAME_COLUMNS} FROM games ORDER BY id"
    )))
    .fetch_all(&mut **tx)
    .await
    .map(records)
}

/// The most recent game of `user` in `channel`, finished or not.
pub async fn latest_game(
    tx: &mut Tx,
    channel: &str,
    user: &PlayerId,
) -> Result<Option<GameRecord>, sqlx::Error> {
    sqlx::query_as::<_, GameRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE channel = $1 AND (white = $2 OR black = $3) ORDER BY id DESC LIMIT 1"
    )))
    .bind(channel)
    .bind(user.as_str())
    .bind(user.as_str())
    .fetch_optional(&mut **tx)
    .await
    .and_then(one)
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

/// A game to store as it begins ([`start_game`]).
#[derive(Debug, Clone, Copy)]
pub struct NewGame<'a> {
    pub venue: Venue<'a>,
    pub kind: GameKind,
    pub seats: ByColor<&'a PlayerId>,
    pub start_fen: &'a str,
    pub time: &'a TimeControl,
    /// The engine's level, when the bot plays in it.
    pub engine_level: Option<u8>,
    /// Super Chess reprogramming, and the programs known so far.
    pub mode: ProgramMode,
    pub programs: ByColor<Option<&'a str>>,
    /// How play begins now; `None`: later, once the players' private
    /// programs are in ([`begin`]).
    pub opening: Option<Opening>,
    /// The engine moves first: its turn queued since then, and taken at
    /// once with the claim when this process searches.
    pub engine: Option<(i64, Option<Claim<'a>>)>,
}

/// How play begins: the first move's deadline (correspondence), or the
/// clocks and the time by which the first move must come (a clock game).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Opening {
    pub deadline: Option<super::Deadline>,
    pub clocks: Option<StartClocks>,
}

/// A clock game's clocks as it begins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StartClocks {
    /// Each side's time.
    pub base_ms: i64,
    /// When the game is aborted if the first move has not come.
    pub first_move_by_ms: i64,
}

/// Stores a new game, everything it begins with in one statement; its id.
pub async fn start_game(tx: &mut Tx, game: &NewGame<'_>) -> Result<i64, sqlx::Error> {
    let t = game.venue.at_ms.div_euclid(1000);
    let deadline = game.opening.and_then(|o| o.deadline);
    let clocks = game.opening.and_then(|o| o.clocks);
    let claim = game.engine.and_then(|(_, c)| c);
    super::definitions::keep(tx, game.kind).await?;
    let id = sqlx::query_scalar::<_, i64>(
        "INSERT INTO games (channel, variant, white, black, start_fen, fen, time_control, created_at, updated_at, \
         community, rated, engine_level, mode, program_white, program_black, deadline_at, remind_at, \
         white_ms, black_ms, turn_started_ms, abort_at_ms, engine_wanted_ms, engine_claimed_by, \
         engine_claimed_until) \
         VALUES ($1, $2, $3, $4, $5, $5, $6, $7, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $16, $17, \
         $18, $19, $20, $21) RETURNING id",
    )
    .bind(game.venue.channel)
    .bind(game.kind.storage_key())
    .bind(game.seats.white.as_str())
    .bind(game.seats.black.as_str())
    .bind(game.start_fen)
    .bind(game.time.code())
    .bind(t)
    .bind(game.venue.community)
    .bind(i64::from(game.venue.rated))
    .bind(game.engine_level.map(i64::from))
    .bind(game.mode.code())
    .bind(game.programs.white)
    .bind(game.programs.black)
    .bind(deadline.map(|d| d.at))
    .bind(deadline.map(|d| d.remind_at))
    .bind(clocks.map(|c| c.base_ms))
    // No clock runs before its side's first move (see `handlers::play`).
    .bind(None::<i64>)
    .bind(clocks.map(|c| c.first_move_by_ms))
    .bind(game.engine.map(|(since, _)| since))
    .bind(claim.map(|c| c.by))
    .bind(claim.map(|c| c.until_ms))
    .fetch_one(&mut **tx)
    .await?;
    Ok(id)
}

/// Play begins in game `game_id` (a game of private programs, once both
/// are in): its first deadline, or its clocks.
pub async fn begin(tx: &mut Tx, game_id: i64, opening: &Opening) -> Result<(), sqlx::Error> {
    let deadline = opening.deadline;
    let clocks = opening.clocks;
    sqlx::query(
        "UPDATE games SET deadline_at = $1, remind_at = $2, reminded = 0, white_ms = $3, black_ms = $3, \
         turn_started_ms = $4, abort_at_ms = $5, low_time_warned = 0, version = version + 1 WHERE id = $6",
    )
    .bind(deadline.map(|d| d.at))
    .bind(deadline.map(|d| d.remind_at))
    .bind(clocks.map(|c| c.base_ms))
    .bind(None::<i64>)
    .bind(clocks.map(|c| c.first_move_by_ms))
    .bind(game_id)
    .execute(&mut **tx)
    .await?;
    Ok(())
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

/// How a game ends, beside its result ([`finish`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Finish {
    pub ending: Ending,
    /// The clocks as they stopped, where the end sets them (a flag fell:
    /// the loser's at 0); `None` keeps them as stored.
    pub clocks: Option<ByColor<i64>>,
    /// Ended too soon to count (before both sides moved): not rated.
    pub unrated: bool,
}

/// Ends game `game_id` at `now_ms` as `end` says, in one statement: its
/// result and termination, the running clock stopped, and everything that
/// waited on a move cleared (deadline, offers, the engine's turn, the first
/// move's window). Whether it was still going (`false`: it had ended
/// already, and nothing was changed).
pub async fn finish(
    tx: &mut Tx,
    game_id: i64,
    end: &Finish,
    now_ms: i64,
) -> Result<bool, sqlx::Error> {
    let clock = |c: Color| end.clocks.map(|clocks| clocks[c]);
    let done = sqlx::query(
        "UPDATE games SET status = 'finished', result = $1, termination = $2, version = version + 1, \
         engine_wanted_ms = NULL, engine_claimed_by = NULL, engine_claimed_until = NULL, \
         draw_offer_by = NULL, draw_offer_ply = NULL, undo_by = NULL, undo_ply = NULL, updated_at = $3, \
         finished_ms = $4, abort_at_ms = NULL, deadline_at = NULL, remind_at = NULL, \
         turn_started_ms = NULL, white_ms = COALESCE($5, white_ms), black_ms = COALESCE($6, black_ms), \
         rated = CASE WHEN $7 = 1 THEN 0 ELSE rated END, \
         unrated_by_ending = CASE WHEN $7 = 1 AND rated = 1 THEN 1 ELSE 0 END \
         WHERE id = $8 AND status = 'active'",
    )
    .bind(end.ending.result.code())
    .bind(end.ending.termination.code())
    .bind(tx.now_secs())
    .bind(now_ms)
    .bind(clock(Color::White))
    .bind(clock(Color::Black))
    .bind(i64::from(end.unrated))
    .bind(game_id)
    .execute(&mut **tx)
    .await?;
    let finished = done.rows_affected() == 1;
    // Every game with a result is searched for puzzles, as engine work.
    if finished && end.ending.result != GameResult::NoResult {
        super::queue_puzzle_search(tx, game_id, now_ms).await?;
    }
    Ok(finished)
}

/// Calls game `game_id` off at `now_ms` for `why` (a player's `abort`, or
/// a first move that never came): no result, not rated, in one statement
/// ([`finish`]). Whether it was still going.
pub async fn abort(
    tx: &mut Tx,
    game_id: i64,
    why: Termination,
    now_ms: i64,
) -> Result<bool, sqlx::Error> {
    let end = Finish {
        ending: Ending::aborted(why),
        clocks: None,
        unrated: true,
    };
    finish(tx, game_id, &end, now_ms).await
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
pub async fn game_anywhere(tx: &mut Tx, id: i64) -> Result<Option<GameRecord>, sqlx::Error> {
    sqlx::query_as::<_, GameRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE id = $1"
    )))
    .bind(id)
    .fetch_optional(&mut **tx)
    .await
    .and_then(one)
}

/// Private-program games in progress where `user` plays, in any channel.
pub async fn private_games_of(
    tx: &mut Tx,
    user: &PlayerId,
) -> Result<Vec<Read<GameRecord>>, sqlx::Error> {
    sqlx::query_as::<_, GameRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE status = 'active' AND mode = 'private' \
         AND (white = $1 OR black = $2) ORDER BY id"
    )))
    .bind(user.as_str())
    .bind(user.as_str())
    .fetch_all(&mut **tx)
    .await
    .map(records)
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

/// How many games are in progress, in every channel.
pub async fn games_in_play(pool: &AnyPool) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM games WHERE status = 'active'")
        .fetch_one(pool)
        .await
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
pub async fn games_to_abort(
    tx: &mut Tx,
    now_ms: i64,
) -> Result<Vec<Read<GameRecord>>, sqlx::Error> {
    let backend = backend_of_tx(tx);
    sqlx::query_as::<_, GameRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {GAME_COLUMNS} FROM games {} WHERE status = 'active' AND abort_at_ms IS NOT NULL \
         AND abort_at_ms <= $1 ORDER BY id",
        indexed_by(backend, "games_abort")
    )))
    .bind(now_ms)
    .fetch_all(&mut **tx)
    .await
    .map(records)
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
) -> Result<Vec<Read<GameRecord>>, sqlx::Error> {
    sqlx::query_as::<_, GameRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE channel = $1 AND status = 'finished' \
         ORDER BY finished_ms DESC, id DESC LIMIT $2"
    )))
    .bind(channel)
    .bind(limit)
    .fetch_all(&mut **tx)
    .await
    .map(records)
}

/// The finished games of `player` in `community`, latest first.
/// A player's latest games in a channel, newest first (for suggestions).
pub async fn recent_games_of(
    tx: &mut Tx,
    channel: &str,
    player: &PlayerId,
    limit: i64,
) -> Result<Vec<Read<GameRecord>>, sqlx::Error> {
    sqlx::query_as::<_, GameRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE channel = $1 AND (white = $2 OR black = $3) \
         ORDER BY id DESC LIMIT $4"
    )))
    .bind(channel)
    .bind(player.as_str())
    .bind(player.as_str())
    .bind(limit)
    .fetch_all(&mut **tx)
    .await
    .map(records)
}

pub async fn finished_games_of(
    tx: &mut Tx,
    community: &str,
    player: &PlayerId,
) -> Result<Vec<Read<GameRecord>>, sqlx::Error> {
    sqlx::query_as::<_, GameRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE community = $1 AND status = 'finished' \
         AND (white = $2 OR black = $3) ORDER BY finished_ms DESC, id DESC"
    )))
    .bind(community)
    .bind(player.as_str())
    .bind(player.as_str())
    .fetch_all(&mut **tx)
    .await
    .map(records)
}

/// Rated games between `a` and `b` in `community`, begun since `since`
/// (seconds), tournament games aside (they are exempt from the daily limit,
/// and do not count towards it).
pub async fn rated_between(
    tx: &mut Tx,
    community: &str,
    a: &PlayerId,
    b: &PlayerId,
    since: i64,
) -> Result<Vec<Read<GameRecord>>, sqlx::Error> {
    sqlx::query_as::<_, GameRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE community = $1 AND rated = 1 AND created_at >= $2 \
         AND ((white = $3 AND black = $4) OR (white = $5 AND black = $6)) \
         AND NOT EXISTS (SELECT 1 FROM tournament_games t WHERE t.game_id = games.id) ORDER BY id"
    )))
    .bind(community)
    .bind(since)
    .bind(a.as_str())
    .bind(b.as_str())
    .bind(b.as_str())
    .bind(a.as_str())
    .fetch_all(&mut **tx)
    .await
    .map(records)
}

/// Every rated game that ended, in the order they ended (for `check-db`).
pub async fn rated_games(tx: &mut Tx) -> Result<Vec<Read<GameRecord>>, sqlx::Error> {
    sqlx::query_as::<_, GameRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE rated = 1 AND status = 'finished' \
         ORDER BY finished_ms, id"
    )))
    .fetch_all(&mut **tx)
    .await
    .map(records)
}
