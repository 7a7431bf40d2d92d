//! The outbox: notices owed to channels, their retries and parking.

use super::{backend_of, begin_write, now, Backend, Tx};
use crate::contract::{players_stored, Player, Text};
use sqlx::{Any, AnyPool, FromRow};

/// The platform whose adapter posts a notice for `players` (they are its
/// identities); `None` when the notice names nobody.
pub fn platform_of(players: &[Player]) -> Option<&str> {
    players.first().map(|p| p.id.platform())
}

/// Queues a notice for a channel (see `Core::tick`).
pub async fn queue_notice(
    tx: &mut Tx,
    channel: &str,
    text: &Text,
    notify: &[Player],
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO outbox (channel, text, text_mentions, mentions, created_at, platform) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(channel)
    .bind(text.as_str())
    .bind(text.mentions_stored())
    .bind(players_stored(notify))
    .bind(now())
    .bind(platform_of(notify))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// A picture that goes with a notice, drawn when it is posted from the
/// stored game: the game, the ply it must still stand at, and which
/// picture of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardRef {
    pub game: i64,
    pub ply: i64,
    pub kind: BoardKind,
}

/// Which picture of a game (stored as its number).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardKind {
    Board = 0,
    /// The animated replay.
    Replay = 1,
    /// The evaluation graph of its engine review.
    ReviewGraph = 2,
}

impl BoardKind {
    pub fn stored(n: i64) -> BoardKind {
        match n {
            1 => BoardKind::Replay,
            2 => BoardKind::ReviewGraph,
            _ => BoardKind::Board,
        }
    }
}

/// Queues a notice carrying a board (or a replay) of a game, for channel
/// `channel` of `platform`, due at `not_before_ms`.
pub async fn queue_board_notice(
    tx: &mut Tx,
    platform: &str,
    channel: &str,
    text: &Text,
    board: BoardRef,
    not_before_ms: i64,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar::<_, i64>(
        "INSERT INTO outbox (channel, text, text_mentions, mentions, created_at, board_game, board_ply, \
         board_kind, next_attempt_ms, platform) \
         VALUES ($1, $2, $3, '', $4, $5, $6, $7, $8, $9) RETURNING id",
    )
    .bind(channel)
    .bind(text.as_str())
    .bind(text.mentions_stored())
    .bind(now())
    .bind(board.game)
    .bind(board.ply)
    .bind(board.kind as i64)
    .bind(not_before_ms)
    .bind(platform)
    .fetch_one(&mut **tx)
    .await
}

/// Queues the answer to event `in_reply_to`, with the board of
/// `board` = (game, ply) if any, due for the periodic check at
/// `not_before_ms` (the adapter posts it directly before then). Returns
/// its id, the one the adapter confirms.
#[allow(clippy::too_many_arguments)]
pub async fn queue_reply(
    tx: &mut Tx,
    platform: &str,
    channel: &str,
    text: &Text,
    notify: &[Player],
    board: Option<BoardRef>,
    actions: &str,
    in_reply_to: Option<&str>,
    not_before_ms: i64,
) -> Result<i64, sqlx::Error> {
    let id = sqlx::query_scalar::<_, i64>(
        "INSERT INTO outbox (channel, text, text_mentions, mentions, created_at, board_game, board_ply, \
         board_kind, actions, in_reply_to, next_attempt_ms, platform) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id",
    )
    .bind(channel)
    .bind(text.as_str())
    .bind(text.mentions_stored())
    .bind(players_stored(notify))
    .bind(now())
    .bind(board.map(|b| b.game))
    .bind(board.map(|b| b.ply))
    .bind(board.map_or(0, |b| b.kind as i64))
    .bind(actions)
    .bind(in_reply_to)
    .bind(not_before_ms)
    .bind(platform)
    .fetch_one(&mut **tx)
    .await?;
    Ok(id)
}

/// [`queue_reply`] of the answer to event `event_id`, which is marked as
/// acted on ([`super::mark_acted`]) in the same statement on PostgreSQL (a
/// round trip fewer on every move; SQLite has no writing `WITH`).
#[allow(clippy::too_many_arguments)]
pub async fn queue_answer(
    tx: &mut Tx,
    platform: &str,
    channel: &str,
    text: &Text,
    notify: &[Player],
    board: Option<BoardRef>,
    actions: &str,
    event_id: &str,
    not_before_ms: i64,
) -> Result<i64, sqlx::Error> {
    if super::backend_of_tx(tx) == Backend::Sqlite {
        let id = queue_reply(
            tx,
            platform,
            channel,
            text,
            notify,
            board,
            actions,
            Some(event_id),
            not_before_ms,
        )
        .await?;
        super::mark_acted(tx, event_id).await?;
        return Ok(id);
    }
    sqlx::query_scalar::<_, i64>(
        "WITH acted AS (UPDATE handled_events SET acted = 1 WHERE event_id = $10) \
         INSERT INTO outbox (channel, text, text_mentions, mentions, created_at, board_game, board_ply, \
         board_kind, actions, in_reply_to, next_attempt_ms, platform) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id",
    )
    .bind(channel)
    .bind(text.as_str())
    .bind(text.mentions_stored())
    .bind(players_stored(notify))
    .bind(now())
    .bind(board.map(|b| b.game))
    .bind(board.map(|b| b.ply))
    .bind(board.map_or(0, |b| b.kind as i64))
    .bind(actions)
    .bind(event_id)
    .bind(not_before_ms)
    .bind(platform)
    .fetch_one(&mut **tx)
    .await
}

/// After a restart nothing is being posted directly any more: answers
/// that waited for a direct post are due now.
pub async fn release_waiting_replies(pool: &AnyPool, now_ms: i64) -> Result<u64, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE outbox SET next_attempt_ms = 0 WHERE attempts = 0 AND parked = 0 AND next_attempt_ms > $1",
    )
    .bind(now_ms)
    .execute(pool)
    .await?;
    Ok(done.rows_affected())
}

/// A notice not yet delivered.
#[derive(Debug, Clone, FromRow)]
pub struct OutboxRow {
    pub id: i64,
    pub channel: String,
    pub text: String,
    /// Where the text mentions whom ([`Text::mentions_stored`]).
    pub text_mentions: String,
    /// Whom to notify, one a line (`contract::players_stored`).
    pub mentions: String,
    /// The game whose board goes with the notice, and after which ply.
    pub board_game: Option<i64>,
    pub board_ply: Option<i64>,
    /// Which picture of the game ([`BoardKind`]).
    pub board_kind: i64,
    /// The platform event this answers, if any.
    pub in_reply_to: Option<String>,
    /// The questions it asks (`Action::stored`).
    pub actions: String,
}

/// Takes the notices due for a post at `now_ms` (not parked, not waiting
/// for a retry, not taken by another process), oldest first, at most
/// `limit`: only those of `platforms` (and those of none), or all when
/// `platforms` is empty. Each is leased until `lease_until_ms`: no process
/// takes it again before then, unless it is confirmed or fails first. In
/// one write transaction, so two processes never take the same notice; a
/// process that dies holding some leaves them to whoever comes after the
/// lease.
pub async fn claim_notices(
    pool: &AnyPool,
    now_ms: i64,
    lease_until_ms: i64,
    platforms: &[String],
    limit: i64,
) -> Result<Vec<OutboxRow>, sqlx::Error> {
    let only = if platforms.is_empty() {
        String::new()
    } else {
        let list: Vec<String> = (0..platforms.len())
            .map(|i| format!("${}", i + 3))
            .collect();
        format!(
            "AND (platform IS NULL OR platform IN ({})) ",
            list.join(", ")
        )
    };
    // On PostgreSQL the rows another process is taking right now are
    // skipped, not waited for; SQLite's write transaction holds the file.
    let backend = backend_of(pool);
    let due = |lock: bool| {
        let skip = match (lock, backend) {
            (true, Backend::Postgres) => " FOR UPDATE SKIP LOCKED",
            _ => "",
        };
        let sql = format!(
            "SELECT id, channel, text, text_mentions, mentions, board_game, board_ply, board_kind, \
             in_reply_to, actions \
             FROM outbox \
             WHERE parked = 0 AND next_attempt_ms <= $1 {only}ORDER BY id LIMIT $2{skip}"
        );
        let mut query = sqlx::query_as::<_, OutboxRow>(sqlx::AssertSqlSafe(sql))
            .bind(now_ms)
            .bind(limit);
        for p in platforms {
            query = query.bind(p.as_str());
        }
        query
    };
    // Most ticks find nothing: they learn it without the write lock, which
    // every move of every process also needs.
    if due(false).fetch_optional(pool).await?.is_none() {
        return Ok(Vec::new());
    }
    let mut tx = begin_write(pool, backend).await?;
    let rows = due(true).fetch_all(&mut *tx).await?;
    if !rows.is_empty() {
        // One statement for all of them.
        let ids: Vec<String> = rows.iter().map(|r| r.id.to_string()).collect();
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "UPDATE outbox SET next_attempt_ms = $1 WHERE id IN ({})",
            ids.join(", ")
        )))
        .bind(lease_until_ms)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(rows)
}

/// A failed post of notice `id`: counts the attempt and either sets when
/// to try again or parks the notice. Returns the attempts so far and
/// whether it was parked now; `None` if the notice is gone.
pub async fn notice_failed(
    pool: &AnyPool,
    id: i64,
    park_after: i64,
    permanent: bool,
    retry_at_ms: impl Fn(i64) -> i64,
) -> Result<Option<(i64, bool)>, sqlx::Error> {
    let mut tx = begin_write(pool, backend_of(pool)).await?;
    // Locked as read: two failures of one notice count twice.
    let lock = match backend_of(pool) {
        Backend::Postgres => " FOR UPDATE",
        Backend::Sqlite => "",
    };
    let Some(attempts) = sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(format!(
        "SELECT attempts FROM outbox WHERE id = $1{lock}"
    )))
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?
    else {
        return Ok(None);
    };
    let attempts = attempts + 1;
    let park = permanent && attempts >= park_after;
    sqlx::query("UPDATE outbox SET attempts = $1, next_attempt_ms = $2, parked = $3 WHERE id = $4")
        .bind(attempts)
        .bind(retry_at_ms(attempts))
        .bind(i64::from(park))
        .bind(id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(Some((attempts, park)))
}

/// The bot was seen in `channel`: its parked notices are tried again, as
/// if new. Returns how many.
pub async fn unpark_channel<'e>(
    db: impl sqlx::Executor<'e, Database = Any>,
    channel: &str,
) -> Result<u64, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE outbox SET parked = 0, attempts = 0, next_attempt_ms = 0 \
         WHERE channel = $1 AND parked = 1",
    )
    .bind(channel)
    .execute(db)
    .await?;
    Ok(done.rows_affected())
}

/// Notice `id`, owed in `from`, is owed in `to` instead.
pub async fn move_notice(tx: &mut Tx, id: i64, from: &str, to: &str) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE outbox SET channel = $1 WHERE id = $2 AND channel = $3")
        .bind(to)
        .bind(id)
        .bind(from)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

pub async fn delete_notice(pool: &AnyPool, id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM outbox WHERE id = $1")
        .bind(id)
        .execute(pool)
        .await?;
    Ok(())
}
