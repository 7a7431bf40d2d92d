#![allow(dead_code)]
//! A small stand-in for Discord on 127.0.0.1: the REST endpoints the bot
//! calls and a gateway that says hello, accepts identify, sends ready and then
//! whatever events a test pushes. Payloads follow Discord's documented shapes
//! (API v10), so the real adapter runs over real HTTP and WebSocket.
//!
//! Every request is recorded, with JSON bodies and multipart attachments
//! decoded, for the test to check.

use bytes::Bytes;
use futures_util::{SinkExt, StreamExt};
use http_body_util::{BodyExt, Full};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use serde_json::{json, Value};
use std::convert::Infallible;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{mpsc, Notify};
use tokio_tungstenite::tungstenite::Message as Frame;

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

struct State {
    requests: Mutex<Vec<Recorded>>,
    changed: Notify,
    gateway_url: String,
    next_id: AtomicU64,
    identify: Mutex<Option<Value>>,
    /// Channels where the bot may not post: Discord answers 403 with code
    /// 50013 Missing Permissions (`topics/opcodes-and-status-codes`).
    forbidden: Mutex<Vec<String>>,
    /// Channel messages still to refuse with 429 Too Many Requests.
    rate_limited: AtomicU64,
    /// Messages deleted: a reply to one fails unless it says
    /// `fail_if_not_exists: false` (`resources/message`, message reference).
    deleted: Mutex<Vec<String>>,
    /// Interactions that have their one response (`topics/interactions`:
    /// a second callback fails with 40060, already acknowledged).
    acknowledged: Mutex<std::collections::HashSet<String>>,
    /// Messages created with `enforce_nonce`, by nonce (`resources/message.mdx`,
    /// Create Message: a second create with the same nonce within a few
    /// minutes returns the first message and posts nothing).
    nonces: Mutex<std::collections::HashMap<String, Value>>,
    /// Channels deleted: Discord answers 404 Unknown Channel (10003).
    gone: Mutex<Vec<String>>,
    /// Threads the bot opened: id -> (parent channel, name, archived).
    threads: Mutex<std::collections::BTreeMap<String, (String, String, bool)>>,
    /// The gateway sessions open now: their shard, and where their events go.
    sessions: Mutex<Vec<Session>>,
    /// Events no open session's shard receives yet, in order: they go to the
    /// next session of their shard (the single-shard tests restart the bot
    /// between a message and its answer).
    backlog: Mutex<Vec<(String, Value)>>,
    /// Sessions that have been sent their ready event, over the fake's life.
    readies: AtomicU64,
}

/// One gateway connection, identified as shard `shard` of `total`.
struct Session {
    shard: u64,
    total: u64,
    events: mpsc::UnboundedSender<(String, Value)>,
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
    events: mpsc::UnboundedSender<(String, Value)>,
    next_id: AtomicU64,
    /// Every event dispatched, by its id, for redelivery.
    dispatched: Mutex<std::collections::HashMap<String, (String, Value)>>,
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

fn member(id: u64, name: &str) -> Value {
    json!({
        "user": user(id, name), "roles": [], "joined_at": "2026-01-01T00:00:00.000000+00:00",
        "deaf": false, "mute": false, "flags": 0, "permissions": "2248473465835073",
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
        let state = Arc::new(State {
            requests: Mutex::new(Vec::new()),
            changed: Notify::new(),
            gateway_url: format!("ws://{}", ws.local_addr().unwrap()),
            next_id: AtomicU64::new(900_000),
            identify: Mutex::new(None),
            forbidden: Mutex::new(Vec::new()),
            nonces: Mutex::new(std::collections::HashMap::new()),
            acknowledged: Mutex::new(std::collections::HashSet::new()),
            deleted: Mutex::new(Vec::new()),
            rate_limited: AtomicU64::new(0),
            threads: Mutex::new(std::collections::BTreeMap::new()),
            gone: Mutex::new(Vec::new()),
            sessions: Mutex::new(Vec::new()),
            backlog: Mutex::new(Vec::new()),
            readies: AtomicU64::new(0),
        });
        let (events, rx) = mpsc::unbounded_channel();
        tokio::spawn(serve_http(http, state.clone()));
        tokio::spawn(serve_gateway(ws, state.clone(), rx));
        FakeDiscord {
            api_url,
            state,
            events,
            next_id: AtomicU64::new(500_000),
            dispatched: Mutex::new(std::collections::HashMap::new()),
        }
    }

    fn id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::SeqCst)
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
        }
        self.events.send((t.to_string(), d)).unwrap();
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
        self.state.rate_limited.store(n, Ordering::SeqCst);
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
        self.events.send((t, d)).unwrap();
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
                "member": member(who.0, who.1), "token": format!("tok{id}"), "version": 1,
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
                "member": member(who.0, who.1), "token": format!("tok{id}"), "version": 1,
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
                "member": member(who.0, who.1), "message": message(on, user(APP, "voidmate"), "a question"),
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

fn reply(status: u16, body: Value) -> Result<Response<Full<Bytes>>, Infallible> {
    let retry_after = body["retry_after"].as_f64();
    let body = if status == 204 {
        Bytes::new()
    } else {
        Bytes::from(body.to_string())
    };
    let mut response = Response::builder()
        .status(status)
        .header("content-type", "application/json");
    if let (429, Some(after)) = (status, retry_after) {
        // `topics/rate-limits`: the wait in seconds, in a header and the body.
        response = response
            .header("retry-after", after.ceil().to_string())
            .header("x-ratelimit-scope", "user");
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
    let (status, body) = respond(&state, &method, &parts, &json, nonce, earlier.clone());
    let rec = Recorded {
        method: method.clone(),
        path: path.clone(),
        json: json.clone(),
        files,
        deduplicated: earlier.is_some(),
        status,
    };
    state.requests.lock().unwrap().push(rec);
    state.changed.notify_waiters();
    reply(status, body)
}

/// What Discord answers to one request: status and body.
fn respond(
    state: &State,
    method: &str,
    parts: &[&str],
    json: &Value,
    nonce: Option<String>,
    earlier: Option<Value>,
) -> (u16, Value) {
    if let Some(first) = earlier {
        return (200, first);
    }
    let new_message = |content: &Value| {
        let id = state.next_id.fetch_add(1, Ordering::SeqCst);
        let mut m = message(id, user(APP, "voidmate"), content.as_str().unwrap_or(""));
        m["components"] = json.get("components").cloned().unwrap_or(json!([]));
        m
    };
    if let ["channels", channel, ..] = parts {
        if state.gone.lock().unwrap().iter().any(|c| c == channel) {
            return (404, json!({"message": "Unknown Channel", "code": 10003}));
        }
    }
    match (method, parts) {
        ("GET", ["gateway"]) => (200, json!({"url": state.gateway_url})),
        ("GET", ["gateway", "bot"]) => (
            200,
            json!({"url": state.gateway_url, "shards": 1, "session_start_limit":
                {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}}),
        ),
        ("PUT", ["applications", _, "commands"])
        | ("PUT", ["applications", _, "guilds", _, "commands"]) => {
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
            (200, Value::Array(commands))
        }
        ("POST", ["channels", _, "messages"])
            if state
                .rate_limited
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                .is_ok() =>
        {
            (
                429,
                json!({"message": "You are being rate limited.", "retry_after": 0.6, "global": false}),
            )
        }
        ("POST", ["channels", _, "messages"])
            if json["message_reference"]["message_id"]
                .as_str()
                .is_some_and(|m| state.deleted.lock().unwrap().iter().any(|d| d == m))
                && json["message_reference"]["fail_if_not_exists"] != false =>
        {
            (
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
            (400, json!({"message": "Thread is archived", "code": 50083}))
        }
        ("POST", ["channels", parent, "threads"]) => {
            if state.threads.lock().unwrap().contains_key(*parent) {
                // A thread cannot hold threads.
                return (
                    400,
                    json!({"message": "Cannot execute action on this channel type", "code": 50024}),
                );
            }
            // `resources/channel`, Start Thread without Message: a name of
            // 1 to 100 characters, an archive duration Discord offers.
            let name = json["name"].as_str().unwrap_or("").to_string();
            let duration = json["auto_archive_duration"].as_u64().unwrap_or(4320);
            if !(1..=100).contains(&name.chars().count())
                || ![60, 1440, 4320, 10080].contains(&duration)
            {
                return (400, json!({"message": "Invalid Form Body", "code": 50035}));
            }
            let id = state.next_id.fetch_add(1, Ordering::SeqCst).to_string();
            state
                .threads
                .lock()
                .unwrap()
                .insert(id.clone(), (parent.to_string(), name.clone(), false));
            (200, thread(&id, parent, &name, false))
        }
        ("PATCH", ["channels", id]) if state.threads.lock().unwrap().contains_key(*id) => {
            let mut threads = state.threads.lock().unwrap();
            let t = threads.get_mut(*id).unwrap();
            if let Some(archived) = json["archived"].as_bool() {
                t.2 = archived;
            }
            (200, thread(id, &t.0, &t.1, t.2))
        }
        ("POST", ["channels", channel, "messages"])
            if state.forbidden.lock().unwrap().iter().any(|c| c == channel) =>
        {
            (
                403,
                json!({"message": "Missing Permissions", "code": 50013}),
            )
        }
        ("POST", ["interactions", id, _, "callback"]) => {
            if state.acknowledged.lock().unwrap().insert(id.to_string()) {
                (204, Value::Null)
            } else {
                (
                    400,
                    json!({"message": "Interaction has already been acknowledged.", "code": 40060}),
                )
            }
        }
        ("GET", ["guilds", _, "roles"]) => (200, guild()["roles"].clone()),
        ("DELETE", ["webhooks", _, _, "messages", _]) => (204, Value::Null),
        ("PATCH", ["webhooks", _, _, "messages", _])
        | ("POST", ["webhooks", _, _])
        | ("PATCH", ["channels", _, "messages", _]) => (200, new_message(&json["content"])),
        ("POST", ["channels", _, "messages"]) => {
            let m = new_message(&json["content"]);
            if let Some(n) = nonce {
                state.nonces.lock().unwrap().insert(n, m.clone());
            }
            (200, m)
        }
        _ => (404, json!({"message": "Unknown route", "code": 0})),
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

/// Whether a snowflake (a string in Discord's JSON) is `id`.
fn is_id(v: &Value, id: u64) -> bool {
    v.as_str().and_then(|s| s.parse::<u64>().ok()) == Some(id)
}

/// Without the message-content intent (1 << 15) a guild message arrives
/// with its content, embeds, attachments and components empty, unless it
/// mentions the bot (as a user, which a reply to the bot with the ping on
/// does, or as its managed role) or is the bot's own (`events/gateway`,
/// Message Content Intent; a reply with the ping off mentions nobody).
fn hide_content(m: &mut Value, intents: u64) {
    let dm = m["guild_id"].is_null();
    let mentions_bot = m["mentions"]
        .as_array()
        .is_some_and(|u| u.iter().any(|u| is_id(&u["id"], APP)))
        || m["mention_roles"]
            .as_array()
            .is_some_and(|r| r.iter().any(|r| r == &json!(BOT_ROLE.to_string())));
    let own = is_id(&m["author"]["id"], APP);
    if intents & (1 << 15) != 0 || dm || mentions_bot || own {
        return;
    }
    m["content"] = json!("");
    m["embeds"] = json!([]);
    m["attachments"] = json!([]);
    m["components"] = json!([]);
}

async fn serve_gateway(
    listener: TcpListener,
    state: Arc<State>,
    mut events: mpsc::UnboundedReceiver<(String, Value)>,
) {
    // Events go to every session whose shard receives their guild's.
    let router = {
        let state = state.clone();
        tokio::spawn(async move {
            while let Some(event) = events.recv().await {
                route(&state, event);
            }
            // No test sends events any more: the sessions end.
            state.sessions.lock().unwrap().clear();
        })
    };
    // Any number of connections at once (one per shard, or a bot that
    // restarts and connects again), each served the same way.
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            return;
        };
        if router.is_finished() {
            return;
        }
        let state = state.clone();
        tokio::spawn(async move {
            if let Ok(ws) = tokio_tungstenite::accept_async(stream).await {
                serve_connection(ws, &state).await;
            }
        });
    }
}

/// Sends an event to the open sessions of its guild's shard, or keeps it
/// for the next one.
fn route(state: &State, event: (String, Value)) {
    let guild = event.1["guild_id"]
        .as_str()
        .and_then(|g| g.parse::<u64>().ok());
    let mut sessions = state.sessions.lock().unwrap();
    sessions.retain(|s| !s.events.is_closed());
    let mut sent = false;
    for s in sessions.iter() {
        if s.shard == shard_of(guild, s.total) && s.events.send(event.clone()).is_ok() {
            sent = true;
        }
    }
    if !sent {
        state.backlog.lock().unwrap().push(event);
    }
}

/// Serves one gateway connection until it closes.
async fn serve_connection(
    mut ws: tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>,
    state: &State,
) {
    let send = |v: Value| Frame::Text(v.to_string());
    let hello = json!({"op": 10, "d": {"heartbeat_interval": 41250}, "s": null, "t": null});
    if ws.send(send(hello)).await.is_err() {
        return;
    }
    let mut seq = 0u64;
    let (tx, mut events) = mpsc::unbounded_channel::<(String, Value)>();
    let mut tx = Some(tx);
    let mut intents = 0;
    loop {
        tokio::select! {
            frame = ws.next() => {
                let Some(Ok(frame)) = frame else { return };
                let Ok(text) = frame.to_text() else { continue };
                let Ok(v) = serde_json::from_str::<Value>(text) else { continue };
                match v["op"].as_u64() {
                    Some(1) => {
                        let ack = json!({"op": 11, "d": null, "s": null, "t": null});
                        if ws.send(send(ack)).await.is_err() {
                            return;
                        }
                    }
                    Some(2) => {
                        *state.identify.lock().unwrap() = Some(v["d"].clone());
                        intents = v["d"]["intents"].as_u64().unwrap_or(0);
                        // `events/gateway`, Identify: `shard` is [shard_id, num_shards].
                        let shard = v["d"]["shard"][0].as_u64().unwrap_or(0);
                        let total = v["d"]["shard"][1].as_u64().unwrap_or(1).max(1);
                        seq += 1;
                        let ready_event = json!({"op": 0, "s": seq, "t": "READY", "d": {
                            "v": 10, "user": user(APP, BOT_NAME), "guilds": [],
                            "session_id": format!("fake-session-{shard}"),
                            "resume_gateway_url": state.gateway_url,
                            "shard": [shard, total], "application": {"id": APP.to_string(), "flags": 0},
                        }});
                        if ws.send(send(ready_event)).await.is_err() {
                            return;
                        }
                        // Then each guild of this shard, as Discord sends
                        // them after ready.
                        for g in [GUILD, GUILD_B] {
                            if shard_of(Some(g), total) != shard || (g == GUILD_B && total == 1) {
                                continue;
                            }
                            seq += 1;
                            let guild_event = json!({"op": 0, "s": seq, "t": "GUILD_CREATE", "d": guild_with_id(g)});
                            if ws.send(send(guild_event)).await.is_err() {
                                return;
                            }
                        }
                        let Some(tx) = tx.take() else { continue };
                        {
                            // Held while the backlog is handed over, so that
                            // nothing routed meanwhile overtakes it.
                            let mut sessions = state.sessions.lock().unwrap();
                            let mut backlog = state.backlog.lock().unwrap();
                            let (mine, rest): (Vec<_>, Vec<_>) = backlog.drain(..).partition(|(_, d)| {
                                let guild = d["guild_id"].as_str().and_then(|g| g.parse::<u64>().ok());
                                shard_of(guild, total) == shard
                            });
                            *backlog = rest;
                            for event in mine {
                                let _ = tx.send(event);
                            }
                            sessions.push(Session { shard, total, events: tx });
                        }
                        state.readies.fetch_add(1, Ordering::SeqCst);
                        state.changed.notify_waiters();
                    }
                    _ => {}
                }
            }
            event = events.recv() => {
                let Some((t, mut d)) = event else { return };
                if t == "MESSAGE_CREATE" {
                    hide_content(&mut d, intents);
                }
                seq += 1;
                if ws.send(send(json!({"op": 0, "s": seq, "t": t, "d": d}))).await.is_err() {
                    // Lost with the connection, as Discord would lose it
                    // for a session that cannot resume.
                    return;
                }
            }
        }
    }
}
