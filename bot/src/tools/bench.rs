//! `voidmate bench`: one move handled end to end (parse, validate, store,
//! render), and throughput with many games in play, on a fresh SQLite file.

use anyhow::Result;
use std::time::{Duration, Instant};
use voidmate::config::Config;
use voidmate::console::{console_player, PLATFORM};
use voidmate::game::{contract, Core, Incoming};

/// A line said in the console's namespace, `@names` resolved.
fn line(event_id: String, channel: &str, author: &str, text: &str) -> Incoming {
    let mut ev = Incoming::line(event_id, channel, console_player(author), text, true);
    ev.mentions = contract::handles(text, PLATFORM);
    ev
}

const MOVES: [&str; 4] = ["e4", "e6", "d4", "d6"];

pub async fn run(games: usize) -> Result<String> {
    let dir = std::env::temp_dir().join(format!("voidmate-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let mut cfg = Config::default();
    cfg.database.path = dir.join("bench.db");
    let core = Core::open(&cfg).await?;
    let mut n = 0u64;
    let mut say = |channel: &str, author: &str, text: &str| {
        n += 1;
        line(format!("bench-{n}"), channel, author, text)
    };
    let start = Instant::now();
    for g in 0..games {
        let ch = format!("bench-{g}");
        core.handle(&say(&ch, "white", "challenge @bob void")).await;
        core.handle(&say(&ch, "bob", "accept")).await;
    }
    let setup = start.elapsed();

    // Sequential: every move waits for the previous one.
    let mut latencies = Vec::new();
    let seq_start = Instant::now();
    for (i, mv) in MOVES.iter().enumerate().take(2) {
        let player = if i % 2 == 0 { "white" } else { "bob" };
        for g in 0..games {
            let ev = say(&format!("bench-{g}"), player, &format!("move {mv}"));
            let t = Instant::now();
            let reply = core.handle(&ev).await.expect("new event");
            latencies.push(t.elapsed());
            assert!(!reply.is_error, "{}", reply.text);
            // Posted: the adapter confirms, after the answer is out.
            for entry in reply.deliveries {
                core.delivered(entry).await;
            }
        }
    }
    let seq = seq_start.elapsed();
    let seq_moves = latencies.len();

    // Concurrent: all games move at once, as many players would.
    let conc_start = Instant::now();
    let mut conc_moves = 0;
    for (i, mv) in MOVES.iter().enumerate().skip(2) {
        let player = if i % 2 == 0 { "white" } else { "bob" };
        let mut tasks = Vec::new();
        for g in 0..games {
            let core = core.clone();
            let ev = say(&format!("bench-{g}"), player, &format!("move {mv}"));
            tasks.push(tokio::spawn(async move {
                let reply = core.handle(&ev).await;
                for entry in reply.iter().flat_map(|r| r.deliveries.iter()) {
                    core.delivered(*entry).await;
                }
                reply
            }));
        }
        for t in tasks {
            let reply = t.await?.expect("new event");
            assert!(!reply.is_error, "{}", reply.text);
            conc_moves += 1;
        }
    }
    let conc = conc_start.elapsed();

    latencies.sort();
    let pct = |p: usize| latencies[(latencies.len() * p / 100).min(latencies.len() - 1)];
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    Ok(format!(
        "games in play: {games} (set up in {:.1} s)\n\
         one move end to end (parse, validate, store, render), sequential, {seq_moves} moves:\n  \
         median {:.2} ms, p90 {:.2} ms, p99 {:.2} ms; {:.0} moves/s\n\
         concurrent ({conc_moves} moves across all games at once): {:.0} moves/s\n",
        setup.as_secs_f64(),
        ms(pct(50)),
        ms(pct(90)),
        ms(pct(99)),
        seq_moves as f64 / seq.as_secs_f64(),
        conc_moves as f64 / conc.as_secs_f64(),
    ) + tick_and_suggestions(&dir).await?.as_str()
        + ratings(&dir).await?.as_str())
}

/// Ratings (issue 38): `leaderboard` in a community of 10,000 rated
/// players, and what rating a game adds to its end (the same resignation
/// in rated and in casual games, between players with no games before).
async fn ratings(dir: &std::path::Path) -> Result<String> {
    std::fs::create_dir_all(dir)?;
    let mut cfg = Config::default();
    cfg.database.path = dir.join("ratings.db");
    let core = Core::open(&cfg).await?;
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)?
        .as_millis() as i64;
    const COMMUNITY: &str = "ladder";
    // 10,000 players with ratings spread over 800-2400, deviations over
    // 45-120, 1 to 60 games, the last up to 40 days ago: about half of
    // them stand on the board.
    let mut tx = core.store().pool().begin().await?;
    for i in 0..10_000i64 {
        let spread = (i * 7919) % 10_000;
        sqlx::query(
            "INSERT INTO ratings (community, player, variant, pool, rating, deviation, volatility, \
             games, best, last_game_ms) VALUES ($1, $2, 'void', 'live', $3, $4, 0.06, $5, $3, $6)",
        )
        .bind(COMMUNITY)
        .bind(format!("{PLATFORM}:r{i}"))
        .bind(800.0 + spread as f64 * 0.16)
        .bind(45.0 + (i % 76) as f64)
        .bind(1 + i % 60)
        .bind(now_ms - (i % 40) * 86_400_000)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    let mut n = 0u64;
    let mut say = |channel: &str, author: &str, text: &str| {
        n += 1;
        let mut ev = line(format!("rated-{n}"), channel, author, text);
        ev.community = Some(COMMUNITY.to_string());
        ev
    };
    let mut boards = Vec::new();
    for i in 0..400 {
        // Players on the board, off it, and with no rating at all.
        let asker = format!(
            "r{}",
            (i * 37) % 10_000 + if i % 5 == 0 { 20_000 } else { 0 }
        );
        let ev = say("hall", &asker, "leaderboard void live");
        let t = Instant::now();
        let reply = core.handle(&ev).await.expect("new event");
        boards.push(t.elapsed());
        anyhow::ensure!(
            !reply.is_error && reply.text.to_string().lines().count() >= 11,
            "a full board: {}",
            reply.text
        );
    }
    boards.sort();

    // 200 rated and 200 casual games, each between two new players, to
    // their second ply; then each resigned, alternately.
    const GAMES: usize = 200;
    for g in 0..GAMES {
        for (kind, terms) in [("rated", "rated"), ("casual", "casual")] {
            let ch = format!("{kind}-{g}");
            let (w, b) = (format!("{kind}-w{g}"), format!("{kind}-b{g}"));
            for (who, text) in [
                (w.as_str(), format!("challenge @{b} void 10+5 {terms}")),
                (b.as_str(), "accept".to_string()),
                (w.as_str(), "e4".to_string()),
                (b.as_str(), "e6".to_string()),
            ] {
                let reply = core.handle(&say(&ch, who, &text)).await.expect("new");
                anyhow::ensure!(!reply.is_error, "{text}: {}", reply.text);
            }
        }
    }
    let (mut rated, mut casual) = (Vec::new(), Vec::new());
    for g in 0..GAMES {
        for kind in ["rated", "casual"] {
            let ev = say(&format!("{kind}-{g}"), &format!("{kind}-b{g}"), "resign");
            let t = Instant::now();
            let reply = core.handle(&ev).await.expect("new event");
            let took = t.elapsed();
            let said = reply.text.to_string();
            anyhow::ensure!(
                !reply.is_error && (kind == "casual") != said.contains(" Ratings: "),
                "{kind}: {said}"
            );
            if kind == "rated" {
                rated.push(took)
            } else {
                casual.push(took)
            }
        }
    }
    rated.sort();
    casual.sort();
    core.store().pool().close().await;
    std::fs::remove_dir_all(dir).ok();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let at = |v: &[Duration], p: usize| v[(v.len() * p / 100).min(v.len() - 1)];
    Ok(format!(
        "leaderboard among 10,000 rated players, 400 asks:\n  \
         median {:.2} ms, p99 {:.2} ms\n\
         a game's end (resignation), {GAMES} rated and {GAMES} casual games:\n  \
         rated median {:.2} ms (p99 {:.2}), casual median {:.2} ms (p99 {:.2}): rating adds {:.2} ms\n",
        ms(at(&boards, 50)),
        ms(at(&boards, 99)),
        ms(at(&rated, 50)),
        ms(at(&rated, 99)),
        ms(at(&casual, 50)),
        ms(at(&casual, 99)),
        ms(at(&rated, 50)) - ms(at(&casual, 50)),
    ))
}

/// The periodic check with 10,000 clock games and 10,000 correspondence
/// games in play and none of them due, and move suggestions (autocomplete)
/// in a channel with 50 games.
async fn tick_and_suggestions(dir: &std::path::Path) -> Result<String> {
    use voidmate::game::command::TimeControl;
    use voidmate::game::{store, PlayerId};
    std::fs::create_dir_all(dir)?;
    let mut cfg = Config::default();
    cfg.database.path = dir.join("tick.db");
    let core = Core::open(&cfg).await?;
    let start = voidmate_rules::Position::new(voidmate_rules::variants::void()).fen();
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)?
        .as_millis() as i64;
    let (w, b) = (PlayerId::new("bench", "w"), PlayerId::new("bench", "b"));
    let seats = voidmate_rules::ByColor {
        white: &w,
        black: &b,
    };
    let void = voidmate_rules::GameKind::Void;
    let (blitz, days) = (
        TimeControl::Clock {
            minutes: 1,
            increment: 0,
        },
        TimeControl::Days(3),
    );
    let mut tx = core.store().begin().await?;
    for i in 0..10_000 {
        // One clock game (its clock running) and one correspondence game
        // (its deadline in three days).
        for (prefix, time) in [("c", &blitz), ("d", &days)] {
            let channel = format!("{prefix}{i}");
            let venue = store::Venue {
                channel: &channel,
                community: None,
                rated: false,
                at_ms: now_ms,
            };
            let opening = if prefix == "c" {
                store::Opening {
                    deadline: None,
                    clocks: Some(store::StartClocks {
                        base_ms: 3_600_000,
                        // No abort due during the bench.
                        first_move_by_ms: now_ms + 86_400_000,
                    }),
                }
            } else {
                let at = now_ms / 1000 + 3 * 86_400;
                store::Opening {
                    deadline: Some(store::Deadline {
                        at,
                        remind_at: at - 64_800,
                    }),
                    clocks: None,
                }
            };
            let game = store::NewGame {
                venue,
                kind: void,
                seats,
                start_fen: &start,
                time,
                engine_level: None,
                mode: voidmate_game::command::ProgramMode::Default,
                programs: voidmate_rules::ByColor::default(),
                opening: Some(opening),
                engine: None,
            };
            store::start_game(&mut tx, &game).await?;
        }
    }
    tx.commit().await?;
    let mut ticks = Vec::new();
    for _ in 0..200 {
        let t = Instant::now();
        let notices = core.tick().await;
        ticks.push(t.elapsed());
        anyhow::ensure!(notices.is_empty(), "nothing should be due");
    }
    ticks.sort();

    // One channel, 50 games; alice is to move in one of them.
    let mut n = 0u64;
    let mut say = |author: &str, text: &str| {
        n += 1;
        line(format!("suggest-{n}"), "busy", author, text)
    };
    for i in 0..50 {
        let (white, black) = if i == 0 {
            ("alice".to_string(), "bob".to_string())
        } else {
            (format!("p{i}"), format!("q{i}"))
        };
        core.handle(&say(&white, &format!("challenge @{black} void")))
            .await;
        core.handle(&say(&black, "accept")).await;
    }
    let mut suggestions = Vec::new();
    let alice = PlayerId::new(PLATFORM, "alice");
    for typed in ["", "e", "M", "g1", "Nf", "d", "", "h"]
        .iter()
        .cycle()
        .take(400)
    {
        let t = Instant::now();
        let found = core.suggest_moves("busy", &alice, typed, 25).await;
        suggestions.push(t.elapsed());
        anyhow::ensure!(
            !typed.is_empty() || !found.is_empty(),
            "alice has moves to suggest"
        );
    }
    suggestions.sort();
    std::fs::remove_dir_all(dir).ok();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let at = |v: &[Duration], p: usize| v[(v.len() * p / 100).min(v.len() - 1)];
    Ok(format!(
        "tick with 10,000 clock and 10,000 correspondence games, none due, 200 ticks:\n  \
         median {:.2} ms, p99 {:.2} ms\n\
         autocomplete in a channel with 50 games, 400 keystrokes:\n  \
         median {:.3} ms, p99 {:.3} ms\n",
        ms(at(&ticks, 50)),
        ms(at(&ticks, 99)),
        ms(at(&suggestions, 50)),
        ms(at(&suggestions, 99)),
    ))
}

/// What `voidmate bench --processes K` was asked to do.
pub struct Spread {
    /// The database: a SQLite file or a `postgres://` URL (empty).
    pub db: String,
    pub processes: usize,
    pub games: usize,
    /// Reach a PostgreSQL `db` through a latency proxy adding this each
    /// way ([`crate::tools::proxy`]), and count round trips.
    pub delay: Option<Duration>,
}

/// `url` with its host and port replaced by 127.0.0.1:`port`, and the host
/// and port it named (`HOST:PORT`, 5432 by default).
fn through_proxy(url: &str, port: u16) -> Result<(String, String)> {
    let (scheme, rest) = url
        .split_once("://")
        .ok_or_else(|| anyhow::anyhow!("{url} is not a URL"))?;
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let (user, hostport) = match authority.rsplit_once('@') {
        Some((user, hostport)) => (format!("{user}@"), hostport),
        None => (String::new(), authority),
    };
    anyhow::ensure!(!hostport.is_empty(), "{url} names no host");
    let target = if hostport.contains(':') {
        hostport.to_string()
    } else {
        format!("{hostport}:5432")
    };
    Ok((format!("{scheme}://{user}127.0.0.1:{port}{path}"), target))
}

/// Plies each game of [`spread`] plays: enough that a process's run is
/// seconds long, not a few waves of moves.
const SPREAD_PLIES: usize = 24;

/// Games each process of [`spread`] warms up on before the clock starts:
/// as many as its pool has connections (`[database] max_connections`).
const WARM_GAMES: usize = 10;

/// The plies of [`spread`]'s games, in SAN: the same line in every game,
/// chosen from the legal moves of Void Chess so that no game ends inside it.
fn spread_line(plies: usize) -> Vec<String> {
    let mut pos = voidmate_rules::Position::new(voidmate_rules::variants::void());
    let mut line = Vec::with_capacity(plies);
    for ply in 0..plies {
        let legal = pos.legal_moves();
        // Spread over the legal moves, and past any that would end it.
        let start = (ply * 7 + 3) % legal.len().max(1);
        let chosen = *(0..legal.len())
            .map(|k| &legal[(start + k) % legal.len()])
            .find(|mv| {
                let mut next = pos.clone();
                next.play_unchecked(mv);
                next.outcome().is_none()
            })
            .expect("a move that does not end the game");
        line.push(pos.san(&chosen));
        pos.play_unchecked(&chosen);
    }
    line
}

/// Who plays ply `i` (from 0) of a bench game.
fn mover(i: usize) -> &'static str {
    if i.is_multiple_of(2) {
        "white"
    } else {
        "bob"
    }
}

/// `voidmate bench --db PLACE --processes K`: `games` games set up on one
/// database, then K processes (this binary, `--part`) move them at once,
/// each its share of the games, every game its own player pair answering
/// each move as soon as the last is confirmed ([`SPREAD_PLIES`] plies).
/// Each process first plays two plies in games of its own, so that its
/// connections are open and their statements prepared (a bot that has run
/// a while) before the clock starts. Reports moves per second over all
/// processes and the latency of a move (handled and confirmed) at the
/// median and p99.
pub async fn spread(mut args: Spread) -> Result<String> {
    use voidmate::game::config::Database;
    let shown = Database::at(&args.db);
    let proxy = match args.delay {
        Some(delay) => {
            anyhow::ensure!(
                shown.url.is_some(),
                "--delay-ms puts a PostgreSQL server at a distance; {} is an SQLite file",
                shown.describe()
            );
            let (_, target) = through_proxy(&args.db, 0)?;
            let proxy = crate::tools::proxy::Proxy::start(0, target, delay).await?;
            args.db = through_proxy(&args.db, proxy.port)?.0;
            Some((proxy, delay))
        }
        None => None,
    };
    let database = Database::at(&args.db);
    let cfg = Config {
        database: database.clone(),
        ..Default::default()
    };
    let core = Core::open(&cfg).await?;
    let games: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games")
        .fetch_one(core.store().pool())
        .await?;
    anyhow::ensure!(
        games == 0,
        "the bench needs an empty database; {} holds {games} games",
        database.describe()
    );
    let setup = Instant::now();
    let mut n = 0u64;
    let warm =
        (0..args.processes).flat_map(|p| (0..WARM_GAMES).map(move |g| format!("warm-{p}-{g}")));
    for ch in (0..args.games).map(|g| format!("bench-{g}")).chain(warm) {
        for (who, text) in [("white", "challenge @bob void"), ("bob", "accept")] {
            n += 1;
            let reply = core
                .handle(&line(format!("setup-{n}"), &ch, who, text))
                .await
                .expect("new event");
            anyhow::ensure!(!reply.is_error, "{}", reply.text);
            for entry in reply.deliveries {
                core.delivered(entry).await;
            }
        }
    }
    let setup = setup.elapsed();
    // Through the proxy: one move of a game of its own, counted alone.
    let probe = match &proxy {
        None => String::new(),
        Some((proxy, delay)) => {
            let ch = "bench-probe";
            let mut said = |who: &str, text: &str| {
                n += 1;
                line(format!("probe-{n}"), ch, who, text)
            };
            for (who, text) in [("white", "challenge @bob void"), ("bob", "accept")] {
                let reply = core.handle(&said(who, text)).await.expect("new event");
                for entry in reply.deliveries {
                    core.delivered(entry).await;
                }
            }
            let mut handled = Vec::new();
            let mut confirmed = Vec::new();
            let pings_before = proxy.pings();
            for (who, mv) in [
                ("white", "e4"),
                ("bob", "e6"),
                ("white", "d4"),
                ("bob", "d6"),
            ] {
                let ev = said(who, &format!("move {mv}"));
                let before = proxy.round_trips();
                let reply = core.handle(&ev).await.expect("new event");
                anyhow::ensure!(!reply.is_error, "{}", reply.text);
                let after = proxy.round_trips();
                for entry in reply.deliveries {
                    core.delivered(entry).await;
                }
                handled.push(after - before);
                confirmed.push(proxy.round_trips() - after);
            }
            // The pool checks a connection as it comes back (after the
            // commit, so after the answer is known).
            tokio::time::sleep(Duration::from_millis(100)).await;
            let pings = proxy.pings() - pings_before;
            // The distance as a client sees it: `SELECT 1`, 50 times.
            let mut trips = Vec::new();
            let mut conn = core.store().pool().acquire().await?;
            for _ in 0..50 {
                let t = Instant::now();
                sqlx::query("SELECT 1").execute(&mut *conn).await?;
                trips.push(t.elapsed());
            }
            drop(conn);
            trips.sort();
            let measured = trips[trips.len() / 2].as_secs_f64() * 1000.0;
            // The first uses of a statement on a connection prepare it (a
            // round trip more); the pool's connections take turns.
            format!(
                "  a round trip to the database through the proxy: {measured:.2} ms (the median of 50 `SELECT 1`)\n  through a proxy adding {:.2} ms each way: four moves, one after the other, took {:?} round trips to handle and {:?} to confirm their posts (prepared statements: {} and {} a move), and the pool checked its connections {} times as they came back\n",
                delay.as_secs_f64() * 1000.0,
                handled,
                confirmed,
                handled.iter().min().copied().unwrap_or(0),
                confirmed.iter().min().copied().unwrap_or(0),
                pings,
            )
        }
    };
    drop(core);
    // Every part starts at the same moment, after all have opened and
    // warmed up.
    let start_at = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)?
        .as_millis() as u64
        + 5000;
    let exe = std::env::current_exe()?;
    let children: Vec<_> = (0..args.processes)
        .map(|part| {
            tokio::process::Command::new(&exe)
                .args([
                    "bench",
                    "--db",
                    &args.db,
                    "--games",
                    &args.games.to_string(),
                    "--processes",
                    &args.processes.to_string(),
                    "--part",
                    &part.to_string(),
                    "--start-at-ms",
                    &start_at.to_string(),
                ])
                .stdout(std::process::Stdio::piped())
                .spawn()
        })
        .collect::<Result<_, _>>()?;
    // Round trips of the moves alone: the parts have opened by then.
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)?
        .as_millis() as u64;
    tokio::time::sleep(Duration::from_millis(start_at.saturating_sub(now))).await;
    let trips_before = proxy.as_ref().map(|(p, _)| (p.round_trips(), p.pings()));
    // While the parts move, this process only runs the proxy.
    let proxy_cpu_before = cpu_ms();
    let mut latencies = Vec::new();
    let mut longest = Duration::ZERO;
    let mut elapsed = Vec::new();
    let mut cpu: Option<u64> = Some(0);
    for child in children {
        let out = child.wait_with_output().await?;
        anyhow::ensure!(out.status.success(), "a bench process failed");
        let text = String::from_utf8(out.stdout)?;
        let used = text
            .lines()
            .find_map(|l| l.strip_prefix("cpu-ms "))
            .and_then(|ms| ms.parse::<u64>().ok());
        cpu = cpu.zip(used).map(|(a, b)| a + b);
        for l in text.lines() {
            if let Some(us) = l.strip_prefix("latencies-us ") {
                latencies.extend(
                    us.split(',')
                        .filter_map(|v| v.parse::<u64>().ok())
                        .map(Duration::from_micros),
                );
            } else if let Some(ms) = l.strip_prefix("elapsed-ms ") {
                let ms = Duration::from_millis(ms.parse()?);
                longest = longest.max(ms);
                elapsed.push(format!("{:.2} s", ms.as_secs_f64()));
            }
        }
    }
    anyhow::ensure!(
        latencies.len() == args.games * SPREAD_PLIES,
        "{} moves measured, {} expected",
        latencies.len(),
        args.games * SPREAD_PLIES
    );
    let proxy_cpu = match (proxy_cpu_before, cpu_ms()) {
        (Some(before), Some(after)) if proxy.is_some() => format!(
            ", and the proxy's CPU time {:.2} ms a move",
            (after - before) as f64 / latencies.len() as f64
        ),
        _ => String::new(),
    };
    let trips = match (&proxy, trips_before) {
        (Some((p, _)), Some((before, pings))) => format!(
            "  round trips while the processes moved: {:.1} a move (handled and confirmed), and {:.1} pool checks of a connection{proxy_cpu}\n",
            (p.round_trips() - before) as f64 / latencies.len() as f64,
            (p.pings() - pings) as f64 / latencies.len() as f64,
        ),
        _ => String::new(),
    };
    let cpu = match cpu {
        Some(ms) => format!(
            "  the processes' own CPU time: {:.2} ms a move (all processes together, the database's not counted); each finished after {}\n",
            ms as f64 / latencies.len() as f64,
            elapsed.join(", ")
        ),
        None => format!("  each process finished after {}\n", elapsed.join(", ")),
    };
    latencies.sort();
    let at = |p: usize| latencies[(latencies.len() * p / 100).min(latencies.len() - 1)];
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    Ok(format!(
        "{} on {}: {} games (set up in {:.1} s), {} moves by {} process(es), every game moving at once:\n  \
         {:.0} moves/s; a move (handled and confirmed) median {:.2} ms, p99 {:.2} ms\n{cpu}{probe}{trips}",
        match database.url {
            Some(_) => "PostgreSQL",
            None => "SQLite",
        },
        shown.describe(),
        args.games,
        setup.as_secs_f64(),
        latencies.len(),
        args.processes,
        latencies.len() as f64 / longest.as_secs_f64(),
        ms(at(50)),
        ms(at(99)),
    ))
}

/// One process's share of [`spread`]: games `g` with `g % processes ==
/// part`, each played through [`spread_line`] by its own task, all at
/// once; prints the latencies (µs) and the time it took.
pub async fn part(
    db: &str,
    games: usize,
    processes: usize,
    part: usize,
    start_at_ms: u64,
) -> Result<String> {
    let cfg = Config {
        database: voidmate::game::config::Database::at(db),
        ..Default::default()
    };
    let core = Core::inspect(&cfg).await?;
    let line = spread_line(SPREAD_PLIES);
    // Warm up: two plies in each of this process's own games, at once.
    let warm: Vec<String> = (0..WARM_GAMES)
        .map(|g| format!("warm-{part}-{g}"))
        .collect();
    play_games(&core, &warm, &line[..2], &format!("warm-{part}")).await?;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)?
        .as_millis() as u64;
    anyhow::ensure!(
        now < start_at_ms,
        "the warm-up ran past the start; the bench's processes would not start together"
    );
    tokio::time::sleep(Duration::from_millis(start_at_ms - now)).await;
    let mine: Vec<String> = (0..games)
        .filter(|g| g % processes == part)
        .map(|g| format!("bench-{g}"))
        .collect();
    let started = Instant::now();
    let cpu_before = cpu_ms();
    let latencies = play_games(&core, &mine, &line, &format!("part-{part}")).await?;
    let elapsed = started.elapsed();
    let cpu = match (cpu_before, cpu_ms()) {
        (Some(before), Some(after)) => format!("cpu-ms {}\n", after - before),
        _ => String::new(),
    };
    let latencies: Vec<String> = latencies
        .iter()
        .map(|d| d.as_micros().to_string())
        .collect();
    Ok(format!(
        "latencies-us {}\nelapsed-ms {}\n{cpu}",
        latencies.join(","),
        elapsed.as_millis()
    ))
}

/// The CPU time this process has used (user and system, ms), where the
/// system says (Linux: `/proc/self/stat`, in ticks of 1/100 s).
fn cpu_ms() -> Option<u64> {
    cpu_ms_of(&std::fs::read_to_string("/proc/self/stat").ok()?)
}

/// [`cpu_ms`] from the text of a `/proc/PID/stat`.
fn cpu_ms_of(stat: &str) -> Option<u64> {
    // The fields after the command name (which may hold spaces and
    // parentheses), from the third: utime and stime are the 14th and 15th.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i - 3)?.parse::<u64>().ok();
    Some((ticks(14)? + ticks(15)?) * 10)
}

/// Plays `line` in every game of `channels` at once, each game a task that
/// sends its next move as soon as the last is handled and its posts
/// confirmed; the time each move took.
async fn play_games(
    core: &Core,
    channels: &[String],
    line: &[String],
    tag: &str,
) -> Result<Vec<Duration>> {
    let mut tasks = Vec::new();
    for ch in channels {
        let (core, ch, line) = (core.clone(), ch.clone(), line.to_vec());
        let tag = tag.to_string();
        tasks.push(tokio::spawn(async move {
            let mut took = Vec::with_capacity(line.len());
            for (i, mv) in line.iter().enumerate() {
                let ev = self::line(
                    format!("{tag}-{ch}-{i}"),
                    &ch,
                    mover(i),
                    &format!("move {mv}"),
                );
                let t = Instant::now();
                let reply = core.handle(&ev).await.expect("new event");
                for entry in &reply.deliveries {
                    core.delivered(*entry).await;
                }
                anyhow::ensure!(!reply.is_error, "{ch}: {mv}: {}", reply.text);
                took.push(t.elapsed());
            }
            Ok::<_, anyhow::Error>(took)
        }));
    }
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await??);
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::{cpu_ms_of, spread_line, through_proxy};

    /// The CPU time is read past a command name with spaces and
    /// parentheses; a text that is not a stat line gives none.
    #[test]
    fn cpu_time_is_read_from_a_stat_line() {
        let stat = "4242 (vm (a) b) S 1 4242 4242 0 -1 4194560 900 0 0 0 123 45 0 0 20 0 3 0 100";
        assert_eq!(cpu_ms_of(stat), Some(1680));
        assert_eq!(cpu_ms_of("nonsense"), None);
        assert_eq!(cpu_ms_of("1 (x) S 1"), None);
    }

    /// The bench's line is legal throughout, and no game ends inside it.
    #[test]
    fn the_bench_line_plays_to_its_end() {
        let line = spread_line(super::SPREAD_PLIES);
        assert_eq!(line.len(), super::SPREAD_PLIES);
        let mut pos = voidmate_rules::Position::new(voidmate_rules::variants::void());
        for san in &line {
            assert!(pos.outcome().is_none(), "{line:?}");
            let mv = pos.parse_move(san).unwrap_or_else(|e| panic!("{san}: {e}"));
            pos.play_unchecked(&mv);
        }
        assert!(pos.outcome().is_none(), "{line:?}");
    }

    /// `--db` as written by a person: the host and port go to the proxy,
    /// the rest stays; what names no host is refused, never a panic.
    #[test]
    fn a_url_is_pointed_at_the_proxy() {
        assert_eq!(
            through_proxy("postgres://vm@db.example.org:6000/games?sslmode=disable", 7).unwrap(),
            (
                "postgres://vm@127.0.0.1:7/games?sslmode=disable".to_string(),
                "db.example.org:6000".to_string()
            )
        );
        assert_eq!(
            through_proxy("postgres://höst/ü", 7).unwrap(),
            (
                "postgres://127.0.0.1:7/ü".to_string(),
                "höst:5432".to_string()
            )
        );
        for bad in [
            "",
            "nonsense",
            "postgres:///db",
            "postgres://user@/db",
            "ж://",
        ] {
            assert!(through_proxy(bad, 7).is_err(), "{bad:?}");
        }
    }
}
