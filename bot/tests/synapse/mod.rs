//! A real Synapse homeserver on 127.0.0.1 for the Matrix tests (installed
//! from PyPI by `scripts/synapse.sh`, as `.ci/run` does), players as real
//! clients, and the bot in-process or as its own `voidmate run` process.
#![allow(dead_code)]

use matrix_sdk::config::SyncSettings;
use matrix_sdk::ruma::api::client::filter::FilterDefinition;
use matrix_sdk::ruma::api::client::room::create_room::v3::Request as CreateRoom;
use matrix_sdk::ruma::api::client::sync::sync_events::v3::Filter;
use matrix_sdk::ruma::events::room::message::{
    MessageType, OriginalSyncRoomMessageEvent, Relation, RoomMessageEventContent,
};
use matrix_sdk::ruma::{uint, OwnedEventId, OwnedRoomId, OwnedUserId, UserId};
use matrix_sdk::{Client, Room, RoomMemberships};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;
use voidmate::config::Config;
use voidmate::game::Core;
use voidmate::matrix::{MatrixBot, MatrixConfig};

pub fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/synapse.sh")
}

pub struct Server {
    pub dir: tempfile::TempDir,
    pub port: u16,
}

impl Server {
    /// Tight message limits: the bot's replies (a notice and an image per
    /// move) exceed them, so it must wait and retry, losing nothing.
    pub fn start() -> Server {
        Server::with_limits(1, 4)
    }

    /// A server allowing `per_second` messages a second per user, after a
    /// burst of `burst`.
    pub fn with_limits(per_second: u32, burst: u32) -> Server {
        let dir = tempfile::tempdir().unwrap();
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let status = Command::new("bash")
            .arg(script())
            .args(["start", dir.path().to_str().unwrap(), &port.to_string()])
            .env("SYNAPSE_MESSAGES_PER_SECOND", per_second.to_string())
            .env("SYNAPSE_MESSAGE_BURST", burst.to_string())
            .status()
            .expect("run scripts/synapse.sh");
        assert!(status.success(), "Synapse did not start");
        for (user, pw) in [
            ("voidmate", "botpass"),
            ("alice", "alicepass"),
            ("bob", "bobpass"),
            ("carol", "carolpass"),
        ] {
            let ok = Command::new("bash")
                .arg(script())
                .args([
                    "register",
                    dir.path().to_str().unwrap(),
                    &port.to_string(),
                    user,
                    pw,
                ])
                .status()
                .unwrap()
                .success();
            assert!(ok, "register {user}");
        }
        Server { dir, port }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = Command::new("bash")
            .arg(script())
            .args(["stop", self.dir.path().to_str().unwrap()])
            .status();
    }
}

pub type Seen = (OwnedRoomId, OriginalSyncRoomMessageEvent);

/// A player: a logged-in client that syncs in the background and reports
/// every message it sees.
pub async fn player(
    server: &Server,
    name: &str,
    password: &str,
) -> (Client, mpsc::UnboundedReceiver<Seen>) {
    let client = Client::builder()
        .homeserver_url(server.url())
        .build()
        .await
        .unwrap();
    client
        .matrix_auth()
        .login_username(name, password)
        .send()
        .await
        .unwrap();
    let (tx, rx) = mpsc::unbounded_channel();
    client.add_event_handler(move |ev: OriginalSyncRoomMessageEvent, room: Room| {
        let tx = tx.clone();
        async move {
            let _ = tx.send((room.room_id().to_owned(), ev));
        }
    });
    // Like the bot, the players must see every event: without a filter
    // Synapse sends at most 10 timeline events per room and drops the rest.
    let mut def = FilterDefinition::with_lazy_loading();
    def.room.timeline.limit = Some(uint!(200));
    let filter = Filter::FilterDefinition(def);
    client
        .sync_once(SyncSettings::default().filter(filter.clone()))
        .await
        .unwrap();
    let c = client.clone();
    tokio::spawn(async move {
        // `Client::sync` stops at its first failed request, and a player
        // who stopped listening would look like a bot that never answered:
        // the player listens again from where it was, and says so.
        loop {
            let settings = SyncSettings::default()
                .filter(filter.clone())
                .timeout(Duration::from_millis(500));
            match c.sync(settings).await {
                Ok(()) => return,
                Err(e) => {
                    eprintln!("a test player's sync failed, listening again: {e}");
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
        }
    });
    (client, rx)
}

pub fn bot_id() -> OwnedUserId {
    UserId::parse("@voidmate:localhost").unwrap()
}

/// The next message from the bot in `room` that satisfies `want`.
pub async fn expect(
    rx: &mut mpsc::UnboundedReceiver<Seen>,
    room: &OwnedRoomId,
    what: &str,
    want: impl Fn(&OriginalSyncRoomMessageEvent) -> bool,
) -> OriginalSyncRoomMessageEvent {
    let deadline = Instant::now() + Duration::from_secs(60);
    // What the bot said meanwhile, for the failure message.
    let mut other = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let (r, ev) = tokio::time::timeout(left, rx.recv())
            .await
            .unwrap_or_else(|_| panic!("timed out waiting for {what}; the bot said {other:?}"))
            .expect("sync stopped");
        if &r == room && ev.sender == bot_id() {
            if want(&ev) {
                return ev;
            }
            other.push(ev.content.body().to_string());
        }
    }
}

/// The words of a bot's message: a notice, or a text when it pings someone.
pub fn notice(ev: &OriginalSyncRoomMessageEvent) -> Option<&str> {
    match &ev.content.msgtype {
        MessageType::Notice(n) => Some(n.body.as_str()),
        MessageType::Text(t) => Some(t.body.as_str()),
        _ => None,
    }
}

pub fn replies_to(ev: &OriginalSyncRoomMessageEvent) -> Option<OwnedEventId> {
    match &ev.content.relates_to {
        Some(Relation::Reply(reply)) => Some(reply.in_reply_to.event_id.clone()),
        _ => None,
    }
}

pub async fn say(room: &Room, text: &str) -> OwnedEventId {
    room.send(RoomMessageEventContent::text_plain(text))
        .await
        .unwrap()
        .response
        .event_id
}

pub async fn start_bot(
    server: &Server,
    db: &Path,
    store: &Path,
) -> (tokio::task::JoinHandle<()>, Client) {
    let bot = bot(server, db, store).await;
    let client = bot.client().clone();
    let task = tokio::spawn(async move {
        bot.run().await.unwrap();
    });
    (task, client)
}

/// The bot's Matrix client, logged in (or restored from `store`) as the bot
/// does at its start, with no sync loop running: to play the part of a
/// process that dies at a chosen moment.
pub async fn connect_bot(server: &Server, db: &Path, store: &Path) -> (Client, MatrixBot) {
    let bot = bot(server, db, store).await;
    (bot.client().clone(), bot)
}

async fn bot(server: &Server, db: &Path, store: &Path) -> MatrixBot {
    let mut cfg = Config::default();
    cfg.database.path = db.to_path_buf();
    cfg.clock.day_seconds = 8;
    let core = Core::open(&cfg).await.unwrap();
    let mcfg = MatrixConfig {
        homeserver: server.url(),
        user: "@voidmate:localhost".into(),
        password: Some("botpass".into()),
        access_token: None,
        store_dir: store.to_path_buf(),
        prefix: "!vm".into(),
        allow_invites_from: vec!["@alice:localhost".into()],
        tick: Duration::from_secs(1),
    };
    MatrixBot::connect(core, mcfg).await.unwrap()
}

/// A room made by alice with bob and the bot invited, everyone joined.
pub async fn room_with_bot(alice: &Client, bob: &Client, encrypted: bool) -> Room {
    room_of(alice, &[bob], encrypted).await
}

/// A room made by `creator` with the bot and `others` invited, everyone
/// joined.
pub async fn room_of(creator: &Client, others: &[&Client], encrypted: bool) -> Room {
    let mut req = CreateRoom::new();
    req.invite = vec![bot_id()];
    req.invite.extend(
        others
            .iter()
            .filter_map(|c| c.user_id().map(|u| u.to_owned())),
    );
    let room = creator.create_room(req).await.unwrap();
    if encrypted {
        room.enable_encryption().await.unwrap();
    }
    for other in others {
        other.join_room_by_id(room.room_id()).await.unwrap();
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let members = room.members(RoomMemberships::JOIN).await.unwrap();
        if members.iter().any(|m| m.user_id() == bot_id()) {
            break;
        }
        assert!(Instant::now() < deadline, "the bot did not join");
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    // The bot records its join time as it joins; give that a moment.
    tokio::time::sleep(Duration::from_millis(500)).await;
    room
}

/// The bot as its own process, `voidmate run`, with the Matrix adapter.
pub struct BotProcess {
    child: std::process::Child,
}

impl BotProcess {
    pub fn start(config: &Path, log: &Path) -> BotProcess {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
            .unwrap();
        // `VOIDMATE_TEST_BIN` runs another build of the bot (a copy kept
        // apart while the tree is rebuilt, when hunting a rare failure).
        let bin = std::env::var("VOIDMATE_TEST_BIN")
            .unwrap_or_else(|_| env!("CARGO_BIN_EXE_voidmate").to_string());
        let child = Command::new(bin)
            .args(["run", "--config", config.to_str().unwrap()])
            .env("VOIDMATE_TEST_MATRIX_PASSWORD", "botpass")
            .env("RUST_LOG", "info,voidmate=debug")
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .expect("voidmate runs");
        BotProcess { child }
    }

    /// `kill -9`: no clean-up of any kind.
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The next event a player sees before `until`: `Some(Some(ev))` for one
/// from the bot in `room`, `Some(None)` for anything else, `None` at the
/// time limit.
pub async fn next_said(
    seen: &mut mpsc::UnboundedReceiver<Seen>,
    room: &OwnedRoomId,
    until: Instant,
) -> Option<Option<OriginalSyncRoomMessageEvent>> {
    match tokio::time::timeout(until.saturating_duration_since(Instant::now()), seen.recv()).await {
        Ok(Some((r, ev))) if &r == room && ev.sender == bot_id() => Some(Some(ev)),
        Ok(Some(_)) => Some(None),
        _ => None,
    }
}

pub fn image_alt(ev: &OriginalSyncRoomMessageEvent) -> Option<&str> {
    match &ev.content.msgtype {
        MessageType::Image(i) => Some(i.body.as_str()),
        _ => None,
    }
}

pub fn bodies(said: &[OriginalSyncRoomMessageEvent]) -> Vec<&str> {
    said.iter().map(|e| e.content.body()).collect()
}
