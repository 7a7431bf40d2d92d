//! Solving puzzles: each player's attempts (`puzzle_attempts`: one open a
//! player and channel, each step a compare-and-set on its progress) and
//! their puzzle ratings (`puzzle_ratings`, per community and game).

use super::puzzles::{PuzzleRow, PUZZLE_COLUMNS};
use super::{PuzzleRecord, Tx};
use crate::contract::{Player, PlayerId};
use crate::ratings::Rating;
use voidmate_rules::GameKind;

/// How an attempt ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttemptEnd {
    Solved,
    Failed,
    Skipped,
}

impl AttemptEnd {
    fn code(self) -> &'static str {
        match self {
            AttemptEnd::Solved => "solved",
            AttemptEnd::Failed => "failed",
            AttemptEnd::Skipped => "skipped",
        }
    }
}

/// A player's open attempt, with its puzzle.
#[derive(Debug, Clone)]
pub struct Attempt {
    pub id: i64,
    pub puzzle: PuzzleRecord,
    /// The moves of the puzzle's line on the board (1: the mistake).
    pub progress: usize,
    /// Whether it counts for the ratings (the player's first attempt).
    pub rated: bool,
    /// Whether its rating change is written already (after a hint).
    pub settled: bool,
    pub hinted: bool,
}

#[derive(sqlx::FromRow)]
struct AttemptRow {
    attempt_id: i64,
    progress: i64,
    rated: i64,
    settled: i64,
    hinted: i64,
    #[sqlx(flatten)]
    puzzle: PuzzleRow,
}

/// `player`'s open attempt in `channel`, if any.
pub async fn open_attempt(
    tx: &mut Tx,
    player: &PlayerId,
    channel: &str,
) -> Result<Option<Attempt>, sqlx::Error> {
    let columns = PUZZLE_COLUMNS
        .split(", ")
        .map(|c| format!("p.{c}"))
        .collect::<Vec<_>>()
        .join(", ");
    let row: Option<AttemptRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT a.id AS attempt_id, a.progress, a.rated, a.settled, a.hinted, {columns} \
         FROM puzzle_attempts a JOIN puzzles p ON p.id = a.puzzle_id \
         WHERE a.player = $1 AND a.channel = $2 AND a.state = 'open'"
    )))
    .bind(player.as_str())
    .bind(channel)
    .fetch_optional(&mut **tx)
    .await?;
    row.map(|r| {
        Ok(Attempt {
            id: r.attempt_id,
            progress: usize::try_from(r.progress).unwrap_or(1),
            rated: r.rated != 0,
            settled: r.settled != 0,
            hinted: r.hinted != 0,
            puzzle: r.puzzle.typed()?,
        })
    })
    .transpose()
}

/// Whether `player` has tried puzzle `puzzle` before (anywhere).
pub async fn attempted(tx: &mut Tx, puzzle: i64, player: &PlayerId) -> Result<bool, sqlx::Error> {
    let n: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM puzzle_attempts WHERE puzzle_id = $1 AND player = $2",
    )
    .bind(puzzle)
    .bind(player.as_str())
    .fetch_one(&mut **tx)
    .await?;
    Ok(n > 0)
}

/// Opens an attempt; `None` if the player has one open in the channel
/// already (a second command raced this one).
pub async fn start_attempt(
    tx: &mut Tx,
    puzzle: i64,
    player: &PlayerId,
    channel: &str,
    community: &str,
    rated: bool,
    now_ms: i64,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO puzzle_attempts (puzzle_id, player, channel, community, rated, started_ms) \
         VALUES ($1, $2, $3, $4, $5, $6) \
         ON CONFLICT (player, channel) WHERE state = 'open' DO NOTHING RETURNING id",
    )
    .bind(puzzle)
    .bind(player.as_str())
    .bind(channel)
    .bind(community)
    .bind(i64::from(rated))
    .bind(now_ms)
    .fetch_optional(&mut **tx)
    .await
}

/// Moves an open attempt on from `from` to `to` moves; `false` if it is
/// not open at `from` any more (another answer came first).
pub async fn advance_attempt(
    tx: &mut Tx,
    id: i64,
    from: usize,
    to: usize,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE puzzle_attempts SET progress = $1 WHERE id = $2 AND progress = $3 AND state = 'open'",
    )
    .bind(to as i64)
    .bind(id)
    .bind(from as i64)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Ends an open attempt at `progress`; `false` if it was not open there.
pub async fn end_attempt(
    tx: &mut Tx,
    id: i64,
    progress: usize,
    end: AttemptEnd,
    now_ms: i64,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE puzzle_attempts SET state = $1, ended_ms = $2 \
         WHERE id = $3 AND progress = $4 AND state = 'open'",
    )
    .bind(end.code())
    .bind(now_ms)
    .bind(id)
    .bind(progress as i64)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Notes that attempt `id`'s rating change is written (and, with `hint`,
/// that a hint was given); `false` if it was already.
pub async fn settle_attempt(tx: &mut Tx, id: i64, hint: bool) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE puzzle_attempts SET settled = 1, hinted = CASE WHEN $1 = 1 THEN 1 ELSE hinted END \
         WHERE id = $2 AND settled = 0",
    )
    .bind(i64::from(hint))
    .bind(id)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Notes a hint on an attempt that is not rated (nothing to settle).
pub async fn note_hint(tx: &mut Tx, id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE puzzle_attempts SET hinted = 1 WHERE id = $1")
        .bind(id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// How many puzzles of each game `community` has, most first.
pub async fn puzzle_games(
    tx: &mut Tx,
    community: &str,
) -> Result<Vec<(GameKind, i64)>, sqlx::Error> {
    let rows: Vec<(String, i64)> = sqlx::query_as(
        "SELECT variant, COUNT(*) FROM puzzles WHERE community = $1 \
         GROUP BY variant ORDER BY COUNT(*) DESC, variant",
    )
    .bind(community)
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows
        .into_iter()
        .filter_map(|(v, n)| Some((GameKind::from_name(&v)?, n)))
        .collect())
}

/// The puzzle of `community` and game `kind` that `player` has never
/// tried whose rating is nearest `target`, if any is left.
pub async fn nearest_puzzle(
    tx: &mut Tx,
    community: &str,
    kind: GameKind,
    player: &PlayerId,
    target: f64,
) -> Result<Option<PuzzleRecord>, sqlx::Error> {
    let row: Option<PuzzleRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {PUZZLE_COLUMNS} FROM puzzles p WHERE community = $1 AND variant = $2 \
         AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a WHERE a.puzzle_id = p.id AND a.player = $3) \
         ORDER BY ABS(rating - $4), id LIMIT 1"
    )))
    .bind(community)
    .bind(kind.name())
    .bind(player.as_str())
    .bind(target)
    .fetch_optional(&mut **tx)
    .await?;
    row.map(PuzzleRow::typed).transpose()
}

/// A solver's puzzle rating in one community and game.
#[derive(Debug, Clone, PartialEq)]
pub struct PuzzleRating {
    pub player: Player,
    pub kind: GameKind,
    pub rating: Rating,
    pub solved: i64,
    pub failed: i64,
    pub last_ms: i64,
}

#[derive(sqlx::FromRow)]
struct PuzzleRatingRow {
    player: String,
    name: Option<String>,
    variant: String,
    rating: f64,
    deviation: f64,
    volatility: f64,
    solved: i64,
    failed: i64,
    last_ms: i64,
}

impl PuzzleRatingRow {
    fn typed(self) -> Result<PuzzleRating, sqlx::Error> {
        let kind = GameKind::from_name(&self.variant).ok_or_else(|| {
            sqlx::Error::Decode(
                format!(
                    "the puzzle rating of {} names an unknown game {:?}",
                    self.player, self.variant
                )
                .into(),
            )
        })?;
        Ok(PuzzleRating {
            player: Player::stored(&self.player, self.name),
            kind,
            rating: Rating {
                rating: self.rating,
                deviation: self.deviation,
                volatility: self.volatility,
            },
            solved: self.solved,
            failed: self.failed,
            last_ms: self.last_ms,
        })
    }
}

const RATING_COLUMNS: &str =
    "player, (SELECT name FROM players WHERE players.id = puzzle_ratings.player) AS name, \
     variant, rating, deviation, volatility, solved, failed, last_ms";

/// `player`'s puzzle ratings in `community`, in every game.
pub async fn puzzle_ratings_of(
    tx: &mut Tx,
    community: &str,
    player: &PlayerId,
) -> Result<Vec<PuzzleRating>, sqlx::Error> {
    let rows: Vec<PuzzleRatingRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {RATING_COLUMNS} FROM puzzle_ratings WHERE community = $1 AND player = $2 \
         ORDER BY solved + failed DESC, variant"
    )))
    .bind(community)
    .bind(player.as_str())
    .fetch_all(&mut **tx)
    .await?;
    rows.into_iter().map(PuzzleRatingRow::typed).collect()
}

/// The best puzzle solvers of `community` in game `kind`, with at least
/// `min_attempts` rated attempts.
pub async fn puzzle_leaderboard(
    tx: &mut Tx,
    community: &str,
    kind: GameKind,
    min_attempts: i64,
    limit: i64,
) -> Result<Vec<PuzzleRating>, sqlx::Error> {
    let rows: Vec<PuzzleRatingRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {RATING_COLUMNS} FROM puzzle_ratings WHERE community = $1 AND variant = $2 \
         AND solved + failed >= $3 ORDER BY rating DESC, player LIMIT $4"
    )))
    .bind(community)
    .bind(kind.name())
    .bind(min_attempts)
    .bind(limit)
    .fetch_all(&mut **tx)
    .await?;
    rows.into_iter().map(PuzzleRatingRow::typed).collect()
}

/// One rated attempt's result, written with both sides' new ratings.
pub struct PuzzleResult<'a> {
    pub community: &'a str,
    pub kind: GameKind,
    pub player: &'a PlayerId,
    pub solver: Rating,
    pub puzzle: i64,
    pub puzzle_rating: Rating,
    pub solved: bool,
    pub now_ms: i64,
}

/// Writes a rated attempt's result: the solver's rating and count, the
/// puzzle's rating and plays.
pub async fn save_puzzle_result(tx: &mut Tx, r: &PuzzleResult<'_>) -> Result<(), sqlx::Error> {
    let (solved, failed) = if r.solved { (1, 0) } else { (0, 1) };
    sqlx::query(
        "INSERT INTO puzzle_ratings (community, variant, player, rating, deviation, volatility, solved, failed, last_ms) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) \
         ON CONFLICT (community, variant, player) DO UPDATE SET rating = excluded.rating, \
         deviation = excluded.deviation, volatility = excluded.volatility, \
         solved = puzzle_ratings.solved + excluded.solved, failed = puzzle_ratings.failed + excluded.failed, \
         last_ms = excluded.last_ms",
    )
    .bind(r.community)
    .bind(r.kind.name())
    .bind(r.player.as_str())
    .bind(r.solver.rating)
    .bind(r.solver.deviation)
    .bind(r.solver.volatility)
    .bind(solved)
    .bind(failed)
    .bind(r.now_ms)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "UPDATE puzzles SET rating = $1, deviation = $2, volatility = $3, plays = plays + 1 WHERE id = $4",
    )
    .bind(r.puzzle_rating.rating)
    .bind(r.puzzle_rating.deviation)
    .bind(r.puzzle_rating.volatility)
    .bind(r.puzzle)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
