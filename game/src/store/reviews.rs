//! Engine reviews: the queue (`reviews`, each claimed under a lease,
//! [`super::leases`]) and each position's evaluation as it is found
//! (`review_positions`).

use super::Tx;
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
