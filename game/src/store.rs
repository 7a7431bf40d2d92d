//! Storage through sqlx: an SQLite file by default, or a PostgreSQL server
//! (`[database] url`). One SQL text serves both, through sqlx's `Any`
//! driver: numbered `$1` parameters (SQLite reads them too), `RETURNING`,
//! `ON CONFLICT`, and yes/no columns kept as 0 or 1 ([`Flag`]). The
//! schemas live in `migrations/` (SQLite) and `migrations/postgres/`, and
//! are brought up to date at every start.
//!
//! Every incoming event that writes is handled inside one write transaction
//! that also records the event's id, so a redelivered event is seen and
//! skipped. On SQLite write transactions run one at a time (`BEGIN
//! IMMEDIATE`). On PostgreSQL a write waits only for what it touches: the
//! game it changes (its row locked as it is loaded, [`lock_game`]), its
//! channel when it settles challenges ([`lock_keys`]), the two players'
//! ratings when a game ends; event ids, rating changes and the engine's and
//! the outbox's claims are settled by unique keys and `SKIP LOCKED`.
//! A command that only reads takes no lock. Games carry a version that
//! every write checks and bumps.
//!
//! One module per table: `games`, `moves`, `challenges`, `settings` (with
//! the adapters' values), `events` (handled event ids), `outbox`, `players`
//! (the names identities were last seen with), and
//! `time` (deadlines, clocks and what is due).

use crate::time::Clock;
use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{Any, AnyPool, Executor as _, Transaction};
use std::path::Path;
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// A transaction, and the time on the core's clock when it began: every
/// timestamp it writes (`created_at`, `updated_at`, when an event was
/// handled) is that one, so a test's clock sets them all.
///
/// It reads as the connection it runs on (`&mut **tx` is an executor);
/// [`Tx::commit`] and [`Tx::rollback`] end it.
pub struct Tx {
    inner: Transaction<'static, Any>,
    now_ms: i64,
}

impl Tx {
    /// `inner`, stamped with `now_ms`.
    pub fn new(inner: Transaction<'static, Any>, now_ms: i64) -> Tx {
        Tx { inner, now_ms }
    }

    /// When the transaction began, on the core's clock (ms).
    pub fn now_ms(&self) -> i64 {
        self.now_ms
    }

    /// When the transaction began, in whole seconds (the tables that count
    /// in seconds).
    pub fn now_secs(&self) -> i64 {
        self.now_ms.div_euclid(1000)
    }

    pub async fn commit(self) -> Result<(), sqlx::Error> {
        self.inner.commit().await
    }

    pub async fn rollback(self) -> Result<(), sqlx::Error> {
        self.inner.rollback().await
    }
}

impl std::ops::Deref for Tx {
    type Target = sqlx::AnyConnection;

    fn deref(&self) -> &sqlx::AnyConnection {
        &self.inner
    }
}

impl std::ops::DerefMut for Tx {
    fn deref_mut(&mut self) -> &mut sqlx::AnyConnection {
        &mut self.inner
    }
}

use crate::command::Flip;
use crate::record::GameRecord;

/// The database path that means "in memory, nothing on disk".
pub const IN_MEMORY: &str = ":memory:";

mod challenges;
mod copy;
mod events;
mod games;
pub mod leases;
mod moves;
mod outbox;
mod players;
mod processes;
mod ratings;
mod reviews;
mod rows;
mod settings;
mod time;

pub use challenges::{
    close_challenge, insert_challenge, pending_challenges, set_challenge_program,
    set_challenge_rating, set_challenge_thread,
};
pub use copy::{copy_database, count_rows, COPIED_TABLES};
pub use events::{event_acted, event_seen, intake, mark_acted, prune_events, record_event, Intake};
pub use games::{
    active_games, all_games, any_to_abort, begin, engine_games, engine_queue, finish,
    finished_games, finished_games_of, game, game_anywhere, games_in_play, games_to_abort,
    latest_game, private_games_of, rated_between, rated_games, recent_games_of, set_abort_at,
    set_colour, set_engine_turn, set_offer, set_programs, start_game, Finish, NewGame, Opening,
    Read, StartClocks, Venue,
};
use games::{bump, one, records, GAME_COLUMNS};
pub use leases::{Claim, LeaseKind};
pub use moves::{advance, moves, take_back_to, Advance, Clocks, MoveRow};
pub use outbox::{
    claim_notices, claim_older, delete_notice, move_notice, notice_failed, platform_of,
    queue_answer, queue_board_notice, queue_notice, queue_reply, unpark_channel, BoardKind,
    BoardRef, OutboxRow,
};
pub use players::{flip_of, players_named, rename_player, see_player, set_flip, view_of};
pub use processes::{forget_processes, outbox_queue, processes, see_process, ProcessRow};
pub use ratings::{
    all_changes, all_ratings, apply, leaderboard, most_played, rank_above, rating, ratings_of,
    Board, Change, RecordedChange, StoredRating,
};
pub use reviews::{
    finish_review, queue_review, review_of, review_positions, save_review_position, ReviewRow,
};
use rows::GameRow;
pub use settings::{
    adapter_value, move_game, save_settings, set_adapter_value, settings, Settings,
};
pub use time::{
    any_due, deadlines_without_reminder, due_games, mark_low_time_warned, mark_reminded,
    set_clocks, set_deadline, set_reminder, shift_clocks, Deadline,
};

/// Which database holds the games. The SQL is written once for both
/// (numbered `$1` parameters, `RETURNING`, `ON CONFLICT`, integer flags);
/// where they differ, the store asks this.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    /// The core's clock, which stamps each transaction ([`Tx`]).
    clock: Clock,
    /// Write transactions begun (or tried) so far, for the tests of how
    /// often an event waits for the write lock.
    writes: Arc<AtomicU64>,
}

/// SQLite's migrations, and PostgreSQL's (the same schema, written for it).
static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("../migrations");
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("../migrations/postgres");

impl Store {
    /// Opens the database `cfg` names, PostgreSQL if it has a `url`, else
    /// the SQLite file at `path` (created if needed, in WAL mode), and
    /// brings its schema up to date.
    pub async fn open_config(cfg: &crate::config::Database) -> Result<Store, sqlx::Error> {
        let busy = Duration::from_millis(cfg.busy_timeout_ms);
        match &cfg.url {
            Some(url) => {
                Store::open_postgres_with(url, busy, cfg.synchronous, PoolSizes::of(cfg)).await
            }
            None => Store::open(&cfg.path, busy, cfg.synchronous).await,
        }
    }

    /// Opens (creating if needed) the SQLite database at `path` in WAL mode
    /// and migrates it.
    pub async fn open(
        path: &Path,
        busy_timeout: Duration,
        synchronous: crate::config::Synchronous,
    ) -> Result<Store, sqlx::Error> {
        sqlx::any::install_default_drivers();
        if path == Path::new(IN_MEMORY) {
            return Store::open_in_memory(busy_timeout).await;
        }
        not_another_kind_of_file(path)?;
        // Set-up (creating the file, switching it to WAL, migrating) runs
        // one process at a time; see `setup_lock`.
        let lock = setup_lock(path).await?;
        let url = format!("sqlite://{}?mode=rwc", url_path(path));
        let options = AnyConnectOptions::from_str(&url)?;
        // FULL (the default): in WAL mode a commit is on disk (the WAL
        // synced) before it returns, so a move the bot acknowledged
        // survives a power loss; NORMAL survives only a crash of the
        // process. The cost is one fsync per commit (docs/performance.md).
        let synchronous = match synchronous {
            crate::config::Synchronous::Full => "FULL",
            crate::config::Synchronous::Normal => "NORMAL",
        };
        let pragmas = [
            "PRAGMA journal_mode = WAL".to_string(),
            format!("PRAGMA synchronous = {synchronous}"),
            "PRAGMA foreign_keys = ON".to_string(),
            format!("PRAGMA busy_timeout = {}", busy_timeout.as_millis()),
        ];
        let pool = AnyPoolOptions::new()
            .max_connections(4)
            .after_connect(move |conn, _meta| {
                let pragmas = pragmas.clone();
                Box::pin(async move {
                    for pragma in pragmas {
                        conn.execute(sqlx::AssertSqlSafe(pragma)).await?;
                    }
                    Ok(())
                })
            })
            // A commit that fails (a full disk) can hand the connection back
            // still inside its transaction, and every later `begin` on it
            // would fail: close such a connection instead of reusing it.
            .after_release(|conn, _meta| {
                Box::pin(async move { Ok(!sqlx::Connection::is_in_transaction(conn)) })
            })
            .connect_with(options)
            .await?;
        SQLITE_MIGRATIONS.run(&pool).await?;
        drop(lock);
        Ok(Store::new(pool, Backend::Sqlite))
    }

    /// A database that lives in memory for as long as the store (a path of
    /// [`IN_MEMORY`]): for tests of handlers, and trying the bot without a
    /// file. One connection holds it, so everything runs one at a time.
    pub async fn open_in_memory(busy_timeout: Duration) -> Result<Store, sqlx::Error> {
        sqlx::any::install_default_drivers();
        let options = AnyConnectOptions::from_str("sqlite::memory:")?;
        let busy = format!("PRAGMA busy_timeout = {}", busy_timeout.as_millis());
        let pool = AnyPoolOptions::new()
            .max_connections(1)
            .min_connections(1)
            .idle_timeout(None)
            .max_lifetime(None)
            .after_connect(move |conn, _meta| {
                let busy = busy.clone();
                Box::pin(async move {
                    conn.execute("PRAGMA foreign_keys = ON").await?;
                    conn.execute(sqlx::AssertSqlSafe(busy)).await?;
                    Ok(())
                })
            })
            .connect_with(options)
            .await?;
        SQLITE_MIGRATIONS.run(&pool).await?;
        Ok(Store::new(pool, Backend::Sqlite))
    }

    /// Whether the PostgreSQL server at `url` answers, within `within`: one
    /// connection, not a pool (which would keep trying for half a minute).
    pub async fn probe_postgres(url: &str, within: Duration) -> Result<(), sqlx::Error> {
        use sqlx::Connection as _;
        sqlx::any::install_default_drivers();
        match tokio::time::timeout(within, sqlx::AnyConnection::connect(url)).await {
            Ok(conn) => conn?.close().await,
            Err(_) => Err(sqlx::Error::PoolTimedOut),
        }
    }

    /// Connects to the PostgreSQL server at `url` and migrates its schema
    /// (sqlx takes an advisory lock for that, so processes starting
    /// together wait for each other), with the default settings.
    pub async fn open_postgres(url: &str) -> Result<Store, sqlx::Error> {
        let defaults = crate::config::Database::default();
        Store::open_postgres_with(
            url,
            Duration::from_millis(defaults.busy_timeout_ms),
            defaults.synchronous,
            PoolSizes::of(&defaults),
        )
        .await
    }

    /// [`Store::open_postgres`] with `[database]`'s settings, which mean on
    /// PostgreSQL what they mean on SQLite: a statement that waits longer
    /// than `busy_timeout` for a lock fails (`lock_timeout`), answered as
    /// "busy"; `synchronous = normal` lets a commit return before its
    /// record is on disk (`synchronous_commit = off`: a crash of the server
    /// may lose the last commits, never corrupt anything).
    pub async fn open_postgres_with(
        url: &str,
        busy_timeout: Duration,
        synchronous: crate::config::Synchronous,
        sizes: PoolSizes,
    ) -> Result<Store, sqlx::Error> {
        sqlx::any::install_default_drivers();
        let options = AnyConnectOptions::from_str(url)?;
        let commit = match synchronous {
            crate::config::Synchronous::Full => "on",
            crate::config::Synchronous::Normal => "off",
        };
        let settings = [
            format!("SET lock_timeout = {}", busy_timeout.as_millis()),
            format!("SET synchronous_commit = {commit}"),
        ];
        let pool = AnyPoolOptions::new()
            .max_connections(sizes.max.max(1))
            .min_connections(sizes.min.min(sizes.max))
            .acquire_timeout(sizes.acquire_timeout)
            // sqlx pings a connection as it goes back to the pool, and by
            // default again as it is taken: a round trip more in front of
            // every transaction. A connection back for less than
            // `PING_AFTER_IDLE` was alive then and is taken as it is (as
            // sqlx's own docs suggest); one that broke in between fails its
            // `BEGIN`, which `begin_write` tries once more.
            .test_before_acquire(false)
            .before_acquire(|conn, meta| {
                Box::pin(async move {
                    if meta.idle_for >= PING_AFTER_IDLE {
                        sqlx::Connection::ping(conn).await?;
                    }
                    Ok(true)
                })
            })
            .after_connect(move |conn, _meta| {
                let settings = settings.clone();
                Box::pin(async move {
                    for setting in settings {
                        conn.execute(sqlx::AssertSqlSafe(setting)).await?;
                    }
                    Ok(())
                })
            })
            .after_release(|conn, _meta| {
                Box::pin(async move { Ok(!sqlx::Connection::is_in_transaction(conn)) })
            })
            .connect_with(options)
            .await?;
        POSTGRES_MIGRATIONS.run(&pool).await?;
        Ok(Store::new(pool, Backend::Postgres))
    }

    fn new(pool: AnyPool, backend: Backend) -> Store {
        Store {
            pool,
            backend,
            clock: Clock::system(),
            writes: Arc::default(),
        }
    }

    /// The store with its transactions stamped by `clock`.
    #[must_use]
    pub fn with_clock(self, clock: Clock) -> Store {
        Store { clock, ..self }
    }

    /// The clock that stamps this store's transactions.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// Write transactions begun or tried so far ([`Store::begin`]).
    pub fn write_transactions(&self) -> u64 {
        self.writes.load(Ordering::SeqCst)
    }

    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// A write transaction. SQLite takes its write lock at the start
    /// (`BEGIN IMMEDIATE`: one writer, which is right for one file).
    /// PostgreSQL takes no lock here: a write waits only for the rows it
    /// touches ([`lock_game`], [`lock_keys`], row locks of its `UPDATE`s),
    /// so two moves in different games never wait for each other.
    pub async fn begin(&self) -> Result<Tx, sqlx::Error> {
        self.writes.fetch_add(1, Ordering::SeqCst);
        let inner = begin_write(&self.pool, self.backend).await?;
        Ok(Tx::new(inner, self.clock.now_ms()))
    }

    /// A transaction that only reads: it takes no write lock (SQLite's WAL
    /// readers never wait for its writer), so a read never holds up a move.
    pub async fn read(&self) -> Result<Tx, sqlx::Error> {
        let inner = self.pool.begin().await?;
        Ok(Tx::new(inner, self.clock.now_ms()))
    }
}

/// How many connections a PostgreSQL pool keeps (`[database]`
/// `max_connections`, `min_connections`, `acquire_timeout_ms`).
#[derive(Debug, Clone, Copy)]
pub struct PoolSizes {
    pub max: u32,
    pub min: u32,
    pub acquire_timeout: Duration,
}

impl PoolSizes {
    pub fn of(cfg: &crate::config::Database) -> PoolSizes {
        PoolSizes {
            max: cfg.max_connections,
            min: cfg.min_connections,
            acquire_timeout: Duration::from_millis(cfg.acquire_timeout_ms),
        }
    }
}

/// A write transaction on `pool` (see [`Store::begin`]).
pub async fn begin_write(
    pool: &AnyPool,
    backend: Backend,
) -> Result<Transaction<'static, Any>, sqlx::Error> {
    match backend {
        Backend::Sqlite => pool.begin_with("BEGIN IMMEDIATE").await,
        Backend::Postgres => {
            // A connection that broke while idle (taken without a ping):
            // nothing was done on it, and sqlx closes it as it comes back,
            // so the next one is taken; after a server restart every idle
            // one may be gone, so as many tries as the pool holds.
            let mut tries = pool.options().get_max_connections();
            loop {
                match pool.begin().await {
                    Err(e) if tries > 0 && connection_lost(&e) => tries -= 1,
                    other => return other,
                }
            }
        }
    }
}

/// How long a connection may have been idle and still be taken without a
/// ping first (PostgreSQL; see [`Store::open_postgres_with`]).
pub const PING_AFTER_IDLE: Duration = Duration::from_secs(1);

/// Whether `e` says the connection itself is gone (its socket closed, or
/// the server ended its session), not that a statement failed.
fn connection_lost(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Io(_) => true,
        // Class 57P: the server shut the session (admin command, crash,
        // shutdown); class 08: a connection exception.
        sqlx::Error::Database(d) => d
            .code()
            .is_some_and(|c| c.starts_with("57P") || c.starts_with("08")),
        _ => false,
    }
}

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

/// A yes/no column: 0 or 1 on both backends (SQLite has no boolean type,
/// and one schema for both keeps the SQL the same).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flag(pub bool);

impl From<Flag> for bool {
    fn from(f: Flag) -> bool {
        f.0
    }
}

impl sqlx::Type<Any> for Flag {
    fn type_info() -> sqlx::any::AnyTypeInfo {
        <i64 as sqlx::Type<Any>>::type_info()
    }

    fn compatible(ty: &sqlx::any::AnyTypeInfo) -> bool {
        <i64 as sqlx::Type<Any>>::compatible(ty)
    }
}

impl<'r> sqlx::Decode<'r, Any> for Flag {
    fn decode(value: sqlx::any::AnyValueRef<'r>) -> Result<Self, sqlx::error::BoxDynError> {
        <i64 as sqlx::Decode<Any>>::decode(value).map(|n| Flag(n != 0))
    }
}

/// Which backend a transaction talks to.
pub fn backend_of_tx(conn: &mut sqlx::AnyConnection) -> Backend {
    if conn.backend_name().starts_with("Postgre") {
        Backend::Postgres
    } else {
        Backend::Sqlite
    }
}

/// SQLite's `INDEXED BY index`, which makes it use that index or refuse
/// the query (a query that should never read every row); PostgreSQL's
/// planner takes no such order.
pub fn indexed_by(backend: Backend, index: &str) -> String {
    match backend {
        Backend::Sqlite => format!("INDEXED BY {index}"),
        Backend::Postgres => String::new(),
    }
}

/// Which backend a pool talks to.
pub fn backend_of(pool: &AnyPool) -> Backend {
    if pool
        .connect_options()
        .database_url
        .scheme()
        .starts_with("postgres")
    {
        Backend::Postgres
    } else {
        Backend::Sqlite
    }
}

/// Refuses at once a file that exists, is not empty and does not begin
/// as every SQLite database does (`SQLite format 3\0`): opening it would
/// fail only after the pool's retries, with the driver's words in the log.
fn not_another_kind_of_file(path: &Path) -> Result<(), sqlx::Error> {
    use std::io::Read as _;
    let Ok(mut file) = std::fs::File::open(path) else {
        // Missing (to be created) or unreadable: the driver says which.
        return Ok(());
    };
    let mut head = [0u8; 16];
    let mut read = 0;
    while read < head.len() {
        match file.read(&mut head[read..]) {
            Ok(0) => break,
            Ok(n) => read += n,
            Err(_) => return Ok(()),
        }
    }
    if read == 0 || (read == head.len() && &head == b"SQLite format 3\0") {
        return Ok(());
    }
    Err(sqlx::Error::Configuration(
        format!("{} is not an SQLite database", path.display()).into(),
    ))
}

/// `path` for a `sqlite://` URL: every byte but plain ones percent-encoded,
/// so that spaces, `?` and `#` in a file name stay part of it.
fn url_path(path: &Path) -> String {
    let mut out = String::new();
    for b in path.as_os_str().as_encoded_bytes() {
        match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'/' | b'.' | b'-' | b'_' => {
                out.push(*b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// An advisory lock on a file beside the database, held while a process
/// sets the database up.
///
/// sqlx takes no lock around SQLite migrations, so two processes starting
/// on a new file would both apply the first migrations and one would fail
/// ("table already exists"); switching a new file to WAL at the same moment
/// can fail too ("database is locked"). The second process waits here until
/// the first is done, then finds everything in place. The lock goes with
/// the file handle, also when a process dies holding it.
async fn setup_lock(path: &Path) -> Result<std::fs::File, sqlx::Error> {
    let mut name = path.as_os_str().to_owned();
    // Beside SQLite's own `-wal` and `-shm` files, and ignored with them.
    name.push("-setup-lock");
    let lock_path = std::path::PathBuf::from(name);
    tokio::task::spawn_blocking(move || -> std::io::Result<std::fs::File> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)?;
        file.lock()?;
        Ok(file)
    })
    .await
    .map_err(|e| sqlx::Error::Io(std::io::Error::other(e)))?
    .map_err(sqlx::Error::Io)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A connection handed back to the pool still inside a transaction (as
    /// a commit that failed on a full disk once left one) is closed, not
    /// reused: reused, the next `begin` on it would only open a savepoint
    /// inside the stale transaction, and that "commit" would write nothing.
    /// The stale state is made directly here: a transaction forgotten
    /// without its rollback. Without the `after_release` guard, rows
    /// committed afterwards go missing.
    #[tokio::test]
    async fn a_connection_left_inside_a_transaction_is_not_reused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        let open = || {
            Store::open(
                &path,
                Duration::from_secs(1),
                crate::config::Synchronous::Full,
            )
        };
        let store = open().await.unwrap();
        sqlx::query("CREATE TABLE t (n INTEGER)")
            .execute(store.pool())
            .await
            .unwrap();
        {
            let mut conn = store.pool().acquire().await.unwrap();
            let mut stale = sqlx::Connection::begin(&mut *conn).await.unwrap();
            sqlx::query("INSERT INTO t (n) VALUES (-1)")
                .execute(&mut *stale)
                .await
                .unwrap();
            // No commit, no rollback: the connection stays inside it.
            std::mem::forget(stale);
        }
        for n in 0..8 {
            let mut tx = store.begin().await.expect("a transaction can begin");
            sqlx::query("INSERT INTO t (n) VALUES ($1)")
                .bind(n)
                .execute(&mut *tx)
                .await
                .unwrap();
            tx.commit().await.unwrap();
        }
        store.pool().close().await;
        // On disk, as another process reads it: every committed row, and
        // not the stale one.
        let again = open().await.unwrap();
        let rows: Vec<i64> = sqlx::query_scalar("SELECT n FROM t ORDER BY n")
            .fetch_all(again.pool())
            .await
            .unwrap();
        assert_eq!(rows, (0..8).collect::<Vec<i64>>());
    }
}
