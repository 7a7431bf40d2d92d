//! The Matrix adapter: room messages in, notices and board images out.
//!
//! It only translates. Commands start with a prefix (`!vm e4`); an unprefixed
//! message goes to the core marked as unaddressed, which takes it only as a
//! bare move by the player to move. Replies are `m.notice` messages (the kind
//! other bots ignore) in reply to the command; boards are uploaded as
//! `m.image` with their size, dimensions and a description of the move.
//!
//! Nothing is answered twice and nothing is skipped: the core records every
//! handled event id, and the sync token is saved only after a sync's events
//! have been handled, so a restart resumes exactly where the bot stopped.
//! Messages from before the bot joined a room are history, not commands.

use crate::config::Adapter;
use crate::game::{
    store, Core, Incoming, Input, Mentioned, Player, PlayerId, Refusal, Reply, Segment,
};
use anyhow::{anyhow, bail, Context, Result};
use matrix_sdk::attachment::{AttachmentConfig, AttachmentInfo, BaseImageInfo};
use matrix_sdk::authentication::matrix::MatrixSession;
use matrix_sdk::authentication::SessionTokens;
use matrix_sdk::config::{RequestConfig, SyncSettings};
use matrix_sdk::event_handler::Ctx;
use matrix_sdk::room::reply::{EnforceThread, Reply as ReplyTo};
use matrix_sdk::ruma::api::client::uiaa;
use matrix_sdk::ruma::events::reaction::OriginalSyncReactionEvent;
use matrix_sdk::ruma::events::room::member::StrippedRoomMemberEvent;
use matrix_sdk::ruma::events::room::message::{
    AddMentions, ForwardThread, MessageType, OriginalSyncRoomMessageEvent, RoomMessageEventContent,
    TextMessageEventContent,
};
use matrix_sdk::ruma::events::Mentions;
use matrix_sdk::ruma::{OwnedTransactionId, OwnedUserId, RoomId, UInt, UserId};
use matrix_sdk::store::RoomLoadSettings;
use matrix_sdk::SessionMeta;
use matrix_sdk::{Client, Room, RoomState};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The `[matrix]` section of the configuration.
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

impl MatrixConfig {
    pub fn from_config(a: &Adapter) -> Result<MatrixConfig> {
        let text = |key: &str| {
            a.settings
                .get(key)
                .and_then(|v| v.as_str())
                .map(String::from)
        };
        let homeserver = text("homeserver")
            .ok_or_else(|| anyhow!("[matrix] needs homeserver = \"https://...\""))?;
        let user =
            text("user").ok_or_else(|| anyhow!("[matrix] needs user = \"@bot:example.org\""))?;
        let password = match text("password_env") {
            Some(var) => Some(std::env::var(&var).with_context(|| {
                format!("[matrix] password_env names {var}, which is not set in the environment")
            })?),
            None => None,
        };
        let access_token = match (text("access_token_env"), text("device_id")) {
            (Some(var), Some(device)) => Some((
                std::env::var(&var).with_context(|| {
                    format!("[matrix] access_token_env names {var}, which is not set in the environment")
                })?,
                device,
            )),
            (Some(_), None) => bail!("[matrix] access_token_env needs device_id, the device the token belongs to"),
            _ => None,
        };
        let allow = a
            .settings
            .get("allow_invites_from")
            .and_then(|v| v.as_array())
            .map(|v| {
                v.iter()
                    .filter_map(|s| s.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        Ok(MatrixConfig {
            homeserver,
            user,
            password,
            access_token,
            store_dir: PathBuf::from(text("store_dir").unwrap_or_else(|| "voidmate-matrix".into())),
            prefix: text("prefix").unwrap_or_else(|| "!vm".into()),
            allow_invites_from: allow,
            tick: Duration::from_secs(
                a.settings
                    .get("tick_seconds")
                    .and_then(|v| v.as_integer())
                    .unwrap_or(1)
                    .max(1) as u64,
            ),
        })
    }
}

struct Shared {
    core: Core,
    cfg: MatrixConfig,
    /// Off during the first sync after a fresh login: what it brings is history.
    live: AtomicBool,
}

/// A connected Matrix bot.
pub struct MatrixBot {
    client: Client,
    shared: Arc<Shared>,
}

const SYNC_TOKEN_KEY: &str = "matrix.sync_token";

fn joined_key(room: &RoomId) -> String {
    format!("matrix.joined_at.{room}")
}

impl MatrixBot {
    /// Logs in (or restores the saved session) and prepares the handlers.
    pub async fn connect(core: Core, cfg: MatrixConfig) -> Result<MatrixBot> {
        // The session and the encryption keys live here: owner only.
        crate::secret::create_private_dir(&cfg.store_dir)
            .with_context(|| format!("cannot create {}", cfg.store_dir.display()))?;
        let client = Client::builder()
            .homeserver_url(&cfg.homeserver)
            .sqlite_store(cfg.store_dir.join("sdk"), None)
            // Rate-limited requests (429, M_LIMIT_EXCEEDED) are retried after
            // the delay the server asks for, for up to two minutes.
            .request_config(
                RequestConfig::new()
                    .retry_limit(10)
                    .max_retry_time(Duration::from_secs(120)),
            )
            .build()
            .await
            .context("cannot reach the homeserver")?;
        let session_file = cfg.store_dir.join("session.json");
        if let Ok(saved) = std::fs::read_to_string(&session_file) {
            let session: MatrixSession =
                serde_json::from_str(&saved).context("the saved Matrix session is damaged")?;
            client
                .matrix_auth()
                .restore_session(session, RoomLoadSettings::default())
                .await
                .context("cannot restore the Matrix session")?;
        } else if let Some((token, device)) = &cfg.access_token {
            let session = MatrixSession {
                meta: SessionMeta {
                    user_id: UserId::parse(&cfg.user)
                        .context("[matrix] user is not a Matrix user id")?,
                    device_id: device.as_str().into(),
                },
                tokens: SessionTokens {
                    access_token: token.clone(),
                    refresh_token: None,
                },
            };
            client
                .matrix_auth()
                .restore_session(session, RoomLoadSettings::default())
                .await
                .context("the Matrix access token was refused")?;
            crate::secret::write_private(
                &session_file,
                serde_json::to_string(&client.matrix_auth().session())?.as_bytes(),
            )?;
        } else {
            let Some(password) = cfg.password.clone() else {
                bail!("no saved Matrix session and no credentials: set [matrix] password_env, or access_token_env and device_id");
            };
            client
                .matrix_auth()
                .login_username(&cfg.user, &password)
                .initial_device_display_name("Voidmate")
                .send()
                .await
                .context("Matrix login failed")?;
            let session = client
                .matrix_auth()
                .session()
                .ok_or_else(|| anyhow!("no session after login"))?;
            crate::secret::write_private(
                &session_file,
                serde_json::to_string(&session)?.as_bytes(),
            )?;
            cross_sign(&client, &cfg.user, &password).await;
        }
        // Challenging the bot's own user plays its engine.
        let me = UserId::parse(cfg.user.as_str())
            .map_err(|e| anyhow!("[matrix] user {} is not a Matrix user id: {e}", cfg.user))?;
        core.add_bot(Player::new(
            PlayerId::new(PLATFORM, me.as_str()),
            me.localpart(),
        ))
        .await
        .context("cannot record the bot's identity")?;
        let shared = Arc::new(Shared {
            core,
            cfg,
            live: AtomicBool::new(false),
        });
        client.add_event_handler_context(shared.clone());
        client.add_event_handler(on_invite);
        client.add_event_handler(on_message);
        client.add_event_handler(on_reaction);
        Ok(MatrixBot { client, shared })
    }

    pub fn client(&self) -> &Client {
        &self.client
    }

    /// Syncs forever, posting deadline reminders as they fall due.
    pub async fn run(self) -> Result<()> {
        let pool = self.shared.core.store().pool().clone();
        let mut token = store::adapter_value(&pool, SYNC_TOKEN_KEY).await?;
        if token.is_none() {
            // A fresh start: take the rooms as they are, answer nothing old.
            let first = self.client.sync_once(SyncSettings::default()).await?;
            store::set_adapter_value(&pool, SYNC_TOKEN_KEY, &first.next_batch).await?;
            token = Some(first.next_batch);
        }
        self.shared.live.store(true, Ordering::SeqCst);

        let ticker = AbortOnDrop({
            let client = self.client.clone();
            let shared = self.shared.clone();
            tokio::spawn(async move {
                loop {
                    tokio::time::sleep(shared.cfg.tick).await;
                    for notice in shared.core.tick().await {
                        let Ok(room_id) = RoomId::parse(&notice.channel) else {
                            continue;
                        };
                        // Confirmed only once posted. A room the bot is not in
                        // (kicked, banned, left) refuses for good; anything
                        // else is tried again later.
                        let joined = client
                            .get_room(&room_id)
                            .filter(|room| room.state() == matrix_sdk::RoomState::Joined);
                        match joined {
                            None => shared.core.failed(notice.id, Refusal::Permanent).await,
                            Some(room) => {
                                if post(&room, None, notice.reply).await {
                                    shared.core.delivered(notice.id).await;
                                } else {
                                    let again = Refusal::Temporary { retry_after: None };
                                    shared.core.failed(notice.id, again).await;
                                }
                            }
                        }
                    }
                }
            })
        });
        let mut backoff = Duration::from_secs(1);
        loop {
            let mut settings = SyncSettings::default().timeout(Duration::from_secs(30));
            if let Some(t) = &token {
                settings = settings.token(t.clone());
            }
            match self.client.sync_once(settings).await {
                Ok(response) => {
                    // Handlers have run by now: only then is the token saved.
                    store::set_adapter_value(&pool, SYNC_TOKEN_KEY, &response.next_batch).await?;
                    token = Some(response.next_batch);
                    backoff = Duration::from_secs(1);
                }
                Err(e) => {
                    tracing::warn!(?backoff, "Matrix sync failed, retrying: {e}");
                    tokio::time::sleep(backoff).await;
                    backoff = (backoff * 2).min(Duration::from_secs(60));
                }
            }
            if ticker.0.is_finished() {
                bail!("the deadline task stopped");
            }
        }
    }
}

/// Stops the deadline task with the sync loop that owns it, even when that
/// loop's task is cancelled.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Signs the bot's device with its own cross-signing keys, so that encrypted
/// rooms see a verified bot. Failure is not fatal: encryption works without.
async fn cross_sign(client: &Client, user: &str, password: &str) {
    let enc = client.encryption();
    if let Err(e) = enc.bootstrap_cross_signing_if_needed(None).await {
        let Some(info) = e.as_uiaa_response() else {
            tracing::warn!("cross-signing not set up: {e}");
            return;
        };
        let localpart = user
            .trim_start_matches('@')
            .split(':')
            .next()
            .unwrap_or(user);
        let mut auth = uiaa::Password::new(
            uiaa::UserIdentifier::Matrix(uiaa::MatrixUserIdentifier::new(localpart.to_owned())),
            password.to_owned(),
        );
        auth.session = info.session.clone();
        if let Err(e) = enc
            .bootstrap_cross_signing(Some(uiaa::AuthData::Password(auth)))
            .await
        {
            tracing::warn!("cross-signing not set up: {e}");
        }
    }
}

fn allowed(cfg: &MatrixConfig, inviter: &UserId) -> bool {
    cfg.allow_invites_from.is_empty()
        || cfg
            .allow_invites_from
            .iter()
            .any(|a| a == inviter.as_str() || a == inviter.server_name().as_str())
}

async fn on_invite(
    ev: StrippedRoomMemberEvent,
    room: Room,
    client: Client,
    shared: Ctx<Arc<Shared>>,
) {
    let Some(me) = client.user_id() else { return };
    if ev.state_key != me || room.state() != RoomState::Invited {
        return;
    }
    if !allowed(&shared.cfg, &ev.sender) {
        let _ = room.leave().await;
        return;
    }
    let pool = shared.core.store().pool().clone();
    let room_id = room.room_id().to_owned();
    let core = shared.core.clone();
    tokio::spawn(async move {
        // Synapse may not be ready for the join the moment it sends the
        // invite (matrix-org/synapse#4345), hence the retries.
        let mut delay = 1;
        while let Err(e) = room.join().await {
            if delay > 60 {
                tracing::warn!(room = %room_id, "cannot join a room: {e}");
                return;
            }
            tokio::time::sleep(Duration::from_secs(delay)).await;
            delay *= 2;
        }
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as i64)
            .unwrap_or(0);
        let _ = store::set_adapter_value(&pool, &joined_key(&room_id), &now.to_string()).await;
        // Back in the room: what was parked for it goes out again.
        core.seen_in(room_id.as_str()).await;
    });
}

/// The body without a reply's quoted fallback.
fn strip_reply_fallback(body: &str) -> &str {
    let mut rest = body;
    while rest.starts_with("> ") {
        rest = rest.split_once('\n').map(|(_, r)| r).unwrap_or("");
    }
    rest.trim()
}

async fn before_join(shared: &Shared, room: &RoomId, ts_millis: i64) -> bool {
    let joined = store::adapter_value(shared.core.store().pool(), &joined_key(room)).await;
    matches!(joined, Ok(Some(t)) if t.parse::<i64>().is_ok_and(|j| ts_millis < j))
}

async fn on_message(
    ev: OriginalSyncRoomMessageEvent,
    room: Room,
    client: Client,
    shared: Ctx<Arc<Shared>>,
) {
    if !shared.live.load(Ordering::SeqCst) || room.state() != RoomState::Joined {
        return;
    }
    if client.user_id() == Some(&ev.sender) {
        return;
    }
    // Notices are what bots send; answering them makes bots talk in circles.
    let MessageType::Text(text) = &ev.content.msgtype else {
        return;
    };
    if before_join(
        &shared,
        room.room_id(),
        i64::from(ev.origin_server_ts.get()),
    )
    .await
    {
        return;
    }
    let body = strip_reply_fallback(&text.body);
    // A room of the bot and one person is a direct conversation: everything
    // said there is for the bot, and private (Super Chess programs).
    let direct = room.joined_members_count() <= 2;
    let (addressed, command) = match body.strip_prefix(shared.cfg.prefix.as_str()) {
        Some(rest) => (true, rest.trim().to_string()),
        None => (direct, body.to_string()),
    };
    let mentions = mentioned(&room, &client, &ev, &command).await;
    let incoming = Incoming {
        event_id: ev.event_id.to_string(),
        channel: room.room_id().to_string(),
        author: member(&room, &ev.sender).await,
        input: Input::Line(command),
        mentions,
        addressed,
        private: direct,
    };
    if let Some(reply) = shared.core.handle(&incoming).await {
        deliver(&shared.core, &room, Some(&ev), reply).await;
    }
}

/// A ✅ reaction accepts the challenge waiting for the one who reacted.
async fn on_reaction(
    ev: OriginalSyncReactionEvent,
    room: Room,
    client: Client,
    shared: Ctx<Arc<Shared>>,
) {
    if !shared.live.load(Ordering::SeqCst) || client.user_id() == Some(&ev.sender) {
        return;
    }
    let key = ev.content.relates_to.key.as_str();
    if !matches!(key, "✅" | "✔️" | "☑️" | "👍") {
        return;
    }
    let incoming = Incoming {
        event_id: ev.event_id.to_string(),
        channel: room.room_id().to_string(),
        author: member(&room, &ev.sender).await,
        input: Input::Line("accept".into()),
        mentions: Vec::new(),
        addressed: true,
        private: false,
    };
    if let Some(reply) = shared.core.handle(&incoming).await {
        // A reaction that accepts nothing is no command: stay quiet.
        if !reply.is_error {
            deliver(&shared.core, &room, None, reply).await;
        }
    }
}

/// The Matrix namespace of player ids: `matrix:@alice:example.org`.
pub const PLATFORM: &str = "matrix";

/// `user` in `room` as a player: their id, and the name the room shows.
async fn member(room: &Room, user: &UserId) -> Player {
    let name = match room.get_member_no_sync(user).await {
        Ok(Some(m)) => m.name().to_string(),
        _ => user.localpart().to_string(),
    };
    Player::new(PlayerId::new(PLATFORM, user.as_str()), name)
}

/// Who a message names: the users of its intentional mentions (pills,
/// written as their id or as the name the pill shows), and user ids typed
/// in the command, `@bob` without a server meaning the bot's server.
async fn mentioned(
    room: &Room,
    client: &Client,
    ev: &OriginalSyncRoomMessageEvent,
    command: &str,
) -> Vec<Mentioned> {
    let mut out = Vec::new();
    if let Some(m) = &ev.content.mentions {
        for user in &m.user_ids {
            let who = member(room, user).await;
            for written in [user.to_string(), who.name.clone()] {
                out.push(Mentioned {
                    written,
                    who: who.clone(),
                });
            }
        }
    }
    let server = client.user_id().map(|u| u.server_name().to_owned());
    for word in command.split_whitespace().filter(|w| w.starts_with('@')) {
        let full = match (word.contains(':'), &server) {
            (true, _) => word.to_string(),
            (false, Some(server)) => format!("{word}:{server}"),
            (false, None) => continue,
        };
        if let Ok(user) = UserId::parse(full.as_str()) {
            out.push(Mentioned {
                written: word.to_string(),
                who: member(room, &user).await,
            });
        }
    }
    out
}

/// The Matrix users a reply mentions or must notify.
fn user_ids(reply: &Reply) -> Vec<OwnedUserId> {
    let mut out: Vec<OwnedUserId> = Vec::new();
    for p in reply.text.mentioned().chain(reply.notify.iter()) {
        if p.id.platform() != PLATFORM {
            continue;
        }
        if let Ok(u) = UserId::parse(p.id.local()) {
            if !out.contains(&u) {
                out.push(u);
            }
        }
    }
    out
}

/// A reply's text as HTML, each mention a pill (a link to the user).
fn html_with_pills(reply: &Reply) -> String {
    let mut html = String::new();
    for seg in reply.text.segments() {
        match seg {
            Segment::Plain(t) => html.push_str(&escape_html(t).replace('\n', "<br>")),
            Segment::Mention(p) if p.id.platform() == PLATFORM => {
                html.push_str(&format!(
                    "<a href=\"https://matrix.to/#/{}\">{}</a>",
                    p.id.local(),
                    escape_html(&p.name)
                ));
            }
            Segment::Mention(p) => html.push_str(&escape_html(&format!("@{}", p.name))),
        }
    }
    html
}

fn escape_html(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Width and height from a PNG's header.
fn png_size(png: &[u8]) -> Option<(u32, u32)> {
    let w = u32::from_be_bytes(png.get(16..20)?.try_into().ok()?);
    let h = u32::from_be_bytes(png.get(20..24)?.try_into().ok()?);
    Some((w, h))
}

/// Posts a reply and confirms what it delivered; unconfirmed, the core
/// hands it out again later (with the same transaction ids).
async fn deliver(
    core: &Core,
    room: &Room,
    to: Option<&OriginalSyncRoomMessageEvent>,
    reply: Reply,
) {
    let entries = reply.deliveries.clone();
    let posted = post(room, to, reply).await;
    for entry in entries {
        if posted {
            core.delivered(entry).await;
        } else {
            // Tried again soon (backing off), not only after the grace the
            // core gives a direct post (a rate limit, a server error).
            let again = Refusal::Temporary { retry_after: None };
            core.failed(entry, again).await;
        }
    }
}

/// Posts a reply; `true` if its text went out.
async fn post(room: &Room, to: Option<&OriginalSyncRoomMessageEvent>, reply: Reply) -> bool {
    let mentions = user_ids(&reply);
    let mut content = if reply.text.mentioned().next().is_some() {
        RoomMessageEventContent::notice_html(reply.text.to_string(), html_with_pills(&reply))
    } else {
        RoomMessageEventContent::notice_plain(reply.text.to_string())
    };
    if let Some(original) = to {
        content = content.make_reply_to(original, ForwardThread::Yes, AddMentions::No);
    }
    if !mentions.is_empty() {
        content = content.add_mentions(Mentions::with_user_ids(mentions.clone()));
    }
    // The same transaction id for a direct post and any retry of it from
    // the outbox: the homeserver keeps one event per transaction id and
    // device, so an answer never shows twice.
    let key = reply.key();
    let mut send = room.send(content);
    if let Some(k) = &key {
        send = send.with_transaction_id(OwnedTransactionId::from(k.as_str()));
    }
    if let Err(e) = send.await {
        tracing::warn!(room = %room.room_id(), "cannot send to a room: {e}");
        return false;
    }
    let Some(image) = reply.image else {
        return true;
    };
    let (w, h) = png_size(&image.png).unwrap_or((0, 0));
    let info = BaseImageInfo {
        width: Some(UInt::from(w)),
        height: Some(UInt::from(h)),
        size: UInt::new(image.png.len() as u64),
        blurhash: None,
        is_animated: Some(false),
    };
    let mut config = AttachmentConfig::new()
        .info(AttachmentInfo::Image(info))
        .caption(Some(TextMessageEventContent::plain(image.alt.clone())));
    if let Some(k) = &key {
        config = config.txn_id(OwnedTransactionId::from(format!("{k}-board")));
    }
    if let Some(original) = to {
        config.reply = Some(ReplyTo {
            event_id: original.event_id.clone(),
            enforce_thread: EnforceThread::MaybeThreaded,
            add_mentions: AddMentions::No,
        });
    }
    if let Err(e) = room
        .send_attachment("board.png", &mime::IMAGE_PNG, image.png, config)
        .await
    {
        tracing::warn!(room = %room.room_id(), "cannot upload a board: {e}");
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;

    #[test]
    fn the_documented_matrix_section_reads_and_names_missing_secrets() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../config/voidmate.toml");
        let cfg = Config::load(Some(&path)).unwrap();
        let err = MatrixConfig::from_config(&cfg.matrix)
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "[matrix] password_env names VOIDMATE_MATRIX_PASSWORD, which is not set in the environment"
        );
        let mut adapter = cfg.matrix.clone();
        adapter.settings.remove("password_env");
        let m = MatrixConfig::from_config(&adapter).unwrap();
        assert_eq!(m.homeserver, "https://matrix.example.org");
        assert_eq!(m.user, "@voidmate:example.org");
        assert_eq!(m.prefix, "!vm");
        assert_eq!(m.tick, Duration::from_secs(1));
        assert!(
            m.allow_invites_from.is_empty() && m.password.is_none() && m.access_token.is_none()
        );
    }

    #[test]
    fn invitations_follow_the_allow_list() {
        let mut cfg = MatrixConfig {
            homeserver: String::new(),
            user: String::new(),
            password: None,
            access_token: None,
            store_dir: PathBuf::new(),
            prefix: "!vm".into(),
            allow_invites_from: vec![],
            tick: Duration::from_secs(1),
        };
        let alice = UserId::parse("@alice:example.org").unwrap();
        let eve = UserId::parse("@eve:elsewhere.net").unwrap();
        assert!(allowed(&cfg, &alice) && allowed(&cfg, &eve));
        cfg.allow_invites_from = vec!["example.org".into()];
        assert!(allowed(&cfg, &alice) && !allowed(&cfg, &eve));
        cfg.allow_invites_from = vec!["@eve:elsewhere.net".into()];
        assert!(!allowed(&cfg, &alice) && allowed(&cfg, &eve));
    }

    #[test]
    fn reply_fallbacks_and_png_sizes_are_read() {
        assert_eq!(
            strip_reply_fallback("> <@bob:x> e4\n> more\n\n!vm e5"),
            "!vm e5"
        );
        assert_eq!(strip_reply_fallback("!vm board"), "!vm board");
        let png = voidmate_render::Renderer::shared().render(
            &voidmate_rules::Position::new(voidmate_rules::variants::void()),
            &Default::default(),
        );
        assert_eq!(png_size(&png), Some((632, 632)));
    }
}
