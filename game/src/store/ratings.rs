//! The `ratings` and `rating_changes` tables: each player's Glicko-2 rating
//! per community, game and pool, and what every rated game did to them.

use super::games::damaged;
use super::Tx;
use crate::contract::{Player, PlayerId};
use crate::ratings::{Pool, Rating};
use crate::record::RecordError;
use sqlx::{AnyPool, FromRow};
use voidmate_rules::GameKind;

/// A player's rating in one community, game and pool, as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredRating {
    pub community: String,
    /// The player, with the name they were last seen with.
    pub player: Player,
    pub kind: GameKind,
    pub pool: Pool,
    pub rating: Rating,
    pub games: i64,
    /// The highest rating they have had.
    pub best: f64,
    pub last_game_ms: i64,
}

/// A rating's row, as the database keeps it.
#[derive(Debug, Clone, FromRow)]
struct RatingRow {
    community: String,
    player: String,
    variant: String,
    pool: String,
    rating: f64,
    deviation: f64,
    volatility: f64,
    games: i64,
    best: f64,
    last_game_ms: i64,
    name: Option<String>,
}

impl RatingRow {
    /// The rating, or what is wrong with it, naming it.
    fn into_rating(self) -> Result<StoredRating, RecordError> {
        let bad = |why: String| RecordError::Rating {
            community: self.community.clone(),
            player: self.player.clone(),
            why,
        };
        let Some(kind) = GameKind::from_name(&self.variant) else {
            return Err(bad(format!("unknown variant '{}'", self.variant)));
        };
        let Some(pool) = Pool::from_code(&self.pool) else {
            return Err(bad(format!("unknown pool '{}'", self.pool)));
        };
        Ok(StoredRating {
            player: Player::stored(&self.player, self.name),
            community: self.community,
            kind,
            pool,
            rating: Rating {
                rating: self.rating,
                deviation: self.deviation,
                volatility: self.volatility,
            },
            games: self.games,
            best: self.best,
            last_game_ms: self.last_game_ms,
        })
    }
}

/// Rows read as ratings; one that does not read is an error naming it.
fn ratings(rows: Vec<RatingRow>) -> Result<Vec<StoredRating>, sqlx::Error> {
    rows.into_iter()
        .map(|r| r.into_rating().map_err(damaged))
        .collect()
}

const COLUMNS: &str =
    "community, player, variant, pool, rating, deviation, volatility, games, best, last_game_ms, \
     (SELECT name FROM players WHERE players.id = ratings.player) AS name";

/// `player`'s rating in `community`, game `kind` and `pool`, if they have one.
pub async fn rating(
    tx: &mut Tx,
    community: &str,
    player: &PlayerId,
    kind: GameKind,
    pool: Pool,
) -> Result<Option<StoredRating>, sqlx::Error> {
    let row: Option<RatingRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM ratings \
         WHERE community = $1 AND player = $2 AND variant = $3 AND pool = $4"
    )))
    .bind(community)
    .bind(player.as_str())
    .bind(kind.name())
    .bind(pool.name())
    .fetch_optional(&mut **tx)
    .await?;
    row.map(|r| r.into_rating().map_err(damaged)).transpose()
}

/// Every rating `player` has in `community`.
pub async fn ratings_of(
    tx: &mut Tx,
    community: &str,
    player: &PlayerId,
) -> Result<Vec<StoredRating>, sqlx::Error> {
    let rows = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM ratings WHERE community = $1 AND player = $2 \
         ORDER BY variant, pool"
    )))
    .bind(community)
    .bind(player.as_str())
    .fetch_all(&mut **tx)
    .await?;
    ratings(rows)
}

/// A player's best rating in a community: the highest any rated game left
/// them with (the starting rating, never reached by a game, does not
/// count), as it was then (provisional or not), with its game and pool.
pub async fn best_rating(
    tx: &mut Tx,
    community: &str,
    player: &PlayerId,
) -> Result<Option<(GameKind, Pool, Rating)>, sqlx::Error> {
    let row: Option<(String, String, f64, f64, f64)> = sqlx::query_as(
        "SELECT g.variant, g.time_control, c.after_rating, c.after_deviation, c.after_volatility \
         FROM rating_changes c JOIN games g ON g.id = c.game_id \
         WHERE g.community = $1 AND c.player = $2 \
         ORDER BY c.after_rating DESC, c.game_id LIMIT 1",
    )
    .bind(community)
    .bind(player.as_str())
    .fetch_optional(&mut **tx)
    .await?;
    Ok(
        row.and_then(|(variant, time, rating, deviation, volatility)| {
            let kind = GameKind::from_name(&variant)?;
            let pool = Pool::of(&crate::command::TimeControl::parse(&time)?);
            Some((
                kind,
                pool,
                Rating {
                    rating,
                    deviation,
                    volatility,
                },
            ))
        }),
    )
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
    // Best: ratings reached after a game only, never the start.
    .bind(c.after.rating)
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
) -> Result<Vec<StoredRating>, sqlx::Error> {
    let sql = format!(
        "SELECT {COLUMNS} FROM ratings WHERE {ON_BOARD} ORDER BY rating DESC, player LIMIT $8"
    );
    let rows = board
        .bind(sqlx::query_as(sqlx::AssertSqlSafe(sql)))
        .bind(limit)
        .fetch_all(&mut **tx)
        .await?;
    ratings(rows)
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

/// The games played most in `channel` (finished or not), most first (a
/// name that is no game of ours is passed over).
pub async fn most_played(tx: &mut Tx, channel: &str) -> Result<Vec<GameKind>, sqlx::Error> {
    let names: Vec<String> = sqlx::query_scalar(
        "SELECT variant FROM games WHERE channel = $1 GROUP BY variant \
         ORDER BY COUNT(*) DESC, MIN(id) LIMIT 8",
    )
    .bind(channel)
    .fetch_all(&mut **tx)
    .await?;
    Ok(names
        .iter()
        .filter_map(|n| GameKind::from_storage_key(n))
        .fold(Vec::new(), |mut kinds, k| {
            // One game under two definitions is one game here.
            if !kinds.iter().any(|o: &GameKind| o.name() == k.name()) {
                kinds.push(k);
            }
            kinds
        }))
}

/// What a rated game did to one player's rating, as recorded.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedChange {
    pub game_id: i64,
    pub player: PlayerId,
    pub before: Rating,
    pub after: Rating,
}

/// Every rating change, by game (for `check-db`).
pub async fn all_changes(pool: &AnyPool) -> Result<Vec<RecordedChange>, sqlx::Error> {
    type Row = (i64, String, f64, f64, f64, f64, f64, f64);
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT game_id, player, before_rating, before_deviation, before_volatility, \
         after_rating, after_deviation, after_volatility FROM rating_changes ORDER BY game_id, player",
    )
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(game_id, player, br, bd, bv, ar, ad, av)| RecordedChange {
            game_id,
            player: PlayerId::from_stored(&player),
            before: Rating {
                rating: br,
                deviation: bd,
                volatility: bv,
            },
            after: Rating {
                rating: ar,
                deviation: ad,
                volatility: av,
            },
        })
        .collect())
}

/// Every stored rating, each as read (for `check-db`, which names the ones
/// that do not read).
pub async fn all_ratings(
    pool: &AnyPool,
) -> Result<Vec<Result<StoredRating, RecordError>>, sqlx::Error> {
    let rows: Vec<RatingRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM ratings ORDER BY community, player, variant, pool"
    )))
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(RatingRow::into_rating).collect())
}
