//! Issue 51, point 3: one lease for every kind of work a process holds
//! (engine turns, reviews, notices being posted). Tested here once, with
//! reviews as the work: a holder keeps its lease for as long as it renews
//! it; killed, it stops renewing, and once the lease lapses one other
//! process takes the work; what a holder lost it can no longer renew; work
//! given up is taken at once.

use super::support::*;
use voidmate_game::store::{self, leases, Claim};

/// When the lease on game `id`'s review ends, and who holds it.
async fn review_lease(core: &Core, id: i64) -> (Option<String>, Option<i64>) {
    sqlx::query_as("SELECT claimed_by, claimed_until FROM reviews WHERE game_id = $1")
        .bind(id)
        .fetch_one(core.store().pool())
        .await
        .unwrap()
}

case! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_lease_holds_while_renewed_and_passes_on_once_its_holder_dies() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let clock = Clock::manual(wall_ms());
        let mut bot = Bot::with_clock(config(&path), clock.clone()).await;
        for _ in 0..2 {
            bot.ok("alice", "challenge @bob standard").await;
            bot.ok("bob", "accept").await;
            bot.ok("alice", "resign").await;
        }
        {
            let mut tx = bot.core.store().begin().await.unwrap();
            for game in [1, 2] {
                store::queue_review(&mut tx, game, "room", "console", 100, clock.now_ms())
                    .await
                    .unwrap();
            }
            tx.commit().await.unwrap();
        }
        let a = Core::open_with_time(&config(&path), clock.clone()).await.unwrap();
        let b = Core::open_with_time(&config(&path), clock.clone()).await.unwrap();
        // Opened before anything is claimed: a core that starts on a SQLite
        // file is its only process, and ends every claim it finds.
        let c = Core::open_with_time(&config(&path), clock.clone()).await.unwrap();

        // a takes the first review; b the next one, the only one free.
        let held = a.leases().claim_next(LeaseKind::Review, 2).await.unwrap().expect("queued");
        assert_eq!(held.key(), 1);
        let other = b.leases().claim_next(LeaseKind::Review, 2).await.unwrap().expect("queued");
        assert_eq!(other.key(), 2);

        // For a minute, a second at a time, a renews its lease: it is never
        // within five seconds of its end, and b takes nothing.
        for _ in 0..60 {
            let now = clock.advance(1_000);
            loop {
                let (by, until) = review_lease(&a, 1).await;
                assert_eq!(by.as_deref(), Some(a.leases().holder()));
                if until.unwrap() > now + 5_000 {
                    break;
                }
                tokio::time::sleep(std::time::Duration::from_millis(5)).await;
            }
            assert!(b.leases().claim_next(LeaseKind::Review, 2).await.unwrap().is_none());
        }
        assert!(!held.is_lost());

        // a is killed: nothing renews its lease. Until it lapses, it holds.
        a.leases().stop().await;
        let (_, until) = review_lease(&a, 1).await;
        clock.set(until.unwrap());
        assert!(b.leases().claim_next(LeaseKind::Review, 2).await.unwrap().is_none());
        clock.advance(1);
        let taken = b.leases().claim_next(LeaseKind::Review, 2).await.unwrap().expect("lapsed");
        assert_eq!(taken.key(), 1);
        assert_eq!(review_lease(&a, 1).await.0.as_deref(), Some(b.leases().holder()));
        // What a lost, a late renewal of its cannot take back.
        let late = Claim { by: a.leases().holder(), until_ms: clock.now_ms() + 15_000 };
        let kept = leases::renew(a.store().pool(), LeaseKind::Review, &[1, 2], late).await.unwrap();
        assert!(kept.is_empty(), "{kept:?}");
        assert_eq!(review_lease(&a, 1).await.0.as_deref(), Some(b.leases().holder()));

        // b gives the first one up: a third process takes it at once,
        // while b's other lease goes on.
        assert!(taken.release().await.unwrap());
        while review_lease(&b, 2).await.1.unwrap() <= clock.now_ms() {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        let third = c.leases().claim_next(LeaseKind::Review, 1).await.unwrap().expect("released");
        assert_eq!(third.key(), 1);
        assert!(c.leases().claim_next(LeaseKind::Review, 2).await.unwrap().is_none(), "b holds 2");
        assert!(!other.is_lost());
        drop(held);
    }
}
