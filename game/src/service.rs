//! Handling one event: read the command, act on the stored games in one
//! transaction, then draw the board (off the async workers).

use super::command::{self, Answer, ColorChoice, Command, GameRef, ProgramMode, TimeControl};
use super::engine::EnginePool;
use super::help;
use super::isolate;
use super::store::{self, GameRow, MoveRow, Request, Settings, Store, Tx};
use crate::config::CoreConfig;
use std::fmt::Write as _;
use std::sync::{Arc, RwLock};
use std::time::Duration;
use voidmate_engine::Level;
use voidmate_render::{Caption, PieceColour, RenderOptions, Renderer, Theme};
use voidmate_rules::{
    variants, Color, DrawReason, GameKind, MoveErrorKind, Outcome, Position, Program, Square,
};

/// A message that reached the bot.
#[derive(Debug, Clone)]
pub struct Incoming {
    /// The platform's id for this event; a second delivery is ignored.
    pub event_id: String,
    /// Room or channel id; games live in a channel.
    pub channel: String,
    /// Who wrote it (the platform's user id).
    pub author: String,
    pub text: String,
    /// Whether the message was addressed to the bot (a command prefix, a
    /// mention, a reply, a slash command). An unaddressed message is only
    /// taken as a bare move; anything else in it is none of our business.
    pub addressed: bool,
    /// Whether only the author and the bot can read it (a direct message,
    /// a Discord command answered privately). Super Chess programs in
    /// private mode may only be sent so.
    pub private: bool,
}

/// A PNG to post with a reply.
#[derive(Debug, Clone)]
pub struct Image {
    pub png: Vec<u8>,
    /// A description for screen readers and platforms that need a body text.
    pub alt: String,
    /// The game it shows, for platforms that lay out a card beside the
    /// picture (a Discord embed). `None` for rules diagrams.
    pub board: Option<BoardCard>,
}

/// The facts about a game that a board image shows, as data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardCard {
    pub game: i64,
    /// The variant's title: "Void Chess".
    pub variant: String,
    pub white: String,
    pub black: String,
    /// Whose move it is; `None` once the game is over.
    pub to_move: Option<String>,
    /// The last move in SAN.
    pub last_move: Option<String>,
    /// "1-0 (checkmate)" once the game is over.
    pub result: Option<String>,
    pub time_control: String,
}

/// A question in a reply that one user may answer with a button or a
/// reaction (the adapter decides how to show it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// `to` may accept or decline `challenger`'s challenge.
    AnswerChallenge { challenger: String, to: String },
    /// `to` may accept or decline a draw offer in `game`.
    AnswerDraw { game: i64, to: String },
    /// `to` may accept or decline a takeback request in `game`.
    AnswerUndo { game: i64, to: String },
}

impl Action {
    /// The only user who may answer.
    pub fn who(&self) -> &str {
        match self {
            Action::AnswerChallenge { to, .. }
            | Action::AnswerDraw { to, .. }
            | Action::AnswerUndo { to, .. } => to,
        }
    }

    /// The command that answers it, yes or no.
    pub fn answer(&self, accepted: bool) -> String {
        let word = if accepted { "accept" } else { "decline" };
        match self {
            Action::AnswerChallenge { challenger, .. } => format!("{word} @{challenger}"),
            Action::AnswerDraw { game, .. } => format!("draw {word} #{game}"),
            Action::AnswerUndo { game, .. } => format!("undo {word} #{game}"),
        }
    }
}

/// Something the bot owes a channel unprompted (see [`Core::tick`]).
#[derive(Debug, Clone)]
pub struct Notice {
    pub id: i64,
    pub channel: String,
    pub reply: Reply,
}

/// What the bot says back.
#[derive(Debug, Clone)]
pub struct Reply {
    pub text: String,
    pub image: Option<Image>,
    /// Users the adapter should notify (the player to move, a challenged player).
    pub mentions: Vec<String>,
    /// Questions someone may answer with a button or a reaction.
    pub actions: Vec<Action>,
    /// `true` when the reply reports a refusal or error (adapters may show it
    /// only to the author).
    pub is_error: bool,
}

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
    /// The names the bot itself goes by on the platforms in use: a
    /// challenge to one of them is a game against the engine.
    bot_names: Arc<RwLock<Vec<String>>>,
    /// When handled event ids were last pruned (seconds since the epoch).
    pruned_at: Arc<std::sync::atomic::AtomicI64>,
    /// Games whose engine search runs in this process.
    searching: Arc<std::sync::Mutex<std::collections::HashSet<i64>>>,
}

/// The claim on a game's engine search: while it lives no other search of
/// that game starts in this process; dropped (also when the work holding
/// it is cancelled), the game may be searched again.
struct Search {
    game: i64,
    registry: Arc<std::sync::Mutex<std::collections::HashSet<i64>>>,
}

impl Drop for Search {
    fn drop(&mut self) {
        self.registry
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&self.game);
    }
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
}

struct Done {
    text: String,
    picture: Option<Picture>,
    mentions: Vec<String>,
    actions: Vec<Action>,
    /// The bot moves next in this game (answered after the commit).
    engine: Option<i64>,
}

impl Done {
    fn text(text: impl Into<String>) -> Done {
        Done {
            text: text.into(),
            picture: None,
            mentions: Vec::new(),
            actions: Vec::new(),
            engine: None,
        }
    }
}

/// A stored game, replayed.
struct Game {
    row: GameRow,
    pos: Position,
    moves: Vec<MoveRow>,
    last: Option<(Square, Square)>,
    /// When the game was read (for clocks).
    now_ms: i64,
}

impl Game {
    fn player_color(&self, user: &str) -> Option<Color> {
        if self.row.white == user {
            Some(Color::White)
        } else if self.row.black == user {
            Some(Color::Black)
        } else {
            None
        }
    }

    fn name(&self, color: Color) -> &str {
        match color {
            Color::White => &self.row.white,
            Color::Black => &self.row.black,
        }
    }

    fn ply(&self) -> i64 {
        self.moves.len() as i64
    }

    /// Which game this is (every stored game is one of ours: `load` found
    /// its rules in the registry).
    fn kind(&self) -> GameKind {
        self.pos.rules().kind().expect("a game of the registry")
    }

    /// "White"/"Black", or Super Chess's "Player 1"/"Player 2".
    fn side(&self, color: Color) -> &'static str {
        self.kind().side_name(color)
    }

    /// A private-programs game whose programs are not all in yet: no move
    /// may be played.
    fn awaiting_programs(&self) -> Vec<&str> {
        if self.row.mode != "private" {
            return Vec::new();
        }
        let mut out = Vec::new();
        if self.row.program_white.is_none() {
            out.push(self.row.white.as_str());
        }
        if self.row.program_black.is_none() {
            out.push(self.row.black.as_str());
        }
        out
    }

    /// The players' piece colours, when either chose one or the variant
    /// has its own (Super Chess: red and blue).
    fn colours(&self) -> Option<[PieceColour; 2]> {
        let both = [self.colour_of(Color::White), self.colour_of(Color::Black)];
        (both != [PieceColour::White, PieceColour::Black]).then_some(both)
    }

    /// The colour `color`'s pieces are drawn in: chosen, or the variant's.
    fn colour_of(&self, color: Color) -> PieceColour {
        let chosen = match color {
            Color::White => &self.row.colour_white,
            Color::Black => &self.row.colour_black,
        };
        chosen
            .as_deref()
            .and_then(PieceColour::from_name)
            .unwrap_or_else(|| default_colour(self.kind(), color))
    }

    fn title(&self) -> String {
        let variant = variants::by_name(&self.row.variant)
            .map(|r| r.title())
            .unwrap_or("?");
        format!(
            "#{} {} vs {} ({variant})",
            self.row.id, self.row.white, self.row.black
        )
    }

    fn status(&self) -> String {
        if self.row.status == "finished" {
            format!(
                "{} {}",
                self.row.result.as_deref().unwrap_or("*"),
                self.row.termination.as_deref().unwrap_or("")
            )
        } else if !self.awaiting_programs().is_empty() {
            match self.awaiting_programs().as_slice() {
                [one] => format!("waiting for {one}'s program"),
                all => format!("waiting for the programs of {}", all.join(" and ")),
            }
        } else {
            match self.clocks_text() {
                Some(c) => format!("{} to move; {c}", self.name(self.pos.turn())),
                None => format!("{} to move", self.name(self.pos.turn())),
            }
        }
    }

    /// Time left per side as of now, the running clock counted down.
    fn clock_left(&self, color: Color) -> Option<i64> {
        let stored = match color {
            Color::White => self.row.white_ms?,
            Color::Black => self.row.black_ms?,
        };
        let running = match self.row.turn_started_ms {
            Some(t) if color == self.pos.turn() && self.row.status == "active" => {
                (self.now_ms - t).max(0)
            }
            _ => 0,
        };
        Some(stored - running)
    }

    /// "clocks alice 4:52, bob 5:00"
    fn clocks_text(&self) -> Option<String> {
        let w = self.clock_left(Color::White)?;
        let b = self.clock_left(Color::Black)?;
        Some(format!(
            "clocks {} {}, {} {}",
            self.row.white,
            clock_face(w),
            self.row.black,
            clock_face(b)
        ))
    }
}

/// The colour `color`'s pieces start in (Super Chess ships red and blue).
fn default_colour(kind: GameKind, color: Color) -> PieceColour {
    let name = kind.default_colours()[color.index()];
    PieceColour::from_name(name).expect("the renderer knows every default colour")
}

/// A stored program text, read again for `rules`.
fn stored_program(
    rules: &voidmate_rules::Rules,
    text: &Option<String>,
) -> Result<Program, voidmate_rules::ProgramError> {
    match text {
        None => Ok(Program::none()),
        Some(t) => Program::parse(rules, t),
    }
}

/// `4:05`, `0:09`, `1:02:03` (never negative).
fn clock_face(ms: i64) -> String {
    let s = ms.max(0) / 1000;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// When a clock counts as low: a tenth of the base time, between 10 s and 60 s.
fn low_time_ms(minutes: u32) -> i64 {
    (minutes as i64 * 6_000).clamp(10_000, 60_000)
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
        let cfg = &cfg.into();
        let store = Store::open(
            &cfg.database.path,
            Duration::from_millis(cfg.database.busy_timeout_ms),
        )
        .await
        .map_err(|e| {
            anyhow::anyhow!(
                "cannot open the database {}: {e}",
                cfg.database.path.display()
            )
        })?;
        Core {
            store,
            settings: CoreSettings::from_config(cfg)?,
            engine: EnginePool::new(cfg.engine.threads),
            engine_cfg: cfg.engine.clone(),
            bot_names: Arc::default(),
            pruned_at: Arc::default(),
            searching: Arc::default(),
            time,
        }
        .restarted()
        .await
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
        // Deadlines set before reminder times were stored get theirs.
        for (id, at, time_control) in store::deadlines_without_reminder(&pool).await? {
            if let Some(d) = self.deadline_from(&time_control, 0) {
                store::set_reminder(&pool, id, at - (d.at - d.remind_at)).await?;
            }
        }
        Ok(self)
    }

    /// Adapters say what the bot is called where they connect; challenging
    /// that name starts a game against the engine.
    pub fn add_bot_name(&self, name: &str) {
        let name = name.trim_start_matches('@').to_string();
        let mut names = self.bot_names.write().expect("not poisoned");
        if !names.contains(&name) {
            names.push(name);
        }
    }

    /// Claims game `id`'s engine search; `None` if one already runs here.
    fn claim_search(&self, id: i64) -> Option<Search> {
        let mut running = self.searching.lock().unwrap_or_else(|e| e.into_inner());
        running.insert(id).then(|| Search {
            game: id,
            registry: self.searching.clone(),
        })
    }

    /// Starts the engine's search in every active game where the bot is to
    /// move and no search runs: after a restart (or a search cut short) no
    /// game waits for ever on a move that nobody is thinking about. Each
    /// move is announced through the outbox, committed with the move.
    async fn resume_engine_turns(&self) {
        let games = match store::engine_games(self.store.pool()).await {
            Ok(games) => games,
            Err(e) => {
                tracing::warn!("cannot list the engine's games: {e}");
                return;
            }
        };
        for (id, channel) in games {
            let Some(claim) = self.claim_search(id) else {
                continue;
            };
            if !self.bot_to_move(&channel, id).await {
                continue;
            }
            tracing::info!(game = id, %channel, "starting the engine's turn");
            let core = self.clone();
            tokio::spawn(async move {
                let _claim = claim;
                match core.engine_turn(&channel, id, true).await {
                    Ok(_) => {}
                    Err(Failure::User(why)) | Err(Failure::Unknown(why)) => {
                        tracing::warn!(game = id, %channel, "engine move failed: {why}");
                    }
                    Err(Failure::Db(e)) => {
                        tracing::error!(game = id, %channel, "engine move failed: {e}");
                    }
                }
            });
        }
    }

    /// Whether the bot is to move in game `id` (read without the write lock).
    async fn bot_to_move(&self, channel: &str, id: i64) -> bool {
        let Ok(mut read) = self.store.pool().begin().await else {
            return false;
        };
        let Ok(Some(row)) = store::game(&mut read, channel, id).await else {
            return false;
        };
        // A private game waiting for programs has none stored yet.
        let waiting =
            row.mode == "private" && (row.program_white.is_none() || row.program_black.is_none());
        let Ok(pos) = Self::stored_position(&row) else {
            return false;
        };
        let mover = match pos.turn() {
            Color::White => &row.white,
            Color::Black => &row.black,
        };
        row.status == "active" && !waiting && self.is_bot(mover)
    }

    fn is_bot(&self, name: &str) -> bool {
        self.bot_names
            .read()
            .expect("not poisoned")
            .iter()
            .any(|n| n == name.trim_start_matches('@'))
    }

    /// The engine's move in game `id`, played in a transaction of its own
    /// after the search (which holds no lock on the database). With
    /// `announce`, the move's message and board go to the outbox in that
    /// same transaction (no reply is waiting for them).
    async fn engine_turn(&self, ch: &str, id: i64, announce: bool) -> Result<Done, Failure> {
        // Read without the write lock: the search must not hold anyone up.
        let mut read = self.store.pool().begin().await?;
        let Some(row) = store::game(&mut read, ch, id).await? else {
            return refuse(format!("game #{id} is gone"));
        };
        let g = self.load(&mut read, row).await?;
        drop(read);
        let bot = g.name(g.pos.turn()).to_string();
        if g.row.status != "active" || !self.is_bot(&bot) {
            return refuse("it is not my move");
        }
        let level = g
            .row
            .engine_level
            .and_then(|l| Level::new(l as u8))
            .unwrap_or(Level::MAX);
        let time = match TimeControl::parse(&g.row.time_control) {
            Some(TimeControl::Days(_)) => self.engine_cfg.correspondence_move_time_ms,
            // On a clock: a thirtieth of what is left plus the increment,
            // never more than the usual time.
            Some(TimeControl::Clock { increment, .. }) => {
                let left = g.clock_left(g.pos.turn()).unwrap_or(0).max(0) as u64;
                (left / 30 + increment as u64 * 500).min(self.engine_cfg.move_time_ms)
            }
            _ => self.engine_cfg.move_time_ms,
        };
        let Some(mv) = self
            .engine
            .best_move(g.pos.clone(), level, Duration::from_millis(time))
            .await
        else {
            return refuse("I could not find a move");
        };
        let coordinate = g.pos.coordinate(&mv);
        let mut tx = self.store.begin().await?;
        let Some(row) = store::game(&mut tx, ch, id).await? else {
            return refuse(format!("game #{id} is gone"));
        };
        let g = self.load(&mut tx, row).await?;
        let ply = g.moves.len() as i64 + 1;
        let done = self.play(&mut tx, ch, &bot, g, &coordinate).await?;
        if announce {
            store::queue_board_notice(&mut tx, ch, &done.text, &done.mentions, id, ply).await?;
        }
        tx.commit().await?;
        Ok(done)
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Handles one event. `None` when the event was handled before (a
    /// redelivery): nothing is said twice and nothing happens twice.
    ///
    /// A panic while handling it is caught here ([`isolate`]): logged with
    /// the event, answered with an apology when the bot was addressed, and
    /// the event is remembered so that a redelivery does not fail again.
    /// The process and every other channel go on.
    pub async fn handle(&self, ev: &Incoming) -> Option<Reply> {
        match isolate::isolated(Box::pin(self.handle_event(ev))).await {
            Ok(reply) => reply,
            Err(why) => {
                tracing::error!(
                    event = %ev.event_id,
                    channel = %ev.channel,
                    author = %ev.author,
                    text = ?ev.text,
                    "handling an event panicked: {why}"
                );
                if let Err(e) = self.remember_only(&ev.event_id).await {
                    tracing::warn!(event = %ev.event_id, "cannot remember the failed event: {e}");
                }
                ev.addressed
                    .then(|| error_reply(isolate::APOLOGY.to_string()))
            }
        }
    }

    async fn handle_event(&self, ev: &Incoming) -> Option<Reply> {
        let chars = ev.text.chars().count();
        if chars > self.settings.max_message_chars {
            return Some(error_reply(format!(
                "That message is too long for me ({chars} characters; commands are at most {}).",
                self.settings.max_message_chars
            )));
        }
        let parsed = command::parse(&ev.text);
        if !ev.addressed && !matches!(parsed, Ok(Command::Bare { .. })) {
            return None;
        }
        if let Ok(cmd) = &parsed {
            if cmd.is_read_only() {
                // Boxed: the command's state machine is large, and one copy
                // of it inline per path would crowd a small stack.
                return Box::pin(self.read(ev, cmd.clone())).await;
            }
        }
        // One wait for the write lock at most: everything this event
        // writes, the heartbeat included, is in this one transaction.
        let mut tx = match self.store.begin().await {
            Ok(tx) => tx,
            Err(e) => return Some(db_failure(e)),
        };
        match store::record_event(&mut tx, &ev.event_id).await {
            Ok(true) => {}
            Ok(false) => return None,
            Err(e) => return Some(db_failure(e)),
        }
        // Adapters without a ticker (the console) still mark the time here.
        let now = self.time.now_ms().to_string();
        if let Err(e) = store::set_adapter_value(&mut *tx, HEARTBEAT_KEY, &now).await {
            return Some(db_failure(e));
        }
        // The bot is evidently in this channel: what waited for that goes.
        if let Err(e) = store::unpark_channel(&mut *tx, &ev.channel).await {
            return Some(db_failure(e));
        }
        // Boxed: a command's state machine is large, and the future of an
        // event must stay small enough for any worker's stack.
        let result = match parsed {
            Ok(cmd) => Box::pin(self.execute(&mut tx, ev, cmd)).await,
            Err(e) => Err(Failure::User(e.0)),
        };
        match result {
            Ok(mut done) => {
                // Claimed before the commit, so that no tick starts a second
                // search of this game in between; released when this reply
                // is done or dropped.
                let claim = done.engine.take().and_then(|id| self.claim_search(id));
                if let Err(e) = tx.commit().await {
                    return Some(db_failure(e));
                }
                if let Some(id) = claim.as_ref().map(|c| c.game) {
                    // The bot's answer comes in the same reply.
                    match Box::pin(self.engine_turn(ev.channel.as_str(), id, false)).await {
                        Ok(reply) => {
                            let answer = reply
                                .text
                                .split_once(": ")
                                .map(|(_, rest)| rest.to_string())
                                .unwrap_or(reply.text);
                            done.text = format!("{} {answer}", done.text);
                            done.picture = reply.picture.or(done.picture);
                            done.mentions = reply.mentions;
                        }
                        Err(Failure::User(why)) | Err(Failure::Unknown(why)) => {
                            tracing::warn!(game = id, channel = %ev.channel, "engine move failed: {why}");
                        }
                        Err(Failure::Db(e)) => {
                            tracing::error!(game = id, channel = %ev.channel, "engine move failed: {e}");
                        }
                    }
                }
                Some(finish_reply(done).await)
            }
            Err(Failure::User(msg)) => {
                // Nothing may change but the record that this event was seen.
                drop(tx);
                if let Err(e) = self.remember_only(&ev.event_id).await {
                    return Some(db_failure(e));
                }
                Some(error_reply(msg))
            }
            Err(Failure::Unknown(_)) if !ev.addressed => None,
            Err(Failure::Unknown(word)) => {
                drop(tx);
                if let Err(e) = self.remember_only(&ev.event_id).await {
                    return Some(db_failure(e));
                }
                Some(error_reply(format!(
                    "I do not know the command `{word}`. Say `help` for the list."
                )))
            }
            Err(Failure::Db(e)) => Some(db_failure(e)),
        }
    }

    /// Notices owed to channels (deadline reminders, losses on time): the
    /// ones that fell due just now and any earlier ones not yet confirmed.
    /// Post each, then confirm it with [`Core::delivered`]; an unconfirmed
    /// notice comes back on the next call, even after a restart. Call it
    /// now and then (adapters do, every few seconds).
    pub async fn tick(&self) -> Vec<Notice> {
        match isolate::isolated(self.tick_once()).await {
            Ok(notices) => notices,
            Err(why) => {
                tracing::error!("the periodic check panicked: {why}");
                Vec::new()
            }
        }
    }

    /// Forgets old handled event ids, at most once an hour.
    async fn prune(&self) {
        use std::sync::atomic::Ordering;
        let now = store::now();
        let last = self.pruned_at.load(Ordering::Relaxed);
        if now - last < PRUNE_EVERY_SECS
            || self
                .pruned_at
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        match store::prune_events(self.store.pool(), now - KEEP_EVENT_IDS_SECS).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(pruned = n, "forgot old handled event ids"),
            Err(e) => tracing::warn!("cannot prune handled event ids: {e}"),
        }
    }

    async fn tick_once(&self) -> Vec<Notice> {
        self.prune().await;
        self.resume_engine_turns().await;
        match store::any_due(self.store.pool(), self.time.now_ms()).await {
            Ok(false) => {}
            Ok(true) => {
                if let Err(e) = self.decide_deadlines().await {
                    tracing::error!("deadline check failed: {e}");
                }
                if let Err(e) = self.decide_clocks().await {
                    tracing::error!("clock check failed: {e}");
                }
            }
            Err(e) => tracing::error!("cannot look for games that are due: {e}"),
        }
        self.heartbeat().await;
        let rows = match store::outbox(self.store.pool(), self.time.now_ms()).await {
            Ok(rows) => rows,
            Err(e) => {
                tracing::error!("cannot read the outbox: {e}");
                return Vec::new();
            }
        };
        let mut notices = Vec::with_capacity(rows.len());
        for row in rows {
            let image = match (row.board_game, row.board_ply) {
                (Some(game), Some(ply)) => self.board_after(&row.channel, game, ply).await,
                _ => None,
            };
            notices.push(Notice {
                id: row.id,
                channel: row.channel,
                reply: Reply {
                    text: row.text,
                    image,
                    mentions: row
                        .mentions
                        .split('\n')
                        .filter(|m| !m.is_empty())
                        .map(String::from)
                        .collect(),
                    actions: Vec::new(),
                    is_error: false,
                },
            });
        }
        notices
    }

    /// The board image of game `id` if it still stands after `ply` plies
    /// (a later move makes an old notice go out without a stale board).
    async fn board_after(&self, ch: &str, id: i64, ply: i64) -> Option<Image> {
        let mut read = self.store.pool().begin().await.ok()?;
        let row = store::game(&mut read, ch, id).await.ok()??;
        let g = self.load(&mut read, row).await.ok()?;
        if g.moves.len() as i64 != ply {
            return None;
        }
        let picture = self.picture(&mut read, ch, &g, "", None).await.ok()?;
        drop(read);
        finish_reply(Done {
            picture: Some(picture),
            ..Done::text("")
        })
        .await
        .image
    }

    /// A notice from [`Core::tick`] could not be posted: it comes back
    /// later, after a wait that grows with each failure, or, refused for
    /// good, is parked until the bot is seen in its channel again (logged
    /// once, when it is parked).
    pub async fn failed(&self, notice_id: i64, refusal: Refusal) {
        let now = self.time.now_ms();
        let (permanent, asked) = match refusal {
            Refusal::Temporary { retry_after } => (false, retry_after),
            Refusal::Permanent => (true, None),
        };
        let retry_at = |attempts: i64| {
            let wait = asked.unwrap_or_else(|| retry_wait(attempts));
            now.saturating_add(wait.as_millis().min(i64::MAX as u128) as i64)
        };
        match store::notice_failed(
            self.store.pool(),
            notice_id,
            PARK_AFTER,
            permanent,
            retry_at,
        )
        .await
        {
            Ok(Some((attempts, true))) => tracing::warn!(
                notice = notice_id,
                attempts,
                "a notice was refused for good; parked until I am seen in its channel again"
            ),
            Ok(Some((attempts, false))) => tracing::debug!(
                notice = notice_id,
                attempts,
                ?refusal,
                "a notice could not be posted; trying again later"
            ),
            Ok(None) => {}
            Err(e) => tracing::error!(notice = notice_id, "cannot note a failed post: {e}"),
        }
    }

    /// The bot is in `channel` (an adapter joined it, or saw it): notices
    /// parked for it are tried again.
    pub async fn seen_in(&self, channel: &str) {
        match store::unpark_channel(self.store.pool(), channel).await {
            Ok(0) => {}
            Ok(n) => {
                tracing::info!(%channel, notices = n, "back in a channel; posting what waited")
            }
            Err(e) => tracing::warn!(%channel, "cannot bring back parked notices: {e}"),
        }
    }

    /// A notice from [`Core::tick`] was posted: do not send it again.
    pub async fn delivered(&self, notice_id: i64) {
        if let Err(e) = store::delete_notice(self.store.pool(), notice_id).await {
            tracing::error!(notice = notice_id, "cannot clear a delivered notice: {e}");
        }
    }

    /// Sends reminders and ends games on time, queueing what to announce in
    /// the same transaction.
    async fn decide_deadlines(&self) -> Result<(), sqlx::Error> {
        let now_ms = self.time.now_ms();
        let now = now_ms.div_euclid(1000);
        let mut tx = self.store.begin().await?;
        // Only games whose deadline or reminder has come (see `due_ms`).
        for row in store::due_games(&mut tx, now_ms).await? {
            let Some(deadline) = row.deadline_at else {
                continue;
            };
            let Some(TimeControl::Days(days)) = TimeControl::parse(&row.time_control) else {
                continue;
            };
            let period = days as i64 * self.settings.day_seconds;
            let channel = row.channel.clone();
            let Ok(g) = self.load(&mut tx, row).await else {
                continue;
            };
            let mover = g.pos.turn();
            let (to_move, other) = (g.name(mover).to_string(), g.name(!mover).to_string());
            if now >= deadline {
                let result = if mover == Color::White { "0-1" } else { "1-0" };
                store::finish(&mut tx, g.row.id, result, "time forfeit").await?;
                store::set_deadline(&mut tx, g.row.id, None).await?;
                let text = format!(
                    "Game #{}: {to_move} did not move in time. {other} wins on time ({result}).",
                    g.row.id
                );
                store::queue_notice(&mut tx, &channel, &text, &[to_move, other]).await?;
            } else if !g.row.reminded && deadline - now <= period / 4 {
                store::mark_reminded(&mut tx, g.row.id).await?;
                let text = format!(
                    "@{to_move}, it is your move in game #{} against {other}; time runs out in {}.",
                    g.row.id,
                    human_duration(deadline - now, self.settings.day_seconds)
                );
                store::queue_notice(&mut tx, &channel, &text, &[to_move]).await?;
            }
        }
        tx.commit().await
    }

    /// Notes that the core is running now (see [`Core::open_with_time`]).
    async fn heartbeat(&self) {
        let now = self.time.now_ms().to_string();
        if let Err(e) = store::set_adapter_value(self.store.pool(), HEARTBEAT_KEY, &now).await {
            tracing::warn!("cannot note the time: {e}");
        }
    }

    /// Flags that fell and players low on time, announced through the outbox.
    async fn decide_clocks(&self) -> Result<(), sqlx::Error> {
        let mut tx = self.store.begin().await?;
        // Only games whose flag or low-time warning has come (see `due_ms`).
        for row in store::due_games(&mut tx, self.time.now_ms()).await? {
            if row.turn_started_ms.is_none() {
                continue;
            }
            let channel = row.channel.clone();
            let Some(TimeControl::Clock { minutes, .. }) = TimeControl::parse(&row.time_control)
            else {
                continue;
            };
            let Ok(g) = self.load(&mut tx, row).await else {
                continue;
            };
            let mover = g.pos.turn();
            let Some(left) = g.clock_left(mover) else {
                continue;
            };
            if left <= 0 {
                let (loser, winner) = (g.name(mover).to_string(), g.name(!mover).to_string());
                match self.flag_fell(&mut tx, g).await {
                    Ok(done) => {
                        store::queue_notice(&mut tx, &channel, &done.text, &[loser, winner]).await?
                    }
                    Err(Failure::Db(e)) => return Err(e),
                    Err(_) => {}
                }
            } else if !g.row.low_time_warned && left <= low_time_ms(minutes) {
                store::mark_low_time_warned(&mut tx, g.row.id).await?;
                let who = g.name(mover).to_string();
                let text = format!(
                    "@{who}, you have {} left on your clock in game #{}.",
                    clock_face(left),
                    g.row.id
                );
                store::queue_notice(&mut tx, &channel, &text, &[who]).await?;
            }
        }
        tx.commit().await
    }

    /// The deadline for the next move of a game with this time control,
    /// from now on the core's clock, with its reminder: when a quarter of
    /// the move's time is left.
    fn deadline(&self, time_control: &str) -> Option<store::Deadline> {
        let now = self.time.now_ms().div_euclid(1000);
        self.deadline_from(time_control, now)
    }

    fn deadline_from(&self, time_control: &str, start: i64) -> Option<store::Deadline> {
        match TimeControl::parse(time_control) {
            Some(TimeControl::Days(d)) => {
                let period = d as i64 * self.settings.day_seconds;
                Some(store::Deadline {
                    at: start + period,
                    remind_at: start + period - period / 4,
                })
            }
            _ => None,
        }
    }

    /// Legal moves, in SAN, of `author`'s game in `channel` where it is
    /// their move, keeping those that start with `typed` (ignoring case; a
    /// coordinate prefix such as `g1` works too), at most `limit`. For
    /// autocompletion: a hint only, every move is checked again when played.
    pub async fn suggest_moves(
        &self,
        channel: &str,
        author: &str,
        typed: &str,
        limit: usize,
    ) -> Vec<String> {
        isolate::isolated(self.suggestions(channel, author, typed, limit))
            .await
            .unwrap_or_else(|why| {
                tracing::error!(channel, author, typed, "move suggestions panicked: {why}");
                Vec::new()
            })
    }

    async fn suggestions(
        &self,
        channel: &str,
        author: &str,
        typed: &str,
        limit: usize,
    ) -> Vec<String> {
        let Ok(mut tx) = self.store.pool().begin().await else {
            return Vec::new();
        };
        let Ok(games) = store::active_games(&mut tx, channel).await else {
            return Vec::new();
        };
        let typed = typed.trim().to_ascii_lowercase();
        let mut out = Vec::new();
        // Every keystroke asks: read the stored position, never a replay.
        for row in games
            .into_iter()
            .filter(|g| g.white == author || g.black == author)
        {
            let Ok(pos) = Self::stored_position(&row) else {
                continue;
            };
            let mover = match pos.turn() {
                Color::White => &row.white,
                Color::Black => &row.black,
            };
            if mover != author {
                continue;
            }
            for mv in pos.legal_moves().iter() {
                let mut san = pos.san(mv);
                if !(san.to_ascii_lowercase().starts_with(&typed)
                    || pos.coordinate(mv).starts_with(&typed))
                {
                    continue;
                }
                // Until a square for the void is typed, offer the capture
                // once (`exd5@`), not once per square.
                if !typed.contains('@') {
                    if let Some(at) = san.find('@').filter(|&i| i > 0) {
                        san.truncate(at + 1);
                    }
                }
                if !out.contains(&san) {
                    out.push(san);
                }
            }
        }
        out.truncate(limit);
        out
    }

    /// A command that only reads, in a transaction that never takes the
    /// write lock (WAL readers do not wait for writers). The event is
    /// recorded afterwards, off the reply's path: if the database is busy
    /// the record waits, the answer does not.
    async fn read(&self, ev: &Incoming, cmd: Command) -> Option<Reply> {
        let mut tx = match self.store.pool().begin().await {
            Ok(tx) => tx,
            Err(e) => return Some(db_failure(e)),
        };
        match store::event_seen(&mut tx, &ev.event_id).await {
            Ok(false) => {}
            Ok(true) => return None,
            Err(e) => return Some(db_failure(e)),
        }
        let result = Box::pin(self.execute(&mut tx, ev, cmd)).await;
        drop(tx);
        let store = self.store.clone();
        let event_id = ev.event_id.clone();
        let channel = ev.channel.clone();
        let record = tokio::spawn(async move {
            let mut tx = store.begin().await?;
            store::record_event(&mut tx, &event_id).await?;
            store::unpark_channel(&mut *tx, &channel).await?;
            tx.commit().await
        });
        // Usually done at once; a redelivery right behind it is then
        // recognised. Under a held lock it goes on by itself.
        let _ = tokio::time::timeout(Duration::from_millis(50), record).await;
        Some(match result {
            Ok(done) => finish_reply(done).await,
            Err(Failure::User(msg)) | Err(Failure::Unknown(msg)) => error_reply(msg),
            Err(Failure::Db(e)) => db_failure(e),
        })
    }

    async fn remember_only(&self, event_id: &str) -> Result<(), sqlx::Error> {
        let mut tx = self.store.begin().await?;
        store::record_event(&mut tx, event_id).await?;
        tx.commit().await
    }

    async fn execute(&self, tx: &mut Tx, ev: &Incoming, cmd: Command) -> Result<Done, Failure> {
        let me = ev.author.as_str();
        let ch = ev.channel.as_str();
        match cmd {
            Command::Challenge {
                opponent,
                variant,
                time,
                color,
                level,
                mode,
            } => {
                self.challenge(tx, ch, me, &opponent, variant, time, color, level, mode)
                    .await
            }
            Command::Accept { challenger } => self.accept(tx, ch, me, challenger).await,
            Command::Decline { other } => self.decline(tx, ch, me, other).await,
            Command::Move { text, game } => {
                let g = self.pick(tx, ch, me, game, true).await?;
                self.play(tx, ch, me, g, &text).await
            }
            Command::Bare { text } => self.bare(tx, ch, me, &text).await,
            Command::Board { game } => {
                let g = self.pick_any(tx, ch, me, game).await?;
                let text = format!("{}: {}.", g.title(), g.status());
                let picture = self.picture(tx, ch, &g, me, None).await?;
                Ok(Done {
                    engine: None,
                    text,
                    picture: Some(picture),
                    mentions: vec![],
                    actions: Vec::new(),
                })
            }
            Command::Moves { square, game } => {
                self.moves(tx, ch, me, ev.private, square, game).await
            }
            Command::Resign { game } => {
                let g = self.pick(tx, ch, me, game, true).await?;
                let color = g.player_color(me).expect("own game");
                let result = if color == Color::White { "0-1" } else { "1-0" };
                store::finish(tx, g.row.id, result, "resignation").await?;
                Ok(Done::text(format!(
                    "{me} resigns game #{}. {} wins ({result}).",
                    g.row.id,
                    g.name(!color)
                )))
            }
            Command::Draw { answer, game } => self.draw(tx, ch, me, answer, game).await,
            Command::Undo { answer, game } => self.undo(tx, ch, me, answer, game).await,
            Command::Games => self.games(tx, ch).await,
            Command::History { game, pgn } => {
                let g = self.pick_any(tx, ch, me, game).await?;
                Ok(Done::text(if pgn {
                    pgn_text(&g, ch)
                } else {
                    history_text(&g)
                }))
            }
            Command::Variants => {
                let mut text = String::from("I play:");
                for r in variants::all() {
                    let _ = write!(text, "\n  {} ({}, {} board)", r.name(), r.title(), r.size());
                }
                text.push_str("\nChallenge with `challenge @someone <variant>`; learn with `rules <variant>`.");
                Ok(Done::text(text))
            }
            Command::Rules { query } => self.rules(tx, ch, &query).await,
            Command::Help { topic } => Ok(Done::text(match topic {
                None => help::COMMANDS.to_string(),
                Some(word) => help::command_help(&word)
                    .map(|l| l.to_string())
                    .unwrap_or_else(|| {
                        format!("There is no command `{word}`.\n\n{}", help::COMMANDS)
                    }),
            })),
            Command::Settings { key, value } => self.settings(tx, ch, key, value).await,
            Command::Claim { text, game } => self.claim(tx, ch, me, text, game).await,
            Command::Program { text, game } => {
                self.program(tx, ch, me, ev.private, text, game).await
            }
            Command::Colour { colour, game } => self.colour(tx, ch, me, colour, game).await,
        }
    }

    // ---- finding games ----

    /// The rules a stored game is played by (its programs included).
    fn rules_of(row: &GameRow) -> Result<&'static voidmate_rules::Rules, Failure> {
        let base = variants::by_name(&row.variant)
            .ok_or_else(|| damaged(row.id, format!("unknown variant '{}'", row.variant)))?;
        let programs = stored_program(base, &row.program_white)
            .and_then(|w| Ok((w, stored_program(base, &row.program_black)?)))
            .map_err(|e| damaged(row.id, format!("a program does not read: {e}")))?;
        variants::programmed(base, &programs.0, &programs.1)
            .map_err(|e| damaged(row.id, format!("its programs do not fit the game: {e}")))
    }

    /// The stored position after the last move, trusted without a replay:
    /// for reads that need only the position (suggestions, whose move it
    /// is). Every write replays the game in [`Core::load`], and `voidmate
    /// check-db` replays them all.
    fn stored_position(row: &GameRow) -> Result<Position, Failure> {
        Position::from_fen(Self::rules_of(row)?, &row.fen)
            .map_err(|e| damaged(row.id, format!("its position does not read: {e}")))
    }

    /// Replays every stored game, finished ones too, and says which do not
    /// hold together: (game id, channel, why).
    pub async fn check_db(&self) -> anyhow::Result<(usize, Vec<(i64, String, String)>)> {
        let mut read = self.store.pool().begin().await?;
        let rows = store::all_games(&mut read).await?;
        let total = rows.len();
        let mut bad = Vec::new();
        for row in rows {
            let (id, channel) = (row.id, row.channel.clone());
            match self.load(&mut read, row).await {
                Ok(_) => {}
                Err(Failure::User(why)) | Err(Failure::Unknown(why)) => {
                    bad.push((id, channel, why))
                }
                Err(Failure::Db(e)) => return Err(e.into()),
            }
        }
        Ok((total, bad))
    }

    async fn load(&self, tx: &mut Tx, row: GameRow) -> Result<Game, Failure> {
        let id = row.id;
        let damaged = |why: String| damaged(id, why);
        let rules = Self::rules_of(&row)?;
        let mut pos = Position::from_fen(rules, &row.start_fen)
            .map_err(|e| damaged(format!("its start position does not read: {e}")))?;
        let moves = store::moves(tx, row.id).await?;
        let mut last = None;
        for (i, m) in moves.iter().enumerate() {
            if m.ply != i as i64 + 1 {
                return Err(damaged(format!("move {} is missing", i + 1)));
            }
            let mv = pos
                .parse_move(&m.coordinate)
                .map_err(|e| damaged(format!("move {} does not replay: {e}", m.ply)))?;
            pos.play_unchecked(&mv);
            last = Some((mv.from, mv.to));
        }
        if pos.fen() != row.fen {
            return Err(damaged("its position does not match its moves".into()));
        }
        Ok(Game {
            row,
            pos,
            moves,
            last,
            now_ms: self.time.now_ms(),
        })
    }

    /// The game a command is about. `mine`: the author must play in it (and
    /// it must be in progress).
    async fn pick(
        &self,
        tx: &mut Tx,
        ch: &str,
        me: &str,
        game: GameRef,
        mine: bool,
    ) -> Result<Game, Failure> {
        if let Some(id) = game {
            let Some(row) = store::game(tx, ch, id).await? else {
                return refuse(format!("There is no game #{id} in this channel."));
            };
            if mine && row.white != me && row.black != me {
                return refuse(format!("You are not playing in game #{id}."));
            }
            if mine && row.status != "active" {
                return refuse(format!(
                    "Game #{id} is over ({}).",
                    row.result.as_deref().unwrap_or("*")
                ));
            }
            return self.load(tx, row).await;
        }
        let active = store::active_games(tx, ch).await?;
        let own: Vec<GameRow> = active
            .iter()
            .filter(|g| g.white == me || g.black == me)
            .cloned()
            .collect();
        let candidates = if mine || !own.is_empty() { own } else { active };
        match candidates.len() {
            0 if mine => {
                refuse("You have no game in progress here. Start one with `challenge @someone`.")
            }
            0 => refuse("There is no game in progress here. Start one with `challenge @someone`."),
            1 => self.load(tx, candidates.into_iter().next().unwrap()).await,
            n => {
                let list: Vec<String> = candidates
                    .iter()
                    .map(|g| format!("#{} {} vs {} ({})", g.id, g.white, g.black, g.variant))
                    .collect();
                refuse(format!(
                    "There are {n} games here: {}. Add the game number, like `board #{}`.",
                    list.join(", "),
                    candidates[0].id
                ))
            }
        }
    }

    /// A game to look at: named, in progress, or the author's latest.
    async fn pick_any(
        &self,
        tx: &mut Tx,
        ch: &str,
        me: &str,
        game: GameRef,
    ) -> Result<Game, Failure> {
        match self.pick(tx, ch, me, game, false).await {
            Err(Failure::User(msg)) if game.is_none() => {
                match store::latest_game(tx, ch, me).await? {
                    Some(row) => self.load(tx, row).await,
                    None => Err(Failure::User(msg)),
                }
            }
            other => other,
        }
    }

    async fn theme(&self, tx: &mut Tx, ch: &str) -> Result<Theme, Failure> {
        Ok(store::settings(tx, ch)
            .await?
            .and_then(|s| Theme::from_name(&s.theme))
            .unwrap_or(self.settings.theme))
    }

    async fn picture(
        &self,
        tx: &mut Tx,
        ch: &str,
        g: &Game,
        viewer: &str,
        select: Option<Square>,
    ) -> Result<Picture, Failure> {
        let orientation = g.player_color(viewer).unwrap_or_else(|| g.pos.turn());
        let status = g.status();
        let alt = match (&g.moves.last(), g.row.status.as_str()) {
            (_, "finished") => format!("Game #{}: final position, {status}", g.row.id),
            (Some(m), _) => format!("Game #{} after {}: {status}", g.row.id, m.san),
            (None, _) => format!("Game #{}: starting position, {status}", g.row.id),
        };
        let finished = g.row.status == "finished";
        let board = BoardCard {
            game: g.row.id,
            variant: g.pos.rules().title().to_string(),
            white: g.row.white.clone(),
            black: g.row.black.clone(),
            to_move: (!finished).then(|| g.name(g.pos.turn()).to_string()),
            last_move: g.moves.last().map(|m| m.san.clone()),
            result: finished.then(|| g.status()),
            time_control: TimeControl::parse(&g.row.time_control)
                .map(|t| t.to_string())
                .unwrap_or_else(|| g.row.time_control.clone()),
        };
        Ok(Picture {
            board: Some(board),
            pos: g.pos.clone(),
            opts: RenderOptions {
                orientation,
                theme: self.theme(tx, ch).await?,
                last_move: g.last,
                select,
                arrows: Vec::new(),
                caption: Some(Caption {
                    white: g.row.white.clone(),
                    black: g.row.black.clone(),
                    status,
                    sides: (g.kind() == GameKind::Super16)
                        .then(|| [g.side(Color::White).into(), g.side(Color::Black).into()]),
                }),
                colours: g.colours(),
            },
            alt,
        })
    }

    // ---- commands ----

    #[allow(clippy::too_many_arguments)]
    async fn challenge(
        &self,
        tx: &mut Tx,
        ch: &str,
        me: &str,
        opponent: &str,
        variant: Option<String>,
        time: Option<TimeControl>,
        color: Option<ColorChoice>,
        level: Option<u8>,
        mode: Option<ProgramMode>,
    ) -> Result<Done, Failure> {
        if opponent.is_empty() {
            return refuse("Challenge whom? For example: `challenge @bob void`.");
        }
        if opponent == me {
            return refuse(
                "You cannot challenge yourself. Challenge another player with `challenge @name`.",
            );
        }
        let rules = match variant.as_deref() {
            None => variants::void(),
            Some(v) => voidmate_rules::variant(v).map_err(|e| Failure::User(format!("{e}.")))?,
        };
        let mode = mode.unwrap_or(ProgramMode::Default);
        if mode != ProgramMode::Default && !variants::programmable(rules) {
            return refuse(format!(
                "{} has no programmable pieces; `{}` is for Super Chess 16x16: `challenge @{opponent} super16 {}`.",
                rules.title(),
                mode.code(),
                mode.code()
            ));
        }
        if self.is_bot(opponent) {
            if mode != ProgramMode::Default {
                return refuse(
                    "I play Super Chess 16x16 in the default mode only: the rules engine that judges the game would also know a private program, so I do not play programmed games.",
                );
            }
            return self
                .play_the_bot(tx, ch, me, opponent, rules, time, color, level)
                .await;
        }
        if level.is_some() {
            return refuse(format!(
                "A level is for games against me: `challenge @{} {} 3`.",
                self.bot_names
                    .read()
                    .expect("not poisoned")
                    .first()
                    .cloned()
                    .unwrap_or_else(|| "voidmate".into()),
                rules.name()
            ));
        }
        for c in store::pending_challenges(tx, ch).await? {
            if c.challenger == me {
                return refuse(format!(
                    "You already have a challenge waiting for {} here. Wait for an answer, or withdraw it with `decline @{}`.",
                    c.challenged, c.challenged
                ));
            }
            if c.challenger == opponent && c.challenged == me {
                return refuse(format!(
                    "{opponent} has already challenged you here: say `accept` to play."
                ));
            }
        }
        let time = time.unwrap_or(TimeControl::None);
        let color = color.unwrap_or(ColorChoice::White);
        let color_name = if color == ColorChoice::White {
            "white"
        } else {
            "black"
        };
        store::insert_challenge(
            tx,
            ch,
            me,
            opponent,
            rules.name(),
            &time.code(),
            color_name,
            mode.code(),
        )
        .await?;
        let my_side = if color == ColorChoice::White {
            Color::White
        } else {
            Color::Black
        };
        let kind = rules.kind().expect("a game of the registry");
        let side = match kind.side_name(my_side) {
            "Player 1" => "Player 1 and move first".to_string(),
            "Player 2" => "Player 2; you would move first".to_string(),
            other => other.to_string(),
        };
        let programs = match mode {
            ProgramMode::Default => String::new(),
            ProgramMode::Symmetric => format!(
                " Both sides would use one reprogrammed roster: {me}, write it with `program N: jump 2,1 ...` (`help program`); @{opponent}, your `accept` agrees to it."
            ),
            ProgramMode::Private => " Each side would program its own pieces, in secret, after the challenge is accepted.".to_string(),
        };
        Ok(Done {
            engine: None,
            text: format!(
                "@{opponent}, {me} challenges you to {} ({time}{}); {me} would play {side}.{programs} Answer with `accept` or `decline`.",
                rules.title(),
                match mode {
                    ProgramMode::Default => "",
                    ProgramMode::Symmetric => ", one programmed roster for both",
                    ProgramMode::Private => ", private programs",
                },
            ),
            picture: None,
            actions: vec![Action::AnswerChallenge { challenger: me.to_string(), to: opponent.to_string() }],
            mentions: vec![opponent.to_string()],
        })
    }

    /// A challenge to the bot: the game starts at once, and if the bot has
    /// the first move it plays it in the same reply.
    #[allow(clippy::too_many_arguments)]
    async fn play_the_bot(
        &self,
        tx: &mut Tx,
        ch: &str,
        me: &str,
        bot: &str,
        rules: &'static voidmate_rules::Rules,
        time: Option<TimeControl>,
        color: Option<ColorChoice>,
        level: Option<u8>,
    ) -> Result<Done, Failure> {
        let level = level.unwrap_or(self.engine_cfg.default_level).clamp(1, 5);
        let time = time.unwrap_or(TimeControl::None);
        let (white, black) = if color == Some(ColorChoice::Black) {
            (bot.to_string(), me.to_string())
        } else {
            (me.to_string(), bot.to_string())
        };
        let start = Position::new(rules).fen();
        let id =
            store::insert_game(tx, ch, rules.name(), &white, &black, &start, &time.code()).await?;
        store::set_engine_level(tx, id, level as i64).await?;
        store::set_deadline(tx, id, self.deadline(&time.code())).await?;
        self.start_clocks(tx, id, &time.code()).await?;
        let row = store::game(tx, ch, id).await?.expect("just inserted");
        let g = self.load(tx, row).await?;
        let first = g.name(g.pos.turn()).to_string();
        let picture = self.picture(tx, ch, &g, me, None).await?;
        let intro = format!(
            "Game #{id} begins: {}, {white} (White) vs {black} (Black), {time}; I play at level {level}.",
            rules.title()
        );
        if first == me {
            return Ok(Done {
                engine: None,
                text: format!("{intro} {me}, your move."),
                picture: Some(picture),
                mentions: vec![me.to_string()],
                actions: Vec::new(),
            });
        }
        Ok(Done {
            engine: Some(id),
            text: intro,
            picture: Some(picture),
            mentions: Vec::new(),
            actions: Vec::new(),
        })
    }

    async fn accept(
        &self,
        tx: &mut Tx,
        ch: &str,
        me: &str,
        from: Option<String>,
    ) -> Result<Done, Failure> {
        let waiting: Vec<_> = store::pending_challenges(tx, ch)
            .await?
            .into_iter()
            .filter(|c| c.challenged == me && from.as_ref().is_none_or(|f| &c.challenger == f))
            .collect();
        let c = match waiting.as_slice() {
            [] => {
                return refuse(match &from {
                    Some(f) => format!("{f} has not challenged you here."),
                    None => "No challenge is waiting for you here.".to_string(),
                })
            }
            [one] => one.clone(),
            many => {
                let names: Vec<&str> = many.iter().map(|c| c.challenger.as_str()).collect();
                return refuse(format!(
                    "Several players challenged you: {}. Say which, like `accept @{}`.",
                    names.join(", "),
                    names[0]
                ));
            }
        };
        let rules =
            voidmate_rules::variant(&c.variant).map_err(|e| Failure::User(format!("{e}.")))?;
        let (white, black) = if c.challenger_color == "black" {
            (me.to_string(), c.challenger.clone())
        } else {
            (c.challenger.clone(), me.to_string())
        };
        let start = Position::new(rules).fen();
        let id = store::insert_game(
            tx,
            ch,
            rules.name(),
            &white,
            &black,
            &start,
            &c.time_control,
        )
        .await?;
        store::close_challenge(tx, c.id, "accepted", Some(id)).await?;
        let mode = ProgramMode::parse(&c.mode).unwrap_or(ProgramMode::Default);
        let mut programs = String::new();
        match mode {
            ProgramMode::Default => {}
            ProgramMode::Symmetric => {
                // What the challenger proposed, or the default pieces if
                // nothing was written.
                let roster = c.program.clone().unwrap_or_else(|| "default".into());
                store::set_programs(tx, id, mode.code(), Some(&roster), Some(&roster)).await?;
                programs = format!(" Both sides play with this roster: {roster}.");
            }
            ProgramMode::Private => {
                store::set_programs(tx, id, mode.code(), None, None).await?;
            }
        }
        let row = store::game(tx, ch, id).await?.expect("just inserted");
        let g = self.load(tx, row).await?;
        let time = TimeControl::parse(&c.time_control).unwrap_or(TimeControl::None);
        let names = format!(
            "{white} ({}) vs {black} ({})",
            g.side(Color::White),
            g.side(Color::Black)
        );
        let picture = self.picture(tx, ch, &g, &white, None).await?;
        if mode == ProgramMode::Private {
            return Ok(Done {
                engine: None,
                text: format!(
                    "Game #{id} is set: {}, {names}, {time}, private programs. {white} and {black}: each send me your program privately, in a direct message to me (on Discord `/program` also answers only you): `program #{id} N: jump 2,1 ...`, or `program #{id} default` to keep your pieces. `help program` explains the vectors. The game begins when both are in; neither of you will see the other's.",
                    rules.title()
                ),
                picture: Some(picture),
                mentions: vec![white.clone(), black.clone()],
                actions: Vec::new(),
            });
        }
        store::set_deadline(tx, id, self.deadline(&c.time_control)).await?;
        self.start_clocks(tx, id, &c.time_control).await?;
        // Usually White; in Suicide Void Chess Black places the void first.
        let first = g.name(g.pos.turn()).to_string();
        Ok(Done {
            engine: None,
            text: format!(
                "Game #{id} begins: {}, {names}, {time}.{programs} {first}, your move.",
                rules.title()
            ),
            picture: Some(picture),
            mentions: vec![first.clone()],
            actions: Vec::new(),
        })
    }

    async fn decline(
        &self,
        tx: &mut Tx,
        ch: &str,
        me: &str,
        other: Option<String>,
    ) -> Result<Done, Failure> {
        let mine: Vec<_> = store::pending_challenges(tx, ch)
            .await?
            .into_iter()
            .filter(|c| c.challenged == me || c.challenger == me)
            .filter(|c| {
                other
                    .as_ref()
                    .is_none_or(|o| &c.challenger == o || &c.challenged == o)
            })
            .collect();
        let c = match mine.as_slice() {
            [] => return refuse("There is no challenge here for you to decline or withdraw."),
            [one] => one.clone(),
            _ => {
                return refuse(
                    "You have several challenges here; name the player, like `decline @bob`.",
                )
            }
        };
        if c.challenger == me {
            store::close_challenge(tx, c.id, "withdrawn", None).await?;
            Ok(Done::text(format!(
                "{me} withdraws the challenge to {}.",
                c.challenged
            )))
        } else {
            store::close_challenge(tx, c.id, "declined", None).await?;
            Ok(Done {
                engine: None,
                text: format!("{me} declines {}'s challenge.", c.challenger),
                picture: None,
                mentions: vec![c.challenger.clone()],
                actions: Vec::new(),
            })
        }
    }

    async fn play(
        &self,
        tx: &mut Tx,
        ch: &str,
        me: &str,
        mut g: Game,
        text: &str,
    ) -> Result<Done, Failure> {
        let color = g.player_color(me).expect("own game");
        let waiting = g.awaiting_programs();
        if !waiting.is_empty() {
            return refuse(format!(
                "Game #{} has not begun: I am waiting for the program of {}, sent to me privately (`program #{} ...` in a direct message).",
                g.row.id,
                waiting.join(" and "),
                g.row.id
            ));
        }
        if g.pos.turn() != color {
            return refuse(format!(
                "It is not your turn in game #{}: {} is to move.",
                g.row.id,
                g.name(g.pos.turn())
            ));
        }
        let mv = g.pos.parse_move(text).map_err(|e| {
            if g.row.mode == "private" {
                // Why a move is refused could tell what the pieces can do.
                Failure::User(format!(
                    "That is not a legal move in game #{}. In a game of private programs I do not say why in public: `moves #{}` in a direct message to me lists yours.",
                    g.row.id, g.row.id
                ))
            } else {
                Failure::User(format!("{e}."))
            }
        })?;
        // A clock game: the mover's time must not have run out already.
        let increment = match TimeControl::parse(&g.row.time_control) {
            Some(TimeControl::Clock { increment, .. }) => Some(increment as i64 * 1000),
            _ => None,
        };
        let left = increment.and(g.clock_left(color));
        if left.is_some_and(|l| l <= 0) {
            return self.flag_fell(tx, g).await;
        }
        let san = g.pos.san(&mv);
        let coordinate = g.pos.coordinate(&mv);
        g.pos.play_unchecked(&mv);
        let ply = g.ply() + 1;
        if !store::append_move(tx, &g.row, ply, &san, &coordinate, me, &g.pos.fen()).await? {
            return refuse(format!(
                "Game #{} changed while I read your move (another command came first). Look at the `board` and try again.",
                g.row.id
            ));
        }
        g.moves.push(MoveRow {
            ply,
            san: san.clone(),
            coordinate,
        });
        g.last = Some((mv.from, mv.to));
        let next = g.pos.turn();
        let mut text = format!("#{}: {me} played {san}.", g.row.id);
        let mut mentions = Vec::new();
        let mut engine = None;
        let over = g.pos.outcome();
        if let (Some(inc), Some(left)) = (increment, left) {
            // Stop the mover's clock, add the increment, start the other's.
            let mine = left + inc;
            let (w, b) = match color {
                Color::White => (mine, g.row.black_ms.unwrap_or(0)),
                Color::Black => (g.row.white_ms.unwrap_or(0), mine),
            };
            let started = over.is_none().then_some(g.now_ms);
            store::set_clocks(tx, g.row.id, w, b, started).await?;
            g.row.white_ms = Some(w);
            g.row.black_ms = Some(b);
            g.row.turn_started_ms = started;
            g.row.low_time_warned = false;
        }
        if let Some(outcome) = over {
            let (result, termination) = outcome_words(&outcome);
            store::finish(tx, g.row.id, result, &termination).await?;
            g.row.status = "finished".into();
            g.row.result = Some(result.into());
            g.row.termination = Some(termination.clone());
            let _ = write!(text, " {outcome}. Result: {result}.");
            store::set_deadline(tx, g.row.id, None).await?;
        } else {
            store::set_deadline(tx, g.row.id, self.deadline(&g.row.time_control)).await?;
            if self.is_bot(g.name(next)) {
                engine = Some(g.row.id);
            } else {
                let _ = write!(text, " {}, your move.", g.name(next));
                mentions.push(g.name(next).to_string());
            }
            if let Some(c) = g.clocks_text() {
                let _ = write!(text, " {}{}.", c[..1].to_uppercase(), &c[1..]);
            }
        }
        let picture = self
            .picture(tx, ch, &g, g.name(next).to_string().as_str(), None)
            .await?;
        Ok(Done {
            engine,
            text,
            picture: Some(picture),
            mentions,
            actions: Vec::new(),
        })
    }

    /// The side to move ran out of time: the other side wins (even when
    /// the flag is only noticed as a late move arrives).
    async fn flag_fell(&self, tx: &mut Tx, g: Game) -> Result<Done, Failure> {
        let loser = g.pos.turn();
        let result = if loser == Color::White { "0-1" } else { "1-0" };
        store::finish(tx, g.row.id, result, "time forfeit").await?;
        store::set_deadline(tx, g.row.id, None).await?;
        let (w, b) = match loser {
            Color::White => (0, g.row.black_ms.unwrap_or(0)),
            Color::Black => (g.row.white_ms.unwrap_or(0), 0),
        };
        store::set_clocks(tx, g.row.id, w, b, None).await?;
        Ok(Done {
            engine: None,
            text: format!(
                "Game #{}: {}'s time ran out. {} wins on time ({result}).",
                g.row.id,
                g.name(loser),
                g.name(!loser)
            ),
            picture: None,
            mentions: vec![g.name(loser).to_string(), g.name(!loser).to_string()],
            actions: Vec::new(),
        })
    }

    /// Starts the clocks of a new game with a clock time control.
    async fn start_clocks(&self, tx: &mut Tx, id: i64, time_control: &str) -> Result<(), Failure> {
        if let Some(TimeControl::Clock { minutes, .. }) = TimeControl::parse(time_control) {
            let base = minutes as i64 * 60_000;
            store::set_clocks(tx, id, base, base, Some(self.time.now_ms())).await?;
        }
        Ok(())
    }

    async fn bare(&self, tx: &mut Tx, ch: &str, me: &str, text: &str) -> Result<Done, Failure> {
        let unknown =
            || Failure::Unknown(text.split_whitespace().next().unwrap_or(text).to_string());
        let bare_on = store::settings(tx, ch)
            .await?
            .map(|s| s.bare_moves)
            .unwrap_or(self.settings.bare_moves);
        if !bare_on {
            return Err(unknown());
        }
        let mine: Vec<GameRow> = store::active_games(tx, ch)
            .await?
            .into_iter()
            .filter(|g| g.white == me || g.black == me)
            .collect();
        let mut to_move = Vec::new();
        let mut waiting = Vec::new();
        for row in mine {
            let g = self.load(tx, row).await?;
            if g.player_color(me) == Some(g.pos.turn()) {
                to_move.push(g);
            } else {
                waiting.push(g);
            }
        }
        let looks_like_move = |g: &Game| {
            !matches!(
                g.pos.parse_move(text).map_err(|e| e.kind),
                Err(MoveErrorKind::Malformed | MoveErrorKind::TooLong)
            )
        };
        match to_move.len() {
            0 => match waiting.as_slice() {
                [g] if looks_like_move(g) => refuse(format!(
                    "It is not your turn in game #{}: {} is to move.",
                    g.row.id,
                    g.name(g.pos.turn())
                )),
                _ => Err(unknown()),
            },
            1 => {
                let g = to_move.pop().unwrap();
                match g.pos.parse_move(text) {
                    Err(e)
                        if matches!(e.kind, MoveErrorKind::Malformed | MoveErrorKind::TooLong) =>
                    {
                        Err(unknown())
                    }
                    _ => self.play(tx, ch, me, g, text).await,
                }
            }
            _ => {
                let ids: Vec<String> = to_move.iter().map(|g| format!("#{}", g.row.id)).collect();
                refuse(format!(
                    "It is your move in several games here ({}); say which, like `move {text} {}`.",
                    ids.join(", "),
                    ids[0]
                ))
            }
        }
    }

    async fn moves(
        &self,
        tx: &mut Tx,
        ch: &str,
        me: &str,
        private: bool,
        square: Option<String>,
        game: GameRef,
    ) -> Result<Done, Failure> {
        let g = match (private, game) {
            (true, Some(id)) => self.private_game(tx, me, id).await?,
            _ => self.pick_any(tx, ch, me, game).await?,
        };
        if g.row.mode == "private" && g.row.status == "active" {
            // The legal moves show what the pieces can do: only the player
            // to move may see them, and only privately.
            if !private {
                return refuse(format!(
                    "The moves of game #{} would show a private program: ask me in a direct message, `moves #{}`.",
                    g.row.id, g.row.id
                ));
            }
            if g.player_color(me) != Some(g.pos.turn()) || !g.awaiting_programs().is_empty() {
                return refuse(format!(
                    "I list the moves of game #{} only to the player to move, on their turn.",
                    g.row.id
                ));
            }
        }
        let size = g.pos.rules().size();
        let select =
            match square {
                None => None,
                Some(s) => Some(Square::parse(&s).filter(|&q| size.contains(q)).ok_or_else(
                    || {
                        Failure::User(format!(
                            "`{s}` is not a square of this board ({}).",
                            size.describe()
                        ))
                    },
                )?),
            };
        let legal = g.pos.legal_moves();
        let mut chosen: Vec<String> = legal
            .iter()
            .filter(|m| select.is_none_or(|s| m.from == s))
            .map(|m| g.pos.san(m))
            .collect();
        // A capture that moves the void comes once per square: list it once.
        let relocating = legal.iter().any(|m| m.via.is_some());
        if relocating {
            chosen = chosen
                .iter()
                .map(|s| match s.split_once('@') {
                    Some((main, _)) => format!("{main}@…"),
                    None => s.clone(),
                })
                .collect();
            chosen.dedup();
        }
        let text = match (select, chosen.is_empty()) {
            (_, _) if g.row.status == "finished" => {
                format!("Game #{} is over: no moves.", g.row.id)
            }
            (Some(s), true) => match g.pos.piece_at(s) {
                Some(p) if p.color == g.pos.turn() => {
                    format!("The {} on {s} has no legal move.", p.role)
                }
                _ => format!("There is no piece of the side to move on {s}."),
            },
            (None, true) => "There are no legal moves.".to_string(),
            (_, false) => format!("{} to move: {}", g.name(g.pos.turn()), chosen.join(" ")),
        };
        let text = if relocating && !chosen.is_empty() {
            format!(
                "{text}\nA capture moves the void too: add an empty square, like {}.",
                g.pos.san(&legal[0])
            )
        } else {
            text
        };
        let picture = self.picture(tx, ch, &g, me, select).await?;
        Ok(Done {
            engine: None,
            text,
            picture: Some(picture),
            mentions: vec![],
            actions: Vec::new(),
        })
    }

    /// A game named by number from a private conversation, in whichever
    /// channel it is played; only its players may ask.
    async fn private_game(&self, tx: &mut Tx, me: &str, id: i64) -> Result<Game, Failure> {
        match store::game_anywhere(tx, id).await? {
            Some(row) if row.white == me || row.black == me => self.load(tx, row).await,
            Some(_) => refuse(format!("You are not playing in game #{id}.")),
            None => refuse(format!("There is no game #{id}.")),
        }
    }

    /// `program`: write the roster of a symmetric challenge, send one's
    /// private program, or look at either.
    async fn program(
        &self,
        tx: &mut Tx,
        ch: &str,
        me: &str,
        private: bool,
        text: Option<String>,
        game: GameRef,
    ) -> Result<Done, Failure> {
        let base = variants::super16();
        let read = |t: &str| {
            Program::parse(base, t).map_err(|e| {
                Failure::User(format!(
                    "I cannot use that program: {e}. See `help program`."
                ))
            })
        };
        if private {
            return self.private_program(tx, me, text, game, read).await;
        }
        if game.is_none() {
            for c in store::pending_challenges(tx, ch).await? {
                if c.challenger != me && c.challenged != me {
                    continue;
                }
                match (c.mode.as_str(), &text) {
                    ("symmetric", None) => {
                        return Ok(Done::text(format!(
                            "{}'s challenge to {} proposes for both sides: {}.",
                            c.challenger,
                            c.challenged,
                            c.program.as_deref().unwrap_or("default")
                        )))
                    }
                    ("symmetric", Some(t)) if c.challenger == me => {
                        let roster = read(t)?.to_string();
                        store::set_challenge_program(tx, c.id, &roster).await?;
                        return Ok(Done {
                            engine: None,
                            text: format!(
                                "{me} proposes one roster for both sides: {roster}. @{}, `accept` to play with it, or `decline`.",
                                c.challenged
                            ),
                            picture: None,
                            mentions: vec![c.challenged.clone()],
                            actions: vec![Action::AnswerChallenge {
                                challenger: me.to_string(),
                                to: c.challenged.clone(),
                            }],
                        });
                    }
                    ("symmetric", Some(_)) => {
                        return refuse(format!(
                            "{} writes the roster of this challenge. If you want another, ask for it, or decline and challenge with yours.",
                            c.challenger
                        ))
                    }
                    ("private", Some(_)) => {
                        return refuse(
                            "Private programs are sent once the challenge is accepted, and only in a direct message to me. I did not keep this one; as it was shown here, you may want another.",
                        )
                    }
                    _ => {}
                }
            }
        }
        let g = match self.pick_any(tx, ch, me, game).await {
            Ok(g) => g,
            Err(Failure::User(_)) => {
                return refuse(
                    "You have no Super Chess challenge or game here that takes a program. Start one with `challenge @someone super16 symmetric` or `challenge @someone super16 private`.",
                )
            }
            Err(e) => return Err(e),
        };
        let id = g.row.id;
        match (g.row.mode.as_str(), text) {
            ("private", Some(_)) => refuse(format!(
                "Programs in game #{id} are private: send yours to me in a direct message, `program #{id} ...`. I did not keep this one; as it was shown here, you may want another."
            )),
            ("private", None) => refuse(format!(
                "Programs in game #{id} are private: ask me in a direct message, `program #{id}`."
            )),
            ("symmetric", None) => Ok(Done::text(format!(
                "Game #{id}: both sides play with {}.",
                g.row.program_white.as_deref().unwrap_or("default")
            ))),
            ("symmetric", Some(_)) => refuse(format!(
                "The roster of game #{id} was agreed at the challenge and stays for the game."
            )),
            _ => refuse(format!(
                "Game #{id} is played with every piece as it is: programs belong to Super Chess challenges in the symmetric or private mode."
            )),
        }
    }

    /// A program sent privately for a game of private programs.
    async fn private_program(
        &self,
        tx: &mut Tx,
        me: &str,
        text: Option<String>,
        game: GameRef,
        read: impl Fn(&str) -> Result<Program, Failure>,
    ) -> Result<Done, Failure> {
        let mut g = match game {
            Some(id) => self.private_game(tx, me, id).await?,
            None => {
                let mut rows = store::private_games_of(tx, me).await?;
                if text.is_some() {
                    rows.retain(|r| {
                        (r.white == me && r.program_white.is_none())
                            || (r.black == me && r.program_black.is_none())
                    });
                }
                match rows.len() {
                    0 => {
                        return refuse(
                            "You have no game of private programs waiting for yours. Challenge with `challenge @someone super16 private` in a channel.",
                        )
                    }
                    1 => self.load(tx, rows.pop().expect("one")).await?,
                    _ => {
                        let ids: Vec<String> = rows.iter().map(|r| format!("#{}", r.id)).collect();
                        return refuse(format!(
                            "You have several such games ({}); name one, like `program {} ...`.",
                            ids.join(", "),
                            ids[0]
                        ));
                    }
                }
            }
        };
        let id = g.row.id;
        let color = g.player_color(me).expect("a player of the game");
        if g.row.mode != "private" {
            return refuse(format!(
                "Game #{id} does not use private programs; `program #{id}` in its channel shows its roster."
            ));
        }
        let mine = match color {
            Color::White => &g.row.program_white,
            Color::Black => &g.row.program_black,
        };
        let Some(text) = text else {
            return Ok(Done::text(match mine {
                Some(p) => format!("Your program for game #{id}: {p}."),
                None => format!("You have not sent your program for game #{id} yet."),
            }));
        };
        if g.awaiting_programs().is_empty() {
            return refuse(format!(
                "Game #{id} has begun: programs are fixed for the whole game."
            ));
        }
        let program = read(&text)?.to_string();
        match color {
            Color::White => g.row.program_white = Some(program.clone()),
            Color::Black => g.row.program_black = Some(program.clone()),
        }
        store::set_programs(
            tx,
            id,
            "private",
            g.row.program_white.as_deref(),
            g.row.program_black.as_deref(),
        )
        .await?;
        let waiting: Vec<String> = g
            .awaiting_programs()
            .iter()
            .map(|s| s.to_string())
            .collect();
        if !waiting.is_empty() {
            return Ok(Done::text(format!(
                "Your program for game #{id} is in: {program}. Waiting for {}'s; until then you may send a new one.",
                waiting.join(" and ")
            )));
        }
        // Both are in: the game begins, announced in its own channel.
        store::set_deadline(tx, id, self.deadline(&g.row.time_control)).await?;
        self.start_clocks(tx, id, &g.row.time_control).await?;
        let first = g.name(g.pos.turn()).to_string();
        store::queue_notice(
            tx,
            &g.row.channel,
            &format!(
                "Both programs are in: game #{id} begins. {first} ({}), your move.",
                g.side(g.pos.turn())
            ),
            std::slice::from_ref(&first),
        )
        .await?;
        Ok(Done::text(format!(
            "Your program for game #{id} is in: {program}. Both programs are in: the game begins in its channel."
        )))
    }

    /// `colour`: show or choose one's piece colour in a game.
    async fn colour(
        &self,
        tx: &mut Tx,
        ch: &str,
        me: &str,
        colour: Option<String>,
        game: GameRef,
    ) -> Result<Done, Failure> {
        let names: Vec<&str> = PieceColour::ALL.iter().map(|c| c.name()).collect();
        let mut g = self.pick(tx, ch, me, game, true).await?;
        let side = g.player_color(me).expect("own game");
        let Some(word) = colour else {
            return Ok(Done::text(format!(
                "In game #{} your pieces are {} and {}'s are {}. Choose with `colour <name>`: {}.",
                g.row.id,
                g.colour_of(side),
                g.name(!side),
                g.colour_of(!side),
                names.join(", ")
            )));
        };
        let Some(chosen) = PieceColour::from_name(&word) else {
            return refuse(format!(
                "`{word}` is not a colour I paint; choose one of {}.",
                names.join(", ")
            ));
        };
        if g.colour_of(!side) == chosen {
            return refuse(format!(
                "{}'s pieces are already {chosen} in game #{}: pick another, so the sides can be told apart.",
                g.name(!side),
                g.row.id
            ));
        }
        store::set_colour(tx, g.row.id, side == Color::White, chosen.name()).await?;
        match side {
            Color::White => g.row.colour_white = Some(chosen.name().into()),
            Color::Black => g.row.colour_black = Some(chosen.name().into()),
        }
        let picture = self.picture(tx, ch, &g, me, None).await?;
        Ok(Done {
            engine: None,
            text: format!("{me}'s pieces are {chosen} now in game #{}.", g.row.id),
            picture: Some(picture),
            mentions: vec![],
            actions: Vec::new(),
        })
    }

    async fn draw(
        &self,
        tx: &mut Tx,
        ch: &str,
        me: &str,
        answer: Answer,
        game: GameRef,
    ) -> Result<Done, Failure> {
        let g = self.pick(tx, ch, me, game, true).await?;
        let color = g.player_color(me).expect("own game");
        let opponent = g.name(!color).to_string();
        if self.is_bot(&opponent) {
            return refuse(format!(
                "I play game #{} to the end: no draw offers. You may `resign`.",
                g.row.id
            ));
        }
        let standing = g.row.draw_offer_ply == Some(g.ply());
        let offer_by = g.row.draw_offer_by.clone().filter(|_| standing);
        let id = g.row.id;
        match (answer, offer_by.as_deref()) {
            (Answer::Ask, Some(by)) if by == opponent => self.agree_draw(tx, id).await,
            (Answer::Ask, Some(_)) => {
                refuse("You have already offered a draw; it stands until the next move.")
            }
            (Answer::Ask, None) => {
                store::set_request(tx, id, Request::Draw, Some(me), g.ply()).await?;
                Ok(Done {
            engine: None,
                    text: format!("{me} offers a draw in game #{id}. {opponent}: `draw accept` or `draw decline`."),
                    picture: None,
                    actions: vec![Action::AnswerDraw { game: id, to: opponent.clone() }],
                    mentions: vec![opponent],
                })
            }
            (Answer::Accept, Some(by)) if by == opponent => self.agree_draw(tx, id).await,
            (Answer::Decline, Some(by)) if by == opponent => {
                store::set_request(tx, id, Request::Draw, None, g.ply()).await?;
                Ok(Done {
                    engine: None,
                    text: format!("{me} declines the draw in game #{id}."),
                    picture: None,
                    mentions: vec![opponent],
                    actions: Vec::new(),
                })
            }
            _ => refuse(format!(
                "There is no draw offer from {opponent} to answer in game #{id}."
            )),
        }
    }

    /// A draw claimed under the rules of the game (Chess 99).
    async fn claim(
        &self,
        tx: &mut Tx,
        ch: &str,
        me: &str,
        text: Option<String>,
        game: GameRef,
    ) -> Result<Done, Failure> {
        let g = self.pick(tx, ch, me, game, true).await?;
        let color = g.player_color(me).expect("own game");
        let id = g.row.id;
        if g.pos.turn() != color {
            return refuse(format!(
                "It is not your turn in game #{id}: a draw is claimed by the player to move."
            ));
        }
        match g.pos.claimable_draw() {
            None => match g.kind() {
                GameKind::Super16 => refuse(format!(
                    "There is no draw to claim in game #{id}: in Super Chess 16x16 you may claim once 100 moves each have passed without a capture or pawn move."
                )),
                GameKind::Chess99 => refuse(format!(
                    "There is no draw to claim in game #{id}: in Chess 99 you may claim when both kings are attacked, or once your opponent has made 99 moves."
                )),
                GameKind::Standard
                | GameKind::Void
                | GameKind::Antichess
                | GameKind::SuicideVoid
                | GameKind::SuicideVoidPromotionWins
                | GameKind::BlackHoles => refuse(format!(
                    "There is nothing to claim in game #{id}: draws by repetition and the 50-move rule come by themselves here. To propose a draw, say `draw`."
                )),
            },
            Some(DrawReason::BothKingsAttacked) => {
                store::finish(tx, id, "1/2-1/2", "both kings attacked (claimed)").await?;
                Ok(Done::text(format!(
                    "{me} claims a draw in game #{id}: both kings are attacked. Drawn (1/2-1/2)."
                )))
            }
            Some(DrawReason::NinetyNineMoves) => {
                let Some(text) = text else {
                    return refuse(
                        "Claim the 99-move draw together with your move, like `claim Ke2`: the draw stands if that move leaves your king safe."
                    );
                };
                let mv = g
                    .pos
                    .parse_move(&text)
                    .map_err(|e| Failure::User(format!("{e}.")))?;
                let after = g.pos.after(&mv);
                let exposed = after
                    .board()
                    .king(color)
                    .is_some_and(|k| after.is_attacked(k, !color));
                if exposed {
                    return refuse(format!(
                        "{} leaves your king attacked, so the 99-move draw cannot be claimed with it. Nothing was played.",
                        g.pos.san(&mv)
                    ));
                }
                let san = g.pos.san(&mv);
                let mut done = self.play(tx, ch, me, g, &text).await?;
                if after.outcome().is_none() {
                    let result = "1/2-1/2 99-move rule (claimed)";
                    store::finish(tx, id, "1/2-1/2", "99-move rule (claimed)").await?;
                    done.text = format!(
                        "#{id}: {me} played {san} and claims the 99-move draw. Drawn (1/2-1/2)."
                    );
                    done.mentions.clear();
                    if let Some(p) = done.picture.as_mut() {
                        if let Some(c) = p.opts.caption.as_mut() {
                            c.status = result.into();
                        }
                        if let Some(card) = p.board.as_mut() {
                            card.to_move = None;
                            card.result = Some(result.into());
                        }
                    }
                }
                Ok(done)
            }
            Some(reason) => {
                // What the game's own words are for it: "claimed under the 100-move rule".
                let words = Outcome::Draw(reason).to_string();
                let words = words.trim_start_matches("Draw: ").to_string();
                store::finish(tx, id, "1/2-1/2", &words).await?;
                Ok(Done::text(format!(
                    "{me} claims a draw in game #{id}: {words}. Drawn (1/2-1/2)."
                )))
            }
        }
    }

    async fn agree_draw(&self, tx: &mut Tx, id: i64) -> Result<Done, Failure> {
        store::finish(tx, id, "1/2-1/2", "agreement").await?;
        Ok(Done::text(format!(
            "Game #{id} is drawn by agreement (1/2-1/2)."
        )))
    }

    async fn undo(
        &self,
        tx: &mut Tx,
        ch: &str,
        me: &str,
        answer: Answer,
        game: GameRef,
    ) -> Result<Done, Failure> {
        let mut g = self.pick(tx, ch, me, game, true).await?;
        let color = g.player_color(me).expect("own game");
        let opponent = g.name(!color).to_string();
        if self.is_bot(&opponent) {
            return refuse(format!(
                "I do not take moves back in game #{}: play on, or `resign` and challenge me again.",
                g.row.id
            ));
        }
        let id = g.row.id;
        let standing = g.row.undo_ply == Some(g.ply());
        let request_by = g.row.undo_by.clone().filter(|_| standing);
        // Every arm but an answer to the opponent's request returns here.
        match (&answer, request_by.as_deref()) {
            (Answer::Ask | Answer::Accept, Some(by)) if by == opponent => {}
            (Answer::Ask, Some(_)) => {
                return refuse(
                    "You have already asked to take back the last move; wait for an answer.",
                )
            }
            (Answer::Ask, None) => {
                if g.moves.is_empty() {
                    return refuse(format!("There is no move to take back in game #{id}."));
                }
                store::set_request(tx, id, Request::Undo, Some(me), g.ply()).await?;
                return Ok(Done {
            engine: None,
                    text: format!(
                        "{me} asks to take back {} in game #{id}. {opponent}: `undo accept` or `undo decline`.",
                        g.moves.last().map(|m| m.san.as_str()).unwrap_or("the last move")
                    ),
                    picture: None,
                    actions: vec![Action::AnswerUndo { game: id, to: opponent.clone() }],
                    mentions: vec![opponent],
                });
            }
            (Answer::Decline, Some(by)) if by == opponent => {
                store::set_request(tx, id, Request::Undo, None, g.ply()).await?;
                return Ok(Done {
                    engine: None,
                    text: format!("{me} declines the takeback in game #{id}."),
                    picture: None,
                    mentions: vec![opponent],
                    actions: Vec::new(),
                });
            }
            _ => {
                return refuse(format!(
                    "There is no takeback request from {opponent} to answer in game #{id}."
                ))
            }
        };
        // Rebuild the position without the last move.
        let last = g.moves.pop().expect("a request needs a move");
        let mut pos = Position::from_fen(g.pos.rules(), &g.row.start_fen).expect("loaded before");
        let mut prev = None;
        for m in &g.moves {
            let mv = pos.parse_move(&m.coordinate).expect("replayed before");
            pos.play_unchecked(&mv);
            prev = Some((mv.from, mv.to));
        }
        if !store::remove_last_move(tx, &g.row, last.ply, &pos.fen()).await? {
            return refuse(format!(
                "Game #{id} changed meanwhile; look at the `board` and try again."
            ));
        }
        g.pos = pos;
        g.last = prev;
        let next = g.name(g.pos.turn()).to_string();
        let picture = self.picture(tx, ch, &g, me, None).await?;
        Ok(Done {
            engine: None,
            text: format!(
                "{} is taken back in game #{id}. {next}, your move.",
                last.san
            ),
            picture: Some(picture),
            mentions: vec![next],
            actions: Vec::new(),
        })
    }

    async fn games(&self, tx: &mut Tx, ch: &str) -> Result<Done, Failure> {
        let games = store::active_games(tx, ch).await?;
        let challenges = store::pending_challenges(tx, ch).await?;
        if games.is_empty() && challenges.is_empty() {
            return Ok(Done::text(
                "No games or challenges here. Start one with `challenge @someone`.",
            ));
        }
        let mut text = String::new();
        for row in games {
            match self.load(tx, row.clone()).await {
                Ok(g) => {
                    let _ = writeln!(
                        text,
                        "{}: move {}, {}",
                        g.title(),
                        g.pos.board().fullmove_number(),
                        g.status()
                    );
                }
                Err(_) => {
                    let _ = writeln!(
                        text,
                        "#{} {} vs {}: damaged record",
                        row.id, row.white, row.black
                    );
                }
            }
        }
        for c in challenges {
            let _ = writeln!(
                text,
                "Challenge: {} invites {} to {} ({}), waiting",
                c.challenger, c.challenged, c.variant, c.time_control
            );
        }
        Ok(Done::text(text.trim_end()))
    }

    async fn rules(&self, tx: &mut Tx, ch: &str, query: &str) -> Result<Done, Failure> {
        let q = query.trim();
        if q.is_empty() {
            let names: Vec<&str> = variants::all().map(|r| r.name()).collect();
            return Ok(Done::text(format!(
                "Ask about a game or a rule: `rules void`, `rules minister`, `rules can the minister cross a void?`. Games: {}.",
                names.join(", ")
            )));
        }
        if let Some(kind) = GameKind::from_name(q) {
            let rules = kind.rules();
            let topics = help::topics_of(kind);
            let keys: Vec<&str> = topics.iter().map(|t| t.key).collect();
            let intro = topics.first().map(|t| t.text).unwrap_or("");
            return Ok(Done::text(format!(
                "{}: {intro}\nTopics: {}. Ask `rules {} <topic>`.",
                rules.title(),
                keys.join(", "),
                rules.name()
            )));
        }
        let Some(topic) = help::best_topic(q) else {
            let keys: Vec<&str> = help::topics_of(GameKind::Void)
                .iter()
                .map(|t| t.key)
                .collect();
            return refuse(format!(
                "I found nothing about that. Void Chess topics: {}.",
                keys.join(", ")
            ));
        };
        let text = format!("{}\n{}", topic.title, topic.text);
        let picture = match &topic.diagram {
            None => None,
            Some(d) => {
                let rules = topic.variant.rules();
                let pos = Position::from_fen(rules, d.fen).expect("diagram FENs are tested");
                Some(Picture {
                    pos,
                    opts: RenderOptions {
                        theme: self.theme(tx, ch).await?,
                        select: d.select.and_then(Square::parse),
                        ..Default::default()
                    },
                    alt: format!("Diagram: {}", d.caption),
                    board: None,
                })
            }
        };
        Ok(Done {
            engine: None,
            text,
            picture,
            mentions: vec![],
            actions: Vec::new(),
        })
    }

    async fn settings(
        &self,
        tx: &mut Tx,
        ch: &str,
        key: Option<String>,
        value: Option<String>,
    ) -> Result<Done, Failure> {
        let mut s = store::settings(tx, ch).await?.unwrap_or(Settings {
            bare_moves: self.settings.bare_moves,
            theme: self.settings.theme.name().to_string(),
        });
        match (key.as_deref(), value.as_deref()) {
            (None, _) => {}
            (Some("bare-moves"), Some("on")) => s.bare_moves = true,
            (Some("bare-moves"), Some("off")) => s.bare_moves = false,
            (Some("theme"), Some(t)) => {
                let theme = Theme::from_name(t).ok_or_else(|| {
                    Failure::User(format!(
                        "`{t}` is not a theme; use classic or high-contrast."
                    ))
                })?;
                s.theme = theme.name().to_string();
            }
            _ => return refuse(
                "Settings: `settings bare-moves on|off` or `settings theme classic|high-contrast`.",
            ),
        }
        if key.is_some() {
            store::save_settings(tx, ch, &s).await?;
        }
        Ok(Done::text(format!(
            "Settings here: bare moves {}, theme {}.",
            if s.bare_moves { "on" } else { "off" },
            s.theme
        )))
    }
}

/// "2 days", "5 hours", "40 minutes" in units of the configured day.
fn human_duration(seconds: i64, day: i64) -> String {
    let hour = (day / 24).max(1);
    let (n, unit) = if seconds >= day {
        (seconds / day, "day")
    } else if seconds >= hour {
        (seconds / hour, "hour")
    } else {
        ((seconds * 60 / hour).max(1), "minute")
    };
    format!("{n} {unit}{}", if n == 1 { "" } else { "s" })
}

fn outcome_words(o: &Outcome) -> (&'static str, String) {
    let text = o.to_string();
    let termination = text
        .split_once(": ")
        .map(|(_, t)| t.to_string())
        .unwrap_or(text);
    (o.score(), termination)
}

fn history_text(g: &Game) -> String {
    if g.moves.is_empty() {
        return format!("{}: no moves yet.", g.title());
    }
    format!("{}: {}", g.title(), numbered(g))
}

fn numbered(g: &Game) -> String {
    let start = Position::from_fen(g.pos.rules(), &g.row.start_fen).expect("replayed before");
    let mut number = start.board().fullmove_number();
    let mut white_to_move = start.turn() == Color::White;
    let mut out = String::new();
    for (i, m) in g.moves.iter().enumerate() {
        if white_to_move {
            let _ = write!(out, "{number}. ");
        } else if i == 0 {
            let _ = write!(out, "{number}... ");
        }
        out.push_str(&m.san);
        out.push(' ');
        // Placing the void (`@e5`) comes before move 1 and does not count.
        if !white_to_move && !m.san.starts_with('@') {
            number += 1;
        }
        white_to_move = !white_to_move;
    }
    out.trim_end().to_string()
}

fn pgn_text(g: &Game, channel: &str) -> String {
    let result = g.row.result.clone().unwrap_or_else(|| "*".into());
    let mut s = String::new();
    let _ = writeln!(s, "[Event \"Voidmate game #{}\"]", g.row.id);
    let _ = writeln!(s, "[Site \"{channel}\"]");
    let _ = writeln!(s, "[White \"{}\"]", g.row.white);
    let _ = writeln!(s, "[Black \"{}\"]", g.row.black);
    let _ = writeln!(s, "[Result \"{result}\"]");
    let _ = writeln!(s, "[Variant \"{}\"]", g.pos.rules().title());
    let _ = writeln!(s, "[TimeControl \"{}\"]", g.row.time_control);
    if let Some(t) = &g.row.termination {
        let _ = writeln!(s, "[Termination \"{t}\"]");
    }
    if g.row.start_fen != g.pos.rules().definition().start_fen {
        let _ = writeln!(s, "[SetUp \"1\"]");
        let _ = writeln!(s, "[FEN \"{}\"]", g.row.start_fen);
    }
    s.push('\n');
    if !g.moves.is_empty() {
        s.push_str(&numbered(g));
        s.push(' ');
    }
    s.push_str(&result);
    s
}

/// A stored game that does not hold together, in words.
fn damaged(id: i64, why: String) -> Failure {
    Failure::User(format!(
        "The stored record of game #{id} is damaged ({why}), so I cannot go on with it. Nothing was changed."
    ))
}

fn error_reply(text: String) -> Reply {
    Reply {
        text,
        image: None,
        mentions: vec![],
        actions: Vec::new(),
        is_error: true,
    }
}

/// A storage failure in words: a locked database is "busy", anything else
/// "went wrong"; either way nothing was changed.
fn db_failure(e: sqlx::Error) -> Reply {
    let busy = match &e {
        sqlx::Error::Database(d) => {
            let m = d.message().to_ascii_lowercase();
            m.contains("locked") || m.contains("busy")
        }
        sqlx::Error::PoolTimedOut => true,
        _ => false,
    };
    if busy {
        error_reply("The game database is busy right now, so nothing was changed. Please try again in a moment.".into())
    } else {
        tracing::error!("storage error: {e}");
        error_reply(
            "Something went wrong while storing that, so nothing was changed. Please try again."
                .into(),
        )
    }
}

async fn finish_reply(done: Done) -> Reply {
    let image = match done.picture {
        None => None,
        Some(p) => {
            // Rendering is CPU work: keep it off the async workers.
            let png =
                tokio::task::spawn_blocking(move || Renderer::shared().render(&p.pos, &p.opts))
                    .await
                    .ok();
            png.map(|png| Image {
                png,
                alt: p.alt,
                board: p.board,
            })
        }
    };
    Reply {
        text: done.text,
        image,
        mentions: done.mentions,
        actions: done.actions,
        is_error: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(n: u64, who: &str, text: &str, addressed: bool) -> Incoming {
        Incoming {
            event_id: format!("ev-{n}"),
            channel: "room".into(),
            author: who.into(),
            text: text.into(),
            addressed,
            private: false,
        }
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
        let names = core.bot_names.clone();
        let _ = std::thread::spawn(move || {
            let _guard = names.write().unwrap();
            panic!("poisoning the lock for the test");
        })
        .join();
        let failed = event(2, "carol", "challenge @dave void", true);
        let r = core.handle(&failed).await.expect("an apology");
        assert!(r.is_error);
        assert_eq!(r.text, isolate::APOLOGY);
        let logged = String::from_utf8(logs.0.lock().unwrap().clone()).unwrap();
        assert!(
            logged.contains("ERROR")
                && logged.contains("handling an event panicked")
                && logged.contains("event=ev-2")
                && logged.contains("channel=room")
                && logged.contains("author=carol"),
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
        core.bot_names.clear_poison();
        let r = core.handle(&event(4, "bob", "accept", true)).await.unwrap();
        assert!(r.text.starts_with("Game #1"), "{}", r.text);
        let r = core.handle(&event(5, "alice", "e4", true)).await.unwrap();
        assert!(!r.is_error, "{}", r.text);
    }
}
