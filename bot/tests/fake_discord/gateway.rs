//! The fake's gateway, as Discord documents it (`events/gateway`,
//! `events/gateway-events`, `topics/opcodes-and-status-codes`):
//!
//! - Hello, then IDENTIFY (op 2) makes a session, which gets READY with its
//!   own `resume_gateway_url` and then its guilds' `GUILD_CREATE`s.
//! - A session outlives its connection: events for it while it has none
//!   are kept, and a RESUME (op 6) with its id and last sequence number, on
//!   a new connection, replays them and says `RESUMED`. An unknown or
//!   invalidated session's RESUME is answered with Invalid Session (op 9,
//!   `d: false`).
//! - Events for a shard that has no session are lost: nothing replays them
//!   (a new IDENTIFY starts a new session, with nothing owed).
//! - Op 7 (Reconnect) and op 9 (Invalid Session) are sent when a test asks;
//!   an IDENTIFY asking for a privileged intent the application may not use
//!   is closed with 4014 (Disallowed intent(s)).
//!
//! The resume address is this same server under `/resume`, so the fake can
//! tell (and the tests check) where each IDENTIFY and RESUME came in.

use super::{guild_with_id, shard_of, user, State, APP, BOT_NAME, GUILD, GUILD_B};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::sync::atomic::Ordering;
use std::time::Instant;
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::handshake::server::{Request, Response};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::Message as Frame;

/// The privileged intents (`events/gateway#privileged-intents`): guild
/// members, guild presences, message content.
pub const PRIVILEGED: u64 = (1 << 1) | (1 << 8) | (1 << 15);

/// What the fake's gateway saw and did, in order, for the tests to check.
#[derive(Debug, Clone)]
pub enum Logged {
    /// An IDENTIFY for `shard`, on a connection to `path` (`/` or `/resume`).
    Identify {
        shard: u64,
        path: String,
        at: Instant,
    },
    /// A RESUME of `session` on a connection to `path`; `accepted`: the
    /// session was there to resume.
    Resume {
        session: String,
        path: String,
        accepted: bool,
        at: Instant,
    },
    /// Op 9 sent to `session`.
    InvalidSession { session: String, at: Instant },
    /// Op 7 sent to `session`.
    Reconnect { session: String, at: Instant },
    /// A connection closed with 4014 for a privileged intent not allowed.
    Disallowed { intents: u64 },
    /// An event no session of its shard was there to receive.
    Lost { t: String },
}

/// What goes out on a session's connection.
pub enum Out {
    Frame(Value),
    Close(u16, &'static str),
}

/// A gateway session: it lives from its IDENTIFY until it is invalidated.
pub struct Session {
    pub id: String,
    pub shard: u64,
    pub total: u64,
    intents: u64,
    seq: u64,
    /// Every dispatch of the session, by sequence number: what a RESUME
    /// replays from.
    sent: Vec<(u64, Value)>,
    /// The connection the session is on now, if any.
    live: Option<mpsc::UnboundedSender<Out>>,
    pub valid: bool,
}

impl Session {
    /// Sends (or keeps for a resume) the next dispatch.
    fn dispatch(&mut self, t: &str, mut d: Value) {
        if t == "MESSAGE_CREATE" {
            hide_content(&mut d, self.intents);
        }
        self.seq += 1;
        let frame = json!({"op": 0, "s": self.seq, "t": t, "d": d});
        self.sent.push((self.seq, frame.clone()));
        if let Some(live) = &self.live {
            if live.send(Out::Frame(frame)).is_err() {
                self.live = None;
            }
        }
    }

    fn send(&mut self, out: Out) {
        if let Some(live) = &self.live {
            if live.send(out).is_err() {
                self.live = None;
            }
        }
    }
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
            .is_some_and(|r| r.iter().any(|r| r == &json!(super::BOT_ROLE.to_string())));
    let own = is_id(&m["author"]["id"], APP);
    if intents & (1 << 15) != 0 || dm || mentions_bot || own {
        return;
    }
    m["content"] = json!("");
    m["embeds"] = json!([]);
    m["attachments"] = json!([]);
    m["components"] = json!([]);
}

/// Sends an event to every session of its guild's shard; lost if there is
/// none.
pub fn route(state: &State, t: String, d: Value) {
    let guild = d["guild_id"].as_str().and_then(|g| g.parse::<u64>().ok());
    let mut sessions = state.sessions.lock().unwrap();
    let mut any = false;
    for s in sessions
        .iter_mut()
        .filter(|s| s.valid && s.shard == shard_of(guild, s.total))
    {
        s.dispatch(&t, d.clone());
        any = true;
    }
    drop(sessions);
    if !any {
        state.log(Logged::Lost { t });
    }
}

/// Sends op 7 to the live sessions of `shard`, then closes their
/// connections a moment later, as Discord may.
pub fn reconnect(state: &State, shard: u64) {
    let mut sessions = state.sessions.lock().unwrap();
    for s in sessions.iter_mut().filter(|s| s.valid && s.shard == shard) {
        s.send(Out::Frame(
            json!({"op": 7, "d": null, "s": null, "t": null}),
        ));
        state.log(Logged::Reconnect {
            session: s.id.clone(),
            at: Instant::now(),
        });
    }
}

/// Invalidates the sessions of `shard`: op 9 with `d: false`; what is sent
/// for them from now on is lost until they identify again.
pub fn invalidate(state: &State, shard: u64) {
    let mut sessions = state.sessions.lock().unwrap();
    for s in sessions.iter_mut().filter(|s| s.valid && s.shard == shard) {
        s.valid = false;
        s.send(Out::Frame(
            json!({"op": 9, "d": false, "s": null, "t": null}),
        ));
        state.log(Logged::InvalidSession {
            session: s.id.clone(),
            at: Instant::now(),
        });
    }
}

/// Closes the connections of `shard`'s sessions with `code` (4000, an
/// unknown error: the session may be resumed).
pub fn drop_connections(state: &State, shard: u64, code: u16) {
    let mut sessions = state.sessions.lock().unwrap();
    for s in sessions.iter_mut().filter(|s| s.valid && s.shard == shard) {
        s.send(Out::Close(code, "closed by the test"));
    }
}

pub async fn serve(listener: TcpListener, state: std::sync::Arc<State>) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            return;
        };
        let state = state.clone();
        tokio::spawn(async move {
            let mut path = String::new();
            // The callback's error type is tungstenite's (large, never used).
            #[allow(clippy::result_large_err)]
            let read_path = |req: &Request, resp: Response| {
                path = req.uri().path().trim_end_matches('/').to_string();
                Ok(resp)
            };
            let accepted = tokio_tungstenite::accept_hdr_async(stream, read_path).await;
            if let Ok(ws) = accepted {
                let path = if path.is_empty() { "/".into() } else { path };
                connection(ws, &state, path).await;
            }
        });
    }
}

/// Serves one connection until it closes.
async fn connection(
    ws: tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>,
    state: &State,
    path: String,
) {
    let (mut sink, mut stream) = ws.split();
    let (tx, mut rx) = mpsc::unbounded_channel::<Out>();
    let hello = json!({"op": 10, "d": {"heartbeat_interval": 41250}, "s": null, "t": null});
    if sink.send(Frame::Text(hello.to_string())).await.is_err() {
        return;
    }
    // The session this connection serves, once identified or resumed.
    let mut mine: Option<String> = None;
    loop {
        tokio::select! {
            frame = stream.next() => {
                let Some(Ok(frame)) = frame else { break };
                let Ok(text) = frame.to_text() else { continue };
                let Ok(v) = serde_json::from_str::<Value>(text) else { continue };
                match v["op"].as_u64() {
                    Some(1) => {
                        let _ = tx.send(Out::Frame(json!({"op": 11, "d": null, "s": null, "t": null})));
                    }
                    Some(2) => mine = identify(state, &v["d"], &path, &tx),
                    Some(6) => mine = resume(state, &v["d"], &path, &tx),
                    _ => {}
                }
            }
            out = rx.recv() => {
                let Some(out) = out else { break };
                match out {
                    Out::Frame(v) => {
                        if sink.send(Frame::Text(v.to_string())).await.is_err() {
                            break;
                        }
                    }
                    Out::Close(code, reason) => {
                        let close = CloseFrame { code: CloseCode::from(code), reason: reason.into() };
                        let _ = sink.send(Frame::Close(Some(close))).await;
                        break;
                    }
                }
            }
        }
    }
    // The session lives on without its connection (it may be resumed).
    if let Some(id) = mine {
        let mut sessions = state.sessions.lock().unwrap();
        if let Some(s) = sessions.iter_mut().find(|s| s.id == id) {
            if s.live.as_ref().is_some_and(|l| l.same_channel(&tx)) {
                s.live = None;
            }
        }
    }
}

/// IDENTIFY: a new session (or 4014 for an intent not allowed).
fn identify(
    state: &State,
    d: &Value,
    path: &str,
    tx: &mpsc::UnboundedSender<Out>,
) -> Option<String> {
    *state.identify.lock().unwrap() = Some(d.clone());
    let intents = d["intents"].as_u64().unwrap_or(0);
    // `events/gateway-events#identify`: `shard` is [shard_id, num_shards].
    let shard = d["shard"][0].as_u64().unwrap_or(0);
    let total = d["shard"][1].as_u64().unwrap_or(1).max(1);
    let identified = Logged::Identify {
        shard,
        path: path.to_string(),
        at: Instant::now(),
    };
    let allowed = state.privileged_allowed.load(Ordering::SeqCst);
    if intents & PRIVILEGED & !allowed != 0 {
        state.log(identified);
        state.log(Logged::Disallowed { intents });
        let _ = tx.send(Out::Close(4014, "Disallowed intent(s)."));
        return None;
    }
    let n = state.next_session.fetch_add(1, Ordering::SeqCst);
    let id = format!("fake-session-{shard}-{n}");
    let mut session = Session {
        id: id.clone(),
        shard,
        total,
        intents,
        seq: 0,
        sent: Vec::new(),
        live: Some(tx.clone()),
        valid: true,
    };
    session.dispatch(
        "READY",
        json!({
            "v": 10, "user": user(APP, BOT_NAME), "guilds": [],
            "session_id": id, "resume_gateway_url": state.resume_url,
            "shard": [shard, total], "application": {"id": APP.to_string(), "flags": 0},
        }),
    );
    // Then each guild of this shard, as Discord sends them after READY.
    for g in [GUILD, GUILD_B] {
        if shard_of(Some(g), total) != shard || (g == GUILD_B && total == 1) {
            continue;
        }
        session.dispatch("GUILD_CREATE", guild_with_id(g));
    }
    state.sessions.lock().unwrap().push(session);
    // Logged once the session is there to receive what comes next.
    state.log(identified);
    state.readies.fetch_add(1, Ordering::SeqCst);
    state.changed.notify_waiters();
    Some(id)
}

/// RESUME: the session's missed events, then `RESUMED`; op 9 if the
/// session cannot be resumed.
fn resume(state: &State, d: &Value, path: &str, tx: &mpsc::UnboundedSender<Out>) -> Option<String> {
    let id = d["session_id"].as_str().unwrap_or("").to_string();
    let last = d["seq"].as_u64().unwrap_or(0);
    let mut sessions = state.sessions.lock().unwrap();
    let found = sessions.iter_mut().find(|s| s.id == id && s.valid);
    state.log(Logged::Resume {
        session: id.clone(),
        path: path.to_string(),
        accepted: found.is_some(),
        at: Instant::now(),
    });
    let Some(s) = found else {
        let _ = tx.send(Out::Frame(
            json!({"op": 9, "d": false, "s": null, "t": null}),
        ));
        return None;
    };
    s.live = Some(tx.clone());
    for (_, frame) in s.sent.iter().filter(|(seq, _)| *seq > last) {
        let _ = tx.send(Out::Frame(frame.clone()));
    }
    s.dispatch("RESUMED", json!({}));
    drop(sessions);
    state.changed.notify_waiters();
    Some(id)
}
