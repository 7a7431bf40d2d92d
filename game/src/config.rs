//! The core's settings: the sections of the configuration file that the
//! core reads (`[database]`, `[chat]`, `[render]`, `[clock]`, `[engine]`).
//! The bot's configuration holds them beside the adapters' sections and
//! hands them over as a [`CoreConfig`].

use serde::Deserialize;
use std::path::PathBuf;

/// Everything the core is configured with.
#[derive(Debug, Clone, Default)]
pub struct CoreConfig {
    pub database: Database,
    pub chat: Chat,
    pub render: Render,
    pub clock: Clock,
    pub engine: Engine,
}

impl From<&CoreConfig> for CoreConfig {
    fn from(cfg: &CoreConfig) -> CoreConfig {
        cfg.clone()
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Database {
    /// The SQLite file (the default backend).
    pub path: PathBuf,
    /// A PostgreSQL server instead (`postgres://user@host/db`): for
    /// deployments of several processes. Overrides `path`.
    pub url: Option<String>,
    pub busy_timeout_ms: u64,
    /// When a commit is on disk (SQLite's `synchronous`).
    pub synchronous: Synchronous,
    /// Connections to PostgreSQL this process keeps at most: as many
    /// transactions as it can have open at once (each command in flight
    /// holds one to its commit). SQLite, one writer at a time, keeps 4.
    pub max_connections: u32,
    /// Connections kept open while idle, so a burst does not wait for
    /// new ones (PostgreSQL).
    pub min_connections: u32,
    /// How long a command waits for a free connection before it is
    /// answered "busy" (milliseconds).
    pub acquire_timeout_ms: u64,
}

/// When a commit is on disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Synchronous {
    /// Synced before the commit returns: an acknowledged move survives a
    /// power loss.
    #[default]
    Full,
    /// Survives a crash of the process; a power loss may lose the last
    /// commits. Faster, for storage that survives power loss.
    Normal,
}

impl Database {
    /// The database named for people: the SQLite file, or the server and
    /// database of the URL (never the password it may carry).
    pub fn describe(&self) -> String {
        match &self.url {
            Some(url) => url.split('@').next_back().unwrap_or(url).to_string(),
            None => self.path.display().to_string(),
        }
    }

    /// The database at `place`: a `postgres://` URL, else a SQLite file.
    pub fn at(place: &str) -> Database {
        let mut db = Database::default();
        if place.starts_with("postgres://") || place.starts_with("postgresql://") {
            db.url = Some(place.to_string());
        } else {
            db.path = PathBuf::from(place);
        }
        db
    }
}

impl Default for Database {
    fn default() -> Self {
        Database {
            path: PathBuf::from("voidmate.db"),
            url: None,
            busy_timeout_ms: 5000,
            synchronous: Synchronous::Full,
            max_connections: 10,
            min_connections: 1,
            acquire_timeout_ms: 10_000,
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Chat {
    pub max_message_chars: usize,
    pub bare_moves: bool,
}

impl Default for Chat {
    fn default() -> Self {
        Chat {
            max_message_chars: 500,
            bare_moves: true,
        }
    }
}

/// The engine that plays when someone challenges the bot.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Engine {
    /// Threads of the engine's own pool (searches never run on the async workers).
    pub threads: usize,
    /// Memory for each thread's transposition table, in megabytes.
    pub hash_mb: usize,
    /// Thinking time per move.
    pub move_time_ms: u64,
    /// Thinking time per move in correspondence games (days per move).
    pub correspondence_move_time_ms: u64,
    /// The most one move may take in a game on a clock (none: ten times
    /// `move_time_ms`); within it the engine plans each move's time from
    /// its clock.
    pub clock_move_time_ms: Option<u64>,
    /// The level (1-5) when the challenge names none.
    pub default_level: u8,
    /// Where the engine's turns are searched: `here` (in this process, the
    /// default) or `workers` (by `voidmate engine-worker` processes on the
    /// same PostgreSQL database; this process only queues them).
    pub searches: Searches,
    /// The engine's effort per position of a review (`analysis`), in nodes:
    /// the default takes 0.2 s a position of standard chess, 0.4 s of Void
    /// Chess, 0.7 s of Super Chess on one core (`docs/performance.md`).
    pub review_nodes: u64,
    /// Whether this process searches finished games for puzzles (each is
    /// queued as it ends, whatever this says; a search is engine work, taken
    /// under a lease, one candidate position at a time between the engine's
    /// moves). On by default: a community's puzzles come from it.
    pub puzzle_searches: bool,
    /// The engine's effort per search of a puzzle's line, in nodes (the
    /// scan for candidates, where no review is stored, takes a quarter;
    /// each solver's move is confirmed at twice this).
    pub puzzle_nodes: u64,
}

/// The default effort per position of a review.
pub const REVIEW_NODES: u64 = 150_000;

/// Where the engine's turns are searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Searches {
    /// In the process that handles the move, replying with both moves.
    #[default]
    Here,
    /// By engine workers; the engine's move is posted when it is played.
    Workers,
}

impl Engine {
    /// The most one move may take on a clock.
    pub fn clock_move_time_ms(&self) -> u64 {
        self.clock_move_time_ms
            .unwrap_or(self.move_time_ms.saturating_mul(10))
    }
}

impl Default for Engine {
    fn default() -> Self {
        Engine {
            threads: 1,
            hash_mb: 16,
            move_time_ms: 2000,
            correspondence_move_time_ms: 10000,
            clock_move_time_ms: None,
            default_level: 3,
            searches: Searches::Here,
            review_nodes: REVIEW_NODES,
            puzzle_searches: true,
            puzzle_nodes: REVIEW_NODES,
        }
    }
}

/// Correspondence clocks.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Clock {
    /// Seconds in a "day" of a days-per-move time control; tests shorten it.
    pub day_seconds: i64,
}

impl Default for Clock {
    fn default() -> Self {
        Clock {
            day_seconds: 86_400,
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Render {
    pub theme: String,
}

impl Default for Render {
    fn default() -> Self {
        Render {
            theme: "classic".into(),
        }
    }
}
