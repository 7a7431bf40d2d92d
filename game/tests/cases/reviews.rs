//! Issue 39, point 2: engine reviews through `Core::handle` and the periodic
//! check: queued as engine work, posted once when done, with marks,
//! accuracy and the graph; a review left half done by a process that died
//! is finished by another, from where it stopped, and posted once.

use super::support::*;

/// A configuration whose reviews search few nodes a position (fast tests).
fn review_config(path: &Path, nodes: u64) -> Config {
    let mut cfg = config(path);
    cfg.engine.review_nodes = nodes;
    cfg
}

/// Runs the periodic check until a review is posted, waiting for the
/// review's own task (engine work, in real time); returns the posted
/// notices.
async fn review_posted(bot: &mut Bot) -> Vec<voidmate_game::Notice> {
    for _ in 0..600 {
        let notices = bot.core.tick().await;
        if notices
            .iter()
            .any(|n| n.reply.text.as_str().starts_with("Review of"))
        {
            return notices;
        }
        for n in &notices {
            bot.core.delivered(n.id).await;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("no review was posted");
}

case! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_move_that_allows_mate_in_one_is_a_blunder() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let clock = Clock::manual(1_000_000);
        let mut bot = Bot::with_clock(review_config(&path, 20_000), clock.clone()).await;
        bot.ok("alice", "challenge @bob standard").await;
        bot.ok("bob", "accept").await;
        bot.refused(
            "alice",
            "analysis",
            "I review finished games: game #1 is still being played. `replay #1` shows it so far.",
        )
        .await;
        let moves = ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"];
        for (i, mv) in moves.iter().enumerate() {
            bot.ok(if i % 2 == 0 { "alice" } else { "bob" }, mv).await;
        }
        let queued = bot.ok("bob", "analysis").await;
        assert!(
            queued.text.starts_with("Game #1 is queued for the engine's review (8 positions"),
            "{}",
            queued.text
        );
        let again = bot.ok("alice", "review").await;
        assert!(again.text.contains("under way") || again.text.starts_with("Review of"), "{}", again.text);
        let notices = review_posted(&mut bot).await;
        let review = notices
            .iter()
            .find(|n| n.reply.text.as_str().starts_with("Review of"))
            .unwrap();
        let text = review.reply.text.as_str();
        assert!(text.contains("3... Nf6??"), "{text}");
        assert!(
            text.contains("  bob (Black)  accuracy") && text.contains("1 blunder"),
            "{text}"
        );
        for color in ["alice (White)  accuracy ", "bob (Black)  accuracy "] {
            let at = text.find(color).unwrap() + color.len();
            let pct: f64 = text[at..].split('%').next().unwrap().parse().unwrap();
            assert!((0.0..=100.0).contains(&pct), "{text}");
        }
        let graph = review.reply.image.as_ref().expect("the graph");
        assert_eq!(graph.format, voidmate_game::ImageFormat::Png);
        assert_eq!(graph.size(), Some(voidmate_render::GRAPH_SIZE));
        bot.core.delivered(review.id).await;
        // Posted once; asked again, shown at once, the same words.
        for _ in 0..5 {
            clock.advance(60_000);
            assert!(bot
                .core
                .tick()
                .await
                .iter()
                .all(|n| !n.reply.text.as_str().starts_with("Review of")));
        }
        let shown = bot.ok("alice", "analysis #1").await;
        assert_eq!(shown.text, text);
        assert!(shown.image.is_some());
        // The PGN carries the evaluations and the marks, and python-chess
        // reads both: an evaluation on each of the 7 moves, Nf6 a blunder
        // (NAG 4).
        let text = bot.ok("alice", "pgn").await.text.to_string();
        assert!(text.contains("Nf6??"), "{text}");
        assert!(text.contains("[%eval "), "{text}");
        assert_eq!(text.matches("[%eval ").count(), 7, "{text}");
    }
}

case! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_review_a_dead_process_left_half_done_is_finished_and_posted_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let clock = Clock::manual(1_000_000);
        let mut bot = Bot::with_clock(review_config(&path, 5_000), clock.clone()).await;
        bot.ok("alice", "challenge @bob standard").await;
        bot.ok("bob", "accept").await;
        for (i, mv) in ["f3", "e5", "g4", "Qh4#"].iter().enumerate() {
            bot.ok(if i % 2 == 0 { "alice" } else { "bob" }, mv).await;
        }
        // The replay notice comes and goes first.
        clock.advance(10_000);
        for n in bot.core.tick().await {
            bot.core.delivered(n.id).await;
        }
        bot.ok("alice", "analysis").await;
        // Another process took the review, evaluated two positions, and
        // died (SIGKILL: its lease is never renewed nor released).
        let pool = bot.core.store().pool().clone();
        let pool = &pool;
        let now = clock.now_ms();
        let dead = voidmate_game::store::Claim {
            by: "dead-host:4242:1",
            until_ms: now + 15_000,
        };
        let taken = voidmate_game::store::leases::claim_next(
            pool,
            voidmate_game::store::LeaseKind::Review,
            now,
            dead,
        )
        .await
        .unwrap()
        .expect("the review was queued");
        assert_eq!(taken, 1);
        for ply in 0..2 {
            voidmate_game::store::save_review_position(
                pool,
                1,
                ply,
                voidmate_game::review::Eval::Cp(20),
                Some("e4"),
            )
            .await
            .unwrap();
        }
        // While its lease holds, nobody else takes it.
        clock.advance(1_000);
        assert!(bot.core.tick().await.is_empty());
        assert_eq!(bot.core.leases().count(LeaseKind::Review), 0, "not taken");
        // After it: taken over, finished from where it stopped (the two
        // evaluations kept), posted once.
        clock.advance(20_000);
        let notices = review_posted(&mut bot).await;
        let posted: Vec<_> = notices
            .iter()
            .filter(|n| n.reply.text.as_str().starts_with("Review of"))
            .collect();
        assert_eq!(posted.len(), 1);
        bot.core.delivered(posted[0].id).await;
        let kept = voidmate_game::store::review_positions(pool, 1).await.unwrap();
        assert_eq!(kept.len(), 5, "every position once");
        assert_eq!(kept[1].1, voidmate_game::review::Eval::Cp(20), "the dead process's work kept");
        assert_eq!(kept[4].1, voidmate_game::review::Eval::Over(-1), "White is mated");
        // Done: never taken again.
        for _ in 0..3 {
            clock.advance(60_000);
            assert!(bot
                .core
                .tick()
                .await
                .iter()
                .all(|n| !n.reply.text.as_str().starts_with("Review of")));
            assert_eq!(bot.core.leases().count(LeaseKind::Review), 0);
        }
    }
}

case! {
    /// A game of the engine's own choices, at the review's effort, has no
    /// blunder in its review.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_game_of_the_engines_best_moves_has_no_blunder() {
        let nodes = 20_000;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let clock = Clock::manual(1_000_000);
        let mut bot = Bot::with_clock(review_config(&path, nodes), clock.clone()).await;
        bot.ok("alice", "challenge @bob standard").await;
        bot.ok("bob", "accept").await;
        let pool = voidmate_game::engine::EnginePool::new(1, 16);
        let mut pos = voidmate_rules::Position::new(voidmate_rules::variants::standard());
        for i in 0..16 {
            let (_, best) = pool.analyse(pos.clone(), nodes).await.expect("a move");
            let san = pos.san(&best);
            pos.play_unchecked(&best);
            bot.ok(if i % 2 == 0 { "alice" } else { "bob" }, &san).await;
            if pos.outcome().is_some() {
                break;
            }
        }
        if pos.outcome().is_none() {
            bot.ok(if pos.turn() == voidmate_rules::Color::White { "alice" } else { "bob" }, "resign").await;
        }
        bot.ok("alice", "analysis").await;
        let notices = review_posted(&mut bot).await;
        let text = notices
            .iter()
            .find(|n| n.reply.text.as_str().starts_with("Review of"))
            .unwrap()
            .reply
            .text
            .as_str()
            .to_string();
        assert_eq!(text.matches("0 blunders").count(), 2, "{text}");
        assert!(!text.contains("??"), "{text}");
    }
}
