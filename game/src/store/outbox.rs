//! The outbox: notices owed to channels, their retries and parking.

use super::{backend_of, begin_write, Backend, Claim, Tx};
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
    .bind(tx.now_secs())
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
    /// A puzzle's board (the "game" is the puzzle's id, the "ply" the
    /// moves of its line on the board): a daily puzzle's post.
    Puzzle = 3,
}

impl BoardKind {
    pub fn stored(n: i64) -> BoardKind {
        match n {
            1 => BoardKind::Replay,
            2 => BoardKind::ReviewGraph,
            3 => BoardKind::Puzzle,
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
    .bind(tx.now_secs())
    .bind(board.game)
    .bind(board.ply)
    .bind(board.kind as i64)
    .bind(not_before_ms)
    .bind(platform)
    .fetch_one(&mut **tx)
    .await
}

/// Queues the answer to event `in_reply_to`, with the board of
/// `board` = (game, ply) if any. With `hold`, the adapter posts it
/// directly: it is this process's until the claim ends (or is renewed),
/// and the periodic check posts it only if it was never confirmed by then;
/// without, it is due for the periodic check at once. Returns its id, the
/// one the adapter confirms.
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
    hold: Option<Claim<'_>>,
) -> Result<i64, sqlx::Error> {
    let reply = Row {
        platform,
        channel,
        text,
        notify,
        board,
        actions,
        in_reply_to,
        hold,
    };
    Ok(insert_reply(tx, "", "0", reply).await?.0)
}

/// A reply's outbox row, as [`insert_reply`] writes it.
struct Row<'a> {
    platform: &'a str,
    channel: &'a str,
    text: &'a Text,
    notify: &'a [Player],
    board: Option<BoardRef>,
    actions: &'a str,
    in_reply_to: Option<&'a str>,
    hold: Option<Claim<'a>>,
}

/// Inserts `row` (its fields bound to `$1` to `$13`), after `with` (a
/// `WITH` clause or nothing), returning its id and the value of `also`.
async fn insert_reply(
    tx: &mut Tx,
    with: &str,
    also: &str,
    row: Row<'_>,
) -> Result<(i64, i64), sqlx::Error> {
    let sql = format!(
        "{with}INSERT INTO outbox (channel, text, text_mentions, mentions, created_at, board_game, \
         board_ply, board_kind, actions, in_reply_to, next_attempt_ms, platform, held_by) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id, {also}"
    );
    sqlx::query_as::<_, (i64, i64)>(sqlx::AssertSqlSafe(sql))
        .bind(row.channel)
        .bind(row.text.as_str())
        .bind(row.text.mentions_stored())
        .bind(players_stored(row.notify))
        .bind(tx.now_secs())
        .bind(row.board.map(|b| b.game))
        .bind(row.board.map(|b| b.ply))
        .bind(row.board.map_or(0, |b| b.kind as i64))
        .bind(row.actions)
        .bind(row.in_reply_to)
        .bind(row.hold.map_or(0, |h| h.until_ms))
        .bind(row.platform)
        .bind(row.hold.map(|h| h.by))
        .fetch_one(&mut **tx)
        .await
}

/// [`queue_reply`] of the answer to event `event_id`, which is marked as
/// acted on ([`super::mark_acted`]) in the same statement on PostgreSQL (a
/// round trip fewer on every move; SQLite has no writing `WITH`). Returns
/// its id and whether answers owed in the channel before it are still
/// unposted ([`claim_older`] takes them, to be posted first).
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
    hold: Claim<'_>,
) -> Result<(i64, bool), sqlx::Error> {
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
            Some(hold),
        )
        .await?;
        super::mark_acted(tx, event_id).await?;
        let older: i64 = sqlx::query_scalar(OWED_BEFORE)
            .bind(channel)
            .bind(id)
            .fetch_one(&mut **tx)
            .await?;
        return Ok((id, older != 0));
    }
    let reply = Row {
        platform,
        channel,
        text,
        notify,
        board,
        actions,
        in_reply_to: Some(event_id),
        hold: Some(hold),
    };
    let (id, older) = insert_reply(
        tx,
        "WITH acted AS (UPDATE handled_events SET acted = 1 WHERE event_id = $10) ",
        "(SELECT COUNT(*) FROM outbox AS older WHERE older.channel = $1 AND older.parked = 0)",
        reply,
    )
    .await?;
    Ok((id, older != 0))
}

/// Whether notices are owed in channel `$1` before notice `$2` (a hint:
/// [`claim_older`] says which count).
const OWED_BEFORE: &str =
    "SELECT COUNT(*) FROM outbox WHERE channel = $1 AND id < $2 AND parked = 0";

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
/// `platforms` is empty. Each is leased to `claim`: no process takes it
/// again before the claim ends, unless it is confirmed or fails first.
///
/// A channel's notices go out in order: one is taken only with every older
/// one of its channel. An older one still held (by its direct post's
/// grace, or another process's lease) holds the newer ones back, unless
/// its hold ends by `steal_until_ms`: the caller sets that so that a hold
/// begun longer ago than a post takes is taken over (that post is as good
/// as dead; the post's idempotency key keeps a late first post from
/// showing twice). A replay waiting for its time holds nothing back.
///
/// Claims are taken one at a time (they are periodic, off every move's
/// path), so that each sees what the one before took.
pub async fn claim_notices(
    pool: &AnyPool,
    now_ms: i64,
    claim: Claim<'_>,
    steal_until_ms: i64,
    platforms: &[String],
    limit: i64,
) -> Result<Vec<OutboxRow>, sqlx::Error> {
    use sqlx::{FromRow as _, Row as _};
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
    let bind = |sql: String| {
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(now_ms)
            .bind(limit);
        for p in platforms {
            query = query.bind(p.as_str());
        }
        query
    };
    // Most ticks find nothing: they learn it without a lock.
    let any =
        format!("SELECT id FROM outbox WHERE parked = 0 AND next_attempt_ms <= $1 {only}LIMIT $2");
    if bind(any).fetch_optional(pool).await?.is_none() {
        return Ok(Vec::new());
    }
    let backend = backend_of(pool);
    let mut tx = begin_write(pool, backend).await?;
    super::lock_keys(&mut tx, &[CLAIMS_KEY.to_string()]).await?;
    // The due notices and the answers (due or held) of the channels with
    // one due, oldest first.
    let candidates = format!(
        "SELECT {CLAIM_COLUMNS} FROM outbox \
         WHERE parked = 0 {only}AND (next_attempt_ms <= $1 OR NOT {WAITING}) \
         AND channel IN \
         (SELECT channel FROM outbox WHERE parked = 0 AND next_attempt_ms <= $1 {only}) \
         ORDER BY id LIMIT $2 * 4"
    );
    let rows = bind(candidates).fetch_all(&mut *tx).await?;
    // Per channel: the longest run from its oldest notice of ones due or
    // held too long, up to its last due one.
    let mut channels: Vec<(String, Run, bool)> = Vec::new();
    for row in &rows {
        let next: i64 = row.try_get("next_attempt_ms")?;
        let row_attempts: i64 = row.try_get("attempts")?;
        let row = OutboxRow::from_row(row)?;
        let at = match channels.iter().position(|(c, _, _)| *c == row.channel) {
            Some(at) => at,
            None => {
                channels.push((row.channel.clone(), Vec::new(), false));
                channels.len() - 1
            }
        };
        let (_, run, blocked) = &mut channels[at];
        if *blocked {
            continue;
        }
        let due = next <= now_ms;
        // One waiting for its time (see `WAITING`) holds nothing back.
        // Anything else not due is held by a post.
        let waiting = row_attempts > 0
            || (row.in_reply_to.is_none() && row.board_kind == BoardKind::Replay as i64);
        match (due, waiting) {
            (true, _) => run.push((row, true)),
            (false, true) => {}
            // Held by a post: taken over if held too long, else everything
            // after it waits.
            (false, false) if next <= steal_until_ms => run.push((row, false)),
            (false, false) => *blocked = true,
        }
    }
    let mut take: Vec<OutboxRow> = Vec::new();
    for (_, run, _) in channels {
        let Some(last_due) = run.iter().rposition(|(_, due)| *due) else {
            continue;
        };
        take.extend(run.into_iter().take(last_due + 1).map(|(row, _)| row));
    }
    take.sort_by_key(|r| r.id);
    take.truncate(limit.max(0) as usize);
    // A channel cut by the limit keeps its order: its first ones go now.
    lease(tx, &mut take, claim).await?;
    Ok(take)
}

/// A channel's notices that may go now, each with whether it is due (not
/// only held too long).
type Run = Vec<(OutboxRow, bool)>;

/// The lock that claims of notices take in turn ([`super::lock_keys`]).
const CLAIMS_KEY: &str = "outbox claims";

/// Takes the notices owed in `channel` before notice `id` (not parked,
/// older; a replay waiting for its time after a game does not count),
/// oldest first, leased to `claim`, as far as they can be taken in order:
/// each due at `now_ms`, or held (by a direct post or another process's
/// lease) but not renewed lately: its hold ends by `steal_until_ms` (the
/// caller sets that from how often a live holder renews). Those of `mine`
/// (taken by this caller already) are passed over. Returns those taken and
/// the older one still held by a live post, if any, with when its hold
/// ends (the caller waits for it, and takes the rest after it).
pub async fn claim_older(
    pool: &AnyPool,
    channel: &str,
    id: i64,
    now_ms: i64,
    claim: Claim<'_>,
    steal_until_ms: i64,
    mine: &[i64],
) -> Result<(Vec<OutboxRow>, Option<(i64, i64)>), sqlx::Error> {
    use sqlx::{FromRow as _, Row as _};
    let backend = backend_of(pool);
    let mut tx = begin_write(pool, backend).await?;
    super::lock_keys(&mut tx, &[CLAIMS_KEY.to_string()]).await?;
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {CLAIM_COLUMNS} FROM outbox WHERE channel = $1 AND id < $2 AND parked = 0 \
         AND NOT ({WAITING} AND next_attempt_ms > $3) ORDER BY id"
    )))
    .bind(channel)
    .bind(id)
    .bind(now_ms)
    .fetch_all(&mut *tx)
    .await?;
    if rows.is_empty() {
        tx.rollback().await?;
        return Ok((Vec::new(), None));
    }
    // The due prefix: one held by a live post stops the taking there.
    let mut take = Vec::new();
    let mut held = None;
    for row in &rows {
        let (row_id, next): (i64, i64) = (row.try_get("id")?, row.try_get("next_attempt_ms")?);
        if mine.contains(&row_id) {
            continue;
        }
        if next > steal_until_ms {
            held = Some((row_id, next));
            break;
        }
        take.push(OutboxRow::from_row(row)?);
    }
    lease(tx, &mut take, claim).await?;
    Ok((take, held))
}

/// Leases `rows` to `claim` and ends `tx`: committed, or rolled back
/// at once when there is nothing to lease (the claims lock goes with it).
/// One confirmed meanwhile (its post went through) is dropped from `rows`,
/// not posted again.
async fn lease(
    mut tx: sqlx::Transaction<'static, Any>,
    rows: &mut Vec<OutboxRow>,
    claim: Claim<'_>,
) -> Result<(), sqlx::Error> {
    if rows.is_empty() {
        return tx.rollback().await;
    }
    let ids: Vec<String> = rows.iter().map(|r| r.id.to_string()).collect();
    let kept: Vec<i64> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "UPDATE outbox SET next_attempt_ms = $1, held_by = $2 WHERE id IN ({}) RETURNING id",
        ids.join(", ")
    )))
    .bind(claim.until_ms)
    .bind(claim.by)
    .fetch_all(&mut *tx)
    .await?;
    tx.commit().await?;
    rows.retain(|r| kept.contains(&r.id));
    Ok(())
}

/// The columns of an [`OutboxRow`], and when its hold ends.
const CLAIM_COLUMNS: &str = "id, channel, text, text_mentions, mentions, board_game, board_ply, \
     board_kind, in_reply_to, actions, next_attempt_ms, attempts";

/// A notice waiting for its time, not held by a post: a replay due a few
/// seconds after its game ([`BoardKind::Replay`] is 1), or one waiting to
/// be tried again after a failed post. It holds no notice of its channel
/// back, and no answer waits for it (a notice its platform keeps refusing
/// would otherwise hold its channel up at every answer).
const WAITING: &str = "(attempts > 0 OR (in_reply_to IS NULL AND board_kind = 1))";

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
    sqlx::query(
        "UPDATE outbox SET attempts = $1, next_attempt_ms = $2, parked = $3, held_by = NULL \
         WHERE id = $4",
    )
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
        "UPDATE outbox SET parked = 0, attempts = 0, next_attempt_ms = 0, held_by = NULL \
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
