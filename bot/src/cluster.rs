//! The commands of a deployment beyond one process: `engine-worker`,
//! `health` and `migrate-db`.

use anyhow::{bail, Result};
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;
use voidmate::config::Config;
use voidmate::game::config::Database;
use voidmate::game::store::Store;
use voidmate::game::Core;

/// How often an idle engine worker looks for queued turns.
const WORKER_POLL: Duration = Duration::from_millis(200);

#[derive(Args)]
pub struct WorkerArgs {
    /// Configuration file: its `[database] url` and `[engine]` section.
    #[arg(long)]
    pub config: Option<PathBuf>,
}

/// `voidmate engine-worker`: plays the engine's queued turns, as many at
/// once as `[engine] threads`, until stopped.
pub async fn engine_worker(args: WorkerArgs) -> Result<String> {
    let cfg = Config::load(args.config.as_deref())?;
    if cfg.database.url.is_none() {
        bail!(
            "an engine worker shares a PostgreSQL database with the bot's processes: set \
             [database] url = \"postgres://...\"; with SQLite the engine runs inside `voidmate run`"
        );
    }
    let core = Core::inspect(&cfg).await?;
    tracing::info!(
        database = %cfg.database.describe(),
        threads = cfg.engine.threads,
        "engine worker started: taking the engine's turns"
    );
    core.run_engine_worker(WORKER_POLL).await;
    Ok(String::new())
}

#[derive(Args)]
pub struct HealthArgs {
    /// Configuration file (the database to look at).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// SQLite file or `postgres://` URL instead of the configuration's.
    #[arg(long)]
    pub db: Option<String>,
}

/// `voidmate health`: the database (reachable, how fast), its queues and
/// every process's last report; a failing exit status when the database
/// cannot be reached or a process is silent or unwell.
pub async fn health(args: HealthArgs) -> Result<String> {
    let mut cfg = Config::load(args.config.as_deref())?;
    if let Some(db) = &args.db {
        cfg.database = Database::at(db);
    }
    match &cfg.database.url {
        None if !cfg.database.path.exists() => {
            bail!("there is no database at {}", cfg.database.path.display())
        }
        None => {}
        Some(url) => Store::probe_postgres(url, Duration::from_secs(5))
            .await
            .map_err(|e| {
                anyhow::anyhow!(
                    "the database {} does not answer: {e}",
                    cfg.database.describe()
                )
            })?,
    }
    let core = Core::inspect(&cfg).await?;
    let health = core.health().await.map_err(|e| {
        anyhow::anyhow!(
            "the database {} does not answer: {e}",
            cfg.database.describe()
        )
    })?;
    if health.is_healthy() {
        return Ok(format!("{health}\n"));
    }
    // The report goes to standard output either way; the status says it.
    println!("{health}");
    // A process replaced by another counts for nothing.
    let standing = || health.processes.iter().filter(|p| p.replaced_by.is_none());
    let silent = standing()
        .filter(|p| p.silent_ms >= voidmate::game::SILENT_AFTER_MS)
        .count();
    let unwell = standing().filter(|p| !p.healthy).count();
    bail!("not healthy: {silent} processes silent, {unwell} unwell")
}

#[derive(Args)]
pub struct MigrateArgs {
    /// The database in use now: a SQLite file or a `postgres://` URL.
    #[arg(long)]
    pub from: String,
    /// The new, empty database: a `postgres://` URL or a SQLite file.
    #[arg(long)]
    pub to: String,
}

/// `voidmate migrate-db`: copies a deployment's data into an empty
/// database and verifies every game by replay. Stop the bot first: what it
/// writes after the copy began is not copied.
pub async fn migrate_db(args: MigrateArgs) -> Result<String> {
    let (from, to) = (Database::at(&args.from), Database::at(&args.to));
    if from.url.is_none() && !from.path.exists() {
        bail!("there is no database at {}", from.path.display());
    }
    if from.describe() == to.describe() {
        bail!("--from and --to name the same database");
    }
    let open = |database: Database| {
        let cfg = Config {
            database,
            ..Default::default()
        };
        async move { Core::inspect(&cfg).await }
    };
    let source = open(from.clone()).await?;
    let target = open(to.clone()).await?;
    eprintln!("copying {} to {} ...", from.describe(), to.describe());
    let done = source
        .copy_to(&target, |table, n| eprintln!("  {table}: {n} rows"))
        .await?;
    let mut text = format!("copied {} to {}:\n", from.describe(), to.describe());
    for (table, n) in &done.copied {
        text.push_str(&format!("  {table}: {n} rows\n"));
    }
    text.push_str(&format!(
        "verified: {} games replay to their stored positions and match the source\n",
        done.games_verified
    ));
    Ok(text)
}
