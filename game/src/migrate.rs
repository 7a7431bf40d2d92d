//! Moving a deployment to another database (`voidmate migrate-db`): copy
//! everything, then prove the copy by replaying every game in it and
//! comparing it with the original.

use crate::core::Core;
use crate::store;

/// What a move of the data did.
#[derive(Debug, Clone)]
pub struct Migration {
    /// Rows copied per table.
    pub copied: Vec<(&'static str, usize)>,
    /// Games replayed in the destination and found equal to the source's.
    pub games_verified: usize,
}

/// A game's row as compared between source and destination.
type GameRow = (i64, String, String, String, i64, Option<String>);

async fn records(
    pool: &sqlx::AnyPool,
) -> Result<(Vec<GameRow>, Vec<(i64, i64, String)>), sqlx::Error> {
    let games =
        sqlx::query_as("SELECT id, channel, fen, status, version, result FROM games ORDER BY id")
            .fetch_all(pool)
            .await?;
    let moves = sqlx::query_as("SELECT game_id, ply, coordinate FROM moves ORDER BY game_id, ply")
        .fetch_all(pool)
        .await?;
    Ok((games, moves))
}

impl Core {
    /// Copies every game, challenge, setting, pending notice and handled
    /// event id from this core's database into `to`'s, which must be empty,
    /// then verifies the copy: the same rows in each table, every game
    /// replayed move by move to its stored position in the destination,
    /// and each game's position, status and moves equal to the source's.
    /// `progress` hears of each table as it is copied.
    pub async fn copy_to(
        &self,
        to: &Core,
        progress: impl FnMut(&str, usize),
    ) -> anyhow::Result<Migration> {
        let (from_pool, to_pool) = (self.store.pool(), to.store.pool());
        for table in store::COPIED_TABLES {
            let n = store::count_rows(to_pool, table).await?;
            if n > 0 {
                anyhow::bail!(
                    "the destination is not empty (its table {table} holds {n} rows): \
                     migrate-db copies into a new, empty database"
                );
            }
        }
        let copied = store::copy_database(from_pool, to_pool, progress).await?;
        for (table, n) in &copied {
            let there = store::count_rows(to_pool, table).await?;
            if there != *n as i64 {
                anyhow::bail!("the copy of {table} holds {there} rows, not {n}");
            }
        }
        let (total, bad) = to.check_db().await?;
        if let Some((id, _, why)) = bad.first() {
            anyhow::bail!(
                "{} of {total} copied games do not replay; the first, #{id}: {why}",
                bad.len()
            );
        }
        let ratings = to.check_ratings().await?;
        if let Some(why) = ratings.problems.first() {
            anyhow::bail!(
                "{} copied ratings differ from what their games make them; the first: {why}",
                ratings.problems.len()
            );
        }
        let (games, moves) = records(from_pool).await?;
        let (games_there, moves_there) = records(to_pool).await?;
        if let Some((a, b)) = games.iter().zip(&games_there).find(|(a, b)| a != b) {
            anyhow::bail!("game #{} differs in the copy: {a:?} became {b:?}", a.0);
        }
        if games.len() != games_there.len() || moves != moves_there {
            anyhow::bail!("the copied games' moves differ from the source's");
        }
        Ok(Migration {
            copied,
            games_verified: total,
        })
    }
}
