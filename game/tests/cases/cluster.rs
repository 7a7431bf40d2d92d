//! Issue 40, point 1: on PostgreSQL a write waits only for what it touches.
//! Each case races two or three processes (each a core with its own pool of
//! connections, as separate processes have) on one database; every
//! guarantee the one global lock used to give is checked to hold without it.

use crate::cases::support::*;

/// `who` says `text` in `channel` of the community `club` (one community
/// for every channel, so games in two channels share ratings).
fn club_event(bot: &mut Bot, channel: &str, who: &str, text: &str) -> Incoming {
    let mut ev = bot.event(who, text);
    ev.channel = channel.to_string();
    ev.community = Some("club".to_string());
    ev
}

/// `club_event`, handled by `core`; must succeed.
async fn club_ok(bot: &mut Bot, core: &Core, channel: &str, who: &str, text: &str) -> Reply {
    let ev = club_event(bot, channel, who, text);
    let r = core.handle(&ev).await.expect("a reply");
    assert!(!r.is_error, "{who} in {channel}: {text} -> {}", r.text);
    bot.posted(&r).await;
    r
}

/// A second and a third process on `bot`'s database.
async fn more_processes(path: &Path) -> (Core, Core) {
    let b = Core::open(&config(path)).await.unwrap();
    let c = Core::open(&config(path)).await.unwrap();
    (b, c)
}

case! {
    /// A write transaction open in one process, holding game #1, does not
    /// hold up a move in game #2 from another process (the global lock made
    /// it wait, and answer "busy" after `busy_timeout`); a move in game #1
    /// waits for it, and is answered "busy" with nothing changed.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_write_waits_only_for_the_game_it_touches() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let mut cfg = config(&path);
        cfg.database.busy_timeout_ms = 300;
        let mut bot = Bot::with(cfg.clone()).await;
        start_game(&mut bot, "standard").await;
        bot.channel = "room2".into();
        start_game(&mut bot, "standard").await;
        let other = Core::open(&cfg).await.unwrap();

        let holder = Core::open(&cfg).await.unwrap();
        let mut tx = holder.store().begin().await.unwrap();
        let held = voidmate_game::store::lock_game(&mut tx, 1).await.unwrap();
        assert!(held.is_some());

        let ev = bot.event("alice", "e4");
        let r = other.handle(&ev).await.unwrap();
        assert!(!r.is_error, "game #2 waits for nothing: {}", r.text);
        assert!(r.text.starts_with("#2: alice played e4."), "{}", r.text);

        bot.channel = "room".into();
        let before = snapshot(&bot.core).await;
        let ev = bot.event("alice", "e4");
        let r = other.handle(&ev).await.unwrap();
        assert!(r.is_error);
        assert_eq!(
            r.text,
            "The game database is busy right now, so nothing was changed. Please try again in a moment."
        );
        assert_eq!(snapshot(&bot.core).await, before);

        tx.rollback().await.unwrap();
        let r = bot.ok("alice", "e4").await;
        assert!(r.text.starts_with("#1: alice played e4."), "{}", r.text);
    }
}

case! {
    /// One event delivered to three processes at once (a gateway's
    /// redelivery to a replacement shard, a Matrix sync read twice) is
    /// handled by one: one reply, one move.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn one_event_raced_by_three_processes_is_handled_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let mut bot = Bot::open(&path).await;
        start_game(&mut bot, "standard").await;
        let (b, c) = more_processes(&path).await;
        let ev = bot.event("alice", "e4");
        let (x, y, z) = tokio::join!(bot.core.handle(&ev), b.handle(&ev), c.handle(&ev));
        let replies: Vec<Reply> = [x, y, z].into_iter().flatten().collect();
        assert_eq!(replies.len(), 1, "{replies:?}");
        assert!(replies[0].text.starts_with("#1: alice played e4."), "{}", replies[0].text);
        assert_eq!(moves_in(&bot.core, 1).await, 1);
    }
}

case! {
    /// Three different moves by the player to move, each sent to another
    /// process at once: one is played, the others are told it is not their
    /// turn (the game's row is locked and read again).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn three_processes_racing_moves_in_one_game_play_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let mut bot = Bot::open(&path).await;
        start_game(&mut bot, "standard").await;
        let (b, c) = more_processes(&path).await;
        let pool = bot.core.store().pool().clone();
        let version = || async {
            sqlx::query_scalar::<_, i64>("SELECT version FROM games WHERE id = 1")
                .fetch_one(&pool)
                .await
                .unwrap()
        };
        let before = version().await;
        let (e1, e2, e3) = (
            bot.event("alice", "e4"),
            bot.event("alice", "d4"),
            bot.event("alice", "Nf3"),
        );
        let (x, y, z) = tokio::join!(bot.core.handle(&e1), b.handle(&e2), c.handle(&e3));
        let replies: Vec<Reply> = [x, y, z].into_iter().map(Option::unwrap).collect();
        let played: Vec<&Reply> = replies.iter().filter(|r| !r.is_error).collect();
        assert_eq!(played.len(), 1, "{replies:?}");
        for r in replies.iter().filter(|r| r.is_error) {
            assert!(r.text.starts_with("It is not your turn in game #1"), "{}", r.text);
        }
        assert_eq!(moves_in(&bot.core, 1).await, 1);
        assert_eq!(version().await, before + 1, "one write of the game");
    }
}

case! {
    /// The same challenge sent to three processes at once (three events):
    /// one challenge waits, the others are told one already does.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn one_pending_challenge_per_pair_across_processes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let mut bot = Bot::open(&path).await;
        let (b, c) = more_processes(&path).await;
        let (e1, e2, e3) = (
            bot.event("alice", "challenge @bob standard"),
            bot.event("alice", "challenge @bob void"),
            bot.event("alice", "challenge @bob chess99"),
        );
        let (x, y, z) = tokio::join!(bot.core.handle(&e1), b.handle(&e2), c.handle(&e3));
        let replies: Vec<Reply> = [x, y, z].into_iter().map(Option::unwrap).collect();
        for r in &replies {
            bot.posted(r).await;
        }
        assert_eq!(replies.iter().filter(|r| !r.is_error).count(), 1, "{replies:?}");
        for r in replies.iter().filter(|r| r.is_error) {
            assert!(
                r.text.starts_with("You already have a challenge waiting for bob here."),
                "{}",
                r.text
            );
        }
        let pending: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM challenges WHERE status = 'pending'")
                .fetch_one(bot.core.store().pool())
                .await
                .unwrap();
        assert_eq!(pending, 1);
        // Two processes accepting it at once start one game.
        let (a1, a2) = (bot.event("bob", "accept"), bot.event("bob", "accept"));
        let (x, y) = tokio::join!(b.handle(&a1), c.handle(&a2));
        let (x, y) = (x.unwrap(), y.unwrap());
        assert!(x.is_error != y.is_error, "{} / {}", x.text, y.text);
        let games: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games")
            .fetch_one(bot.core.store().pool())
            .await
            .unwrap();
        assert_eq!(games, 1);
    }
}

case! {
    /// alice and bob have a rated game in each of two channels; both end at
    /// once, in two processes. Each rating is read and written in turn: the
    /// second change starts from the first one's result, nothing is lost.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn two_games_of_one_player_ending_at_once_both_count() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let mut bot = Bot::open(&path).await;
        let core = bot.core.clone();
        for room in ["east", "west"] {
            club_ok(&mut bot, &core, room, "alice", "challenge @bob standard").await;
            club_ok(&mut bot, &core, room, "bob", "accept").await;
            club_ok(&mut bot, &core, room, "alice", "e4").await;
            club_ok(&mut bot, &core, room, "bob", "e5").await;
        }
        let (b, c) = more_processes(&path).await;
        let (r1, r2) = (
            club_event(&mut bot, "east", "alice", "resign"),
            club_event(&mut bot, "west", "alice", "resign"),
        );
        let (x, y) = tokio::join!(b.handle(&r1), c.handle(&r2));
        for r in [x.unwrap(), y.unwrap()] {
            assert!(!r.is_error, "{}", r.text);
            assert!(r.text.contains("Ratings:"), "{}", r.text);
        }
        let pool = bot.core.store().pool();
        for player in ["console:alice", "console:bob"] {
            let changes: Vec<(f64, f64)> = sqlx::query_as(
                "SELECT before_rating, after_rating FROM rating_changes WHERE player = $1",
            )
            .bind(player)
            .fetch_all(pool)
            .await
            .unwrap();
            assert_eq!(changes.len(), 2, "{player}: {changes:?}");
            let (first, second) = if changes[0].0 == 1500.0 {
                (changes[0], changes[1])
            } else {
                (changes[1], changes[0])
            };
            assert_eq!(first.0, 1500.0, "{player}: {changes:?}");
            assert_eq!(second.0, first.1, "{player}: the second starts from the first");
            let (games, rating): (i64, f64) = sqlx::query_as(
                "SELECT games, rating FROM ratings WHERE player = $1 AND community = 'club'",
            )
            .bind(player)
            .fetch_one(pool)
            .await
            .unwrap();
            assert_eq!((games, rating), (2, second.1), "{player}");
        }
    }
}

case! {
    /// A correspondence deadline passes; three processes look at once. The
    /// game is lost on time once, announced once.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_deadline_is_decided_once_by_three_processes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let mut cfg = config(&path);
        cfg.clock.day_seconds = 100;
        let t0 = wall_ms();
        let clock = Clock::manual(t0);
        let mut bot = Bot::with_clock(cfg.clone(), clock.clone()).await;
        bot.ok("alice", "challenge @bob void 1d white").await;
        bot.ok("bob", "accept").await;
        bot.ok("alice", "e4").await;
        bot.ok("bob", "e6").await; // alice's deadline: 100 s from now
        let open = || Core::open_with_time(&cfg, clock.clone());
        let (b, c) = (open().await.unwrap(), open().await.unwrap());
        clock.set(t0 + 150_000);
        let until = t0 + 150_000;
        tokio::join!(
            bot.core.settle_deadlines(until),
            b.settle_deadlines(until),
            c.settle_deadlines(until)
        );
        let (status, version): (String, i64) =
            sqlx::query_as("SELECT status, version FROM games WHERE id = 1")
                .fetch_one(bot.core.store().pool())
                .await
                .unwrap();
        assert_eq!(status, "finished");
        let told: Vec<String> = sqlx::query_scalar("SELECT text FROM outbox ORDER BY id")
            .fetch_all(bot.core.store().pool())
            .await
            .unwrap();
        let lost: Vec<&String> = told.iter().filter(|t| t.contains("did not move in time")).collect();
        assert_eq!(lost.len(), 1, "{told:?}");
        let ended: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM rating_changes WHERE game_id = 1")
            .fetch_one(bot.core.store().pool())
            .await
            .unwrap();
        assert_eq!(ended, 2, "rated once: a change for each player");
        let again: i64 = sqlx::query_scalar("SELECT version FROM games WHERE id = 1")
            .fetch_one(bot.core.store().pool())
            .await
            .unwrap();
        assert_eq!(again, version, "nothing changed after the first");
    }
}

case! {
    /// Three processes take due notices at once: each notice goes to one,
    /// and one channel's notices go out in order.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_notice_is_taken_by_one_of_three_processes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let bot = Bot::open(&path).await;
        let (b, c) = more_processes(&path).await;
        {
            let mut tx = bot.core.store().begin().await.unwrap();
            for i in 0..30 {
                let text = voidmate_game::Text::from(format!("notice {i}"));
                voidmate_game::store::queue_notice(&mut tx, "room", &text, &[])
                    .await
                    .unwrap();
            }
            tx.commit().await.unwrap();
        }
        let now = wall_ms();
        let until_ms = now + 60_000;
        // Each process posts what it took (deletes it, as a confirmation
        // does) before it looks again; the channel's later notices wait
        // until the earlier ones are posted, so the posts come in order.
        let posted = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let claim = |core: &Core| {
            let pool = core.store().pool().clone();
            let posted = posted.clone();
            let by = core.leases().holder().to_string();
            async move {
                let mut ids = Vec::new();
                for _ in 0..2000 {
                    let rows = voidmate_game::store::claim_notices(
                        &pool,
                        now,
                        voidmate_game::store::Claim { by: &by, until_ms },
                        now,
                        &[],
                        4,
                    )
                        .await
                        .unwrap();
                    for r in &rows {
                        posted.lock().unwrap().push(r.id);
                        voidmate_game::store::delete_notice(&pool, r.id).await.unwrap();
                    }
                    ids.extend(rows.iter().map(|r| r.id));
                    let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM outbox")
                        .fetch_one(&pool)
                        .await
                        .unwrap();
                    if left == 0 {
                        break;
                    }
                    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
                }
                ids
            }
        };
        let (x, y, z) = tokio::join!(claim(&bot.core), claim(&b), claim(&c));
        let mut all: Vec<i64> = x.iter().chain(&y).chain(&z).copied().collect();
        let taken = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), taken, "a notice was taken twice");
        assert_eq!(taken, 30);
        let posted = posted.lock().unwrap().clone();
        let mut sorted = posted.clone();
        sorted.sort();
        assert_eq!(posted, sorted, "posted in the order queued");
    }
}

case! {
    /// A player's name already stored as it is locks nothing: their moves in
    /// two games at once never wait for each other on their `players` row.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_known_name_locks_no_player_row() {
        use sqlx::Connection as _;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let mut cfg = config(&path);
        cfg.database.busy_timeout_ms = 300;
        let mut bot = Bot::with(cfg).await;
        start_game(&mut bot, "standard").await;
        let mut held = sqlx::PgConnection::connect(&postgres::database_for(&path))
            .await
            .unwrap();
        for sql in [
            "BEGIN",
            "SELECT name FROM players WHERE id = 'console:alice' FOR UPDATE",
        ] {
            sqlx::query(sql).execute(&mut held).await.unwrap();
        }
        let r = bot.say("alice", "e4").await;
        assert!(!r.is_error, "{}", r.text);
        assert!(r.text.starts_with("#1: alice played e4."), "{}", r.text);
        // A new name is still written (bob's row is not held).
        let mut renamed = bot.event("bob", "e5");
        renamed.author = Player::new(PlayerId::new(PLATFORM, "bob"), "Robert");
        let r = bot.core.handle(&renamed).await.unwrap();
        assert!(r.text.starts_with("#1: Robert played e5."), "{}", r.text);
        sqlx::query("ROLLBACK").execute(&mut held).await.unwrap();
    }
}

case! {
    /// `[database] max_connections` and `acquire_timeout_ms`: with both
    /// connections of a pool of two taken, a command is answered "busy"
    /// after the wait, and nothing changes; once one is free it goes through.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_pool_is_sized_as_configured() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let mut cfg = config(&path);
        cfg.database.max_connections = 2;
        cfg.database.min_connections = 1;
        cfg.database.acquire_timeout_ms = 300;
        let mut bot = Bot::with(cfg).await;
        start_game(&mut bot, "standard").await;
        let pool = bot.core.store().pool().clone();
        assert_eq!(pool.options().get_max_connections(), 2);
        let before = snapshot(&bot.core).await;
        let (a, b) = (pool.acquire().await.unwrap(), pool.acquire().await.unwrap());
        let ev = bot.event("alice", "e4");
        let r = bot.core.handle(&ev).await.unwrap();
        assert!(r.is_error);
        assert_eq!(
            r.text,
            "The game database is busy right now, so nothing was changed. Please try again in a moment."
        );
        drop((a, b));
        assert_eq!(snapshot(&bot.core).await, before);
        let r = bot.ok("alice", "e4").await;
        assert!(r.text.starts_with("#1: alice played e4."), "{}", r.text);
    }
}

case! {
    /// The intake reads the board turn of the event's author, not of the
    /// first of the players it names in the order of their ids (a bug
    /// found in review: `amy`'s turn was read for `zed`).
    #[tokio::test]
    async fn the_intake_reads_the_authors_own_board_turn() {
        use voidmate_game::command::Flip;
        let dir = tempfile::tempdir().unwrap();
        let bot = Bot::open(&dir.path().join("v.db")).await;
        let (zed, amy) = (console_player("zed"), console_player("amy"));
        let mut tx = bot.core.store().begin().await.unwrap();
        voidmate_game::store::set_flip(&mut tx, &zed, Flip::Black).await.unwrap();
        voidmate_game::store::set_flip(&mut tx, &amy, Flip::White).await.unwrap();
        let intake = voidmate_game::store::intake(&mut tx, "ev-1", "room", &[&zed, &amy])
            .await
            .unwrap();
        assert!(intake.new);
        assert_eq!(intake.view.map(|(_, flip)| flip), Some(Flip::Black));
        tx.rollback().await.unwrap();
    }
}

case! {
    /// A connection is taken from the pool without a check when it came
    /// back less than a second ago (a round trip less in front of every
    /// move). One that broke in between (here: the server ended every
    /// session of the pool) fails at its `BEGIN`, and another is taken:
    /// the move is played, not answered with an error.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_connection_the_server_closed_is_replaced_before_a_move() {
        use sqlx::Connection as _;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let cfg = config(&path);
        let mut bot = Bot::with(cfg.clone()).await;
        start_game(&mut bot, "standard").await;
        let pool = bot.core.store().pool().clone();
        assert!(pool.size() >= 1 && pool.num_idle() >= 1);
        // From a connection of its own: end every other session on this
        // database, and wait until they are gone.
        let url = cfg.database.url.clone().unwrap();
        let mut admin = sqlx::AnyConnection::connect(&url).await.unwrap();
        let others = "SELECT count(*) FROM pg_stat_activity \
                      WHERE datname = current_database() AND pid <> pg_backend_pid()";
        let ended: Vec<(bool,)> = sqlx::query_as(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
             WHERE datname = current_database() AND pid <> pg_backend_pid()",
        )
        .fetch_all(&mut admin)
        .await
        .unwrap();
        assert!(!ended.is_empty() && ended.iter().all(|(done,)| *done));
        for _ in 0..500 {
            let (left,): (i64,) = sqlx::query_as(others).fetch_one(&mut admin).await.unwrap();
            if left == 0 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        let (left,): (i64,) = sqlx::query_as(others).fetch_one(&mut admin).await.unwrap();
        assert_eq!(left, 0, "the pool's sessions did not end");
        // The pool still holds its (dead) connections, idle for less than
        // the ping window: the move is played all the same.
        assert!(pool.num_idle() >= 1);
        let r = bot.ok("alice", "e4").await;
        assert!(r.text.starts_with("#1: alice played e4."), "{}", r.text);
        let r = bot.ok("bob", "e5").await;
        assert!(r.text.starts_with("#1: bob played e5."), "{}", r.text);
    }
}

case! {
    /// The game a move is about comes with the event's intake (the author's
    /// one game here) and is locked without a lookup. If it ends while the
    /// move waits for its lock, the move is looked up again and refused:
    /// nothing is played in an ended game.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_game_that_ends_while_a_move_waits_for_it_is_not_moved_in() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let cfg = config(&path);
        let mut bot = Bot::with(cfg.clone()).await;
        start_game(&mut bot, "standard").await;
        // Another pair's game in the same channel: not the author's.
        bot.ok("carol", "challenge @dave standard").await;
        bot.ok("dave", "accept").await;
        let holder = Core::open(&cfg).await.unwrap();
        let mut tx = holder.store().begin().await.unwrap();
        assert!(voidmate_game::store::lock_game(&mut tx, 1).await.unwrap().is_some());
        let other = Core::open(&cfg).await.unwrap();
        let ev = bot.event("alice", "move e4");
        let mover = tokio::spawn(async move { other.handle(&ev).await });
        // The move waits for game #1's lock (its intake done); then the
        // game ends and the lock is let go.
        let pool = holder.store().pool().clone();
        let mut waited = false;
        for _ in 0..500 {
            let (waiting,): (i64,) = sqlx::query_as(
                "SELECT count(*) FROM pg_stat_activity \
                 WHERE datname = current_database() AND wait_event_type = 'Lock'",
            )
            .fetch_one(&pool)
            .await
            .unwrap();
            if waiting > 0 {
                waited = true;
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        assert!(waited, "the move never waited for game #1's lock");
        sqlx::query("UPDATE games SET status = 'finished', result = '1-0', termination = 'resignation' WHERE id = 1")
            .execute(&mut *tx)
            .await
            .unwrap();
        tx.commit().await.unwrap();
        let r = mover.await.unwrap().expect("a reply");
        assert!(r.is_error, "{}", r.text);
        assert_eq!(
            r.text,
            "You have no game in progress here. Start one with `challenge @someone`."
        );
        let (moves,): (i64,) = sqlx::query_as("SELECT count(*) FROM moves")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(moves, 0);
        // Carol's game in the same channel is hers, found as before.
        let r = bot.ok("carol", "move e4").await;
        assert!(r.text.starts_with("#2: carol played e4."), "{}", r.text);
    }
}
