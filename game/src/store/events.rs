//! Handled event ids: a redelivered event is recognised, and old ids pruned.

use super::Tx;
use sqlx::AnyPool;

/// Forgets handled event ids recorded before `before` (seconds since the
/// epoch, on the core's clock); returns how many.
pub async fn prune_events(pool: &AnyPool, before: i64) -> Result<u64, sqlx::Error> {
    let done = sqlx::query("DELETE FROM handled_events WHERE handled_at < $1")
        .bind(before)
        .execute(pool)
        .await?;
    Ok(done.rows_affected())
}

/// Whether an event id was handled before (a read, without the write lock).
pub async fn event_seen(tx: &mut Tx, event_id: &str) -> Result<bool, sqlx::Error> {
    let row = sqlx::query("SELECT 1 FROM handled_events WHERE event_id = $1")
        .bind(event_id)
        .fetch_optional(&mut **tx)
        .await?;
    Ok(row.is_some())
}

/// Marks a recorded event as one that changed something (in the same
/// transaction as the change).
pub async fn mark_acted(tx: &mut Tx, event_id: &str) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE handled_events SET acted = 1 WHERE event_id = $1")
        .bind(event_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// What became of an event: `None` if never handled, `Some(true)` if it
/// changed something, `Some(false)` if it was refused or only read.
pub async fn event_acted(tx: &mut Tx, event_id: &str) -> Result<Option<bool>, sqlx::Error> {
    let row: Option<i64> =
        sqlx::query_scalar("SELECT acted FROM handled_events WHERE event_id = $1")
            .bind(event_id)
            .fetch_optional(&mut **tx)
            .await?;
    Ok(row.map(|a| a != 0))
}

/// What every event that writes does first: records its id ([`record_event`];
/// `false`: handled before, and the caller drops the transaction), puts the
/// notices parked in `channel` back in line (the bot is evidently there,
/// [`super::unpark_channel`]), and notes the names `seen` go by now
/// ([`super::see_player`]). One statement on PostgreSQL (two round trips
/// fewer on every move), where the id is recorded first and the rest
/// depends on it: a second process handling the same event waits on the
/// id alone, touching nothing else (nothing to wait for in a circle). One
/// statement each on SQLite, which has no writing `WITH`. `seen` begins
/// with the event's author.
pub async fn intake(
    tx: &mut Tx,
    event_id: &str,
    channel: &str,
    seen: &[&crate::contract::Player],
) -> Result<Intake, sqlx::Error> {
    // Each player once (one statement may not change a row twice), in the
    // order of their ids: two events that see the same new players lock
    // their rows in the same order, and never wait for each other in a
    // circle.
    let author = seen.first().map(|p| p.id.as_str());
    let mut players: Vec<&crate::contract::Player> = Vec::new();
    for p in seen {
        if !players.iter().any(|q| q.id == p.id) {
            players.push(p);
        }
    }
    players.sort_by(|a, b| a.id.as_str().cmp(b.id.as_str()));
    if super::backend_of_tx(tx) == super::Backend::Sqlite {
        let new = record_event(tx, event_id).await?;
        if new {
            super::unpark_channel(&mut **tx, channel).await?;
            for p in players {
                super::see_player(tx, p).await?;
            }
        }
        return Ok(Intake {
            new,
            view: None,
            own_active: None,
        });
    }
    let seen_part = if players.is_empty() {
        String::new()
    } else {
        let values: Vec<String> = (0..players.len())
            .map(|i| format!("(${}, ${})", 5 + 2 * i, 6 + 2 * i))
            .collect();
        format!(
            ", seen AS (INSERT INTO players (id, name, seen_at) \
             SELECT p.id, p.name, $2 FROM (VALUES {}) AS p (id, name) \
             WHERE EXISTS (SELECT 1 FROM ev) \
             AND NOT EXISTS (SELECT 1 FROM players WHERE players.id = p.id AND players.name = p.name) \
             ON CONFLICT (id) DO UPDATE SET name = excluded.name, seen_at = excluded.seen_at \
             WHERE players.name IS DISTINCT FROM excluded.name)",
            values.join(", ")
        )
    };
    let sql = format!(
        "WITH ev AS (INSERT INTO handled_events (event_id, handled_at) VALUES ($1, $2) \
         ON CONFLICT DO NOTHING RETURNING 1), \
         unparked AS (UPDATE outbox SET parked = 0, attempts = 0, next_attempt_ms = 0, held_by = NULL \
         WHERE channel = $3 AND parked = 1 AND EXISTS (SELECT 1 FROM ev)){seen_part} \
         SELECT (SELECT COUNT(*) FROM ev), \
         (SELECT theme FROM channel_settings WHERE channel = $3), \
         (SELECT flip FROM players WHERE id = $4), \
         (SELECT string_agg(id::text, ',' ORDER BY id) FROM games \
          WHERE channel = $3 AND status = 'active' AND (white = $4 OR black = $4))"
    );
    let mut query = sqlx::query_as::<_, (i64, Option<String>, Option<String>, Option<String>)>(
        sqlx::AssertSqlSafe(sql),
    )
    .bind(event_id)
    .bind(tx.now_secs())
    .bind(channel)
    .bind(author);
    for p in &players {
        query = query.bind(p.id.as_str()).bind(p.name.as_str());
    }
    let (new, theme, flip, own) = query.fetch_one(&mut **tx).await?;
    let own_active = match author {
        None => None,
        Some(_) => own
            .as_deref()
            .unwrap_or("")
            .split(',')
            .filter(|id| !id.is_empty())
            .map(|id| {
                id.parse::<i64>()
                    .map_err(|_| sqlx::Error::Decode(format!("a game id {id:?}").into()))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some)?,
    };
    let flip = flip
        .and_then(|f| crate::command::Flip::from_name(&f))
        .unwrap_or(crate::command::Flip::Auto);
    Ok(Intake {
        new: new == 1,
        view: author.is_some().then_some((theme, flip)),
        own_active,
    })
}

/// What [`intake`] found.
#[derive(Debug, Clone)]
pub struct Intake {
    /// Whether the event is new (else it was handled before).
    pub new: bool,
    /// The channel's theme (if it chose one) and how the event's author
    /// wants boards turned, as [`super::view_of`] reads them, where the
    /// intake read them too (PostgreSQL).
    pub view: Option<(Option<String>, crate::command::Flip)>,
    /// The games in progress in the channel that the author plays in, by
    /// id, where the intake read them too (PostgreSQL): the game a move is
    /// about is then locked at once, without a lookup of its own.
    pub own_active: Option<Vec<i64>>,
}

/// Records an event id; `false` if it was handled before.
pub async fn record_event(tx: &mut Tx, event_id: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "INSERT INTO handled_events (event_id, handled_at) VALUES ($1, $2) ON CONFLICT DO NOTHING",
    )
    .bind(event_id)
    .bind(tx.now_secs())
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}
