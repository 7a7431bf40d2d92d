//! Daily puzzles: a channel's time of day (`daily_puzzles`), each day's
//! puzzle and how far the channel got (`daily_posts`, every step a
//! compare-and-set), and who found each move first (`daily_credits`).

use super::puzzles::{PuzzleRow, PUZZLE_COLUMNS};
use super::{PuzzleRecord, Tx};
use crate::contract::{Player, PlayerId};

/// A channel whose daily puzzle is due.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct DailyRow {
    pub channel: String,
    pub platform: String,
    pub community: String,
    /// Minutes after midnight, UTC.
    pub minute: i64,
    pub next_ms: i64,
}

/// Sets `channel`'s daily puzzle to `minute` after midnight UTC, the next
/// one due at `next_ms`.
pub async fn set_daily(tx: &mut Tx, row: &DailyRow) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO daily_puzzles (channel, platform, community, minute, next_ms) \
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (channel) DO UPDATE SET \
         platform = excluded.platform, community = excluded.community, minute = excluded.minute, \
         next_ms = excluded.next_ms",
    )
    .bind(&row.channel)
    .bind(&row.platform)
    .bind(&row.community)
    .bind(row.minute)
    .bind(row.next_ms)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Stops `channel`'s daily puzzle; `false` if it had none.
pub async fn clear_daily(tx: &mut Tx, channel: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("DELETE FROM daily_puzzles WHERE channel = $1")
        .bind(channel)
        .execute(&mut **tx)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// `channel`'s daily puzzle setting, if it has one.
pub async fn daily_of(tx: &mut Tx, channel: &str) -> Result<Option<DailyRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT channel, platform, community, minute, next_ms FROM daily_puzzles WHERE channel = $1",
    )
    .bind(channel)
    .fetch_optional(&mut **tx)
    .await
}

/// Whether any channel's daily puzzle is due at `now_ms` (a cheap look
/// before the periodic check opens a write transaction).
pub async fn any_daily_due(pool: &sqlx::AnyPool, now_ms: i64) -> Result<bool, sqlx::Error> {
    let n: Option<i64> =
        sqlx::query_scalar("SELECT 1 FROM daily_puzzles WHERE next_ms <= $1 LIMIT 1")
            .bind(now_ms)
            .fetch_optional(pool)
            .await?;
    Ok(n.is_some())
}

/// The channels whose daily puzzle is due at `now_ms`, locked on
/// PostgreSQL (another process passes them over).
pub async fn due_dailies(tx: &mut Tx, now_ms: i64) -> Result<Vec<DailyRow>, sqlx::Error> {
    let lock = match super::backend_of_tx(tx) {
        super::Backend::Postgres => " FOR UPDATE SKIP LOCKED",
        super::Backend::Sqlite => "",
    };
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT channel, platform, community, minute, next_ms FROM daily_puzzles \
         WHERE next_ms <= $1 ORDER BY next_ms LIMIT 20{lock}"
    )))
    .bind(now_ms)
    .fetch_all(&mut **tx)
    .await
}

/// Moves `channel`'s next daily puzzle from `from_ms` to `to_ms`; `false`
/// if another process did first.
pub async fn reschedule_daily(
    tx: &mut Tx,
    channel: &str,
    from_ms: i64,
    to_ms: i64,
) -> Result<bool, sqlx::Error> {
    let done =
        sqlx::query("UPDATE daily_puzzles SET next_ms = $1 WHERE channel = $2 AND next_ms = $3")
            .bind(to_ms)
            .bind(channel)
            .bind(from_ms)
            .execute(&mut **tx)
            .await?;
    Ok(done.rows_affected() == 1)
}

/// The puzzle of `community` for `channel`'s next daily: one the channel
/// never had, the most tried first (the community's favourites), then
/// the nearest the middle of the ratings.
pub async fn choose_daily(
    tx: &mut Tx,
    community: &str,
    channel: &str,
) -> Result<Option<PuzzleRecord>, sqlx::Error> {
    let row: Option<PuzzleRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {PUZZLE_COLUMNS} FROM puzzles p WHERE community = $1 \
         AND NOT EXISTS (SELECT 1 FROM daily_posts d WHERE d.channel = $2 AND d.puzzle_id = p.id) \
         ORDER BY plays DESC, ABS(rating - 1500), id LIMIT 1"
    )))
    .bind(community)
    .bind(channel)
    .fetch_optional(&mut **tx)
    .await?;
    row.map(PuzzleRow::typed).transpose()
}

/// Posts puzzle `puzzle` as `channel`'s puzzle of `day`; `false` if the
/// day has one.
pub async fn post_daily(
    tx: &mut Tx,
    channel: &str,
    day: i64,
    puzzle: i64,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "INSERT INTO daily_posts (channel, day, puzzle_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
    )
    .bind(channel)
    .bind(day)
    .bind(puzzle)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// A channel's daily puzzle as it stands.
#[derive(Debug, Clone)]
pub struct DailyPost {
    pub day: i64,
    pub puzzle: PuzzleRecord,
    pub progress: usize,
    pub solved: bool,
}

#[derive(sqlx::FromRow)]
struct PostRow {
    day: i64,
    progress: i64,
    solved_ms: Option<i64>,
    #[sqlx(flatten)]
    puzzle: PuzzleRow,
}

/// `channel`'s latest daily puzzle, if it ever had one.
pub async fn latest_daily(tx: &mut Tx, channel: &str) -> Result<Option<DailyPost>, sqlx::Error> {
    let columns = PUZZLE_COLUMNS
        .split(", ")
        .map(|c| format!("p.{c}"))
        .collect::<Vec<_>>()
        .join(", ");
    let row: Option<PostRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT d.day, d.progress, d.solved_ms, {columns} FROM daily_posts d \
         JOIN puzzles p ON p.id = d.puzzle_id WHERE d.channel = $1 ORDER BY d.day DESC LIMIT 1"
    )))
    .bind(channel)
    .fetch_optional(&mut **tx)
    .await?;
    row.map(|r| {
        Ok(DailyPost {
            day: r.day,
            progress: usize::try_from(r.progress).unwrap_or(1),
            solved: r.solved_ms.is_some(),
            puzzle: r.puzzle.typed()?,
        })
    })
    .transpose()
}

/// Moves `channel`'s puzzle of `day` on from `from` to `to` moves (solved
/// at `solved_ms` if given); `false` if another answer came first.
pub async fn advance_daily(
    tx: &mut Tx,
    channel: &str,
    day: i64,
    from: usize,
    to: usize,
    solved_ms: Option<i64>,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE daily_posts SET progress = $1, solved_ms = $2 \
         WHERE channel = $3 AND day = $4 AND progress = $5 AND solved_ms IS NULL",
    )
    .bind(to as i64)
    .bind(solved_ms)
    .bind(channel)
    .bind(day)
    .bind(from as i64)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Credits `player` with a move found first in `channel`'s puzzle of `day`.
pub async fn credit_daily(
    tx: &mut Tx,
    channel: &str,
    day: i64,
    player: &PlayerId,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO daily_credits (channel, day, player, moves) VALUES ($1, $2, $3, 1) \
         ON CONFLICT (channel, day, player) DO UPDATE SET moves = daily_credits.moves + 1",
    )
    .bind(channel)
    .bind(day)
    .bind(player.as_str())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Who found moves of `channel`'s puzzle of `day`, with how many.
pub async fn daily_credits(
    tx: &mut Tx,
    channel: &str,
    day: i64,
) -> Result<Vec<(Player, i64)>, sqlx::Error> {
    let rows: Vec<(String, Option<String>, i64)> = sqlx::query_as(
        "SELECT player, (SELECT name FROM players WHERE players.id = daily_credits.player), moves \
         FROM daily_credits WHERE channel = $1 AND day = $2 ORDER BY moves DESC, player",
    )
    .bind(channel)
    .bind(day)
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(id, name, n)| (Player::stored(&id, name), n))
        .collect())
}

/// The days (newest first) on which `player` found a move of `channel`'s
/// daily puzzle.
pub async fn credited_days(
    tx: &mut Tx,
    channel: &str,
    player: &PlayerId,
) -> Result<Vec<i64>, sqlx::Error> {
    let rows: Vec<(i64,)> = sqlx::query_as(
        "SELECT day FROM daily_credits WHERE channel = $1 AND player = $2 ORDER BY day DESC",
    )
    .bind(channel)
    .bind(player.as_str())
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows.into_iter().map(|(d,)| d).collect())
}
