//! `voidmate`: the chess-variant bot.

mod cluster;
mod tools;

use tools::{bench, engine_match, inspect, openings, play, proxy, puzzles, tune, tune_reach, uci};

use anyhow::{bail, Context as _, Result};
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use voidmate::config::Config;
use voidmate::console::Console;
use voidmate::game::Core;

#[derive(Parser)]
#[command(
    name = "voidmate",
    version,
    about = "Voidmate, a chess-variant bot for Discord and Matrix"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the legal moves of a position, one SAN a line.
    Moves(inspect::MovesArgs),
    /// Count the leaf nodes of the legal move tree (the count is the last line).
    Perft(inspect::PerftArgs),
    /// Print the FEN after a sequence of moves.
    Fen(inspect::PositionArgs),
    /// Draw a position as a PNG board image.
    Render(inspect::RenderArgs),
    /// The engine's best move and score for a position.
    Analyse(play::AnalyseArgs),
    /// Play engine matches between levels (1-5), `greedy` and `random`.
    Selfplay(play::SelfplayArgs),
    /// Speak the Universal Chess Interface on standard input and output:
    /// the engine for chess programs and match managers.
    Uci,
    /// Play two engines against each other from the same openings, colours
    /// swapped: the search with parts switched on or off, or a UCI program
    /// (the engine at an earlier commit); a score, an interval and an SPRT.
    EngineMatch(engine_match::MatchArgs),
    /// Write a set of varied, level openings of a game for engine matches.
    Openings(openings::OpeningsArgs),
    /// Play the engine against itself and write each quiet position with
    /// its game's result: data for `tune`.
    TuneData(tune::DataArgs),
    /// Tune a game's evaluation weights on `tune-data` positions (Texel's
    /// method) and report, or write, the weights.
    Tune(tune::TuneArgs),
    /// Tune the odds behind the piece values of games defined in files on
    /// `tune-data` positions of such games (Texel's method over one
    /// parameter) and report the best.
    TuneReach(tune_reach::ReachArgs),
    /// Fit a game's curve from search score to winning chances on
    /// `tune-data` positions (the reviews' coefficient).
    WinCurve(tune::WinCurveArgs),
    /// Pass TCP connections on to a server with a fixed delay each way,
    /// counting round trips: a database at a distance, for benchmarks.
    LatencyProxy(ProxyArgs),
    /// Play in the terminal: commands as in chat, `as NAME` to switch speaker.
    Console(ConsoleArgs),
    /// Start the chat adapters enabled in the configuration.
    Run(RunArgs),
    /// Measure moves handled end to end with many games in play.
    Bench(BenchArgs),
    /// Replay every stored game and report any whose record does not hold
    /// together (a failing exit status if one does not).
    CheckDb(CheckDbArgs),
    /// Play the engine's queued turns from a PostgreSQL database shared
    /// with `voidmate run` processes (`[engine] searches = "workers"`).
    EngineWorker(cluster::WorkerArgs),
    /// Report the database, its queues and every process working on it;
    /// a failing exit status if anything is unwell.
    Health(cluster::HealthArgs),
    /// Copy every game, challenge, setting and pending notice into a new,
    /// empty database (SQLite or PostgreSQL) and verify each game by replay.
    MigrateDb(cluster::MigrateArgs),
    /// Puzzles from the stored games.
    #[command(subcommand)]
    Puzzles(PuzzlesCommand),
    /// Games defined in files: check a file, show or list the games.
    #[command(subcommand)]
    Variants(VariantsCommand),
}

#[derive(Subcommand)]
enum VariantsCommand {
    /// Read variants files and name every error with its file, line and
    /// field (a failing exit status if any file is refused).
    Check {
        /// The files to check.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Print a game as the bot reads it from its file.
    Show {
        name: String,
        /// Variants files to read first.
        #[arg(long = "variants-file")]
        variants_file: Vec<PathBuf>,
    },
    /// Every game: built in, shipped, and from the files given.
    List {
        /// Variants files to read first.
        #[arg(long = "variants-file")]
        variants_file: Vec<PathBuf>,
    },
}

#[derive(Subcommand)]
enum PuzzlesCommand {
    /// Search the finished games not searched yet for puzzles (resumable: a
    /// game searched once is not searched again), with progress.
    Generate(GenerateArgs),
    /// Measure, on stored games, how many puzzles each game gives and what
    /// finding them costs against a review (no database).
    Measure(puzzles::MeasureArgs),
}

#[derive(Args)]
struct GenerateArgs {
    /// The database: a SQLite file or a `postgres://` URL (default: the
    /// configuration's `[database]`).
    #[arg(long)]
    db: Option<String>,
    /// Configuration file (default: built-in defaults); its `[database]`
    /// and `[engine] puzzle_nodes` are used.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Only games that ended on this day (UTC, like 2026-11-01) or later.
    #[arg(long)]
    since: Option<String>,
    /// At most this many games, oldest first.
    #[arg(long)]
    limit: Option<u32>,
}

/// `voidmate puzzles generate`: progress on standard error, a game a line.
async fn generate_puzzles(args: GenerateArgs) -> Result<String> {
    use voidmate::game::command::Start;
    let since = match args.since.as_deref() {
        None => None,
        Some(text) => match Start::read(text) {
            Start::At(ms) => Some(ms),
            Start::Unreadable(_) => {
                bail!("`--since {text}`? Give a day as 2026-11-01 (UTC), or a day and a time")
            }
        },
    };
    let cfg = existing_database(args.config.as_deref(), args.db.as_deref())?;
    let core = Core::open(&cfg).await?;
    let (searched, found) = core
        .generate_puzzles(since, args.limit, |done, total, found| {
            // A bar redrawn in place on a terminal; a line a game otherwise
            // (a log keeps every step).
            const WIDTH: usize = 24;
            let filled = done * WIDTH / total.max(1);
            let line = format!(
                "[{}{}] searched {done}/{total} games, {} found",
                "#".repeat(filled),
                "-".repeat(WIDTH - filled),
                count(found, "puzzle")
            );
            if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
                eprint!("\r{line}");
                if done == total {
                    eprintln!();
                }
            } else {
                eprintln!("{line}");
            }
        })
        .await
        .map_err(|e| anyhow::anyhow!("the search stopped: {e}"))?;
    Ok(format!(
        "{} searched, {} found\n",
        count(searched, "game"),
        count(found, "new puzzle")
    ))
}

#[derive(Args)]
struct CheckDbArgs {
    /// The database: a SQLite file or a `postgres://` URL (default: the
    /// configuration's `[database]`, its `url` when it names one, else its
    /// `path`, voidmate.db).
    #[arg(long)]
    db: Option<String>,
    /// Configuration file (default: built-in defaults).
    #[arg(long)]
    config: Option<PathBuf>,
}

/// The configuration of a tool that works on a database that must exist
/// already: `db` (a file or a URL) in place of the file's, if given.
fn existing_database(config: Option<&std::path::Path>, db: Option<&str>) -> Result<Config> {
    let mut cfg = Config::load(config)?;
    if let Some(db) = db {
        // The place only: the file's other `[database]` settings stand.
        let at = voidmate::config::Database::at(db);
        (cfg.database.path, cfg.database.url) = (at.path, at.url);
    }
    // Issue 40, point 8: a configuration that names PostgreSQL is checked
    // there, not at its (unused) SQLite path.
    if cfg.database.url.is_none() && !cfg.database.path.exists() {
        bail!("there is no database at {}", cfg.database.path.display());
    }
    Ok(cfg)
}

async fn check_db(args: CheckDbArgs) -> Result<String> {
    let cfg = existing_database(args.config.as_deref(), args.db.as_deref())?;
    let core = Core::inspect(&cfg).await?;
    let (total, bad) = core.check_db().await?;
    let ratings = core.check_ratings().await?;
    let tournaments = core.check_tournaments().await?;
    let tournament_lines = checked(
        &count(tournaments.tournaments, "tournament"),
        "every pairing keeps the absolute rules and every result matches its game",
        "these do not hold together",
        &tournaments.problems,
    );
    let puzzles = core.check_puzzles().await?;
    let puzzle_lines = checked(
        &count(puzzles.puzzles, "puzzle"),
        "every solution is legal from its position",
        "these do not replay",
        &puzzles.problems,
    );
    let rated = format!(
        "{} recomputed, {} compared",
        count(ratings.games, "rated game"),
        count(ratings.ratings, "rating")
    );
    let total = count(total, "game");
    if bad.is_empty()
        && ratings.problems.is_empty()
        && tournaments.problems.is_empty()
        && puzzles.problems.is_empty()
    {
        return Ok(format!(
            "{total} checked: every one replays to its stored position\n\
             {rated}: every rating is as its games make it\n{tournament_lines}{puzzle_lines}"
        ));
    }
    let mut text = String::new();
    if bad.is_empty() {
        text.push_str(&format!(
            "{total} checked: every one replays to its stored position\n"
        ));
    } else {
        text.push_str(&format!(
            "{total} checked; {} not hold together:\n",
            if bad.len() == 1 { "1 does" } else { "these do" }
        ));
    }
    for (id, channel, why) in &bad {
        text.push_str(&format!("  game #{id} in {channel}: {why}\n"));
    }
    if ratings.problems.is_empty() {
        text.push_str(&format!("{rated}: every rating is as its games make it\n"));
    } else {
        text.push_str(&format!(
            "{rated}; {} from what the games make them:\n",
            if ratings.problems.len() == 1 {
                "1 differs".to_string()
            } else {
                format!("{} differ", ratings.problems.len())
            }
        ));
    }
    for why in &ratings.problems {
        text.push_str(&format!("  {why}\n"));
    }
    text.push_str(&tournament_lines);
    text.push_str(&puzzle_lines);
    bail!("{}", text.trim_end())
}

/// A check's report: `N things checked: <good>`, or `N things checked;
/// <bad>:` and each problem on a line of its own.
fn checked(counted: &str, good: &str, bad: &str, problems: &[String]) -> String {
    if problems.is_empty() {
        return format!("{counted} checked: {good}\n");
    }
    let mut text = format!("{counted} checked; {bad}:\n");
    for p in problems {
        text.push_str(&format!("  {p}\n"));
    }
    text
}

/// `1 game`, `3 games`: a count with its noun.
fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[derive(Args)]
struct ConsoleArgs {
    /// SQLite file (default: the configuration's, voidmate.db).
    #[arg(long)]
    db: Option<PathBuf>,
    /// Configuration file (default: built-in defaults, as in config/voidmate.toml).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Folder for board images (default: the configuration's, voidmate-images).
    #[arg(long)]
    images: Option<PathBuf>,
    /// Who speaks first.
    #[arg(long = "as", default_value = "alice")]
    speaker: String,
}

#[derive(Args)]
struct RunArgs {
    #[arg(long)]
    config: Option<PathBuf>,
}

#[derive(Args)]
struct ProxyArgs {
    /// Port to listen on, on 127.0.0.1.
    #[arg(long, default_value_t = 6543)]
    listen: u16,
    /// Where to pass connections on (HOST:PORT).
    #[arg(long)]
    to: String,
    /// Delay added each way, in milliseconds (fractions allowed).
    #[arg(long, default_value_t = 1.0)]
    delay_ms: f64,
}

#[derive(Args)]
struct BenchArgs {
    /// Games in play at once.
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// Measure moves spread over processes on this database instead (an
    /// empty SQLite file or `postgres://` database): see `--processes`.
    #[arg(long)]
    db: Option<String>,
    /// With `--db`: how many processes move the games at once.
    #[arg(long, default_value_t = 1, requires = "db")]
    processes: usize,
    /// One process's share of a `--processes` bench (started by it).
    #[arg(long, hide = true, requires = "db")]
    part: Option<usize>,
    #[arg(long, hide = true, default_value_t = 0)]
    start_at_ms: u64,
    /// With a `postgres://` `--db`: reach it through a latency proxy that
    /// adds this delay each way (milliseconds; 0 counts round trips only),
    /// and report round trips per move.
    #[arg(long, requires = "db")]
    delay_ms: Option<f64>,
}

async fn console(args: ConsoleArgs) -> Result<String> {
    let mut cfg = Config::load(args.config.as_deref())?;
    if let Some(db) = args.db {
        cfg.database.path = db;
    }
    let image_dir = args.images.unwrap_or(cfg.console.image_dir.clone());
    let core = Core::open(&cfg).await?;
    for warning in voidmate::font_warnings() {
        eprintln!("note: {warning}");
    }
    for (path, errors) in voidmate::variants::load(&cfg.variants).refused {
        eprintln!(
            "note: variants file {} refused: {}",
            path.display(),
            errors.join("; ")
        );
    }
    let stdin = tokio::io::BufReader::new(tokio::io::stdin());
    Console {
        core,
        image_dir,
        speaker: args.speaker,
    }
    .run(stdin, std::io::stdout())
    .await?;
    Ok(String::new())
}

async fn run(args: RunArgs) -> Result<String> {
    let cfg = Config::load(args.config.as_deref())?;
    let mut wanted = Vec::new();
    if cfg.discord.enabled {
        wanted.push("discord");
    }
    if cfg.matrix.enabled {
        wanted.push("matrix");
    }
    if wanted.is_empty() {
        bail!("no chat adapter is enabled in the configuration; enable [discord] or [matrix], or play with `voidmate console`");
    }
    if cfg.engine.searches == voidmate::game::config::Searches::Workers
        && cfg.database.url.is_none()
    {
        bail!(
            "[engine] searches = \"workers\" hands the engine's turns to `voidmate engine-worker` \
             processes, which share a PostgreSQL database ([database] url); with SQLite the engine \
             runs here: remove the setting"
        );
    }
    // Read every secret and open the database first, so a bad setting
    // fails before anything connects.
    let discord = if cfg.discord.enabled {
        Some(voidmate::discord::DiscordConfig::from_section(
            &cfg.discord,
        )?)
    } else {
        None
    };
    let matrix = if cfg.matrix.enabled {
        Some(voidmate::matrix::MatrixConfig::from_section(&cfg.matrix)?)
    } else {
        None
    };
    let core = Core::open(&cfg).await?;
    core.set_process_kind("run");
    for warning in voidmate::font_warnings() {
        tracing::warn!("{warning}");
    }
    let loaded = voidmate::variants::load_and_log(&cfg.variants);
    // A refused file does not stop the bot; `health` names it.
    core.report("variants", true, loaded.health_detail());
    // What a process that replaces this one runs too (`health`).
    let mut role = Vec::new();
    if let Some(d) = &discord {
        role.push(match d.shards {
            voidmate::discord::Shards::Auto => "discord shards auto".to_string(),
            voidmate::discord::Shards::Count(n) => {
                format!("discord shards 0-{} of {n}", n.saturating_sub(1))
            }
            voidmate::discord::Shards::Range { first, last, total } => {
                format!("discord shards {first}-{last} of {total}")
            }
        });
    }
    if matrix.is_some() {
        role.push("matrix".to_string());
    }
    core.set_process_role(&role.join("; "));
    let discord_task = {
        let core = core.clone();
        async move {
            match discord {
                Some(d) => voidmate::discord::run_bot(core, d).await,
                None => std::future::pending().await,
            }
        }
    };
    let matrix_task = async move {
        match matrix {
            Some(m) => {
                let bot = voidmate::matrix::MatrixBot::connect(core, m).await?;
                tracing::info!("connected to Matrix; answering in rooms");
                bot.run().await
            }
            None => std::future::pending().await,
        }
    };
    // Either adapter ending is an error worth stopping for.
    tokio::select! {
        r = discord_task => r.context("Discord")?,
        r = matrix_task => r.context("Matrix")?,
    }
    Ok(String::new())
}

/// Logs go to standard error, filtered by `RUST_LOG` (default: the bot's
/// own at `info`, its libraries' at `warn`), each line with its fields
/// (game, channel, event).
fn init_logs() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("voidmate=info,warn"));
    // Colour codes only where a terminal shows them, not in a log file.
    let colour = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(colour)
        .with_writer(std::io::stderr)
        .try_init();
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    init_logs();
    let runtime = || {
        tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
    };
    let result = match cli.command {
        Command::Moves(args) => inspect::moves(&args),
        Command::Perft(args) => inspect::perft(&args),
        Command::Fen(args) => inspect::fen(&args),
        Command::Render(args) => inspect::render(&args),
        Command::Analyse(args) => play::analyse(&args),
        Command::Selfplay(args) => play::selfplay(&args),
        Command::EngineMatch(args) => engine_match::engine_match(&args),
        Command::Openings(args) => openings::openings(&args),
        Command::Uci => {
            uci::run(std::io::stdin().lock(), std::io::stdout().lock()).map(|()| String::new())
        }
        Command::TuneData(args) => tune::tune_data(&args),
        Command::Tune(args) => tune::tune_weights(&args),
        Command::WinCurve(args) => tune::win_curve(&args),
        Command::TuneReach(args) => tune_reach::tune_reach(&args),
        Command::LatencyProxy(args) => runtime()
            .map_err(Into::into)
            .and_then(|rt| rt.block_on(proxy::run(args.listen, args.to, delay_of(args.delay_ms)))),
        Command::Console(args) => runtime()
            .map_err(Into::into)
            .and_then(|rt| rt.block_on(console(args))),
        Command::Run(args) => runtime()
            .map_err(Into::into)
            .and_then(|rt| rt.block_on(run(args))),
        Command::Bench(args) => runtime().map_err(Into::into).and_then(|rt| {
            rt.block_on(async {
                match (args.db, args.part) {
                    (Some(db), Some(part)) => {
                        bench::part(
                            &db,
                            args.games,
                            args.processes.max(1),
                            part,
                            args.start_at_ms,
                        )
                        .await
                    }
                    (Some(db), None) => {
                        bench::spread(bench::Spread {
                            db,
                            processes: args.processes.max(1),
                            games: args.games,
                            delay: args.delay_ms.map(delay_of),
                        })
                        .await
                    }
                    (None, _) => bench::run(args.games).await,
                }
            })
        }),
        Command::CheckDb(args) => runtime()
            .map_err(Into::into)
            .and_then(|rt| rt.block_on(check_db(args))),
        Command::EngineWorker(args) => runtime()
            .map_err(Into::into)
            .and_then(|rt| rt.block_on(cluster::engine_worker(args))),
        Command::Health(args) => runtime()
            .map_err(Into::into)
            .and_then(|rt| rt.block_on(cluster::health(args))),
        Command::MigrateDb(args) => runtime()
            .map_err(Into::into)
            .and_then(|rt| rt.block_on(cluster::migrate_db(args))),
        Command::Puzzles(PuzzlesCommand::Generate(args)) => runtime()
            .map_err(Into::into)
            .and_then(|rt| rt.block_on(generate_puzzles(args))),
        Command::Puzzles(PuzzlesCommand::Measure(args)) => puzzles::measure(&args),
        Command::Variants(VariantsCommand::Check { files }) => voidmate::variants::check(&files),
        Command::Variants(VariantsCommand::Show {
            name,
            variants_file,
        }) => voidmate::variants::show(&name, &variants_file),
        Command::Variants(VariantsCommand::List { variants_file }) => {
            voidmate::variants::list(&variants_file)
        }
    };
    match result {
        Ok(text) => {
            use std::io::Write;
            // A reader that has gone (`voidmate moves ... | head -1`) is
            // not an error of ours: stop quietly, as other tools do.
            let mut out = std::io::stdout().lock();
            match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: cannot write the output: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// A delay given in milliseconds (fractions allowed; negative as none).
fn delay_of(ms: f64) -> std::time::Duration {
    // `inf` or 1e300 would not fit a Duration: taken as the longest.
    std::time::Duration::try_from_secs_f64(ms.max(0.0) / 1000.0).unwrap_or(std::time::Duration::MAX)
}
