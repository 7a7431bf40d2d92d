//! Waiting out Discord's rate limits on every request, when REST goes to
//! `api_url` (a rate-limiting proxy shared by processes, or a test server).
//!
//! serenity sends requests to such an address only with its own limiter
//! off, and then hands a 429 back as an error without its `Retry-After`
//! (serenity 0.12.5, `http/error.rs`: the body is decoded into a type
//! without `retry_after`, and the headers are dropped). So the bot puts
//! this forwarder in between: serenity talks to it, it talks to `api_url`,
//! and a 429 is waited out here, by the wait Discord gives (the
//! `Retry-After` header, else the body's `retry_after`; `topics/rate-limits`)
//! and sent again, for every request: slash commands' answers, the edit of a
//! deferred answer, buttons, threads, command registration. A global limit
//! (`X-RateLimit-Global`, or `X-RateLimit-Scope: global`) holds every
//! request back until it ends.
//!
//! A request is not held past its use: an interaction's first response
//! counts only within 3 seconds of the interaction (Discord answers 10062
//! Unknown Interaction after that), so a 429 that would outlast that window
//! goes back to the bot at once, which then answers another way; other
//! requests wait at most [`MAX_WAIT`] in all.

use crate::adapter::AbortOnDrop;
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio::net::TcpListener;
use tokio::time::Instant;

/// The longest a request other than an interaction's first response waits
/// out rate limits, in all: then the 429 goes back (a channel post then
/// falls to the outbox, which tries again later).
pub const MAX_WAIT: Duration = Duration::from_secs(60);

/// How long Discord waits for an interaction's first response.
const INTERACTION_WINDOW_MS: i64 = 3000;
/// Kept back from that window for the response's own trip.
const MARGIN_MS: i64 = 300;
/// Discord's epoch, in Unix milliseconds: a snowflake's time is counted
/// from it (`reference#snowflakes`).
const DISCORD_EPOCH_MS: i64 = 1_420_070_400_000;

/// The forwarder, listening on 127.0.0.1 until dropped.
pub struct Patience {
    /// What serenity uses as its proxy (`http://127.0.0.1:PORT`).
    pub url: String,
    _task: AbortOnDrop,
}

struct Shared {
    upstream: String,
    client: reqwest::Client,
    /// Until when a global rate limit holds every request back.
    global_until: Mutex<Option<Instant>>,
}

impl Patience {
    /// A forwarder to `upstream` (`api_url`, without a trailing `/`).
    pub async fn start(upstream: &str) -> std::io::Result<Patience> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let url = format!("http://{}", listener.local_addr()?);
        let client = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .timeout(Duration::from_secs(60))
            .build()
            .map_err(std::io::Error::other)?;
        let shared = Arc::new(Shared {
            upstream: upstream.trim_end_matches('/').to_string(),
            client,
            global_until: Mutex::new(None),
        });
        let task = AbortOnDrop::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    return;
                };
                let shared = shared.clone();
                tokio::spawn(async move {
                    let service = service_fn(move |req| forward(shared.clone(), req));
                    let _ = http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                });
            }
        });
        Ok(Patience { url, _task: task })
    }
}

/// How long Discord asks to wait, from a 429's headers or body.
fn retry_after(headers: &reqwest::header::HeaderMap, body: &[u8]) -> Option<Duration> {
    let header = headers
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<f64>().ok());
    let in_body = || {
        serde_json::from_slice::<serde_json::Value>(body)
            .ok()
            .and_then(|v| v["retry_after"].as_f64())
    };
    header
        .or_else(in_body)
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(Duration::from_secs_f64)
}

/// Whether a 429 is the global limit, which holds back every request.
fn is_global(headers: &reqwest::header::HeaderMap, body: &[u8]) -> bool {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    header("x-ratelimit-global") == Some("true")
        || header("x-ratelimit-scope") == Some("global")
        || serde_json::from_slice::<serde_json::Value>(body)
            .is_ok_and(|v| v["global"].as_bool() == Some(true))
}

/// Until when a request to `path` is worth sending, counted from `now_ms`
/// (Unix ms): an interaction's first response only within its 3 seconds
/// (from the interaction id's time), anything else within [`MAX_WAIT`].
fn useful_until_ms(path: &str, now_ms: i64) -> i64 {
    let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    // `/api/v10/interactions/{id}/{token}/callback`
    if let ["api", _, "interactions", id, _, "callback"] = parts.as_slice() {
        if let Ok(id) = id.parse::<u64>() {
            let created = DISCORD_EPOCH_MS + (id >> 22) as i64;
            return created + INTERACTION_WINDOW_MS - MARGIN_MS;
        }
    }
    now_ms + MAX_WAIT.as_millis() as i64
}

fn unix_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

async fn forward(
    shared: Arc<Shared>,
    req: Request<hyper::body::Incoming>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let method = req.method().clone();
    let path = req
        .uri()
        .path_and_query()
        .map(|p| p.as_str().to_string())
        .unwrap_or_else(|| "/".into());
    let headers = req.headers().clone();
    let body = match req.into_body().collect().await {
        Ok(b) => b.to_bytes(),
        Err(e) => return Ok(failure(&format!("the request's body did not arrive: {e}"))),
    };
    let useful_until = useful_until_ms(&path, unix_ms());
    let url = format!("{}{path}", shared.upstream);
    loop {
        // A global limit in force holds this request back too.
        let held = *shared.global_until.lock().expect("not poisoned");
        if let Some(until) = held.filter(|u| *u > Instant::now()) {
            let left_ms = useful_until - unix_ms();
            if (until - Instant::now()).as_millis() as i64 > left_ms {
                return Ok(too_many(until - Instant::now()));
            }
            tokio::time::sleep_until(until).await;
        }
        let mut request = shared
            .client
            .request(method.clone(), &url)
            .body(body.clone());
        for (name, value) in &headers {
            if name != hyper::header::HOST && name != hyper::header::CONTENT_LENGTH {
                request = request.header(name, value);
            }
        }
        let answer = match request.send().await {
            Ok(a) => a,
            Err(e) => return Ok(failure(&format!("Discord did not answer: {e}"))),
        };
        let status = answer.status();
        let answer_headers = answer.headers().clone();
        let answer_body = answer.bytes().await.unwrap_or_default();
        if status.as_u16() == 429 {
            let wait = retry_after(&answer_headers, &answer_body).unwrap_or(Duration::from_secs(1));
            if is_global(&answer_headers, &answer_body) {
                *shared.global_until.lock().expect("not poisoned") = Some(Instant::now() + wait);
            }
            if unix_ms() + wait.as_millis() as i64 <= useful_until {
                tracing::debug!(?wait, %method, "rate-limited by Discord; waiting, then sending again");
                tokio::time::sleep(wait).await;
                continue;
            }
        }
        let mut response = Response::builder().status(status.as_u16());
        for (name, value) in &answer_headers {
            if name != hyper::header::CONTENT_LENGTH && name != hyper::header::TRANSFER_ENCODING {
                response = response.header(name, value);
            }
        }
        return Ok(response
            .body(Full::new(answer_body))
            .unwrap_or_else(|_| failure("the answer could not be passed on")));
    }
}

/// A 429 of our own: the global limit outlasts the request's use.
fn too_many(wait: Duration) -> Response<Full<Bytes>> {
    let body = serde_json::json!({
        "message": "You are being rate limited.",
        "retry_after": wait.as_secs_f64(),
        "global": true,
    });
    Response::builder()
        .status(429)
        .header("content-type", "application/json")
        .header("retry-after", wait.as_secs_f64().ceil().to_string())
        .body(Full::new(Bytes::from(body.to_string())))
        .expect("a valid response")
}

/// A 502 for serenity when the request could not be passed on.
fn failure(why: &str) -> Response<Full<Bytes>> {
    tracing::warn!("cannot pass a request on to Discord: {why}");
    let body = serde_json::json!({"message": why, "code": 0});
    Response::builder()
        .status(502)
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(body.to_string())))
        .expect("a valid response")
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::{HeaderMap, HeaderValue};

    #[test]
    fn the_wait_is_read_from_the_header_else_the_body() {
        let mut h = HeaderMap::new();
        let body =
            br#"{"message":"You are being rate limited.","retry_after":0.75,"global":false}"#;
        assert_eq!(retry_after(&h, body), Some(Duration::from_millis(750)));
        h.insert("retry-after", HeaderValue::from_static("2"));
        assert_eq!(retry_after(&h, body), Some(Duration::from_secs(2)));
        assert_eq!(retry_after(&HeaderMap::new(), b"not json"), None);
        assert!(!is_global(&h, body));
        assert!(is_global(&h, br#"{"retry_after":1,"global":true}"#));
        h.insert("x-ratelimit-scope", HeaderValue::from_static("global"));
        assert!(is_global(&h, body));
    }

    /// An interaction's first response is worth sending for 3 seconds from
    /// the interaction's time (in its id), less a margin; anything else for
    /// a minute from now.
    #[test]
    fn interaction_responses_are_not_held_past_their_window() {
        let created_ms: i64 = 1_764_000_000_000;
        let id = ((created_ms - DISCORD_EPOCH_MS) as u64) << 22 | 77;
        let path = format!("/api/v10/interactions/{id}/tok3n/callback");
        assert_eq!(useful_until_ms(&path, created_ms + 100), created_ms + 2700);
        let edit = "/api/v10/webhooks/1000/tok3n/messages/@original";
        assert_eq!(useful_until_ms(edit, 5), 5 + 60_000);
        assert_eq!(
            useful_until_ms("/api/v10/interactions/oops/t/callback", 5),
            60_005
        );
    }
}
