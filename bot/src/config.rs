//! Configuration: a TOML file (see `config/voidmate.toml`), every field with
//! a default, secrets only by the name of an environment variable.

use anyhow::{Context, Result};
use serde::Deserialize;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    pub database: Database,
    pub chat: Chat,
    pub render: Render,
    pub console: Console,
    pub clock: Clock,
    pub engine: Engine,
    pub discord: Adapter,
    pub matrix: Adapter,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Database {
    pub path: PathBuf,
    pub busy_timeout_ms: u64,
}

impl Default for Database {
    fn default() -> Self {
        Database {
            path: PathBuf::from("voidmate.db"),
            busy_timeout_ms: 5000,
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

#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Console {
    pub image_dir: PathBuf,
}

impl Default for Console {
    fn default() -> Self {
        Console {
            image_dir: PathBuf::from("voidmate-images"),
        }
    }
}

/// A chat adapter's switch and the names of its settings. The fields beyond
/// `enabled` belong to the adapter that reads them.
#[derive(Debug, Clone, Deserialize, Default)]
#[serde(default)]
pub struct Adapter {
    pub enabled: bool,
    #[serde(flatten)]
    pub settings: toml::Table,
}

impl Config {
    /// Reads `path`, or the defaults when `path` is `None`.
    pub fn load(path: Option<&Path>) -> Result<Config> {
        let Some(path) = path else {
            return Ok(Config::default());
        };
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read the configuration {}", path.display()))?;
        toml::from_str(&text).with_context(|| format!("bad configuration in {}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_default_file_matches_the_built_in_defaults() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../config/voidmate.toml");
        let file = Config::load(Some(&path)).unwrap();
        let built_in = Config::default();
        assert_eq!(file.database.path, built_in.database.path);
        assert_eq!(
            file.database.busy_timeout_ms,
            built_in.database.busy_timeout_ms
        );
        assert_eq!(file.chat.max_message_chars, built_in.chat.max_message_chars);
        assert_eq!(file.chat.bare_moves, built_in.chat.bare_moves);
        assert_eq!(file.render.theme, built_in.render.theme);
        assert_eq!(file.console.image_dir, built_in.console.image_dir);
        assert_eq!(file.engine.threads, built_in.engine.threads);
        assert_eq!(file.engine.move_time_ms, built_in.engine.move_time_ms);
        assert_eq!(
            file.engine.correspondence_move_time_ms,
            built_in.engine.correspondence_move_time_ms
        );
        assert_eq!(file.engine.default_level, built_in.engine.default_level);
        assert!(!file.discord.enabled && !file.matrix.enabled);
        assert_eq!(
            file.discord.settings["token_env"].as_str(),
            Some("VOIDMATE_DISCORD_TOKEN")
        );
    }

    #[test]
    fn an_unknown_key_is_an_error_that_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bad.toml");
        std::fs::write(&path, "[database]\npaht = \"x.db\"\n").unwrap();
        let err = format!("{:#}", Config::load(Some(&path)).unwrap_err());
        assert!(
            err.contains("bad configuration in") && err.contains("paht"),
            "{err}"
        );
    }
}
