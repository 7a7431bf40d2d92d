//! Opening the core: the database (migrated), the engine's pool, and a
//! starting bot's bookkeeping (clocks credited for the time it was down,
//! what the last run held let go, reminders of old deadlines).

use crate::config::CoreConfig;
use crate::core::{Core, CoreSettings, HEARTBEAT_KEY};
use crate::engine::EnginePool;
use crate::lease::{self, Leases};
use crate::store::{self, LeaseKind, Store};
use crate::time::Clock;
use std::sync::atomic::AtomicI64;
use std::sync::Arc;

impl Core {
    /// Opens the database named in `cfg` (migrating it) and prepares the core.
    pub async fn open(cfg: impl Into<CoreConfig>) -> anyhow::Result<Core> {
        Core::open_with_time(cfg, Clock::system()).await
    }

    /// Like [`Core::open`], reading clock time from `time`. Time that passed
    /// since the core last saw the clock (a restart) is not charged to any
    /// player: running clocks restart now.
    pub async fn open_with_time(cfg: impl Into<CoreConfig>, time: Clock) -> anyhow::Result<Core> {
        Core::assemble(&cfg.into(), time).await?.restarted().await
    }

    /// A core that only looks (`voidmate health`, `check-db`, `migrate-db`):
    /// unlike [`Core::open`] it does none of a starting bot's bookkeeping
    /// (crediting clocks for the downtime, releasing a last run's claims),
    /// which would disturb the processes that run on the same database.
    pub async fn inspect(cfg: impl Into<CoreConfig>) -> anyhow::Result<Core> {
        Core::assemble(&cfg.into(), Clock::system()).await
    }

    async fn assemble(cfg: &CoreConfig, time: Clock) -> anyhow::Result<Core> {
        let store = Store::open_config(&cfg.database)
            .await
            .map_err(|e| {
                anyhow::anyhow!(
                    "cannot open the database {}: {}",
                    cfg.database.describe(),
                    crate::store::opening_failure(&e)
                )
            })?
            .with_clock(time.clone());
        let leases = Leases::new(store.clone(), time.clone(), lease::claimant());
        Ok(Core {
            store,
            settings: CoreSettings::from_config(cfg)?,
            engine: EnginePool::new(cfg.engine.threads, cfg.engine.hash_mb),
            engine_cfg: cfg.engine.clone(),
            bots: Arc::default(),
            styles: Arc::default(),
            // Never: the first periodic check prunes.
            pruned_at: Arc::new(AtomicI64::new(i64::MIN)),
            leases,
            engine_backfilled: Arc::default(),
            status: Arc::default(),
            time,
        })
    }

    /// Credits the time since the last heartbeat to every running clock.
    async fn restarted(self) -> anyhow::Result<Core> {
        let now = self.time.now_ms();
        let pool = self.store.pool().clone();
        if let Some(last) = store::adapter_value(&pool, HEARTBEAT_KEY)
            .await?
            .and_then(|v| v.parse::<i64>().ok())
        {
            if now > last {
                let mut tx = self.store.begin().await?;
                store::shift_clocks(&mut tx, now - last).await?;
                tx.commit().await?;
            }
        }
        store::set_adapter_value(&pool, HEARTBEAT_KEY, &now.to_string()).await?;
        // Answers the last run wrote but never confirmed as posted: nobody
        // is posting them now, so they are due at once. Not on PostgreSQL,
        // where other processes may be posting theirs right now: there
        // they go out when their grace ends.
        let owed = match self.store.backend() {
            store::Backend::Sqlite => {
                // Likewise the last run's searches died with it, and its
                // report is not of a process that is silent now.
                store::leases::release_all(&pool, LeaseKind::EngineTurn).await?;
                store::leases::release_all(&pool, LeaseKind::Review).await?;
                store::forget_processes(&pool).await?;
                store::leases::release_all(&pool, LeaseKind::Notice).await?
            }
            store::Backend::Postgres => 0,
        };
        if owed > 0 {
            tracing::info!(
                answers = owed,
                "posting answers the last run may not have posted"
            );
        }
        // Deadlines set before reminder times were stored get theirs.
        for (id, at, clock) in store::deadlines_without_reminder(&pool).await? {
            if let Some(d) = self.deadline_from(&clock, 0) {
                store::set_reminder(&pool, id, at - (d.at - d.remind_at)).await?;
            }
        }
        Ok(self)
    }
}
