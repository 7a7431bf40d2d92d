//! The Discord adapter: slash commands, buttons and autocomplete in, embeds
//! with board images out.
//!
//! It only translates. Every slash command becomes the same chat text the
//! other adapters send (`/move e4` is `move e4`), buttons become the answer
//! their question asks for, and the core's [`Reply`] becomes one message: the
//! text with the players to notify, an embed card for a board, the PNG, and
//! Accept/Decline buttons for a question.
//!
//! The bot asks for no privileged intent. Without the message-content intent
//! Discord still shows it messages that mention it and replies to its own
//! messages, so `@Voidmate e4` and a reply `e4` to a board both play.
//!
//! Players are known by their Discord username (unique since 2023): it is what
//! the images and the texts show. The username-to-id map is kept in the
//! database, so mentions still notify after a restart.

use crate::config::Adapter;
use crate::game::command::{self, Answer, Command, ProgramMode, Someone, TimeControl};
use crate::game::{
    help, Action, Audience, BoardCard, Core, Incoming, Input, Mentioned, Player, PlayerId, Refusal,
    Reply, Segment,
};
use anyhow::{anyhow, bail, Context as _, Result};
use poise::serenity_prelude as serenity;
use serenity::builder::Builder as _;
use serenity::{
    ButtonStyle, ChannelId, CreateActionRow, CreateAllowedMentions, CreateAttachment,
    CreateAutocompleteResponse, CreateButton, CreateEmbed, CreateEmbedFooter,
    CreateInteractionResponse, CreateInteractionResponseFollowup, CreateInteractionResponseMessage,
    CreateMessage, CreateThread, EditInteractionResponse, EditMessage, EditThread, GatewayIntents,
    GuildId, InteractionId, RoleId, User, UserId,
};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;
use voidmate_rules::GameKind;

type Error = Box<dyn std::error::Error + Send + Sync>;
type Ctx<'a> = poise::Context<'a, Data, Error>;

/// Discord refuses message contents longer than this.
const MAX_CONTENT: usize = 2000;
/// Discord shows at most this many autocomplete suggestions.
const MAX_SUGGESTIONS: usize = 25;

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
    fn ids(self) -> Vec<u32> {
        match self {
            Shards::Auto => Vec::new(),
            Shards::Count(n) => (0..n).collect(),
            Shards::Range { first, last, .. } => (first..=last).collect(),
        }
    }
}

/// The `[discord]` section of the configuration.
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
    /// The proxy then does the rate limiting, so serenity's own limiter is
    /// off; without `api_url` it is on.
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
    pub fn from_config(a: &Adapter) -> Result<DiscordConfig> {
        let get = |key: &str| a.settings.get(key);
        let text = |key: &str| get(key).and_then(|v| v.as_str()).map(String::from);
        let var = text("token_env").unwrap_or_else(|| "VOIDMATE_DISCORD_TOKEN".into());
        let token = std::env::var(&var).with_context(|| {
            format!("[discord] token_env names {var}, which is not set in the environment")
        })?;
        let guild = match get("guild_id") {
            None => None,
            Some(v) => {
                let id = v
                    .as_integer()
                    .map(|i| i as u64)
                    .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
                    .filter(|&id| id > 0)
                    .ok_or_else(|| anyhow!("[discord] guild_id must be a server id (a number)"))?;
                Some(GuildId::new(id))
            }
        };
        let shards = match (get("shards"), get("shard_range")) {
            (None, None) => Shards::Count(1),
            (Some(v), None) if v.as_str() == Some("auto") => Shards::Auto,
            (Some(v), range) => {
                let total = v.as_integer().filter(|&n| n > 0).ok_or_else(|| {
                    anyhow!("[discord] shards must be \"auto\" or a positive number")
                })? as u32;
                match range.and_then(|r| r.as_array()) {
                    None if range.is_some() => {
                        bail!("[discord] shard_range must be [first, last], like [0, 3]")
                    }
                    None => Shards::Count(total),
                    Some(r) => {
                        let n = |i: usize| r.get(i).and_then(|v| v.as_integer());
                        match (n(0), n(1), r.len()) {
                            (Some(first), Some(last), 2)
                                if 0 <= first && first <= last && last < total as i64 =>
                            {
                                Shards::Range {
                                    first: first as u32,
                                    last: last as u32,
                                    total,
                                }
                            }
                            _ => bail!(
                                "[discord] shard_range must be [first, last] with first <= last < shards ({total})"
                            ),
                        }
                    }
                }
            }
            (None, Some(_)) => bail!("[discord] shard_range needs shards, the total count"),
        };
        let millis = |key: &str, default: i64| {
            get(key)
                .and_then(|v| v.as_integer())
                .unwrap_or(default)
                .max(0) as u64
        };
        Ok(DiscordConfig {
            token,
            guild,
            shards,
            api_url: text("api_url"),
            defer_after: Duration::from_millis(millis("defer_after_ms", 1000)),
            tick: Duration::from_secs(millis("tick_seconds", 1).max(1)),
            message_content: get("message_content")
                .map(|v| {
                    v.as_bool()
                        .ok_or_else(|| anyhow!("[discord] message_content must be true or false"))
                })
                .transpose()?
                .unwrap_or(false),
        })
    }
}

/// What every handler shares (cheap to clone).
#[derive(Clone)]
pub struct Data {
    core: Core,
    cfg: DiscordConfig,
    /// The bot's own id, from the ready event.
    me: Arc<OnceLock<UserId>>,
    /// The bot as a player (challenging it plays the engine).
    bot: Arc<OnceLock<Player>>,
    /// The bot's managed role in each guild (the role Discord creates for a
    /// bot, `tags.bot_id` naming it), from the guild's create event: the
    /// member list offers it under the bot's name, so `@Voidmate` often
    /// arrives as a mention of this role.
    /// `None` for a guild known to have none (a bot invited without
    /// permissions gets no role).
    roles: Arc<Mutex<HashMap<GuildId, Option<RoleId>>>>,
    /// This process's shards and whether each is connected now, for the
    /// health report (`voidmate health`).
    shards: Arc<Mutex<std::collections::BTreeMap<u32, bool>>>,
}

/// The Discord namespace of player ids: `discord:80351110224678912`.
pub const PLATFORM: &str = "discord";

/// A Discord user as a player: their id, which a rename keeps, and the
/// name Discord shows for them now (the global display name, else the
/// username).
fn player(user: &User) -> Player {
    let name = user
        .global_name
        .clone()
        .unwrap_or_else(|| user.name.clone());
    Player::new(PlayerId::new(PLATFORM, &user.id.to_string()), name)
}

/// The Discord user behind a player of this platform.
fn user_id(p: &Player) -> Option<UserId> {
    if p.id.platform() != PLATFORM {
        return None;
    }
    p.id.local()
        .parse::<u64>()
        .ok()
        .filter(|&n| n != 0)
        .map(UserId::new)
}

impl Data {
    /// Notes that `shard` is connected or not, for the health report.
    fn see_shard(&self, shard: u32, connected: bool) {
        self.shards
            .lock()
            .expect("not poisoned")
            .insert(shard, connected);
        self.report_shards();
    }

    fn report_shards(&self) {
        let shards = self.shards.lock().expect("not poisoned");
        let up = shards.values().filter(|c| **c).count();
        let ids: Vec<String> = shards.keys().map(u32::to_string).collect();
        let total = match self.cfg.shards {
            Shards::Range { total, .. } => format!(" of {total}"),
            _ => String::new(),
        };
        self.core.report(
            PLATFORM,
            !shards.is_empty() && up == shards.len(),
            format!(
                "shards [{}]{total}, {up} of {} connected",
                ids.join(", "),
                shards.len()
            ),
        );
    }

    /// Remembers `role` if it is the bot's managed role in `guild`.
    fn see_role(&self, guild: GuildId, role: &serenity::Role) {
        let Some(&me) = self.me.get() else { return };
        if role.tags.bot_id == Some(me) {
            let mut roles = self.roles.lock().expect("not poisoned");
            roles.insert(guild, Some(role.id));
        }
    }

    /// The bot's managed role in `guild`. Known from the guild's create
    /// event; a message handled before that event (serenity handles events
    /// concurrently) asks Discord once.
    async fn role(&self, http: &serenity::Http, guild: Option<GuildId>) -> Option<RoleId> {
        let guild = guild?;
        if let Some(known) = self.roles.lock().expect("not poisoned").get(&guild) {
            return *known;
        }
        let me = *self.me.get()?;
        let found = match guild.roles(http).await {
            Ok(roles) => roles
                .values()
                .find(|r| r.tags.bot_id == Some(me))
                .map(|r| r.id),
            Err(e) => {
                tracing::warn!(%guild, "cannot read the guild's roles: {e}");
                return None;
            }
        };
        let mut roles = self.roles.lock().expect("not poisoned");
        *roles.entry(guild).or_insert(found)
    }

    /// The reply's outbox entries are posted: the core sends them no more.
    /// (An interaction answered directly cannot carry a nonce; confirming
    /// right after the answer keeps the window for a double post small.)
    async fn confirm(&self, entries: &[i64]) {
        for entry in entries {
            self.core.delivered(*entry).await;
        }
    }

    /// Where a reply goes: a game that begins in a thread of its own
    /// ([`Reply::thread`]) gets the thread here, opened in `channel`; the
    /// game moves there, its first words, board and pings are posted there,
    /// and what is left to say in `channel` is a pointer to it. If the
    /// thread cannot be opened (no permission, or `channel` is itself a
    /// thread) the game is played in `channel`, and the reply says so.
    async fn place(&self, http: &serenity::Http, channel: ChannelId, mut reply: Reply) -> Reply {
        let Some(thread) = reply.thread.take() else {
            return reply;
        };
        let opened = channel
            .create_thread(
                http,
                CreateThread::new(thread.name.as_str())
                    .kind(serenity::ChannelType::PublicThread)
                    .auto_archive_duration(serenity::AutoArchiveDuration::OneWeek),
            )
            .await;
        let here = |mut reply: Reply| {
            reply
                .text
                .push_str(" (I could not open a thread for this game, so it is played here.)");
            reply
        };
        let opened = match opened {
            Ok(t) => t.id,
            Err(e) => {
                tracing::warn!(%channel, "cannot open a thread for a game: {e}");
                return here(reply);
            }
        };
        let (from, to) = (channel.to_string(), opened.to_string());
        match self
            .core
            .move_game(thread.game, &from, &to, &reply.deliveries)
            .await
        {
            Ok(true) => {}
            Ok(false) => return here(reply),
            Err(e) => {
                tracing::error!(game = thread.game, "cannot move a game to its thread: {e}");
                return here(reply);
            }
        }
        let out = Outgoing::new(reply);
        let entries = out.deliveries.clone();
        match send_patiently(http, opened, || out.clone().message()).await {
            Ok(_) => self.confirm(&entries).await,
            Err(e) => {
                // Owed in the thread now: the outbox posts it there.
                for entry in entries {
                    self.core.failed(entry, refusal(&e)).await;
                }
            }
        }
        Reply::new(format!(
            "Game #{} is played in its own thread: <#{opened}>.",
            thread.game
        ))
    }

    /// A core reply as a Discord message.
    async fn outgoing(&self, reply: Reply) -> Outgoing {
        Outgoing::new(reply)
    }
}

/// One message, ready for whichever endpoint sends it.
#[derive(Clone)]
struct Outgoing {
    content: String,
    embed: Option<CreateEmbed>,
    files: Vec<CreateAttachment>,
    components: Vec<CreateActionRow>,
    mentions: Vec<UserId>,
    ephemeral: bool,
    /// The idempotency key of a channel message (the reply's outbox key).
    nonce: Option<String>,
    /// The outbox entries to confirm once posted.
    deliveries: Vec<i64>,
}

impl Outgoing {
    /// The text's mentions become Discord mentions where they stand;
    /// anyone else to notify is named up front. Only they are pinged.
    fn new(reply: Reply) -> Outgoing {
        let nonce = reply.key();
        let mut text = String::new();
        let mut mentions: Vec<UserId> = Vec::new();
        for seg in reply.text.segments() {
            match seg {
                Segment::Plain(t) => text.push_str(t),
                Segment::Mention(p) => match user_id(p) {
                    Some(id) => {
                        text.push_str(&format!("<@{id}>"));
                        if !mentions.contains(&id) {
                            mentions.push(id);
                        }
                    }
                    None => text.push_str(&format!("@{}", p.name)),
                },
            }
        }
        let mut content = String::new();
        for id in reply.notify.iter().filter_map(user_id) {
            if !mentions.contains(&id) {
                content.push_str(&format!("<@{id}> "));
                mentions.push(id);
            }
        }
        let mut files = Vec::new();
        let mut embed = None;
        if let Some(card) = reply
            .image
            .is_none()
            .then(|| columns_embed(&text))
            .flatten()
        {
            // The command list: a field per command, not a file to open.
            embed = Some(card);
        } else if content.len() + text.len() > MAX_CONTENT {
            // A long history or PGN: the whole text as a file, nothing cut.
            let first = text.lines().next().unwrap_or("");
            let first: String = first.chars().take(MAX_CONTENT - 200).collect();
            content.push_str(&format!("{first}\n(The full text is attached.)"));
            files.push(CreateAttachment::bytes(
                reply.text.to_string().into_bytes(),
                "voidmate.txt",
            ));
        } else {
            content.push_str(&text);
        }
        if let Some(image) = reply.image {
            embed = image.board.as_ref().map(board_embed);
            files.push(CreateAttachment::bytes(image.png, "board.png").description(image.alt));
        }
        let components = reply
            .actions
            .iter()
            .map(|a| {
                CreateActionRow::Buttons(vec![
                    CreateButton::new(custom_id(a, true))
                        .label("Accept")
                        .style(ButtonStyle::Success),
                    CreateButton::new(custom_id(a, false))
                        .label("Decline")
                        .style(ButtonStyle::Danger),
                ])
            })
            .collect();
        Outgoing {
            content,
            embed,
            files,
            components,
            mentions,
            ephemeral: reply.audience == Audience::Author,
            nonce,
            deliveries: reply.deliveries,
        }
    }

    fn error(text: impl Into<String>) -> Outgoing {
        Outgoing {
            content: text.into(),
            embed: None,
            files: Vec::new(),
            components: Vec::new(),
            mentions: Vec::new(),
            ephemeral: true,
            nonce: None,
            deliveries: Vec::new(),
        }
    }

    fn allowed(&self) -> CreateAllowedMentions {
        CreateAllowedMentions::new().users(self.mentions.clone())
    }

    fn response(self) -> CreateInteractionResponseMessage {
        let allowed = self.allowed();
        let mut m = CreateInteractionResponseMessage::new()
            .content(self.content)
            .allowed_mentions(allowed)
            .ephemeral(self.ephemeral)
            .add_files(self.files)
            .components(self.components);
        if let Some(e) = self.embed {
            m = m.embed(e);
        }
        m
    }

    fn edit(self) -> EditInteractionResponse {
        let allowed = self.allowed();
        let mut m = EditInteractionResponse::new()
            .content(self.content)
            .allowed_mentions(allowed)
            .components(self.components);
        for f in self.files {
            m = m.new_attachment(f);
        }
        if let Some(e) = self.embed {
            m = m.embed(e);
        }
        m
    }

    fn followup(self) -> CreateInteractionResponseFollowup {
        let allowed = self.allowed();
        let mut m = CreateInteractionResponseFollowup::new()
            .content(self.content)
            .allowed_mentions(allowed)
            .ephemeral(self.ephemeral)
            .add_files(self.files)
            .components(self.components);
        if let Some(e) = self.embed {
            m = m.embed(e);
        }
        m
    }

    /// A channel message. With a nonce Discord keeps one message per
    /// nonce for a few minutes (`enforce_nonce`): a retried post of the same
    /// answer returns the first instead of showing twice.
    fn message(self) -> CreateMessage {
        let allowed = self.allowed();
        let mut m = CreateMessage::new()
            .content(self.content)
            .allowed_mentions(allowed)
            .add_files(self.files)
            .components(self.components);
        if let Some(n) = self.nonce {
            m = m.nonce(serenity::Nonce::String(n)).enforce_nonce(true);
        }
        if let Some(e) = self.embed {
            m = m.embed(e);
        }
        m
    }
}

/// A two-column text (the help's command list, see [`crate::columns`]) as
/// an embed: its first line the title, other lines the description, a
/// field per row. `None` if it does not fit Discord's embed limits (25
/// fields, 256 characters a name, 1024 a value, 6000 in all).
fn columns_embed(text: &str) -> Option<CreateEmbed> {
    use crate::columns::{columns, Line};
    let lines = columns(text)?;
    let (mut title, mut description, mut fields) = (None, Vec::new(), Vec::new());
    for line in lines {
        match line {
            Line::Plain(t) if title.is_none() => title = Some(t),
            Line::Plain(t) => description.push(t),
            Line::Row(name, value) => fields.push((format!("`{name}`"), value)),
        }
    }
    let total: usize = title.map_or(0, str::len)
        + description.iter().map(|d| d.len()).sum::<usize>()
        + fields.iter().map(|(n, v)| n.len() + v.len()).sum::<usize>();
    let fits = fields.len() <= 25
        && title.is_none_or(|t| t.len() <= 256)
        && fields
            .iter()
            .all(|(n, v)| n.len() <= 256 && v.len() <= 1024)
        && total <= 6000;
    if !fits {
        return None;
    }
    let mut embed = CreateEmbed::new().fields(fields.into_iter().map(|(n, v)| (n, v, false)));
    if let Some(t) = title {
        embed = embed.title(t);
    }
    if !description.is_empty() {
        embed = embed.description(description.join("\n"));
    }
    Some(embed)
}

fn board_embed(card: &BoardCard) -> CreateEmbed {
    let mut e = CreateEmbed::new()
        .title(format!("Game #{}: {}", card.game, card.variant))
        .field("White", &card.white, true)
        .field("Black", &card.black, true)
        .image("attachment://board.png")
        .footer(CreateEmbedFooter::new(&card.time_control))
        .colour(0x5b3e8c);
    match (&card.result, &card.to_move) {
        (Some(result), _) => e = e.field("Result", result, true),
        (None, Some(who)) => e = e.field("To move", who, true),
        (None, None) => {}
    }
    if let Some(m) = &card.last_move {
        e = e.field("Last move", m, true);
    }
    e
}

/// A button's id says what it answers and who may press it, by user id:
/// `vm:y:c:ALICE:BOB` (BOB accepts ALICE's challenge), `vm:n:d:12:BOB`.
/// At most 100 characters, as Discord allows: two snowflakes of at most
/// 20 digits fit.
fn custom_id(action: &Action, accept: bool) -> String {
    let yes = if accept { "y" } else { "n" };
    match action {
        Action::AnswerChallenge { challenger, to } => {
            format!("vm:{yes}:c:{}:{}", challenger.id.local(), to.local())
        }
        Action::AnswerDraw { game, to } => format!("vm:{yes}:d:{game}:{}", to.local()),
        Action::AnswerUndo { game, to } => format!("vm:{yes}:u:{game}:{}", to.local()),
    }
}

fn parse_custom_id(id: &str) -> Option<(Action, bool)> {
    let mut parts = id.split(':');
    if parts.next()? != "vm" {
        return None;
    }
    let accept = match parts.next()? {
        "y" => true,
        "n" => false,
        _ => return None,
    };
    let (kind, arg, to) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || to.parse::<u64>().is_err() {
        return None;
    }
    let to = PlayerId::new(PLATFORM, to);
    // A challenger is a user id here; the core's questions name players.
    let arg = match kind {
        "c" => PlayerId::new(PLATFORM, &arg.parse::<u64>().ok()?.to_string()).to_string(),
        _ => arg.to_string(),
    };
    Some((Action::from_parts(kind, &arg, None, to)?, accept))
}

/// Answers one interaction: directly when the core is quick, otherwise
/// deferred first and then completed.
///
/// Discord takes one response per interaction, and notifies the people a
/// message mentions only when the message is created, never when it is
/// edited (`topics/interactions`, `resources/message`). So a deferred
/// answer that must reach someone replaces the "thinking" placeholder with
/// a new follow-up message instead of editing it in. An interaction the core
/// has handled before (the same one delivered to two processes during a
/// deploy) gets no answer at all from the duplicate: the first handler's
/// answer must not lose its single response to "handled already".
struct Responder<'a> {
    http: &'a serenity::Http,
    id: InteractionId,
    token: &'a str,
    /// Where the interaction happened.
    channel: ChannelId,
}

/// Discord's answer when an interaction already has its response (error
/// 40060, "Interaction has already been acknowledged").
fn already_acknowledged(e: &serenity::Error) -> bool {
    matches!(e, serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r))
        if r.error.code == 40060)
}

impl Responder<'_> {
    async fn answer(&self, data: &Data, incoming: Incoming) -> Result<(), Error> {
        // A private command (a DM, `/program`) is answered to its author alone.
        let private = incoming.private;
        let core = data.core.clone();
        let mut work = tokio::spawn(async move { core.handle(&incoming).await });
        let quick = if data.cfg.defer_after.is_zero() {
            // Zero means: always defer.
            Err(())
        } else {
            tokio::time::timeout(data.cfg.defer_after, &mut work)
                .await
                .map_err(|_| ())
        };
        let (reply, placeholder) = match quick {
            Ok(done) => {
                let Some(reply) = done? else {
                    return Ok(());
                };
                if reply.thread.is_some() {
                    // Opening a thread and posting in it may take longer
                    // than Discord waits for the first response.
                    (Some(reply), self.defer(private).await?)
                } else {
                    return self.respond_now(data, reply).await;
                }
            }
            Err(_) => {
                let placeholder = self.defer(private).await?;
                (work.await?, placeholder)
            }
        };
        let Some(reply) = reply else {
            // Handled elsewhere: that handler answers with a follow-up;
            // our placeholder must not stay "thinking" beside it.
            if placeholder {
                self.http
                    .delete_original_interaction_response(self.token)
                    .await?;
            }
            return Ok(());
        };
        let reply = data.place(self.http, self.channel, reply).await;
        let out = data.outgoing(reply).await;
        let entries = out.deliveries.clone();
        // Edited into the placeholder only when that loses nothing: the
        // audience matches (a private placeholder takes anything, a public
        // one only a public answer) and nobody needs a notification.
        let fits = private || !out.ephemeral;
        let pings = !out.ephemeral && !out.mentions.is_empty();
        if placeholder && fits && !pings {
            out.edit().execute(self.http, self.token).await?;
        } else {
            if placeholder {
                self.http
                    .delete_original_interaction_response(self.token)
                    .await?;
            }
            out.followup()
                .execute(self.http, (None, self.token))
                .await?;
        }
        data.confirm(&entries).await;
        Ok(())
    }

    /// The answer as the interaction's one response, at once.
    async fn respond_now(&self, data: &Data, reply: Reply) -> Result<(), Error> {
        let out = data.outgoing(reply).await;
        let entries = out.deliveries.clone();
        let again = out.clone();
        match CreateInteractionResponse::Message(out.response())
            .execute(self.http, (self.id, self.token))
            .await
        {
            Ok(()) => {}
            // Another process took the response (it deferred): this
            // answer goes as a follow-up, a message of its own.
            Err(e) if already_acknowledged(&e) => {
                again
                    .followup()
                    .execute(self.http, (None, self.token))
                    .await?;
            }
            Err(e) => return Err(e.into()),
        }
        data.confirm(&entries).await;
        Ok(())
    }

    /// Defers the response ("thinking"); `true` if this placeholder is
    /// ours, `false` if another process answered the interaction first.
    async fn defer(&self, private: bool) -> Result<bool, Error> {
        let deferred = CreateInteractionResponse::Defer(
            CreateInteractionResponseMessage::new().ephemeral(private),
        )
        .execute(self.http, (self.id, self.token))
        .await;
        match deferred {
            Ok(()) => Ok(true),
            Err(e) if already_acknowledged(&e) => Ok(false),
            Err(e) => Err(e.into()),
        }
    }
}

/// Runs one slash command, typed: the core reads no text again.
async fn run(ctx: Ctx<'_>, cmd: Command) -> Result<(), Error> {
    run_as(ctx, cmd, false).await
}

/// Runs one slash command; `private`: answered to its author alone (so is
/// everything used in a direct message with the bot).
async fn run_as(ctx: Ctx<'_>, cmd: Command, private: bool) -> Result<(), Error> {
    let poise::Context::Application(app) = ctx else {
        return Ok(());
    };
    let data = ctx.data();
    let interaction = app.interaction;
    let incoming = Incoming {
        event_id: format!("discord:{}", interaction.id),
        channel: interaction.channel_id.to_string(),
        author: player(&interaction.user),
        input: Input::Command(cmd),
        mentions: Vec::new(),
        addressed: true,
        private: private || interaction.guild_id.is_none(),
        sent_ms: None,
    };
    Responder {
        http: &ctx.serenity_context().http,
        id: interaction.id,
        token: &interaction.token,
        channel: interaction.channel_id,
    }
    .answer(data, incoming)
    .await
}

// ---- choices ----

/// The games, as slash-command choices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum VariantChoice {
    #[name = "Void Chess"]
    Void,
    #[name = "Standard chess"]
    Standard,
    #[name = "Antichess"]
    Antichess,
    #[name = "Suicide Void Chess"]
    SuicideVoid,
    #[name = "Suicide Void Chess, promotion wins"]
    SuicideVoidPw,
    #[name = "Chess 99"]
    Chess99,
    #[name = "Black Holes"]
    BlackHoles,
    #[name = "Super Chess 16x16"]
    Super16,
}

impl VariantChoice {
    pub const ALL: [VariantChoice; 8] = [
        VariantChoice::Void,
        VariantChoice::Standard,
        VariantChoice::Antichess,
        VariantChoice::SuicideVoid,
        VariantChoice::SuicideVoidPw,
        VariantChoice::Chess99,
        VariantChoice::BlackHoles,
        VariantChoice::Super16,
    ];

    /// The variant's name in the rules registry.
    pub fn code(self) -> &'static str {
        GameKind::from(self).name()
    }
}

/// Every choice is a game and every game a choice: both directions are
/// exhaustive matches, so a new game does not compile until Discord offers it.
impl From<VariantChoice> for GameKind {
    fn from(choice: VariantChoice) -> GameKind {
        match choice {
            VariantChoice::Void => GameKind::Void,
            VariantChoice::Standard => GameKind::Standard,
            VariantChoice::Antichess => GameKind::Antichess,
            VariantChoice::SuicideVoid => GameKind::SuicideVoid,
            VariantChoice::SuicideVoidPw => GameKind::SuicideVoidPromotionWins,
            VariantChoice::Chess99 => GameKind::Chess99,
            VariantChoice::BlackHoles => GameKind::BlackHoles,
            VariantChoice::Super16 => GameKind::Super16,
        }
    }
}

impl From<GameKind> for VariantChoice {
    fn from(kind: GameKind) -> VariantChoice {
        match kind {
            GameKind::Void => VariantChoice::Void,
            GameKind::Standard => VariantChoice::Standard,
            GameKind::Antichess => VariantChoice::Antichess,
            GameKind::SuicideVoid => VariantChoice::SuicideVoid,
            GameKind::SuicideVoidPromotionWins => VariantChoice::SuicideVoidPw,
            GameKind::Chess99 => VariantChoice::Chess99,
            GameKind::BlackHoles => VariantChoice::BlackHoles,
            GameKind::Super16 => VariantChoice::Super16,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum TimeChoice {
    #[name = "No time limit"]
    None,
    #[name = "Bullet 1+0"]
    Bullet1,
    #[name = "Blitz 3+2"]
    Blitz3,
    #[name = "Blitz 5+0"]
    Blitz5,
    #[name = "Rapid 10+5"]
    Rapid10,
    #[name = "Rapid 15+10"]
    Rapid15,
    #[name = "Classical 30+30"]
    Classical30,
    #[name = "Correspondence: 1 day per move"]
    Day1,
    #[name = "Correspondence: 2 days per move"]
    Days2,
    #[name = "Correspondence: 3 days per move"]
    Days3,
    #[name = "Correspondence: 7 days per move"]
    Days7,
}

impl TimeChoice {
    fn code(self) -> &'static str {
        match self {
            TimeChoice::None => "none",
            TimeChoice::Bullet1 => "1+0",
            TimeChoice::Blitz3 => "3+2",
            TimeChoice::Blitz5 => "5+0",
            TimeChoice::Rapid10 => "10+5",
            TimeChoice::Rapid15 => "15+10",
            TimeChoice::Classical30 => "30+30",
            TimeChoice::Day1 => "1d",
            TimeChoice::Days2 => "2d",
            TimeChoice::Days3 => "3d",
            TimeChoice::Days7 => "7d",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum ModeChoice {
    #[name = "Default: no reprogramming"]
    Default,
    #[name = "Symmetric: one roster for both sides"]
    Symmetric,
    #[name = "Private: each side programs in secret"]
    Private,
}

impl ModeChoice {
    fn code(self) -> &'static str {
        match self {
            ModeChoice::Default => "default",
            ModeChoice::Symmetric => "symmetric",
            ModeChoice::Private => "private",
        }
    }
}

/// Piece colours, as the renderer paints them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum PaintChoice {
    White,
    Black,
    Red,
    Blue,
    Green,
    Gold,
    Silver,
    Purple,
    Orange,
    Pink,
    Teal,
    Brown,
}

impl PaintChoice {
    fn code(self) -> String {
        format!("{self:?}").to_ascii_lowercase()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum ColorChoice {
    White,
    Black,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum AnswerChoice {
    #[name = "Offer (or ask)"]
    Offer,
    Accept,
    Decline,
}

impl AnswerChoice {
    fn answer(choice: Option<AnswerChoice>) -> Answer {
        match choice {
            None | Some(AnswerChoice::Offer) => Answer::Ask,
            Some(AnswerChoice::Accept) => Answer::Accept,
            Some(AnswerChoice::Decline) => Answer::Decline,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum ThemeChoice {
    Classic,
    #[name = "High contrast"]
    HighContrast,
}

// ---- commands ----

async fn complete_move(ctx: Ctx<'_>, partial: &str) -> CreateAutocompleteResponse {
    let data = ctx.data();
    let me = player(ctx.author());
    let moves = data
        .core
        .suggest_moves(
            &ctx.channel_id().to_string(),
            &me.id,
            partial,
            MAX_SUGGESTIONS,
        )
        .await;
    CreateAutocompleteResponse::new().set_choices(
        moves
            .into_iter()
            .map(serenity::AutocompleteChoice::from)
            .collect(),
    )
}

async fn complete_topic(_ctx: Ctx<'_>, partial: &str) -> CreateAutocompleteResponse {
    let partial = partial.to_ascii_lowercase();
    let keys = help::TOPICS
        .iter()
        .map(|t| t.key)
        .filter(|k| k.contains(partial.as_str()))
        .take(MAX_SUGGESTIONS)
        .map(serenity::AutocompleteChoice::from)
        .collect();
    CreateAutocompleteResponse::new().set_choices(keys)
}

/// Challenge someone to a game in this channel.
// A slash command's options are its arguments.
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command)]
async fn challenge(
    ctx: Ctx<'_>,
    #[description = "Who to play"] user: User,
    #[description = "Which game (Void Chess if not given)"] variant: Option<VariantChoice>,
    #[description = "Time control (none if not given)"] time: Option<TimeChoice>,
    #[description = "Your side (White, who moves first, if not given)"] color: Option<ColorChoice>,
    #[description = "When you challenge me: my level, 1 (beginner) to 5 (full strength)"]
    #[min = 1]
    #[max = 5]
    level: Option<u8>,
    #[description = "Super Chess 16x16: reprogrammed pieces (default: none)"] programs: Option<
        ModeChoice,
    >,
    #[description = "Play the game in a thread of its own (default: this channel's setting)"]
    thread: Option<bool>,
) -> Result<(), Error> {
    let cmd = Command::Challenge {
        thread,
        opponent: Someone::Known(player(&user)),
        variant: variant.map(|v| v.code().to_string()),
        time: time.and_then(|t| TimeControl::parse(t.code())),
        color: color.map(|c| match c {
            ColorChoice::White => command::ColorChoice::White,
            ColorChoice::Black => command::ColorChoice::Black,
        }),
        level,
        mode: programs.and_then(|m| ProgramMode::parse(m.code())),
    };
    run(ctx, cmd).await
}

/// Super Chess: send or see your private program (only you see the answer).
#[poise::command(slash_command)]
async fn program(
    ctx: Ctx<'_>,
    #[description = "Like `N: jump 2,1 1,2; R: slide 1,0` or `default`; empty shows yours"]
    program: Option<String>,
    #[description = "Game number, when you have several waiting"] game: Option<i64>,
) -> Result<(), Error> {
    // Never in the channel: the answer goes to the author alone.
    run_as(ctx, Command::program(program.as_deref(), game), true).await
}

/// Super Chess: write (or show) the roster of your symmetric challenge here.
#[poise::command(slash_command)]
async fn roster(
    ctx: Ctx<'_>,
    #[description = "Like `N: jump 2,1 1,2; R: slide 1,0`; empty shows the current one"]
    program: Option<String>,
) -> Result<(), Error> {
    run(ctx, Command::program(program.as_deref(), None)).await
}

/// Choose the colour of your pieces in your game here.
#[poise::command(slash_command)]
async fn colour(
    ctx: Ctx<'_>,
    #[description = "The colour"] colour: Option<PaintChoice>,
    #[description = "Game number"] game: Option<i64>,
) -> Result<(), Error> {
    let colour = colour.map(PaintChoice::code);
    run(ctx, Command::Colour { colour, game }).await
}

/// Accept a challenge waiting for you here.
#[poise::command(slash_command)]
async fn accept(
    ctx: Ctx<'_>,
    #[description = "Whose challenge (if several)"] user: Option<User>,
) -> Result<(), Error> {
    let challenger = user.map(|u| Someone::Known(player(&u)));
    run(ctx, Command::Accept { challenger }).await
}

/// Decline a challenge, or withdraw your own.
#[poise::command(slash_command)]
async fn decline(
    ctx: Ctx<'_>,
    #[description = "Whose challenge (if several)"] user: Option<User>,
) -> Result<(), Error> {
    let other = user.map(|u| Someone::Known(player(&u)));
    run(ctx, Command::Decline { other }).await
}

/// Play a move in your game here.
#[poise::command(slash_command, rename = "move")]
async fn play(
    ctx: Ctx<'_>,
    #[description = "The move, like e4, Nf3, O-O or e2e4"]
    #[rename = "move"]
    #[autocomplete = "complete_move"]
    mv: String,
    #[description = "Game number, when you play several here"] game: Option<i64>,
) -> Result<(), Error> {
    run(ctx, Command::play(&mv, game)).await
}

/// Show the board of the game here.
#[poise::command(slash_command)]
async fn board(
    ctx: Ctx<'_>,
    #[description = "Game number"] game: Option<i64>,
) -> Result<(), Error> {
    run(ctx, Command::Board { game }).await
}

/// List the legal moves, or those of the piece on one square.
#[poise::command(slash_command)]
async fn moves(
    ctx: Ctx<'_>,
    #[description = "A square, like e2"] square: Option<String>,
    #[description = "Game number"] game: Option<i64>,
) -> Result<(), Error> {
    let square = square
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty());
    run(ctx, Command::Moves { square, game }).await
}

/// Resign your game here.
#[poise::command(slash_command)]
async fn resign(
    ctx: Ctx<'_>,
    #[description = "Game number"] game: Option<i64>,
) -> Result<(), Error> {
    run(ctx, Command::Resign { game }).await
}

/// Offer a draw, or answer an offer.
#[poise::command(slash_command)]
async fn draw(
    ctx: Ctx<'_>,
    #[description = "Offer, accept or decline"] answer: Option<AnswerChoice>,
    #[description = "Game number"] game: Option<i64>,
) -> Result<(), Error> {
    let answer = AnswerChoice::answer(answer);
    run(ctx, Command::Draw { answer, game }).await
}

/// Ask to take back your last move, or answer such a request.
#[poise::command(slash_command)]
async fn undo(
    ctx: Ctx<'_>,
    #[description = "Ask, accept or decline"] answer: Option<AnswerChoice>,
    #[description = "Game number"] game: Option<i64>,
) -> Result<(), Error> {
    let answer = AnswerChoice::answer(answer);
    run(ctx, Command::Undo { answer, game }).await
}

/// Claim a Chess 99 draw: both kings attacked, or the 99-move rule with your move.
#[poise::command(slash_command)]
async fn claim(
    ctx: Ctx<'_>,
    #[description = "Your move, for a 99-move claim"]
    #[rename = "move"]
    #[autocomplete = "complete_move"]
    mv: Option<String>,
    #[description = "Game number"] game: Option<i64>,
) -> Result<(), Error> {
    run(ctx, Command::claim(mv.as_deref(), game)).await
}

/// The games and challenges in this channel.
#[poise::command(slash_command)]
async fn games(ctx: Ctx<'_>) -> Result<(), Error> {
    run(ctx, Command::Games).await
}

/// The moves of a game so far.
#[poise::command(slash_command)]
async fn history(
    ctx: Ctx<'_>,
    #[description = "Game number"] game: Option<i64>,
    #[description = "As PGN"] pgn: Option<bool>,
) -> Result<(), Error> {
    let pgn = pgn == Some(true);
    run(ctx, Command::History { game, pgn }).await
}

/// The games I play.
#[poise::command(slash_command)]
async fn variants(ctx: Ctx<'_>) -> Result<(), Error> {
    run(ctx, Command::Variants).await
}

/// The rules of a game, or an answer to a question about them.
#[poise::command(slash_command)]
async fn rules(
    ctx: Ctx<'_>,
    #[description = "Which game"] variant: Option<VariantChoice>,
    #[description = "A topic or a question, like minister or \"can a pawn cross a void?\""]
    #[autocomplete = "complete_topic"]
    topic: Option<String>,
) -> Result<(), Error> {
    let query = match (variant, topic) {
        (_, Some(t)) => t,
        (Some(v), None) => v.code().to_string(),
        (None, None) => String::new(),
    };
    run(ctx, Command::Rules { query }).await
}

/// How to use me.
#[poise::command(slash_command)]
async fn help(
    ctx: Ctx<'_>,
    #[description = "A command, like challenge"] command: Option<String>,
) -> Result<(), Error> {
    let topic = command
        .map(|c| c.trim().trim_start_matches('/').to_ascii_lowercase())
        .filter(|c| !c.is_empty());
    run(ctx, Command::Help { topic }).await
}

/// This channel's settings: board theme and bare moves.
#[poise::command(slash_command)]
async fn settings(
    ctx: Ctx<'_>,
    #[description = "Board colours"] theme: Option<ThemeChoice>,
    #[description = "Take a message that is only a move (like e4) as a move"] bare_moves: Option<
        bool,
    >,
    #[description = "Play each new game here in a thread of its own"] threads: Option<bool>,
) -> Result<(), Error> {
    let on = |on: bool| if on { "on" } else { "off" };
    let mut changes: Vec<(&str, &str)> = Vec::new();
    match theme {
        Some(ThemeChoice::Classic) => changes.push(("theme", "classic")),
        Some(ThemeChoice::HighContrast) => changes.push(("theme", "high-contrast")),
        None => {}
    }
    if let Some(b) = bare_moves {
        changes.push(("bare-moves", on(b)));
    }
    if let Some(t) = threads {
        changes.push(("threads", on(t)));
    }
    let setting = |key: &str, value: &str| Command::Settings {
        key: Some(key.into()),
        value: Some(value.into()),
    };
    // One setting per command in the core: all but the last are applied
    // first, and the answer to the last shows them all.
    let cmd = match changes.pop() {
        Some((key, value)) => setting(key, value),
        None => Command::Settings {
            key: None,
            value: None,
        },
    };
    if !changes.is_empty() {
        let poise::Context::Application(app) = ctx else {
            return Ok(());
        };
        for (key, value) in changes {
            let _ = ctx
                .data()
                .core
                .handle(&Incoming {
                    event_id: format!("discord:{}:{key}", app.interaction.id),
                    channel: ctx.channel_id().to_string(),
                    author: player(ctx.author()),
                    input: Input::Command(setting(key, value)),
                    mentions: Vec::new(),
                    addressed: true,
                    private: false,
                    sent_ms: None,
                })
                .await;
        }
    }
    run(ctx, cmd).await
}

/// Every slash command, as registered.
pub fn commands() -> Vec<poise::Command<Data, Error>> {
    vec![
        challenge(),
        accept(),
        decline(),
        play(),
        board(),
        moves(),
        resign(),
        draw(),
        undo(),
        claim(),
        games(),
        history(),
        variants(),
        rules(),
        help(),
        settings(),
        program(),
        roster(),
        colour(),
    ]
}

// ---- events other than slash commands ----

async fn on_event(
    ctx: &serenity::Context,
    event: &serenity::FullEvent,
    data: &Data,
) -> Result<(), Error> {
    match event {
        serenity::FullEvent::InteractionCreate {
            interaction: serenity::Interaction::Component(press),
        } => on_button(ctx, press, data).await,
        serenity::FullEvent::Message { new_message } => on_message(ctx, new_message, data).await,
        serenity::FullEvent::GuildCreate { guild, .. } => {
            for role in guild.roles.values() {
                data.see_role(guild.id, role);
            }
            // Known now: with no managed role, none is asked for later.
            let mut roles = data.roles.lock().expect("not poisoned");
            roles.entry(guild.id).or_insert(None);
            Ok(())
        }
        serenity::FullEvent::Ready { data_about_bot } => {
            let shard = data_about_bot.shard.map(|s| s.id.0).unwrap_or(0);
            data.see_shard(shard, true);
            Ok(())
        }
        serenity::FullEvent::ShardStageUpdate { event } => {
            let connected = event.new == serenity::ConnectionStage::Connected;
            data.see_shard(event.shard_id.0, connected);
            Ok(())
        }
        serenity::FullEvent::GuildRoleCreate { new } => {
            data.see_role(new.guild_id, new);
            Ok(())
        }
        serenity::FullEvent::GuildRoleUpdate { new, .. } => {
            data.see_role(new.guild_id, new);
            Ok(())
        }
        _ => Ok(()),
    }
}

async fn on_button(
    ctx: &serenity::Context,
    press: &serenity::ComponentInteraction,
    data: &Data,
) -> Result<(), Error> {
    let Some((action, accept)) = parse_custom_id(&press.data.custom_id) else {
        // A button from an older version of the bot, or one we never made:
        // every interaction gets an answer, this one to its presser alone.
        let out = Outgoing::error(
            "That button is no longer valid. Use the slash commands (`/games` lists what is open here).",
        );
        CreateInteractionResponse::Message(out.response())
            .execute(&ctx.http, (press.id, press.token.as_str()))
            .await?;
        return Ok(());
    };
    let who = player(&press.user);
    let respond = Responder {
        http: &ctx.http,
        id: press.id,
        token: &press.token,
        channel: press.channel_id,
    };
    if &who.id != action.who() {
        let what = match action {
            Action::AnswerChallenge { .. } => "challenge",
            Action::AnswerDraw { .. } => "draw offer",
            Action::AnswerUndo { .. } => "takeback request",
        };
        let out = Outgoing::error(format!(
            "This is not your game: only <@{}> can answer this {what}.",
            action.who().local()
        ));
        CreateInteractionResponse::Message(out.response())
            .execute(&ctx.http, (press.id, press.token.as_str()))
            .await?;
        return Ok(());
    }
    let incoming = Incoming {
        event_id: format!("discord:{}", press.id),
        channel: press.channel_id.to_string(),
        author: who,
        input: Input::Command(action.answer(accept)),
        mentions: Vec::new(),
        addressed: true,
        private: false,
        sent_ms: None,
    };
    respond.answer(data, incoming).await?;
    // The question is answered: its buttons go.
    press
        .channel_id
        .edit_message(
            &ctx.http,
            press.message.id,
            EditMessage::new().components(Vec::new()),
        )
        .await?;
    Ok(())
}

/// A message that mentions the bot, or replies to one of its messages.
async fn on_message(
    ctx: &serenity::Context,
    msg: &serenity::Message,
    data: &Data,
) -> Result<(), Error> {
    let Some(&me) = data.me.get() else {
        return Ok(());
    };
    if msg.author.bot || msg.author.id == me {
        return Ok(());
    }
    // The bot is mentioned as a user, or as its managed role (what Discord's
    // member list offers under the bot's name).
    let role = match msg.mention_roles.is_empty() {
        true => None,
        false => data
            .role(&ctx.http, msg.guild_id)
            .await
            .filter(|r| msg.mention_roles.contains(r)),
    };
    let bot_tags: Vec<String> = [format!("<@{me}>"), format!("<@!{me}>")]
        .into_iter()
        .chain(role.map(|r| format!("<@&{r}>")))
        .collect();
    let mentioned = (msg.mentions.iter().any(|u| u.id == me) || role.is_some())
        && bot_tags.iter().any(|t| msg.content.contains(t.as_str()));
    let replied = msg
        .referenced_message
        .as_ref()
        .is_some_and(|m| m.author.id == me);
    // In a direct message everything is meant for the bot, and private.
    let direct = msg.guild_id.is_none();
    // Other lines carry their text only with the message-content intent;
    // then they go to the core as chatter, which it takes only as a bare
    // move by the player to move.
    if !mentioned && !replied && !direct && !data.cfg.message_content {
        return Ok(());
    }
    // A leading mention of the bot only addresses it; any other mention of
    // it names it (`@Voidmate Chess challenge @Voidmate Chess`, or just
    // `challenge @Voidmate Chess`).
    let content = msg.content.trim_start();
    let text = bot_tags
        .iter()
        .find_map(|m| content.strip_prefix(m.as_str()))
        .unwrap_or(content);
    // Everyone mentioned, as Discord resolved them: `<@id>` in the text is
    // that user, whatever their name.
    let mut mentions = Vec::new();
    for u in &msg.mentions {
        for written in [format!("<@{}>", u.id), format!("<@!{}>", u.id)] {
            mentions.push(Mentioned {
                written,
                who: player(u),
            });
        }
    }
    // The bot's role names the bot (`challenge @Voidmate` picked as the role).
    if let (Some(r), Some(bot)) = (role, data.bot.get()) {
        mentions.push(Mentioned {
            written: format!("<@&{r}>"),
            who: bot.clone(),
        });
    }
    let incoming = Incoming {
        event_id: format!("discord:{}", msg.id),
        channel: msg.channel_id.to_string(),
        author: player(&msg.author),
        input: Input::Line(text.split_whitespace().collect::<Vec<_>>().join(" ")),
        mentions,
        // A reply without a mention is only taken as a move; "nice one!"
        // under a board is not a command.
        addressed: mentioned || direct,
        private: direct,
        sent_ms: None,
    };
    let Some(reply) = data.core.handle(&incoming).await else {
        return Ok(());
    };
    let reply = data.place(&ctx.http, msg.channel_id, reply).await;
    let out = data.outgoing(reply).await;
    let entries = out.deliveries.clone();
    // The message answered may be gone by now (deleted by its author or a
    // moderator): Discord then posts the answer as a plain message instead
    // of refusing it (`fail_if_not_exists`, `resources/message`).
    let mut reference = serenity::MessageReference::from(msg);
    reference.fail_if_not_exists = Some(false);
    let sent = send_patiently(&ctx.http, msg.channel_id, || {
        out.clone().message().reference_message(reference.clone())
    })
    .await;
    match sent {
        Ok(_) => data.confirm(&entries).await,
        Err(e) => {
            // The outbox tries again, backing off, with the same nonce.
            for entry in entries {
                data.core.failed(entry, refusal(&e)).await;
            }
            return Err(e.into());
        }
    }
    Ok(())
}

/// Posts the core's notices (reminders, time forfeits) as they fall due.
async fn post_notices(http: Arc<serenity::Http>, data: Data) {
    loop {
        tokio::time::sleep(data.cfg.tick).await;
        for notice in data.core.tick().await {
            let Ok(channel) = notice.channel.parse::<u64>() else {
                continue;
            };
            let out = data.outgoing(notice.reply).await;
            match send_patiently(&http, ChannelId::new(channel), || out.clone().message()).await {
                Ok(_) => data.core.delivered(notice.id).await,
                Err(e) => {
                    tracing::warn!(%channel, "cannot post to a Discord channel: {e}");
                    data.core.failed(notice.id, refusal(&e)).await;
                }
            }
        }
    }
}

/// Sends a channel message, waiting out a 429 Too Many Requests. With
/// serenity's rate limiter off (whenever `api_url` is set) a 429 comes back
/// as an error, and serenity keeps neither its `Retry-After` nor the body's
/// `retry_after`; Discord's per-route buckets refill within seconds
/// (`topics/rate-limits`), so the wait starts at a second and doubles, three
/// times at most, before the outbox's own backoff takes over. An answer
/// that only reads (a board) has no outbox entry: this is what keeps it.
async fn send_patiently(
    http: &serenity::Http,
    channel: ChannelId,
    message: impl Fn() -> CreateMessage,
) -> Result<serenity::Message, serenity::Error> {
    let mut wait = Duration::from_secs(1);
    let mut unarchived = false;
    for _ in 0..4 {
        match channel.send_message(http, message()).await {
            Err(e) if status(&e) == Some(429) => {
                tracing::debug!(%channel, ?wait, "rate-limited by Discord; waiting");
                tokio::time::sleep(wait).await;
                wait *= 2;
            }
            // A game's thread archives itself after a week without a word;
            // a notice for it (a reminder, a loss on time) opens it again
            // (`resources/channel`: unarchive with `archived: false`).
            Err(e) if discord_code(&e) == Some(ARCHIVED_THREAD) && !unarchived => {
                unarchived = true;
                channel
                    .edit_thread(http, EditThread::new().archived(false))
                    .await?;
            }
            other => return other,
        }
    }
    channel.send_message(http, message()).await
}

/// Discord's error code for a post to an archived thread.
const ARCHIVED_THREAD: isize = 50083;

/// The JSON error code of a refused request.
fn discord_code(e: &serenity::Error) -> Option<isize> {
    match e {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => Some(r.error.code),
        _ => None,
    }
}

fn status(e: &serenity::Error) -> Option<u16> {
    match e {
        serenity::Error::Http(http) => http.status_code().map(|s| s.as_u16()),
        _ => None,
    }
}

/// How to take a refused post. Discord asks that a 403 or 404 (Missing
/// Access 50001, Missing Permissions 50013, Unknown Channel 10003) not be
/// retried in a loop: 10,000 refused requests in 10 minutes get the bot's
/// address banned (`topics/rate-limits.mdx`, invalid request limit).
/// Anything else may pass later.
fn refusal(e: &serenity::Error) -> Refusal {
    match e {
        serenity::Error::Http(http) => match http.status_code().map(|s| s.as_u16()) {
            Some(403 | 404) => Refusal::Permanent,
            _ => Refusal::Temporary { retry_after: None },
        },
        _ => Refusal::Temporary { retry_after: None },
    }
}

/// Stops a background task when its owner goes.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Connects to Discord and answers until the connection ends for good.
pub async fn run_bot(core: Core, cfg: DiscordConfig) -> Result<()> {
    let mut http = serenity::HttpBuilder::new(&cfg.token);
    if let Some(url) = &cfg.api_url {
        http = http
            .proxy(url.trim_end_matches('/'))
            .ratelimiter_disabled(true);
    }
    let http = http.build();
    core.set_command_style(
        PLATFORM,
        crate::game::CommandStyle {
            prefix: "/".into(),
            reactions: false,
            buttons: true,
            reads_chat: cfg.message_content,
            threads: true,
        },
    );
    let data = Data {
        core,
        cfg: cfg.clone(),
        me: Arc::default(),
        bot: Arc::default(),
        roles: Arc::default(),
        shards: Arc::new(Mutex::new(
            cfg.shards.ids().into_iter().map(|id| (id, false)).collect(),
        )),
    };
    data.report_shards();
    let ticker: Arc<Mutex<Option<AbortOnDrop>>> = Arc::new(Mutex::new(None));
    let framework = {
        let data = data.clone();
        let ticker = ticker.clone();
        poise::Framework::builder()
            .options(poise::FrameworkOptions {
                commands: commands(),
                event_handler: |ctx, event| {
                    Box::pin(on_event(ctx.serenity_context, event, ctx.user_data))
                },
                on_error: |e| Box::pin(on_error(e)),
                // Messages that mention the bot are ours (`on_message`): poise
                // must not read them as prefix commands it does not have.
                prefix_options: poise::PrefixFrameworkOptions {
                    mention_as_prefix: false,
                    ..Default::default()
                },
                ..Default::default()
            })
            .setup(move |ctx, ready, framework| {
                Box::pin(async move {
                    let _ = data.me.set(ready.user.id);
                    // Challenging the bot itself plays its engine.
                    let bot = Player::new(
                        PlayerId::new(PLATFORM, &ready.user.id.to_string()),
                        ready.user.name.clone(),
                    );
                    let _ = data.bot.set(bot.clone());
                    data.core.add_bot(bot).await?;
                    let commands = &framework.options().commands;
                    match data.cfg.guild {
                        Some(guild) => {
                            poise::builtins::register_in_guild(ctx, commands, guild).await?
                        }
                        None => poise::builtins::register_globally(ctx, commands).await?,
                    }
                    let task = tokio::spawn(post_notices(ctx.http.clone(), data.clone()));
                    *ticker.lock().expect("not poisoned") = Some(AbortOnDrop(task));
                    tracing::info!(
                        "connected to Discord as {}; {} commands registered {}",
                        ready.user.name,
                        commands.len(),
                        match data.cfg.guild {
                            Some(g) => format!("in guild {g}"),
                            None => "globally".into(),
                        }
                    );
                    Ok(data)
                })
            })
            // Owners are for owner-only commands, which we do not have;
            // asking Discord for them costs a request at every start.
            .initialize_owners(false)
            .build()
    };
    let mut intents =
        GatewayIntents::GUILDS | GatewayIntents::GUILD_MESSAGES | GatewayIntents::DIRECT_MESSAGES;
    if cfg.message_content {
        intents |= GatewayIntents::MESSAGE_CONTENT;
    }
    let mut client = serenity::ClientBuilder::new_with_http(http, intents)
        .framework(framework)
        .await
        .context("cannot set up the Discord client")?;
    let started = match cfg.shards {
        Shards::Auto => client.start_autosharded().await,
        Shards::Count(n) => client.start_shards(n).await,
        // serenity reads the range's end as the last shard, inclusive.
        Shards::Range { first, last, total } => client.start_shard_range(first..last, total).await,
    };
    drop(ticker);
    started.context("the Discord connection ended")
}

async fn on_error(error: poise::FrameworkError<'_, Data, Error>) {
    match error {
        poise::FrameworkError::ArgumentParse { ctx, input, .. } => {
            let what = input.unwrap_or_default();
            let _ = ctx
                .send(
                    poise::CreateReply::default()
                        .ephemeral(true)
                        .content(format!(
                        "I could not read the option `{what}`; pick one of the offered choices."
                    )),
                )
                .await;
        }
        poise::FrameworkError::UnknownInteraction { interaction, .. } => {
            tracing::warn!(command = %interaction.data.name, "a command I do not have");
        }
        other => {
            tracing::error!("a Discord handler failed: {other}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Text;

    #[test]
    fn every_variant_is_a_choice() {
        // Each game is one choice and back, and the list offers them all.
        for kind in GameKind::ALL {
            let choice = VariantChoice::from(kind);
            assert_eq!(GameKind::from(choice), kind);
            assert!(
                VariantChoice::ALL.contains(&choice),
                "{kind} is not offered"
            );
            assert_eq!(
                voidmate_rules::variants::by_name(choice.code()).map(|r| r.kind()),
                Some(Some(kind))
            );
        }
        assert_eq!(VariantChoice::ALL.len(), GameKind::ALL.len());
        for t in [
            TimeChoice::None,
            TimeChoice::Bullet1,
            TimeChoice::Blitz3,
            TimeChoice::Blitz5,
            TimeChoice::Rapid10,
            TimeChoice::Rapid15,
            TimeChoice::Classical30,
            TimeChoice::Day1,
            TimeChoice::Days2,
            TimeChoice::Days3,
            TimeChoice::Days7,
        ] {
            assert!(crate::game::command::TimeControl::parse(t.code()).is_some());
        }
    }

    /// The slash commands are the table of command words' (`slash`), no
    /// more and no fewer, so help and Discord name the same commands.
    #[test]
    fn slash_commands_follow_the_table_of_command_words() {
        let mut registered: Vec<String> = commands().iter().map(|c| c.name.to_string()).collect();
        let mut table: Vec<String> = crate::game::command::words::WORDS
            .iter()
            .flat_map(|c| c.slash.iter().map(|s| s.to_string()))
            .collect();
        registered.sort();
        table.sort();
        assert_eq!(registered, table);
    }

    #[test]
    fn button_ids_round_trip_and_fit() {
        // Snowflakes are 64-bit: the longest are 20 digits.
        let id = |n: u64| PlayerId::new(PLATFORM, &n.to_string());
        let actions = [
            Action::AnswerChallenge {
                challenger: Player::stored(id(u64::MAX).as_str(), None),
                to: id(u64::MAX - 1),
            },
            Action::AnswerDraw {
                game: 123456789,
                to: id(42),
            },
            Action::AnswerUndo {
                game: i64::MAX,
                to: id(80351110224678912),
            },
        ];
        for a in actions {
            for yes in [true, false] {
                let id = custom_id(&a, yes);
                assert!(id.len() <= 100, "{id}");
                assert_eq!(parse_custom_id(&id), Some((a.clone(), yes)));
            }
        }
        assert_eq!(parse_custom_id("vm:y:x:1:bob"), None);
        assert_eq!(parse_custom_id("other:y:c:a:b"), None);
        assert_eq!(parse_custom_id("vm:y:d:notanumber:1"), None);
        // Ids from before identities (names) are no one's: the button is
        // ignored rather than answered for whoever has that name now.
        assert_eq!(parse_custom_id("vm:y:c:alice:bob"), None);
        assert_eq!(parse_custom_id("vm:y:d:12:bob"), None);
    }

    /// Mentions are rendered where the core put them, by id: a name with
    /// spaces, or one that is also a word in the text, changes nothing.
    #[test]
    fn mentions_render_by_id_and_ping_only_those_named() {
        let bob = Player::new(PlayerId::new(PLATFORM, "42"), "Bob Smith");
        let carol = Player::new(PlayerId::new(PLATFORM, "43"), "carol");
        let console = Player::new(PlayerId::new("console", "dave"), "dave");
        let text = Text::new()
            .mention(&bob)
            .say(", carol challenges you; Bob Smith is not pinged twice. ")
            .mention(&console);
        let reply = Reply {
            text,
            image: None,
            notify: vec![bob.clone(), carol.clone()],
            actions: vec![],
            is_error: false,
            audience: Audience::Everyone,
            deliveries: vec![],
            direct: None,
            thread: None,
        };
        let out = Outgoing::new(reply);
        assert_eq!(
            out.content,
            "<@43> <@42>, carol challenges you; Bob Smith is not pinged twice. @dave"
        );
        assert_eq!(out.mentions, vec![UserId::new(42), UserId::new(43)]);
    }

    #[test]
    fn a_long_text_goes_out_whole_as_a_file() {
        let text = "1. e4 e5 ".repeat(400);
        let bob = Player::new(PlayerId::new(PLATFORM, "42"), "bob");
        let reply = Reply {
            text: text.clone().into(),
            image: None,
            notify: vec![bob],
            actions: vec![],
            is_error: false,
            audience: Audience::Everyone,
            deliveries: vec![],
            direct: None,
            thread: None,
        };
        let out = Outgoing::new(reply);
        assert!(out.content.len() <= MAX_CONTENT);
        assert!(out.content.starts_with("<@42> "));
        assert_eq!(out.files.len(), 1);
    }

    #[test]
    fn the_documented_section_reads() {
        // SAFETY: tests in this module are the only readers of this variable.
        unsafe { std::env::set_var("VOIDMATE_DISCORD_TOKEN", "from-env") };
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../config/voidmate.toml");
        let cfg = crate::config::Config::load(Some(&path)).unwrap();
        let d = DiscordConfig::from_config(&cfg.discord).unwrap();
        assert_eq!(d.token, "from-env");
        assert_eq!(d.shards, Shards::Count(1));
        assert_eq!(d.defer_after, Duration::from_millis(1000));
        assert_eq!(d.tick, Duration::from_secs(1));
        assert_eq!((d.guild, d.api_url), (None, None));
    }

    fn section(toml_text: &str) -> Adapter {
        toml::from_str(toml_text).unwrap()
    }

    #[test]
    fn the_section_reads_shards_and_names_bad_values() {
        // SAFETY: tests in this module are the only readers of this variable.
        unsafe { std::env::set_var("VOIDMATE_TEST_DISCORD_TOKEN", "t0k3n") };
        let base = "enabled = true\ntoken_env = \"VOIDMATE_TEST_DISCORD_TOKEN\"\n";
        let cfg = DiscordConfig::from_config(&section(base)).unwrap();
        assert_eq!(cfg.token, "t0k3n");
        assert_eq!(cfg.shards, Shards::Count(1));
        assert_eq!(cfg.guild, None);
        assert_eq!(cfg.defer_after, Duration::from_millis(1000));
        let cfg = DiscordConfig::from_config(&section(&format!(
            "{base}shards = \"auto\"\nguild_id = \"123\""
        )))
        .unwrap();
        assert_eq!(cfg.shards, Shards::Auto);
        assert_eq!(cfg.guild, Some(GuildId::new(123)));
        let cfg = DiscordConfig::from_config(&section(&format!(
            "{base}shards = 8\nshard_range = [4, 7]"
        )))
        .unwrap();
        assert_eq!(
            cfg.shards,
            Shards::Range {
                first: 4,
                last: 7,
                total: 8
            }
        );
        let err = |extra: &str| {
            DiscordConfig::from_config(&section(&format!("{base}{extra}")))
                .unwrap_err()
                .to_string()
        };
        assert!(err("shards = 8\nshard_range = [4, 8]").contains("first <= last < shards"));
        assert!(err("shard_range = [0, 1]").contains("needs shards"));
        assert!(err("shards = 0").contains("positive number"));
        assert!(err("guild_id = \"general\"").contains("guild_id"));
        let missing = section("token_env = \"VOIDMATE_NOT_SET_ANYWHERE\"");
        assert_eq!(
            DiscordConfig::from_config(&missing).unwrap_err().to_string(),
            "[discord] token_env names VOIDMATE_NOT_SET_ANYWHERE, which is not set in the environment"
        );
    }
}
