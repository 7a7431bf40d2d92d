//! Issue 49, point 1: every finished game is queued for a puzzle search as
//! engine work; the search finds the puzzle a blunder left (a mate in one
//! here), stores it once when two processes race over the game, and the
//! periodic check takes queued searches under their lease.

use super::support::*;

/// A configuration that searches for puzzles, with few nodes a search.
fn puzzle_config(path: &Path) -> Config {
    let mut cfg = config(path);
    cfg.engine.puzzle_searches = true;
    cfg.engine.puzzle_nodes = 20_000;
    cfg
}

async fn scalar(bot: &Bot, sql: &str) -> i64 {
    sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_string()))
        .fetch_one(bot.core.store().pool())
        .await
        .unwrap()
}

case! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_blunder_in_a_finished_game_becomes_one_puzzle() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let clock = Clock::manual(1_000_000);
        let cfg = puzzle_config(&path);
        let mut bot = Bot::with_clock(cfg.clone(), clock.clone()).await;
        let other = Core::open_with_time(&cfg, clock.clone()).await.unwrap();
        bot.ok("alice", "challenge @bob standard").await;
        bot.ok("bob", "accept").await;
        // 3...Nf6?? allows Qxf7#; White resigns instead of mating.
        for (i, mv) in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"].iter().enumerate() {
            bot.ok(if i % 2 == 0 { "alice" } else { "bob" }, mv).await;
        }
        assert_eq!(scalar(&bot, "SELECT COUNT(*) FROM puzzle_searches").await, 0, "a game in play is not searched");
        bot.ok("alice", "resign").await;
        assert_eq!(scalar(&bot, "SELECT COUNT(*) FROM puzzle_searches WHERE game_id = 1 AND done_ms IS NULL").await, 1);
        // An aborted game is no game: nothing to search.
        bot.ok("alice", "challenge @bob standard").await;
        bot.ok("bob", "accept").await;
        bot.ok("alice", "abort").await;
        assert_eq!(scalar(&bot, "SELECT COUNT(*) FROM puzzle_searches").await, 1);

        // Two processes search game 1 at once: one puzzle is stored.
        let (a, b) = tokio::join!(bot.core.run_puzzle_search(1), other.run_puzzle_search(1));
        let (a, b) = (a.unwrap(), b.unwrap());
        assert_eq!(a + b, 1, "stored once: {a} + {b}");
        let (fen, moves, themes, community): (String, String, String, Option<String>) = sqlx::query_as(
            "SELECT fen, moves, themes, community FROM puzzles WHERE game_id = 1",
        )
        .fetch_one(bot.core.store().pool())
        .await
        .unwrap();
        assert_eq!(moves, "Nf6 Qxf7#");
        assert_eq!(themes, "mateIn1 oneMove");
        assert!(fen.starts_with("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b"), "{fen}");
        assert_eq!(community.as_deref(), Some("room"), "the game's community");
        assert_eq!(scalar(&bot, "SELECT COUNT(*) FROM puzzle_searches WHERE done_ms IS NOT NULL AND found = 1").await, 1);

        // The periodic check takes a queued search under its lease.
        bot.ok("bob", "challenge @alice standard").await;
        bot.ok("alice", "accept").await;
        for (i, mv) in ["f3", "e5", "g4"].iter().enumerate() {
            bot.ok(if i % 2 == 0 { "bob" } else { "alice" }, mv).await;
        }
        bot.ok("bob", "resign").await;
        let game: i64 = scalar(&bot, "SELECT MAX(game_id) FROM puzzle_searches").await;
        for _ in 0..600 {
            bot.core.tick().await;
            if scalar(&bot, &format!("SELECT COUNT(*) FROM puzzle_searches WHERE game_id = {game} AND done_ms IS NOT NULL")).await == 1 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        // 2...Qh4# was there for Black after 2.g4??: a mate in one.
        let moves: String = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT moves FROM puzzles WHERE game_id = {game}")))
            .fetch_one(bot.core.store().pool())
            .await
            .unwrap();
        assert_eq!(moves, "g4 Qh4#");
    }
}
