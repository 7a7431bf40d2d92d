//! Engine reviews: the queue (`reviews`, claimed under a lease like the
//! engine's turns) and each position's evaluation as it is found
//! (`review_positions`).

use super::{backend_of, Backend, EngineLease, Tx};
use crate::review::Eval;
use sqlx::AnyPool;

/// A review waiting for, or under, the engine.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ReviewRow {
    pub game_id: i64,
    pub channel: String,
    pub platform: String,
    pub nodes: i64,
    pub done_ms: Option<i64>,
}

/// Queues a review of game `game_id`; `false` if one is queued or done
/// already (asked twice, it is made once).
pub async fn queue_review(
    tx: &mut Tx,
    game_id: i64,
    channel: &str,
    platform: &str,
    nodes: i64,
    now_ms: i64,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "INSERT INTO reviews (game_id, channel, platform, requested_ms, nodes) \
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (game_id) DO NOTHING",
    )
    .bind(game_id)
    .bind(channel)
    .bind(platform)
    .bind(now_ms)
    .bind(nodes)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Game `game_id`'s review, queued or done.
pub async fn review_of(tx: &mut Tx, game_id: i64) -> Result<Option<ReviewRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT game_id, channel, platform, nodes, done_ms FROM reviews WHERE game_id = $1",
    )
    .bind(game_id)
    .fetch_optional(&mut **tx)
    .await
}

/// Takes the oldest review nobody holds, under `lease`.
pub async fn claim_review(
    pool: &AnyPool,
    now_ms: i64,
    lease: EngineLease<'_>,
) -> Result<Option<ReviewRow>, sqlx::Error> {
    let lock = match backend_of(pool) {
        Backend::Postgres => "FOR UPDATE SKIP LOCKED",
        Backend::Sqlite => "",
    };
    let free = "done_ms IS NULL AND (claimed_until IS NULL OR claimed_until < $1)";
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "UPDATE reviews SET claimed_by = $2, claimed_until = $3 \
         WHERE game_id = (SELECT game_id FROM reviews WHERE {free} \
                          ORDER BY requested_ms, game_id LIMIT 1 {lock}) \
         AND {free} RETURNING game_id, channel, platform, nodes, done_ms"
    )))
    .bind(now_ms)
    .bind(lease.by)
    .bind(lease.until_ms)
    .fetch_optional(pool)
    .await
}

/// Extends `lease` on the review of `game_id` while its holder still holds
/// it; `false` once it is not theirs (done, or taken after it lapsed).
pub async fn renew_review_lease(
    pool: &AnyPool,
    game_id: i64,
    lease: EngineLease<'_>,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE reviews SET claimed_until = $1 \
         WHERE game_id = $2 AND claimed_by = $3 AND done_ms IS NULL",
    )
    .bind(lease.until_ms)
    .bind(game_id)
    .bind(lease.by)
    .execute(pool)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Ends every claim on reviews: at the start of the only process on a
/// SQLite file, whose last run's reviews died with it (they go on from the
/// positions kept).
pub async fn release_review_claims(pool: &AnyPool) -> Result<u64, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE reviews SET claimed_by = NULL, claimed_until = NULL \
         WHERE claimed_by IS NOT NULL AND done_ms IS NULL",
    )
    .execute(pool)
    .await?;
    Ok(done.rows_affected())
}

/// The evaluations found so far: (ply, evaluation, best move).
pub async fn review_positions(
    pool: &AnyPool,
    game_id: i64,
) -> Result<Vec<(i64, Eval, Option<String>)>, sqlx::Error> {
    let rows: Vec<(i64, String, i64, Option<String>)> = sqlx::query_as(
        "SELECT ply, kind, value, best FROM review_positions WHERE game_id = $1 ORDER BY ply",
    )
    .bind(game_id)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(ply, kind, value, best)| {
            let eval = match kind.as_str() {
                "mate" => Eval::Mate(value as i32),
                "over" => Eval::Over(value.clamp(-1, 1) as i8),
                _ => Eval::Cp(value as i32),
            };
            (ply, eval, best)
        })
        .collect())
}

/// Keeps one position's evaluation (again: the same one, kept once).
pub async fn save_review_position(
    pool: &AnyPool,
    game_id: i64,
    ply: i64,
    eval: Eval,
    best: Option<&str>,
) -> Result<(), sqlx::Error> {
    let (kind, value) = match eval {
        Eval::Cp(cp) => ("cp", cp as i64),
        Eval::Mate(n) => ("mate", n as i64),
        Eval::Over(v) => ("over", v as i64),
    };
    sqlx::query(
        "INSERT INTO review_positions (game_id, ply, kind, value, best) VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (game_id, ply) DO NOTHING",
    )
    .bind(game_id)
    .bind(ply)
    .bind(kind)
    .bind(value)
    .bind(best)
    .execute(pool)
    .await?;
    Ok(())
}

/// Marks the review done, if it is not yet: `false` when another process
/// finished it first (it is posted once, by whoever marks it).
pub async fn finish_review(tx: &mut Tx, game_id: i64, now_ms: i64) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE reviews SET done_ms = $1, claimed_by = NULL, claimed_until = NULL \
         WHERE game_id = $2 AND done_ms IS NULL",
    )
    .bind(now_ms)
    .bind(game_id)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}
