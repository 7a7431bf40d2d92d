//! Storage through sqlx: an SQLite file by default, or a PostgreSQL server
//! (`[database] url`). One SQL text serves both, through sqlx's `Any`
//! driver: numbered `$1` parameters (SQLite reads them too), `RETURNING`,
//! `ON CONFLICT`, and yes/no columns kept as 0 or 1 ([`Flag`]). The
//! schemas live in `migrations/` (SQLite) and `migrations/postgres/`, and
//! are brought up to date at every start.
//!
//! Every incoming event that writes is handled inside one write transaction
//! that also records the event's id, so a redelivered event is seen and
//! skipped. On SQLite write transactions run one at a time (`BEGIN
//! IMMEDIATE`). On PostgreSQL a write waits only for what it touches: the
//! game it changes (its row locked as it is loaded, [`lock_game`]), its
//! channel when it settles challenges ([`lock_keys`]), the two players'
//! ratings when a game ends; event ids, rating changes and the engine's and
//! the outbox's claims are settled by unique keys and `SKIP LOCKED`.
//! A command that only reads takes no lock. Games carry a version that
//! every write checks and bumps.
//!
//! One module per table: `games`, `moves`, `challenges`, `settings` (with
//! the adapters' values), `events` (handled event ids), `outbox`, `players`
//! (the names identities were last seen with), and
//! `time` (deadlines, clocks and what is due).

use crate::time::Clock;
use sqlx::{Any, AnyPool, Transaction};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// A transaction, and the time on the core's clock when it began: every
/// timestamp it writes (`created_at`, `updated_at`, when an event was
/// handled) is that one, so a test's clock sets them all.
///
/// It reads as the connection it runs on (`&mut **tx` is an executor);
/// [`Tx::commit`] and [`Tx::rollback`] end it.
pub struct Tx {
    inner: Transaction<'static, Any>,
    now_ms: i64,
}

impl Tx {
    /// `inner`, stamped with `now_ms`.
    pub fn new(inner: Transaction<'static, Any>, now_ms: i64) -> Tx {
        Tx { inner, now_ms }
    }

    /// When the transaction began, on the core's clock (ms).
    pub fn now_ms(&self) -> i64 {
        self.now_ms
    }

    /// When the transaction began, in whole seconds (the tables that count
    /// in seconds).
    pub fn now_secs(&self) -> i64 {
        self.now_ms.div_euclid(1000)
    }

    pub async fn commit(self) -> Result<(), sqlx::Error> {
        self.inner.commit().await
    }

    pub async fn rollback(self) -> Result<(), sqlx::Error> {
        self.inner.rollback().await
    }
}

impl std::ops::Deref for Tx {
    type Target = sqlx::AnyConnection;

    fn deref(&self) -> &sqlx::AnyConnection {
        &self.inner
    }
}

impl std::ops::DerefMut for Tx {
    fn deref_mut(&mut self) -> &mut sqlx::AnyConnection {
        &mut self.inner
    }
}

/// The database path that means "in memory, nothing on disk".
pub const IN_MEMORY: &str = ":memory:";

mod attempts;
mod challenges;
mod connect;
mod copy;
mod daily;
mod definitions;
mod events;
mod games;
pub mod leases;
mod locks;
mod moves;
mod outbox;
mod players;
mod processes;
mod puzzles;
mod ratings;
mod reviews;
mod rounds;
mod rows;
mod settings;
mod time;
mod tournaments;

pub use attempts::{
    advance_attempt, attempted, end_attempt, nearest_puzzle, note_hint, open_attempt, puzzle_games,
    puzzle_leaderboard, puzzle_ratings_of, save_puzzle_result, settle_attempt, start_attempt,
    Attempt, AttemptEnd, PuzzleRating, PuzzleResult,
};
pub use challenges::{
    close_challenge, insert_challenge, pending_challenges, set_challenge_program,
    set_challenge_rating, set_challenge_thread,
};
pub use connect::{opening_failure, PoolSizes, PING_AFTER_IDLE};
pub use copy::{copy_database, count_rows, COPIED_TABLES};
pub use daily::{
    advance_daily, any_daily_due, choose_daily, clear_daily, credit_daily, credited_days,
    daily_credits, daily_of, due_dailies, latest_daily, post_daily, reschedule_daily, set_daily,
    DailyPost, DailyRow,
};
pub use definitions::Unreadable;
pub use events::{event_acted, event_seen, intake, mark_acted, prune_events, record_event, Intake};
pub use games::{
    abort, active_games, all_games, any_to_abort, begin, engine_games, engine_queue, finish,
    finished_games, finished_games_of, game, game_anywhere, games_in_play, games_to_abort,
    latest_game, private_games_of, rated_between, rated_games, recent_games_of, set_abort_at,
    set_colour, set_engine_turn, set_offer, set_programs, start_game, unrated_by_ending, Finish,
    NewGame, Opening, Read, StartClocks, Venue,
};
use games::{bump, one, records, GAME_COLUMNS};
pub use leases::{Claim, LeaseKind};
pub use locks::{lock_game, lock_game_with_moves, lock_keys, Locked};
pub use moves::{advance, moves, take_back_to, Advance, Clocks, MoveRow};
pub use outbox::{
    claim_notices, claim_older, delete_notice, move_notice, notice_failed, platform_of,
    queue_answer, queue_board_notice, queue_notice, queue_reply, unpark_channel, BoardKind,
    BoardRef, OutboxRow,
};
pub use players::{flip_of, players_named, rename_player, see_player, set_flip, view_of};
pub use processes::{forget_processes, outbox_queue, processes, see_process, ProcessRow};
pub use puzzles::{
    all_puzzles, finish_puzzle_search, puzzle, puzzle_backlog, puzzle_search_done, puzzles_of_game,
    queue_puzzle_search, save_puzzle, NewPuzzle, PuzzleRecord,
};
pub use ratings::{
    all_changes, all_ratings, apply, best_rating, leaderboard, most_played, rank_above, rating,
    ratings_of, Board, Change, RecordedChange, StoredRating,
};
pub use reviews::{
    finish_review, queue_review, review_of, review_positions, save_review_position, ReviewRow,
};
pub use rounds::{
    add_forbidden, forbidden, insert_round, insert_round_game, placings_of, round_game_of,
    round_games, rounds, save_standings, set_outcome, standings_after,
};
use rows::GameRow;
pub use settings::{
    adapter_value, move_game, save_settings, set_adapter_value, settings, Settings,
};
pub use time::{
    any_due, deadlines_without_reminder, due_games, mark_low_time_warned, mark_reminded,
    set_clocks, set_deadline, set_reminder, shift_clocks, Deadline,
};
pub use tournaments::{
    add_entry, all_tournaments, clear_deadline, clear_reminder, create_tournament, due_tournaments,
    entries, lock_tournament, move_tournament, pause_tournament, remove_entry, set_entry_rating,
    set_entry_status, set_here, set_round, set_tournament_status, start_tournament, tournament,
    tournaments_here, NewTournament,
};

/// Which database holds the games. The SQL is written once for both
/// (numbered `$1` parameters, `RETURNING`, `ON CONFLICT`, integer flags);
/// where they differ, the store asks this.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    /// The core's clock, which stamps each transaction ([`Tx`]).
    clock: Clock,
    /// Write transactions begun (or tried) so far, for the tests of how
    /// often an event waits for the write lock.
    writes: Arc<AtomicU64>,
    /// How many stored definitions this store had made known when it last
    /// looked ([`Store::learn_definitions`]); -1 before it has.
    definitions_seen: Arc<std::sync::atomic::AtomicI64>,
}

/// SQLite's migrations, and PostgreSQL's (the same schema, written for it).
pub(super) static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("../migrations");
pub(super) static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator =
    sqlx::migrate!("../migrations/postgres");

impl Store {
    pub(super) fn new(pool: AnyPool, backend: Backend) -> Store {
        Store {
            pool,
            backend,
            clock: Clock::system(),
            writes: Arc::default(),
            definitions_seen: Arc::new(std::sync::atomic::AtomicI64::new(-1)),
        }
    }

    /// The store with its transactions stamped by `clock`.
    #[must_use]
    pub fn with_clock(self, clock: Clock) -> Store {
        Store { clock, ..self }
    }

    /// The clock that stamps this store's transactions.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// Write transactions begun or tried so far ([`Store::begin`]).
    pub fn write_transactions(&self) -> u64 {
        self.writes.load(Ordering::SeqCst)
    }

    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// A write transaction. SQLite takes its write lock at the start
    /// (`BEGIN IMMEDIATE`: one writer, which is right for one file).
    /// PostgreSQL takes no lock here: a write waits only for the rows it
    /// touches ([`lock_game`], [`lock_keys`], row locks of its `UPDATE`s),
    /// so two moves in different games never wait for each other.
    pub async fn begin(&self) -> Result<Tx, sqlx::Error> {
        self.writes.fetch_add(1, Ordering::SeqCst);
        let inner = begin_write(&self.pool, self.backend).await?;
        Ok(Tx::new(inner, self.clock.now_ms()))
    }

    /// A transaction that only reads: it takes no write lock (SQLite's WAL
    /// readers never wait for its writer), so a read never holds up a move.
    pub async fn read(&self) -> Result<Tx, sqlx::Error> {
        let inner = self.pool.begin().await?;
        Ok(Tx::new(inner, self.clock.now_ms()))
    }
}

/// A write transaction on `pool` (see [`Store::begin`]).
pub async fn begin_write(
    pool: &AnyPool,
    backend: Backend,
) -> Result<Transaction<'static, Any>, sqlx::Error> {
    match backend {
        Backend::Sqlite => pool.begin_with("BEGIN IMMEDIATE").await,
        Backend::Postgres => {
            // A connection that broke while idle (taken without a ping):
            // nothing was done on it, and sqlx closes it as it comes back,
            // so the next one is taken; after a server restart every idle
            // one may be gone, so as many tries as the pool holds.
            let mut tries = pool.options().get_max_connections();
            loop {
                match pool.begin().await {
                    Err(e) if tries > 0 && connection_lost(&e) => tries -= 1,
                    other => return other,
                }
            }
        }
    }
}

/// Whether `e` says the connection itself is gone (its socket closed, or
/// the server ended its session), not that a statement failed.
pub(super) fn connection_lost(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Io(_) => true,
        // Class 57P: the server shut the session (admin command, crash,
        // shutdown); class 08: a connection exception.
        sqlx::Error::Database(d) => d
            .code()
            .is_some_and(|c| c.starts_with("57P") || c.starts_with("08")),
        _ => false,
    }
}

/// A yes/no column: 0 or 1 on both backends (SQLite has no boolean type,
/// and one schema for both keeps the SQL the same).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flag(pub bool);

impl From<Flag> for bool {
    fn from(f: Flag) -> bool {
        f.0
    }
}

impl sqlx::Type<Any> for Flag {
    fn type_info() -> sqlx::any::AnyTypeInfo {
        <i64 as sqlx::Type<Any>>::type_info()
    }

    fn compatible(ty: &sqlx::any::AnyTypeInfo) -> bool {
        <i64 as sqlx::Type<Any>>::compatible(ty)
    }
}

impl<'r> sqlx::Decode<'r, Any> for Flag {
    fn decode(value: sqlx::any::AnyValueRef<'r>) -> Result<Self, sqlx::error::BoxDynError> {
        <i64 as sqlx::Decode<Any>>::decode(value).map(|n| Flag(n != 0))
    }
}

/// Which backend a transaction talks to.
pub fn backend_of_tx(conn: &mut sqlx::AnyConnection) -> Backend {
    if conn.backend_name().starts_with("Postgre") {
        Backend::Postgres
    } else {
        Backend::Sqlite
    }
}

/// SQLite's `INDEXED BY index`, which makes it use that index or refuse
/// the query (a query that should never read every row); PostgreSQL's
/// planner takes no such order.
pub fn indexed_by(backend: Backend, index: &str) -> String {
    match backend {
        Backend::Sqlite => format!("INDEXED BY {index}"),
        Backend::Postgres => String::new(),
    }
}

/// Which backend a pool talks to.
pub fn backend_of(pool: &AnyPool) -> Backend {
    if pool
        .connect_options()
        .database_url
        .scheme()
        .starts_with("postgres")
    {
        Backend::Postgres
    } else {
        Backend::Sqlite
    }
}
