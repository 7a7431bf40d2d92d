//! Issue 39, point 1: animated replays through `Core::handle`: `replay` of any
//! game, and the replay posted after every finished game of 4 plies or more
//! unless the channel turned it off; kept in the outbox, so a restart does
//! not lose it.

use super::support::*;

/// The frames of a GIF (decoded with the `gif` crate) and its size.
fn gif_frames(bytes: &[u8]) -> (usize, u16, u16) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut d = options.read_info(bytes).expect("a GIF");
    let (w, h) = (d.width(), d.height());
    let mut n = 0;
    while d.read_next_frame().expect("frames decode").is_some() {
        n += 1;
    }
    (n, w, h)
}

case! {
    #[tokio::test]
    async fn replay_draws_a_gif_of_every_position_of_a_game() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        bot.ok("alice", "challenge @bob void").await;
        bot.ok("bob", "accept").await;
        bot.refused(
            "alice",
            "replay",
            "Game #1 has no moves yet: there is nothing to replay.",
        )
        .await;
        for (who, mv) in [("alice", "e4"), ("bob", "e6"), ("alice", "d4")] {
            bot.ok(who, mv).await;
        }
        for word in ["replay", "gif", "replay #1"] {
            let r = bot.ok("bob", word).await;
            let image = r.image.as_ref().expect("an image");
            assert_eq!(image.format, voidmate_game::ImageFormat::Gif, "{word}");
            let (frames, w, h) = gif_frames(&image.png);
            assert_eq!(frames, 4, "the start and three moves");
            assert_eq!(image.size(), Some((w as u32, h as u32)));
            assert!(r.text.starts_with("Replay of #1 alice vs bob (Void Chess): 2 moves (3 plies), "), "{}", r.text);
            assert!(image.alt.contains("an animated replay (GIF) of 2 moves (3 plies)"), "{}", image.alt);
        }
        // The board is still a PNG.
        let board = bot.ok("bob", "board").await;
        assert_eq!(board.image.unwrap().format, voidmate_game::ImageFormat::Png);
        bot.refused("bob", "replay #9", "There is no game #9 in this channel.").await;
        // A game aborted before any move is said to be aborted.
        bot.ok("carol", "challenge @dave void").await;
        bot.ok("dave", "accept").await;
        bot.ok("carol", "abort").await;
        bot.refused(
            "carol",
            "replay #2",
            "Game #2 was aborted before any move: there is nothing to replay.",
        )
        .await;
    }
}

case! {
    #[tokio::test]
    async fn a_finished_game_gets_its_replay_after_the_result_and_a_restart_keeps_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let clock = Clock::manual(1_000_000);
        let mut bot = Bot::with_clock(config(&path), clock.clone()).await;
        bot.ok("alice", "challenge @bob standard").await;
        bot.ok("bob", "accept").await;
        for (who, mv) in [("alice", "f3"), ("bob", "e5"), ("alice", "g4"), ("bob", "Qh4#")] {
            bot.ok(who, mv).await;
        }
        // Due a moment after the result, which the adapter posts itself.
        assert!(bot.core.tick().await.is_empty());
        clock.advance(4_000);
        // A restart in between loses nothing.
        let n = bot.n;
        drop(bot);
        let mut bot = Bot::with_clock(config(&path), clock.clone()).await;
        bot.n = n;
        let notices = bot.core.tick().await;
        assert_eq!(notices.len(), 1, "{notices:?}");
        let r = &notices[0].reply;
        assert!(
            r.text.as_str().starts_with("Replay of #1 alice vs bob (Standard chess): 2 moves ("),
            "{}",
            r.text.as_str()
        );
        let image = r.image.as_ref().expect("the replay");
        assert_eq!(image.format, voidmate_game::ImageFormat::Gif);
        assert_eq!(gif_frames(&image.png).0, 5);
        bot.core.delivered(notices[0].id).await;
        clock.advance(60_000);
        assert!(bot.core.tick().await.is_empty(), "posted once");
        // Turned off here: the next game ends without one; a game of under
        // 4 plies never gets one.
        let set = bot.ok("alice", "settings replays off").await;
        assert!(set.text.contains("a replay after each game off"), "{}", set.text);
        bot.ok("alice", "challenge @bob standard").await;
        bot.ok("bob", "accept").await;
        for (who, mv) in [("alice", "f3 #2"), ("bob", "e5 #2"), ("alice", "g4 #2"), ("bob", "Qh4# #2")] {
            bot.ok(who, mv).await;
        }
        bot.ok("alice", "settings replays on").await;
        bot.ok("alice", "challenge @bob standard").await;
        bot.ok("bob", "accept").await;
        bot.ok("alice", "e4 #3").await;
        bot.ok("bob", "resign #3").await;
        clock.advance(60_000);
        let late: Vec<String> = bot
            .core
            .tick()
            .await
            .into_iter()
            .map(|n| n.reply.text.as_str().to_string())
            .collect();
        assert!(late.iter().all(|t| !t.starts_with("Replay")), "{late:?}");
    }
}
