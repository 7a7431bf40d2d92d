//! The definitions of games read from files, kept with the games and
//! challenges made in them (`variant_definitions`), so that a game keeps
//! its rules when its file changes or goes.

use super::{Store, Tx};
use voidmate_rules::{defined, GameKind};

/// Keeps `kind`'s definition, if it was read from a file and is not kept
/// already (a built-in game has nothing to keep).
pub(super) async fn keep(tx: &mut Tx, kind: GameKind) -> Result<(), sqlx::Error> {
    let GameKind::Defined(game) = kind else {
        return Ok(());
    };
    let Some(spec) = defined::spec_of(game.rules()) else {
        return Ok(());
    };
    sqlx::query(
        "INSERT INTO variant_definitions (hash, name, body, stored_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (hash) DO NOTHING",
    )
    .bind(spec.hash())
    .bind(&spec.name)
    .bind(spec.canonical())
    .bind(tx.now_secs())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// One stored definition that could not be read again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable {
    pub name: String,
    pub hash: String,
    pub why: String,
}

impl Store {
    /// This store, with its definitions restored; one that no longer reads
    /// is logged (its games are reported damaged by `check-db`).
    pub(super) async fn with_definitions(self) -> Result<Store, sqlx::Error> {
        self.learn_definitions().await?;
        Ok(self)
    }

    /// Learns the definitions other processes stored since this store last
    /// looked: in a cluster whose processes read different files, the games
    /// and challenges made under another's definition then load here too
    /// (the periodic check calls it). One count when nothing is new.
    pub async fn learn_definitions(&self) -> Result<(), sqlx::Error> {
        use std::sync::atomic::Ordering;
        let stored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM variant_definitions")
            .fetch_one(self.pool())
            .await?;
        if self.definitions_seen.load(Ordering::Relaxed) == stored {
            return Ok(());
        }
        for u in self.restore_definitions().await? {
            tracing::warn!(
                "the stored definition of {} ({}) no longer reads: {}",
                u.name,
                u.hash,
                u.why
            );
        }
        self.definitions_seen.store(stored, Ordering::Relaxed);
        Ok(())
    }

    /// Makes every stored definition known again ([`defined::restore`]),
    /// so that the games that started under it load: at start-up, and by
    /// `check-db`. The definitions that no longer read are returned (their
    /// games are then reported damaged, never played under other rules).
    pub async fn restore_definitions(&self) -> Result<Vec<Unreadable>, sqlx::Error> {
        let rows: Vec<(String, String, String)> =
            sqlx::query_as("SELECT hash, name, body FROM variant_definitions ORDER BY stored_at")
                .fetch_all(self.pool())
                .await?;
        let mut unreadable = Vec::new();
        for (hash, name, body) in rows {
            if let Err(errors) = defined::restore(&hash, &body) {
                let why = errors
                    .iter()
                    .map(|e| format!("{}: {}", e.field, e.message))
                    .collect::<Vec<_>>()
                    .join("; ");
                unreadable.push(Unreadable { name, hash, why });
            }
        }
        Ok(unreadable)
    }
}
