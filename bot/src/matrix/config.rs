//! The `[matrix]` section of the configuration: read with serde (an unknown
//! key is an error naming it), then checked and resolved (secrets from
//! their environment variables).

use anyhow::{anyhow, bail, Context as _, Result};
use serde::Deserialize;
use std::path::PathBuf;
use std::time::Duration;

/// The section as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MatrixSection {
    /// `voidmate run` connects to the homeserver.
    pub enabled: bool,
    pub homeserver: Option<String>,
    pub user: Option<String>,
    /// The environment variable that holds the password.
    pub password_env: Option<String>,
    /// Or the one that holds an access token, with its device.
    pub access_token_env: Option<String>,
    pub device_id: Option<String>,
    pub store_dir: PathBuf,
    pub prefix: String,
    pub allow_invites_from: Vec<String>,
    pub tick_seconds: u64,
}

impl Default for MatrixSection {
    fn default() -> Self {
        MatrixSection {
            enabled: false,
            homeserver: None,
            user: None,
            password_env: None,
            access_token_env: None,
            device_id: None,
            store_dir: PathBuf::from("voidmate-matrix"),
            prefix: "!vm".into(),
            allow_invites_from: Vec::new(),
            tick_seconds: 1,
        }
    }
}

/// The Matrix adapter's settings, checked and resolved.
#[derive(Debug, Clone)]
pub struct MatrixConfig {
    pub homeserver: String,
    /// The bot's user id, `@voidmate:example.org`.
    pub user: String,
    /// The password (read from the environment variable the configuration names).
    pub password: Option<String>,
    /// Or an access token and the device it belongs to, from an existing login.
    pub access_token: Option<(String, String)>,
    /// Where the session, the encryption keys and the client's state live.
    pub store_dir: PathBuf,
    /// Commands start with this: `!vm`.
    pub prefix: String,
    /// Servers (`example.org`) or users (`@alice:example.org`) whose
    /// invitations the bot accepts; empty means everyone.
    pub allow_invites_from: Vec<String>,
    /// How often deadlines are checked.
    pub tick: Duration,
}

/// The value of environment variable `var`, which `key` names.
fn secret(key: &str, var: &str) -> Result<String> {
    std::env::var(var)
        .with_context(|| format!("[matrix] {key} names {var}, which is not set in the environment"))
}

impl MatrixConfig {
    pub fn from_section(s: &MatrixSection) -> Result<MatrixConfig> {
        let homeserver = s
            .homeserver
            .clone()
            .ok_or_else(|| anyhow!("[matrix] needs homeserver = \"https://...\""))?;
        let user = s
            .user
            .clone()
            .ok_or_else(|| anyhow!("[matrix] needs user = \"@bot:example.org\""))?;
        let password = match &s.password_env {
            Some(var) => Some(secret("password_env", var)?),
            None => None,
        };
        let access_token = match (&s.access_token_env, &s.device_id) {
            (Some(var), Some(device)) => Some((secret("access_token_env", var)?, device.clone())),
            (Some(_), None) => {
                bail!("[matrix] access_token_env needs device_id, the device the token belongs to")
            }
            (None, _) => None,
        };
        Ok(MatrixConfig {
            homeserver,
            user,
            password,
            access_token,
            store_dir: s.store_dir.clone(),
            prefix: s.prefix.clone(),
            allow_invites_from: s.allow_invites_from.clone(),
            tick: Duration::from_secs(s.tick_seconds.max(1)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;

    #[test]
    fn the_documented_matrix_section_reads_and_names_missing_secrets() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../config/voidmate.toml");
        let cfg = Config::load(Some(&path)).unwrap();
        let err = MatrixConfig::from_section(&cfg.matrix)
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "[matrix] password_env names VOIDMATE_MATRIX_PASSWORD, which is not set in the environment"
        );
        let mut section = cfg.matrix.clone();
        section.password_env = None;
        let m = MatrixConfig::from_section(&section).unwrap();
        assert_eq!(m.homeserver, "https://matrix.example.org");
        assert_eq!(m.user, "@voidmate:example.org");
        assert_eq!(m.prefix, "!vm");
        assert_eq!(m.tick, Duration::from_secs(1));
        assert!(
            m.allow_invites_from.is_empty() && m.password.is_none() && m.access_token.is_none()
        );
    }

    #[test]
    fn missing_and_misspelt_keys_are_named() {
        let read = |text: &str| toml::from_str::<MatrixSection>(text).map_err(|e| e.to_string());
        let typo = read("homeserver = \"https://x\"\nprefx = \"!\"").unwrap_err();
        assert!(typo.contains("unknown field `prefx`"), "{typo}");
        let no_user = MatrixConfig::from_section(&read("homeserver = \"https://x\"").unwrap());
        assert_eq!(
            no_user.unwrap_err().to_string(),
            "[matrix] needs user = \"@bot:example.org\""
        );
        let token_alone = read("homeserver = \"h\"\nuser = \"@b:x\"\naccess_token_env = \"T\"");
        assert_eq!(
            MatrixConfig::from_section(&token_alone.unwrap())
                .unwrap_err()
                .to_string(),
            "[matrix] access_token_env needs device_id, the device the token belongs to"
        );
    }
}
