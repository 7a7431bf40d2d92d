//! Issue 38: ratings, leaderboards, profiles, abort and rematch, through
//! `Core::handle`.

use super::support::*;

/// Glicko-2 written from Glickman's paper ("Example of the Glicko-2
/// system", 2013), independently of `voidmate_game::ratings`: the tests
/// compare the bot's numbers with these.
mod paper {
    use std::f64::consts::PI;

    /// The paper's conversion factor between the scales.
    const K: f64 = 173.7178;

    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct R {
        pub r: f64,
        pub rd: f64,
        pub sigma: f64,
    }

    /// One rating period: `p` after `games` (each opponent and the score
    /// against them), system constant `tau`, and `t` periods of step 6.
    pub fn period(p: R, games: &[(R, f64)], tau: f64, t: f64) -> R {
        let mu = (p.r - 1500.0) / K;
        let phi = p.rd / K;
        let g = |phi_j: f64| 1.0 / (1.0 + 3.0 * phi_j * phi_j / (PI * PI)).sqrt();
        let e = |mu_j: f64, phi_j: f64| 1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp());
        let (mut v_inv, mut sum) = (0.0, 0.0);
        for (o, s) in games {
            let (mu_j, phi_j) = ((o.r - 1500.0) / K, o.rd / K);
            let ej = e(mu_j, phi_j);
            v_inv += g(phi_j).powi(2) * ej * (1.0 - ej);
            sum += g(phi_j) * (s - ej);
        }
        let v = 1.0 / v_inv;
        let delta = v * sum;
        let a = (p.sigma * p.sigma).ln();
        let f = |x: f64| {
            let ex = x.exp();
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
                - (x - a) / (tau * tau)
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * tau) < 0.0 {
                k += 1.0;
            }
            a - k * tau
        };
        let (mut fa, mut fb) = (f(big_a), f(big_b));
        while (big_b - big_a).abs() > 0.000001 {
            let c = big_a + (big_a - big_b) * fa / (fb - fa);
            let fc = f(c);
            if fc * fb <= 0.0 {
                big_a = big_b;
                fa = fb;
            } else {
                fa /= 2.0;
            }
            big_b = c;
            fb = fc;
        }
        let sigma = (big_a / 2.0).exp();
        let phi_star = (phi * phi + t * sigma * sigma).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * sum;
        R {
            r: K * mu_new + 1500.0,
            rd: K * phi_new,
            sigma,
        }
    }

    /// The deviation after `t` periods without a game.
    pub fn idle(p: R, t: f64) -> R {
        let phi = p.rd / K;
        R {
            rd: (phi * phi + t * p.sigma * p.sigma).sqrt() * K,
            ..p
        }
    }

    #[test]
    fn glickmans_example() {
        let me = R {
            r: 1500.0,
            rd: 200.0,
            sigma: 0.06,
        };
        let o = |r, rd| R { r, rd, sigma: 0.06 };
        let after = period(
            me,
            &[
                (o(1400.0, 30.0), 1.0),
                (o(1550.0, 100.0), 0.0),
                (o(1700.0, 300.0), 0.0),
            ],
            0.5,
            1.0,
        );
        assert!((after.r - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.rd - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.sigma - 0.05999).abs() < 0.00001, "{after:?}");
    }
}

/// Voidmate's choices over the paper, as `docs/ratings.md` states them:
/// start 1500/350/0.06, tau 0.75, a rating period per game, step 6 by
/// days x 0.21436, the deviation within [45, 350], the rating at least 400.
mod choices {
    use super::paper::{idle, period, R};

    pub const START: R = R {
        r: 1500.0,
        rd: 350.0,
        sigma: 0.06,
    };
    const RATE: f64 = 0.21436;

    /// A player's stored rating and when their last rated game ended.
    #[derive(Debug, Clone, Copy)]
    pub struct Seat {
        pub stored: R,
        pub last_ms: Option<i64>,
        pub games: i64,
    }

    impl Default for Seat {
        fn default() -> Seat {
            Seat {
                stored: START,
                last_ms: None,
                games: 0,
            }
        }
    }

    impl Seat {
        pub fn idle_days(&self, now_ms: i64) -> f64 {
            self.last_ms
                .map_or(0.0, |l| (now_ms - l).max(0) as f64 / 86_400_000.0)
        }
        /// As shown at `now_ms`.
        pub fn now(&self, now_ms: i64) -> R {
            let grown = idle(self.stored, self.idle_days(now_ms) * RATE);
            R {
                rd: grown.rd.min(350.0),
                ..grown
            }
        }
    }

    /// `1662?`: whole points, `?` while the deviation is 110 or more.
    pub fn shown(r: R) -> String {
        let q = if r.rd >= 110.0 { "?" } else { "" };
        format!("{}{q}", r.r.round() as i64)
    }

    /// Plays one game: the words of both changes, white first.
    pub fn game(white: &mut Seat, black: &mut Seat, white_score: f64, now_ms: i64) -> String {
        let (w_now, b_now) = (white.now(now_ms), black.now(now_ms));
        let mut words = Vec::new();
        for (seat, before, opp, score) in [
            (&mut *white, w_now, b_now, white_score),
            (&mut *black, b_now, w_now, 1.0 - white_score),
        ] {
            let t = seat.idle_days(now_ms) * RATE;
            let raw = period(seat.stored, &[(opp, score)], 0.75, t);
            let after = R {
                r: raw.r.max(400.0),
                rd: raw.rd.clamp(45.0, 350.0),
                sigma: raw.sigma,
            };
            let diff = after.r.round() as i64 - before.r.round() as i64;
            words.push((shown(before), shown(after), diff));
            *seat = Seat {
                stored: after,
                last_ms: Some(now_ms),
                games: seat.games + 1,
            };
        }
        format!(
            "{} -> {} ({:+}), {} -> {} ({:+})",
            words[0].0, words[0].1, words[0].2, words[1].0, words[1].1, words[1].2
        )
    }
}

/// A bot on a clock the test moves, at `start` ms.
async fn bot_at(path: &Path, start: i64) -> (Bot, Clock) {
    let clock = Clock::manual(start);
    (Bot::with_clock(config(path), clock.clone()).await, clock)
}

const HOUR: i64 = 3_600_000;
const DAY: i64 = 24 * HOUR;

/// `white` challenges `black` (`terms` after the game's name), both make a
/// first move, and the game ends: `1.0` black resigns, `0.0` white resigns,
/// `0.5` a draw agreed. The reply that ends it.
pub(crate) async fn rated_game(
    bot: &mut Bot,
    white: &str,
    black: &str,
    terms: &str,
    score: f64,
) -> Reply {
    bot.ok(white, &format!("challenge @{black} standard {terms}"))
        .await;
    bot.ok(black, &format!("accept @{white}")).await;
    bot.ok(white, "e4").await;
    bot.ok(black, "e5").await;
    if score == 1.0 {
        bot.ok(black, "resign").await
    } else if score == 0.0 {
        bot.ok(white, "resign").await
    } else {
        bot.ok(white, "draw").await;
        bot.ok(black, "draw accept").await
    }
}

/// The ratings words of a game's end: what follows ` Ratings: `.
fn ratings_words(r: &Reply) -> String {
    let text = r.text.to_string();
    match text.split_once(" Ratings: ") {
        Some((_, words)) => words.trim_end_matches('.').to_string(),
        None => String::new(),
    }
}

/// `player`'s stored rating in `community` (standard, `pool`).
async fn stored(
    bot: &Bot,
    community: &str,
    player: &str,
    pool: &str,
) -> Option<(f64, f64, f64, i64)> {
    let row = sqlx::query(
        "SELECT rating, deviation, volatility, games FROM ratings \
         WHERE community = $1 AND player = $2 AND variant = 'standard' AND pool = $3",
    )
    .bind(community)
    .bind(id(player).as_str())
    .bind(pool)
    .fetch_optional(bot.core.store().pool())
    .await
    .unwrap()?;
    Some((
        row.get::<f64, _>(0),
        row.get::<f64, _>(1),
        row.get::<f64, _>(2),
        row.get::<i64, _>(3),
    ))
}

async fn count(bot: &Bot, sql: &str) -> i64 {
    sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_string()))
        .fetch_one(bot.core.store().pool())
        .await
        .unwrap()
}

case! {
    /// Issue 38, points 1 and 3, and the tests' independent computation: a
    /// sequence of games (wins, losses, draws), each change in the game's
    /// last message and in the stored row exactly as the paper with our
    /// choices makes it, until dave is established; then a provisional
    /// player against him, a draw; then sixty idle days grow his deviation
    /// when it is read, and `check-db` finds every rating as its games make it.
    #[tokio::test]
    async fn ratings_follow_glicko2_game_by_game() {
        use choices::{game, shown, Seat};
        let dir = tempfile::tempdir().unwrap();
        let (mut bot, clock) = bot_at(&dir.path().join("v.db"), 1_700_000_000_000).await;
        let mut dave = Seat::default();
        let mut games = 0;
        for i in 1.. {
            assert!(i <= 40, "dave is still provisional after 40 games");
            let opponent = format!("p{i}");
            let mut them = Seat::default();
            let now = clock.now_ms();
            let (text_dave, text_them) = (shown(dave.now(now)), shown(them.now(now)));
            let challenge = bot
                .ok("dave", &format!("challenge @{opponent} standard"))
                .await;
            assert!(
                challenge.text.to_string().contains(&format!(
                    "(no time limit, rated); dave would play White. Ratings (Standard chess, correspondence): dave {text_dave}, {opponent} {text_them}."
                )),
                "{}",
                challenge.text
            );
            let start = bot.ok(&opponent, "accept").await;
            assert!(
                start.text.to_string().contains(&format!(
                    ", rated (dave {text_dave}, {opponent} {text_them})"
                )),
                "{}",
                start.text
            );
            bot.ok("dave", "e4").await;
            bot.ok(&opponent, "e5").await;
            let score = [1.0, 0.5, 1.0, 0.0][i % 4];
            let end = match i % 4 {
                0 | 2 => bot.ok(&opponent, "resign").await,
                3 => bot.ok("dave", "resign").await,
                _ => {
                    bot.ok("dave", "draw").await;
                    bot.ok(&opponent, "draw accept").await
                }
            };
            let words = game(&mut dave, &mut them, score, now);
            let (dw, tw) = words.split_once(", ").unwrap();
            assert_eq!(
                ratings_words(&end),
                format!("dave {dw}, {opponent} {tw}"),
                "game {i}"
            );
            games += 1;
            // The stored rows, to the last digit the paper gives.
            for (name, seat) in [("dave", &dave), (opponent.as_str(), &them)] {
                let (r, rd, sigma, n) = stored(&bot, "room", name, "correspondence").await.unwrap();
                assert!((r - seat.stored.r).abs() < 1e-6, "{name}: {r} vs {:?}", seat.stored);
                assert!((rd - seat.stored.rd).abs() < 1e-6, "{name}: {rd}");
                assert!((sigma - seat.stored.sigma).abs() < 1e-9, "{name}: {sigma}");
                assert_eq!(n, seat.games);
            }
            clock.advance(HOUR);
            if dave.stored.rd < 110.0 {
                break;
            }
        }
        // A provisional player (erin, new) against an established one: a draw.
        let now = clock.now_ms();
        let mut erin = Seat::default();
        let end = rated_game(&mut bot, "erin", "dave", "", 0.5).await;
        let words = game(&mut erin, &mut dave, 0.5, now);
        let (ew, dw) = words.split_once(", ").unwrap();
        assert_eq!(ratings_words(&end), format!("erin {ew}, dave {dw}"));
        assert!(ew.starts_with("1500? -> "), "erin is provisional: {ew}");
        assert!(!dw.contains('?'), "dave is established: {dw}");
        games += 1;

        // Sixty days later the deviation shown has grown past 110 (the
        // rating is provisional again); the stored row has not changed.
        let later = clock.advance(60 * DAY);
        let r = bot.ok("erin", "rating @dave").await;
        let grown = dave.now(later);
        assert!(dave.stored.rd < 110.0 && grown.rd >= 110.0, "{grown:?} {:?}", dave.stored);
        assert_eq!(
            r.text.to_string(),
            format!(
                "Ratings of dave here:\n  Standard chess, correspondence  {} (deviation {}, {} rated games)",
                shown(grown),
                grown.rd.round() as i64,
                dave.games
            )
        );
        let (_, rd, _, _) = stored(&bot, "room", "dave", "correspondence").await.unwrap();
        assert!((rd - dave.stored.rd).abs() < 1e-9, "stored once, not grown");

        let check = bot.core.check_ratings().await.unwrap();
        assert_eq!(check.problems, Vec::<String>::new());
        assert_eq!(check.games, games);
        assert_eq!(check.ratings, games + 1, "dave, erin and one row per opponent");
    }
}

case! {
    /// Issue 38, point 3: a rated game's end rates it once, whatever happens
    /// around it: its reply left unposted (a crash) and the event delivered
    /// again, a restart that posts the owed reply, and two processes racing
    /// to end the same game.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_game_is_rated_once_through_crashes_redeliveries_and_races() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let (mut bot, clock) = bot_at(&path, 1_700_000_000_000).await;
        bot.ok("alice", "challenge @bob standard").await;
        bot.ok("bob", "accept").await;
        bot.ok("alice", "e4").await;
        bot.ok("bob", "e5").await;
        let ev = bot.event("bob", "resign");
        let end = bot.core.handle(&ev).await.unwrap();
        let words = ratings_words(&end);
        assert!(words.starts_with("alice 1500? -> 1662? (+162), bob 1500? -> 1338? (-162)"), "{words}");
        let after = snapshot(&bot.core).await;
        assert!(bot.core.handle(&ev).await.is_none(), "a redelivery is ignored");
        assert_eq!(snapshot(&bot.core).await, after);
        drop(bot);

        // The restart posts the owed reply, with its ratings, once.
        let mut bot = Bot::with_clock(config(&path), clock.clone()).await;
        bot.n = 1000;
        assert_eq!(snapshot(&bot.core).await, after);
        clock.advance(voidmate_game::NOTICE_LEASE_MS + 1000);
        let owed: Vec<String> = posted_ticks(&bot)
            .await
            .into_iter()
            .filter(|t| t.contains(" Ratings: "))
            .collect();
        assert_eq!(owed.len(), 1, "{owed:?}");
        assert!(owed[0].ends_with(&format!(" Ratings: {words}.")), "{}", owed[0]);
        clock.advance(voidmate_game::NOTICE_LEASE_MS + 1000);
        assert!(posted_ticks(&bot).await.iter().all(|n| !n.contains("Ratings")));
        assert_eq!(snapshot(&bot.core).await, after);
        assert_eq!(count(&bot, "SELECT COUNT(*) FROM rating_changes").await, 2);

        // Two processes end one game at the same moment: one end, one rating.
        let other = Bot::with_clock(config(&path), clock.clone()).await;
        bot.ok("carol", "challenge @dave standard").await;
        bot.ok("dave", "accept").await;
        bot.ok("carol", "e4").await;
        bot.ok("dave", "e5").await;
        let (ea, eb) = (bot.event("carol", "resign"), bot.event("dave", "resign"));
        let (c1, c2) = (bot.core.clone(), other.core.clone());
        let (ra, rb) = tokio::join!(
            tokio::spawn(async move { c1.handle(&ea).await.unwrap() }),
            tokio::spawn(async move { c2.handle(&eb).await.unwrap() })
        );
        let (ra, rb) = (ra.unwrap(), rb.unwrap());
        assert!(ra.is_error != rb.is_error, "{} / {}", ra.text, rb.text);
        let (won, lost) = if ra.is_error { (&rb, &ra) } else { (&ra, &rb) };
        assert!(ratings_words(won).contains("(+162)"), "{}", won.text);
        assert!(lost.text.to_string().contains("has already ended") || lost.text.to_string().contains("no game"), "{}", lost.text);
        assert_eq!(count(&bot, "SELECT COUNT(*) FROM rating_changes WHERE game_id = 2").await, 2);
        for p in ["carol", "dave"] {
            assert_eq!(stored(&bot, "room", p, "correspondence").await.unwrap().3, 1, "{p}");
        }
        assert!(bot.core.check_ratings().await.unwrap().problems.is_empty());
    }
}

case! {
    /// Issue 38, point 2: what is never rated. A casual challenge, a game
    /// against the bot, a game in a direct conversation (rated asked for,
    /// casual given, with the reason), a game that ends before both sides
    /// moved; and each community keeps its own ratings.
    #[tokio::test]
    async fn casual_bot_direct_and_short_games_are_not_rated() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        let c = bot.ok("alice", "challenge @bob standard casual").await;
        assert!(c.text.to_string().contains("(no time limit, casual)"), "{}", c.text);
        let s = bot.ok("bob", "accept").await;
        assert!(s.text.to_string().contains(", casual"), "{}", s.text);
        bot.ok("alice", "e4").await;
        bot.ok("bob", "e5").await;
        let end = bot.ok("bob", "resign").await;
        assert_eq!(ratings_words(&end), "", "{}", end.text);

        // Against the bot.
        bot.core.add_bot(console_player("voidmate")).await.unwrap();
        let s = bot.ok("alice", "challenge @voidmate standard 1").await;
        assert!(s.text.to_string().contains("casual (games against me are not rated); I play at level 1"), "{}", s.text);
        let end = bot.ok("alice", "resign").await;
        assert_eq!(ratings_words(&end), "");

        // In a direct conversation: no community.
        bot.channel = "dm-alice-bob".into();
        let mut ev = bot.event("alice", "challenge @bob standard rated");
        ev.community = None;
        ev.private = true;
        let c = bot.core.handle(&ev).await.unwrap();
        bot.posted(&c).await;
        assert!(
            c.text.to_string().contains("casual: games in direct conversations are not rated"),
            "{}",
            c.text
        );
        for (who, text) in [("bob", "accept"), ("alice", "e4"), ("bob", "e5"), ("bob", "resign")] {
            let mut ev = bot.event(who, text);
            ev.community = None;
            ev.private = true;
            let r = bot.core.handle(&ev).await.unwrap();
            bot.posted(&r).await;
            assert!(!r.is_error, "{text}: {}", r.text);
            assert!(!r.text.to_string().contains("Ratings"), "{}", r.text);
        }
        let mut ev = bot.event("alice", "rating");
        ev.community = None;
        let r = bot.core.handle(&ev).await.unwrap();
        assert!(r.is_error);
        assert_eq!(
            r.text.to_string(),
            "Ratings belong to a server or a room: there are none in a direct conversation."
        );

        // One ply only: the game ends, unrated.
        bot.channel = "room".into();
        bot.ok("alice", "challenge @bob standard").await;
        bot.ok("bob", "accept").await;
        bot.ok("alice", "e4").await;
        let end = bot.ok("bob", "resign").await;
        assert_eq!(
            end.text.to_string(),
            "bob resigns game #4. alice wins (1-0). Not rated: it ended before both sides had moved."
        );
        assert_eq!(count(&bot, "SELECT COUNT(*) FROM ratings").await, 0);
        assert_eq!(count(&bot, "SELECT COUNT(*) FROM games WHERE rated = 1").await, 0);

        // Another room, another community: its own ratings.
        let end = rated_game(&mut bot, "alice", "bob", "", 1.0).await;
        assert!(ratings_words(&end).starts_with("alice 1500? -> 1662?"), "{}", end.text);
        bot.channel = "hall".into();
        let end = rated_game(&mut bot, "alice", "bob", "", 1.0).await;
        assert!(ratings_words(&end).starts_with("alice 1500? -> 1662?"), "{}", end.text);
        assert_eq!(stored(&bot, "hall", "alice", "correspondence").await.unwrap().3, 1);
        assert_eq!(stored(&bot, "room", "alice", "correspondence").await.unwrap().3, 1);
    }
}

case! {
    /// Issue 38, point 2: the anti-farming rule. Three rated games a day
    /// between two players in a pool; the fourth challenge says it will be
    /// casual and why; the other pool and other opponents stay rated; a day
    /// later they are rated again. A challenge accepted after the day's
    /// limit filled while it waited is casual too.
    #[tokio::test]
    async fn only_three_rated_games_a_day_between_two_players() {
        let dir = tempfile::tempdir().unwrap();
        let (mut bot, clock) = bot_at(&dir.path().join("v.db"), 1_700_000_000_000).await;
        for _ in 0..3 {
            let end = rated_game(&mut bot, "alice", "bob", "", 1.0).await;
            assert!(!ratings_words(&end).is_empty(), "{}", end.text);
            clock.advance(HOUR);
        }
        let why = "casual: you have played 3 rated correspondence games against each other in the last 24 hours";
        let c = bot.ok("bob", "challenge @alice standard").await;
        assert!(c.text.to_string().contains(why), "{}", c.text);
        let s = bot.ok("alice", "accept").await;
        assert!(s.text.to_string().contains(why), "{}", s.text);
        bot.ok("bob", "e4").await;
        bot.ok("alice", "e5").await;
        let end = bot.ok("alice", "resign").await;
        assert_eq!(ratings_words(&end), "");
        // The live pool has its own count; so has another opponent.
        let end = rated_game(&mut bot, "alice", "bob", "10+5", 1.0).await;
        assert!(ratings_words(&end).starts_with("alice 1500? ->"), "{}", end.text);
        let end = rated_game(&mut bot, "alice", "carol", "", 1.0).await;
        assert!(!ratings_words(&end).is_empty(), "{}", end.text);
        // Two challenges waiting at once (two rooms of one server): the one
        // accepted after the limit filled is casual.
        clock.advance(DAY);
        for _ in 0..2 {
            rated_game(&mut bot, "alice", "bob", "", 1.0).await;
        }
        bot.ok("alice", "challenge @bob standard").await;
        bot.channel = "annex".into();
        for (who, text) in [("alice", "challenge @bob standard"), ("bob", "accept"), ("alice", "e4"), ("bob", "e5")] {
            in_community(&mut bot, "room", who, text).await;
        }
        let third = in_community(&mut bot, "room", "bob", "resign").await;
        assert!(!ratings_words(&third).is_empty(), "{}", third.text);
        bot.channel = "room".into();
        let s = bot.ok("bob", "accept").await;
        assert!(s.text.to_string().contains(", casual: you have played 3 rated"), "{}", s.text);
        bot.ok("bob", "resign").await;
        // A day later, rated again.
        clock.advance(DAY + HOUR);
        let end = rated_game(&mut bot, "alice", "bob", "", 1.0).await;
        assert!(!ratings_words(&end).is_empty());
    }
}

case! {
    /// Issue 38, point 4 (`abort`): either player calls a game off before
    /// both have moved, with no result and no rating; after that it is
    /// refused. A clock game whose first mover does not move within
    /// max(30 s, a tenth of the base time) is aborted by the bot, not lost
    /// on time; so is one whose second side does not answer the first move.
    #[tokio::test]
    async fn abort_by_a_player_and_by_the_bot() {
        let dir = tempfile::tempdir().unwrap();
        let (mut bot, clock) = bot_at(&dir.path().join("v.db"), 1_700_000_000_000).await;
        bot.ok("alice", "challenge @bob standard").await;
        bot.ok("bob", "accept").await;
        bot.ok("alice", "e4").await;
        let r = bot.ok("bob", "abort").await;
        assert_eq!(r.text.to_string(), "bob aborts game #1: no result, not rated.");
        assert_eq!(names(&r.notify), ["alice"]);
        bot.refused("alice", "abort #1", "Game #1 is over (*).").await;
        bot.ok("alice", "challenge @bob standard").await;
        bot.ok("bob", "accept").await;
        bot.ok("alice", "e4").await;
        bot.ok("bob", "e5").await;
        bot.refused(
            "alice",
            "abort",
            "Game #2 has begun: both sides have moved, so it can no longer be aborted. `resign` ends it.",
        )
        .await;
        let not_yours = refusal(&mut bot, "carol", "abort #2").await;
        assert!(not_yours.contains("#2"), "{not_yours}");
        bot.ok("alice", "resign").await;

        // 3+2: thirty seconds for White's first move.
        bot.ok("alice", "challenge @bob standard 3+2").await;
        bot.ok("bob", "accept").await;
        clock.advance(29_000);
        assert!(posted_ticks(&bot).await.iter().all(|n| !n.contains("aborted")));
        clock.advance(2_000);
        let notices = posted_ticks(&bot).await;
        assert!(
            notices.contains(&"Game #3 is aborted: alice did not make a first move in time. No result, not rated.".to_string()),
            "{notices:?}"
        );
        // 10+5: a minute, counted for Black from White's first move.
        bot.ok("alice", "challenge @bob standard 10+5").await;
        bot.ok("bob", "accept").await;
        clock.advance(50_000);
        bot.ok("alice", "e4").await;
        clock.advance(59_000);
        assert!(posted_ticks(&bot).await.iter().all(|n| !n.contains("aborted")));
        clock.advance(2_000);
        let notices = posted_ticks(&bot).await;
        assert!(
            notices.contains(&"Game #4 is aborted: bob did not make a first move in time. No result, not rated.".to_string()),
            "{notices:?}"
        );
        // A game whose first moves came is never aborted, and runs on.
        bot.ok("alice", "challenge @bob standard 10+5").await;
        bot.ok("bob", "accept").await;
        bot.ok("alice", "e4").await;
        bot.ok("bob", "e5").await;
        clock.advance(120_000);
        assert!(posted_ticks(&bot).await.iter().all(|n| !n.contains("aborted")));
        bot.ok("alice", "Nf3").await;
        let finished = bot.ok("alice", "games finished").await.text.to_string();
        for line in ["#1 alice vs bob", "#3 alice vs bob", "#4 alice vs bob"] {
            let l = finished.lines().find(|l| l.contains(line)).unwrap_or_else(|| panic!("{finished}"));
            assert!(l.contains(": * aborted"), "{l}");
        }
        assert_eq!(count(&bot, "SELECT COUNT(*) FROM ratings").await, 2, "only game #2 is rated");
        assert_eq!(count(&bot, "SELECT COUNT(*) FROM games WHERE status = 'active'").await, 1);
    }
}

/// What `who` is told for `text`, which must be refused and change nothing.
async fn refusal(bot: &mut Bot, who: &str, text: &str) -> String {
    let before = snapshot(&bot.core).await;
    let r = bot.say(who, text).await;
    assert!(r.is_error, "{text}: {}", r.text);
    assert_eq!(snapshot(&bot.core).await, before, "{text}");
    r.text.to_string()
}

/// The notices a tick owes, each posted (confirmed) as an adapter does.
async fn posted_ticks(bot: &Bot) -> Vec<String> {
    let mut out = Vec::new();
    for n in bot.core.tick().await {
        bot.core.delivered(n.id).await;
        out.push(n.reply.text.to_string());
    }
    out
}

/// `who` says `text` in the bot's channel, which belongs to `community`.
async fn in_community(bot: &mut Bot, community: &str, who: &str, text: &str) -> Reply {
    let mut ev = bot.event(who, text);
    ev.community = Some(community.into());
    let r = bot.core.handle(&ev).await.unwrap();
    assert!(!r.is_error, "{text}: {}", r.text);
    for entry in &r.deliveries {
        bot.core.delivered(*entry).await;
    }
    r
}

case! {
    /// Issue 38, point 4 (`leaderboard`): the top ten by rating, only
    /// players with two rated games, a deviation of at most 75 as of now
    /// (grown by their idle days) and a game in the last 30 days; the
    /// asker's own rank below when not listed; other communities, games
    /// and pools apart.
    #[tokio::test]
    async fn the_leaderboard_orders_and_filters() {
        let dir = tempfile::tempdir().unwrap();
        let now = 1_700_000_000_000i64;
        let (mut bot, _millis) = bot_at(&dir.path().join("v.db"), now).await;
        bot.ok("zed", "help").await;
        let pool = bot.core.store().pool().clone();
        let put = |player: String, community: &'static str, rating: f64, deviation: f64, games: i64, idle_days: i64, game_pool: &'static str| {
            let pool = pool.clone();
            async move {
                sqlx::query(
                    "INSERT INTO ratings (community, player, variant, pool, rating, deviation, volatility, games, best, last_game_ms) \
                     VALUES ($1, $2, 'standard', $3, $4, $5, 0.06, $6, $4, $7)",
                )
                .bind(community)
                .bind(id(&player).as_str().to_string())
                .bind(game_pool)
                .bind(rating)
                .bind(deviation)
                .bind(games)
                .bind(now - idle_days * DAY)
                .execute(&pool)
                .await
                .unwrap();
            }
        };
        // Fifteen on the board, 1600 + 10 i; the asker ranks 14th.
        for i in 0..15 {
            let name = if i == 2 { "zed".to_string() } else { format!("p{i:02}") };
            put(name, "room", 1600.0 + 10.0 * i as f64, 60.0, 5, 1, "live").await;
        }
        // Off the board: one game; deviation 80; last game 31 days ago; a
        // deviation of 74 grown past 75 by 29 idle days; another room; the
        // other pool. All rated far above.
        put("one-game".into(), "room", 2500.0, 60.0, 1, 0, "live").await;
        put("unsure".into(), "room", 2500.0, 80.0, 9, 0, "live").await;
        put("gone".into(), "room", 2500.0, 50.0, 9, 31, "live").await;
        put("fading".into(), "room", 2500.0, 74.0, 9, 29, "live").await;
        put("steady".into(), "room", 2400.0, 74.0, 9, 0, "live").await;
        put("elsewhere".into(), "hall", 2500.0, 50.0, 9, 0, "live").await;
        put("slow".into(), "room", 2500.0, 50.0, 9, 0, "correspondence").await;

        let board = bot.ok("zed", "leaderboard standard live").await.text.to_string();
        let lines: Vec<&str> = board.lines().collect();
        assert_eq!(lines[0], "Leaderboard: Standard chess, live");
        assert_eq!(lines[1], "  1. steady  2400 (9 rated games)");
        assert_eq!(lines[2], "  2. p14  1740 (5 rated games)");
        assert_eq!(lines[10], "  10. p06  1660 (5 rated games)");
        assert_eq!(lines[11], "You: #14, 1620.");
        assert_eq!(lines.len(), 12, "{board}");
        for off in ["one-game", "unsure", "gone", "fading", "elsewhere", "slow"] {
            assert!(!board.contains(off), "{off} is not on the board: {board}");
        }
        // `top` is the same command; a listed player sees no line of their own.
        let top = bot.ok("p14", "top standard live").await.text.to_string();
        assert_eq!(top.lines().count(), 11, "{top}");
        // The other pool, and a player not on the board yet.
        let slow = bot.ok("one-game", "leaderboard standard correspondence").await.text.to_string();
        assert_eq!(
            slow,
            "Leaderboard: Standard chess, correspondence\n  1. slow  2500 (9 rated games)"
        );
        let mine = bot.ok("one-game", "leaderboard standard live").await.text.to_string();
        assert!(
            mine.ends_with("\nYou (2500, 1 rated game) are not on the board yet: it takes 2 rated games, a deviation of at most 75 and a rated game in the last 30 days."),
            "{mine}"
        );
        let empty = bot.ok("zed", "leaderboard void").await.text.to_string();
        assert!(empty.starts_with("Leaderboard: Void Chess, correspondence: nobody yet"), "{empty}");
    }
}

case! {
    /// Issue 38, point 4: `rating`, `profile`, `games finished` and
    /// `rematch` after a few games.
    #[tokio::test]
    async fn rating_profile_finished_games_and_rematch() {
        let dir = tempfile::tempdir().unwrap();
        let (mut bot, clock) = bot_at(&dir.path().join("v.db"), 1_700_000_000_000).await;
        bot.refused(
            "alice",
            "rematch",
            "You have played no game here to have a rematch of.",
        )
        .await;
        let r = bot.ok("alice", "rating").await;
        assert_eq!(
            r.text.to_string(),
            "alice has no rating here yet: ratings come with rated games (`help rating`)."
        );
        rated_game(&mut bot, "alice", "bob", "", 1.0).await;
        clock.advance(HOUR);
        rated_game(&mut bot, "alice", "bob", "10+5", 0.5).await;
        clock.advance(HOUR);
        rated_game(&mut bot, "alice", "carol", "", 1.0).await;
        clock.advance(HOUR);
        rated_game(&mut bot, "alice", "carol", "casual", 1.0).await;
        let r = bot.ok("bob", "rating @alice").await.text.to_string();
        let lines: Vec<&str> = r.lines().collect();
        assert_eq!(lines[0], "Ratings of alice here:");
        assert_eq!(lines.len(), 3, "{r}");
        assert!(lines[1].starts_with("  Standard chess, correspondence  1"), "{r}");
        assert!(lines[1].ends_with("2 rated games)"), "{r}");
        assert!(lines[2].starts_with("  Standard chess, live  1500? (deviation "), "{r}");
        assert!(lines[2].ends_with(", 1 rated game)"), "{r}");
        let none = bot.ok("bob", "rating alice void").await.text.to_string();
        assert_eq!(
            none,
            "alice has no rating here in Void Chess yet: ratings come with rated games (`help rating`)."
        );

        let p = bot.ok("bob", "profile @alice").await.text.to_string();
        assert!(p.starts_with("alice here: 4 games, 3 won, 1 drawn, 0 lost. Streak: 2 wins."), "{p}");
        assert!(p.contains(" Best rating: "), "{p}");
        // Issue 53: the best rating is one a game left; carol lost her only
        // rated game, so hers is under the start and still provisional.
        let c = bot.ok("bob", "profile @carol").await.text.to_string();
        let best = c.split_once(" Best rating: ").unwrap().1;
        let (number, rest) = best.split_at(best.find(|ch: char| !ch.is_ascii_digit()).unwrap());
        assert!(number.parse::<i64>().unwrap() < 1500, "{c}");
        assert!(rest.starts_with("? (Standard chess, correspondence)."), "{c}");
        assert!(p.contains("\n  Standard chess  4 games: 3 won, 1 drawn, 0 lost"), "{p}");
        let last = p.split_once("\nLast games:").unwrap().1;
        assert_eq!(last.lines().filter(|l| !l.is_empty()).count(), 4, "{p}");
        assert!(last.trim_start().starts_with("#4 vs carol  won (1-0"), "{p}");
        assert_eq!(bot.ok("bob", "stats alice").await.text.to_string(), p);

        let f = bot.ok("bob", "games finished").await.text.to_string();
        let lines: Vec<&str> = f.lines().collect();
        assert_eq!(lines[0], "The last games to end here:");
        assert!(lines[1].starts_with("  #4 alice vs carol  Standard chess (no time limit): 1-0"), "{f}");
        assert!(lines[1].ends_with(", casual"), "{f}");
        assert!(lines[2].ends_with(", rated"), "{f}");
        assert_eq!(lines.len(), 5);
        assert_eq!(bot.ok("bob", "games all").await.text.to_string(), f);

        // A rematch: same game and clock, sides swapped; accepted as usual.
        let not_yours = refusal(&mut bot, "dave", "rematch #2").await;
        assert!(not_yours.contains("#2"), "{not_yours}");
        let m = bot.ok("bob", "rematch #2").await.text.to_string();
        assert!(
            m.starts_with("Rematch of game #2: @alice, bob challenges you to Standard chess (10 minutes + 5 seconds per move, rated)"),
            "{m}"
        );
        assert!(m.contains("bob would play White"), "{m}");
        let s = bot.ok("alice", "accept").await.text.to_string();
        assert!(s.starts_with("Game #5 begins: Standard chess, bob (White) vs alice (Black)"), "{s}");
        assert!(s.contains(", rated ("), "{s}");
        bot.refused(
            "alice",
            "rematch #5",
            "Game #5 is still going: a rematch comes after it ends.",
        )
        .await;
    }
}

case! {
    /// Issue 53, point 2: a rematch of a rated game that was aborted is
    /// rated again (the abort cleared the game's rating, not the players'
    /// wish); a rematch of a casual game is casual and says why.
    #[tokio::test]
    async fn a_rematch_keeps_the_wish_for_a_rated_game_through_an_abort() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        bot.ok("alice", "challenge @bob standard").await;
        bot.ok("bob", "accept").await;
        let a = bot.ok("alice", "abort").await.text.to_string();
        assert!(a.contains("no result, not rated"), "{a}");
        assert_eq!(count(&bot, "SELECT COUNT(*) FROM games WHERE rated = 1").await, 0);
        let m = bot.ok("alice", "rematch").await.text.to_string();
        assert!(m.contains("(no time limit, rated)"), "{m}");
        assert!(!m.contains("Casual"), "{m}");
        let s = bot.ok("bob", "accept").await.text.to_string();
        assert!(s.contains(", rated ("), "{s}");
        bot.ok("bob", "abort").await;

        bot.ok("alice", "challenge @bob standard casual").await;
        bot.ok("bob", "accept").await;
        bot.ok("alice", "e4").await;
        bot.ok("bob", "e5").await;
        bot.ok("alice", "resign").await;
        let m = bot.ok("bob", "rematch").await.text.to_string();
        assert!(m.contains("(no time limit, casual)"), "{m}");
        assert!(m.ends_with("Casual, as game #3 was."), "{m}");
    }
}

case! {
    /// Issue 38, tests: every new reader of player text (player names, game
    /// names, pool words) gets multi-byte, empty and oversized input; each
    /// is answered clearly and changes nothing.
    #[tokio::test]
    async fn odd_text_in_the_rating_commands_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        rated_game(&mut bot, "alice", "名前🔥", "", 1.0).await;
        let r = bot.ok("alice", "rating @名前🔥").await.text.to_string();
        assert!(r.starts_with("Ratings of 名前🔥 here:"), "{r}");
        let p = bot.ok("alice", "profile @名前🔥").await.text.to_string();
        assert!(p.starts_with("名前🔥 here: 1 game, 0 won, 0 drawn, 1 lost."), "{p}");
        let long = "ж".repeat(5000);
        for text in [
            format!("rating @{long}"),
            format!("profile {long}"),
            "rating @".to_string(),
            "rating alice 🎉".to_string(),
            "leaderboard 🎉".to_string(),
            "leaderboard standard forever".to_string(),
            format!("leaderboard standard {long}"),
            "abort #0".to_string(),
            "abort #99999999999999999999".to_string(),
            "rematch #-1".to_string(),
            "rematch #١".to_string(),
            "games finished 🎉🎉".to_string(),
            "challenge @bob standard rated casual".to_string(),
        ] {
            let before = snapshot(&bot.core).await;
            let r = bot.say("alice", &text).await;
            assert!(r.is_error, "{text} -> {}", r.text);
            let said = r.text.to_string();
            assert!(!said.is_empty() && said.len() < 700, "{text} -> {said}");
            assert_eq!(snapshot(&bot.core).await, before, "{text}");
        }
        // Empty names are not players.
        let empty = refusal(&mut bot, "alice", "rating @   ").await;
        assert_eq!(empty, refusal(&mut bot, "alice", "rating @").await);
    }
}

case! {
    /// Issue 38, point 5: `check-db` recomputes every rating from the rated
    /// games in order and names the one that differs.
    #[tokio::test]
    async fn check_db_names_a_rating_that_its_games_do_not_make() {
        let dir = tempfile::tempdir().unwrap();
        let mut bot = Bot::open(&dir.path().join("v.db")).await;
        rated_game(&mut bot, "alice", "bob", "", 1.0).await;
        rated_game(&mut bot, "bob", "alice", "", 0.5).await;
        let check = bot.core.check_ratings().await.unwrap();
        assert_eq!((check.games, check.ratings), (2, 2));
        assert!(check.problems.is_empty(), "{:?}", check.problems);
        sqlx::query("UPDATE ratings SET rating = rating + 25 WHERE player = $1")
            .bind(id("bob").as_str())
            .execute(bot.core.store().pool())
            .await
            .unwrap();
        let check = bot.core.check_ratings().await.unwrap();
        assert_eq!(check.problems.len(), 1, "{:?}", check.problems);
        assert!(check.problems[0].contains("console:bob"), "{:?}", check.problems);
    }
}
