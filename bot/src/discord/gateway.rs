//! A gateway relay in the bot's own process, between serenity and Discord's
//! gateway, for two things Discord documents (`events/gateway`) and
//! serenity 0.12 does not do:
//!
//! - **Resuming at the session's own address.** READY gives each session a
//!   `resume_gateway_url`, and a RESUME must go there ("should be used
//!   instead of the URL used when connecting"; apps that do not "will
//!   experience disconnects at a higher rate"). serenity 0.12.5 reads the
//!   field and never uses it: it resumes at the address it identifies at
//!   (fixed on its unreleased `next` branch, which poise 0.7 cannot use).
//! - **Waiting before identifying again.** After an Invalid Session (op 9)
//!   that cannot be resumed, the client is to wait a random 1 to 5 seconds
//!   before a new IDENTIFY (the wording of the docs before their 2022
//!   rewrite, and still the safe reading: identifies are limited per 5 s).
//!   serenity re-identifies at once.
//!
//! serenity connects to the relay (its `ws_url` is set to it); the relay
//! opens one connection upstream for each of serenity's and passes every
//! frame through unchanged, reading only what it needs: READY (the session
//! and its resume address), op 9, and the client's RESUME (which session it
//! resumes, so the connection upstream goes to that session's address).

use crate::adapter::AbortOnDrop;
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use std::collections::HashMap;
use std::io::Read as _;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::handshake::server::{Request, Response};
use tokio_tungstenite::tungstenite::Message as Frame;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

type Upstream = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// The relay, listening on 127.0.0.1 until dropped.
pub struct Relay {
    /// Where serenity connects (`ws://127.0.0.1:PORT`).
    pub url: String,
    _task: AbortOnDrop,
}

/// Each session's resume address, by session id, from its READY.
#[derive(Default)]
struct Sessions(Mutex<HashMap<String, String>>);

impl Relay {
    /// A relay in front of the gateway at `upstream` (the address `GET
    /// /gateway` gave).
    pub async fn start(upstream: String) -> std::io::Result<Relay> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let url = format!("ws://{}", listener.local_addr()?);
        let sessions = Arc::new(Sessions::default());
        let task = AbortOnDrop::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    return;
                };
                let (upstream, sessions) = (upstream.clone(), sessions.clone());
                tokio::spawn(async move {
                    if let Err(e) = relay(stream, &upstream, &sessions).await {
                        tracing::debug!("a gateway connection ended: {e}");
                    }
                });
            }
        });
        Ok(Relay { url, _task: task })
    }
}

/// What the relay reads of a gateway payload.
#[derive(Debug, PartialEq, Eq)]
enum Seen {
    Hello,
    Identify,
    /// A client's RESUME of this session.
    Resume(String),
    /// READY: the session and where it resumes.
    Ready {
        session: String,
        resume_url: String,
    },
    /// Invalid Session; `true`: it may be resumed.
    InvalidSession(bool),
    Other,
}

/// Reads a frame: JSON text, or a zlib-compressed payload (serenity asks
/// for payload compression in its IDENTIFY, `compress: true`).
fn seen(frame: &Frame) -> Seen {
    let text = match frame {
        Frame::Text(t) => t.to_string(),
        Frame::Binary(bytes) => {
            let mut out = String::new();
            if flate2::read::ZlibDecoder::new(&bytes[..])
                .read_to_string(&mut out)
                .is_err()
            {
                return Seen::Other;
            }
            out
        }
        _ => return Seen::Other,
    };
    let Ok(v) = serde_json::from_str::<Value>(&text) else {
        return Seen::Other;
    };
    let text_of = |v: &Value| v.as_str().map(str::to_string);
    match (v["op"].as_u64(), v["t"].as_str()) {
        (Some(10), _) => Seen::Hello,
        (Some(2), _) => Seen::Identify,
        (Some(6), _) => text_of(&v["d"]["session_id"]).map_or(Seen::Other, Seen::Resume),
        (Some(9), _) => Seen::InvalidSession(v["d"].as_bool().unwrap_or(false)),
        (Some(0), Some("READY")) => {
            match (
                text_of(&v["d"]["session_id"]),
                text_of(&v["d"]["resume_gateway_url"]),
            ) {
                (Some(session), Some(resume_url)) => Seen::Ready {
                    session,
                    resume_url,
                },
                _ => Seen::Other,
            }
        }
        _ => Seen::Other,
    }
}

/// The address to connect to: `base` with the client's query (`v=10`).
fn address(base: &str, query: &str) -> String {
    let base = base.trim_end_matches('/');
    if query.is_empty() {
        format!("{base}/")
    } else {
        format!("{base}/?{query}")
    }
}

/// How long to wait before passing on an Invalid Session that cannot be
/// resumed: 1 to 5 seconds, spread by `seed` so that shards told at once
/// do not identify at once.
fn identify_wait(seed: u64) -> Duration {
    Duration::from_millis(1000 + seed % 4001)
}

/// Some spread for [`identify_wait`]: the clock's nanoseconds, mixed.
fn seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    nanos.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17)
}

async fn connect(base: &str, query: &str) -> Result<Upstream, String> {
    let url = address(base, query);
    let (ws, _) = tokio_tungstenite::connect_async(url.as_str())
        .await
        .map_err(|e| format!("cannot reach the gateway at {base}: {e}"))?;
    Ok(ws)
}

/// Relays one of serenity's connections until either side closes.
async fn relay(stream: TcpStream, gateway: &str, sessions: &Sessions) -> Result<(), String> {
    let mut query = String::new();
    // The callback's error type is tungstenite's (large, and never used).
    #[allow(clippy::result_large_err)]
    let read_query = |req: &Request, resp: Response| {
        query = req.uri().query().unwrap_or("").to_string();
        Ok(resp)
    };
    let client = tokio_tungstenite::accept_hdr_async(stream, read_query)
        .await
        .map_err(|e| e.to_string())?;
    let (mut to_client, mut from_client) = client.split();
    let mut at = gateway.to_string();
    let (mut to_gateway, mut from_gateway) = connect(&at, &query).await?.split();
    // After a switch to the session's own address, that connection's
    // hello is not passed on: the client has had one.
    let mut swallow_hello = false;
    loop {
        tokio::select! {
            frame = from_client.next() => {
                let Some(Ok(frame)) = frame else {
                    let _ = to_gateway.close().await;
                    return Ok(());
                };
                if let Seen::Resume(session) = seen(&frame) {
                    let own = sessions.0.lock().expect("not poisoned").get(&session).cloned();
                    if let Some(own) = own.filter(|own| *own != at) {
                        // The connection made for an identify goes; the
                        // resume goes where the session lives.
                        let _ = to_gateway.close().await;
                        (to_gateway, from_gateway) = connect(&own, &query).await?.split();
                        at = own;
                        swallow_hello = true;
                    }
                }
                let closing = matches!(frame, Frame::Close(_));
                to_gateway.send(frame).await.map_err(|e| e.to_string())?;
                if closing {
                    return Ok(());
                }
            }
            frame = from_gateway.next() => {
                let Some(Ok(frame)) = frame else {
                    let _ = to_client.close().await;
                    return Ok(());
                };
                match seen(&frame) {
                    Seen::Hello if swallow_hello => {
                        swallow_hello = false;
                        continue;
                    }
                    Seen::Ready { session, resume_url } => {
                        sessions.0.lock().expect("not poisoned").insert(session, resume_url);
                    }
                    Seen::InvalidSession(false) => {
                        let wait = identify_wait(seed());
                        tracing::info!(?wait, "the gateway invalidated a session; identifying again after a wait");
                        tokio::time::sleep(wait).await;
                    }
                    Seen::Hello | Seen::Identify | Seen::Resume(_) | Seen::InvalidSession(true) | Seen::Other => {}
                }
                let closing = matches!(frame, Frame::Close(_));
                to_client.send(frame).await.map_err(|e| e.to_string())?;
                if closing {
                    return Ok(());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write as _;

    #[test]
    fn the_relay_reads_what_it_needs_and_nothing_else() {
        let text = |s: &str| Frame::Text(s.into());
        assert_eq!(
            seen(&text(r#"{"op":10,"d":{"heartbeat_interval":41250}}"#)),
            Seen::Hello
        );
        assert_eq!(
            seen(&text(
                r#"{"op":6,"d":{"token":"t","session_id":"abc","seq":4}}"#
            )),
            Seen::Resume("abc".into())
        );
        assert_eq!(
            seen(&text(r#"{"op":9,"d":false}"#)),
            Seen::InvalidSession(false)
        );
        assert_eq!(
            seen(&text(r#"{"op":9,"d":true}"#)),
            Seen::InvalidSession(true)
        );
        assert_eq!(
            seen(&text(r#"{"op":0,"t":"MESSAGE_CREATE","d":{}}"#)),
            Seen::Other
        );
        assert_eq!(seen(&text("not json")), Seen::Other);
        // READY, as Discord compresses large payloads.
        let ready = r#"{"op":0,"s":1,"t":"READY","d":{"session_id":"s1","resume_gateway_url":"wss://resume.example"}}"#;
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        z.write_all(ready.as_bytes()).unwrap();
        let packed = Frame::Binary(z.finish().unwrap());
        assert_eq!(
            seen(&packed),
            Seen::Ready {
                session: "s1".into(),
                resume_url: "wss://resume.example".into()
            }
        );
        assert_eq!(seen(&Frame::Binary(vec![1, 2, 3])), Seen::Other);
    }

    #[test]
    fn the_wait_before_identifying_again_is_one_to_five_seconds() {
        for seed in [0, 1, 3999, 4000, 4001, u64::MAX, seed(), seed()] {
            let wait = identify_wait(seed);
            assert!(
                (Duration::from_secs(1)..=Duration::from_secs(5)).contains(&wait),
                "{wait:?}"
            );
        }
        assert_ne!(identify_wait(0), identify_wait(2000));
    }

    #[test]
    fn addresses_keep_the_clients_query() {
        assert_eq!(address("wss://g.example", "v=10"), "wss://g.example/?v=10");
        assert_eq!(address("wss://g.example/", "v=10"), "wss://g.example/?v=10");
        assert_eq!(address("ws://127.0.0.1:9", ""), "ws://127.0.0.1:9/");
    }
}
