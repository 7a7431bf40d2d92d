//! Posting to a channel: a 429 waited out, an archived thread opened again,
//! and a refusal classed as temporary or permanent for the outbox.

use crate::game::Refusal;
use poise::serenity_prelude as serenity;
use serenity::{ChannelId, CreateMessage, EditThread};
use std::time::Duration;

/// Sends a channel message, waiting out a 429 Too Many Requests. With
/// serenity's rate limiter off (whenever `api_url` is set) a 429 comes back
/// as an error, and serenity keeps neither its `Retry-After` nor the body's
/// `retry_after`; Discord's per-route buckets refill within seconds
/// (`topics/rate-limits`), so the wait starts at a second and doubles, three
/// times at most, before the outbox's own backoff takes over. An answer
/// that only reads (a board) has no outbox entry: this is what keeps it.
pub async fn send_patiently(
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
pub fn discord_code(e: &serenity::Error) -> Option<isize> {
    match e {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => Some(r.error.code),
        _ => None,
    }
}

pub fn status(e: &serenity::Error) -> Option<u16> {
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
pub fn refusal(e: &serenity::Error) -> Refusal {
    match e {
        serenity::Error::Http(http) => match http.status_code().map(|s| s.as_u16()) {
            Some(403 | 404) => Refusal::Permanent,
            _ => Refusal::Temporary { retry_after: None },
        },
        _ => Refusal::Temporary { retry_after: None },
    }
}
