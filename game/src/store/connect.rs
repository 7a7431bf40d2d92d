//! Opening a store: an SQLite file (created and switched to WAL, one
//! process setting it up at a time), an in-memory database, or a
//! PostgreSQL pool whose connections are checked as little as is safe; the
//! schema migrated either way.

use super::{Backend, Store, POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS};
use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::Executor as _;
use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use super::IN_MEMORY;

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
        Store::new(pool, Backend::Sqlite).with_definitions().await
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
        Store::new(pool, Backend::Sqlite).with_definitions().await
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
        Store::new(pool, Backend::Postgres).with_definitions().await
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

/// How long a connection may have been idle and still be taken without a
/// ping first (PostgreSQL; see [`Store::open_postgres_with`]).
pub const PING_AFTER_IDLE: Duration = Duration::from_secs(1);

/// Refuses at once a file that exists, is not empty and does not begin
/// as every SQLite database does (`SQLite format 3\0`): opening it would
/// fail only after the pool's retries, with the driver's words in the log.
fn not_another_kind_of_file(path: &Path) -> Result<(), sqlx::Error> {
    use std::io::Read as _;
    if path.is_dir() {
        return Err(sqlx::Error::Configuration(
            format!("{} is a folder, not a database file", path.display()).into(),
        ));
    }
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

/// Why a database could not be opened, in words for whoever runs the bot:
/// what we found wrong ourselves as we said it, the database's own message
/// without the driver's framing (`error with configuration:`, `error
/// returned from database:`), an I/O error as the system says it.
pub fn opening_failure(e: &sqlx::Error) -> String {
    match e {
        sqlx::Error::Configuration(why) => why.to_string(),
        sqlx::Error::Database(db) => {
            let message = db.message();
            match db.code().as_deref() {
                // SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_READONLY
                Some("14") | Some("3") | Some("8") => format!(
                    "{message} (check that the folder exists and that this user may write there)"
                ),
                _ => message.to_string(),
            }
        }
        sqlx::Error::Io(io) => io.to_string(),
        sqlx::Error::Tls(tls) => format!("TLS: {tls}"),
        sqlx::Error::PoolTimedOut => {
            "the database did not answer in time (is it running, and is the address right?)"
                .to_string()
        }
        other => other.to_string(),
    }
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
