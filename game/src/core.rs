//! The core every adapter shares: its settings, who the bot is on each
//! platform, how commands are written there, and the start-up bookkeeping.
//! Handling an event is in [`crate::events`], the handlers in
//! [`crate::handlers`], the periodic work in [`crate::delivery`],
//! [`crate::deadlines`] and [`crate::engine_turns`].

use crate::command::{Pool, TimeControl};
use crate::config::CoreConfig;
use crate::config::Searches;
use crate::contract::{Player, PlayerId};
use crate::engine::EnginePool;
use crate::lease::Leases;
use crate::process;
use crate::store::{self, Claim, LeaseKind, Store};
use crate::time::Clock;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI64};
use std::sync::{Arc, Mutex, RwLock};
use voidmate_render::Theme;

#[derive(Debug, Clone)]
pub struct CoreSettings {
    pub max_message_chars: usize,
    pub bare_moves: bool,
    pub theme: Theme,
    pub day_seconds: i64,
}

impl CoreSettings {
    pub fn from_config(cfg: &CoreConfig) -> anyhow::Result<CoreSettings> {
        let theme = Theme::from_name(&cfg.render.theme).ok_or_else(|| {
            anyhow::anyhow!(
                "render.theme '{}' is not a theme; use classic or high-contrast",
                cfg.render.theme
            )
        })?;
        Ok(CoreSettings {
            max_message_chars: cfg.chat.max_message_chars,
            bare_moves: cfg.chat.bare_moves,
            theme,
            day_seconds: cfg.clock.day_seconds.max(1),
        })
    }
}

/// The bot's core, shared by every adapter.
#[derive(Clone)]
pub struct Core {
    pub(crate) store: Store,
    pub(crate) settings: CoreSettings,
    pub(crate) engine: Arc<EnginePool>,
    pub(crate) engine_cfg: crate::config::Engine,
    pub(crate) time: Clock,
    /// Who the bot itself is on the platforms in use: a challenge to one
    /// of them is a game against the engine.
    pub(crate) bots: Arc<RwLock<Vec<Player>>>,
    /// How commands are written on each platform (see [`CommandStyle`]).
    pub(crate) styles: Arc<RwLock<HashMap<String, CommandStyle>>>,
    /// When handled event ids were last pruned (seconds since the epoch).
    pub(crate) pruned_at: Arc<AtomicI64>,
    /// The work this process holds (engine turns, reviews, notices being
    /// posted), kept renewed while it goes on.
    pub(crate) leases: Leases,
    /// Whether engine turns left unqueued by an older version were queued.
    pub(crate) engine_backfilled: Arc<AtomicBool>,
    /// What this process reports about itself (see [`Core::health`]).
    pub(crate) status: Arc<Mutex<process::Status>>,
}

/// How a platform's users write commands, for the core's hints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandStyle {
    /// What goes before a command word: `"!vm "`, `"/"`, or `""`.
    pub prefix: String,
    /// Whether a ✅ or ❌ on the bot's question answers it.
    pub reactions: bool,
    /// Whether questions come with buttons.
    pub buttons: bool,
    /// Whether the bot reads lines not said to it (a bare `e4`): Discord
    /// shows a guild message's text only with the message-content intent.
    pub reads_chat: bool,
    /// Whether a game may be played in a thread of its own (Discord).
    pub threads: bool,
    /// The rating pool of the games usually played there, which a
    /// leaderboard shows unless asked for another: live where games are
    /// played at once (Discord), correspondence where they last days
    /// (Matrix rooms).
    pub default_pool: Pool,
}

impl Default for CommandStyle {
    /// Plain command words, every line read: the console and tests.
    fn default() -> CommandStyle {
        CommandStyle {
            prefix: String::new(),
            reactions: false,
            buttons: false,
            reads_chat: true,
            threads: false,
            default_pool: Pool::Correspondence,
        }
    }
}

/// Where a question posted as message `posted` is kept.
fn question_key(platform: &str, posted: &str) -> String {
    format!("{platform}.question.{posted}")
}

/// Where the bot's id on `platform` is kept ([`Core::add_bot`]).
fn bot_key(platform: &str) -> String {
    format!("core.bot.{platform}")
}

/// Where the time the core last saw is kept, to credit clocks for downtime.
pub(crate) const HEARTBEAT_KEY: &str = "core.heartbeat_ms";

impl Core {
    /// Adapters say who the bot is where they connect; challenging it
    /// starts a game against the engine.
    ///
    /// Seats of a database from before identities that hold the bot's name
    /// on this platform (`discord:?Voidmate`, see the identities migration)
    /// become the bot's id here.
    pub async fn add_bot(&self, bot: Player) -> Result<(), sqlx::Error> {
        let legacy = PlayerId::new(bot.id.platform(), &format!("?{}", bot.name));
        let mut tx = self.store.begin().await?;
        store::rename_player(&mut tx, &legacy, &bot.id).await?;
        store::see_player(&mut tx, &bot).await?;
        // For the engine workers, which meet no platform themselves: the
        // engine plays only this seat (`Core::plays_for_bot`).
        store::set_adapter_value(&mut *tx, &bot_key(bot.id.platform()), bot.id.as_str()).await?;
        tx.commit().await?;
        let mut bots = self.bots.write().expect("not poisoned");
        bots.retain(|b| b.id != bot.id);
        bots.push(bot);
        Ok(())
    }

    /// Whether `id` is the bot: as this process's adapters met it, or as a
    /// process whose adapter met it on that platform stored it (an engine
    /// worker connects to no platform).
    pub(crate) async fn plays_for_bot(&self, id: &PlayerId) -> Result<bool, sqlx::Error> {
        if self.is_bot(id) {
            return Ok(true);
        }
        // No process has met the bot on that platform since this was kept
        // (a database of an older version): the queue is trusted, as then.
        let stored = store::adapter_value(self.store.pool(), &bot_key(id.platform())).await?;
        Ok(stored.is_none_or(|bot| bot == id.as_str()))
    }

    /// Whether the player with this id is the bot itself.
    pub(crate) fn is_bot(&self, id: &PlayerId) -> bool {
        self.bots
            .read()
            .expect("not poisoned")
            .iter()
            .any(|b| &b.id == id)
    }

    /// The bot on `platform`, if its adapter said who it is there.
    pub(crate) fn bot_on(&self, platform: &str) -> Option<Player> {
        self.bots
            .read()
            .expect("not poisoned")
            .iter()
            .find(|b| b.id.platform() == platform)
            .cloned()
    }

    /// The bot a name written in a command means on `platform`: its name,
    /// or its id's local part.
    pub(crate) fn bot_named(&self, platform: &str, written: &str) -> Option<Player> {
        let bare = written.trim_start_matches('@');
        self.bots
            .read()
            .expect("not poisoned")
            .iter()
            .find(|b| {
                b.id.platform() == platform
                    && (b.name.eq_ignore_ascii_case(bare)
                        || b.id.local() == bare
                        || b.id.local() == written)
            })
            .cloned()
    }

    /// Tells the core how commands are written on a platform, so that its
    /// hints say what works there (`!vm accept`, a ✅ on the message).
    pub fn set_command_style(&self, platform: &str, style: CommandStyle) {
        self.styles
            .write()
            .expect("not poisoned")
            .insert(platform.to_string(), style);
    }

    /// How a user of `platform` answers a question yes (`yes`) or no.
    pub(crate) fn how_to_answer(&self, platform: &str, yes: &str, no: &str) -> String {
        let s = self.command_style(platform);
        let words = format!("`{p}{yes}` or `{p}{no}`", p = s.prefix);
        match (s.buttons, s.reactions) {
            (true, _) => format!("the buttons below, or {words}"),
            (false, true) => format!("{words}, or react ✅ or ❌ to this message"),
            (false, false) => words,
        }
    }

    /// The platforms whose adapters run in this process: the ones that
    /// set their command style. None (the console, tests): every platform.
    pub(crate) fn platforms(&self) -> Vec<String> {
        let styles = self.styles.read().expect("not poisoned");
        let mut platforms: Vec<String> = styles.keys().cloned().collect();
        platforms.sort();
        platforms
    }

    /// How commands are written on `platform` ([`Core::set_command_style`]).
    pub(crate) fn command_style(&self, platform: &str) -> CommandStyle {
        let styles = self.styles.read().expect("not poisoned");
        styles.get(platform).cloned().unwrap_or_default()
    }

    /// The deadline for the next move of a game with this time control,
    /// counted from `now_ms` on the core's clock, with its reminder: when a
    /// quarter of the move's time is left.
    pub(crate) fn deadline(&self, clock: &TimeControl, now_ms: i64) -> Option<store::Deadline> {
        self.deadline_from(clock, now_ms.div_euclid(1000))
    }

    /// The deadline of a move that began at `start` (seconds).
    pub(crate) fn deadline_from(&self, clock: &TimeControl, start: i64) -> Option<store::Deadline> {
        match clock {
            TimeControl::Days(d) => {
                let period = *d as i64 * self.settings.day_seconds;
                Some(store::Deadline {
                    at: start + period,
                    remind_at: start + period - period / 4,
                })
            }
            TimeControl::None | TimeControl::Clock { .. } => None,
        }
    }

    /// Whether this process searches the engine's turns itself.
    pub(crate) fn searches_here(&self) -> bool {
        self.engine_cfg.searches == Searches::Here
    }

    /// A claim on an engine turn from now, for the move that queues it.
    pub(crate) fn engine_claim(&self) -> Claim<'_> {
        self.leases.claim(LeaseKind::EngineTurn)
    }

    /// A value an adapter keeps in the core's database across restarts (a
    /// Matrix sync position, when the bot joined a room), by a key of the
    /// adapter's own, prefixed with its platform (`matrix.sync_token`).
    pub async fn adapter_value(&self, key: &str) -> Result<Option<String>, sqlx::Error> {
        store::adapter_value(self.store.pool(), key).await
    }

    /// Keeps `value` under `key` (see [`Core::adapter_value`]).
    pub async fn set_adapter_value(&self, key: &str, value: &str) -> Result<(), sqlx::Error> {
        store::set_adapter_value(self.store.pool(), key, value).await
    }

    /// Remembers that the message `posted` on `platform` asks `actions`, so
    /// that a reaction to it answers them ([`CommandStyle::reactions`]).
    pub async fn remember_question(
        &self,
        platform: &str,
        posted: &str,
        actions: &[crate::reply::Action],
    ) -> Result<(), sqlx::Error> {
        let key = question_key(platform, posted);
        let stored = crate::reply::Action::stored(actions);
        store::set_adapter_value(self.store.pool(), &key, &stored).await
    }

    /// What the message `posted` on `platform` asks, if it asks anything
    /// ([`Core::remember_question`]).
    pub async fn question(
        &self,
        platform: &str,
        posted: &str,
    ) -> Result<Vec<crate::reply::Action>, sqlx::Error> {
        let stored =
            store::adapter_value(self.store.pool(), &question_key(platform, posted)).await?;
        Ok(stored.map_or_else(Vec::new, |s| crate::reply::Action::from_stored(&s)))
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The work this process holds (for tests of what other processes do
    /// when it stops: [`Leases::stop`]).
    #[doc(hidden)]
    pub fn leases(&self) -> &Leases {
        &self.leases
    }
}

impl Core {
    /// Takes one queued piece of engine work of `kind` (a game's review, its
    /// puzzle search) that nobody holds, if none of its kind runs here now,
    /// and runs it in a task of its own under its lease: renewed until the
    /// task ends, also when the work panics (the guard goes with the task).
    pub(crate) async fn take_one<F, Fut>(&self, kind: LeaseKind, run: F)
    where
        F: FnOnce(Core, i64) -> Fut + Send + 'static,
        Fut: std::future::Future<Output = Result<(), String>> + Send + 'static,
    {
        let held = match self.leases.claim_next(kind, 1).await {
            Ok(Some(held)) => held,
            Ok(None) => return,
            Err(e) => {
                tracing::warn!("cannot take a {}: {e}", kind.name());
                return;
            }
        };
        let core = self.clone();
        tokio::spawn(async move {
            let id = held.key();
            if let Err(why) = run(core, id).await {
                tracing::warn!(game = id, "{} stopped: {why}", kind.name());
            }
            drop(held);
        });
    }
}
