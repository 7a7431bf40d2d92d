//! Handling one event: read the command, act on the stored games in one
//! transaction, then draw the board (off the async workers).

use super::command::{
    self, Answer, ColorChoice, Command, GameRef, ProgramMode, Someone, TimeControl,
};
use super::contract::{Input, Player, PlayerId, Text};
use super::engine::EnginePool;
use super::help;
pub use super::incoming::Incoming;
use super::isolate;
use super::reply::DIRECT_POST_GRACE_MS;
pub use super::reply::{
    delivery_key, Action, Audience, BoardCard, Direct, GameThread, Image, Notice, Reply,
};
use super::store::{self, GameRow, MoveRow, Request, Settings, Store, Tx};
use crate::config::CoreConfig;
use std::fmt::Write as _;
use std::sync::{Arc, RwLock};
use std::time::Duration;
use voidmate_engine::Level;
use voidmate_render::{Caption, PieceColour, RenderOptions, Renderer, Theme};
use voidmate_rules::{
    variants, Color, DrawReason, GameKind, MoveErrorKind, Position, Program, Role, Square, Tile,
};

mod challenges;
mod deadlines;
mod delivery;
mod engine_turns;
mod health;
mod migrate;
pub use engine_turns::ENGINE_LEASE_MS;
pub use health::{Health, ProcessHealth, SILENT_AFTER_MS};
pub use migrate::Migration;
mod events;
mod floor;
mod games;
mod info;
mod offers;
mod play;
mod programs;
mod record;
mod words;

use record::*;
use words::*;

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
    store: Store,
    settings: CoreSettings,
    engine: Arc<EnginePool>,
    engine_cfg: crate::config::Engine,
    time: TimeSource,
    /// Who the bot itself is on the platforms in use: a challenge to one
    /// of them is a game against the engine.
    bots: Arc<RwLock<Vec<Player>>>,
    /// How commands are written on each platform (see [`CommandStyle`]).
    styles: Arc<RwLock<std::collections::HashMap<String, CommandStyle>>>,
    /// When handled event ids were last pruned (seconds since the epoch).
    pruned_at: Arc<std::sync::atomic::AtomicI64>,
    /// Games whose engine search runs in this process.
    searching: Arc<std::sync::Mutex<std::collections::HashSet<i64>>>,
    /// Who this process is when it claims an engine turn in the database.
    claimant: Arc<str>,
    /// Whether engine turns left unqueued by an older version were queued.
    engine_backfilled: Arc<std::sync::atomic::AtomicBool>,
    /// What this process reports about itself (see [`Core::health`]).
    status: Arc<std::sync::Mutex<health::Status>>,
}

/// How long a handled event's id is kept to recognise a redelivery: far
/// longer than any platform redelivers (Discord resumes within minutes, a
/// Matrix sync token is days old at most after downtime).
const KEEP_EVENT_IDS_SECS: i64 = 30 * 24 * 3600;
/// How often the tick prunes them.
const PRUNE_EVERY_SECS: i64 = 3600;

/// Why an adapter could not post a notice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// It may work later (a network error, a server error, a rate limit):
    /// tried again after `retry_after` if the platform said, else after a
    /// wait that doubles with each failure.
    Temporary { retry_after: Option<Duration> },
    /// It will not work until something changes: no permission to post, an
    /// unknown channel, not in the room. After [`PARK_AFTER`] such answers
    /// the notice waits until the bot is seen in that channel again.
    Permanent,
}

/// Permanent refusals before a notice is parked.
pub const PARK_AFTER: i64 = 3;

/// How long a notice taken by [`Core::tick`] is the taking process's alone:
/// longer than any post takes (a board upload included), short enough that
/// a notice held by a process that died goes out soon after.
pub const NOTICE_LEASE_MS: i64 = 60_000;

/// Notices taken by one call of [`Core::tick`] at most (the rest wait for
/// the next one).
const NOTICES_PER_TICK: i64 = 100;
/// The first wait before a retry, doubled each time up to [`MAX_RETRY_WAIT`].
const FIRST_RETRY_WAIT: Duration = Duration::from_secs(2);
const MAX_RETRY_WAIT: Duration = Duration::from_secs(3600);

/// The wait before attempt `attempts + 1`.
fn retry_wait(attempts: i64) -> Duration {
    let doublings = (attempts - 1).clamp(0, 20) as u32;
    FIRST_RETRY_WAIT
        .saturating_mul(1 << doublings)
        .min(MAX_RETRY_WAIT)
}

/// Why a command did nothing.
enum Failure {
    /// The player's mistake or a refusal; the words for the reply.
    User(String),
    /// No command at all (text that is neither a command word nor a move).
    Unknown(String),
    Db(sqlx::Error),
}

impl From<sqlx::Error> for Failure {
    fn from(e: sqlx::Error) -> Self {
        Failure::Db(e)
    }
}

fn refuse<T>(msg: impl Into<String>) -> Result<T, Failure> {
    Err(Failure::User(msg.into()))
}

/// A board to draw after the transaction.
struct Picture {
    pos: Position,
    opts: RenderOptions,
    alt: String,
    board: Option<BoardCard>,
    /// The game and ply it shows, when it is a game's board (a retried
    /// answer draws it again from the stored game).
    at: Option<(i64, i64)>,
}

struct Done {
    text: Text,
    picture: Option<Picture>,
    notify: Vec<Player>,
    actions: Vec<Action>,
    /// The bot moves next in this game (answered after the commit).
    engine: Option<i64>,
    /// The outbox entries the reply delivers.
    deliveries: Vec<i64>,
    /// A direct conversation for the adapter to open.
    direct: Option<Direct>,
    /// A thread for the game that begins (see [`Reply::thread`]).
    thread: Option<GameThread>,
}

impl Done {
    /// Words and a board, nobody to notify, nothing to ask.
    fn board(text: impl Into<Text>, picture: Picture) -> Done {
        Done {
            picture: Some(picture),
            ..Done::text(text)
        }
    }

    fn text(text: impl Into<Text>) -> Done {
        Done {
            text: text.into(),
            picture: None,
            notify: Vec::new(),
            actions: Vec::new(),
            engine: None,
            deliveries: Vec::new(),
            direct: None,
            thread: None,
        }
    }
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
        }
    }
}

/// Where the core reads the time for clocks: the system clock, or one a
/// test moves by hand.
#[derive(Clone)]
pub struct TimeSource(Arc<dyn Fn() -> i64 + Send + Sync>);

impl TimeSource {
    pub fn system() -> TimeSource {
        TimeSource(Arc::new(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_millis() as i64)
                .unwrap_or(0)
        }))
    }

    /// A clock that reads `millis` (tests move it by hand).
    pub fn manual(millis: Arc<std::sync::atomic::AtomicI64>) -> TimeSource {
        TimeSource(Arc::new(move || {
            millis.load(std::sync::atomic::Ordering::SeqCst)
        }))
    }

    pub fn now_ms(&self) -> i64 {
        (self.0)()
    }
}

const HEARTBEAT_KEY: &str = "core.heartbeat_ms";

impl Core {
    /// Opens the database named in `cfg` (migrating it) and prepares the core.
    pub async fn open(cfg: impl Into<CoreConfig>) -> anyhow::Result<Core> {
        Core::open_with_time(cfg, TimeSource::system()).await
    }

    /// Like [`Core::open`], reading clock time from `time`. Time that passed
    /// since the core last saw the clock (a restart) is not charged to any
    /// player: running clocks restart now.
    pub async fn open_with_time(
        cfg: impl Into<CoreConfig>,
        time: TimeSource,
    ) -> anyhow::Result<Core> {
        Core::assemble(&cfg.into(), time).await?.restarted().await
    }

    /// A core that only looks (`voidmate health`, `check-db`, `migrate-db`):
    /// unlike [`Core::open`] it does none of a starting bot's bookkeeping
    /// (crediting clocks for the downtime, releasing a last run's claims),
    /// which would disturb the processes that run on the same database.
    pub async fn inspect(cfg: impl Into<CoreConfig>) -> anyhow::Result<Core> {
        Core::assemble(&cfg.into(), TimeSource::system()).await
    }

    async fn assemble(cfg: &CoreConfig, time: TimeSource) -> anyhow::Result<Core> {
        let store = Store::open_config(&cfg.database).await.map_err(|e| {
            anyhow::anyhow!("cannot open the database {}: {e}", cfg.database.describe())
        })?;
        Ok(Core {
            store,
            settings: CoreSettings::from_config(cfg)?,
            engine: EnginePool::new(cfg.engine.threads, cfg.engine.hash_mb),
            engine_cfg: cfg.engine.clone(),
            bots: Arc::default(),
            styles: Arc::default(),
            pruned_at: Arc::default(),
            searching: Arc::default(),
            claimant: engine_turns::claimant().into(),
            engine_backfilled: Arc::default(),
            status: Arc::default(),
            time,
        })
    }

    /// Credits the time since the last heartbeat to every running clock.
    async fn restarted(self) -> anyhow::Result<Core> {
        let now = self.time.now_ms();
        let pool = self.store.pool().clone();
        if let Some(last) = store::adapter_value(&pool, HEARTBEAT_KEY)
            .await?
            .and_then(|v| v.parse::<i64>().ok())
        {
            if now > last {
                let mut tx = self.store.begin().await?;
                store::shift_clocks(&mut tx, now - last).await?;
                tx.commit().await?;
            }
        }
        store::set_adapter_value(&pool, HEARTBEAT_KEY, &now.to_string()).await?;
        // Answers the last run wrote but never confirmed as posted: nobody
        // is posting them now, so they are due at once. Not on PostgreSQL,
        // where other processes may be posting theirs right now: there
        // they go out when their grace ends.
        let owed = match self.store.backend() {
            store::Backend::Sqlite => {
                // Likewise the last run's searches died with it, and its
                // report is not of a process that is silent now.
                store::release_engine_claims(&pool).await?;
                store::forget_processes(&pool).await?;
                store::release_waiting_replies(&pool, now).await?
            }
            store::Backend::Postgres => 0,
        };
        if owed > 0 {
            tracing::info!(
                answers = owed,
                "posting answers the last run may not have posted"
            );
        }
        // Deadlines set before reminder times were stored get theirs.
        for (id, at, time_control) in store::deadlines_without_reminder(&pool).await? {
            if let Some(d) = self.deadline_from(&time_control, 0) {
                store::set_reminder(&pool, id, at - (d.at - d.remind_at)).await?;
            }
        }
        Ok(self)
    }

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
        tx.commit().await?;
        let mut bots = self.bots.write().expect("not poisoned");
        bots.retain(|b| b.id != bot.id);
        bots.push(bot);
        Ok(())
    }

    /// Tells the core how commands are written on a platform, so that its
    /// hints say what works there (`!vm accept`, a ✅ on the message).
    pub fn set_command_style(&self, platform: &str, style: CommandStyle) {
        let mut styles = self.styles.write().expect("not poisoned");
        styles.insert(platform.to_string(), style);
    }

    /// How to answer a question on `platform`: "`accept` or `decline`",
    /// with the platform's prefix and reactions where it has them.
    pub(super) fn how_to_answer(&self, platform: &str, yes: &str, no: &str) -> String {
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
    pub(super) fn platforms(&self) -> Vec<String> {
        let styles = self.styles.read().expect("not poisoned");
        let mut platforms: Vec<String> = styles.keys().cloned().collect();
        platforms.sort();
        platforms
    }

    /// How commands are written on `platform` ([`Core::set_command_style`]).
    pub(super) fn command_style(&self, platform: &str) -> CommandStyle {
        let styles = self.styles.read().expect("not poisoned");
        styles.get(platform).cloned().unwrap_or_default()
    }

    pub fn store(&self) -> &Store {
        &self.store
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(n: u64, who: &str, text: &str, addressed: bool) -> Incoming {
        let mut ev = Incoming::line(
            format!("ev-{n}"),
            "room",
            Player::new(PlayerId::new("test", who), who),
            text,
            addressed,
        );
        ev.mentions = crate::contract::handles(text, "test");
        ev
    }

    /// A core on an in-memory database, as handler tests use it.
    async fn memory_core() -> Core {
        let mut cfg = CoreConfig::default();
        cfg.database.path = store::IN_MEMORY.into();
        Core::open(&cfg).await.unwrap()
    }

    async fn say(core: &Core, n: u64, who: &str, text: &str) -> Reply {
        let r = core.handle(&event(n, who, text, true)).await.unwrap();
        for entry in &r.deliveries {
            core.delivered(*entry).await;
        }
        r
    }

    /// The handlers on an in-memory database: a game from challenge to
    /// resignation, nothing written to disk.
    #[tokio::test]
    async fn handlers_run_on_an_in_memory_database() {
        let core = memory_core().await;
        assert!(
            !say(&core, 1, "alice", "challenge @bob standard")
                .await
                .is_error
        );
        let r = say(&core, 2, "bob", "accept").await;
        assert!(r.text.starts_with("Game #1 begins"), "{}", r.text);
        let r = say(&core, 3, "alice", "e4").await;
        assert_eq!(r.text, "#1: alice played e4. bob, your move.");
        let r = say(&core, 4, "alice", "e5").await;
        assert!(
            r.is_error && r.text.contains("bob is to move"),
            "{}",
            r.text
        );
        let r = say(&core, 5, "bob", "resign").await;
        assert_eq!(r.text, "bob resigns game #1. alice wins (1-0).");
        // A redelivered event is recognised in memory too.
        assert!(core
            .handle(&event(5, "bob", "resign", true))
            .await
            .is_none());
        let games: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games")
            .fetch_one(core.store().pool())
            .await
            .unwrap();
        assert_eq!(games, 1);
    }

    /// Chatter is never answered, however long; the same text said to the
    /// bot is refused as too long.
    #[tokio::test]
    async fn long_chatter_gets_no_answer() {
        let core = memory_core().await;
        let long = "lunch anyone? ".repeat(60);
        assert!(core
            .handle(&event(1, "alice", &long, false))
            .await
            .is_none());
        let r = core.handle(&event(2, "alice", &long, true)).await.unwrap();
        assert!(r.is_error && r.text.contains("too long"), "{}", r.text);
    }

    /// Games in threads (issue 19, point 8): asked for by the challenge or,
    /// when it says nothing, by the channel's setting; only where the
    /// platform has threads. Once the adapter has moved the game to its
    /// thread, moves there need no number and the channel has no game.
    #[tokio::test]
    async fn a_game_may_get_a_thread_of_its_own() {
        let core = memory_core().await;
        // A platform without threads refuses the option and the setting.
        let r = say(&core, 1, "alice", "challenge @bob standard thread").await;
        assert!(r.is_error && r.text.contains("for Discord"), "{}", r.text);
        let r = say(&core, 2, "alice", "settings threads on").await;
        assert!(r.is_error, "{}", r.text);

        core.set_command_style(
            "test",
            CommandStyle {
                threads: true,
                ..CommandStyle::default()
            },
        );
        let r = say(&core, 3, "alice", "challenge @bob standard thread").await;
        assert!(r.text.contains("in a thread of its own"), "{}", r.text);
        let r = core.handle(&event(4, "bob", "accept", true)).await.unwrap();
        let thread = r.thread.clone().expect("a thread for the game");
        assert_eq!(thread.game, 1);
        assert_eq!(thread.name, "#1 alice vs bob · Standard chess");
        // The adapter opened it: the game and its first answer move there.
        assert!(core
            .move_game(1, "room", "thread-1", &r.deliveries)
            .await
            .unwrap());
        let owed: Vec<String> = sqlx::query_scalar("SELECT channel FROM outbox")
            .fetch_all(core.store().pool())
            .await
            .unwrap();
        assert_eq!(owed, vec!["thread-1".to_string()]);
        for entry in &r.deliveries {
            core.delivered(*entry).await;
        }
        let mut moved = event(5, "alice", "e4", true);
        moved.channel = "thread-1".into();
        let r = core.handle(&moved).await.unwrap();
        assert_eq!(r.text, "#1: alice played e4. bob, your move.");
        let r = say(&core, 6, "bob", "e5").await;
        assert!(r.is_error, "the game is still in the channel: {}", r.text);
        // A second move of the same game elsewhere does nothing.
        assert!(!core.move_game(1, "room", "thread-2", &[]).await.unwrap());

        // Without the option, the channel's setting decides; `no-thread`
        // overrides it.
        let r = say(&core, 7, "carol", "settings threads on").await;
        assert!(r.text.contains("own thread on"), "{}", r.text);
        say(&core, 8, "carol", "challenge @dave standard").await;
        let r = say(&core, 9, "dave", "accept").await;
        assert!(r.thread.is_some(), "{}", r.text);
        say(&core, 10, "erin", "challenge @frank standard no-thread").await;
        let r = say(&core, 11, "frank", "accept").await;
        assert!(r.thread.is_none(), "{}", r.text);
    }

    /// `dm` asks the adapter to open a direct conversation with the author,
    /// greeting them there; in one already, it says so and opens nothing.
    #[tokio::test]
    async fn dm_opens_a_direct_conversation_with_the_author() {
        let core = memory_core().await;
        let r = say(&core, 1, "alice", "dm").await;
        let direct = r.direct.expect("a conversation to open");
        assert_eq!(direct.with.id, PlayerId::new("test", "alice"));
        assert!(direct.greeting.to_string().contains("program #N"));
        assert_eq!(direct.greeting.mentioned().count(), 1);
        assert!(r.text.to_string().contains("direct conversation"));
        let mut private = event(2, "alice", "dm", true);
        private.private = true;
        let r = core.handle(&private).await.unwrap();
        assert!(r.direct.is_none() && r.text.contains("privately already"));
    }

    /// An edit of a refused command is handled as the new command; an edit
    /// of one acted on leaves what was done and says so once.
    #[tokio::test]
    async fn edits_run_once_and_never_undo_what_was_done() {
        let core = memory_core().await;
        say(&core, 1, "alice", "challenge @bob standard").await;
        say(&core, 2, "bob", "accept").await;
        let r = say(&core, 3, "alice", "Ke2").await;
        assert!(r.is_error, "{}", r.text);
        let r = core
            .handle_edit(&event(4, "alice", "e4", true), "ev-3")
            .await
            .unwrap();
        assert_eq!(r.text, "#1: alice played e4. bob, your move.");
        say(&core, 5, "bob", "e5").await;
        let r = core
            .handle_edit(&event(6, "bob", "d5", true), "ev-5")
            .await
            .unwrap();
        assert!(r.is_error && r.text.contains("stands"), "{}", r.text);
        // Told once: a redelivered edit says nothing.
        assert!(core
            .handle_edit(&event(6, "bob", "d5", true), "ev-5")
            .await
            .is_none());
        let r = say(&core, 7, "alice", "board").await;
        assert!(r.text.contains("alice to move"), "{}", r.text);
        // An edit that arrives before its original: the original never runs.
        let r = core
            .handle_edit(&event(9, "alice", "Nf3", true), "ev-8")
            .await
            .unwrap();
        assert!(r.text.contains("played Nf3"), "{}", r.text);
        assert!(core.handle(&event(8, "alice", "d4", true)).await.is_none());
    }

    /// A name the adapter found for several people is not guessed at.
    #[tokio::test]
    async fn a_name_that_fits_several_people_is_asked_about() {
        let core = memory_core().await;
        let mut ev = event(1, "alice", "challenge @bob void", true);
        let bob = |id: &str, name: &str| crate::contract::Mentioned {
            written: "@bob".into(),
            who: Player::new(PlayerId::new("test", id), name),
        };
        ev.mentions = vec![bob("@bob:a.org", "Bob Smith"), bob("@bob:b.org", "Bob")];
        let r = core.handle(&ev).await.unwrap();
        assert_eq!(
            r.text,
            "`@bob` could be Bob Smith (@bob:a.org) or Bob (@bob:b.org). Mention the one you mean (type @ and pick them), or write their full id."
        );
        ev.event_id = "ev-2".into();
        ev.mentions.truncate(1);
        let r = core.handle(&ev).await.unwrap();
        assert!(
            r.text.contains("Bob Smith, alice challenges you"),
            "{}",
            r.text
        );
    }

    /// A resignation and an agreed draw end with the final board, and the
    /// other player hears of it.
    #[tokio::test]
    async fn resignations_and_agreed_draws_show_the_final_board_and_notify() {
        let core = memory_core().await;
        say(&core, 1, "alice", "challenge @bob standard").await;
        say(&core, 2, "bob", "accept").await;
        let r = say(&core, 3, "alice", "resign").await;
        assert_eq!(r.text, "alice resigns game #1. bob wins (0-1).");
        let names: Vec<&str> = r.notify.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["bob"]);
        let image = r.image.expect("the final board");
        assert!(image.alt.contains("final position"), "{}", image.alt);
        say(&core, 4, "alice", "challenge @bob standard").await;
        say(&core, 5, "bob", "accept").await;
        say(&core, 6, "bob", "draw").await;
        let r = say(&core, 7, "alice", "draw accept").await;
        assert!(r.text.contains("drawn by agreement"), "{}", r.text);
        let names: Vec<&str> = r.notify.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["bob"]);
        assert!(r.image.is_some(), "the final board");
    }

    /// Two in-memory cores share nothing.
    #[tokio::test]
    async fn in_memory_databases_are_apart() {
        let (a, b) = (memory_core().await, memory_core().await);
        say(&a, 1, "alice", "challenge @bob void").await;
        let r = say(&b, 1, "bob", "accept").await;
        assert!(r.is_error, "{}", r.text);
    }

    /// A panic inside one event is answered with an apology, the event is
    /// not handled again when redelivered, and the next events work.
    /// Log lines written while the guard lives, for the test to read.
    #[derive(Clone, Default)]
    struct Captured(Arc<std::sync::Mutex<Vec<u8>>>);

    impl std::io::Write for Captured {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[tokio::test]
    async fn a_panic_in_one_event_leaves_the_bot_running() {
        let logs = Captured::default();
        let writer = logs.clone();
        let _logging = tracing::subscriber::set_default(
            tracing_subscriber::fmt()
                .with_writer(move || writer.clone())
                .with_ansi(false)
                .finish(),
        );
        let dir = tempfile::tempdir().unwrap();
        let mut cfg = CoreConfig::default();
        cfg.database.path = dir.path().join("v.db");
        let core = Core::open(&cfg).await.unwrap();
        let r = core
            .handle(&event(1, "alice", "challenge @bob void", true))
            .await;
        assert!(!r.unwrap().is_error);
        // Poison the lock that every challenge reads (the bot's own names):
        // the next challenge panics inside the core.
        let names = core.bots.clone();
        let _ = std::thread::spawn(move || {
            let _guard = names.write().unwrap();
            panic!("poisoning the lock for the test");
        })
        .join();
        let failed = event(2, "carol", "challenge @dave void", true);
        let r = core.handle(&failed).await.expect("an apology");
        assert!(r.is_error);
        assert_eq!(r.text.as_str(), isolate::APOLOGY);
        let logged = String::from_utf8(logs.0.lock().unwrap().clone()).unwrap();
        assert!(
            logged.contains("ERROR")
                && logged.contains("handling an event panicked")
                && logged.contains("event=ev-2")
                && logged.contains("channel=room")
                && logged.contains("author=test:carol"),
            "{logged}"
        );
        // Redelivered: already seen, not tried (nor apologised for) again.
        assert!(core.handle(&failed).await.is_none());
        // Unaddressed chatter that fails gets no answer at all.
        assert!(core
            .handle(&event(3, "carol", "challenge @dave void", false))
            .await
            .is_none());
        // The process goes on: what does not touch the broken part works.
        let r = core.handle(&event(6, "erin", "help", true)).await.unwrap();
        assert!(!r.is_error, "{}", r.text);
        // Once that part is sound again, play resumes where it was.
        core.bots.clear_poison();
        let r = core.handle(&event(4, "bob", "accept", true)).await.unwrap();
        assert!(r.text.starts_with("Game #1"), "{}", r.text);
        let r = core.handle(&event(5, "alice", "e4", true)).await.unwrap();
        assert!(!r.is_error, "{}", r.text);
    }
}
