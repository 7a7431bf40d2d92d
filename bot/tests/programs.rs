//! Super Chess 16x16 through the core: the three reprogramming modes, a
//! private program staying private, who moves first, and piece colours.

use sqlx::Row;
use voidmate::config::Config;
use voidmate::console::{console_player, PLATFORM};
use voidmate::game::{contract, Core, Incoming, Reply};

struct Bot {
    core: Core,
    n: u64,
    _dir: tempfile::TempDir,
}

impl Bot {
    async fn new() -> Bot {
        let dir = tempfile::tempdir().unwrap();
        let mut cfg = Config::default();
        cfg.database.path = dir.path().join("bot.sqlite");
        Bot {
            core: Core::open(&cfg).await.unwrap(),
            n: 0,
            _dir: dir,
        }
    }

    async fn restart(&mut self) {
        let mut cfg = Config::default();
        cfg.database.path = self._dir.path().join("bot.sqlite");
        self.core = Core::open(&cfg).await.unwrap();
    }

    async fn send(&mut self, channel: &str, who: &str, text: &str, private: bool) -> Reply {
        self.n += 1;
        let mut ev = Incoming::line(
            format!("ev-{}", self.n),
            channel,
            console_player(who),
            text,
            true,
        );
        ev.mentions = contract::handles(text, PLATFORM);
        ev.private = private;
        let r = self.core.handle(&ev).await.expect("a reply");
        for entry in &r.deliveries {
            self.core.delivered(*entry).await;
        }
        r
    }

    /// In the game channel; must succeed.
    async fn ok(&mut self, who: &str, text: &str) -> Reply {
        let r = self.send("room", who, text, false).await;
        assert!(!r.is_error, "{who}: {text} -> {}", r.text);
        r
    }

    /// In the game channel; must be refused.
    async fn no(&mut self, who: &str, text: &str) -> String {
        let r = self.send("room", who, text, false).await;
        assert!(
            r.is_error,
            "{who}: {text} should be refused, got {}",
            r.text
        );
        r.text.to_string()
    }

    /// In a direct message with the bot.
    async fn dm(&mut self, who: &str, text: &str) -> Reply {
        let r = self.send(&format!("dm-{who}"), who, text, true).await;
        // A private command's answer is for its author alone.
        assert_eq!(r.audience, voidmate::game::Audience::Author);
        r
    }

    /// Everything the bot ever wrote to the channel and stored, as text.
    async fn stored_text(&self) -> String {
        let pool = self.core.store().pool();
        let mut out = String::new();
        for row in sqlx::query("SELECT san, coordinate FROM moves")
            .fetch_all(pool)
            .await
            .unwrap()
        {
            out.push_str(&row.get::<String, _>(0));
            out.push_str(&row.get::<String, _>(1));
        }
        out
    }
}

/// A program no one would guess, so its text is easy to look for.
const SECRET: &str = "N: jump 3,3 -3,3; G: slide 1,1";
const SECRET_CANONICAL: &str = "N: jump -3,3 3,3; G: slide 1,1";

#[tokio::test]
async fn a_symmetric_roster_is_written_by_the_challenger_and_agreed_by_accepting() {
    let mut bot = Bot::new().await;
    let r = bot.ok("alice", "challenge @bob super16 symmetric").await;
    assert!(r.text.contains("one programmed roster"), "{}", r.text);
    // Only the challenger writes it; bad programs are explained.
    let why = bot.no("bob", "program N: jump 1,1").await;
    assert!(why.contains("alice writes the roster"), "{why}");
    let why = bot.no("alice", "program N: hop 1,1").await;
    assert!(why.contains("not a way to move"), "{why}");
    let r = bot.ok("alice", "program N: jump 3,0 0,3 -3,0 0,-3").await;
    assert!(r.text.contains("N: jump -3,0 0,-3 0,3 3,0"), "{}", r.text);
    assert_eq!(r.actions.len(), 1, "bob can answer with a button");
    let r = bot.ok("bob", "program").await;
    assert!(r.text.contains("N: jump -3,0 0,-3 0,3 3,0"));
    let r = bot.ok("bob", "accept").await;
    assert!(
        r.text
            .contains("Both sides play with this roster: N: jump -3,0 0,-3 0,3 3,0"),
        "{}",
        r.text
    );
    assert!(
        r.text.contains("alice (Player 1) vs bob (Player 2)"),
        "{}",
        r.text
    );
    // The knights move by the roster: b1 jumps three ranks to b4, not to c3.
    let why = bot.no("alice", "Nc3").await;
    assert!(why.contains("Nc3"), "{why}");
    bot.ok("alice", "Nb4").await;
    // Black's knight b16 goes three ranks towards White: b13.
    bot.ok("bob", "Nb13").await;
    let r = bot.ok("carol", "program").await;
    assert!(
        r.text.contains("both sides play with N: jump"),
        "{}",
        r.text
    );
    let why = bot.no("alice", "program N: jump 1,1").await;
    assert!(why.contains("agreed at the challenge"), "{why}");
    // The PGN carries the roster, so the game replays from it alone.
    let pgn = bot.ok("carol", "pgn").await;
    assert!(
        pgn.text
            .contains("[WhiteProgram \"N: jump -3,0 0,-3 0,3 3,0\"]"),
        "{}",
        pgn.text
    );
    let record = voidmate::game::pgn::read(&pgn.text).unwrap();
    assert_eq!(record.moves, ["Nb1b4", "Nb16b13"]);
    let end = voidmate::game::pgn::replay(&record).unwrap();
    let stored: String = sqlx::query_scalar("SELECT fen FROM games")
        .fetch_one(bot.core.store().pool())
        .await
        .unwrap();
    assert_eq!(end.fen(), stored, "the replayed position is the stored one");
}

#[tokio::test]
async fn a_private_program_is_sent_privately_and_never_shown_to_anyone_else() {
    let mut bot = Bot::new().await;
    let r = bot.ok("alice", "challenge @bob super16 private 10+5").await;
    assert!(r.text.contains("private programs"), "{}", r.text);
    // Before acceptance, a program has nowhere to go (and is not kept).
    let why = bot.no("alice", &format!("program {SECRET}")).await;
    assert!(why.contains("direct message"), "{why}");
    let r = bot.ok("bob", "accept").await;
    assert!(
        r.text.contains("send me your program privately"),
        "{}",
        r.text
    );
    let alt = &r.image.as_ref().expect("the board").alt;
    assert!(
        alt.contains("waiting for the programs of alice and bob"),
        "{alt}"
    );
    let id: i64 = r.text[6..].split(' ').next().unwrap().parse().unwrap();
    // No move before both programs are in; the clocks wait too.
    let why = bot.no("alice", "Nc3").await;
    assert!(
        why.contains("waiting for the program of alice and bob"),
        "{why}"
    );
    // Sent in the channel: refused, not kept, not echoed.
    let why = bot.no("alice", &format!("program {SECRET}")).await;
    assert!(why.contains("private") && !why.contains("3,3"), "{why}");
    // Sent privately: kept, and confirmed only to alice.
    let r = bot.dm("alice", &format!("program #{id} {SECRET}")).await;
    assert!(!r.is_error, "{}", r.text);
    assert!(r.text.contains(SECRET_CANONICAL), "{}", r.text);
    assert!(r.text.contains("Waiting for bob's"), "{}", r.text);
    // bob cannot read it, in the channel or privately.
    let why = bot.no("bob", "program").await;
    assert!(!why.contains("3,3"), "{why}");
    let r = bot.dm("bob", &format!("program #{id}")).await;
    assert!(r.text.contains("not sent your program"), "{}", r.text);
    assert!(!r.text.contains("3,3"));
    let r = bot.dm("carol", &format!("program #{id}")).await;
    assert!(r.is_error && r.text.contains("not playing"), "{}", r.text);
    // A bad program is explained privately; bob then keeps his pieces.
    let r = bot.dm("bob", "program N: leap 1,1").await;
    assert!(
        r.is_error && r.text.contains("not a way to move"),
        "{}",
        r.text
    );
    let r = bot.dm("bob", "program default").await;
    assert!(r.text.contains("Both programs are in"), "{}", r.text);
    // The game channel hears that the game begins, with alice to move.
    let notices = bot.core.tick().await;
    let begin = notices
        .iter()
        .find(|n| n.channel == "room")
        .expect("an announcement in the game's channel");
    assert!(begin.reply.text.contains("alice (Player 1), your move"));
    assert!(!begin.reply.text.contains("3,3"));
    bot.core.delivered(begin.id).await;
    // Programs are fixed once the game began.
    let r = bot.dm("alice", &format!("program #{id} default")).await;
    assert!(r.is_error && r.text.contains("has begun"), "{}", r.text);

    // alice's knight b1 jumps by her program; the illegal try gives no reason
    // in public.
    let why = bot.no("alice", "Nc3").await;
    assert!(why.contains("do not say why in public"), "{why}");
    let r = bot.ok("alice", "Ne4").await;
    // Public notation names the start square, whatever the program: the
    // opponent learns where the knight came from, nothing of its program.
    assert!(r.text.contains("Nb1e4"), "{}", r.text);
    // The move list is refused in public and to the player not to move.
    let why = bot.no("bob", "moves").await;
    assert!(why.contains("direct message"), "{why}");
    let r = bot.dm("alice", &format!("moves #{id}")).await;
    assert!(r.is_error && r.text.contains("only to the player to move"));
    // bob's own list, privately, on his turn: his knights move as knights.
    let r = bot.dm("bob", &format!("moves #{id}")).await;
    assert!(!r.is_error, "{}", r.text);
    assert!(
        r.text.contains("Nb16d15") && r.text.contains("a14a12"),
        "{}",
        r.text
    );
    bot.ok("bob", "Nd15").await;
    // alice's programmed piece (G on j1: slide 1,1) moves along its diagonal.
    bot.ok("alice", "Gk2").await;

    // Nowhere public holds the program: not the history, the PGN, the
    // board's text, help or the rules.
    for (who, cmd) in [
        ("bob", "history"),
        ("bob", "pgn"),
        ("bob", "board"),
        ("bob", "help program"),
        ("bob", "rules super16"),
        ("carol", "games"),
    ] {
        let r = bot.ok(who, cmd).await;
        assert!(!r.text.contains(SECRET_CANONICAL), "{cmd}: {}", r.text);
        assert!(!r.text.contains("3,3"), "{cmd}: {}", r.text);
        if let Some(image) = &r.image {
            assert!(!image.alt.contains("3,3"));
        }
    }
    assert!(!bot.stored_text().await.contains("3,3"));
    // After a restart the programs still rule the game.
    bot.restart().await;
    let r = bot.ok("bob", "a12").await;
    assert!(r.text.contains("alice, your move"), "{}", r.text);
    let why = bot.no("alice", "Nc3").await;
    assert!(why.contains("not a legal move"), "{why}");
}

#[tokio::test]
async fn who_moves_first_is_chosen_at_the_challenge() {
    let mut bot = Bot::new().await;
    bot.ok("alice", "challenge @bob super16 second").await;
    let r = bot.ok("bob", "accept").await;
    assert!(
        r.text.contains("bob (Player 1) vs alice (Player 2)"),
        "{}",
        r.text
    );
    assert!(r.text.contains("bob, your move"), "{}", r.text);
    let why = bot.no("alice", "h4").await;
    assert!(why.contains("not your turn"), "{why}");
    bot.ok("bob", "h4").await;
    // Modes are for Super Chess, and not against the bot.
    let why = bot.no("carol", "challenge @dave void private").await;
    assert!(why.contains("no programmable pieces"), "{why}");
}

#[tokio::test]
async fn each_player_picks_a_piece_colour_that_the_board_shows() {
    let mut bot = Bot::new().await;
    bot.ok("alice", "challenge @bob super16").await;
    bot.ok("bob", "accept").await;
    let r = bot.ok("alice", "colour").await;
    assert!(
        r.text.contains("your pieces are red and bob's are blue"),
        "{}",
        r.text
    );
    let before = bot.ok("alice", "board").await.image.unwrap().png;
    let r = bot.ok("alice", "colour green").await;
    assert!(r.text.contains("alice's pieces are green"), "{}", r.text);
    let after = r.image.expect("the board in the new colour").png;
    assert_ne!(before, after);
    let why = bot.no("bob", "colour green").await;
    assert!(why.contains("already green"), "{why}");
    let why = bot.no("bob", "colour plaid").await;
    assert!(why.contains("not a colour"), "{why}");
    let why = bot.no("carol", "colour red").await;
    assert!(why.contains("no game"), "{why}");
    // Colours are cosmetic: any game may have them.
    let r = bot.ok("bob", "colour gold").await;
    assert!(r.text.contains("bob's pieces are gold"));
}
