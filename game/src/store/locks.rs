//! Locks: a game's row (and its moves, read with it on PostgreSQL), and
//! named keys for what no row stands for (a channel's challenges, a
//! player's rating before its first game).

use super::rows::GameRow;
use super::{backend_of_tx, games, one, Backend, MoveRow, Tx, GAME_COLUMNS};
use crate::command::Flip;
use crate::record::GameRecord;

/// Holds, until the end of `tx`, a lock on each of `keys` (names of
/// things no row stands for: a channel's pending challenges, a player's
/// rating before its first game). PostgreSQL's transaction-scoped advisory
/// locks, taken in sorted order (so two transactions wanting the same two
/// never deadlock), in one round trip; nothing on SQLite, whose write
/// transactions run one at a time anyway.
pub async fn lock_keys(tx: &mut sqlx::AnyConnection, keys: &[String]) -> Result<(), sqlx::Error> {
    if keys.is_empty() || backend_of_tx(tx) == Backend::Sqlite {
        return Ok(());
    }
    let mut keys: Vec<&String> = keys.iter().collect();
    keys.sort();
    keys.dedup();
    // Left to right: PostgreSQL evaluates a select list in order.
    let locks: Vec<String> = (1..=keys.len())
        .map(|i| format!("pg_advisory_xact_lock(hashtextextended(${i}, {LOCK_SEED}))"))
        .collect();
    let sql = format!("SELECT 1 FROM (SELECT {}) AS locked", locks.join(", "));
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
    for k in keys {
        query = query.bind(k.as_str());
    }
    query.execute(&mut *tx).await?;
    Ok(())
}

/// Seeds the hash of [`lock_keys`]' names, so that our locks keep clear of
/// another program's advisory locks on the same server.
const LOCK_SEED: i64 = 7466;

/// [`lock_game`] on PostgreSQL with the game's moves and its players'
/// board turns read in the same statement (round trips fewer for every
/// command that changes a game).
/// The moves come as one text: fields split by U+001F, moves by U+001E
/// (a move's SAN and coordinates are ASCII that the rules write).
pub async fn lock_game_with_moves(tx: &mut Tx, id: i64) -> Result<Option<Locked>, sqlx::Error> {
    use sqlx::{FromRow as _, Row as _};
    let row = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {GAME_COLUMNS}, \
         (SELECT string_agg(ply || chr(31) || san || chr(31) || coordinate || chr(31) \
          || coalesce(clock_ms::text, ''), chr(30) ORDER BY ply) FROM moves WHERE game_id = games.id) \
         AS moves_text, \
         (SELECT flip FROM players WHERE players.id = games.white) AS white_flip, \
         (SELECT flip FROM players WHERE players.id = games.black) AS black_flip \
         FROM games WHERE id = $1 FOR UPDATE"
    )))
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    let game = GameRow::from_row(&row)?
        .into_record()
        .map_err(|e| games::damaged(crate::record::RecordError::Game(e)))?;
    let text: Option<String> = row.try_get("moves_text")?;
    let mut moves = Vec::new();
    for line in text
        .as_deref()
        .unwrap_or("")
        .split('\u{1e}')
        .filter(|l| !l.is_empty())
    {
        let fields: Vec<&str> = line.split('\u{1f}').collect();
        let bad = || {
            sqlx::Error::Decode(format!("game {id}: a stored move does not read: {line:?}").into())
        };
        let [ply, san, coordinate, clock] = fields[..] else {
            return Err(bad());
        };
        moves.push(MoveRow {
            ply: ply.parse().map_err(|_| bad())?,
            san: san.to_string(),
            coordinate: coordinate.to_string(),
            clock_ms: match clock {
                "" => None,
                c => Some(c.parse().map_err(|_| bad())?),
            },
        });
    }
    let flip = |column: &str| -> Result<Flip, sqlx::Error> {
        let name: Option<String> = row.try_get(column)?;
        Ok(name.and_then(|f| Flip::from_name(&f)).unwrap_or(Flip::Auto))
    };
    let flips = [flip("white_flip")?, flip("black_flip")?];
    Ok(Some(Locked { game, moves, flips }))
}

/// What [`lock_game_with_moves`] read.
pub struct Locked {
    pub game: GameRecord,
    pub moves: Vec<MoveRow>,
    /// How White's and Black's players want boards turned.
    pub flips: [Flip; 2],
}

/// Game `id` as it stands now, locked until the end of `tx` on PostgreSQL
/// (`FOR UPDATE`: a second writer of the same game waits here, then reads
/// what the first one committed). On SQLite the write transaction already
/// holds the whole file. `None` if there is no such game.
pub async fn lock_game(tx: &mut Tx, id: i64) -> Result<Option<GameRecord>, sqlx::Error> {
    let lock = match backend_of_tx(tx) {
        Backend::Postgres => " FOR UPDATE",
        Backend::Sqlite => "",
    };
    sqlx::query_as::<_, GameRow>(sqlx::AssertSqlSafe(format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE id = $1{lock}"
    )))
    .bind(id)
    .fetch_optional(&mut **tx)
    .await
    .and_then(one)
}
