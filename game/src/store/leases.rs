//! Leases in the database: who holds a piece of work (an engine turn, a
//! review, a notice being posted) and until when. A lease is claimed in one
//! statement (two processes never both get it), renewed by its holder while
//! it works, and once it lapses anyone may claim it again. Each kind lives
//! in its own table's columns ([`LeaseKind::columns`]); the SQL that claims,
//! renews and releases is written once, here, for all of them.

use super::{backend_of, indexed_by, Backend};
use sqlx::AnyPool;

/// What a lease is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LeaseKind {
    /// The engine's turn in a game against the bot (`games`).
    EngineTurn,
    /// An engine review of a finished game (`reviews`).
    Review,
    /// A notice of the outbox being posted (`outbox`).
    Notice,
    /// The search of a finished game for puzzles (`puzzle_searches`).
    PuzzleSearch,
}

impl LeaseKind {
    pub const ALL: [LeaseKind; 4] = [
        LeaseKind::EngineTurn,
        LeaseKind::Review,
        LeaseKind::Notice,
        LeaseKind::PuzzleSearch,
    ];

    /// Where a lease of this kind is kept.
    pub fn columns(self) -> Columns {
        match self {
            LeaseKind::EngineTurn => Columns {
                table: "games",
                key: "id",
                holder: "engine_claimed_by",
                until: "engine_claimed_until",
                wanted: "status = 'active' AND engine_wanted_ms IS NOT NULL",
                order: "engine_wanted_ms, id",
                index: Some("games_engine_wanted"),
            },
            LeaseKind::Review => Columns {
                table: "reviews",
                key: "game_id",
                holder: "claimed_by",
                until: "claimed_until",
                wanted: "done_ms IS NULL",
                order: "requested_ms, game_id",
                index: Some("reviews_waiting"),
            },
            LeaseKind::PuzzleSearch => Columns {
                table: "puzzle_searches",
                key: "game_id",
                holder: "claimed_by",
                until: "claimed_until",
                wanted: "done_ms IS NULL",
                order: "requested_ms, game_id",
                index: Some("puzzle_searches_waiting"),
            },
            // Notices are claimed in the order of their channels
            // (`outbox::claim_notices`), not from a queue: `order` is only
            // for completeness. `next_attempt_ms` is both a hold's end and,
            // with no holder, when a failed post is tried again.
            LeaseKind::Notice => Columns {
                table: "outbox",
                key: "id",
                holder: "held_by",
                until: "next_attempt_ms",
                wanted: "parked = 0",
                order: "id",
                index: None,
            },
        }
    }

    /// Its name in logs.
    pub fn name(self) -> &'static str {
        match self {
            LeaseKind::EngineTurn => "engine turn",
            LeaseKind::Review => "review",
            LeaseKind::Notice => "notice",
            LeaseKind::PuzzleSearch => "puzzle search",
        }
    }
}

/// The columns a kind of lease is kept in, and the rows it is on.
#[derive(Debug, Clone, Copy)]
pub struct Columns {
    pub table: &'static str,
    /// The row's key (an integer).
    pub key: &'static str,
    /// Who holds the lease (a process's name); NULL: nobody.
    pub holder: &'static str,
    /// Until when, in ms on the core's clock.
    pub until: &'static str,
    /// What a row must be for its lease to mean anything (work still
    /// wanted): a lease on a row that no longer is is not renewed.
    pub wanted: &'static str,
    /// The order work is taken in ([`claim_next`]).
    pub order: &'static str,
    /// A partial index over the wanted rows (SQLite is told to use it).
    pub index: Option<&'static str>,
}

/// A claim: who, and until when unless renewed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Claim<'a> {
    pub by: &'a str,
    pub until_ms: i64,
}

/// Takes the first row of `kind` in its order that is wanted and that
/// nobody holds at `now_ms` (no lease, or one that lapsed): its key. One
/// statement, so two processes never take the same one: on PostgreSQL the
/// row is locked and skipped by the others (`FOR UPDATE SKIP LOCKED`), on
/// SQLite the statement holds the write lock.
pub async fn claim_next(
    pool: &AnyPool,
    kind: LeaseKind,
    now_ms: i64,
    claim: Claim<'_>,
) -> Result<Option<i64>, sqlx::Error> {
    let c = kind.columns();
    let backend = backend_of(pool);
    let lock = match backend {
        Backend::Postgres => "FOR UPDATE SKIP LOCKED",
        Backend::Sqlite => "",
    };
    let index = c.index.map(|i| indexed_by(backend, i)).unwrap_or_default();
    let free = format!(
        "{wanted} AND ({until} IS NULL OR {until} < $1)",
        wanted = c.wanted,
        until = c.until
    );
    sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "UPDATE {table} SET {holder} = $2, {until} = $3 \
         WHERE {key} = (SELECT {key} FROM {table} {index} WHERE {free} ORDER BY {order} LIMIT 1 {lock}) \
         AND {free} RETURNING {key}",
        table = c.table,
        holder = c.holder,
        until = c.until,
        key = c.key,
        order = c.order,
    )))
    .bind(now_ms)
    .bind(claim.by)
    .bind(claim.until_ms)
    .fetch_optional(pool)
    .await
}

/// Claims the work of `kind` on `key`, if it is wanted and nobody holds it
/// at `now_ms`: one statement, as [`claim_next`]. Whether it was claimed.
pub async fn claim_key(
    pool: &AnyPool,
    kind: LeaseKind,
    key: i64,
    now_ms: i64,
    claim: Claim<'_>,
) -> Result<bool, sqlx::Error> {
    let c = kind.columns();
    let done = sqlx::query(sqlx::AssertSqlSafe(format!(
        "UPDATE {table} SET {holder} = $2, {until} = $3 \
         WHERE {key} = $4 AND {wanted} AND ({until} IS NULL OR {until} < $1)",
        table = c.table,
        holder = c.holder,
        until = c.until,
        key = c.key,
        wanted = c.wanted,
    )))
    .bind(now_ms)
    .bind(claim.by)
    .bind(claim.until_ms)
    .bind(key)
    .execute(pool)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Moves the leases of `kind` on `keys` that `claim.by` still holds on to
/// `claim.until_ms`; the keys it still holds (the others were finished,
/// released, or taken over after they lapsed).
pub async fn renew(
    pool: &AnyPool,
    kind: LeaseKind,
    keys: &[i64],
    claim: Claim<'_>,
) -> Result<Vec<i64>, sqlx::Error> {
    if keys.is_empty() {
        return Ok(Vec::new());
    }
    let c = kind.columns();
    let list: Vec<String> = keys.iter().map(i64::to_string).collect();
    sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "UPDATE {table} SET {until} = $1 WHERE {key} IN ({list}) AND {holder} = $2 \
         AND {wanted} RETURNING {key}",
        table = c.table,
        until = c.until,
        key = c.key,
        list = list.join(", "),
        holder = c.holder,
        wanted = c.wanted,
    )))
    .bind(claim.until_ms)
    .bind(claim.by)
    .fetch_all(pool)
    .await
}

/// Gives up `by`'s lease of `kind` on `key`, so that the work may be taken
/// at once (by anyone); whether it was `by`'s.
pub async fn release(
    pool: &AnyPool,
    kind: LeaseKind,
    key: i64,
    by: &str,
) -> Result<bool, sqlx::Error> {
    let c = kind.columns();
    let done = sqlx::query(sqlx::AssertSqlSafe(format!(
        "UPDATE {table} SET {holder} = NULL, {until} = {free} WHERE {key} = $1 AND {holder} = $2",
        table = c.table,
        holder = c.holder,
        until = c.until,
        free = free_value(kind),
        key = c.key,
    )))
    .bind(key)
    .bind(by)
    .execute(pool)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Ends every lease of `kind`: at the start of the only process on a
/// SQLite file, whose last run's work died with it (nobody else holds
/// anything there). How many there were.
pub async fn release_all(pool: &AnyPool, kind: LeaseKind) -> Result<u64, sqlx::Error> {
    let c = kind.columns();
    let done = sqlx::query(sqlx::AssertSqlSafe(format!(
        "UPDATE {table} SET {holder} = NULL, {until} = {free} WHERE {holder} IS NOT NULL",
        table = c.table,
        holder = c.holder,
        until = c.until,
        free = free_value(kind),
    )))
    .execute(pool)
    .await?;
    Ok(done.rows_affected())
}

/// What a released lease's `until` becomes: NULL, or for a notice 0 (due
/// at once: nobody is posting it).
fn free_value(kind: LeaseKind) -> &'static str {
    match kind {
        LeaseKind::Notice => "0",
        LeaseKind::EngineTurn | LeaseKind::Review | LeaseKind::PuzzleSearch => "NULL",
    }
}

/// Who holds `kind`'s lease on `key` at `now_ms`, if anyone does (for
/// tests and `voidmate health`).
pub async fn holder(
    pool: &AnyPool,
    kind: LeaseKind,
    key: i64,
    now_ms: i64,
) -> Result<Option<String>, sqlx::Error> {
    let c = kind.columns();
    let row: Option<(Option<String>,)> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {holder} FROM {table} WHERE {key} = $1 AND {until} >= $2",
        holder = c.holder,
        table = c.table,
        key = c.key,
        until = c.until,
    )))
    .bind(key)
    .bind(now_ms)
    .fetch_optional(pool)
    .await?;
    Ok(row.and_then(|(h,)| h))
}
