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
