#![allow(dead_code)]
//! A small stand-in for Discord on 127.0.0.1: the REST endpoints the bot
//! calls and a gateway (`gateway.rs`) that identifies, resumes and
//! dispatches what a test pushes. Payloads follow Discord's documented
//! shapes (API v10), so the real adapter runs over real HTTP and WebSocket.
//!
//! It behaves as Discord documents, including the unpleasant parts the bot
//! must cope with, each with its source
//! (https://docs.discord.com/developers/... unless said otherwise):
//! - an interaction's first response later than 3 s after the interaction
//!   gets 404 Unknown Interaction, code 10062
//!   (`interactions/receiving-and-responding#responding-to-an-interaction`:
//!   "you must send an initial response within 3 seconds");
//! - an interaction's token is good for 15 minutes (same page); after that
//!   its webhook calls get 401 Invalid Webhook Token, code 50027 (the code
//!   Discord answers, reported in discord/discord-api-docs#6851);
//! - editing or deleting a message that was never sent or is gone gets 404
//!   Unknown Message, code 10008 (`topics/opcodes-and-status-codes#json`);
//! - a second response to one interaction gets 400, code 40060;
//! - 429 Too Many Requests on any route, per route or global
//!   (`topics/rate-limits`): `Retry-After` and `X-RateLimit-Scope` headers,
//!   `X-RateLimit-Global` for the global limit, a body with `retry_after`
//!   and `global`; a request sent again before the wait is over is refused
//!   again. The global limit leaves the interaction endpoints alone ("not
//!   bound to the application's Global Rate Limit");
//! - a message create with `enforce_nonce` and a nonce seen in the last
//!   minutes returns the first message and posts nothing
//!   (`resources/message#create-message`);
//! - 403 Missing Permissions (50013), 404 Unknown Channel (10003), 400 for
//!   an archived thread (50083), a reply to a deleted message refused unless
//!   `fail_if_not_exists` is false (`resources/message#message-reference-structure`);
//! - ids are snowflakes: milliseconds since Discord's epoch in the high
//!   bits (`reference#snowflakes`), which the bot reads an interaction's
//!   age from.
//!
//! Every request is recorded, with JSON bodies and multipart attachments
//! decoded, for the test to check.

mod gateway;

pub use gateway::Logged;

use bytes::Bytes;

use http_body_util::{BodyExt, Full};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use std::convert::Infallible;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::net::TcpListener;
use tokio::sync::Notify;

pub const APP: u64 = 1000;
/// The bot's username: with a space, as many bots have.
pub const BOT_NAME: &str = "Voidmate Chess";
pub const GUILD: u64 = 2000;
/// A second guild, on shard 1 when the bot runs two shards (`GUILD` is on 0).
pub const GUILD_B: u64 = (1 << 22) + 2000;
pub const CHANNEL: u64 = 3000;
/// The role Discord made for the bot when it joined the guild (managed,
/// `tags.bot_id` = the bot): the member list offers it under the bot's name.
pub const BOT_ROLE: u64 = 2100;
/// An ordinary role, to mention by mistake.
pub const CLUB_ROLE: u64 = 2200;

/// One REST request as the bot sent it.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: String,
    /// Without the `/api/v10` prefix and the query.
    pub path: String,
    /// The JSON body, or a multipart request's `payload_json`.
    pub json: Value,
    /// Attachments of a multipart request: file name and bytes.
    pub files: Vec<(String, Vec<u8>)>,
    /// A message create that Discord answered with the message it already
    /// had for that nonce: nothing new was posted.
    pub deduplicated: bool,
    /// The status the fake answered with.
    pub status: u16,
}

impl Recorded {
    /// The message inside an interaction callback, or the body itself.
    pub fn message(&self) -> &Value {
        match self.json.get("data") {
            Some(d) if self.path.ends_with("/callback") => d,
            _ => &self.json,
        }
    }

    pub fn content(&self) -> &str {
        self.message()["content"].as_str().unwrap_or("")
    }

    pub fn ephemeral(&self) -> bool {
        self.message()["flags"].as_u64().unwrap_or(0) & 64 != 0
    }

    pub fn png(&self) -> Option<&[u8]> {
        self.files
            .iter()
            .find(|(name, bytes)| name == "board.png" && bytes.starts_with(b"\x89PNG\r\n\x1a\n"))
            .map(|(_, b)| b.as_slice())
    }

    /// Every button's custom id.
    pub fn buttons(&self) -> Vec<String> {
        let mut out = Vec::new();
        for row in self.message()["components"]
            .as_array()
            .into_iter()
            .flatten()
        {
            for b in row["components"].as_array().into_iter().flatten() {
                if let Some(id) = b["custom_id"].as_str() {
                    out.push(id.to_string());
                }
            }
        }
        out
    }

    /// Whether this request created a message others see: an interaction's
    /// message response (type 4), a follow-up, or a channel message, that
    /// Discord accepted, and not ephemeral. Edits create nothing.
    pub fn creates_visible_message(&self) -> bool {
        let parts: Vec<&str> = self.path.trim_start_matches('/').split('/').collect();
        let creates = match (self.method.as_str(), parts.as_slice()) {
            ("POST", ["interactions", _, _, "callback"]) => self.json["type"] == 4,
            ("POST", ["webhooks", _, _]) | ("POST", ["channels", _, "messages"]) => true,
            _ => false,
        };
        creates && self.status < 300 && !self.deduplicated && !self.ephemeral()
    }

    /// Whether the message notifies `user`: it mentions them and
    /// `allowed_mentions` (when given) lets that mention ping.
    pub fn notifies(&self, user: u64) -> bool {
        let content = self.content();
        if !content.contains(&format!("<@{user}>")) && !content.contains(&format!("<@!{user}>")) {
            return false;
        }
        match self.message().get("allowed_mentions") {
            None => true,
            Some(a) => {
                let listed = a["users"]
                    .as_array()
                    .is_some_and(|u| u.iter().any(|v| v == &json!(user.to_string())));
                let parsed = a["parse"]
                    .as_array()
                    .is_some_and(|p| p.iter().any(|v| v == "users"));
                listed || parsed
            }
        }
    }

    /// An embed field's value by name.
    pub fn field(&self, name: &str) -> Option<String> {
        self.message()["embeds"][0]["fields"]
            .as_array()?
            .iter()
            .find(|f| f["name"] == name)
            .and_then(|f| f["value"].as_str().map(String::from))
    }
}

/// Discord's epoch in Unix milliseconds (`reference#snowflakes`).
pub const DISCORD_EPOCH_MS: u64 = 1_420_070_400_000;

/// A new snowflake: now, in the high bits, and a counter below.
fn snowflake(counter: &AtomicU64) -> u64 {
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    ((ms - DISCORD_EPOCH_MS) << 22) | (counter.fetch_add(1, Ordering::SeqCst) & 0x3f_ffff)
}

/// A route a limit holds: a method and a path prefix, or `None` for the
/// global limit.
type Route = Option<(String, String)>;

/// A rate limit a test set: the next `times` requests that match are
/// refused with 429, each asking for `retry_after` seconds.
struct Limit {
    /// `None`: the global limit (every route but the interaction ones).
    route: Route,
    times: u64,
    retry_after: f64,
}

/// An interaction as the fake dispatched it.
struct Interaction {
    at: Instant,
    /// Its response's message, once the first response (a message, or the
    /// "thinking" placeholder) made one; `None` again once deleted.
    original: Option<String>,
    /// Follow-up messages made with its token.
    followups: HashSet<String>,
}

pub(crate) struct State {
    requests: Mutex<Vec<Recorded>>,
    changed: Notify,
    gateway_url: String,
    /// Where sessions resume: READY's `resume_gateway_url`.
    resume_url: String,
    next_id: AtomicU64,
    identify: Mutex<Option<Value>>,
    /// Channels where the bot may not post: Discord answers 403 with code
    /// 50013 Missing Permissions (`topics/opcodes-and-status-codes`).
    forbidden: Mutex<Vec<String>>,
    /// Rate limits to come, and the routes refused until a time.
    limits: Mutex<Vec<Limit>>,
    blocked: Mutex<Vec<(Route, Instant)>>,
    /// Messages deleted: a reply to one fails unless it says
    /// `fail_if_not_exists: false`.
    deleted: Mutex<Vec<String>>,
    /// Interactions by id, and their tokens' ids.
    interactions: Mutex<HashMap<String, Interaction>>,
    tokens: Mutex<HashMap<String, String>>,
    /// How long an interaction waits for its first response, and how long
    /// its token lives (3 s and 15 min; tests may say otherwise).
    response_window: Mutex<Duration>,
    token_life: Mutex<Duration>,
    /// Messages in channels: the bot's own and the users' (by id).
    messages: Mutex<HashSet<String>>,
    /// Messages created with `enforce_nonce`, by nonce.
    nonces: Mutex<HashMap<String, Value>>,
    /// Channels deleted: Discord answers 404 Unknown Channel (10003).
    gone: Mutex<Vec<String>>,
    /// Threads the bot opened: id -> (parent channel, name, archived).
    threads: Mutex<std::collections::BTreeMap<String, (String, String, bool)>>,
    /// The gateway's sessions, live or waiting to be resumed.
    sessions: Mutex<Vec<gateway::Session>>,
    next_session: AtomicU64,
    /// The privileged intents the application may use.
    privileged_allowed: AtomicU64,
    /// What the gateway saw and did.
    gateway_log: Mutex<Vec<Logged>>,
    /// Sessions that have been sent their ready event, over the fake's life.
    readies: AtomicU64,
}

impl State {
    fn log(&self, what: Logged) {
        self.gateway_log.lock().unwrap().push(what);
        self.changed.notify_waiters();
    }
}

/// The shard of `total` that receives a guild's events (`events/gateway`,
/// Sharding: `shard_id = (guild_id >> 22) % num_shards`); direct messages
/// (no guild) go to shard 0.
pub fn shard_of(guild: Option<u64>, total: u64) -> u64 {
    guild.map(|g| (g >> 22) % total.max(1)).unwrap_or(0)
}

pub struct FakeDiscord {
    pub api_url: String,
    state: Arc<State>,
    next_id: AtomicU64,
    /// Every event dispatched, by its id, for redelivery.
    dispatched: Mutex<std::collections::HashMap<String, (String, Value)>>,
    /// Members whose role lets them manage messages in the channel.
    moderators: Mutex<HashSet<u64>>,
}

pub fn user(id: u64, name: &str) -> Value {
    json!({
        "id": id.to_string(), "username": name, "discriminator": "0",
        "global_name": null, "avatar": null, "bot": id == APP,
    })
}

fn role(id: u64, name: &str, bot: Option<u64>) -> Value {
    let mut r = json!({
        "id": id.to_string(), "name": name, "color": 0,
        "colors": {"primary_color": 0, "secondary_color": null, "tertiary_color": null},
        "hoist": false, "icon": null, "unicode_emoji": null, "position": 1,
        "permissions": "2248473465835073", "managed": bot.is_some(), "mentionable": true, "flags": 0,
    });
    if let Some(bot) = bot {
        r["tags"] = json!({"bot_id": bot.to_string()});
    }
    r
}

/// The guild as a `GUILD_CREATE` event carries it (`events/gateway-events`,
/// Guild Create: the guild object and its extra fields), with its roles.
fn guild() -> Value {
    guild_with_id(GUILD)
}

fn guild_with_id(id: u64) -> Value {
    json!({
        "id": id.to_string(), "name": "Chess club", "icon": null, "icon_hash": null,
        "splash": null, "discovery_splash": null, "owner_id": "1", "afk_channel_id": null,
        "afk_timeout": 300, "verification_level": 0, "default_message_notifications": 1,
        "explicit_content_filter": 0,
        "roles": [role(id, "@everyone", None), role(BOT_ROLE, BOT_NAME, Some(APP)), role(CLUB_ROLE, "club", None)],
        "emojis": [], "features": [], "mfa_level": 0, "application_id": null,
        "system_channel_id": null, "system_channel_flags": 0, "rules_channel_id": null,
        "vanity_url_code": null, "description": null, "banner": null, "premium_tier": 0,
        "preferred_locale": "en-US", "public_updates_channel_id": null, "nsfw_level": 0,
        "stickers": [], "premium_progress_bar_enabled": false, "safety_alerts_channel_id": null,
        "joined_at": "2026-01-01T00:00:00.000000+00:00", "large": false, "unavailable": false,
        "member_count": 3, "voice_states": [], "members": [], "channels": [], "threads": [],
        "presences": [], "stage_instances": [], "guild_scheduled_events": [],
    })
}

/// A member's permissions in the channel: everyone's (which do not
/// include managing messages), and for a moderator MANAGE_MESSAGES (1 << 13)
/// too (`topics/permissions`).
const MEMBER_PERMISSIONS: u64 = 2248473465835073;
const MANAGE_MESSAGES: u64 = 1 << 13;

fn member(id: u64, name: &str, moderator: bool) -> Value {
    let permissions = match moderator {
        true => MEMBER_PERMISSIONS | MANAGE_MESSAGES,
        false => MEMBER_PERMISSIONS,
    };
    json!({
        "user": user(id, name), "roles": [], "joined_at": "2026-01-01T00:00:00.000000+00:00",
        "deaf": false, "mute": false, "flags": 0, "permissions": permissions.to_string(),
    })
}

/// A message object as Discord returns it.
pub fn message(id: u64, author: Value, content: &str) -> Value {
    json!({
        "id": id.to_string(), "channel_id": CHANNEL.to_string(), "guild_id": GUILD.to_string(),
        "author": author, "content": content,
        "timestamp": "2026-11-21T12:00:00.000000+00:00", "edited_timestamp": null,
        "tts": false, "mention_everyone": false, "mentions": [], "mention_roles": [],
        "attachments": [], "embeds": [], "pinned": false, "type": 0,
    })
}

impl FakeDiscord {
    pub async fn start() -> FakeDiscord {
        let http = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let ws = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let api_url = format!("http://{}", http.local_addr().unwrap());
        let gateway_url = format!("ws://{}", ws.local_addr().unwrap());
        let state = Arc::new(State {
            requests: Mutex::new(Vec::new()),
            changed: Notify::new(),
            resume_url: format!("{gateway_url}/resume"),
            gateway_url,
            next_id: AtomicU64::new(0),
            identify: Mutex::new(None),
            forbidden: Mutex::new(Vec::new()),
            limits: Mutex::new(Vec::new()),
            blocked: Mutex::new(Vec::new()),
            nonces: Mutex::new(HashMap::new()),
            interactions: Mutex::new(HashMap::new()),
            tokens: Mutex::new(HashMap::new()),
            response_window: Mutex::new(Duration::from_secs(3)),
            token_life: Mutex::new(Duration::from_secs(15 * 60)),
            messages: Mutex::new(HashSet::new()),
            deleted: Mutex::new(Vec::new()),
            threads: Mutex::new(std::collections::BTreeMap::new()),
            gone: Mutex::new(Vec::new()),
            sessions: Mutex::new(Vec::new()),
            next_session: AtomicU64::new(0),
            privileged_allowed: AtomicU64::new(0),
            gateway_log: Mutex::new(Vec::new()),
            readies: AtomicU64::new(0),
        });
        tokio::spawn(serve_http(http, state.clone()));
        tokio::spawn(gateway::serve(ws, state.clone()));
        FakeDiscord {
            api_url,
            state,
            next_id: AtomicU64::new(1 << 20),
            dispatched: Mutex::new(HashMap::new()),
            moderators: Mutex::new(HashSet::new()),
        }
    }

    /// The application may use the privileged intents of `mask` (the
    /// Developer Portal's switches); an IDENTIFY asking for another is
    /// closed with 4014.
    pub fn allow_privileged(&self, mask: u64) {
        self.state.privileged_allowed.store(mask, Ordering::SeqCst);
    }

    /// What the gateway saw and did so far.
    pub fn gateway_log(&self) -> Vec<Logged> {
        self.state.gateway_log.lock().unwrap().clone()
    }

    /// Waits (up to 20 s) until the gateway's log holds what `pred` looks for.
    pub async fn wait_for_gateway(&self, what: &str, pred: impl Fn(&[Logged]) -> bool) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        loop {
            let changed = self.state.changed.notified();
            if pred(&self.gateway_log()) {
                return;
            }
            if tokio::time::timeout_at(deadline, changed).await.is_err() {
                panic!("no {what} within 20 s; gateway: {:#?}", self.gateway_log());
            }
        }
    }

    /// Discord asks the sessions of `shard` to reconnect (op 7).
    pub fn reconnect(&self, shard: u64) {
        gateway::reconnect(&self.state, shard);
    }

    /// Discord invalidates the sessions of `shard` (op 9, not resumable).
    pub fn invalidate(&self, shard: u64) {
        gateway::invalidate(&self.state, shard);
    }

    /// Discord closes the connections of `shard` with `code`.
    pub fn drop_connections(&self, shard: u64, code: u16) {
        gateway::drop_connections(&self.state, shard, code);
    }

    /// How long interactions wait for their first response (3 s).
    pub fn set_response_window(&self, window: Duration) {
        *self.state.response_window.lock().unwrap() = window;
    }

    /// How long interaction tokens live (15 minutes).
    pub fn set_token_life(&self, life: Duration) {
        *self.state.token_life.lock().unwrap() = life;
    }

    /// The message an interaction's first response made, once made.
    pub fn original(&self, interaction: u64) -> Option<u64> {
        let interactions = self.state.interactions.lock().unwrap();
        interactions
            .get(&interaction.to_string())?
            .original
            .as_ref()?
            .parse()
            .ok()
    }

    /// A new id: a snowflake of now.
    fn id(&self) -> u64 {
        snowflake(&self.next_id)
    }

    /// The bot loses (or, with `false`, regains) the permission to post in
    /// `channel`.
    pub fn forbid(&self, channel: u64, forbidden: bool) {
        let mut list = self.state.forbidden.lock().unwrap();
        list.retain(|c| *c != channel.to_string());
        if forbidden {
            list.push(channel.to_string());
        }
    }

    /// How many times Discord notified `user` by a mention: messages
    /// created and seen by others, never edits (`resources/message`:
    /// mentions notify when a message is created).
    pub fn pings(&self, user: u64) -> usize {
        self.requests()
            .iter()
            .filter(|r| r.creates_visible_message() && r.notifies(user))
            .count()
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.state.requests.lock().unwrap().clone()
    }

    pub fn identify(&self) -> Option<Value> {
        self.state.identify.lock().unwrap().clone()
    }

    /// The first request that matches, waiting up to 20 s for it.
    pub async fn wait_for(&self, what: &str, pred: impl Fn(&Recorded) -> bool) -> Recorded {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        loop {
            let changed = self.state.changed.notified();
            if let Some(r) = self.requests().into_iter().find(|r| pred(r)) {
                return r;
            }
            if tokio::time::timeout_at(deadline, changed).await.is_err() {
                panic!(
                    "no {what} within 20 s; requests: {:#?}",
                    self.requests()
                        .iter()
                        .map(|r| format!("{} {} {}", r.method, r.path, r.json))
                        .collect::<Vec<_>>()
                );
            }
        }
    }

    /// The callback answering interaction `id`.
    pub async fn callback(&self, id: u64) -> Recorded {
        let path = format!("/interactions/{id}/");
        self.wait_for(&format!("answer to interaction {id}"), |r| {
            r.method == "POST" && r.path.starts_with(&path)
        })
        .await
    }

    fn dispatch(&self, t: &str, d: Value) {
        if let Some(id) = d["id"].as_str() {
            let mut seen = self.dispatched.lock().unwrap();
            seen.insert(id.to_string(), (t.to_string(), d.clone()));
            match t {
                "INTERACTION_CREATE" => {
                    let token = d["token"].as_str().unwrap_or("").to_string();
                    self.state
                        .tokens
                        .lock()
                        .unwrap()
                        .insert(token, id.to_string());
                    self.state.interactions.lock().unwrap().insert(
                        id.to_string(),
                        Interaction {
                            at: Instant::now(),
                            original: None,
                            followups: HashSet::new(),
                        },
                    );
                }
                "MESSAGE_CREATE" => {
                    self.state.messages.lock().unwrap().insert(id.to_string());
                }
                _ => {}
            }
        }
        gateway::route(&self.state, t.to_string(), d);
    }

    /// `who` writes a message and deletes it at once, before the bot can
    /// answer it.
    pub fn say_and_delete(&self, who: (u64, &str), content: &str, mentions: Value) -> u64 {
        let id = self.say(who, content, mentions, None);
        self.state.deleted.lock().unwrap().push(id.to_string());
        id
    }

    /// The next `n` channel messages are refused with 429, as Discord does
    /// when a route's rate limit is used up (`topics/rate-limits`).
    pub fn rate_limit(&self, n: u64) {
        self.rate_limit_route("POST", "/channels/", n, 0.6);
    }

    /// The next `times` requests of `method` whose path starts with
    /// `prefix` (without `/api/v10`) are refused with 429, asking for
    /// `retry_after` seconds.
    pub fn rate_limit_route(&self, method: &str, prefix: &str, times: u64, retry_after: f64) {
        self.state.limits.lock().unwrap().push(Limit {
            route: Some((method.to_string(), prefix.to_string())),
            times,
            retry_after,
        });
    }

    /// Lifts every rate limit still to come (a wait already asked for
    /// still runs out).
    pub fn clear_rate_limits(&self) {
        self.state.limits.lock().unwrap().clear();
    }

    /// The next `times` requests to routes under the global limit (every
    /// route but the interaction endpoints) are refused with a global 429.
    pub fn rate_limit_globally(&self, times: u64, retry_after: f64) {
        self.state.limits.lock().unwrap().push(Limit {
            route: None,
            times,
            retry_after,
        });
    }

    /// The 429s the fake answered, with their method and path.
    pub fn refused_for_rate(&self) -> Vec<(String, String)> {
        self.requests()
            .into_iter()
            .filter(|r| r.status == 429)
            .map(|r| (r.method, r.path))
            .collect()
    }

    /// Delivers event `id` once more, unchanged: what a second process on
    /// the same shard sees during a deploy, or a resumed gateway replays.
    pub fn redeliver(&self, id: u64) {
        let again = self
            .dispatched
            .lock()
            .unwrap()
            .get(&id.to_string())
            .cloned();
        let (t, d) = again.expect("an event dispatched before");
        gateway::route(&self.state, t, d);
    }

    /// The threads the bot opened, oldest first: id, parent channel, name.
    pub fn threads(&self) -> Vec<(u64, u64, String)> {
        let threads = self.state.threads.lock().unwrap();
        threads
            .iter()
            .map(|(id, (parent, name, _))| {
                (id.parse().unwrap(), parent.parse().unwrap(), name.clone())
            })
            .collect()
    }

    /// Discord archives thread `id` (a week without a message, or a
    /// moderator): posting there fails until it is unarchived.
    pub fn archive(&self, id: u64) {
        if let Some(t) = self.state.threads.lock().unwrap().get_mut(&id.to_string()) {
            t.2 = true;
        }
    }

    /// Someone deletes channel (or thread) `id`.
    pub fn delete_channel(&self, id: u64) {
        self.state.threads.lock().unwrap().remove(&id.to_string());
        self.state.gone.lock().unwrap().push(id.to_string());
    }

    pub fn archived(&self, id: u64) -> bool {
        self.state
            .threads
            .lock()
            .unwrap()
            .get(&id.to_string())
            .is_some_and(|t| t.2)
    }

    /// From now on `id` moderates the channel (a role that manages
    /// messages).
    pub fn make_moderator(&self, id: u64) {
        self.moderators.lock().unwrap().insert(id);
    }

    fn moderates(&self, id: u64) -> bool {
        self.moderators.lock().unwrap().contains(&id)
    }

    /// `who` runs a slash command; returns the interaction id.
    pub fn slash(&self, who: (u64, &str), name: &str, options: Value, resolved: Value) -> u64 {
        self.slash_in(CHANNEL, who, name, options, resolved)
    }

    /// `who` runs a slash command in `channel` (a thread, say).
    pub fn slash_in(
        &self,
        channel: u64,
        who: (u64, &str),
        name: &str,
        options: Value,
        resolved: Value,
    ) -> u64 {
        let id = self.id();
        self.dispatch(
            "INTERACTION_CREATE",
            json!({
                "id": id.to_string(), "application_id": APP.to_string(), "type": 2,
                "data": {"id": "77", "name": name, "type": 1, "options": options, "resolved": resolved},
                "guild_id": GUILD.to_string(), "channel_id": channel.to_string(),
                "member": member(who.0, who.1, self.moderates(who.0)), "token": format!("tok{id}"), "version": 1,
                "locale": "en-US", "guild_locale": "en-US", "app_permissions": "2248473465835073",
                "entitlements": [], "attachment_size_limit": 10485760, "authorizing_integration_owners": {"0": GUILD.to_string()},
                "context": 0,
            }),
        );
        id
    }

    /// `who` types into an autocompleted option of `/name`.
    pub fn autocomplete(&self, who: (u64, &str), name: &str, option: &str, typed: &str) -> u64 {
        let id = self.id();
        self.dispatch(
            "INTERACTION_CREATE",
            json!({
                "id": id.to_string(), "application_id": APP.to_string(), "type": 4,
                "data": {"id": "77", "name": name, "type": 1,
                         "options": [{"name": option, "type": 3, "value": typed, "focused": true}]},
                "guild_id": GUILD.to_string(), "channel_id": CHANNEL.to_string(),
                "member": member(who.0, who.1, self.moderates(who.0)), "token": format!("tok{id}"), "version": 1,
                "locale": "en-US", "app_permissions": "2248473465835073",
                "entitlements": [], "attachment_size_limit": 10485760, "authorizing_integration_owners": {}, "context": 0,
            }),
        );
        id
    }

    /// `who` presses a button on message `on`.
    pub fn press(&self, who: (u64, &str), custom_id: &str, on: u64) -> u64 {
        let id = self.id();
        self.dispatch(
            "INTERACTION_CREATE",
            json!({
                "id": id.to_string(), "application_id": APP.to_string(), "type": 3,
                "data": {"custom_id": custom_id, "component_type": 2},
                "guild_id": GUILD.to_string(), "channel_id": CHANNEL.to_string(),
                "member": member(who.0, who.1, self.moderates(who.0)), "message": message(on, user(APP, "voidmate"), "a question"),
                "token": format!("tok{id}"), "version": 1, "locale": "en-US",
                "app_permissions": "2248473465835073", "entitlements": [], "attachment_size_limit": 10485760,
                "authorizing_integration_owners": {}, "context": 0,
            }),
        );
        id
    }

    /// `who` writes a message that mentions `roles` (`<@&id>` in the text,
    /// `mention_roles` as Discord fills it; `mentions` names no user).
    pub fn say_to_roles(&self, who: (u64, &str), content: &str, roles: &[u64]) -> u64 {
        let id = self.id();
        let mut m = message(id, user(who.0, who.1), content);
        m["mention_roles"] = json!(roles.iter().map(|r| r.to_string()).collect::<Vec<_>>());
        self.dispatch("MESSAGE_CREATE", m);
        id
    }

    /// Gateway sessions sent their ready event so far (one per shard
    /// connected, counting reconnections).
    pub fn readies(&self) -> u64 {
        self.state.readies.load(Ordering::SeqCst)
    }

    /// `who` writes `content` in `channel` of `guild`, mentioning `mentions`.
    pub fn say_in(
        &self,
        guild: u64,
        channel: u64,
        who: (u64, &str),
        content: &str,
        mentions: Value,
    ) -> u64 {
        let id = self.id();
        let mut m = message(id, user(who.0, who.1), content);
        m["guild_id"] = json!(guild.to_string());
        m["channel_id"] = json!(channel.to_string());
        m["mentions"] = mentions;
        self.dispatch("MESSAGE_CREATE", m);
        id
    }

    /// `who` writes a message; `mentions` and `reply_to` as Discord fills them.
    pub fn say(
        &self,
        who: (u64, &str),
        content: &str,
        mentions: Value,
        reply_to: Option<Value>,
    ) -> u64 {
        let id = self.id();
        let mut m = message(id, user(who.0, who.1), content);
        m["mentions"] = mentions;
        if let Some(r) = reply_to {
            m["message_reference"] = json!({
                "message_id": r["id"], "channel_id": CHANNEL.to_string(), "guild_id": GUILD.to_string(),
            });
            m["referenced_message"] = r;
            m["type"] = json!(19);
        }
        self.dispatch("MESSAGE_CREATE", m);
        id
    }
}

async fn serve_http(listener: TcpListener, state: Arc<State>) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            return;
        };
        let state = state.clone();
        tokio::spawn(async move {
            let service = service_fn(move |req| handle(state.clone(), req));
            let _ = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

/// An answer: status, body, and for a 429 what the headers say.
struct Answer {
    status: u16,
    body: Value,
    /// A 429's scope (`user`, `global`, `shared`).
    scope: Option<&'static str>,
}

impl Answer {
    fn of(status: u16, body: Value) -> Answer {
        Answer {
            status,
            body,
            scope: None,
        }
    }

    fn error(status: u16, code: u64, message: &str) -> Answer {
        Answer::of(status, json!({"message": message, "code": code}))
    }
}

fn reply(answer: Answer) -> Result<Response<Full<Bytes>>, Infallible> {
    let Answer {
        status,
        body,
        scope,
    } = answer;
    let retry_after = body["retry_after"].as_f64();
    let global = body["global"].as_bool() == Some(true);
    let body = if status == 204 {
        Bytes::new()
    } else {
        Bytes::from(body.to_string())
    };
    let mut response = Response::builder()
        .status(status)
        .header("content-type", "application/json");
    if let (429, Some(after)) = (status, retry_after) {
        // `topics/rate-limits`: the wait in seconds, in a header and the
        // body; the limit's scope; the global limit says so.
        response = response
            .header("retry-after", after.ceil().to_string())
            .header("x-ratelimit-scope", scope.unwrap_or("user"))
            .header("x-ratelimit-limit", "5")
            .header("x-ratelimit-remaining", "0")
            .header("x-ratelimit-reset-after", format!("{after:.3}"))
            .header("x-ratelimit-bucket", "fake-bucket");
        if global {
            response = response.header("x-ratelimit-global", "true");
        }
    }
    Ok(response.body(Full::new(body)).unwrap())
}

async fn handle(
    state: Arc<State>,
    req: Request<hyper::body::Incoming>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let method = req.method().to_string();
    let path = req.uri().path().trim_start_matches("/api/v10").to_string();
    let content_type = req
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let body = req.into_body().collect().await.unwrap().to_bytes();
    let (json, files) = match content_type.split_once("boundary=") {
        Some((_, boundary)) => multipart(&body, boundary.trim_matches('"')),
        None => (
            serde_json::from_slice(&body).unwrap_or(Value::Null),
            Vec::new(),
        ),
    };
    let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let nonce = match (
        method.as_str(),
        parts.as_slice(),
        json["enforce_nonce"].as_bool(),
    ) {
        ("POST", ["channels", _, "messages"], Some(true)) => {
            json["nonce"].as_str().map(String::from)
        }
        _ => None,
    };
    let earlier = nonce
        .as_ref()
        .and_then(|n| state.nonces.lock().unwrap().get(n).cloned());
    let (answer, deduplicated) = match (rate_limited(&state, &method, &path, &parts), earlier) {
        (Some(refused), _) => (refused, false),
        (None, Some(first)) => (Answer::of(200, first), true),
        (None, None) => (respond(&state, &method, &parts, &json, nonce), false),
    };
    let rec = Recorded {
        method: method.clone(),
        path: path.clone(),
        json: json.clone(),
        files,
        deduplicated,
        status: answer.status,
    };
    state.requests.lock().unwrap().push(rec);
    state.changed.notify_waiters();
    reply(answer)
}

/// Whether the interaction endpoints (not bound to the global limit).
/// Discord's rules for registered commands
/// (`interactions/application-commands`): names of 1 to 32 lowercase
/// letters, digits, `-` or `_`; descriptions of 1 to 100 characters; at
/// most 25 options and 25 choices each; required options before the
/// optional; a command with subcommands has nothing else.
fn valid_commands(json: &Value) -> Result<(), String> {
    fn name_ok(n: &str) -> bool {
        (1..=32).contains(&n.chars().count())
            && n.chars()
                .all(|c| c == '-' || c == '_' || c.is_lowercase() || c.is_numeric())
    }
    fn described(what: &Value) -> Result<(), String> {
        let name = what["name"].as_str().unwrap_or("");
        if !name_ok(name) {
            return Err(format!("name {name:?} is not a valid command name"));
        }
        let d = what["description"].as_str().unwrap_or("");
        if !(1..=100).contains(&d.chars().count()) {
            return Err(format!(
                "{name}: description must be 1 to 100 characters: {d:?}"
            ));
        }
        Ok(())
    }
    fn options(owner: &str, list: &Value, depth: usize) -> Result<(), String> {
        let list = list.as_array().map(Vec::as_slice).unwrap_or(&[]);
        if list.len() > 25 {
            return Err(format!("{owner}: more than 25 options"));
        }
        let subs = list
            .iter()
            .filter(|o| matches!(o["type"].as_u64(), Some(1 | 2)))
            .count();
        if subs > 0 && subs != list.len() {
            return Err(format!("{owner}: subcommands mixed with options"));
        }
        let mut optional_seen = false;
        for o in list {
            described(o)?;
            let name = o["name"].as_str().unwrap_or("");
            if matches!(o["type"].as_u64(), Some(1 | 2)) {
                if depth >= 2 {
                    return Err(format!("{owner}: subcommands nested too deep"));
                }
                options(name, &o["options"], depth + 1)?;
                continue;
            }
            let required = o["required"].as_bool().unwrap_or(false);
            if required && optional_seen {
                return Err(format!(
                    "{owner}: required option {name} after an optional one"
                ));
            }
            optional_seen |= !required;
            if o["choices"].as_array().is_some_and(|c| c.len() > 25) {
                return Err(format!("{owner}: {name} has more than 25 choices"));
            }
        }
        Ok(())
    }
    for c in json.as_array().map(Vec::as_slice).unwrap_or(&[]) {
        described(c)?;
        options(c["name"].as_str().unwrap_or(""), &c["options"], 0)?;
    }
    Ok(())
}

fn interaction_route(parts: &[&str]) -> bool {
    matches!(parts, ["interactions", ..] | ["webhooks", ..])
}

/// A 429 for this request, if a limit holds it back: a wait not yet over
/// (a request sent again too soon is refused again), or a limit a test set.
fn rate_limited(state: &State, method: &str, path: &str, parts: &[&str]) -> Option<Answer> {
    let now = Instant::now();
    let matches = |route: &Route| match route {
        None => !interaction_route(parts),
        Some((m, prefix)) => m == method && path.starts_with(prefix.as_str()),
    };
    let refuse = |wait: f64, global: bool| {
        let mut a = Answer::of(
            429,
            json!({"message": "You are being rate limited.", "retry_after": wait, "global": global}),
        );
        a.scope = Some(if global { "global" } else { "user" });
        a
    };
    {
        let mut blocked = state.blocked.lock().unwrap();
        blocked.retain(|(_, until)| *until > now);
        if let Some((route, until)) = blocked.iter().find(|(route, _)| matches(route)) {
            return Some(refuse((*until - now).as_secs_f64(), route.is_none()));
        }
    }
    let mut limits = state.limits.lock().unwrap();
    let limit = limits
        .iter_mut()
        .find(|l| l.times > 0 && matches(&l.route))?;
    limit.times -= 1;
    let until = now + Duration::from_secs_f64(limit.retry_after);
    state
        .blocked
        .lock()
        .unwrap()
        .push((limit.route.clone(), until));
    Some(refuse(limit.retry_after, limit.route.is_none()))
}

/// The interaction a token was given for ("" for a token never given).
fn interaction_of(state: &State, token: &str) -> String {
    state
        .tokens
        .lock()
        .unwrap()
        .get(token)
        .cloned()
        .unwrap_or_default()
}

/// The interaction a webhook token belongs to, if the token is good now.
fn token_ok(state: &State, token: &str) -> Result<String, Answer> {
    let invalid = || Answer::error(401, 50027, "Invalid Webhook Token");
    let id = state
        .tokens
        .lock()
        .unwrap()
        .get(token)
        .cloned()
        .ok_or_else(invalid)?;
    let life = *state.token_life.lock().unwrap();
    let interactions = state.interactions.lock().unwrap();
    match interactions.get(&id) {
        Some(i) if i.at.elapsed() <= life => Ok(id),
        _ => Err(invalid()),
    }
}

/// What Discord answers to one request that no rate limit holds back.
fn respond(
    state: &State,
    method: &str,
    parts: &[&str],
    json: &Value,
    nonce: Option<String>,
) -> Answer {
    let new_message = |content: &Value| {
        let id = snowflake(&state.next_id);
        let mut m = message(id, user(APP, "voidmate"), content.as_str().unwrap_or(""));
        m["components"] = json.get("components").cloned().unwrap_or(json!([]));
        state.messages.lock().unwrap().insert(id.to_string());
        m
    };
    let unknown_message = || Answer::error(404, 10008, "Unknown Message");
    if let ["channels", channel, ..] = parts {
        if state.gone.lock().unwrap().iter().any(|c| c == channel) {
            return Answer::error(404, 10003, "Unknown Channel");
        }
    }
    if let ["webhooks", _, token, ..] = parts {
        if let Err(refused) = token_ok(state, token) {
            return refused;
        }
    }
    match (method, parts) {
        ("GET", ["gateway"]) => Answer::of(200, json!({"url": state.gateway_url})),
        ("GET", ["gateway", "bot"]) => Answer::of(
            200,
            json!({"url": state.gateway_url, "shards": 1, "session_start_limit":
                {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}}),
        ),
        ("PUT", ["applications", _, "commands"])
        | ("PUT", ["applications", _, "guilds", _, "commands"]) => {
            if let Err(e) = valid_commands(json) {
                return Answer::of(
                    400,
                    json!({"message": "Invalid Form Body", "code": 50035, "errors": {"_errors": [{"code": "BASE_TYPE_INVALID", "message": e}]}}),
                );
            }
            let commands: Vec<Value> = json
                .as_array()
                .cloned()
                .unwrap_or_default()
                .into_iter()
                .enumerate()
                .map(|(i, mut c)| {
                    c["id"] = json!((800 + i).to_string());
                    c["application_id"] = json!(APP.to_string());
                    c["version"] = json!("1");
                    c["type"] = c.get("type").cloned().unwrap_or(json!(1));
                    c["default_member_permissions"] = Value::Null;
                    c
                })
                .collect();
            Answer::of(200, Value::Array(commands))
        }
        ("POST", ["channels", _, "messages"])
            if json["message_reference"]["message_id"]
                .as_str()
                .is_some_and(|m| state.deleted.lock().unwrap().iter().any(|d| d == m))
                && json["message_reference"]["fail_if_not_exists"] != false =>
        {
            Answer::of(
                400,
                json!({"message": "Invalid Form Body", "code": 50035, "errors": {"message_reference":
                    {"_errors": [{"code": "REPLIES_UNKNOWN_MESSAGE", "message": "Unknown message"}]}}}),
            )
        }
        ("POST", ["channels", channel, "messages"])
            if state
                .threads
                .lock()
                .unwrap()
                .get(*channel)
                .is_some_and(|t| t.2) =>
        {
            Answer::error(400, 50083, "Thread is archived")
        }
        ("POST", ["channels", parent, "threads"]) => {
            if state.threads.lock().unwrap().contains_key(*parent) {
                // A thread cannot hold threads.
                return Answer::error(400, 50024, "Cannot execute action on this channel type");
            }
            // `resources/channel`, Start Thread without Message: a name of
            // 1 to 100 characters, an archive duration Discord offers.
            let name = json["name"].as_str().unwrap_or("").to_string();
            let duration = json["auto_archive_duration"].as_u64().unwrap_or(4320);
            if !(1..=100).contains(&name.chars().count())
                || ![60, 1440, 4320, 10080].contains(&duration)
            {
                return Answer::error(400, 50035, "Invalid Form Body");
            }
            let id = snowflake(&state.next_id).to_string();
            state
                .threads
                .lock()
                .unwrap()
                .insert(id.clone(), (parent.to_string(), name.clone(), false));
            Answer::of(200, thread(&id, parent, &name, false))
        }
        ("PATCH", ["channels", id]) if state.threads.lock().unwrap().contains_key(*id) => {
            let mut threads = state.threads.lock().unwrap();
            let t = threads.get_mut(*id).unwrap();
            if let Some(archived) = json["archived"].as_bool() {
                t.2 = archived;
            }
            Answer::of(200, thread(id, &t.0, &t.1, t.2))
        }
        ("POST", ["channels", channel, "messages"])
            if state.forbidden.lock().unwrap().iter().any(|c| c == channel) =>
        {
            Answer::error(403, 50013, "Missing Permissions")
        }
        ("POST", ["interactions", id, _, "callback"]) => {
            let window = *state.response_window.lock().unwrap();
            let mut interactions = state.interactions.lock().unwrap();
            let Some(i) = interactions.get_mut(*id) else {
                return Answer::error(404, 10062, "Unknown interaction");
            };
            if i.original.is_some() || i.followups.contains("acknowledged") {
                return Answer::error(400, 40060, "Interaction has already been acknowledged.");
            }
            if i.at.elapsed() > window {
                return Answer::error(404, 10062, "Unknown interaction");
            }
            // A message (4) or the "thinking" placeholder (5) makes the
            // original response; an update (6, 7) edits the button's message.
            match json["type"].as_u64() {
                Some(4 | 5) => i.original = Some(snowflake(&state.next_id).to_string()),
                _ => {
                    i.followups.insert("acknowledged".into());
                }
            }
            Answer::of(204, Value::Null)
        }
        ("GET", ["guilds", _, "roles"]) => Answer::of(200, guild()["roles"].clone()),
        ("DELETE" | "PATCH", ["webhooks", _, token, "messages", which]) => {
            let id = interaction_of(state, token);
            let mut interactions = state.interactions.lock().unwrap();
            let Some(i) = interactions.get_mut(&id) else {
                return unknown_message();
            };
            let exists = match *which {
                "@original" => i.original.is_some(),
                other => i.followups.contains(other),
            };
            if !exists {
                return unknown_message();
            }
            if method == "DELETE" {
                match *which {
                    "@original" => i.original = None,
                    other => {
                        i.followups.remove(other);
                    }
                }
                return Answer::of(204, Value::Null);
            }
            drop(interactions);
            Answer::of(200, new_message(&json["content"]))
        }
        ("POST", ["webhooks", _, token]) => {
            let id = interaction_of(state, token);
            let m = new_message(&json["content"]);
            if let Some(i) = state.interactions.lock().unwrap().get_mut(&id) {
                i.followups
                    .insert(m["id"].as_str().unwrap_or("").to_string());
            }
            Answer::of(200, m)
        }
        ("PATCH", ["channels", _, "messages", message_id]) => {
            if !state.messages.lock().unwrap().contains(*message_id) {
                return unknown_message();
            }
            Answer::of(200, new_message(&json["content"]))
        }
        ("POST", ["channels", _, "messages"]) => {
            let m = new_message(&json["content"]);
            if let Some(n) = nonce {
                state.nonces.lock().unwrap().insert(n, m.clone());
            }
            Answer::of(200, m)
        }
        _ => Answer::error(404, 0, "Unknown route"),
    }
}

/// A public thread as Discord returns it (`resources/channel`, type 11).
fn thread(id: &str, parent: &str, name: &str, archived: bool) -> Value {
    json!({
        "id": id, "type": 11, "guild_id": GUILD.to_string(), "parent_id": parent, "name": name,
        "owner_id": APP.to_string(), "last_message_id": null, "rate_limit_per_user": 0,
        "message_count": 0, "member_count": 1, "total_message_sent": 0, "flags": 0,
        "thread_metadata": {"archived": archived, "auto_archive_duration": 10080,
            "archive_timestamp": "2026-11-21T12:00:00.000000+00:00", "locked": false,
            "create_timestamp": "2026-11-21T12:00:00.000000+00:00"},
    })
}

/// The `payload_json` part and the files of a multipart/form-data body.
fn multipart(body: &[u8], boundary: &str) -> (Value, Vec<(String, Vec<u8>)>) {
    let delimiter = format!("--{boundary}");
    let mut json = Value::Null;
    let mut files = Vec::new();
    for part in split(body, delimiter.as_bytes()).into_iter().skip(1) {
        let Some(end) = find(part, b"\r\n\r\n") else {
            continue;
        };
        let headers = String::from_utf8_lossy(&part[..end]).to_string();
        let mut content = &part[end + 4..];
        if content.ends_with(b"\r\n") {
            content = &content[..content.len() - 2];
        }
        let filename = headers
            .split("filename=\"")
            .nth(1)
            .and_then(|s| s.split('"').next());
        match filename {
            Some(name) => files.push((name.to_string(), content.to_vec())),
            None if headers.contains("name=\"payload_json\"") => {
                json = serde_json::from_slice(content).unwrap_or(Value::Null)
            }
            None => {}
        }
    }
    (json, files)
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn split<'a>(mut body: &'a [u8], delimiter: &[u8]) -> Vec<&'a [u8]> {
    let mut out = Vec::new();
    while let Some(i) = find(body, delimiter) {
        out.push(&body[..i]);
        body = &body[i + delimiter.len()..];
    }
    out.push(body);
    out
}
