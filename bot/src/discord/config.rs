//! The `[discord]` section of the configuration: read with serde (an
//! unknown key is an error naming it), then checked and resolved (the
//! token from its environment variable, the shard range against the count).

use anyhow::{bail, Context as _, Result};
use poise::serenity_prelude::GuildId;
use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;
use std::fmt;
use std::time::Duration;

/// The section as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DiscordSection {
    /// `voidmate run` connects to Discord.
    pub enabled: bool,
    /// The environment variable that holds the bot token.
    pub token_env: String,
    /// Register the commands in this guild only.
    pub guild_id: Option<Snowflake>,
    /// A number, or `"auto"`; one shard when not given.
    pub shards: Option<ShardCount>,
    /// This process's shards, first and last, of `shards`.
    pub shard_range: Option<[i64; 2]>,
    /// REST requests go here instead of discord.com (a rate-limiting proxy,
    /// a test server).
    pub api_url: Option<String>,
    pub defer_after_ms: u64,
    pub tick_seconds: u64,
    pub message_content: bool,
}

impl Default for DiscordSection {
    fn default() -> Self {
        DiscordSection {
            enabled: false,
            token_env: "VOIDMATE_DISCORD_TOKEN".into(),
            guild_id: None,
            shards: None,
            shard_range: None,
            api_url: None,
            defer_after_ms: 1000,
            tick_seconds: 1,
            message_content: false,
        }
    }
}

/// A Discord id written as a number or as a string of digits (ids pass
/// 2^53, which some tools round, so both are common).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Snowflake(pub u64);

impl<'de> Deserialize<'de> for Snowflake {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Snowflake, D::Error> {
        struct Id;
        impl Visitor<'_> for Id {
            type Value = Snowflake;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a server id (a number)")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Snowflake, E> {
                u64::try_from(v)
                    .ok()
                    .filter(|&n| n > 0)
                    .map(Snowflake)
                    .ok_or_else(|| E::custom("guild_id must be a server id (a number)"))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Snowflake, E> {
                v.trim()
                    .parse::<u64>()
                    .ok()
                    .filter(|&n| n > 0)
                    .map(Snowflake)
                    .ok_or_else(|| E::custom("guild_id must be a server id (a number)"))
            }
        }
        d.deserialize_any(Id)
    }
}

/// `shards = "auto"` or a positive number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShardCount {
    Auto,
    Count(u32),
}

impl<'de> Deserialize<'de> for ShardCount {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ShardCount, D::Error> {
        struct Count;
        const WANTED: &str = "shards must be \"auto\" or a positive number";
        impl Visitor<'_> for Count {
            type Value = ShardCount;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(WANTED)
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<ShardCount, E> {
                u32::try_from(v)
                    .ok()
                    .filter(|&n| n > 0)
                    .map(ShardCount::Count)
                    .ok_or_else(|| E::custom(WANTED))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<ShardCount, E> {
                match v {
                    "auto" => Ok(ShardCount::Auto),
                    _ => Err(E::custom(WANTED)),
                }
            }
        }
        d.deserialize_any(Count)
    }
}

/// Which shards this process runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shards {
    /// As many as Discord recommends (`GET /gateway/bot`).
    Auto,
    /// Shards `0..n` of `n`.
    Count(u32),
    /// Shards `first..=last` of `total`, for a deployment split over processes.
    Range { first: u32, last: u32, total: u32 },
}

impl Shards {
    /// The ids of the shards this process runs, if known before Discord
    /// says (`Auto` learns them from `GET /gateway/bot`).
    pub fn ids(self) -> Vec<u32> {
        match self {
            Shards::Auto => Vec::new(),
            Shards::Count(n) => (0..n).collect(),
            Shards::Range { first, last, .. } => (first..=last).collect(),
        }
    }
}

/// The Discord adapter's settings, checked and resolved.
#[derive(Debug, Clone)]
pub struct DiscordConfig {
    /// The bot token (read from the environment variable the configuration names).
    pub token: String,
    /// Register the commands in this guild only (they appear at once, which
    /// suits testing); `None` registers them globally.
    pub guild: Option<GuildId>,
    pub shards: Shards,
    /// Send REST requests here instead of discord.com: a rate-limiting proxy
    /// shared by several processes (twilight-http-proxy), or a test server.
    pub api_url: Option<String>,
    /// Work that takes longer than this is deferred first (Discord wants an
    /// answer to an interaction within 3 s) and the answer edited in later.
    /// Zero defers every answer.
    pub defer_after: Duration,
    /// How often deadlines are checked.
    pub tick: Duration,
    /// Ask for the privileged message-content intent: then lines not said
    /// to the bot (a bare `e4`) reach it. Off by default: without it Discord
    /// shows the bot only messages that mention it, replies that ping it,
    /// and direct messages.
    pub message_content: bool,
}

impl DiscordConfig {
    /// The section checked: the shard range fits the count, the token is in
    /// the environment.
    pub fn from_section(s: &DiscordSection) -> Result<DiscordConfig> {
        DiscordConfig::from_section_with(s, |var| std::env::var(var).ok())
    }

    /// [`DiscordConfig::from_section`], reading the token's variable with
    /// `env` (tests hand their own rather than change the process's
    /// environment, which other threads read).
    pub fn from_section_with(
        s: &DiscordSection,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<DiscordConfig> {
        let shards = match (s.shards, s.shard_range) {
            (None, None) => Shards::Count(1),
            (Some(ShardCount::Auto), None) => Shards::Auto,
            (Some(ShardCount::Count(n)), None) => Shards::Count(n),
            (Some(ShardCount::Count(total)), Some([first, last])) => {
                if !(0 <= first && first <= last && last < total as i64) {
                    bail!(
                        "[discord] shard_range must be [first, last] with first <= last < shards ({total})"
                    );
                }
                Shards::Range {
                    first: first as u32,
                    last: last as u32,
                    total,
                }
            }
            (Some(ShardCount::Auto), Some(_)) => {
                bail!("[discord] shard_range needs shards, the total count, not \"auto\"")
            }
            (None, Some(_)) => bail!("[discord] shard_range needs shards, the total count"),
        };
        let var = &s.token_env;
        let token = env(var).with_context(|| {
            format!("[discord] token_env names {var}, which is not set in the environment")
        })?;
        Ok(DiscordConfig {
            token,
            guild: s.guild_id.map(|g| GuildId::new(g.0)),
            shards,
            api_url: s.api_url.clone(),
            defer_after: Duration::from_millis(s.defer_after_ms),
            tick: Duration::from_secs(s.tick_seconds.max(1)),
            message_content: s.message_content,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn section(toml_text: &str) -> Result<DiscordSection, String> {
        toml::from_str(toml_text).map_err(|e| e.to_string())
    }

    #[test]
    fn the_documented_section_reads() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../config/voidmate.toml");
        let cfg = crate::config::Config::load(Some(&path)).unwrap();
        let env = |var: &str| (var == "VOIDMATE_DISCORD_TOKEN").then(|| "from-env".to_string());
        let d = DiscordConfig::from_section_with(&cfg.discord, env).unwrap();
        assert_eq!(d.token, "from-env");
        assert_eq!(d.shards, Shards::Count(1));
        assert_eq!(d.defer_after, Duration::from_millis(1000));
        assert_eq!(d.tick, Duration::from_secs(1));
        assert_eq!((d.guild, d.api_url), (None, None));
    }

    #[test]
    fn the_section_reads_shards_and_names_bad_values() {
        let env = |var: &str| (var == "VOIDMATE_TEST_DISCORD_TOKEN").then(|| "t0k3n".to_string());
        let base = "enabled = true\ntoken_env = \"VOIDMATE_TEST_DISCORD_TOKEN\"\n";
        let read = |extra: &str| {
            DiscordConfig::from_section_with(&section(&format!("{base}{extra}")).unwrap(), env)
                .unwrap()
        };
        let cfg = read("");
        assert_eq!(cfg.token, "t0k3n");
        assert_eq!(cfg.shards, Shards::Count(1));
        assert_eq!(cfg.guild, None);
        assert_eq!(cfg.defer_after, Duration::from_millis(1000));
        let cfg = read("shards = \"auto\"\nguild_id = \"123\"");
        assert_eq!(cfg.shards, Shards::Auto);
        assert_eq!(cfg.guild, Some(GuildId::new(123)));
        assert_eq!(read("guild_id = 456").guild, Some(GuildId::new(456)));
        assert_eq!(
            read("shards = 8\nshard_range = [4, 7]").shards,
            Shards::Range {
                first: 4,
                last: 7,
                total: 8
            }
        );
        let refused = |extra: &str| {
            DiscordConfig::from_section_with(&section(&format!("{base}{extra}")).unwrap(), env)
                .unwrap_err()
                .to_string()
        };
        assert!(refused("shards = 8\nshard_range = [4, 8]").contains("first <= last < shards"));
        assert!(refused("shard_range = [0, 1]").contains("needs shards"));
        let unreadable = |extra: &str| section(&format!("{base}{extra}")).unwrap_err();
        assert!(unreadable("shards = 0").contains("positive number"));
        assert!(unreadable("shards = \"many\"").contains("positive number"));
        assert!(unreadable("guild_id = \"general\"").contains("guild_id"));
        // A key nobody reads is named, not passed over in silence.
        let typo = unreadable("defer_afer_ms = 10");
        assert!(typo.contains("unknown field `defer_afer_ms`"), "{typo}");
        let missing = section("token_env = \"VOIDMATE_NOT_SET_ANYWHERE\"").unwrap();
        assert_eq!(
            DiscordConfig::from_section(&missing)
                .unwrap_err()
                .to_string(),
            "[discord] token_env names VOIDMATE_NOT_SET_ANYWHERE, which is not set in the environment"
        );
    }
}
