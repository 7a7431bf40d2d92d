//! Delivery: the outbox of notices, what adapters confirm or report about
//! each post, retries that back off, parking, and the order of a channel's
//! answers (the answers owed before a reply, the holds of a post in
//! progress).

use crate::contract::Text;
use crate::core::Core;
use crate::lease::{Held, NOTICE_LEASE_MS};
use crate::reply::{Action, Audience, Notice, Reply};
use crate::store::{self, LeaseKind};
use std::time::Duration;

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

/// A post in progress whose holds [`Core::keep_posting`] renews; the
/// renewing stops when it is dropped.
pub struct Posting {
    _holds: Vec<Held>,
}

/// Permanent refusals before a notice is parked.
pub const PARK_AFTER: i64 = 3;

/// The first wait before a retry, doubled each time up to [`MAX_RETRY_WAIT`].
const FIRST_RETRY_WAIT: Duration = Duration::from_secs(2);
const MAX_RETRY_WAIT: Duration = Duration::from_secs(3600);

/// How long a reply waits for an older answer of its channel that another
/// post holds (a direct post, a process posting it) before it takes that
/// answer over, counted from the last time that hold was renewed: a post
/// that renews its hold while it sends ([`Core::keep_posting`]: an
/// interaction's answer, which carries no nonce) is waited for as long as
/// it lives. Long enough for a post, short enough for a player who answers
/// right after a crash. A post taken over while its first post went
/// through after all shows once where the post carries its idempotency
/// key (messages, Matrix events).
pub const ORDER_WAIT_MS: i64 = 5_000;

/// A hold that ends by this time, at `now_ms`, was last renewed longer
/// than [`ORDER_WAIT_MS`] ago (a live holder renews every second to a full
/// lease): its poster is taken to be gone.
pub(crate) fn stale_before(now_ms: i64) -> i64 {
    now_ms + NOTICE_LEASE_MS - ORDER_WAIT_MS
}

/// The wait before attempt `attempts + 1`.
fn retry_wait(attempts: i64) -> Duration {
    let doublings = (attempts - 1).clamp(0, 20) as u32;
    FIRST_RETRY_WAIT
        .saturating_mul(1 << doublings)
        .min(MAX_RETRY_WAIT)
}

impl Core {
    /// The answers owed in `channel` before outbox entry `entry` (earlier
    /// events' answers never confirmed: their process died, or their post
    /// is late), taken by this process to be posted first, in order
    /// ([`Reply::before`]). One held by another post is waited for (its
    /// post confirms it), and taken over once its hold has gone
    /// [`ORDER_WAIT_MS`] without a renewal (its poster is gone), or once a
    /// lease and that wait have passed, however it was renewed.
    pub(crate) async fn owed_before(&self, channel: &str, entry: i64) -> Vec<Notice> {
        let mut taken = Vec::new();
        let give_up_at = self.time.now_ms() + NOTICE_LEASE_MS + ORDER_WAIT_MS;
        let started = self.time.now_ms();
        loop {
            let now = self.time.now_ms();
            let steal = if now >= give_up_at {
                i64::MAX
            } else {
                stale_before(now)
            };
            let mine: Vec<i64> = taken.iter().map(|n: &Notice| n.id).collect();
            let claim = self.leases.claim(LeaseKind::Notice);
            let held = match store::claim_older(
                self.store.pool(),
                channel,
                entry,
                now,
                claim,
                steal,
                &mine,
            )
            .await
            {
                Ok((rows, held)) => {
                    taken.extend(self.notices_of(rows).await);
                    held
                }
                Err(e) => {
                    tracing::warn!(%channel, "cannot take the answers owed before a reply: {e}");
                    return taken;
                }
            };
            let Some((_, until)) = held else {
                return taken;
            };
            // Usually the post that holds it is confirming it right now:
            // looked at again soon, in real time (another process's work),
            // and taken over when its hold goes stale on the clock.
            let pause = if now - started < ORDER_WAIT_MS {
                20
            } else {
                200
            };
            let stale_at = until - NOTICE_LEASE_MS + ORDER_WAIT_MS;
            self.time
                .nap(stale_at.min(give_up_at), Duration::from_millis(pause))
                .await;
        }
    }

    /// Keeps the holds of outbox entries `ids` renewed while the returned
    /// guard lives (for up to [`NOTICE_LEASE_MS`]): for a post that cannot
    /// be told apart from a second post of the same answer (an
    /// interaction's answer on Discord carries no nonce), so that no other
    /// process takes it over because it is slow, only once its process is
    /// gone. Drop the guard when the post is done, confirmed or not.
    pub fn keep_posting(&self, ids: &[i64]) -> Posting {
        let holds = ids
            .iter()
            .filter_map(|&id| self.leases.hold_for(LeaseKind::Notice, id, NOTICE_LEASE_MS))
            .collect();
        Posting { _holds: holds }
    }

    /// Outbox rows as notices to post, their boards drawn.
    pub(crate) async fn notices_of(&self, rows: Vec<store::OutboxRow>) -> Vec<Notice> {
        let mut notices = Vec::with_capacity(rows.len());
        for row in rows {
            let image = match (row.board_game, row.board_ply) {
                (Some(game), Some(ply)) => {
                    self.board_after(
                        &row.channel,
                        game,
                        ply,
                        store::BoardKind::stored(row.board_kind),
                    )
                    .await
                }
                _ => None,
            };
            notices.push(Notice {
                id: row.id,
                in_reply_to: row.in_reply_to,
                channel: row.channel,
                reply: Reply {
                    text: Text::from_stored(row.text, &row.text_mentions),
                    image,
                    notify: crate::contract::players_from_stored(&row.mentions),
                    actions: Action::from_stored(&row.actions),
                    is_error: false,
                    audience: Audience::Everyone,
                    deliveries: vec![row.id],
                    direct: None,
                    thread: None,
                    table: None,
                    join: None,
                    puzzle: None,
                    before: Vec::new(),
                },
            });
        }
        notices
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

    /// Game `game` is now played in `to`, a thread the adapter opened for it
    /// in `from` (see [`Reply::thread`]): its moves, notices and the
    /// `entries` of the reply that began it go there, and the thread takes
    /// the channel's settings. `false` if the game was not in `from` (it
    /// stays where it is).
    pub async fn move_game(
        &self,
        game: i64,
        from: &str,
        to: &str,
        entries: &[i64],
    ) -> Result<bool, sqlx::Error> {
        let mut tx = self.store.begin().await?;
        if !store::move_game(&mut tx, game, from, to).await? {
            return Ok(false);
        }
        for entry in entries {
            store::move_notice(&mut tx, *entry, from, to).await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Tournament `id` is now run in `to`, a thread the adapter opened for
    /// it in `from` (see [`Reply::thread`]): its rounds' games and notices
    /// go there, with the `entries` of the reply that created it. `false` if
    /// the tournament was not in `from`.
    pub async fn move_tournament(
        &self,
        id: i64,
        from: &str,
        to: &str,
        entries: &[i64],
    ) -> Result<bool, sqlx::Error> {
        let mut tx = self.store.begin().await?;
        if !store::move_tournament(&mut tx, crate::tournament::TournamentId(id), from, to).await? {
            return Ok(false);
        }
        for entry in entries {
            store::move_notice(&mut tx, *entry, from, to).await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// A notice from [`Core::tick`] was posted: do not send it again.
    pub async fn delivered(&self, notice_id: i64) {
        if let Err(e) = store::delete_notice(self.store.pool(), notice_id).await {
            tracing::error!(notice = notice_id, "cannot clear a delivered notice: {e}");
        }
    }
}
