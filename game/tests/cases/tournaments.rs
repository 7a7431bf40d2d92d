//! Issue 48: tournaments over days. A Swiss and a round robin played
//! through from creation to the final standings; rounds paired once, by a
//! process that reaches the deadline alone or together with another; no-shows
//! forfeited; bad input refused without a change.

use super::support::*;

/// The games of round `round` of tournament `t`: (game, white, black).
async fn round_games(core: &Core, t: i64, round: i64) -> Vec<(Option<i64>, String, String)> {
    sqlx::query_as(
        "SELECT game_id, white, black FROM tournament_games WHERE tournament_id = $1 AND round = $2 ORDER BY board",
    )
    .bind(t)
    .bind(round)
    .fetch_all(core.store().pool())
    .await
    .unwrap()
}

/// The player's name from a console id (`console:alice`).
fn name_of(id: &str) -> String {
    id.trim_start_matches("console:").to_string()
}

/// How many rounds of tournament `t` are paired.
async fn paired_rounds(core: &Core, t: i64) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM tournament_rounds WHERE tournament_id = $1")
        .bind(t)
        .fetch_one(core.store().pool())
        .await
        .unwrap()
}

/// Plays out each game of a round: White resigns in odd games, Black in
/// even ones (after a move each, so the games count as played).
async fn play_round(bot: &mut Bot, t: i64, round: i64) {
    let games = round_games(&bot.core, t, round).await;
    for (k, (game, white, black)) in games.into_iter().enumerate() {
        let Some(game) = game else { continue };
        let (w, b) = (name_of(&white), name_of(&black));
        bot.ok(&w, &format!("e4 #{game}")).await;
        bot.ok(&b, &format!("e5 #{game}")).await;
        let loser = if k % 2 == 0 { &w } else { &b };
        bot.ok(loser, &format!("resign #{game}")).await;
    }
}

case! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_swiss_is_played_from_creation_to_the_final_standings() {
        let dir = tempfile::tempdir().unwrap();
        let clock = Clock::manual(wall_ms());
        let mut bot = Bot::with_clock(config(&dir.path().join("v.db")), clock.clone()).await;
        let r = bot
            .ok("alice", "tournament create swiss standard 3d rounds 3 round-days 2")
            .await;
        assert!(r.text.as_str().starts_with("T1 is open: a Swiss of 3 rounds"), "{}", r.text);
        assert_eq!(r.join, Some(1));
        for p in ["bob", "carol", "dave", "erin", "fred"] {
            let r = bot.ok(p, "tournament join").await;
            assert!(r.text.as_str().contains(&format!("{p} joins T1")), "{}", r.text);
        }
        bot.refused("bob", "tournament join", "You are already in T1.").await;
        bot.refused(
            "bob",
            "tournament start",
            "Only T1's organiser or a moderator here can do that.",
        )
        .await;
        let r = bot.ok("alice", "tournament start").await;
        assert!(r.text.as_str().contains("Round 1 of T1 is paired"), "{}", r.text);
        // The announcement was queued with the start: it is posted before
        // the reply.
        let notices: Vec<String> = r.before.iter().map(|n| n.reply.text.to_string()).collect();
        let announcement = notices
            .iter()
            .find(|n| n.contains("round 1 of 3"))
            .unwrap_or_else(|| panic!("no announcement in {notices:?}"));
        assert!(announcement.contains("Board 1: game #"), "{announcement}");
        assert!(announcement.contains("Bye: "), "five players: {announcement}");
        // Five players: two games and a bye.
        let games = round_games(&bot.core, 1, 1).await;
        assert_eq!(games.len(), 2);
        for round in 1..=3 {
            assert_eq!(paired_rounds(&bot.core, 1).await, round);
            play_round(&mut bot, 1, round).await;
            bot.tick().await;
        }
        // All three rounds played: over, with the final standings posted.
        let status: String = sqlx::query_scalar("SELECT status FROM tournaments WHERE id = 1")
            .fetch_one(bot.core.store().pool())
            .await
            .unwrap();
        assert_eq!(status, "finished");
        let r = bot.ok("bob", "standings").await;
        assert!(r.text.as_str().contains("SB = Sonneborn-Berger"), "{}", r.text);
        let table = r.table.expect("a table");
        assert_eq!(table.rows.len(), 6, "a header and five players");
        assert_eq!(table.rows[0][..4], ["#", "Player", "Pts", "SB"]);
        // Nobody met anybody twice, and nobody had two byes.
        let pairs: Vec<(String, String)> =
            sqlx::query_as("SELECT white, black FROM tournament_games WHERE tournament_id = 1")
                .fetch_all(bot.core.store().pool())
                .await
                .unwrap();
        let mut seen = std::collections::HashSet::new();
        for (w, b) in &pairs {
            let key = if w < b { (w, b) } else { (b, w) };
            assert!(seen.insert(key), "{w} and {b} met twice");
        }
        let byes: Vec<String> = sqlx::query_scalar(
            "SELECT bye FROM tournament_rounds WHERE tournament_id = 1 AND bye IS NOT NULL",
        )
        .fetch_all(bot.core.store().pool())
        .await
        .unwrap();
        let distinct: std::collections::HashSet<_> = byes.iter().collect();
        assert_eq!(byes.len(), 3);
        assert_eq!(distinct.len(), 3, "byes: {byes:?}");
        // Each player's profile lists the tournament.
        let r = bot.ok("bob", "profile").await;
        assert!(r.text.as_str().contains("T1"), "{}", r.text);
    }
}

/// Says something that must be refused with words containing `part`,
/// changing nothing stored.
async fn refused_with(bot: &mut Bot, who: &str, text: &str, part: &str) {
    let before = snapshot(&bot.core).await;
    let r = bot.say(who, text).await;
    assert!(r.is_error, "{text} should be refused, got: {}", r.text);
    assert!(r.text.as_str().contains(part), "{text}: {}", r.text);
    assert_eq!(
        snapshot(&bot.core).await,
        before,
        "{text} changed the stored state"
    );
}

case! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn bad_tournament_commands_get_a_clear_reply_and_change_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        for (text, part) in [
            ("tournament create knockout void 3d", "not a tournament format"),
            ("tournament create swiss quantumchess 3d", "I do not understand `quantumchess`"),
            ("tournament create swiss void 3d rounds 0", "3 to 30 rounds, not 0"),
            ("tournament create swiss void 3d rounds 101", "3 to 30 rounds, not 101"),
            ("tournament create roundrobin void 3d max 2", "3 to 20 players"),
            ("tournament create roundrobin void 3d max 21", "3 to 20 players"),
            ("tournament create swiss void 3d starts 2020-01-01 10:00", "has passed"),
            ("tournament create swiss void", "needs a clock"),
            ("tournament join", "There is no tournament here"),
            ("tournament T9 standings", "There is no tournament T9"),
            ("tournament fly", "`tournament fly`?"),
        ] {
            refused_with(&mut bot, "alice", text, part).await;
        }
        bot.ok("alice", "tournament create roundrobin standard 3d").await;
        for p in ["bob", "carol", "dave"] {
            bot.ok(p, "tournament join").await;
        }
        refused_with(&mut bot, "bob", "tournament join T1", "You are already in T1.").await;
        refused_with(&mut bot, "bob", "tournament start", "Only T1's organiser").await;
        refused_with(&mut bot, "bob", "tournament kick @carol", "Only T1's organiser").await;
        refused_with(&mut bot, "alice", "tournament forbid @bob @bob", "are one player").await;
        refused_with(&mut bot, "alice", "tournament withdraw", "You are not in T1").await;
        // Multi-byte and oversized names are names like any other, and the
        // round robin fills up at 20.
        for k in 0..17 {
            let name = format!("名前{k}{}", "é".repeat(40));
            let r = bot.say_as(console_player(&name), "tournament join").await;
            assert!(!r.is_error, "{}", r.text);
        }
        refused_with(&mut bot, "zed", "tournament join", "T1 is full (20 players)").await;
        bot.ok("alice", "tournament start").await;
        refused_with(&mut bot, "bob", "tournament leave", "has started, so you cannot leave it").await;
        refused_with(&mut bot, "zed", "tournament join", "a round robin's players are fixed").await;
        refused_with(&mut bot, "alice", "tournament start", "has already started").await;
        // A second tournament here: commands must name one.
        bot.ok("carol", "tournament create swiss void 3+2").await;
        refused_with(&mut bot, "bob", "tournament standings", "Several tournaments run here: T2, T1").await;
        let r = bot.ok("bob", "tournament standings T1").await;
        assert!(r.text.as_str().contains("Standings of T1"), "{}", r.text);
        // A round robin of two cannot start.
        bot.ok("dave", "tournament create roundrobin void 3d").await;
        bot.ok("erin", "tournament join T3").await;
        refused_with(&mut bot, "dave", "tournament start T3", "needs at least 3").await;
    }
}

case! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_double_round_robin_gives_everyone_a_bye_and_ends_with_a_crosstable() {
        let dir = tempfile::tempdir().unwrap();
        let clock = Clock::manual(wall_ms());
        let mut bot = Bot::with_clock(config(&dir.path().join("v.db")), clock.clone()).await;
        bot.ok("alice", "tournament create roundrobin standard 10+5 double").await;
        for p in ["alice", "bob", "carol"] {
            bot.ok(p, "tournament join").await;
        }
        let r = bot.ok("alice", "tournament start").await;
        let announcement = r.before[0].reply.text.to_string();
        assert!(announcement.contains("round 1 of 6"), "{announcement}");
        assert!(announcement.contains("Bye: "), "{announcement}");
        for round in 1..=6 {
            assert_eq!(paired_rounds(&bot.core, 1).await, round);
            assert_eq!(round_games(&bot.core, 1, round).await.len(), 1);
            play_round(&mut bot, 1, round).await;
            bot.tick().await;
        }
        // Everyone met everyone twice, once with each colour.
        let pairs: Vec<(String, String)> =
            sqlx::query_as("SELECT white, black FROM tournament_games WHERE tournament_id = 1")
                .fetch_all(bot.core.store().pool())
                .await
                .unwrap();
        assert_eq!(pairs.len(), 6);
        for (w, b) in &pairs {
            assert!(pairs.contains(&(b.clone(), w.clone())), "{w}-{b} not reversed");
        }
        // Points are the games' alone: 6 games, 6 points; a bye is a round
        // off (points are stored in halves).
        let halves: Vec<i64> = sqlx::query_scalar(
            "SELECT points FROM tournament_standings WHERE tournament_id = 1 AND after_round = 6",
        )
        .fetch_all(bot.core.store().pool())
        .await
        .unwrap();
        assert_eq!(halves.len(), 3);
        assert_eq!(halves.iter().sum::<i64>(), 12, "{halves:?}");
        let r = bot.ok("bob", "standings").await;
        assert!(r.text.as_str().contains("DE = direct encounter"), "{}", r.text);
        let image = r.image.expect("a crosstable");
        let png = image::load_from_memory(&image.png).unwrap();
        assert!(png.width() > 200 && png.height() > 60, "{}x{}", png.width(), png.height());
        assert!(image.alt.starts_with("Crosstable"), "{}", image.alt);
    }
}

case! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn no_shows_lose_by_forfeit_at_the_deadline_and_are_not_paired_again() {
        let dir = tempfile::tempdir().unwrap();
        let clock = Clock::manual(wall_ms());
        let mut cfg = config(&dir.path().join("v.db"));
        cfg.clock.day_seconds = 100; // a "day" is 100 seconds here
        let mut bot = Bot::with_clock(cfg, clock.clone()).await;
        bot.ok("alice", "tournament create swiss standard 3d rounds 3 round-days 2").await;
        for p in ["p1", "p2", "p3", "p4", "p5", "p6"] {
            bot.ok(p, "tournament join").await;
        }
        bot.ok("alice", "tournament start").await;
        let games = round_games(&bot.core, 1, 1).await;
        assert_eq!(games.len(), 3);
        // Board 1 is played; on board 2 White never moves but Black says
        // here; on board 3 nobody shows up.
        let (g1, w1, b1) = games[0].clone();
        let g1 = g1.unwrap();
        bot.ok(&name_of(&w1), &format!("e4 #{g1}")).await;
        bot.ok(&name_of(&b1), &format!("e5 #{g1}")).await;
        bot.ok(&name_of(&w1), &format!("resign #{g1}")).await;
        let (_, w2, b2) = games[1].clone();
        let r = bot.ok(&name_of(&b2), "tournament here").await;
        assert!(r.text.as_str().contains("is here for round 1"), "{}", r.text);
        let (_, w3, b3) = games[2].clone();
        // A day before the deadline: the reminders.
        clock.advance(100_500);
        let notices = bot.tick().await;
        let reminders: Vec<&String> = notices.iter().filter(|n| n.contains("has not started")).collect();
        assert_eq!(reminders.len(), 2, "{notices:?}");
        // The deadline: forfeits, then round 2 without the absent players.
        clock.advance(100_000);
        let notices = bot.tick().await;
        let all = notices.join("\n");
        assert!(all.contains(&format!("{} did not make a first move in time", name_of(&w2))), "{all}");
        assert!(all.contains(&format!("neither {} nor {} showed up", name_of(&w3), name_of(&b3))), "{all}");
        let outcomes: Vec<Option<String>> = sqlx::query_scalar(
            "SELECT outcome FROM tournament_games WHERE tournament_id = 1 AND round = 1 ORDER BY board",
        )
        .fetch_all(bot.core.store().pool())
        .await
        .unwrap();
        assert_eq!(outcomes[1].as_deref(), Some("-+"));
        assert_eq!(outcomes[2].as_deref(), Some("--"));
        assert_eq!(paired_rounds(&bot.core, 1).await, 2);
        let round2: Vec<String> = round_games(&bot.core, 1, 2)
            .await
            .into_iter()
            .flat_map(|(_, w, b)| [w, b])
            .collect();
        for absent in [&w2, &w3, &b3] {
            assert!(!round2.contains(absent), "{absent} is absent: {round2:?}");
        }
        // A forfeit is not rated and not a game played: the two can meet later.
        let rated: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM rating_changes")
            .fetch_one(bot.core.store().pool())
            .await
            .unwrap();
        assert_eq!(rated, 2, "only the game played is rated");
        // Back for round 3.
        let r = bot.ok(&name_of(&w2), "tournament rejoin").await;
        assert!(r.text.as_str().contains("is back in T1"), "{}", r.text);
        play_round(&mut bot, 1, 2).await;
        bot.tick().await;
        let round3: Vec<String> = round_games(&bot.core, 1, 3)
            .await
            .into_iter()
            .flat_map(|(_, w, b)| [w, b])
            .collect();
        assert!(round3.contains(&w2) || sqlx::query_scalar::<_, Option<String>>("SELECT bye FROM tournament_rounds WHERE tournament_id = 1 AND round = 3").fetch_one(bot.core.store().pool()).await.unwrap().as_deref() == Some(w2.as_str()), "{w2} rejoined: {round3:?}");
    }
}

case! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_late_joiner_gets_half_a_point_once_for_the_rounds_missed() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        bot.ok("alice", "tournament create swiss standard 3+2 rounds 5").await;
        for p in ["p1", "p2", "p3", "p4"] {
            bot.ok(p, "tournament join").await;
        }
        bot.ok("alice", "tournament start").await;
        play_round(&mut bot, 1, 1).await;
        bot.tick().await;
        play_round(&mut bot, 1, 2).await;
        bot.tick().await;
        // Round 3 of 5 is paired: past half, too late.
        refused_with(&mut bot, "late", "tournament join", "late entries close after round 2").await;
        let dir2 = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir2.path().join("v.db")).await;
        bot.ok("alice", "tournament create swiss standard 3+2 rounds 5").await;
        for p in ["p1", "p2", "p3", "p4"] {
            bot.ok(p, "tournament join").await;
        }
        bot.ok("alice", "tournament start").await;
        play_round(&mut bot, 1, 1).await;
        bot.tick().await;
        // Round 2 of 5 is paired: joining now plays from round 3, with ½
        // point once for the two rounds missed (as lichess scores it).
        let r = bot.ok("late", "tournament join").await;
        assert!(r.text.as_str().contains("from round 3, with ½ point for the 2 rounds you missed"), "{}", r.text);
        play_round(&mut bot, 1, 2).await;
        bot.tick().await;
        let r = bot.ok("late", "tournament history").await;
        assert!(r.text.as_str().contains("Round 1: not yet joined, ½"), "{}", r.text);
        assert!(r.text.as_str().contains("Round 2: not yet joined, 0"), "{}", r.text);
        assert!(r.text.as_str().contains("late in T1 (Swiss"), "{}", r.text);
        assert!(r.text.as_str().contains("): ½ point"), "{}", r.text);
        let paired: Vec<String> = round_games(&bot.core, 1, 3)
            .await
            .into_iter()
            .flat_map(|(_, w, b)| [w, b])
            .collect();
        let bye: Option<String> = sqlx::query_scalar("SELECT bye FROM tournament_rounds WHERE tournament_id = 1 AND round = 3")
            .fetch_one(bot.core.store().pool())
            .await
            .unwrap();
        assert!(paired.contains(&"console:late".to_string()) || bye.as_deref() == Some("console:late"));
    }
}

case! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_round_is_paired_once_by_two_processes_and_after_a_crash() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let clock = Clock::manual(wall_ms());
        let mut cfg = config(&path);
        cfg.clock.day_seconds = 100;
        let mut bot = Bot::with_clock(cfg.clone(), clock.clone()).await;
        let other = Core::open_with_time(&cfg, clock.clone()).await.unwrap();
        bot.ok("alice", "tournament create swiss standard 3d rounds 4 round-days 1").await;
        for p in ["p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"] {
            bot.ok(p, "tournament join").await;
        }
        bot.ok("alice", "tournament start").await;
        play_round(&mut bot, 1, 1).await;
        // A crash while round 2 is being paired: the process stops in the
        // middle of the transaction (held up by another writer), which is
        // never committed.
        let locker = Locker::hold(&path).await;
        let cut = tokio::time::timeout(std::time::Duration::from_millis(700), bot.core.tick()).await;
        assert!(cut.is_err(), "the pairing was held up and cut short");
        locker.release().await;
        assert_eq!(paired_rounds(&bot.core, 1).await, 1, "nothing of the cut pairing stayed");
        // Two processes reach the round's end together.
        let (a, b) = tokio::join!(bot.core.tick(), other.tick());
        drop((a, b));
        bot.tick().await;
        other.tick().await;
        assert_eq!(paired_rounds(&bot.core, 1).await, 2);
        let games = round_games(&bot.core, 1, 2).await;
        assert_eq!(games.len(), 4, "one set of games: {games:?}");
        let created: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games")
            .fetch_one(bot.core.store().pool())
            .await
            .unwrap();
        assert_eq!(created, 8, "four games a round, two rounds");
        let announced: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM tournament_standings WHERE tournament_id = 1 AND after_round = 1")
            .fetch_one(bot.core.store().pool())
            .await
            .unwrap();
        assert_eq!(announced, 8, "the standings after round 1, once");
    }
}
