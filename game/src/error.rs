//! Why a command did nothing, and how that is said: refusals meant for the
//! player apart from failures of storage, which are ours.

use crate::record::{DamagedGame, RecordError};
use crate::reply::{Audience, Reply};

/// Why a command did nothing.
#[derive(Debug)]
pub(crate) enum Failure {
    /// The player's mistake or a refusal; the words for the reply.
    Refused(String),
    /// No command at all (text that is neither a command word nor a move):
    /// the first word, for "I do not know the command" when addressed.
    NotACommand(String),
    /// The database failed; nothing was changed.
    Storage(sqlx::Error),
}

impl From<sqlx::Error> for Failure {
    /// A stored record that does not read (the store's decode error that
    /// carries a [`RecordError`]) is refused, naming it; anything else is a
    /// failure of storage.
    fn from(e: sqlx::Error) -> Self {
        if let sqlx::Error::Decode(inner) = &e {
            if let Some(bad) = inner.downcast_ref::<RecordError>() {
                return Failure::Refused(match bad {
                    RecordError::Game(g) => damaged_words(g.id, &g.why),
                    RecordError::Challenge { id, why } => format!(
                        "The stored challenge #{id} here is damaged ({why}), so I cannot go on with it. Nothing was changed."
                    ),
                    RecordError::Rating { .. } => format!(
                        "A stored rating is damaged ({bad}), so I cannot answer that. Nothing was changed."
                    ),
                    RecordError::Tournament { id, why } => format!(
                        "The stored record of tournament T{id} is damaged ({why}), so I cannot go on with it. Nothing was changed; `check-db` lists what is wrong."
                    ),
                });
            }
        }
        Failure::Storage(e)
    }
}

impl From<RecordError> for Failure {
    fn from(e: RecordError) -> Self {
        Failure::from(sqlx::Error::Decode(Box::new(e)))
    }
}

impl From<Box<DamagedGame>> for Failure {
    fn from(e: Box<DamagedGame>) -> Self {
        Failure::from(RecordError::Game(e))
    }
}

/// Refuses with `msg`.
pub(crate) fn refuse<T>(msg: impl Into<String>) -> Result<T, Failure> {
    Err(Failure::Refused(msg.into()))
}

/// A stored game that does not hold together, in words.
pub(crate) fn damaged(id: i64, why: impl std::fmt::Display) -> Failure {
    Failure::Refused(damaged_words(id, why))
}

fn damaged_words(id: i64, why: impl std::fmt::Display) -> String {
    format!(
        "The stored record of game #{id} is damaged ({why}), so I cannot go on with it. Nothing was changed."
    )
}

pub(crate) fn error_reply(text: String) -> Reply {
    Reply {
        is_error: true,
        audience: Audience::Author,
        ..Reply::new(text)
    }
}

/// A storage failure in words: a locked database is "busy", anything else
/// "went wrong"; either way nothing was changed.
pub(crate) fn db_failure(e: sqlx::Error) -> Reply {
    let busy = match &e {
        // SQLite's "database is locked"; PostgreSQL's lock_not_available
        // (55P03), which `lock_timeout` raises (see `Store::open_postgres_with`).
        sqlx::Error::Database(d) => {
            let m = d.message().to_ascii_lowercase();
            // PostgreSQL's deadlock_detected (40P01) and serialization_failure
            // (40001): two writers met; the one told so may simply try again.
            m.contains("locked")
                || m.contains("busy")
                || matches!(d.code().as_deref(), Some("55P03" | "40P01" | "40001"))
        }
        sqlx::Error::PoolTimedOut => true,
        _ => false,
    };
    if busy {
        if let sqlx::Error::Database(d) = &e {
            if matches!(d.code().as_deref(), Some("40P01" | "40001")) {
                tracing::warn!("two writes met, one gave way: {e}");
            }
        }
        error_reply("The game database is busy right now, so nothing was changed. Please try again in a moment.".into())
    } else {
        tracing::error!("storage error: {e}");
        error_reply(
            "Something went wrong while storing that, so nothing was changed. Please try again."
                .into(),
        )
    }
}
