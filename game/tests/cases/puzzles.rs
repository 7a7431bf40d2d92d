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

/// A moderator's line (a Discord member who may manage messages, a Matrix
/// room's moderator).
async fn as_moderator(bot: &mut Bot, who: &str, text: &str) -> Reply {
    let mut ev = bot.event(who, text);
    ev.moderator = true;
    let r = bot.core.handle(&ev).await.expect("a reply");
    bot.posted(&r).await;
    r
}

/// Two puzzles of standard chess in the community "room": P1 from a played
/// game (3...Nf6?? 4.Qxf7#, White solves), P2 stored beside it (a back
/// rank: 1...Re6?? 2.Rd8+ Re8 3.Rxe8#, two moves of White's).
async fn two_puzzles(bot: &mut Bot) {
    bot.ok("alice", "challenge @bob standard").await;
    bot.ok("bob", "accept").await;
    for (i, mv) in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"].iter().enumerate() {
        bot.ok(if i % 2 == 0 { "alice" } else { "bob" }, mv).await;
    }
    bot.ok("alice", "resign").await;
    assert_eq!(bot.core.run_puzzle_search(1).await.unwrap(), 1);
    let mut tx = bot.core.store().begin().await.unwrap();
    let p = voidmate_game::store::NewPuzzle {
        game_id: 1,
        ply: 99,
        community: Some("room"),
        platform: "console",
        kind: voidmate_rules::GameKind::Standard,
        fen: "4r1k1/5ppp/8/8/8/8/5PPP/R2R2K1 b - - 0 1".into(),
        moves: ["Re6", "Rd8+", "Re8", "Rxe8#"].map(String::from).to_vec(),
        score: 30_000,
        themes: vec!["mateIn2".into()],
    };
    assert!(voidmate_game::store::save_puzzle(&mut tx, &p, 1)
        .await
        .unwrap());
    tx.commit().await.unwrap();
}

async fn rating_row(bot: &Bot, who: &str) -> (i64, i64, f64) {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT solved, failed, rating FROM puzzle_ratings WHERE player = 'console:{who}'"
    )))
    .fetch_one(bot.core.store().pool())
    .await
    .unwrap()
}

case! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn puzzles_are_solved_in_chat_and_rated() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let cfg = config(&path);
        let mut bot = Bot::with(cfg.clone()).await;
        bot.refused("carol", "puzzle", "No puzzles here yet: they come from this server's finished games, searched by the engine after each one.").await;
        two_puzzles(&mut bot).await;

        // Bad input first: nothing changes.
        bot.refused("carol", "puzzle chess99", "No puzzles for Chess 99 here yet: they come from this server's finished games, searched by the engine after each one.").await;
        bot.refused("carol", "puzzle hint", "You have no puzzle open here: `puzzle` gives you one.").await;
        bot.refused("carol", "puzzle Nf3", "You have no puzzle open here: `puzzle` gives you one.").await;
        bot.refused("carol", "puzzle 99999", "a puzzle rated 99999? Name a rating from 400 to 3500, or `easy`, `normal` or `hard`.").await;
        let long = "ж".repeat(3000);
        let r = bot.say("carol", &format!("puzzle hint {long}")).await;
        assert!(r.is_error && r.text.as_str().chars().count() < 300, "{}", r.text);

        // Carol solves P1 (a mate in one) with a bare move: she has no game here.
        let r = bot.ok("carol", "puzzle").await;
        assert!(r.text.as_str().starts_with("Puzzle P1 (Standard chess, rated 1500?, from game #1): after Nf6, White to move: find the move that mates."), "{}", r.text);
        let image = r.image.as_ref().expect("the board");
        assert_eq!(image.format, voidmate_game::ImageFormat::Png);
        assert!(image.alt.contains("after Nf6"), "{}", image.alt);
        let r = bot.ok("carol", "puzzle").await;
        assert!(r.text.as_str().starts_with("You have this puzzle open here"), "one open at a time: {}", r.text);
        // Text that is no move is chatter, not an answer.
        let mut chatter = bot.event("carol", "hmm, nice");
        chatter.addressed = false;
        assert!(bot.core.handle(&chatter).await.is_none(), "chatter gets no answer");
        let before = snapshot(&bot.core).await;
        let r = bot.say("carol", "Qh8").await;
        assert!(r.is_error && r.text.as_str().ends_with("Puzzle P1 waits for your move."), "an illegal move is no answer: {}", r.text);
        assert_eq!(snapshot(&bot.core).await, before);
        let r = bot.ok("carol", "h5f7").await;
        assert!(r.text.as_str().starts_with("Qxf7#: solved! Your Standard chess puzzle rating 1500? -> "), "{}", r.text);
        assert_eq!(rating_row(&bot, "carol").await.0, 1);

        // P2, two moves deep: the reply comes, a hint settles it as failed,
        // the rest still solves it (unrated now).
        // Hard: 600 above her rating; nothing is near, so the nearest, said so.
        let r = bot.ok("carol", "puzzle hard").await;
        assert!(r.text.as_str().starts_with("No Standard chess puzzle you have not seen is left within 300 of 2"), "{}", r.text);
        assert!(r.text.as_str().contains("(hard): here is the nearest. Puzzle P2") && r.text.as_str().contains("(2 moves of yours)"), "{}", r.text);
        let r = bot.ok("carol", "Rd8+").await;
        assert_eq!(r.text.as_str(), "Rd8+: right! The answer is Re8. White to move: keep going.");
        let r = bot.ok("carol", "puzzle hint").await;
        assert!(r.text.as_str().starts_with("Hint for P2: move your rook on d8. The puzzle now counts as failed for your rating"), "{}", r.text);
        assert_eq!(rating_row(&bot, "carol").await.1, 1, "failed at the hint");
        let r = bot.ok("carol", "puzzle Rxe8#").await;
        assert_eq!(r.text.as_str(), "Rxe8#: solved! Your rating was settled at the hint. `puzzle` for another.");
        let (solved, failed, _) = rating_row(&bot, "carol").await;
        assert_eq!((solved, failed), (1, 1), "settled once");
        bot.refused("carol", "puzzle", "You have tried every Standard chess puzzle here: new ones come with new games.").await;

        // Dave fails P1 with a wrong move: the solution as an arrow and in SAN.
        bot.ok("dave", "puzzle").await;
        let r = bot.ok("dave", "d3").await;
        assert!(r.text.as_str().starts_with("d3 is not it: puzzle failed. The solution: Qxf7#."), "{}", r.text);
        assert!(r.image.is_some());
        bot.ok("dave", "puzzle").await;
        // `next` gives P2 up; none is left to give, and the skip stands.
        let r = bot.ok("dave", "puzzle next").await;
        assert!(r.text.as_str().starts_with("P2 skipped. Your Standard chess puzzle rating") && r.text.as_str().ends_with("You have tried every Standard chess puzzle here: new ones come with new games."), "{}", r.text);
        assert_eq!(rating_row(&bot, "dave").await.1, 2);
        bot.refused("dave", "Rd8+", "You have no game here to play Rd8+ in. Start one with `challenge @someone` (Void Chess on a 9x9 board unless you name another game; `variants` lists them).").await;

        // Puzzle ratings, the leaderboard, the profile.
        let r = bot.ok("dave", "rating puzzles @carol").await;
        assert!(r.text.as_str().contains("Puzzle ratings of carol here:\n  Standard chess  ") && r.text.as_str().contains("1 solved, 1 failed"), "{}", r.text);
        let r = bot.ok("dave", "leaderboard puzzles standard").await;
        assert!(r.text.as_str().contains("nobody yet (a place takes 5 rated puzzles)"), "{}", r.text);
        let r = bot.ok("dave", "profile").await;
        assert!(r.text.as_str().contains("\nPuzzles:\n  Standard chess  ") && r.text.as_str().contains("0 solved, 2 failed"), "{}", r.text);

        // Erin opens P1; the process dies; the puzzle waits where it was.
        bot.ok("erin", "puzzle").await;
        drop(bot);
        let mut bot = Bot::with(cfg.clone()).await;
        bot.n = 1000; // new events, not the first process's again
        let r = bot.ok("erin", "puzzle").await;
        assert!(r.text.as_str().contains("You have this puzzle open here") && r.text.as_str().contains("Puzzle P1"), "{}", r.text);

        // A move is for the game while Erin has one to move in here; `puzzle
        // MOVE` is for the puzzle whatever the games.
        bot.ok("erin", "challenge @frank standard").await;
        bot.ok("frank", "accept").await;
        let r = bot.ok("erin", "e4").await;
        assert!(!r.text.as_str().contains("solved"), "{}", r.text);
        assert_eq!(moves_in(&bot.core, 2).await, 1, "played in the game");
        let r = bot.ok("erin", "puzzle Qxf7#").await;
        assert!(r.text.as_str().starts_with("Qxf7#: solved!"), "{}", r.text);
        let r = bot.ok("erin", "puzzle").await;
        assert!(r.text.as_str().contains("Puzzle P2"), "{}", r.text);
        let r = bot.ok("erin", "puzzle skip").await;
        assert!(r.text.as_str().starts_with("P2 skipped. Your Standard chess puzzle rating"), "{}", r.text);
        bot.refused("erin", "puzzle skip", "You have no puzzle open here: `puzzle` gives you one.").await;
    }
}

case! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_channel_solves_its_daily_puzzle_together() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        // 08:00 UTC of some day.
        let day = 20_420_i64;
        let clock = Clock::manual(day * 86_400_000 + 8 * 3_600_000);
        let mut bot = Bot::with_clock(config(&path), clock.clone()).await;
        two_puzzles(&mut bot).await;
        bot.refused("carol", "puzzle daily", "No daily puzzle here: a moderator can have one posted every day with `settings daily-puzzle 09:00` (UTC).").await;
        bot.refused("carol", "settings daily-puzzle 09:00", "Only the moderators here may set the daily puzzle.").await;
        bot.refused("carol", "settings daily-puzzle 25:00", "`25:00` is no time of day: say `settings daily-puzzle 09:00` (UTC, 24 hours) or `settings daily-puzzle off`.").await;
        let r = as_moderator(&mut bot, "carol", "settings daily-puzzle 09:00").await;
        assert!(!r.is_error && r.text.as_str().contains(", a daily puzzle at 09:00 UTC"), "{}", r.text);
        assert!(bot.tick().await.is_empty(), "not before 09:00");

        clock.set(day * 86_400_000 + 9 * 3_600_000);
        let notices = bot.core.tick().await;
        let posts: Vec<_> = notices.iter().filter(|n| n.reply.text.as_str().starts_with("Puzzle of the day")).collect();
        assert_eq!(posts.len(), 1, "{:?}", notices.iter().map(|n| n.reply.text.to_string()).collect::<Vec<_>>());
        assert!(posts[0].reply.text.as_str().starts_with("Puzzle of the day, P"), "{}", posts[0].reply.text);
        assert!(posts[0].reply.image.is_some(), "with its board");
        for n in &notices {
            bot.core.delivered(n.id).await;
        }
        assert!(bot.tick().await.is_empty(), "one a day");
        let r = bot.ok("dave", "puzzle daily").await;
        assert!(r.text.as_str().starts_with("The daily puzzle P1 (Standard chess): after Nf6, White to move."), "{}", r.text);

        // A wrong move is told to its author alone, and changes nothing.
        let before = snapshot(&bot.core).await;
        let r = bot.say("carol", "a3").await;
        assert!(r.is_error && r.text.as_str().starts_with("a3 is not the move in the daily puzzle P1"), "{}", r.text);
        assert_eq!(r.audience, voidmate_game::Audience::Author);
        assert_eq!(snapshot(&bot.core).await, before);
        let r = bot.ok("dave", "Qxf7#").await;
        assert_eq!(r.text.as_str(), "dave found Qxf7#: the daily puzzle P1 is solved! Found first: dave (1). The next comes tomorrow.");
        bot.refused("carol", "Qxf7#", "You have no game here to play Qxf7# in. Start one with `challenge @someone` (Void Chess on a 9x9 board unless you name another game; `variants` lists them).").await;
        let r = bot.ok("erin", "puzzle daily").await;
        assert!(r.text.as_str().starts_with("The daily puzzle P1 (Standard chess) is solved: Qxf7#."), "{}", r.text);

        // The next day, the other puzzle, found by two.
        clock.set((day + 1) * 86_400_000 + 9 * 3_600_000 + 5_000);
        let texts = bot.tick().await;
        assert_eq!(texts.iter().filter(|t| t.starts_with("Puzzle of the day, P2")).count(), 1, "{texts:?}");
        let r = bot.ok("carol", "Rd8+").await;
        assert!(r.text.as_str().starts_with("carol found Rd8+ first! The answer is Re8."), "{}", r.text);
        let r = bot.ok("dave", "Rxe8#").await;
        assert!(r.text.as_str().contains("the daily puzzle P2 is solved! Found first: carol (1), dave (1)."), "{}", r.text);
        let r = bot.ok("dave", "profile").await;
        assert!(r.text.as_str().contains("Daily puzzle here: a move found first on 2 days; streak 2 days (best 2)."), "{}", r.text);

        // No puzzle left for the third day: nothing is posted.
        clock.set((day + 2) * 86_400_000 + 9 * 3_600_000 + 5_000);
        assert!(bot.tick().await.iter().all(|t| !t.starts_with("Puzzle of the day")));
        let r = as_moderator(&mut bot, "carol", "settings daily-puzzle off").await;
        assert!(r.text.as_str().contains(", no daily puzzle"), "{}", r.text);
    }
}
