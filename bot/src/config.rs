//! Configuration: a TOML file (see `config/voidmate.toml`), every field with
//! a default, secrets only by the name of an environment variable.

use anyhow::{Context, Result};
use serde::Deserialize;
use std::path::{Path, PathBuf};
// The core's own sections live with the core; the file holds them too.
pub use voidmate_game::config::{Chat, Clock, CoreConfig, Database, Engine, Render, Synchronous};

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

/// The core's part of the configuration.
impl From<&Config> for CoreConfig {
    fn from(cfg: &Config) -> CoreConfig {
        CoreConfig {
            database: cfg.database.clone(),
            chat: cfg.chat.clone(),
            render: cfg.render.clone(),
            clock: cfg.clock.clone(),
            engine: cfg.engine.clone(),
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
        assert_eq!(file.database.synchronous, built_in.database.synchronous);
        assert_eq!(file.chat.max_message_chars, built_in.chat.max_message_chars);
        assert_eq!(file.chat.bare_moves, built_in.chat.bare_moves);
        assert_eq!(file.render.theme, built_in.render.theme);
        assert_eq!(file.console.image_dir, built_in.console.image_dir);
        assert_eq!(file.engine.threads, built_in.engine.threads);
        assert_eq!(file.engine.hash_mb, built_in.engine.hash_mb);
        assert_eq!(file.engine.move_time_ms, built_in.engine.move_time_ms);
        assert_eq!(
            file.engine.correspondence_move_time_ms,
            built_in.engine.correspondence_move_time_ms
        );
        assert_eq!(file.engine.default_level, built_in.engine.default_level);
        assert_eq!(file.engine.searches, built_in.engine.searches);
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
