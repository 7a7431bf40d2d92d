//! Configuration: a TOML file (see `config/voidmate.toml`), every field with
//! a default, secrets only by the name of an environment variable.

use crate::discord::DiscordSection;
use crate::matrix::MatrixSection;
use anyhow::{anyhow, bail, Context, Result};
use serde::de::DeserializeOwned;
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
    pub discord: DiscordSection,
    pub matrix: MatrixSection,
    /// Games this server defines in files (`docs/variants.md`).
    pub variants: crate::variants::VariantsSection,
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

impl Config {
    /// Reads `path`, or the defaults when `path` is `None`.
    pub fn load(path: Option<&Path>) -> Result<Config> {
        let Some(path) = path else {
            return Ok(Config::default());
        };
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read the configuration {}", path.display()))?;
        let file = path.display();
        let mut table: toml::Table =
            toml::from_str(&text).with_context(|| format!("bad configuration in {file}"))?;
        // Each section on its own, so that an error names its section.
        let mut section = |name: &str| -> Result<toml::Value> {
            Ok(table
                .remove(name)
                .unwrap_or_else(|| toml::Value::Table(toml::Table::new())))
        };
        fn read<T: DeserializeOwned>(file: &str, name: &str, value: toml::Value) -> Result<T> {
            value
                .try_into()
                .map_err(|e| anyhow!("bad configuration in {file}: [{name}] {e}"))
        }
        let file = file.to_string();
        let cfg = Config {
            database: read(&file, "database", section("database")?)?,
            chat: read(&file, "chat", section("chat")?)?,
            render: read(&file, "render", section("render")?)?,
            console: read(&file, "console", section("console")?)?,
            clock: read(&file, "clock", section("clock")?)?,
            engine: read(&file, "engine", section("engine")?)?,
            discord: read(&file, "discord", section("discord")?)?,
            matrix: read(&file, "matrix", section("matrix")?)?,
            variants: read(&file, "variants", section("variants")?)?,
        };
        if let Some(unknown) = table.keys().next() {
            bail!(
                "bad configuration in {file}: there is no section [{unknown}] (the sections are database, chat, render, console, clock, engine, discord, matrix and variants)"
            );
        }
        Ok(cfg)
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
        assert_eq!(
            (
                file.database.max_connections,
                file.database.min_connections,
                file.database.acquire_timeout_ms
            ),
            (
                built_in.database.max_connections,
                built_in.database.min_connections,
                built_in.database.acquire_timeout_ms
            )
        );
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
        assert_eq!(file.discord.token_env, built_in.discord.token_env);
        assert_eq!(file.discord.defer_after_ms, built_in.discord.defer_after_ms);
        assert_eq!(file.discord.tick_seconds, built_in.discord.tick_seconds);
        assert_eq!(file.matrix.prefix, built_in.matrix.prefix);
        assert_eq!(file.matrix.store_dir, built_in.matrix.store_dir);
    }

    #[test]
    fn an_unknown_key_is_an_error_that_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bad.toml");
        std::fs::write(&path, "[database]\npaht = \"x.db\"\n").unwrap();
        let err = format!("{:#}", Config::load(Some(&path)).unwrap_err());
        assert!(
            err.contains("bad configuration in")
                && err.contains("bad.toml")
                && err.contains("[database]")
                && err.contains("paht"),
            "{err}"
        );
        // The adapters' sections too: a typo there no longer passes.
        std::fs::write(
            &path,
            "[discord]
enabled = true
token_evn = \"X\"\n",
        )
        .unwrap();
        let err = format!("{:#}", Config::load(Some(&path)).unwrap_err());
        assert!(
            err.contains("[discord]") && err.contains("unknown field `token_evn`"),
            "{err}"
        );
        std::fs::write(
            &path,
            "[matirx]
enabled = true
",
        )
        .unwrap();
        let err = format!("{:#}", Config::load(Some(&path)).unwrap_err());
        assert!(err.contains("no section [matirx]"), "{err}");
    }
}
