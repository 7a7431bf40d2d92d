//! The core's own cases: whole games, every kind of bad input, restarts,
//! races, redelivered events, delivery and the engine's turns.

use super::ratings::rated_game;
use super::support::*;

case! {
    /// Issue 17, point 3: a player is an identity. A new display name shows in
    /// replies and the board's caption, and keeps every game; someone else who
    /// takes the old name has nothing; a name typed without a mention finds the
    /// one player seen under it, and an unknown name is refused, not invented.
    #[tokio::test]
    async fn players_are_identities_and_names_only_show() {
        use voidmate_game::Player;
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        start_game(&mut bot, "standard").await;
        let alicia = Player::new(id("alice"), "Alicia");
        let r = bot.say_as(alicia.clone(), "e4").await;
        assert_eq!(r.text, "#1: Alicia played e4. bob, your move.");
        let card = r.image.unwrap().board.unwrap();
        assert_eq!(
            (card.white.as_str(), card.black.as_str()),
            ("Alicia", "bob")
        );
        let r = bot.ok("bob", "e5").await;
        assert_eq!(r.text, "#1: bob played e5. Alicia, your move.");
        assert_eq!(r.notify, std::slice::from_ref(&alicia));

        let before = snapshot(&bot.core).await;
        let impostor = Player::new(voidmate_game::PlayerId::new("console", "eve"), "alice");
        for cmd in ["resign", "Nf3", "draw", "move Nf3 #1"] {
            let r = bot.say_as(impostor.clone(), cmd).await;
            assert!(r.is_error, "{cmd}: {}", r.text);
        }
        assert_eq!(
            snapshot(&bot.core).await,
            before,
            "the impostor changed nothing"
        );

        // carol names her opponent as the platform last showed them.
        let r = bot.ok("carol", "challenge alicia").await;
        assert!(
            r.text.contains("@Alicia, carol challenges you"),
            "{}",
            r.text
        );
        assert_eq!(r.notify, [alicia]);
        bot.refused(
            "dave",
            "challenge zed",
            "I do not know who `zed` is. Mention them (type @ and pick them) so that I know whom you mean.",
        )
        .await;
    }
}

case! {
    /// Issue 20, point 5: what the void does is said with the move, and a
    /// piece left on its own side's unstable tile is warned of, in the move's
    /// reply and in `board`.
    #[tokio::test]
    async fn what_the_void_does_is_said() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        start_game(&mut bot, "void").await;
        bot.ok("alice", "e4").await;
        bot.ok("bob", "d6").await;
        bot.ok("alice", "e5").await;
        let r = bot.ok("bob", "dxe5").await;
        assert!(
            r.text
                .contains("bob, your pawn on e5 falls after your next move unless it moves."),
            "{}",
            r.text
        );
        let b = bot.ok("alice", "board").await;
        assert!(
            b.text
                .contains("bob, your pawn on e5 falls after your next move"),
            "{}",
            b.text
        );
        bot.ok("alice", "d4").await;
        let r = bot.ok("bob", "a6").await;
        assert!(
            r.text.contains("bob's pawn on e5 fell into the void."),
            "{}",
            r.text
        );
        let b = bot.ok("alice", "board").await;
        assert!(!b.text.contains("falls after"), "{}", b.text);
    }
}

case! {
    #[tokio::test]
    async fn a_whole_game_from_challenge_to_checkmate() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        let c = bot.ok("alice", "challenge @bob standard").await;
        assert_eq!(names(&c.notify), ["bob"]);
        let a = bot.ok("bob", "accept").await;
        assert!(a.image.is_some());
        assert_eq!(names(&a.notify), ["alice"]);
        bot.ok("alice", "move f3").await;
        bot.ok("bob", "e5").await;
        bot.ok("alice", "g4").await;
        let mate = bot.ok("bob", "Qh4#").await;
        assert_eq!(
            mate.text,
            "#1: bob played Qh4#. Black wins: checkmate. Result: 0-1. Ratings: alice 1500? -> 1338? (-162), bob 1500? -> 1662? (+162)."
        );
        let png = mate.image.unwrap().png;
        assert_eq!(&png[1..4], b"PNG");
        bot.refused("alice", "move e3 #1", "Game #1 is over (0-1).")
            .await;
        bot.refused(
            "alice",
            "move e3",
            "You have no game in progress here. Start one with `challenge @someone`.",
        )
        .await;
        let pgn = bot.ok("alice", "pgn").await;
        assert!(
            pgn.text.contains("[Result \"0-1\"]") && pgn.text.ends_with("1. f3 e5 2. g4 Qh4# 0-1"),
            "{}",
            pgn.text
        );
    }
}

case! {
    #[tokio::test]
    async fn a_void_chess_game_keeps_its_tiles() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        start_game(&mut bot, "void").await;
        play(&mut bot, VOID_OPENING).await;
        let fen: String = sqlx::query_scalar("SELECT fen FROM games WHERE id = 1")
            .fetch_one(bot.core.store().pool())
            .await
            .unwrap();
        assert!(fen.ends_with("unstable:e5b3"), "{fen}");
        let board = bot.ok("bob", "board").await;
        assert!(board.text.contains("alice to move"));
    }
}

case! {
    #[tokio::test]
    async fn every_bad_input_gets_a_specific_reply_and_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        bot.refused(
            "alice",
            "dance",
            "I do not know the command `dance`. Say `help` for the list.",
        )
        .await;
        // A misspelt command word: the one meant.
        for (typed, meant) in [("acept", "accept"), ("resing", "resign"), ("borad", "board")] {
            bot.refused(
                "alice",
                typed,
                &format!("I do not know the command `{typed}`: did you mean `{meant}`? Say `help` for the list."),
            )
            .await;
        }
        // First contact: where to start, not a rules passage.
        for hello in ["hi", "hello voidmate", "thanks!", "what can you do?", "how do I start a game?"] {
            let r = bot.ok("alice", hello).await;
            for named in ["`challenge @someone`", "`rules`", "`help`"] {
                assert!(r.text.contains(named), "{hello}: {}", r.text);
            }
        }
        bot.refused(
            "alice",
            "challenge @alice",
            "You cannot challenge yourself. Challenge another player with `challenge @name`.",
        )
        .await;
        // The built-in games, then those read from files (which other
        // cases may add to while this one runs).
        let before = snapshot(&bot.core).await;
        let r = bot.say("alice", "challenge @bob xiangqi").await;
        assert!(
            r.is_error
                && r.text.starts_with(
                    "'xiangqi' is not a variant I know; try one of: standard, void, antichess, suicide-void, suicide-void-pw, chess99, black-holes, super16, capablanca, "
                ),
            "{}",
            r.text
        );
        assert_eq!(snapshot(&bot.core).await, before);
        bot.refused(
            "alice",
            "move e4",
            "You have no game in progress here. Start one with `challenge @someone`.",
        )
        .await;
        bot.refused("bob", "accept", "No challenge is waiting for you here.")
            .await;
        bot.ok("alice", "challenge @bob void").await;
        // Issue 43, point 3: a second challenge to the same person is
        // refused by name; one to someone else waits beside the first.
        bot.refused(
            "alice",
            "challenge @bob standard",
            "You already have a challenge waiting for bob here. Wait for an answer, or withdraw it with `decline @bob`.",
        )
        .await;
        bot.ok("alice", "challenge @carol").await;
        bot.refused(
            "alice",
            "decline",
            "You have several challenges here; name the player, like `decline @bob`.",
        )
        .await;
        bot.ok("alice", "decline @carol").await;
        bot.refused(
            "bob",
            "challenge @alice",
            "alice has already challenged you here: say `accept` to play.",
        )
        .await;
        bot.ok("bob", "accept").await;
        bot.refused(
            "bob",
            "move e6",
            "It is not your turn in game #1: alice is to move.",
        )
        .await;
        bot.refused(
            "alice",
            "move e5",
            "e5 is illegal: no pawn of yours can move to e5.",
        )
        .await;
        bot.refused(
            "alice",
            "move Zz9",
            "Zz9: z9 is not on this board (files a-i, ranks 1-9).",
        )
        .await;
        bot.refused(
            "alice",
            "move e4 #7",
            "There is no game #7 in this channel.",
        )
        .await;
        bot.refused("carol", "move e4 #1", "You are not playing in game #1.")
            .await;
        bot.refused(
            "carol",
            "resign",
            "You have no game in progress here. Start one with `challenge @someone`.",
        )
        .await;
        bot.refused(
            "bob",
            "draw accept",
            "There is no draw offer from alice to answer in game #1.",
        )
        .await;
        bot.refused(
            "alice",
            "undo",
            "You have no move to take back in game #1 yet.",
        )
        .await;
        bot.refused(
            "alice",
            "moves z9",
            "`z9` is not a square of this board (files a-i, ranks 1-9).",
        )
        .await;
        bot.refused(
            "alice",
            "settings colour red",
            "Settings: `settings bare-moves on|off`, `settings theme classic|high-contrast`, `settings replays on|off`, `settings daily-puzzle 09:00|off`, or for your own boards `settings flip auto|white|black`.",
        )
        .await;
        let long = "e4 ".repeat(300);
        bot.refused(
            "alice",
            &long,
            "That message is too long for me (900 characters; commands are at most 500).",
        )
        .await;
        bot.refused("alice", "", "say something, like `help`").await;
    }
}

case! {
    #[tokio::test]
    async fn a_game_survives_a_restart_exactly_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let before;
        {
            let mut bot = Bot::open(&path).await;
            start_game(&mut bot, "void").await;
            play(&mut bot, VOID_OPENING).await;
            bot.ok("alice", "draw").await;
            before = snapshot(&bot.core).await;
        }
        let mut bot = Bot::open(&path).await;
        bot.channel = "room".into();
        bot.n = 1000;
        assert_eq!(snapshot(&bot.core).await, before);
        // The draw offer still stands after the restart, and play goes on.
        let r = bot.ok("bob", "draw decline").await;
        assert_eq!(r.text, "bob declines the draw in game #1.");
        let r = bot.ok("alice", "dxe5").await;
        assert!(r.text.starts_with("#1: alice played dxe5."), "{}", r.text);
        let h = bot.ok("bob", "history").await;
        assert_eq!(
            h.text,
            "#1 alice vs bob (Void Chess): 1. e4 d6 2. d4 e6 3. e5 dxe5 4. dxe5"
        );
    }
}

case! {
    #[tokio::test]
    async fn a_redelivered_event_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        start_game(&mut bot, "standard").await;
        let ev = bot.event("alice", "e4");
        assert!(bot.core.handle(&ev).await.is_some());
        let after_first = snapshot(&bot.core).await;
        assert!(
            bot.core.handle(&ev).await.is_none(),
            "the same event id twice"
        );
        assert_eq!(snapshot(&bot.core).await, after_first);
        // A refused command's redelivery is ignored too.
        let bad = bot.event("alice", "e5");
        assert!(bot.core.handle(&bad).await.unwrap().is_error);
        assert!(bot.core.handle(&bad).await.is_none());
    }
}

case! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn two_racing_moves_resolve_cleanly() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        start_game(&mut bot, "standard").await;
        for (round, (who, a, b)) in [("alice", "Nc3", "Nf3"), ("bob", "Nc6", "Nf6")]
            .into_iter()
            .enumerate()
        {
            // Two different moves by the player to move, sent at the same moment.
            let (ea, eb) = (bot.event(who, a), bot.event(who, b));
            let (c1, c2) = (bot.core.clone(), bot.core.clone());
            let (ra, rb) = tokio::join!(
                tokio::spawn(async move { c1.handle(&ea).await.unwrap() }),
                tokio::spawn(async move { c2.handle(&eb).await.unwrap() })
            );
            let (ra, rb) = (ra.unwrap(), rb.unwrap());
            bot.posted(&ra).await;
            bot.posted(&rb).await;
            assert!(
                ra.is_error != rb.is_error,
                "exactly one applies: {} / {}",
                ra.text,
                rb.text
            );
            let loser = if ra.is_error { &ra } else { &rb };
            assert!(
                loser.text.starts_with("It is not your turn in game #1"),
                "{}",
                loser.text
            );
            let moves: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM moves")
                .fetch_one(bot.core.store().pool())
                .await
                .unwrap();
            assert_eq!(moves, round as i64 + 1);
        }
    }
}

case! {
    #[tokio::test]
    async fn a_locked_database_is_reported_as_busy_and_nothing_changes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let mut cfg = config(&path);
        cfg.database.busy_timeout_ms = 100;
        let mut bot = Bot::with(cfg).await;
        start_game(&mut bot, "standard").await;
        let before = snapshot(&bot.core).await;
        let locker = Locker::hold(&path).await;
        let r = bot.say("alice", "e4").await;
        assert!(r.is_error);
        assert_eq!(r.text, "The game database is busy right now, so nothing was changed. Please try again in a moment.");
        // Reads do not wait for the write lock at all.
        let board = bot.say("bob", "board").await;
        assert!(!board.is_error, "{}", board.text);
        assert!(board.image.is_some());
        assert!(!bot.say("bob", "history").await.is_error);
        locker.release().await;
        assert_eq!(snapshot(&bot.core).await, before);
        // Once the lock is gone, the same move goes through.
        bot.ok("alice", "e4").await;
    }
}

case! {
    #[tokio::test]
    async fn a_corrupt_game_row_is_reported_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        start_game(&mut bot, "standard").await;
        bot.ok("alice", "e4").await;
        let pool = bot.core.store().pool().clone();
        sqlx::query("UPDATE moves SET coordinate = 'e2e5' WHERE ply = 1")
            .execute(&pool)
            .await
            .unwrap();
        bot.refused(
            "bob",
            "e5",
            "The stored record of game #1 is damaged (move 1 does not replay: e2e5 is illegal: your pawn on e2 cannot move to e5), so I cannot go on with it. Nothing was changed.",
        )
        .await;
        sqlx::query("UPDATE moves SET coordinate = 'e2e4' WHERE ply = 1")
            .execute(&pool)
            .await
            .unwrap();
        sqlx::query("UPDATE games SET variant = 'nonsense'")
            .execute(&pool)
            .await
            .unwrap();
        bot.refused(
            "bob",
            "board",
            "The stored record of game #1 is damaged (unknown variant 'nonsense'), so I cannot go on with it. Nothing was changed.",
        )
        .await;
        // Issue 41, point 1: a row that does not convert to a game record
        // is named by check-db with the reason, and nothing panics: each
        // coded column is checked when the row is typed (the status has a
        // CHECK constraint of its own).
        for (column, value, why) in [
            ("time_control", "'soon'", "unknown time control 'soon'"),
            ("mode", "'secret!'", "unknown programming mode 'secret!'"),
            ("colour_white", "'plaid'", "unknown piece colour 'plaid'"),
        ] {
            sqlx::query("UPDATE games SET variant = 'standard', status = 'active', time_control = 'none', mode = 'default', colour_white = NULL")
                .execute(&pool)
                .await
                .unwrap();
            sqlx::query(sqlx::AssertSqlSafe(format!("UPDATE games SET {column} = {value}")))
                .execute(&pool)
                .await
                .unwrap();
            let (total, bad) = bot.core.check_db().await.unwrap();
            assert_eq!(total, 1);
            assert_eq!(bad.len(), 1, "{column}");
            assert!(bad[0].2.contains(why), "{column}: {}", bad[0].2);
        }
    }
}

case! {
    #[tokio::test]
    async fn draws_takebacks_and_resignation() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        start_game(&mut bot, "standard").await;
        bot.ok("alice", "e4").await;
        // A draw offer lapses after the next move.
        bot.ok("alice", "draw").await;
        bot.ok("bob", "e5").await;
        bot.refused(
            "bob",
            "draw accept",
            "There is no draw offer from alice to answer in game #1.",
        )
        .await;
        // A takeback needs the opponent's consent.
        let ask = bot.ok("bob", "undo").await;
        assert_eq!(
            ask.text,
            "bob asks to take back e5 in game #1. alice: `undo accept` or `undo decline`."
        );
        let back = bot.ok("alice", "undo accept").await;
        assert_eq!(back.text, "e5 is taken back in game #1. bob, your move.");
        bot.ok("bob", "c5").await;
        let h = bot.ok("alice", "history").await;
        assert!(h.text.ends_with("1. e4 c5"), "{}", h.text);
        // Asked on one's own turn, a takeback means one's last move and the
        // reply to it (issue 20, point 9): alice wants e4 back.
        let ask = bot.ok("alice", "undo").await;
        assert_eq!(
            ask.text,
            "alice asks to take back e4 and bob's reply c5 in game #1. bob: `undo accept` or `undo decline`."
        );
        let back = bot.ok("bob", "undo accept").await;
        assert_eq!(
            back.text,
            "e4 and c5 are taken back in game #1. alice, your move."
        );
        let h = bot.ok("alice", "history").await;
        assert!(h.text.ends_with("no moves yet."), "{}", h.text);
        bot.refused(
            "bob",
            "undo",
            "You have no move to take back in game #1 yet.",
        )
        .await;
        bot.ok("alice", "e4").await;
        bot.ok("bob", "c5").await;
        // Draw by agreement.
        bot.ok("alice", "draw").await;
        let d = bot.ok("bob", "draw accept").await;
        assert_eq!(
            d.text,
            "Game #1 is drawn by agreement (1/2-1/2). Ratings: alice 1500? -> 1500? (+0), bob 1500? -> 1500? (+0)."
        );
        // A new game, and a resignation; two games in one channel need a number.
        start_game(&mut bot, "void").await;
        bot.ok("carol", "challenge @alice standard").await;
        bot.ok("alice", "accept").await;
        let r = bot.say("alice", "resign").await;
        assert!(r.is_error);
        assert!(
            r.text.starts_with(
                "There are 2 games here: #2 alice vs bob (Void Chess), #3 carol vs alice (Standard chess)."
            ),
            "{}",
            r.text
        );
        let r = bot.ok("alice", "resign #2").await;
        assert_eq!(r.text, "alice resigns game #2. bob wins (0-1). Not rated: it ended before both sides had moved.");
        let games = bot.ok("bob", "games").await;
        assert!(
            games.text.contains("#3 carol vs alice") && !games.text.contains("#2 "),
            "{}",
            games.text
        );
    }
}

case! {
    #[tokio::test]
    async fn rules_help_answers_questions_with_diagrams() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        let r = bot
            .ok("alice", "rules can the minister cross a void?")
            .await;
        assert!(
            r.text.starts_with("The Minister heals and crosses voids"),
            "{}",
            r.text
        );
        assert!(r.image.is_some());
        let r = bot.ok("alice", "rules void").await;
        assert!(r.text.contains("Topics: setup, minister"), "{}", r.text);
        let r = bot.ok("alice", "help draw").await;
        assert!(r.text.starts_with("draw [accept|decline]"), "{}", r.text);
        bot.refused("alice", "rules xyzzy", "I found nothing about that. Void Chess topics: setup, minister, minister-blocked, healing, unstable, voids, king, castling, promotion, endings.").await;
        let v = bot.ok("alice", "variants").await;
        assert!(v.text.contains("void (Void Chess, 9x9 board)"));
        // Inside a game, a question is about that game's rules first; a piece
        // of another game is still found by its name.
        start_game(&mut bot, "chess99").await;
        let r = bot.ok("alice", "rules castling").await;
        assert!(r.text.starts_with("Castling in Chess 99"), "{}", r.text);
        let r = bot.ok("bob", "rules void minister").await;
        assert!(r.text.starts_with("The Minister\n"), "{}", r.text);
        let r = bot.ok("bob", "rules paladin").await;
        assert!(r.text.starts_with("The paladin"), "{}", r.text);
        assert!(r.image.is_some(), "with its diagram");
    }
}

case! {
    #[tokio::test]
    async fn channel_settings_switch_bare_moves_off() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        start_game(&mut bot, "standard").await;
        let s = bot.ok("alice", "settings bare-moves off").await;
        assert_eq!(
            s.text,
            "Settings here: bare moves off, theme classic, a replay after each game on, no daily puzzle. Your boards: from the side to move, or your side when you ask (auto)."
        );
        // Issue 43, point 5: said to the bot, a move alone gets the hint.
        bot.refused(
            "alice",
            "e4",
            "Moves alone are not read here: say `move e4` (or turn them on with `settings bare-moves on`).",
        )
        .await;
        bot.ok("alice", "move e4").await;
    }
}

case! {
    #[tokio::test]
    async fn correspondence_deadlines_remind_then_forfeit_and_survive_restarts() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let mut cfg = config(&path);
        cfg.clock.day_seconds = 4; // "1d" is four seconds here
        let clock = Clock::manual(1_000_000);
        let mut bot = Bot::with_clock(cfg.clone(), clock.clone()).await;
        bot.ok("alice", "challenge @bob void 1d").await;
        bot.ok("bob", "accept").await;
        assert!(bot.core.tick().await.is_empty(), "nothing is due yet");
        bot.ok("alice", "e4").await; // resets the deadline: bob has one "day"
                                     // A restart keeps the deadline.
        drop(bot);
        let bot = Bot::with_clock(cfg, clock.clone()).await;
        let mut reminded = false;
        let mut forfeited = None;
        let mut seen_once = std::collections::HashSet::new();
        for _ in 0..60 {
            clock.advance(200);
            for notice in bot.core.tick().await {
                let (channel, reply) = (notice.channel, notice.reply);
                assert_eq!(channel, "room");
                // The first time a notice comes, its post fails (a passing
                // failure, to be tried again at once): it must come back on the
                // next tick. The second time, confirm it.
                if !seen_once.insert(notice.id) {
                    bot.core.delivered(notice.id).await;
                } else {
                    let again = voidmate_game::Refusal::Temporary {
                        retry_after: Some(std::time::Duration::ZERO),
                    };
                    bot.core.failed(notice.id, again).await;
                    continue;
                }
                if reply
                    .text
                    .starts_with("@bob, it is your move in game #1 against alice; time runs out in")
                {
                    assert!(!reminded, "one reminder only");
                    reminded = true;
                    assert_eq!(names(&reply.notify), ["bob"]);
                } else {
                    forfeited = Some(reply.text);
                }
            }
            if forfeited.is_some() {
                break;
            }
        }
        assert!(reminded, "a reminder before the deadline");
        assert_eq!(
            forfeited.as_deref(),
            Some("Game #1: bob did not move in time. alice wins on time (1-0). Not rated: it ended before both sides had moved.")
        );
        let status: String = sqlx::query_scalar("SELECT status FROM games WHERE id = 1")
            .fetch_one(bot.core.store().pool())
            .await
            .unwrap();
        assert_eq!(status, "finished");
        assert!(
            bot.core.tick().await.is_empty(),
            "a finished game is not announced twice"
        );
        assert_eq!(
            seen_once.len(),
            2,
            "each notice was offered until confirmed"
        );
    }
}

case! {
    #[tokio::test]
    async fn unaddressed_chatter_is_ignored_but_a_bare_move_is_played() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        start_game(&mut bot, "standard").await;
        let mut quiet = |who: &str, text: &str| {
            let mut ev = bot.event(who, text);
            ev.addressed = false;
            ev
        };
        let chatter = quiet("alice", "hello everyone");
        let help = quiet("alice", "help me please");
        let not_turn = quiet("carol", "e4");
        let mv = quiet("alice", "e4");
        assert!(bot.core.handle(&chatter).await.is_none());
        assert!(bot.core.handle(&help).await.is_none());
        assert!(bot.core.handle(&not_turn).await.is_none());
        let played = bot.core.handle(&mv).await.unwrap();
        assert_eq!(played.text, "#1: alice played e4. bob, your move.");
    }
}

case! {
    #[tokio::test]
    async fn replies_carry_the_questions_an_adapter_turns_into_buttons() {
        use voidmate_game::Action;
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        let c = bot.ok("alice", "challenge @bob standard").await;
        let action = Action::AnswerChallenge {
            challenger: console_player("alice"),
            to: id("bob"),
        };
        assert_eq!(c.actions, std::slice::from_ref(&action));
        assert_eq!(action.who(), &id("bob"));
        // The button's answer is a typed command from the one who pressed it.
        bot.typed("bob", action.answer(true)).await;
        bot.ok("alice", "e4").await;
        let offer = bot.ok("bob", "draw").await;
        assert_eq!(
            offer.actions,
            [Action::AnswerOffer {
                kind: voidmate_game::command::OfferKind::Draw,
                game: 1,
                to: id("alice")
            }]
        );
        let no = bot.typed("alice", offer.actions[0].answer(false)).await;
        assert_eq!(no.text, "alice declines the draw in game #1.");
        let ask = bot.ok("alice", "undo").await;
        assert_eq!(
            ask.actions,
            [Action::AnswerOffer {
                kind: voidmate_game::command::OfferKind::Takeback,
                game: 1,
                to: id("bob")
            }]
        );
        assert!(bot.ok("bob", "board").await.actions.is_empty());
    }
}

case! {
    #[tokio::test]
    async fn move_suggestions_follow_what_was_typed() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        start_game(&mut bot, "standard").await;
        let mut knights = bot.core.suggest_moves("room", &id("alice"), "n", 25).await;
        knights.sort();
        assert_eq!(knights, ["Na3", "Nc3", "Nf3", "Nh3"]);
        assert_eq!(
            bot.core
                .suggest_moves("room", &id("alice"), "", 25)
                .await
                .len(),
            20
        );
        assert_eq!(
            bot.core
                .suggest_moves("room", &id("alice"), "", 5)
                .await
                .len(),
            5
        );
        assert_eq!(
            bot.core
                .suggest_moves("room", &id("alice"), "g1", 25)
                .await
                .len(),
            2,
            "coordinates work"
        );
        assert!(
            bot.core
                .suggest_moves("room", &id("bob"), "", 25)
                .await
                .is_empty(),
            "not bob's move"
        );
        assert!(bot
            .core
            .suggest_moves("elsewhere", &id("alice"), "", 25)
            .await
            .is_empty());
    }
}

case! {
    #[tokio::test]
    async fn suicide_void_opens_with_blacks_placement_and_lists_captures_once() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        bot.ok("alice", "challenge @bob suicide-void").await;
        let start = bot.ok("bob", "accept").await;
        assert!(
            start.text.contains("alice (White) vs bob (Black)")
                && start.text.ends_with("bob, your move."),
            "{}",
            start.text
        );
        assert_eq!(names(&start.notify), ["bob"]);
        // Issue 42, point 4: the first image is drawn from Black's side,
        // like every image with Black to move.
        let card = start.image.as_ref().unwrap().board.clone().unwrap();
        assert_eq!(card.bottom, voidmate_rules::Color::Black);
        // Issue 43, point 4: the start says who places the void, and how.
        assert!(
            start.text.contains(
                " bob places the void first, on any empty square: write `@e5` (or `V@e5`, or `void e5`) for e5."
            ),
            "{}",
            start.text
        );
        bot.refused(
            "bob",
            "e5",
            "e5 is illegal: first the void must be placed on an empty square, like @e5.",
        )
        .await;
        // The forms our PGN and players write are read too.
        for (i, form) in ["V@e5", "void e5", "move void e5", "v@E5"].into_iter().enumerate() {
            let mut other = Bot::open(&dir.path().join(format!("form{i}.db"))).await;
            other.ok("alice", "challenge @bob suicide-void").await;
            other.ok("bob", "accept").await;
            let placed = other.ok("bob", form).await;
            assert!(placed.text.contains("@e5"), "{form}: {}", placed.text);
        }
        bot.ok("bob", "@e5").await;
        bot.ok("alice", "e4").await;
        bot.ok("bob", "d5").await;
        let moves = bot.ok("alice", "moves").await;
        assert_eq!(
            moves.text,
            "alice to move: exd5@…\nA capture moves the void too: add an empty square, like exd5@e2."
        );
        // Every suggestion is a complete move, played as picked (issue 19,
        // point 6): the capture with each square its void may go to.
        let offered = bot.core.suggest_moves("room", &id("alice"), "ex", 25).await;
        assert_eq!(offered.len(), 25, "{offered:?}");
        assert!(
            offered
                .iter()
                .all(|m| m.starts_with("exd5@") && m.len() == 7),
            "{offered:?}"
        );
        assert_eq!(
            bot.core
                .suggest_moves("room", &id("alice"), "exd5@e", 25)
                .await,
            ["exd5@e2", "exd5@e3", "exd5@e4", "exd5@e6"]
        );
        bot.refused(
            "alice",
            "exd5",
            "exd5 is illegal: a capture moves the void too: say where, like exd5@e2.",
        )
        .await;
        let played = bot.ok("alice", "exd5@e4").await;
        assert!(
            played.text.contains("alice played exd5@e4"),
            "{}",
            played.text
        );
        let history = bot.ok("alice", "history").await;
        assert!(
            history.text.ends_with(": @e5 1. e4 d5 2. exd5@e4"),
            "{}",
            history.text
        );
    }
}

case! {
    #[tokio::test]
    async fn chess99_draws_are_claimed_by_the_player_to_move() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        bot.ok("alice", "challenge @bob chess99").await;
        bot.ok("bob", "accept").await;
        bot.refused(
            "alice",
            "claim",
            "There is no draw to claim in game #1: in Chess 99 you may claim when both kings are attacked, or once your opponent has made 99 moves.",
        )
        .await;
        bot.refused(
            "bob",
            "claim",
            "It is not your turn in game #1: a draw is claimed by the player to move.",
        )
        .await;
        // Both kings attacked: the claim ends the game at once.
        set_position(&bot, 1, "4k3R/9/9/9/9/9/9/9/r3K4 w - - 0 1").await;
        let drawn = bot.ok("alice", "claim").await;
        assert_eq!(
            drawn.text,
            "alice claims a draw in game #1: both kings are attacked. Drawn (1/2-1/2). Not rated: it ended before both sides had moved."
        );

        // 99 moves: the claim comes with a move that must leave the king safe.
        bot.ok("alice", "challenge @bob chess99").await;
        bot.ok("bob", "accept").await;
        set_position(&bot, 2, "4k4/9/9/9/9/9/9/9/R3K3r w - - 0 100").await;
        bot.refused(
            "alice",
            "claim",
            "Claim the 99-move draw together with your move, like `claim Ke2`: the draw stands if that move leaves your king safe.",
        )
        .await;
        bot.refused(
            "alice",
            "claim Ra2",
            "Ra2 leaves your king attacked, so the 99-move draw cannot be claimed with it. Nothing was played.",
        )
        .await;
        let claimed = bot.ok("alice", "claim Ke2").await;
        assert_eq!(
            claimed.text,
            "#2: alice played Ke2 and claims the 99-move draw. Drawn (1/2-1/2). Not rated: it ended before both sides had moved."
        );
        assert!(claimed.image.is_some());
        let games = bot.ok("alice", "games").await;
        assert!(games.text.starts_with("No games"), "{}", games.text);

        // Other games have nothing to claim.
        bot.ok("alice", "challenge @bob standard").await;
        bot.ok("bob", "accept").await;
        bot.refused(
            "alice",
            "claim",
            "There is nothing to claim in game #3: draws by repetition and the 50-move rule come by themselves here. To propose a draw, say `draw`.",
        )
        .await;
    }
}

case! {
    #[tokio::test]
    async fn challenging_the_bot_starts_a_game_against_the_engine() {
        let dir = tempfile::tempdir().unwrap();
        let mut cfg = config(&dir.path().join("v.db"));
        cfg.engine.move_time_ms = 50;
        let mut bot = Bot::with(cfg).await;
        bot.core.add_bot(console_player("voidmate")).await.unwrap();
        // The engine has White: it moves in the same reply that starts the game.
        let start = bot
            .ok("alice", "challenge @voidmate standard black 1")
            .await;
        assert!(
            start.text.starts_with(
                "Game #1 begins: Standard chess, voidmate (White) vs alice (Black), no time limit, casual (games against me are not rated); I play at level 1. voidmate played "
            ) && start.text.ends_with("alice, your move."),
            "{}",
            start.text
        );
        assert_eq!(names(&start.notify), ["alice"]);
        assert!(start.image.is_some());
        bot.refused(
            "alice",
            "challenge @bob standard 3",
            "A level is for games against me: `challenge @voidmate standard 3`.",
        )
        .await;
        // Every answer is a legal move, until the game ends; alice plays the
        // first legal move each time.
        let mut replies = 0;
        for _ in 0..150 {
            let games = bot.ok("alice", "games").await.text;
            if games.starts_with("No games") {
                break;
            }
            let moves = bot.ok("alice", "moves").await.text;
            let first = moves
                .split_once(": ")
                .and_then(|(_, list)| list.split_whitespace().next())
                .unwrap_or_else(|| panic!("{moves}"))
                .to_string();
            let r = bot.ok("alice", &format!("move {first}")).await;
            assert!(
                r.text.contains(&format!("alice played {first}")),
                "{}",
                r.text
            );
            replies += 1;
        }
        assert!(replies > 3);
        let history = bot.ok("alice", "history").await;
        assert!(
            history.text.starts_with("#1 voidmate vs alice"),
            "{}",
            history.text
        );
        bot.refused(
            "alice",
            "challenge @voidmate standard level 7",
            "level 7? Levels go from 1 (beginner) to 5 (full strength)",
        )
        .await;
    }
}

case! {
    #[tokio::test]
    async fn clocks_run_add_increments_warn_and_fall_and_a_restart_costs_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let clock = Clock::manual(1_000_000);
        let advance = |s: i64| clock.advance(s * 1000);
        let open = |clock: Clock| {
            let cfg = config(&path);
            async move {
                Bot {
                    core: Core::open_with_time(&cfg, clock)
                        .await
                        .unwrap(),
                    n: 0,
                    channel: "room".into(),
                }
            }
        };
        let mut bot = open(clock.clone()).await;
        bot.ok("alice", "challenge @bob standard 3+2").await;
        let start = bot.ok("bob", "accept").await;
        assert!(
            start.text.contains("3 minutes + 2 seconds per move"),
            "{}",
            start.text
        );
        advance(10);
        let moved = bot.ok("alice", "e4").await;
        assert!(
            moved
                .text
                .ends_with("bob, your move. Clocks alice 3:00, bob 3:00."),
            "{}",
            moved.text
        );
        advance(5);
        let board = bot.ok("alice", "board").await;
        assert!(
            board
                .text
                .ends_with("bob to move; clocks alice 3:00, bob 3:00."),
            "{}",
            board.text
        );
        let replied = bot.ok("bob", "e5").await;
        assert!(
            replied
                .text
                .ends_with("alice, your move. Clocks alice 3:00, bob 3:00."),
            "{}",
            replied.text
        );
        // Issue 53: no clock ran before each side's first move (as on
        // lichess); alice's runs now. Low time (a tenth of 3 minutes is
        // 18 s): one warning, not two.
        advance(5);
        let board = bot.ok("bob", "board").await;
        assert!(board.text.ends_with("alice to move; clocks alice 2:55, bob 3:00."), "{}", board.text);
        advance(165);
        let notices = bot.core.tick().await;
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert_eq!(
            notices[0].reply.text,
            "@alice, you have 0:10 left on your clock in game #1."
        );
        bot.core.delivered(notices[0].id).await;
        assert!(bot.core.tick().await.is_empty());
        // The flag falls by itself, announced without anyone typing, with
        // the rated game's changes.
        advance(16);
        let notices = bot.core.tick().await;
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert_eq!(
            notices[0].reply.text,
            "Game #1: alice's time ran out. bob wins on time (0-1). Ratings: alice 1500? -> 1338? (-162), bob 1500? -> 1662? (+162)."
        );
        assert_eq!(names(&notices[0].reply.notify), ["alice", "bob"]);
        bot.core.delivered(notices[0].id).await;
        bot.refused(
            "alice",
            "move Nf3",
            "You have no game in progress here. Start one with `challenge @someone`.",
        )
        .await;

        // A second game: the bot is down for a minute; that minute is not charged.
        // Alice's first move has 30 s (a tenth of a minute is less), and
        // the minute the bot is down does not count against it either.
        bot.ok("alice", "challenge @bob standard 1+0").await;
        bot.ok("bob", "accept").await;
        advance(5);
        assert!(bot.core.tick().await.is_empty());
        drop(bot);
        advance(60);
        let mut bot = open(clock.clone()).await;
        bot.n = 1000; // new event ids after the restart
        let board = bot.ok("alice", "board #2").await;
        assert!(
            board.text.contains("alice 1:00, bob 1:00"),
            "{}",
            board.text
        );
        advance(20);
        assert!(bot.core.tick().await.is_empty(), "not aborted: 25 s of 30");
        bot.ok("alice", "e4").await;
        bot.ok("bob", "e5").await;
        // A move that arrives after the flag fell loses on time.
        advance(70);
        let late = bot.ok("alice", "Nf3").await;
        assert!(
            late.text
                .starts_with("Game #2: alice's time ran out. bob wins on time (0-1). Ratings: alice 1338? -> "),
            "{}",
            late.text
        );
    }
}

case! {
    #[tokio::test]
    async fn super16_draws_are_claimed_after_a_hundred_moves_each() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        bot.ok("alice", "challenge @bob super16").await;
        let start = bot.ok("bob", "accept").await;
        assert!(start.text.contains("Super Chess 16x16"), "{}", start.text);
        bot.refused(
            "alice",
            "claim",
            "There is no draw to claim in game #1: in Super Chess 16x16 you may claim once 100 moves each have passed without a capture or pawn move.",
        )
        .await;
        set_position(
            &bot,
            1,
            "k15/16/16/16/16/16/16/16/16/16/16/16/16/16/16/1R13K w - - 200 150",
        )
        .await;
        let drawn = bot.ok("alice", "claim").await;
        assert_eq!(
            drawn.text,
            "alice claims a draw in game #1: claimed under the 100-move rule. Drawn (1/2-1/2). Not rated: it ended before both sides had moved."
        );
    }
}

case! {
    /// Issue 21, point 0: in a channel with a Black Holes game, a chat line in
    /// another script (`éé@a1`), addressed or not, once made the move reader
    /// panic and took the whole bot down. Now it is answered or ignored, and
    /// the game goes on.
    #[tokio::test]
    async fn multi_byte_chat_in_a_black_holes_game_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        start_game(&mut bot, "black-holes").await;
        let before = snapshot(&bot.core).await;
        for text in [
            "éé@a1",
            "ßß@b2",
            "move éé@a1",
            "日本語",
            "(Hé1)",
            "Ré1-b1-a4xb4",
        ] {
            for addressed in [false, true] {
                let mut ev = bot.event("alice", text);
                ev.addressed = addressed;
                if let Some(r) = bot.core.handle(&ev).await {
                    assert!(r.is_error, "{text}: {}", r.text);
                }
            }
        }
        assert_eq!(snapshot(&bot.core).await, before);
        bot.ok("alice", "d3").await;
    }
}

case! {
    /// Issue 17, point 10: a locked database answers "busy" after one wait
    /// of the configured timeout, not several (the heartbeat used to wait on
    /// its own first): the event takes the write lock once, in one
    /// transaction, and that one failure is the answer. Counted, not timed.
    #[tokio::test]
    async fn busy_is_answered_after_one_wait() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let mut cfg = config(&path);
        cfg.database.busy_timeout_ms = 300;
        let mut bot = Bot::with(cfg).await;
        start_game(&mut bot, "standard").await;
        let locker = Locker::hold(&path).await;
        let before = bot.core.store().write_transactions();
        let r = bot.say_unconfirmed("alice", "e4").await;
        assert!(r.is_error && r.text.contains("busy"), "{}", r.text);
        assert_eq!(
            bot.core.store().write_transactions() - before,
            1,
            "one write transaction tried, so one wait"
        );
        locker.release().await;
        // The same move, sent again once the lock is gone, goes through.
        bot.ok("alice", "e4").await;
    }
}

case! {
    /// Reads are recorded too: a redelivered `board` is not answered twice.
    #[tokio::test]
    async fn a_redelivered_read_is_not_answered_twice() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        start_game(&mut bot, "standard").await;
        let ev = bot.event("alice", "board");
        assert!(bot.core.handle(&ev).await.is_some());
        assert!(bot.core.handle(&ev).await.is_none());
    }
}

case! {
    /// Issue 17, point 10: two processes starting on a new database file both
    /// come up; the migrations run once, one after the other, instead of the
    /// second failing with "table already exists".
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn two_starts_on_a_new_database_both_come_up() {
        for round in 0..16 {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("new.db");
            let (cfg_a, cfg_b) = (config(&path), config(&path));
            let (a, b) = tokio::join!(Core::open(&cfg_a), Core::open(&cfg_b));
            let (a, b) = (
                a.unwrap_or_else(|e| panic!("round {round}, first: {e:#}")),
                b.unwrap_or_else(|e| panic!("round {round}, second: {e:#}")),
            );
            let mut bot = Bot {
                core: a,
                n: 0,
                channel: "room".into(),
            };
            start_game(&mut bot, "standard").await;
            let games: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games")
                .fetch_one(b.store().pool())
                .await
                .unwrap();
            assert_eq!(games, 1);
        }
    }
}

case! {
    /// Issue 17, point 10: handled event ids are kept to recognise
    /// redeliveries, then forgotten by age instead of growing for ever.
    #[tokio::test]
    async fn old_handled_event_ids_are_pruned() {
        let dir = tempfile::tempdir().unwrap();
        let clock = Clock::manual(1_700_000_000_000);
        let mut bot = Bot::with_clock(config(&dir.path().join("v.db")), clock.clone()).await;
        bot.ok("alice", "help").await;
        let pool = bot.core.store().pool().clone();
        let insert = |id: &'static str, age_days: i64| {
            let (pool, now) = (pool.clone(), clock.now_secs());
            async move {
                sqlx::query("INSERT INTO handled_events (event_id, handled_at) VALUES ($1, $2)")
                    .bind(id)
                    .bind(now - age_days * 24 * 3600)
                    .execute(&pool)
                    .await
                    .unwrap();
            }
        };
        let left = || async {
            sqlx::query_scalar::<_, String>("SELECT event_id FROM handled_events ORDER BY event_id")
                .fetch_all(&pool)
                .await
                .unwrap()
        };
        for (id, age_days) in [("old-1", 40), ("old-2", 31), ("recent", 2)] {
            insert(id, age_days).await;
        }
        bot.core.tick().await;
        let kept = left().await;
        assert!(!kept.iter().any(|id| id.starts_with("old-")), "{kept:?}");
        assert!(kept.contains(&"recent".to_string()), "{kept:?}");
        assert_eq!(kept.len(), 2, "the recent one and this session's help: {kept:?}");
        // At most once an hour, by the core's clock.
        insert("old-3", 45).await;
        clock.advance(59 * 60 * 1000);
        bot.core.tick().await;
        assert!(left().await.contains(&"old-3".to_string()));
        clock.advance(60 * 1000);
        bot.core.tick().await;
        assert!(!left().await.contains(&"old-3".to_string()));
        // 29 days on, the one that was 2 days old is past 30; this
        // session's help, 29 days old, is kept.
        clock.advance(29 * 24 * 3_600_000);
        bot.core.tick().await;
        let kept = left().await;
        assert_eq!(kept.len(), 1, "{kept:?}");
        assert!(!kept.contains(&"recent".to_string()), "{kept:?}");
    }
}

case! {
    /// Issue 17, point 10: commits are synced (synchronous = FULL), so an
    /// acknowledged move survives a power loss, not only a crash.
    #[tokio::test]
    async fn commits_are_synced_to_disk() {
        let dir = tempfile::tempdir().unwrap();
        let bot = Bot::open(&dir.path().join("v.db")).await;
        assert_eq!(sync_mode(&bot).await, if ON_POSTGRES { "on" } else { "2" }, "FULL");
    }
}

case! {
    /// Issue 17, point 6: the process stops while the engine thinks (here the
    /// handling is cut off mid-search, as a kill would). After a restart the
    /// periodic check starts the search again: the engine's move is played
    /// once and announced, with its board, through the outbox.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_engine_turn_cut_off_by_a_restart_is_played_after_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let moves_stored = |pool: sqlx::AnyPool| async move {
            sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM moves")
                .fetch_one(&pool)
                .await
                .unwrap()
        };
        let ev_id;
        {
            let mut cfg = config(&path);
            // Long enough to be cut off in the middle of the search.
            cfg.engine.move_time_ms = 3000;
            let mut bot = Bot::with(cfg).await;
            bot.core.add_bot(console_player("voidmate")).await.unwrap();
            bot.ok("alice", "challenge @voidmate standard white 5")
                .await;
            let ev = bot.event("alice", "e4");
            ev_id = ev.event_id.clone();
            let cut =
                tokio::time::timeout(std::time::Duration::from_millis(600), bot.core.handle(&ev)).await;
            assert!(cut.is_err(), "the search should still be running");
            // alice's move is stored; the engine's is not, and nobody thinks.
            assert_eq!(moves_stored(bot.core.store().pool().clone()).await, 1);
        }
        let mut cfg = config(&path);
        cfg.engine.move_time_ms = 50;
        let clock = Clock::manual(wall_ms());
        let core = Core::open_with_time(&cfg, clock.clone())
            .await
            .unwrap();
        core.add_bot(console_player("voidmate")).await.unwrap();
        if ON_POSTGRES {
            // Other processes may be searching on PostgreSQL: the dead one's
            // claim on the turn holds until its lease ends.
            assert!(core.tick().await.is_empty());
            assert_eq!(core.leases().count(LeaseKind::EngineTurn), 0, "no search here");
            assert!(holder(&core, 1).await.is_some_and(|h| h != core.leases().holder()));
            assert_eq!(moves_stored(core.store().pool().clone()).await, 1);
            clock.advance(voidmate_game::ENGINE_LEASE_MS + 1000);
        }
        let mut announced = Vec::new();
        // On PostgreSQL a start releases no answer (other processes may be
        // posting theirs), but alice's has been held longer than a post
        // takes by the time the engine's move is due: it is taken over and
        // goes first (issue 40, point 4). On SQLite the start releases it.
        let expected = 2;
        for _ in 0..200 {
            for notice in core.tick().await {
                core.delivered(notice.id).await;
                announced.push(notice);
            }
            if announced.len() >= expected {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert_eq!(announced.len(), expected, "announcements");
        // The answer to alice's move was stored with it and never posted
        // (the handling was cut off): it goes out now, then the engine's.
        assert!(
            announced[0].reply.text.starts_with("#1: alice played e4.")
                && announced[0].in_reply_to.as_deref() == Some(ev_id.as_str()),
            "{}",
            announced[0].reply.text
        );
        let notice = announced.last().unwrap();
        assert_eq!(notice.channel, "room");
        assert!(
            notice.reply.text.contains("voidmate played")
                && notice.reply.text.contains("alice, your move"),
            "{}",
            notice.reply.text
        );
        assert_eq!(names(&notice.reply.notify), ["alice"]);
        assert!(notice.reply.image.is_some(), "the board goes with it");
        // Played once: further checks start no second search.
        for _ in 0..5 {
            assert!(core.tick().await.is_empty());
            assert_eq!(core.leases().count(LeaseKind::EngineTurn), 0);
        }
        assert_eq!(moves_stored(core.store().pool().clone()).await, 2);
        // And the game goes on: alice answers.
        let mut bot = Bot {
            core,
            n: 1000,
            channel: "room".into(),
        };
        let r = bot.ok("alice", "d4").await;
        assert!(r.text.contains("voidmate played"), "{}", r.text);
    }
}

case! {
    /// Issue 17, point 5: every answer is written to the outbox with the change
    /// it reports. The adapter posts it and confirms; if it never confirms (the
    /// process died after the commit), the answer goes out after a restart, or
    /// after a grace period, once, with the idempotency key of the first
    /// attempt, and its board drawn again. A redelivered event answers nothing.
    #[tokio::test]
    async fn an_answer_lost_to_a_crash_goes_out_once_after_the_restart() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let clock = Clock::manual(1_000_000);
        let mut bot = Bot::with_clock(config(&path), clock.clone()).await;
        start_game(&mut bot, "void").await;
        let ev = bot.event("alice", "e4");
        let r = bot.core.handle(&ev).await.unwrap();
        assert_eq!(r.deliveries.len(), 1);
        let key = r.key().expect("a change has a key");
        // Within the grace period the adapter is trusted to post it.
        assert!(bot.core.tick().await.is_empty());
        // Refusals and reads change nothing and owe nothing.
        assert!(bot
            .say_unconfirmed("alice", "e5")
            .await
            .deliveries
            .is_empty());
        assert!(bot
            .say_unconfirmed("bob", "board")
            .await
            .deliveries
            .is_empty());
        // The process dies before posting; a new one starts on the database.
        drop(bot);
        let mut bot = Bot::with_clock(config(&path), clock.clone()).await;
        bot.n = 100;
        assert!(
            bot.core.handle(&ev).await.is_none(),
            "a redelivery answers nothing"
        );
        if ON_POSTGRES {
            // Other processes may be posting their answers: on PostgreSQL a
            // start releases nothing, and the answer is due when its grace ends.
            assert!(bot.core.tick().await.is_empty());
            clock.advance(61_000);
        }
        let owed = bot.core.tick().await;
        assert_eq!(owed.len(), 1, "{owed:?}");
        let n = &owed[0];
        assert_eq!(n.reply.text, r.text);
        assert_eq!(n.key(), key);
        assert_eq!(n.reply.key().as_deref(), Some(key.as_str()));
        assert_eq!(n.in_reply_to.as_deref(), Some(ev.event_id.as_str()));
        assert_eq!(names(&n.reply.notify), ["bob"]);
        assert!(n.reply.image.is_some(), "the board is drawn again");
        bot.core.delivered(n.id).await;
        assert!(bot.core.tick().await.is_empty(), "posted once");

        // Without a restart: an unconfirmed answer comes back after the grace.
        let r = bot.say_unconfirmed("bob", "e6").await;
        clock.advance(30_000);
        assert!(bot.core.tick().await.is_empty());
        clock.advance(31_000);
        let owed = bot.core.tick().await;
        assert_eq!(owed.len(), 1);
        assert_eq!(owed[0].reply.text, r.text);
        bot.core.delivered(owed[0].id).await;
        // A confirmed answer never comes back, restart or not.
        bot.ok("alice", "d4").await;
        drop(bot);
        let mut bot = Bot::with_clock(config(&path), clock.clone()).await;
        bot.n = 200;
        clock.advance(120_000);
        assert!(bot.core.tick().await.is_empty());
        // An answer that asks a question keeps it: a lost challenge still
        // comes with the buttons to answer it.
        let c = bot
            .say_unconfirmed("carol", "challenge @dave standard")
            .await;
        assert_eq!(c.actions.len(), 1);
        drop(bot);
        let bot = Bot::with_clock(config(&path), clock.clone()).await;
        if ON_POSTGRES {
            clock.advance(61_000);
        }
        let owed = bot.core.tick().await;
        assert_eq!(owed.len(), 1);
        assert_eq!(owed[0].reply.actions, c.actions);
        assert_eq!(owed[0].reply.text, c.text);
    }
}

case! {
    /// Issue 17, point 5 (delivery): a notice that cannot be posted comes back
    /// after a wait that doubles; one refused for good is parked after a few
    /// tries instead of being sent every tick for ever, and comes back when
    /// the bot is seen in its channel again.
    #[tokio::test]
    async fn undeliverable_notices_back_off_park_and_come_back() {
        use voidmate_game::{Refusal, PARK_AFTER};
        let dir = tempfile::tempdir().unwrap();
        let clock = Clock::manual(1_000_000);
        let advance = |ms: i64| clock.advance(ms);
        let mut bot = Bot::with_clock(config(&dir.path().join("v.db")), clock.clone()).await;
        bot.ok("alice", "challenge @bob standard 1+0").await;
        bot.ok("bob", "accept").await;
        advance(61_000);
        let due = bot.core.tick().await;
        let lost: Vec<_> = due
            .iter()
            .filter(|n| n.reply.text.contains("time"))
            .collect();
        assert!(
            !lost.is_empty(),
            "{:?}",
            due.iter().map(|n| &n.reply.text).collect::<Vec<_>>()
        );
        let id = lost.last().unwrap().id;
        let pending = |notices: Vec<voidmate_game::Notice>| notices.iter().any(|n| n.id == id);
        // Other notices of that tick are posted; this one fails for a while.
        for n in due.iter().filter(|n| n.id != id) {
            bot.core.delivered(n.id).await;
        }

        // A passing failure: not on the next tick, back after the wait (2 s),
        // then after twice that.
        bot.core
            .failed(id, Refusal::Temporary { retry_after: None })
            .await;
        assert!(!pending(bot.core.tick().await));
        advance(1_000);
        assert!(!pending(bot.core.tick().await));
        advance(1_500);
        assert!(pending(bot.core.tick().await));
        bot.core
            .failed(id, Refusal::Temporary { retry_after: None })
            .await;
        advance(2_500);
        assert!(!pending(bot.core.tick().await), "the wait doubled");
        advance(2_000);
        assert!(pending(bot.core.tick().await));
        // A wait the platform names is kept.
        bot.core
            .failed(
                id,
                Refusal::Temporary {
                    retry_after: Some(std::time::Duration::from_secs(30)),
                },
            )
            .await;
        advance(20_000);
        assert!(!pending(bot.core.tick().await));
        advance(11_000);
        assert!(pending(bot.core.tick().await));

        // Refused for good: parked after PARK_AFTER answers, then never tried,
        // however long the bot runs.
        for _ in 0..PARK_AFTER {
            bot.core.failed(id, Refusal::Permanent).await;
            advance(3_600_000);
        }
        for _ in 0..5 {
            assert!(!pending(bot.core.tick().await));
            advance(24 * 3_600_000);
        }
        // Seen in that channel again: the notice goes out.
        bot.ok("carol", "help").await;
        assert!(pending(bot.core.tick().await));
        bot.core.delivered(id).await;
        assert!(!pending(bot.core.tick().await));
    }
}

case! {
    /// Issue 17, point 7: each active game carries the moment it next needs
    /// the periodic check (reminder, deadline, low-time warning, flag), kept by
    /// triggers, and the check's query reads due rows through an index.
    /// Issue 22, point 2: several processes on one database share the
    /// outbox. A notice is taken by one process at a time, for a minute
    /// (`NOTICE_LEASE_MS`); one taken by a process that died goes out after
    /// that, once; and a process takes only the notices of the platforms it
    /// runs.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn processes_on_one_database_never_take_the_same_notice() {
        use std::collections::HashSet;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let clock = Clock::manual(1_000_000);
        let advance = |ms: i64| clock.advance(ms);
        let mut a = Bot::with_clock(config(&path), clock.clone()).await;
        let b = Bot::with_clock(config(&path), clock.clone()).await;
        for i in 0..5 {
            a.channel = format!("room{i}");
            a.ok("alice", "challenge @bob standard 1+0").await;
            a.ok("bob", "accept").await;
        }
        // No first move comes: each game is aborted, one notice each.
        advance(61_000);
        let ticks = |a: &Bot, b: &Bot| {
            let (a, b) = (a.core.clone(), b.core.clone());
            async move {
                let (x, y) = tokio::join!(
                    tokio::spawn(async move { a.tick().await }),
                    tokio::spawn(async move { b.tick().await })
                );
                let mut all: Vec<(i64, String)> = Vec::new();
                for n in x.unwrap().into_iter().chain(y.unwrap()) {
                    all.push((n.id, n.reply.text.to_string()));
                }
                all
            }
        };
        let taken = ticks(&a, &b).await;
        let ids: HashSet<i64> = taken.iter().map(|(id, _)| *id).collect();
        assert_eq!(ids.len(), taken.len(), "a notice was taken twice: {taken:?}");
        let aborted = taken.iter().filter(|(_, t)| t.contains("is aborted")).count();
        assert_eq!(aborted, 5, "{taken:?}");

        // Nobody confirms them (that process died): nobody takes them again
        // before the lease ends ...
        advance(30_000);
        assert!(ticks(&a, &b).await.is_empty());
        // ... and then each goes out once more.
        advance(31_000);
        let again = ticks(&a, &b).await;
        let again_ids: HashSet<i64> = again.iter().map(|(id, _)| *id).collect();
        assert_eq!(again_ids.len(), again.len(), "taken twice: {again:?}");
        assert_eq!(again_ids, ids);

        // A process that runs only the Matrix adapter takes no console notice.
        b.core
            .set_command_style("matrix", voidmate_game::CommandStyle::default());
        advance(61_000);
        assert!(b.core.tick().await.is_empty());
        assert_eq!(a.core.tick().await.len(), ids.len());
        for id in ids {
            a.core.delivered(id).await;
        }
        advance(61_000);
        assert!(a.core.tick().await.is_empty(), "confirmed notices came back");
    }
}

case! {
    #[tokio::test]
    async fn the_tick_reads_only_games_that_are_due() {
        let dir = tempfile::tempdir().unwrap();
        let start = 1_700_000_000_000i64;
        let clock = Clock::manual(start);
        let advance = |ms: i64| clock.advance(ms);
        let mut cfg = config(&dir.path().join("v.db"));
        cfg.clock.day_seconds = 100;
        let mut bot = Bot::with_clock(cfg, clock.clone()).await;
        let pool = bot.core.store().pool().clone();
        let due = |id: i64| {
            let pool = pool.clone();
            async move {
                sqlx::query_scalar::<_, Option<i64>>("SELECT due_ms FROM games WHERE id = $1")
                    .bind(id)
                    .fetch_one(&pool)
                    .await
                    .unwrap()
            }
        };
        // Correspondence, 1 "day" (100 s) a move: the reminder at 75 s, then
        // the deadline at 100 s.
        bot.ok("alice", "challenge @bob standard 1d").await;
        bot.ok("bob", "accept").await;
        assert_eq!(due(1).await, Some(start + 75_000));
        advance(80_000);
        let reminded = bot.tick().await;
        assert!(reminded.iter().any(|n| n.contains("your move")));
        assert_eq!(due(1).await, Some(start + 100_000), "next: the deadline");
        bot.ok("alice", "e4").await;
        assert_eq!(
            due(1).await,
            Some(start + 80_000 + 75_000),
            "bob's reminder"
        );

        // A clock of one minute: the warning at 10 s left, then the flag.
        // (Both first moves at once: a first move has only 30 s.)
        bot.ok("carol", "challenge @dave standard 1+0").await;
        bot.ok("dave", "accept").await;
        bot.ok("carol", "e4").await;
        bot.ok("dave", "e5").await;
        let begun = start + 80_000;
        assert_eq!(due(2).await, Some(begun + 50_000));
        advance(55_000);
        bot.tick().await;
        assert_eq!(due(2).await, Some(begun + 60_000), "warned; next the flag");
        bot.ok("carol", "Nf3").await;
        // dave's clock runs now, from a full minute.
        assert_eq!(due(2).await, Some(begun + 55_000 + 50_000));
        bot.ok("carol", "resign #2").await;
        assert_eq!(due(2).await, None, "finished games are never due");
    }
}

case! {
    /// `[database] synchronous = "normal"` trades power-loss durability for
    /// speed on storage that survives power loss; the default is FULL.
    #[tokio::test]
    async fn the_sync_mode_can_be_chosen() {
        let dir = tempfile::tempdir().unwrap();
        let mut cfg = config(&dir.path().join("v.db"));
        cfg.database.synchronous = voidmate_game::config::Synchronous::Normal;
        let bot = Bot::with(cfg).await;
        assert_eq!(sync_mode(&bot).await, if ON_POSTGRES { "off" } else { "1" }, "NORMAL");
    }
}

case! {
    /// Issue 20, point 6: Black Holes' moves through holes name a second
    /// square, but the move list's hint about the void is Suicide Void
    /// Chess's alone.
    #[tokio::test]
    async fn the_void_hint_belongs_to_suicide_void_alone() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        start_game(&mut bot, "black-holes").await;
        for (who, m) in [
            ("alice", "Nc3"),
            ("bob", "Nc6"),
            ("alice", "(Hb1)"),
            ("bob", "(Hb8)"),
        ] {
            bot.ok(who, m).await;
        }
        let moves = bot.ok("alice", "moves").await.text;
        assert!(
            moves.contains("-"),
            "moves through holes are listed: {moves}"
        );
        assert!(!moves.contains("void"), "{moves}");
    }
}

case! {
    /// Issue 20, point 6: against the engine in Super Chess the sides are
    /// Player 1 and Player 2 in the text, as on the board's caption.
    #[tokio::test]
    async fn an_engine_game_of_super_chess_names_players_1_and_2() {
        let dir = tempfile::tempdir().unwrap();
        let mut cfg = config(&dir.path().join("v.db"));
        cfg.engine.move_time_ms = 50;
        let mut bot = Bot::with(cfg).await;
        bot.core.add_bot(console_player("voidmate")).await.unwrap();
        let r = bot.ok("alice", "challenge @voidmate super16 1").await;
        assert!(
            r.text.contains("alice (Player 1) vs voidmate (Player 2)"),
            "{}",
            r.text
        );
        assert!(!r.text.contains("White"), "{}", r.text);
    }
}

case! {
    /// Issue 20, point 8: with moves due in two games, the game's number may
    /// stand anywhere, and the hint for a bare move names it once.
    #[tokio::test]
    async fn a_game_number_anywhere_names_the_game() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        start_game(&mut bot, "standard").await; // #1: alice (White) vs bob
        bot.ok("carol", "challenge @alice standard black").await;
        bot.ok("alice", "accept").await; // #2: alice (White) vs carol
        // alice is to move in both, and e4 is legal in both.
        let r = bot.say("alice", "e4").await;
        assert!(r.is_error);
        assert!(
            r.text.contains("say which, like `move e4 #1`"),
            "{}",
            r.text
        );
        assert!(!r.text.contains("#1 #1"), "{}", r.text);
        let r = bot.ok("alice", "e4 #1").await;
        assert!(r.text.starts_with("#1: alice played e4"), "{}", r.text);
        let r = bot.ok("alice", "#2 d4").await;
        assert!(r.text.starts_with("#2: alice played d4"), "{}", r.text);
        // A number with a bare move must still be the author's game to move in.
        bot.refused(
            "alice",
            "d4 #1",
            "It is not your turn in game #1: bob is to move.",
        )
        .await;
    }
}

case! {
    /// Issue 20, point 9: first contact. A move with no game to play it in,
    /// or before `accept`, says what to do next; a challenge that names no
    /// game says which one and on what board; chatter stays unanswered.
    #[tokio::test]
    async fn a_newcomer_is_told_what_to_do_next() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        let r = bot.say("alice", "e4").await;
        assert!(
            r.is_error && r.text.contains("challenge @someone"),
            "{}",
            r.text
        );
        let r = bot.ok("alice", "challenge @bob").await;
        assert!(
            r.text.contains("Void Chess, our flagship, on a 9x9 board"),
            "{}",
            r.text
        );
        let r = bot.say("alice", "e4").await;
        assert!(r.text.contains("waits for their `accept`"), "{}", r.text);
        let r = bot.say("bob", "e6").await;
        assert!(r.text.contains("say `accept` to begin"), "{}", r.text);
        // Not addressed, not a move: nothing is said.
        let mut ev = bot.event("carol", "hello everyone");
        ev.addressed = false;
        assert!(bot.core.handle(&ev).await.is_none());
        bot.ok("bob", "accept").await;
        bot.ok("alice", "e4").await;
        let r = bot.say("bob", "e7e5").await;
        assert!(
            r.text
                .contains("this board is 9x9, and the pawns start on ranks 2 and 8"),
            "{}",
            r.text
        );
    }
}

case! {
    /// Issue 20, point 10: a correspondence game shows the time left for the
    /// move, in `board` and in the reply to a move.
    #[tokio::test]
    async fn correspondence_games_show_the_time_left() {
        let dir = tempfile::tempdir().unwrap();
        let clock = Clock::manual(1_700_000_000_000);
        let mut cfg = config(&dir.path().join("v.db"));
        cfg.clock.day_seconds = 100;
        let mut bot = Bot::with_clock(cfg, clock.clone()).await;
        bot.ok("alice", "challenge @bob standard 3d").await;
        bot.ok("bob", "accept").await;
        let board = bot.ok("alice", "board").await;
        assert!(
            board.text.contains("alice to move; 3 days left"),
            "{}",
            board.text
        );
        clock.advance(150_000);
        let board = bot.ok("alice", "board").await;
        assert!(
            board.text.contains("alice to move; 1 day 12 hours left"),
            "{}",
            board.text
        );
        let r = bot.ok("alice", "e4").await;
        assert!(r.text.contains("Time for this move: 3 days."), "{}", r.text);
        let board = bot.ok("bob", "board").await;
        assert!(
            board.text.contains("bob to move; 3 days left"),
            "{}",
            board.text
        );
    }
}

case! {
    /// Issue 18, point 5: a correspondence move is judged by when the platform
    /// received it. One sent in time counts though the bot reads it after the
    /// deadline (it was down); one sent after the deadline loses on time; and
    /// deadlines that passed before an event are settled before it.
    #[tokio::test]
    async fn correspondence_moves_are_judged_by_when_they_were_sent() {
        let dir = tempfile::tempdir().unwrap();
        let mut cfg = config(&dir.path().join("v.db"));
        cfg.clock.day_seconds = 100; // "1d" is 100 seconds here
        let t0 = 1_000_000_000i64;
        let clock = Clock::manual(t0);
        let at = |s: i64| clock.set(t0 + s * 1000);
        let mut bot = Bot::with_clock(cfg, clock.clone()).await;
        bot.ok("alice", "challenge @bob void 1d white").await;
        bot.ok("bob", "accept").await;
        bot.ok("alice", "e4").await; // bob's deadline: t0 + 100 s
        let sent = |bot: &mut Bot, who: &str, text: &str, s: i64| {
            let mut ev = bot.event(who, text);
            ev.sent_ms = Some(t0 + s * 1000);
            ev
        };

        // Read at 150 s, sent at 50 s: it counts.
        at(150);
        let ev = sent(&mut bot, "bob", "e6", 50);
        let r = bot.core.handle(&ev).await.unwrap();
        bot.core.delivered(r.deliveries[0]).await;
        assert!(r.text.starts_with("#1: bob played e6."), "{}", r.text);
        // alice's deadline: 250 s. Read at 300 s, sent at 260 s: too late.
        at(300);
        let ev = sent(&mut bot, "alice", "d4", 260);
        let r = bot.core.handle(&ev).await.unwrap();
        bot.core.delivered(r.deliveries[0]).await;
        assert_eq!(
            r.text,
            "Game #1: alice did not move in time. bob wins on time (0-1). Ratings: alice 1500? -> 1338? (-162), bob 1500? -> 1662? (+162)."
        );
        assert_eq!(names(&r.notify), ["alice", "bob"]);
        let status: String = sqlx::query_scalar("SELECT status FROM games WHERE id = 1")
            .fetch_one(bot.core.store().pool())
            .await
            .unwrap();
        assert_eq!(status, "finished");

        // A second game: its deadline passes while nobody moves; an event read
        // later settles it first, and the periodic check announces it once.
        bot.ok("alice", "challenge @bob void 1d white").await;
        bot.ok("bob", "accept").await; // alice's deadline: 400 s
        at(500);
        bot.core.settle_deadlines(t0 + 450 * 1000).await;
        let r = bot.say("alice", "board #2").await;
        assert!(r.text.contains("0-1 time forfeit"), "{}", r.text);
        let notices = bot.tick().await;
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert!(notices[0].contains("alice did not move in time"));
        // Settling before a deadline changes nothing.
        bot.ok("alice", "challenge @bob void 1d white").await;
        bot.ok("bob", "accept").await; // alice's deadline: 600 s
        bot.core.settle_deadlines(t0 + 550 * 1000).await;
        let r = bot.ok("alice", "e4 #3").await;
        assert!(r.text.starts_with("#3: alice played e4."), "{}", r.text);
    }
}

case! {
    /// Issue 22, point 2: an engine turn is held by one process at a time
    /// under a lease. A process whose search was cut off (it died) holds it
    /// until the lease ends; then exactly one of the processes still alive
    /// takes it and plays the move, announced once.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_engine_turn_left_by_a_dead_process_is_taken_by_one_other_when_its_lease_ends() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let clock = Clock::manual(wall_ms());
        let mut slow = config(&path);
        slow.engine.move_time_ms = 3000;
        let mut a = Bot::with_clock(slow, clock.clone()).await;
        // The others' searches last long enough to be still running when
        // the tick that started one returns, however loaded the machine: at
        // 50 ms, with PostgreSQL's round trips on a machine running other
        // work, a search once ended within that tick (its move already
        // among the tick's notices and its lease already given back).
        let mut fast = config(&path);
        fast.engine.move_time_ms = 1000;
        let b = Bot::with_clock(fast.clone(), clock.clone()).await;
        let c = Bot::with_clock(fast, clock.clone()).await;
        for bot in [&a, &b, &c] {
            bot.core.add_bot(console_player("voidmate")).await.unwrap();
        }
        a.ok("alice", "challenge @voidmate standard white 5").await;
        let ev = a.event("alice", "e4");
        let cut = tokio::time::timeout(std::time::Duration::from_millis(500), a.core.handle(&ev)).await;
        assert!(cut.is_err(), "the search should still be running");
        assert_eq!(moves_in(&a.core, 1).await, 1);
        // alice's answer is owed and goes out after its grace; the turn is a's
        // until its lease ends: nobody else searches meanwhile.
        clock.advance(10_000);
        let (x, y) = tokio::join!(b.core.tick(), c.core.tick());
        for n in x.iter().chain(&y) {
            b.core.delivered(n.id).await;
        }
        assert_eq!(holder(&b.core, 1).await.as_deref(), Some(a.core.leases().holder()));
        for other in [&b, &c] {
            assert_eq!(other.core.leases().count(LeaseKind::EngineTurn), 0, "searched during a's lease");
        }
        assert_eq!(moves_in(&b.core, 1).await, 1);
        // The lease ends: b and c both look; one of them plays.
        clock.advance(voidmate_game::ENGINE_LEASE_MS);
        let (x, y) = tokio::join!(b.core.tick(), c.core.tick());
        assert!(x.is_empty() && y.is_empty(), "{x:?} {y:?}");
        let taken = b.core.leases().count(LeaseKind::EngineTurn) + c.core.leases().count(LeaseKind::EngineTurn);
        assert_eq!(taken, 1, "one of them searches");
        // Its move (a one-second search) is announced; alice's answer, owed since
        // a's handling was cut off, goes with it.
        let mut announced = Vec::new();
        for _ in 0..600 {
            let (x, y) = tokio::join!(b.core.tick(), c.core.tick());
            for n in x.iter().chain(&y) {
                b.core.delivered(n.id).await;
                announced.push(n.reply.text.to_string());
            }
            if announced.len() >= 2 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert_eq!(moves_in(&b.core, 1).await, 2, "the engine's move, once");
        assert!(b.tick().await.is_empty() && c.tick().await.is_empty(), "announced once");
        // alice's answer, owed since a's handling was cut off, goes out
        // first (its hold outlasted any post), then the engine's move: the
        // channel reads them in the order of the moves (issue 40, point 4).
        assert_eq!(announced.len(), 2, "{announced:?}");
        assert!(announced[0].starts_with("#1: alice played e4."), "{announced:?}");
        assert!(
            announced[1].contains("voidmate played") && announced[1].contains("alice, your move"),
            "{announced:?}"
        );
    }
}

case! {
    /// Issue 22, point 3: with `searches = "workers"` the process that handles
    /// a move only queues the engine's turn; engine workers take it (one each),
    /// play it through the core, and a chat process posts it. A worker that
    /// stops renewing its lease (killed) loses the turn to another, and its
    /// late answer is turned away.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn engine_workers_play_the_queued_turns_and_one_takes_over_from_a_dead_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let clock = Clock::manual(wall_ms());
        let mut chat_cfg = config(&path);
        chat_cfg.engine.searches = voidmate_game::config::Searches::Workers;
        let mut chat = Bot::with_clock(chat_cfg, clock.clone()).await;
        chat.core.add_bot(console_player("voidmate")).await.unwrap();
        let mut quick = config(&path);
        quick.engine.move_time_ms = 50;
        let w1 = Core::open_with_time(&quick, clock.clone())
            .await
            .unwrap();
        let w2 = Core::open_with_time(&quick, clock.clone())
            .await
            .unwrap();

        // Level 5: no depth cap, so a search lasts its whole time (the slow
        // worker below must still be thinking when it "dies").
        chat.ok("alice", "challenge @voidmate standard white 5").await;
        let r = chat.ok("alice", "e4").await;
        assert!(
            r.text.starts_with("#1: alice played e4.") && r.text.ends_with("I am thinking about my move."),
            "{}",
            r.text
        );
        assert!(!r.text.contains("voidmate played"), "{}", r.text);
        // The chat process never searches: its periodic check leaves the
        // turn to the workers.
        assert!(chat.tick().await.is_empty());
        assert_eq!(chat.core.leases().count(LeaseKind::EngineTurn), 0);
        assert_eq!(holder(&chat.core, 1).await, None);
        assert_eq!(moves_in(&chat.core, 1).await, 1);
        // Two workers look at once: one takes the turn.
        let (x, y) = tokio::join!(w1.take_engine_turns(), w2.take_engine_turns());
        assert_eq!(x + y, 1, "taken by {x} and {y}");
        let told = notices_from(&chat.core, 1).await;
        assert_eq!(told.len(), 1, "{told:?}");
        assert!(
            told[0].starts_with("#1: voidmate played") && told[0].contains("alice, your move"),
            "{told:?}"
        );
        assert_eq!(moves_in(&chat.core, 1).await, 2);

        // A slow worker takes the next turn and dies (stops renewing): its
        // lease ends, a live worker plays, the dead one's answer is refused.
        let mut slow = config(&path);
        slow.engine.move_time_ms = 2500;
        let dead = Core::open_with_time(&slow, clock.clone())
            .await
            .unwrap();
        let moves = chat.ok("alice", "moves").await.text;
        let first = moves
            .split_once(": ")
            .and_then(|(_, list)| list.split_whitespace().next())
            .unwrap()
            .to_string();
        chat.ok("alice", &first).await;
        assert_eq!(dead.take_engine_turns().await, 1);
        assert_eq!(holder(&chat.core, 1).await.as_deref(), Some(dead.leases().holder()));
        assert_eq!(w1.take_engine_turns().await, 0, "taken while leased");
        // It dies: nothing renews its lease any more (its search thread
        // goes on, as a process cut off from the database would).
        dead.leases().stop().await;
        clock.advance(voidmate_game::ENGINE_LEASE_MS + 1000);
        assert_eq!(w1.take_engine_turns().await, 1);
        let told = notices_from(&chat.core, 1).await;
        assert_eq!(told.len(), 1, "{told:?}");
        // The dead one's search ends and its answer, for a game that moved
        // on, is refused: nothing more is stored or told.
        while dead.leases().count(LeaseKind::EngineTurn) > 0 {
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert!(chat.tick().await.is_empty());
        assert_eq!(moves_in(&chat.core, 1).await, 4, "each move once");
        let (waiting, queued): (i64, i64) = (
            chat.core.health().await.unwrap().engine_waiting,
            chat.core.health().await.unwrap().engine_queued,
        );
        assert_eq!((waiting, queued), (0, 0));
    }
}

case! {
    /// Issue 40, point 2: the intake records the names an event carries
    /// in one statement on PostgreSQL. Names as platforms send them (Cyrillic
    /// with emoji, Arabic, empty, 10,000 characters), an author who names
    /// themself, and a person named twice: each is stored as named, once, and
    /// the command goes through; the same event again changes nothing.
    #[tokio::test]
    async fn the_names_an_event_carries_are_stored_as_sent() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        let long = "ж".repeat(10_000);
        let names = ["Саша🔥", "محمد", "", long.as_str()];
        for (i, name) in names.iter().enumerate() {
            let author = Player::new(PlayerId::new(PLATFORM, &format!("p{i}")), *name);
            let other = Player::new(PlayerId::new(PLATFORM, &format!("q{i}")), *name);
            let mut ev = bot.event("", "challenge @someone standard");
            ev.author = author.clone();
            let named = |written: &str, who: &Player| voidmate_game::Mentioned {
                written: written.into(),
                who: who.clone(),
            };
            ev.mentions = vec![
                named("@someone", &other),
                named("@me", &author),
                named("@someone", &other),
            ];
            let r = bot.core.handle(&ev).await.expect("a reply");
            bot.posted(&r).await;
            assert!(!r.is_error, "{i}: {}", r.text);
            assert!(bot.core.handle(&ev).await.is_none(), "{i}: handled once");
            for who in [&author, &other] {
                let stored: Vec<String> = sqlx::query_scalar("SELECT name FROM players WHERE id = $1")
                    .bind(who.id.as_str())
                    .fetch_all(bot.core.store().pool())
                    .await
                    .unwrap();
                // As the platform's player is named (an empty name stands
                // as the id's own part, `Player::new`).
                assert_eq!(stored, std::slice::from_ref(&who.name), "{i}");
            }
        }
    }
}

case! {
    /// Issue 40, point 4: a channel reads its answers in the order of the
    /// events. alice's move is stored but its answer never posted (the
    /// process dies); after the restart bob's move is answered with
    /// alice's owed answer first ([`Reply::before`]), each posted once. And
    /// the periodic check never posts a newer notice before an older one
    /// of its channel still held by a post, until that hold outlasts a post.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn answers_go_out_in_the_order_of_the_events_after_a_restart() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let clock = Clock::manual(wall_ms());
        let mut bot = Bot::with_clock(config(&path), clock.clone()).await;
        start_game(&mut bot, "standard").await;
        let lost = bot.say_unconfirmed("alice", "e4").await;
        assert!(lost.text.starts_with("#1: alice played e4."), "{}", lost.text);
        drop(bot);

        // Another process (after a restart, or beside it on PostgreSQL),
        // a few seconds later: the dead one's hold has gone unrenewed for
        // longer than a live poster lets it.
        clock.advance(voidmate_game::ORDER_WAIT_MS + 1_000);
        let mut bot = Bot::with_clock(config(&path), clock.clone()).await;
        bot.n = 100;
        let ev = bot.event("bob", "e5");
        let r = bot.core.handle(&ev).await.unwrap();
        assert!(r.text.starts_with("#1: bob played e5."), "{}", r.text);
        let owed: Vec<String> = r.before.iter().map(|n| n.reply.text.to_string()).collect();
        assert_eq!(owed, [lost.text.to_string()], "alice's answer goes first");
        assert_eq!(r.before[0].key(), lost.key().unwrap(), "posted with its first key");
        for n in &r.before {
            bot.core.delivered(n.id).await;
        }
        for entry in &r.deliveries {
            bot.core.delivered(*entry).await;
        }
        clock.advance(61_000);
        assert!(bot.core.tick().await.is_empty(), "each posted once");

        // An answer owed in the channel, still in its post's grace, and a
        // newer notice due: the check holds the notice back while that post
        // may still come; once the hold outlasts a post, both go, in order.
        let older = bot.say_unconfirmed("alice", "Nf3").await;
        {
            let mut tx = bot.core.store().begin().await.unwrap();
            let text = voidmate_game::Text::from("a notice after it".to_string());
            voidmate_game::store::queue_notice(&mut tx, "room", &text, &[])
                .await
                .unwrap();
            tx.commit().await.unwrap();
        }
        assert!(bot.core.tick().await.is_empty(), "held behind the older answer");
        clock.advance(4_000);
        assert!(bot.core.tick().await.is_empty(), "its post may still come");
        clock.advance(2_000);
        let both = bot.core.tick().await;
        let texts: Vec<String> = both.iter().map(|n| n.reply.text.to_string()).collect();
        assert_eq!(texts, [older.text.to_string(), "a notice after it".to_string()]);
        for n in &both {
            bot.core.delivered(n.id).await;
        }
        clock.advance(61_000);
        assert!(bot.core.tick().await.is_empty());
    }
}

case! {
    /// Issue 40, point 4: an answer that cannot be told from a second post
    /// of itself (a Discord interaction's answer has no nonce) renews its
    /// hold while it is sent ([`Core::keep_posting`]). A newer answer in the
    /// channel waits behind it for as long as that lasts, even past the
    /// five seconds after which it takes over an answer whose process is
    /// gone, so a slow post never shows twice; once the post stops renewing
    /// without a confirmation (its process died), the answer is taken over.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_slow_post_that_renews_its_hold_is_not_taken_over() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let clock = Clock::manual(wall_ms());
        let mut bot = Bot::with_clock(config(&path), clock.clone()).await;
        start_game(&mut bot, "standard").await;
        let other = Core::open_with_time(&config(&path), clock.clone()).await.unwrap();

        // alice's answer is being posted, slowly, by this process.
        let slow = bot.say_unconfirmed("alice", "e4").await;
        assert!(slow.text.starts_with("#1: alice played e4."), "{}", slow.text);
        let posting = bot.core.keep_posting(&slow.deliveries);
        let ev = bot.event("bob", "e5");
        let newer = tokio::spawn(async move { other.handle(&ev).await });
        // Longer than a takeover of a dead process's answer waits, a second
        // at a time: each second the post renews its hold.
        let hold = slow.deliveries[0];
        for _ in 0..7 {
            let now = clock.advance(1_000);
            while hold_until(&bot.core, hold).await < now + voidmate_game::NOTICE_LEASE_MS {
                tokio::time::sleep(std::time::Duration::from_millis(5)).await;
            }
        }
        assert!(!newer.is_finished(), "bob's answer waits behind alice's");
        bot.posted(&slow).await;
        drop(posting);
        let r = newer.await.unwrap().expect("a reply");
        assert!(r.text.starts_with("#1: bob played e5."), "{}", r.text);
        assert!(
            r.before.is_empty(),
            "alice's answer was taken over while it was being posted: {:?}",
            r.before.iter().map(|n| n.reply.text.to_string()).collect::<Vec<_>>()
        );
        bot.posted(&r).await;

        // A post that stops renewing without a confirmation: its process is
        // gone, and the next answer takes it over and posts it first once
        // the hold has stood unrenewed for the order wait.
        let lost = bot.say_unconfirmed("alice", "Nf3").await;
        drop(bot.core.keep_posting(&lost.deliveries));
        let ev = bot.event("bob", "Nc6");
        let core = bot.core.clone();
        let next = tokio::spawn(async move { core.handle(&ev).await });
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        assert!(!next.is_finished(), "not before the order wait");
        clock.advance(voidmate_game::ORDER_WAIT_MS);
        let r = next.await.unwrap().expect("a reply");
        let owed: Vec<String> = r.before.iter().map(|n| n.reply.text.to_string()).collect();
        assert_eq!(owed, [lost.text.to_string()]);
    }
}

case! {
    /// Regression (found with the renewal of holds): a reply owed a due
    /// notice and, after it, one held by a post. The due one is taken at
    /// once and the held one after the wait; the due one, now leased by
    /// this wait, neither holds the wait up nor is taken a second time.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_notice_owed_before_a_reply_is_posted_once() {
        let dir = tempfile::tempdir().unwrap();
        let clock = Clock::manual(wall_ms());
        let mut bot = Bot::with_clock(config(&dir.path().join("v.db")), clock.clone()).await;
        start_game(&mut bot, "standard").await;
        {
            let mut tx = bot.core.store().begin().await.unwrap();
            let text = voidmate_game::Text::from("a notice first".to_string());
            voidmate_game::store::queue_notice(&mut tx, "room", &text, &[])
                .await
                .unwrap();
            tx.commit().await.unwrap();
        }
        let held = bot.say_unconfirmed("alice", "e4").await;
        // bob's answer takes the due notice at once, and alice's answer
        // once its hold has stood the order wait unrenewed.
        let ev = bot.event("bob", "e5");
        let core = bot.core.clone();
        let reply = tokio::spawn(async move { core.handle(&ev).await });
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        clock.advance(voidmate_game::ORDER_WAIT_MS);
        let r = reply.await.unwrap().expect("a reply");
        assert!(r.text.starts_with("#1: bob played e5."), "{}", r.text);
        let owed: Vec<String> = r.before.iter().map(|n| n.reply.text.to_string()).collect();
        assert_eq!(owed, ["a notice first".to_string(), held.text.to_string()]);
    }
}

case! {
    /// Issue 40, point 7: the engine never moves for a person. A start-up
    /// scan found the bot to move, then an engine worker played the bot's
    /// move: the scan's queueing, which comes after, sees the person to move
    /// and queues nothing. A turn queued where a person is to move anyway
    /// (by a version that did not check) is dropped by the worker that
    /// takes it, and nothing is played for the person.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_engine_never_moves_for_a_person() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let mut chat_cfg = config(&path);
        chat_cfg.engine.searches = voidmate_game::config::Searches::Workers;
        let mut chat = Bot::with(chat_cfg).await;
        chat.core.add_bot(console_player("voidmate")).await.unwrap();
        let mut quick = config(&path);
        quick.engine.move_time_ms = 50;
        // A worker meets no platform: it knows the bot from the database.
        let worker = Core::open(&quick).await.unwrap();
        chat.ok("alice", "challenge @voidmate standard white 1").await;
        chat.ok("alice", "e4").await;
        let wanted = |core: &Core| {
            let pool = core.store().pool().clone();
            async move {
                sqlx::query_scalar::<_, Option<i64>>("SELECT engine_wanted_ms FROM games WHERE id = 1")
                    .fetch_one(&pool)
                    .await
                    .unwrap()
            }
        };
        // The scan's first look: the bot is to move, its turn is queued.
        assert!(wanted(&chat.core).await.is_some());
        assert!(!chat.core.queue_engine_turn_if_due(1).await.unwrap(), "already queued");
        // The worker plays it; now alice is to move.
        assert_eq!(worker.take_engine_turns().await, 1);
        for _ in 0..100 {
            if moves_in(&chat.core, 1).await == 2 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert_eq!(moves_in(&chat.core, 1).await, 2);
        assert_eq!(wanted(&chat.core).await, None);
        // The scan's queueing, late: nothing is queued for alice.
        assert!(!chat.core.queue_engine_turn_if_due(1).await.unwrap());
        assert_eq!(wanted(&chat.core).await, None);
        assert_eq!(worker.take_engine_turns().await, 0);

        // A turn queued for alice all the same: the worker drops it.
        sqlx::query("UPDATE games SET engine_wanted_ms = 1 WHERE id = 1")
            .execute(chat.core.store().pool())
            .await
            .unwrap();
        assert_eq!(worker.take_engine_turns().await, 1);
        for _ in 0..100 {
            if wanted(&chat.core).await.is_none() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert_eq!(wanted(&chat.core).await, None, "the wrong turn is dropped");
        assert_eq!(moves_in(&chat.core, 1).await, 2, "nothing played for alice");
        let stored: Vec<String> =
            sqlx::query_scalar("SELECT played_by FROM moves WHERE game_id = 1 ORDER BY ply")
                .fetch_all(chat.core.store().pool())
                .await
                .unwrap();
        assert_eq!(stored, ["console:alice", "console:voidmate"]);
        // alice's own move brings the bot's turn back, and it is played.
        let r = chat.ok("alice", "d4").await;
        assert!(r.text.starts_with("#1: alice played d4."), "{}", r.text);
        assert_eq!(worker.take_engine_turns().await, 1);
        for _ in 0..100 {
            if moves_in(&chat.core, 1).await == 4 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert_eq!(moves_in(&chat.core, 1).await, 4);
    }
}

case! {
    /// Issue 22, point 5: every process reports itself; `health` shows each
    /// with what it runs, the queues, and is unwell when a part is unwell or a
    /// process falls silent.
    #[tokio::test]
    async fn health_reports_every_process_and_the_queues() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let clock = Clock::manual(wall_ms());
        let mut a = Bot::with_clock(config(&path), clock.clone()).await;
        let b = Bot::with_clock(config(&path), clock.clone()).await;
        a.core.set_process_kind("run");
        a.core.report("discord", true, "shards [0, 1] of 4, 2 of 2 connected");
        b.core.set_process_kind("engine-worker");
        a.ok("alice", "challenge @bob standard").await;
        a.ok("bob", "accept").await;
        a.core.tick().await;
        b.core.tick().await;
        let h = a.core.health().await.unwrap();
        assert!(h.is_healthy(), "{h}");
        assert_eq!(h.games_in_play, 1);
        let kinds: Vec<&str> = h.processes.iter().map(|p| p.kind.as_str()).collect();
        assert_eq!(kinds.len(), 2, "{h}");
        assert!(kinds.contains(&"run") && kinds.contains(&"engine-worker"), "{h}");
        let text = h.to_string();
        assert!(
            text.contains("shards [0, 1] of 4, 2 of 2 connected") && text.ends_with("healthy"),
            "{text}"
        );
        // A shard drops: the next report says so.
        a.core.report("discord", false, "shards [0, 1] of 4, 1 of 2 connected");
        clock.advance(6_000);
        a.core.tick().await;
        b.core.tick().await;
        let h = a.core.health().await.unwrap();
        assert!(!h.is_healthy(), "{h}");
        assert!(h.to_string().contains("UNWELL"), "{h}");
        // It comes back; then b falls silent.
        a.core.report("discord", true, "shards [0, 1] of 4, 2 of 2 connected");
        clock.advance(voidmate_game::SILENT_AFTER_MS);
        a.core.tick().await;
        let h = a.core.health().await.unwrap();
        assert!(!h.is_healthy(), "{h}");
        assert!(h.to_string().contains("engine-worker") && h.to_string().contains("SILENT"), "{h}");
    }
}

case! {
    /// Issue 22, point 4: a deployment moves from a SQLite file to another
    /// database (PostgreSQL in `core_postgres`): games, moves, challenges,
    /// settings and owed notices are copied, every game is verified by replay,
    /// and play goes on in the copy with new ids after the old ones. A
    /// destination that is not empty is refused, and a source game whose
    /// record does not hold together fails the verification.
    #[tokio::test]
    async fn a_deployment_moves_to_another_database_and_play_goes_on() {
        let dir = tempfile::tempdir().unwrap();
        let mut source_cfg = Config::default();
        source_cfg.database.path = dir.path().join("old.db");
        let mut old = Bot::with(source_cfg.clone()).await;
        old.ok("alice", "challenge @bob standard 2d").await;
        old.ok("bob", "accept").await;
        for m in ["e4", "e5", "Nf3"] {
            let who = if m == "e5" { "bob" } else { "alice" };
            old.ok(who, m).await;
        }
        old.ok("carol", "challenge @dave chess99").await;
        old.ok("alice", "settings theme high-contrast").await;
        old.channel = "other".into();
        old.ok("alice", "challenge @carol antichess").await;
        old.ok("carol", "accept").await;
        // An answer owed: handled, never confirmed as posted.
        let ev = old.event("alice", "e3");
        assert!(!old.core.handle(&ev).await.unwrap().is_error);
        let owed_before: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM outbox")
            .fetch_one(old.core.store().pool())
            .await
            .unwrap();
        assert!(owed_before >= 1);
        // Ratings come along too (issue 38, point 5).
        old.channel = "third".into();
        rated_game(&mut old, "erin", "frank", "", 1.0).await;
        let rating_before = old.ok("erin", "rating").await.text.to_string();
        drop(old);

        let new_path = dir.path().join("new.db");
        let target_cfg = config(&new_path);
        let source = Core::inspect(&source_cfg).await.unwrap();
        let target = Core::inspect(&target_cfg).await.unwrap();
        let mut tables = Vec::new();
        let done = source
            .copy_to(&target, |t, _| tables.push(t.to_string()))
            .await
            .unwrap();
        assert_eq!(done.games_verified, 3);
        let count = |table: &'static str| done.copied.iter().find(|(t, _)| *t == table).unwrap().1;
        assert_eq!(count("games"), 3);
        assert_eq!(count("moves"), 6);
        assert_eq!(count("challenges"), 4);
        assert_eq!(count("ratings"), 2);
        assert_eq!(count("rating_changes"), 2);
        assert_eq!(count("channel_settings"), 1);
        assert_eq!(count("outbox") as i64, owed_before);
        assert!(tables.contains(&"handled_events".to_string()));
        // Twice: refused, the copy is untouched.
        let again = source.copy_to(&target, |_, _| {}).await.unwrap_err().to_string();
        assert!(again.contains("is not empty"), "{again}");
        drop(target);

        // Play goes on in the copy, where it stopped.
        let mut new = Bot::open(&new_path).await;
        // The handled event ids came along: a redelivered old event stays
        // handled (this test's ids count on from where the old bot stopped).
        let ev = new.event("bob", "Nc6");
        assert!(new.core.handle(&ev).await.is_none(), "an old event handled again");
        new.n = 1000;
        let r = new.ok("bob", "Nc6").await;
        assert!(r.text.starts_with("#1: bob played Nc6."), "{}", r.text);
        new.ok("dave", "accept").await;
        let listed = new.ok("alice", "games").await.text;
        assert!(listed.contains("#4"), "the next game is #4: {listed}");
        new.channel = "other".into();
        let r = new.ok("carol", "e6").await;
        assert!(r.text.starts_with("#2: carol played e6."), "{}", r.text);
        new.channel = "third".into();
        assert_eq!(new.ok("erin", "rating").await.text.to_string(), rating_before);
        assert!(new.core.check_ratings().await.unwrap().problems.is_empty());

        // A source whose game does not replay fails the verification.
        sqlx::query("DELETE FROM moves WHERE game_id = 1 AND ply = 2")
            .execute(source.store().pool())
            .await
            .unwrap();
        let broken_path = dir.path().join("broken.db");
        let broken = Core::inspect(&config(&broken_path)).await.unwrap();
        let err = source.copy_to(&broken, |_, _| {}).await.unwrap_err().to_string();
        assert!(err.contains("do not replay") && err.contains("#1"), "{err}");
    }
}

case! {
    /// Issue 43, points 1 and 2: a question said to the bot without `rules`
    /// is a rules question (chatter between players is left alone); `rules`
    /// alone inside a game is that game's overview, with one topic list;
    /// Super Chess's pieces come with their letters.
    #[tokio::test]
    async fn questions_to_the_bot_are_answered_from_the_rules() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        start_game(&mut bot, "void").await;
        let r = bot.ok("alice", "how does the minister move?").await;
        assert!(r.text.to_string().starts_with("The Minister\n"), "{}", r.text);
        assert!(r.image.is_some(), "the topic's diagram");
        // A passage that scores nearly as well is suggested after it.
        assert!(
            r.text.to_string().contains("\nAlso close: When the Minister is hemmed in: "),
            "{}",
            r.text
        );
        let r = bot.ok("bob", "can I castle through an unstable tile?").await;
        assert!(
            r.text.to_string().contains("never castle through an unstable tile"),
            "{}",
            r.text
        );
        let mut chatter = bot.event("bob", "how does the minister move?");
        chatter.addressed = false;
        assert!(bot.core.handle(&chatter).await.is_none(), "not said to the bot");
        let r = bot.ok("alice", "rules").await.text.to_string();
        assert!(r.starts_with("Void Chess: "), "{r}");
        let r = bot.ok("alice", "rules super16").await.text.to_string();
        assert_eq!(r.matches("Topics:").count(), 1, "{r}");
        let r = bot.ok("alice", "rules super16 pieces").await.text.to_string();
        for letter in ["Prince (I)", "Princess (S)", "Archbishop (H)", "Super Knight (U)", "Fortress (F)"] {
            assert!(r.contains(letter), "{letter}: {r}");
        }
        let r = bot.ok("alice", "rules chess99 paladin").await.text.to_string();
        assert!(r.contains("White's starts on f1"), "{r}");
    }
}

case! {
    /// Issue 43, point 6: `games` names games and time controls as the
    /// replies do, and so does the list of games to choose from.
    #[tokio::test]
    async fn games_names_games_and_time_controls_as_replies_do() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        bot.ok("alice", "challenge @bob void 3d").await;
        bot.ok("carol", "challenge @dave chess99 1+1").await;
        let listed = bot.ok("erin", "games").await.text.to_string();
        assert_eq!(
            listed,
            "Challenge: alice invites bob to Void Chess, 3 days per move, waiting\n\
             Challenge: carol invites dave to Chess 99, 1 minute + 1 second per move, waiting"
        );
    }
}

case! {
    /// Issue 43, point 7: a game's PGN as the standard and common readers
    /// expect: the seven tags first and in order, the date and time in UTC,
    /// `TimeControl` in seconds (python-chess reads 1+0 as 60 seconds), `-`
    /// without a clock.
    #[tokio::test]
    async fn pgn_tags_are_as_readers_expect() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        bot.ok("alice", "challenge @bob standard 1+0").await;
        bot.ok("bob", "accept").await;
        bot.ok("alice", "e4").await;
        bot.ok("bob", "e5").await;
        let text = bot.ok("alice", "pgn").await.text.to_string();
        let pgn = &text[text.find("[Event").unwrap_or_else(|| panic!("{text}"))..];
        let tags: Vec<&str> = pgn
            .lines()
            .take_while(|l| l.starts_with('['))
            .map(|l| l[1..].split(' ').next().unwrap())
            .collect();
        assert_eq!(
            tags[..7],
            ["Event", "Site", "Date", "Round", "White", "Black", "Result"],
            "{pgn}"
        );
        for tag in ["UTCDate", "UTCTime", "Variant", "TimeControl"] {
            assert!(tags.contains(&tag), "{tag}: {pgn}");
        }
        assert!(pgn.contains("[TimeControl \"60+0\"]"), "{pgn}");
        assert!(pgn.contains("[Round \"-\"]"), "{pgn}");
        let date = pgn.split("[Date \"").nth(1).unwrap().split('"').next().unwrap();
        assert!(
            date.len() == 10 && date.chars().filter(|c| *c == '.').count() == 2,
            "{date}"
        );
        // Issue 39, point 3: each move of a clock game carries its clock
        // (an independent reader's view: `readers.rs`).
        assert!(pgn.contains("[%clk 0:01:00]") || pgn.contains("[%clk 0:00:59]"), "{pgn}");

        bot.ok("carol", "challenge @dave standard 2d").await;
        bot.ok("dave", "accept").await;
        let text = bot.ok("carol", "pgn #2").await.text.to_string();
        assert!(text.contains("[TimeControl \"-\"]"), "{text}");
    }
}

case! {
    /// Issue 43, point 5: near-moves get the right hint. Decorations after
    /// a move are read past; two moves at once are refused by name; a
    /// square that is no square is named; with moves alone off, `move e4`
    /// is suggested; with two games to move in and the move legal in one,
    /// that one is named.
    #[tokio::test]
    async fn near_moves_get_the_right_hint() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        start_game(&mut bot, "standard").await;
        bot.refused(
            "alice",
            "Nf3 Nc6",
            "One move at a time: play Nf3 now, and Nc6 on your next turn.",
        )
        .await;
        bot.refused(
            "alice",
            "Qz9",
            "Qz9: z9 is not on this board (files a-h, ranks 1-8).",
        )
        .await;
        let r = bot.ok("alice", "e4 ♟️ 🙂").await;
        assert!(r.text.starts_with("#1: alice played e4."), "{}", r.text);
        // Two games where bob is to move (Black in #1, White in #2); i3 is
        // a move only the 9x9 board has.
        bot.ok("carol", "challenge @bob void black").await;
        bot.ok("bob", "accept").await;
        bot.refused("bob", "i3", "i3 is legal only in #2: `move i3 #2`.").await;
        bot.ok("alice", "settings bare-moves off").await;
        bot.refused(
            "bob",
            "e5",
            "Moves alone are not read here: say `move e5` (or turn them on with `settings bare-moves on`).",
        )
        .await;
    }
}

case! {
    /// Issue 43, point 5: `moves SQUARE` on a piece of the side that waits
    /// shows its moves for its next turn, as the board stands.
    #[tokio::test]
    async fn moves_of_a_waiting_piece_are_for_its_next_turn() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        start_game(&mut bot, "standard").await;
        bot.ok("alice", "e4").await;
        let r = bot.ok("alice", "moves g1").await;
        assert_eq!(
            r.text,
            "bob to move; on alice's next turn, as the board stands now, the knight on g1 could play: Ne2 Nf3 Nh3"
        );
        let r = bot.ok("alice", "moves e5").await;
        assert_eq!(r.text, "There is no piece on e5.");
    }
}

case! {
    /// Issue 43, point 5: a Black Holes move that takes one's own piece
    /// says so (the rules page's diagram: the rook comes out of a hole onto
    /// its own pawn).
    #[tokio::test]
    async fn taking_ones_own_piece_is_said() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        start_game(&mut bot, "black-holes").await;
        let fen = "rn1qk/p1ppp/Bphh1/3hH/HP3/3N1/PBPPP/RH1QK w - - 0 1";
        sqlx::query("UPDATE games SET start_fen = $1, fen = $1 WHERE id = 1")
            .bind(fen)
            .execute(bot.core.store().pool())
            .await
            .unwrap();
        let r = bot.ok("alice", "Ra1-b1-a4xb4").await;
        assert!(
            r.text.starts_with("#1: alice played Ra1-b1-a4xb4, taking their own pawn."),
            "{}",
            r.text
        );
    }
}

case! {
    /// Issue 43, point 5: against the bot (always casual) a takeback is
    /// granted on the player's turn, and a draw offer is answered by the
    /// engine's judgement: accepted when the bot stands worse, declined,
    /// with its score, when it stands better.
    #[tokio::test]
    async fn the_bot_grants_takebacks_and_judges_draw_offers() {
        let dir = tempfile::tempdir().unwrap();
        let mut cfg = config(&dir.path().join("v.db"));
        cfg.engine.move_time_ms = 50;
        let mut bot = Bot::with(cfg).await;
        bot.core.add_bot(console_player("voidmate")).await.unwrap();
        bot.ok("alice", "challenge @voidmate standard 1").await;
        // Issue 53: no draw before the bot's own first move.
        bot.refused(
            "alice",
            "draw",
            "I have not made my first move in game #1 yet: offer a draw once the game has begun, or `abort` it.",
        )
        .await;
        bot.ok("alice", "e4").await;
        answered(&mut bot).await;
        let back = bot.ok("alice", "undo").await.text.to_string();
        assert!(back.contains("taken back in game #1. alice, your move."), "{back}");
        let h = bot.ok("alice", "history").await;
        assert!(h.text.ends_with("no moves yet."), "{}", h.text);

        let pool = bot.core.store().pool().clone();
        let set = |fen: &'static str| {
            let pool = pool.clone();
            async move {
                sqlx::query("UPDATE games SET start_fen = $1, fen = $1 WHERE id = 1")
                    .bind(fen)
                    .execute(&pool)
                    .await
                    .unwrap();
            }
        };
        // The bot (Black) has a queen against a lone king: it plays on.
        set("4k2q/8/8/8/8/8/8/4K3 w - - 0 40").await;
        bot.ok("alice", "Kd1").await;
        answered(&mut bot).await;
        let r = bot.say("alice", "draw").await;
        assert!(r.is_error);
        assert!(
            r.text.to_string().starts_with("I decline the draw in game #1: I think I stand better (+"),
            "{}",
            r.text
        );
        // A lone king against a queen and a rook: it takes the draw.
        sqlx::query("DELETE FROM moves WHERE game_id = 1")
            .execute(&pool)
            .await
            .unwrap();
        set("4k3/8/8/8/8/8/8/R3K2Q w - - 0 40").await;
        bot.ok("alice", "Kd1").await;
        answered(&mut bot).await;
        let r = bot.ok("alice", "draw").await.text.to_string();
        assert!(r.starts_with("I accept the draw in game #1: I think I stand worse (-"), "{r}");
        assert!(r.ends_with("Game #1 is drawn by agreement (1/2-1/2)."), "{r}");
    }
}

/// Waits for the engine's answer in the bot's game: alice to move again.
async fn answered(bot: &mut Bot) {
    for _ in 0..200 {
        if bot
            .ok("alice", "board")
            .await
            .text
            .contains("alice to move")
        {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the engine never answered");
}

case! {
    /// Issue 51, point 7: `games` names each game's time control as every
    /// other reply does, "no time limit" included.
    #[tokio::test]
    async fn games_lists_each_game_with_its_time_control() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        for (who, terms) in [("alice", "void"), ("carol", "standard 3d"), ("erin", "standard 5+3")] {
            bot.ok(who, &format!("challenge @bob {terms}")).await;
            bot.ok("bob", &format!("accept @{who}")).await;
        }
        let listed = bot.ok("bob", "games").await.text.to_string();
        let lines: Vec<&str> = listed.lines().collect();
        assert_eq!(lines.len(), 3, "{listed}");
        assert!(lines[0].starts_with("#1 alice vs bob (Void Chess), no time limit: move 1,"), "{listed}");
        assert!(lines[1].starts_with("#2 carol vs bob (Standard chess), 3 days per move: move 1,"), "{listed}");
        assert!(
            lines[2].starts_with("#3 erin vs bob (Standard chess), 5 minutes + 3 seconds per move: move 1,"),
            "{listed}"
        );
    }
}
