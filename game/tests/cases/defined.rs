//! Issue 50, part 3: a game read from a file in the bot, as a built-in
//! game is: challenged by its name, listed, explained, rated in its own
//! pool, written to PGN, played by the engine, kept with its definition,
//! and offered only where its file is enabled.

use super::support::*;
use voidmate_rules::defined;

case! {
    /// A shipped fairy game (Capablanca) is played from challenge to PGN:
    /// its games store the definition's hash beside its name and the
    /// definition itself, its rating pool is its own, and its PGN names it
    /// as Fairy-Stockfish does with the start position.
    #[tokio::test]
    async fn a_game_from_a_file_is_played_rated_and_written_like_ours() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        let list = bot.ok("alice", "variants").await.text;
        assert!(list.contains("capablanca* (Capablanca Chess, 10x8 board)"), "{list}");
        start_game(&mut bot, "capablanca").await;
        play(&mut bot, &[("alice", "e4"), ("bob", "e5"), ("alice", "Ci3")]).await;
        let r = bot.ok("bob", "Ab6").await;
        assert!(r.text.contains("bob played Ab6"), "{}", r.text);
        let stored: String = sqlx::query_scalar("SELECT variant FROM games WHERE id = 1")
            .fetch_one(bot.core.store().pool())
            .await
            .unwrap();
        let hash = defined::hash_of(voidmate_rules::variant("capablanca").unwrap()).unwrap();
        assert_eq!(stored, format!("capablanca@{hash}"));
        let (name, body): (String, String) =
            sqlx::query_as("SELECT name, body FROM variant_definitions WHERE hash = $1")
                .bind(&hash)
                .fetch_one(bot.core.store().pool())
                .await
                .unwrap();
        assert_eq!(name, "capablanca");
        assert_eq!(defined::restore(&hash, &body).unwrap().name(), "capablanca");
        let pgn = bot.ok("alice", "pgn").await.text.to_string();
        assert!(pgn.contains("[Variant \"capablanca\"]"), "{pgn}");
        assert!(
            pgn.contains("[FEN \"rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1\"]"),
            "{pgn}"
        );
        assert!(pgn.contains("1. e4 e5 2. Ci3 Ab6"), "{pgn}");
        bot.ok("alice", "resign").await;
        let rating = bot.ok("bob", "rating").await.text;
        assert!(rating.contains("Capablanca Chess"), "{rating}");
        assert!(!rating.contains("Void Chess"), "{rating}");
        // A name that is no game is refused with the games played here.
        let r = bot.say("alice", "challenge @bob xiangqi").await;
        assert!(
            r.is_error
                && r.text.starts_with("'xiangqi' is not a variant I know")
                && r.text.contains("capablanca"),
            "{}",
            r.text
        );
    }
}

case! {
    /// The engine plays a game read from a file, with legal moves.
    #[tokio::test]
    async fn the_engine_plays_a_game_from_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let mut cfg = config(&dir.path().join("v.db"));
        cfg.engine.move_time_ms = 30;
        let mut bot = Bot::with(cfg).await;
        bot.core.add_bot(console_player("voidmate")).await.unwrap();
        let start = bot.ok("alice", "challenge @voidmate shatranj black 1").await;
        assert!(
            start.text.starts_with("Game #1 begins: Shatranj, voidmate (White) vs alice (Black)")
                && start.text.contains("voidmate played ")
                && start.text.ends_with("alice, your move."),
            "{}",
            start.text
        );
        for _ in 0..3 {
            let moves = bot.ok("alice", "moves").await.text;
            let first = moves
                .split_once(": ")
                .and_then(|(_, list)| list.split_whitespace().next())
                .unwrap_or_else(|| panic!("{moves}"))
                .to_string();
            let r = bot.ok("alice", &format!("move {first}")).await;
            assert!(r.text.contains("voidmate played "), "{}", r.text);
        }
    }
}

case! {
    /// A file enabled for some communities only: its game is neither
    /// listed, nor challenged, nor explained elsewhere, and is in its own.
    #[tokio::test]
    async fn a_file_for_some_communities_is_played_there_only() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        defined::load(
            "club.toml",
            "[club-chess]\ninherits = \"standard\"\ntitle = \"Club Chess\"\n",
        )
        .unwrap();
        defined::offer_in("club-chess", Some(vec!["discord:777".into()]));
        let list = bot.ok("alice", "variants").await.text;
        assert!(!list.contains("club-chess"), "{list}");
        let refusal = bot.say("alice", "challenge @bob club-chess").await.text;
        assert!(
            refusal.contains("`club-chess` is not a game I play here"),
            "{refusal}"
        );
        let kind = voidmate_rules::GameKind::from_name("club-chess").unwrap();
        assert!(kind.playable_in(Some("discord:guild:777")));
        assert!(!kind.playable_in(Some("discord:guild:778")));
        assert!(!kind.playable_in(None));
        defined::offer_in("club-chess", None);
        assert!(bot.ok("alice", "variants").await.text.contains("club-chess*"));
        bot.ok("alice", "challenge @bob club-chess").await;
    }
}

case! {
    /// `rules NAME` explains a game from a file from its definition, and
    /// draws a piece's moves.
    #[tokio::test]
    async fn rules_of_a_game_from_a_file_describe_its_pieces_with_a_diagram() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        let r = bot.ok("alice", "rules courier").await;
        assert!(r.text.starts_with("Courier Chess (12x8)"), "{}", r.text);
        assert!(r.text.contains("Pieces:"), "{}", r.text);
        assert!(r.image.is_none());
        let r = bot.ok("alice", "rules capablanca chancellor").await;
        assert!(
            r.text.starts_with("chancellor (C) in Capablanca Chess: any distance along ranks and files, as a rook"),
            "{}",
            r.text
        );
        assert!(r.image.is_some(), "a diagram of its moves");
    }
}

case! {
    /// A game's name typed freely past Discord's autocomplete: empty,
    /// multi-byte or oversized, it is refused with the games, shown cut to
    /// a length, and nothing changes.
    #[tokio::test]
    async fn any_game_name_typed_freely_is_refused_safely() {
        use voidmate_game::command::Command;
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        let before = snapshot(&bot.core).await;
        for (name, starts) in [
            ("", "Which game? The games: standard, void"),
            ("   ", "Which game? The games: standard, void"),
            ("ヴォイド", "`ヴォイド` is not a game I play here; the games: standard, void"),
            (&"é".repeat(100_000), &format!("`{}` is not a game I play here", "é".repeat(40))),
        ] {
            let mut ev = bot.event("alice", "");
            ev.input = voidmate_game::Input::Command(Command::UnknownGame {
                name: name.to_string(),
            });
            let r = bot.core.handle(&ev).await.expect("a reply");
            assert!(r.is_error && r.text.starts_with(starts), "{:.80}", r.text);
            assert!(r.text.chars().count() < 1000);
        }
        assert_eq!(snapshot(&bot.core).await, before);
    }
}

case! {
    /// In a cluster whose processes read different files, a process learns
    /// a definition another one stored at its next periodic check, without
    /// reopening its store: the games made under it then load here too.
    /// The definition is kept aside, not offered for new games.
    #[tokio::test]
    async fn a_definition_another_process_stored_is_learnt_at_the_next_tick() {
        let dir = tempfile::tempdir().unwrap();
        let bot = Bot::open(&dir.path().join("v.db")).await;
        // Another process's file: a game this one never read (its title
        // differs at every run, so that its hash is new to this process).
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let text = format!(
            "[far-chess]\ntitle = \"Far {stamp}\"\nboard = \"8x8\"\nstart = \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\"\n[far-chess.pieces]\nP = \"pawn\"\nN = \"N\"\nB = \"B\"\nR = \"R\"\nQ = \"Q\"\nK = \"king\"\n"
        );
        let spec = defined::read("far.toml", &text, &|_| None)
            .unwrap()
            .remove(0);
        let hash = spec.hash();
        assert!(defined::by_hash(&hash).is_none());
        bot.tick().await;
        sqlx::query(
            "INSERT INTO variant_definitions (hash, name, body, stored_at) VALUES ($1, $2, $3, 0)",
        )
        .bind(&hash)
        .bind("far-chess")
        .bind(spec.canonical())
        .execute(bot.core.store().pool())
        .await
        .unwrap();
        assert!(voidmate_rules::GameKind::from_storage_key(&format!("far-chess@{hash}")).is_none());
        bot.tick().await;
        let learnt = voidmate_rules::GameKind::from_storage_key(&format!("far-chess@{hash}"))
            .expect("learnt at the tick");
        assert_eq!(learnt.name(), "far-chess");
        assert!(defined::named("far-chess").is_none(), "kept aside, not offered");
    }
}
