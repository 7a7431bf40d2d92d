//! Puzzles: the queue of finished games to search (`puzzle_searches`, each
//! claimed under a lease, [`super::leases`]) and the puzzles found
//! (`puzzles`), typed where they are read.

use super::Tx;
use voidmate_rules::GameKind;

/// Queues game `game_id` for a puzzle search, in the transaction that
/// finishes it; `false` if it was queued already.
pub async fn queue_puzzle_search(
    tx: &mut Tx,
    game_id: i64,
    now_ms: i64,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "INSERT INTO puzzle_searches (game_id, requested_ms) VALUES ($1, $2) \
         ON CONFLICT (game_id) DO NOTHING",
    )
    .bind(game_id)
    .bind(now_ms)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Whether game `game_id`'s search is queued, and done.
pub async fn puzzle_search_done(tx: &mut Tx, game_id: i64) -> Result<Option<bool>, sqlx::Error> {
    let row: Option<(Option<i64>,)> =
        sqlx::query_as("SELECT done_ms FROM puzzle_searches WHERE game_id = $1")
            .bind(game_id)
            .fetch_optional(&mut **tx)
            .await?;
    Ok(row.map(|(done,)| done.is_some()))
}

/// Marks game `game_id`'s search done, with how many puzzles it found;
/// `false` if it was done already (by a process that took it over).
pub async fn finish_puzzle_search(
    tx: &mut Tx,
    game_id: i64,
    found: usize,
    now_ms: i64,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE puzzle_searches SET done_ms = $1, found = $2, claimed_by = NULL, claimed_until = NULL \
         WHERE game_id = $3 AND done_ms IS NULL",
    )
    .bind(now_ms)
    .bind(found as i64)
    .bind(game_id)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// A puzzle as found, to store.
#[derive(Debug, Clone, PartialEq)]
pub struct NewPuzzle<'a> {
    pub game_id: i64,
    /// The ply of the position it starts from (after the mistake).
    pub ply: i64,
    pub community: Option<&'a str>,
    pub platform: &'a str,
    pub kind: GameKind,
    /// The position before the mistake.
    pub fen: String,
    /// The mistake, then the solution, in SAN.
    pub moves: Vec<String>,
    pub score: i32,
    pub themes: Vec<String>,
}

/// Stores a puzzle once: `false` if the game's position has one already
/// (found by another process, or before a kill).
pub async fn save_puzzle(tx: &mut Tx, p: &NewPuzzle<'_>, now_ms: i64) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "INSERT INTO puzzles (game_id, ply, community, platform, variant, fen, moves, score, themes, created_ms) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (game_id, ply) DO NOTHING",
    )
    .bind(p.game_id)
    .bind(p.ply)
    .bind(p.community)
    .bind(p.platform)
    .bind(p.kind.name())
    .bind(&p.fen)
    .bind(p.moves.join(" "))
    .bind(i64::from(p.score))
    .bind(p.themes.join(" "))
    .bind(now_ms)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// A stored puzzle.
#[derive(Debug, Clone, PartialEq)]
pub struct PuzzleRecord {
    pub id: i64,
    pub game_id: i64,
    pub ply: i64,
    pub community: Option<String>,
    pub kind: GameKind,
    pub fen: String,
    pub moves: Vec<String>,
    pub score: i32,
    pub themes: Vec<String>,
    /// The puzzle's own Glicko-2 rating (a solver and a puzzle play one
    /// game an attempt).
    pub rating: crate::ratings::Rating,
    /// The rated attempts at it.
    pub plays: i64,
}

impl PuzzleRecord {
    /// Its number as players see it: `P12`.
    pub fn label(&self) -> String {
        format!("P{}", self.id)
    }
}

#[derive(sqlx::FromRow)]
pub(super) struct PuzzleRow {
    id: i64,
    game_id: i64,
    ply: i64,
    community: Option<String>,
    variant: String,
    fen: String,
    moves: String,
    score: i64,
    themes: String,
    rating: f64,
    deviation: f64,
    volatility: f64,
    plays: i64,
}

impl PuzzleRow {
    pub(super) fn typed(self) -> Result<PuzzleRecord, sqlx::Error> {
        let damaged = |why: String| {
            sqlx::Error::Decode(format!("puzzle {} is damaged: {why}", self.id).into())
        };
        let kind = GameKind::from_name(&self.variant)
            .ok_or_else(|| damaged(format!("game {:?}", self.variant)))?;
        let score =
            i32::try_from(self.score).map_err(|_| damaged(format!("score {}", self.score)))?;
        Ok(PuzzleRecord {
            id: self.id,
            game_id: self.game_id,
            ply: self.ply,
            community: self.community.clone(),
            kind,
            fen: self.fen.clone(),
            moves: self.moves.split_whitespace().map(str::to_string).collect(),
            score,
            themes: self.themes.split_whitespace().map(str::to_string).collect(),
            rating: crate::ratings::Rating {
                rating: self.rating,
                deviation: self.deviation,
                volatility: self.volatility,
            },
            plays: self.plays,
        })
    }
}

pub(super) const PUZZLE_COLUMNS: &str =
    "id, game_id, ply, community, variant, fen, moves, score, themes, rating, deviation, volatility, plays";

/// The puzzles found in game `game_id`, in the order of the game.
pub async fn puzzles_of_game(tx: &mut Tx, game_id: i64) -> Result<Vec<PuzzleRecord>, sqlx::Error> {
    let rows: Vec<PuzzleRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {PUZZLE_COLUMNS} FROM puzzles WHERE game_id = $1 ORDER BY ply"
    )))
    .bind(game_id)
    .fetch_all(&mut **tx)
    .await?;
    rows.into_iter().map(PuzzleRow::typed).collect()
}

/// Puzzle `id`, if it exists.
pub async fn puzzle(tx: &mut Tx, id: i64) -> Result<Option<PuzzleRecord>, sqlx::Error> {
    let row: Option<PuzzleRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {PUZZLE_COLUMNS} FROM puzzles WHERE id = $1"
    )))
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?;
    row.map(PuzzleRow::typed).transpose()
}

/// Every puzzle, in the order they were found (`check-db`).
pub async fn all_puzzles(tx: &mut Tx) -> Result<Vec<PuzzleRecord>, sqlx::Error> {
    let rows: Vec<PuzzleRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {PUZZLE_COLUMNS} FROM puzzles ORDER BY id"
    )))
    .fetch_all(&mut **tx)
    .await?;
    rows.into_iter().map(PuzzleRow::typed).collect()
}

/// Queues every finished game (with a result, ended at `since_ms` or later)
/// that was never queued for a puzzle search (games that ended before
/// searches were queued), then returns the games whose search is not done,
/// oldest first, at most `limit`.
pub async fn puzzle_backlog(
    tx: &mut Tx,
    since_ms: Option<i64>,
    limit: Option<u32>,
    now_ms: i64,
) -> Result<Vec<i64>, sqlx::Error> {
    let since = since_ms.unwrap_or(i64::MIN);
    sqlx::query(
        "INSERT INTO puzzle_searches (game_id, requested_ms) \
         SELECT g.id, $1 FROM games g WHERE g.status = 'finished' AND g.result <> '*' \
         AND COALESCE(g.finished_ms, 0) >= $2 \
         AND NOT EXISTS (SELECT 1 FROM puzzle_searches s WHERE s.game_id = g.id)",
    )
    .bind(now_ms)
    .bind(since)
    .execute(&mut **tx)
    .await?;
    let ids: Vec<(i64,)> = sqlx::query_as(
        "SELECT s.game_id FROM puzzle_searches s JOIN games g ON g.id = s.game_id \
         WHERE s.done_ms IS NULL AND COALESCE(g.finished_ms, 0) >= $1 \
         ORDER BY COALESCE(g.finished_ms, 0), s.game_id LIMIT $2",
    )
    .bind(since)
    .bind(limit.map_or(i64::MAX, i64::from))
    .fetch_all(&mut **tx)
    .await?;
    Ok(ids.into_iter().map(|(id,)| id).collect())
}
