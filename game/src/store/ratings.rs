//! The `ratings` and `rating_changes` tables: each player's Glicko-2 rating
//! per community, game and pool, and what every rated game did to them.

use super::Tx;
use crate::contract::PlayerId;
use crate::ratings::{Pool, Rating};
use sqlx::{AnyPool, FromRow};
use voidmate_rules::GameKind;

/// A rating as stored.
#[derive(Debug, Clone, FromRow)]
pub struct RatingRow {
    pub player: String,
    pub variant: String,
    pub pool: String,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: i64,
    pub best: f64,
    pub last_game_ms: i64,
    /// The name the player was last seen with.
    pub name: Option<String>,
}

impl RatingRow {
    pub fn rating(&self) -> Rating {
        Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }
}

const COLUMNS: &str =
    "player, variant, pool, rating, deviation, volatility, games, best, last_game_ms, \
     (SELECT name FROM players WHERE players.id = ratings.player) AS name";

/// `player`'s rating in `community`, game `kind` and `pool`, if they have one.
pub async fn rating(
    tx: &mut Tx,
    community: &str,
    player: &PlayerId,
    kind: GameKind,
    pool: Pool,
) -> Result<Option<RatingRow>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM ratings \
         WHERE community = $1 AND player = $2 AND variant = $3 AND pool = $4"
    )))
    .bind(community)
    .bind(player.as_str())
    .bind(kind.name())
    .bind(pool.name())
    .fetch_optional(&mut **tx)
    .await
}

/// Every rating `player` has in `community`.
pub async fn ratings_of(
    tx: &mut Tx,
    community: &str,
    player: &PlayerId,
) -> Result<Vec<RatingRow>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM ratings WHERE community = $1 AND player = $2 \
         ORDER BY variant, pool"
    )))
    .bind(community)
    .bind(player.as_str())
    .fetch_all(&mut **tx)
    .await
}

/// What a rated game did to one player.
#[derive(Debug, Clone, Copy)]
pub struct Change<'a> {
    pub game: i64,
    pub community: &'a str,
    pub player: &'a PlayerId,
    pub kind: GameKind,
    pub pool: Pool,
    pub before: Rating,
    pub after: Rating,
    /// When the game ended (ms).
    pub at_ms: i64,
}

/// Records a rated game's change to one player's rating: the rating row
/// and the game's change row, in the game's own transaction. `false` if
/// this game had already changed this player's rating (nothing written).
pub async fn apply(tx: &mut Tx, c: Change<'_>) -> Result<bool, sqlx::Error> {
    let recorded = sqlx::query(
        "INSERT INTO rating_changes (game_id, player, before_rating, before_deviation, \
         before_volatility, after_rating, after_deviation, after_volatility) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING",
    )
    .bind(c.game)
    .bind(c.player.as_str())
    .bind(c.before.rating)
    .bind(c.before.deviation)
    .bind(c.before.volatility)
    .bind(c.after.rating)
    .bind(c.after.deviation)
    .bind(c.after.volatility)
    .execute(&mut **tx)
    .await?;
    if recorded.rows_affected() == 0 {
        return Ok(false);
    }
    sqlx::query(
        "INSERT INTO ratings (community, player, variant, pool, rating, deviation, volatility, \
         games, best, last_game_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, 1, $8, $9) \
         ON CONFLICT (community, player, variant, pool) DO UPDATE SET \
         rating = excluded.rating, deviation = excluded.deviation, \
         volatility = excluded.volatility, games = ratings.games + 1, \
         best = CASE WHEN excluded.rating > ratings.best THEN excluded.rating ELSE ratings.best END, \
         last_game_ms = excluded.last_game_ms",
    )
    .bind(c.community)
    .bind(c.player.as_str())
    .bind(c.kind.name())
    .bind(c.pool.name())
    .bind(c.after.rating)
    .bind(c.after.deviation)
    .bind(c.after.volatility)
    .bind(c.after.rating.max(c.before.rating))
    .bind(c.at_ms)
    .execute(&mut **tx)
    .await?;
    Ok(true)
}

/// Who may stand on a leaderboard: players of `community` in game `kind`
/// and `pool` with at least `min_games` rated games, a rated game since
/// `since_ms`, and a deviation of at most `max_deviation` as of `now_ms`
/// (grown by their idleness, as `Rating::after_idle` grows it).
#[derive(Debug, Clone, Copy)]
pub struct Board<'a> {
    pub community: &'a str,
    pub kind: GameKind,
    pub pool: Pool,
    pub min_games: i64,
    pub since_ms: i64,
    pub max_deviation: f64,
    pub now_ms: i64,
}

/// `Board` in SQL, binding `$1` to `$7` in its fields' order.
const ON_BOARD: &str = "community = $1 AND variant = $2 AND pool = $3 AND games >= $4 \
     AND last_game_ms >= $5 \
     AND deviation * deviation + (($7 - last_game_ms) / 86400000.0) * 0.21436 \
         * (volatility * 173.7178) * (volatility * 173.7178) <= $6 * $6";

impl Board<'_> {
    fn bind<'q, O>(
        &self,
        q: sqlx::query::QueryAs<'q, sqlx::Any, O, sqlx::any::AnyArguments>,
    ) -> sqlx::query::QueryAs<'q, sqlx::Any, O, sqlx::any::AnyArguments> {
        q.bind(self.community.to_string())
            .bind(self.kind.name())
            .bind(self.pool.name())
            .bind(self.min_games)
            .bind(self.since_ms)
            .bind(self.max_deviation)
            .bind(self.now_ms)
    }
}

/// The board's best `limit` players, best first.
pub async fn leaderboard(
    tx: &mut Tx,
    board: Board<'_>,
    limit: i64,
) -> Result<Vec<RatingRow>, sqlx::Error> {
    let sql = format!(
        "SELECT {COLUMNS} FROM ratings WHERE {ON_BOARD} ORDER BY rating DESC, player LIMIT $8"
    );
    board
        .bind(sqlx::query_as(sqlx::AssertSqlSafe(sql)))
        .bind(limit)
        .fetch_all(&mut **tx)
        .await
}

/// How many players on the board are rated above `rating`.
pub async fn rank_above(tx: &mut Tx, board: Board<'_>, rating: f64) -> Result<i64, sqlx::Error> {
    let sql = format!("SELECT COUNT(*) FROM ratings WHERE {ON_BOARD} AND rating > $8");
    let (n,): (i64,) = board
        .bind(sqlx::query_as(sqlx::AssertSqlSafe(sql)))
        .bind(rating)
        .fetch_one(&mut **tx)
        .await?;
    Ok(n)
}

/// The games played most in `channel` (finished or not), most first.
pub async fn most_played(tx: &mut Tx, channel: &str) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT variant FROM games WHERE channel = $1 GROUP BY variant \
         ORDER BY COUNT(*) DESC, MIN(id) LIMIT 8",
    )
    .bind(channel)
    .fetch_all(&mut **tx)
    .await
}

/// A rating change as recorded, for `check-db`.
#[derive(Debug, Clone, FromRow)]
pub struct ChangeRow {
    pub game_id: i64,
    pub player: String,
    pub before_rating: f64,
    pub before_deviation: f64,
    pub before_volatility: f64,
    pub after_rating: f64,
    pub after_deviation: f64,
    pub after_volatility: f64,
}

/// Every rating change, by game.
pub async fn all_changes(pool: &AnyPool) -> Result<Vec<ChangeRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT game_id, player, before_rating, before_deviation, before_volatility, \
         after_rating, after_deviation, after_volatility FROM rating_changes ORDER BY game_id, player",
    )
    .fetch_all(pool)
    .await
}

/// Every stored rating, for `check-db`: (community, player, variant, pool,
/// rating, deviation, volatility, games).
pub type StoredRating = (String, String, String, String, f64, f64, f64, i64);

pub async fn all_ratings(pool: &AnyPool) -> Result<Vec<StoredRating>, sqlx::Error> {
    sqlx::query_as(
        "SELECT community, player, variant, pool, rating, deviation, volatility, games \
         FROM ratings ORDER BY community, player, variant, pool",
    )
    .fetch_all(pool)
    .await
}
