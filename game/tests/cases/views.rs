//! Issue 42, points 3 to 5, through `Core::handle`: each player's view of their boards, a closer look at a
//! big board, and a relativistic move's path.

use super::support::*;

/// The PNG's size in pixels.
fn png_size(png: &[u8]) -> (u32, u32) {
    let img = image::load_from_memory(png).expect("a valid PNG");
    (img.width(), img.height())
}

case! {
    #[tokio::test]
    async fn a_player_fixes_the_side_their_boards_are_drawn_from() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        bot.ok("alice", "challenge @bob standard").await;
        bot.ok("bob", "accept").await;
        // Auto (the default): the board after alice's move is drawn for
        // bob, who is to move, from Black's side; alice's own `board` from
        // hers.
        let after = bot.ok("alice", "e4").await;
        let bottom = |r: &Reply| r.image.as_ref().unwrap().board.clone().unwrap().bottom;
        assert_eq!(bottom(&after), voidmate_rules::Color::Black);
        let own = bot.ok("alice", "board").await;
        assert_eq!(bottom(&own), voidmate_rules::Color::White);
        // bob wants White at the bottom always: his boards follow, alice's
        // do not.
        let set = bot.ok("bob", "settings flip white").await;
        assert!(
            set.text.contains("Your boards: always from White's side."),
            "{}",
            set.text
        );
        assert_eq!(bottom(&bot.ok("bob", "board").await), voidmate_rules::Color::White);
        let after = bot.ok("alice", "board").await;
        assert_eq!(bottom(&after), voidmate_rules::Color::White);
        let moved = bot.ok("bob", "e5").await;
        // Drawn for alice (to move), from her side.
        assert_eq!(bottom(&moved), voidmate_rules::Color::White);
        let moved = bot.ok("alice", "Nf3").await;
        // Drawn for bob, to move: White's side, as he chose.
        assert_eq!(bottom(&moved), voidmate_rules::Color::White);
        // The choice is bob's own, not the channel's: `settings` shows
        // alice hers, and bob his.
        let alice = bot.ok("alice", "settings").await;
        assert!(alice.text.contains("Your boards: from the side to move"), "{}", alice.text);
        let bob = bot.ok("bob", "settings").await;
        assert!(bob.text.contains("always from White's side"), "{}", bob.text);
        // Black, then back to auto.
        bot.ok("bob", "settings flip black").await;
        assert_eq!(bottom(&bot.ok("bob", "board").await), voidmate_rules::Color::Black);
        bot.ok("bob", "settings flip auto").await;
        assert_eq!(bottom(&bot.ok("bob", "board").await), voidmate_rules::Color::Black);
        // Odd words change nothing.
        bot.refused(
            "bob",
            "settings flip sideways",
            "`sideways` is not a way to turn your boards; use auto, white or black (player1 or player2 in Super Chess).",
        )
        .await;
        bot.refused(
            "bob",
            "settings flip",
            "Settings: `settings bare-moves on|off`, `settings theme classic|high-contrast`, `settings replays on|off`, `settings daily-puzzle 09:00|off`, or for your own boards `settings flip auto|white|black`.",
        )
        .await;
        let long = format!("settings flip {}", "й".repeat(200));
        let r = bot.say("bob", &long).await;
        assert!(r.text.contains("is not a way to turn your boards"), "{}", r.text);
        assert!(r.text.chars().count() < 200, "{}", r.text);
        assert!(bot.ok("bob", "settings").await.text.contains("(auto)"));

        // Issue 53: in Super Chess the sides are Player 1 and Player 2.
        bot.ok("alice", "resign").await;
        bot.ok("alice", "challenge @bob super16").await;
        bot.ok("bob", "accept").await;
        let set = bot.ok("bob", "settings flip player 2").await.text.to_string();
        assert!(
            set.contains("Your boards: always from Player 2's side (Black's in other games)."),
            "{set}"
        );
    }
}

case! {
    #[tokio::test]
    async fn board_zoom_draws_a_closer_window_of_a_big_board() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        bot.ok("alice", "challenge @bob void").await;
        bot.ok("bob", "accept").await;
        let whole = bot.ok("alice", "board").await;
        let zoomed = bot.ok("alice", "board zoom e5").await;
        let (w0, _) = png_size(&whole.image.as_ref().unwrap().png);
        let (w1, h1) = png_size(&zoomed.image.as_ref().unwrap().png);
        // 8 of the 9 files, at the same square size (9x9 is drawn full size).
        assert!(w1 < w0, "{w1} < {w0}");
        assert!(h1 > 0);
        assert!(
            zoomed.image.as_ref().unwrap().alt.contains("around e5"),
            "{}",
            zoomed.image.as_ref().unwrap().alt
        );
        assert!(!zoomed.text.contains("The whole board fits already"), "{}", zoomed.text);
        bot.refused(
            "alice",
            "board zoom z9",
            "`z9` is not a square of this board (files a-i, ranks 1-9); zoom on one like e5.",
        )
        .await;
        bot.refused(
            "alice",
            "board zoom",
            "zoom on which square? For example: `board zoom e5`",
        )
        .await;
        let odd = format!("board zoom {}", "🔥".repeat(300));
        let r = bot.say("alice", &odd).await;
        assert!(r.image.is_none());
        assert!(r.text.contains("is not a square of this board"), "{}", r.text);
    }
}

case! {
    #[tokio::test]
    async fn a_relativistic_move_is_drawn_through_its_holes() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        bot.ok("alice", "challenge @bob black-holes").await;
        bot.ok("bob", "accept").await;
        // The page's illustration game: holes dropped, then a pawn and a
        // rook through them.
        let players = ["alice", "bob"];
        let opening = [
            "e4", "a5", "Ke2", "Ra6", "(He1)", "(Ha8)", "Ke3", "Ha7", "He2", "Hb6", "Hd3", "Hc6",
            "d2-d3-d3-d6",
        ];
        for (i, m) in opening.iter().enumerate() {
            bot.ok(players[i % 2], m).await;
        }
        let mv = "Ra6-c6-c6xd6".to_string();
        let r = bot.ok("bob", &mv).await;
        let image = r.image.as_ref().unwrap();
        // Drawn for alice, to move: White at the bottom.
        assert_eq!(image.board.as_ref().unwrap().bottom, voidmate_rules::Color::White);
        // Squares named by the move: start, black hole, white hole, end.
        let squares: Vec<voidmate_rules::Square> = mv[1..]
            .split(['-', 'x'])
            .map(|s| voidmate_rules::Square::parse(s).unwrap())
            .collect();
        assert_eq!(squares.len(), 4, "{mv}");
        let img = image::load_from_memory(&image.png).unwrap().to_rgb8();
        // The board's geometry from the image: 64 px squares in a 28 px
        // margin, 5 files and 8 ranks, White at the bottom.
        let (sq, margin) = (64.0f32, 28.0f32);
        let bottom = img.height() as f32 - margin;
        let centre = |s: voidmate_rules::Square| {
            let x = margin + s.file() as f32 * sq + sq / 2.0;
            let y = bottom - s.rank() as f32 * sq - sq / 2.0;
            (x, y)
        };
        for (a, b) in [(squares[0], squares[1]), (squares[2], squares[3])] {
            if a == b {
                continue;
            }
            let ((ax, ay), (bx, by)) = (centre(a), centre(b));
            // On the leg a quarter of a square from its start, and beside
            // it on the same square, off the leg by a third of a square.
            let len = ((bx - ax).powi(2) + (by - ay).powi(2)).sqrt();
            let t = sq / 4.0 / len;
            let (x, y) = (ax + (bx - ax) * t, ay + (by - ay) * t);
            let (nx, ny) = (-(by - ay) / len, (bx - ax) / len);
            let (ox, oy) = (x + nx * sq / 3.0, y + ny * sq / 3.0);
            assert_ne!(
                img.get_pixel(x as u32, y as u32),
                img.get_pixel(ox as u32, oy as u32),
                "{mv}: the leg {a}-{b} is drawn"
            );
        }
        // Read back after a restart: the same picture.
        let n = bot.n;
        drop(bot);
        let mut reopened = Bot::open(&dir.path().join("v.db")).await;
        reopened.n = n;
        let again = reopened.ok("alice", "board").await;
        assert!(
            image.png == again.image.as_ref().unwrap().png,
            "{mv}: drawn the same after a restart"
        );
    }
}
