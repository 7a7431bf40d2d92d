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

impl Default for Database {
    fn default() -> Self {
        Database {
            path: PathBuf::from("voidmate.db"),
            url: None,
            busy_timeout_ms: 5000,
            synchronous: Synchronous::Full,
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
    /// Thinking time per move.
    pub move_time_ms: u64,
    /// Thinking time per move in correspondence games (days per move).
    pub correspondence_move_time_ms: u64,
    /// The level (1-5) when the challenge names none.
    pub default_level: u8,
}

impl Default for Engine {
    fn default() -> Self {
        Engine {
            threads: 1,
            move_time_ms: 2000,
            correspondence_move_time_ms: 10000,
            default_level: 3,
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
