//! Issue 22: a cluster on one PostgreSQL database. Three `voidmate run`
//! processes against the fake Discord serving two shards, two `voidmate
//! engine-worker` processes, hundreds of games moving at once (some against
//! the engine); one bot process and one worker killed with SIGKILL mid-run.
//! Every move is applied once, every reply and notice posted once, every
//! engine turn played. Then `health` reports the cluster and `migrate-db`
//! copies it to a SQLite file, verified by replay.
//!
//! The layout: process A runs shard 0 of 2, B shard 1, C both. Discord sends
//! a guild's events to every session whose shard id matches
//! `(guild_id >> 22) % num_shards` (`events/gateway`, Sharding), so each
//! event reaches two processes and the database settles which one answers
//! (event ids); when B dies, C still hears shard 1.

#[path = "../../game/tests/postgres/mod.rs"]
mod postgres;

#[path = "fake_discord/mod.rs"]
mod fake_discord;

#[path = "said/mod.rs"]
mod said;

use said::voidmate;

use fake_discord::{user, FakeDiscord, APP, BOT_NAME, GUILD, GUILD_B};
use serde_json::json;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::Duration;
use voidmate_rules::{variants, Color, Position};

/// Games between two people, and games against the engine.
const PEOPLE_GAMES: usize = 160;
const ENGINE_GAMES: usize = 40;
/// Moves each side of a person's game plays, and a person against the engine.
const ROUNDS: usize = 4;

/// A `voidmate` process of the test's cluster, killed when dropped.
struct Process {
    child: Child,
}

impl Process {
    fn start(args: &[&str], log: &Path) -> Process {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
            .unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_voidmate"))
            .args(args)
            .env("VOIDMATE_TEST_DISCORD_TOKEN", "fake-token")
            .env("RUST_LOG", "info")
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .expect("voidmate runs");
        Process { child }
    }

    /// `kill -9`: no clean-up of any kind.
    fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A bot process's configuration: `shards` of 2, engine turns to workers.
fn bot_config(dir: &Path, name: &str, url: &str, api: &str, shards: [u32; 2]) -> PathBuf {
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(
        &path,
        format!(
            "[database]\nurl = \"{url}\"\n[engine]\nsearches = \"workers\"\n\
             [discord]\nenabled = true\ntoken_env = \"VOIDMATE_TEST_DISCORD_TOKEN\"\n\
             guild_id = \"{GUILD}\"\napi_url = \"{api}\"\ntick_seconds = 1\nmessage_content = true\n\
             shards = 2\nshard_range = [{}, {}]\n",
            shards[0], shards[1]
        ),
    )
    .unwrap();
    path
}

/// An engine worker's configuration.
fn worker_config(dir: &Path, name: &str, url: &str) -> PathBuf {
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(
        &path,
        format!("[database]\nurl = \"{url}\"\n[engine]\nthreads = 2\nmove_time_ms = 150\n"),
    )
    .unwrap();
    path
}

/// One game of the test: where it is played and by whom.
struct Game {
    guild: u64,
    channel: u64,
    white: (u64, &'static str),
    /// `None`: the engine plays Black.
    black: Option<(u64, &'static str)>,
    /// Moves sent by people: (player's name, SAN).
    sent: Vec<(&'static str, String)>,
}

fn name(prefix: &str, i: usize) -> &'static str {
    Box::leak(format!("{prefix}{i}").into_boxed_str())
}

/// Waits until `done` holds, up to `secs` seconds, naming `what` if not.
async fn until<F, Fut>(what: &str, secs: u64, log_dir: &Path, mut done: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
    while !done().await {
        if tokio::time::Instant::now() > deadline {
            let mut logs = String::new();
            for entry in std::fs::read_dir(log_dir).unwrap().flatten() {
                if entry.path().extension().is_some_and(|e| e == "log") {
                    let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
                    let tail: Vec<&str> = text.lines().rev().take(15).collect();
                    logs.push_str(&format!("--- {}\n", entry.path().display()));
                    for line in tail.into_iter().rev() {
                        logs.push_str(line);
                        logs.push('\n');
                    }
                }
            }
            panic!("not within {secs} s: {what}\n{logs}");
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(voidmate_postgres),
    ignore = "PostgreSQL is not installed: `bash scripts/postgres.sh install` (as root) runs this"
)]
async fn a_cluster_plays_every_move_once_through_killed_processes() {
    let url = postgres::database();
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start().await;
    // The processes ask for the message-content intent, which the
    // application has (the Developer Portal's switch).
    fake.allow_privileged(1 << 15);
    let pool = {
        sqlx::any::install_default_drivers();
        sqlx::AnyPool::connect(&url).await.unwrap()
    };
    let log = |n: &str| dir.path().join(format!("{n}.log"));
    let _a = Process::start(
        &[
            "run",
            "--config",
            bot_config(dir.path(), "a", &url, &fake.api_url, [0, 0])
                .to_str()
                .unwrap(),
        ],
        &log("a"),
    );
    // The first process makes the schema; the others find it made.
    until("process a's start", 60, dir.path(), || async {
        fake.readies() >= 1
    })
    .await;
    let b = Process::start(
        &[
            "run",
            "--config",
            bot_config(dir.path(), "b", &url, &fake.api_url, [1, 1])
                .to_str()
                .unwrap(),
        ],
        &log("b"),
    );
    let _c = Process::start(
        &[
            "run",
            "--config",
            bot_config(dir.path(), "c", &url, &fake.api_url, [0, 1])
                .to_str()
                .unwrap(),
        ],
        &log("c"),
    );
    let w1 = Process::start(
        &[
            "engine-worker",
            "--config",
            worker_config(dir.path(), "w1", &url).to_str().unwrap(),
        ],
        &log("w1"),
    );
    let _w2 = Process::start(
        &[
            "engine-worker",
            "--config",
            worker_config(dir.path(), "w2", &url).to_str().unwrap(),
        ],
        &log("w2"),
    );
    // Four shard sessions: a's, b's and c's two.
    until("every shard connected", 90, dir.path(), || async {
        fake.readies() >= 4
    })
    .await;

    // Half the games in each guild, so on each shard; each in its channel.
    let mut games: Vec<Game> = (0..PEOPLE_GAMES + ENGINE_GAMES)
        .map(|i| Game {
            guild: if i % 2 == 0 { GUILD } else { GUILD_B },
            channel: 10_000 + i as u64,
            white: (100_000 + i as u64, name("w", i)),
            black: (i < PEOPLE_GAMES).then(|| (200_000 + i as u64, name("b", i))),
            sent: Vec::new(),
        })
        .collect();
    let bot = user(APP, BOT_NAME);
    // Against the engine at level 5: each search takes its whole 150 ms,
    // so the worker killed below dies with searches running.
    for g in &games {
        match g.black {
            Some(black) => fake.say_in(
                g.guild,
                g.channel,
                g.white,
                &format!("<@{APP}> challenge <@{}> standard white", black.0),
                json!([bot, user(black.0, black.1)]),
            ),
            None => fake.say_in(
                g.guild,
                g.channel,
                g.white,
                &format!("<@{APP}> challenge <@{APP}> standard white 5"),
                json!([bot]),
            ),
        };
    }
    let count = |sql: &'static str| {
        let pool = pool.clone();
        async move {
            sqlx::query_scalar::<_, i64>(sql)
                .fetch_one(&pool)
                .await
                .unwrap_or(-1)
        }
    };
    until("every challenge stored", 120, dir.path(), || async {
        count("SELECT COUNT(*) FROM challenges WHERE status = 'pending'").await
            == PEOPLE_GAMES as i64
            && count("SELECT COUNT(*) FROM games").await == ENGINE_GAMES as i64
    })
    .await;
    for g in &games {
        if let Some(black) = g.black {
            fake.say_in(
                g.guild,
                g.channel,
                black,
                &format!("<@{APP}> accept"),
                json!([bot]),
            );
        }
    }
    let total = (PEOPLE_GAMES + ENGINE_GAMES) as i64;
    until("every game begun", 120, dir.path(), || async {
        count("SELECT COUNT(*) FROM games").await == total
    })
    .await;

    // Rounds of moves: in each, whoever is to move in every game moves
    // (a person's game: one move; a game against the engine: the person's
    // move, then the engine's). The moves are chosen from the stored
    // position, so they are legal whatever the engine played.
    let mut expected_moves: HashMap<u64, i64> = HashMap::new();
    let mut b = Some(b);
    let mut w1 = Some(w1);
    let mut worker_killed = std::time::Instant::now();
    for round in 0..ROUNDS * 2 {
        let engine_round = round % 2 == 0;
        for (i, g) in games.iter_mut().enumerate() {
            if g.black.is_none() && !engine_round {
                continue;
            }
            let (fen, status): (String, String) =
                sqlx::query_as("SELECT fen, status FROM games WHERE channel = $1")
                    .bind(g.channel.to_string())
                    .fetch_one(&pool)
                    .await
                    .unwrap();
            if status != "active" {
                continue;
            }
            let pos = Position::from_fen(variants::standard(), &fen).unwrap();
            let legal = pos.legal_moves();
            let mv = &legal[(i + round) % legal.len()];
            let san = pos.san(mv);
            let who = match pos.turn() {
                Color::White => g.white,
                Color::Black => g.black.expect("the engine's turn was played"),
            };
            fake.say_in(g.guild, g.channel, who, &san, json!([]));
            g.sent.push((who.1, san));
            *expected_moves.entry(g.channel).or_default() += match g.black {
                Some(_) => 1,
                None => 2,
            };
        }
        // Mid-run: process b dies with moves of its shard in flight, then a
        // worker with searches running.
        if round == 2 {
            tokio::time::sleep(Duration::from_millis(150)).await;
            b.take().unwrap().kill();
        }
        if round == 4 {
            tokio::time::sleep(Duration::from_millis(300)).await;
            w1.take().unwrap().kill();
            worker_killed = std::time::Instant::now();
        }
        let want: i64 = expected_moves.values().sum();
        until(
            &format!("round {round}'s moves stored ({want})"),
            120,
            dir.path(),
            || async { count("SELECT COUNT(*) FROM moves").await == want },
        )
        .await;
    }
    // Everything owed is posted, including the answers the killed process
    // took and never posted (they go out when their grace ends).
    until("the outbox emptied", 150, dir.path(), || async {
        count("SELECT COUNT(*) FROM outbox").await == 0
    })
    .await;
    tokio::time::sleep(Duration::from_secs(2)).await;

    // Every move applied once, in order.
    let ids: HashMap<String, i64> =
        sqlx::query_as::<_, (String, i64)>("SELECT channel, id FROM games")
            .fetch_all(&pool)
            .await
            .unwrap()
            .into_iter()
            .collect();
    let posted = fake.requests();
    let mut visible: HashMap<String, Vec<String>> = HashMap::new();
    for r in posted.iter().filter(|r| r.creates_visible_message()) {
        let channel = r.path.split('/').nth(2).unwrap_or("").to_string();
        visible
            .entry(channel)
            .or_default()
            .push(r.content().to_string());
    }
    for g in &games {
        let channel = g.channel.to_string();
        let id = ids[&channel];
        let stored: Vec<(String, String)> =
            sqlx::query_as("SELECT played_by, san FROM moves WHERE game_id = $1 ORDER BY ply")
                .bind(id)
                .fetch_all(&pool)
                .await
                .unwrap();
        let people: Vec<String> = stored
            .iter()
            .filter(|(by, _)| by != &format!("discord:{APP}"))
            .map(|(_, san)| san.clone())
            .collect();
        let sent: Vec<String> = g.sent.iter().map(|(_, san)| san.clone()).collect();
        assert_eq!(people, sent, "game #{id}: the people's moves, each once");
        // Issue 40, point 4: the channel tells the moves in the order they
        // were played, through the killed process's owed answers too.
        let told: Vec<String> = visible
            .get(&channel)
            .into_iter()
            .flatten()
            .flat_map(|m| {
                let words: Vec<&str> = m.split_whitespace().collect();
                words
                    .windows(2)
                    .filter(|w| w[0] == "played")
                    .map(|w| w[1].trim_end_matches(['.', ',']).to_string())
                    .collect::<Vec<_>>()
            })
            .collect();
        let played: Vec<String> = stored.iter().map(|(_, san)| san.clone()).collect();
        assert_eq!(
            told,
            played,
            "game #{id}: the moves told in the order played: {:#?}",
            visible.get(&channel)
        );
        let engine = stored.len() - people.len();
        if g.black.is_none() {
            assert_eq!(engine, people.len(), "game #{id}: every engine turn played");
        }
        // Every reply and notice once: the challenge's answer (or the game's
        // start against the engine), the start after accepting, one per move.
        let messages = visible.get(&channel).cloned().unwrap_or_default();
        // A game that ended after 4 plies or more gets its replay too
        // (issue 39).
        let status: String = sqlx::query_scalar("SELECT status FROM games WHERE id = $1")
            .bind(id)
            .fetch_one(&pool)
            .await
            .unwrap();
        let replay = usize::from(status == "finished" && stored.len() >= 4);
        let expected = replay
            + match g.black {
                Some(_) => 2 + stored.len(),
                None => 1 + stored.len(),
            };
        assert_eq!(
            messages.len(),
            expected,
            "game #{id}'s messages: {messages:#?}"
        );
        for (who, san) in &g.sent {
            let told = messages
                .iter()
                .filter(|m| m.contains(&format!("#{id}: {who} played {san}")))
                .count();
            let played = g.sent.iter().filter(|(w, s)| w == who && s == san).count();
            assert_eq!(
                told, played,
                "game #{id}: {who} played {san}: {messages:#?}"
            );
        }
        let told = messages
            .iter()
            .filter(|m| m.contains(&format!("#{id}: {BOT_NAME} played")))
            .count();
        assert_eq!(
            told, engine,
            "game #{id}: the engine's moves: {messages:#?}"
        );
    }

    // The health report sees the five processes; the two killed ones fall
    // silent.
    let silent = Duration::from_millis(voidmate::game::SILENT_AFTER_MS as u64 + 6_000);
    tokio::time::sleep(silent.saturating_sub(worker_killed.elapsed())).await;
    let (healthy, report, err) = voidmate(&["health", "--db", &url]);
    eprintln!("{report}");
    assert!(!healthy);
    assert_eq!(
        err.trim(),
        "error: not healthy: 2 processes silent, 0 unwell"
    );
    assert_eq!(report.matches("SILENT").count(), 2, "{report}");
    assert_eq!(report.matches("\n  run ").count(), 3, "{report}");
    assert_eq!(report.matches("\n  engine-worker ").count(), 2, "{report}");
    assert!(
        report.contains("shards [0, 1] of 2, 2 of 2 connected"),
        "{report}"
    );
    assert!(report.contains("outbox: 0 owed"), "{report}");
    let active = count("SELECT COUNT(*) FROM games WHERE status = 'active'").await;
    assert!(
        report.contains(&format!("games in play: {active}\n")),
        "{report}"
    );
    // Issue 40, point 8: the killed ones are replaced (a process for the
    // same shards, a worker): `health` says they are gone and replaced, and
    // the cluster is healthy again.
    let _b2 = Process::start(
        &[
            "run",
            "--config",
            bot_config(dir.path(), "b2", &url, &fake.api_url, [1, 1])
                .to_str()
                .unwrap(),
        ],
        &log("b2"),
    );
    let _w3 = Process::start(
        &[
            "engine-worker",
            "--config",
            worker_config(dir.path(), "w3", &url).to_str().unwrap(),
        ],
        &log("w3"),
    );
    until("the replacements report", 60, dir.path(), || async {
        count("SELECT COUNT(*) FROM processes").await == 7
    })
    .await;
    let (healthy, report, err) = voidmate(&["health", "--db", &url]);
    assert!(healthy, "{err}\n{report}");
    assert_eq!(report.matches("GONE, replaced by").count(), 2, "{report}");
    assert_eq!(report.matches("SILENT").count(), 0, "{report}");
    assert!(report.ends_with("healthy\n"), "{report}");

    // The whole cluster's data moves to a SQLite file, verified by replay.
    let copy = dir.path().join("copy.db");
    let (ok, out, err) = voidmate(&["migrate-db", "--from", &url, "--to", copy.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(
        out.contains(&format!("verified: {total} games replay")),
        "{out}"
    );
    let (ok, out, err) = voidmate(&["check-db", "--db", copy.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(out.starts_with(&format!("{total} games checked")), "{out}");
    // Issue 40, point 8: check-db reads the database the configuration (or
    // `--db`) names, PostgreSQL included, not the unused SQLite path.
    let config = bot_config(dir.path(), "check", &url, &fake.api_url, [0, 0]);
    for args in [
        vec!["check-db", "--config", config.to_str().unwrap()],
        vec!["check-db", "--db", url.as_str()],
    ] {
        let (ok, out, err) = voidmate(&args);
        assert!(ok, "{args:?}: {err}");
        assert!(
            out.starts_with(&format!("{total} games checked")),
            "{args:?}: {out}"
        );
    }
}

/// Issue 22, point 3: an engine worker shares a PostgreSQL database; on a
/// SQLite file it refuses to start and says why.
#[test]
fn an_engine_worker_needs_postgresql() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("w.toml");
    std::fs::write(
        &config,
        format!(
            "[database]\npath = \"{}\"\n",
            dir.path().join("v.db").display()
        ),
    )
    .unwrap();
    let (ok, _, err) = voidmate(&["engine-worker", "--config", config.to_str().unwrap()]);
    assert!(!ok);
    assert!(
        err.contains("an engine worker shares a PostgreSQL database")
            && err.contains("with SQLite the engine runs inside `voidmate run`"),
        "{err}"
    );
}

/// Issue 22, points 4 and 5, from the command line: a SQLite deployment
/// moves to PostgreSQL, verified; a second copy into the same database is
/// refused; `health` reports the new database; bad places get clear errors.
#[test]
#[cfg_attr(
    not(voidmate_postgres),
    ignore = "PostgreSQL is not installed: `bash scripts/postgres.sh install` (as root) runs this"
)]
fn migrate_db_and_health_from_the_command_line() {
    let url = postgres::database();
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("v.db");
    said::say_lines(
        &db,
        &[
            ("alice", "challenge @bob void"),
            ("bob", "accept"),
            ("alice", "e4"),
            ("carol", "challenge @dave antichess"),
        ],
    );
    let path = db.to_str().unwrap();
    let (ok, out, err) = voidmate(&["migrate-db", "--from", path, "--to", &url]);
    assert!(ok, "{err}");
    assert!(out.contains("  games: 1 rows\n"), "{out}");
    assert!(out.contains("  moves: 1 rows\n"), "{out}");
    assert!(out.contains("  challenges: 2 rows\n"), "{out}");
    assert!(
        out.ends_with("verified: 1 games replay to their stored positions and match the source\n"),
        "{out}"
    );
    // Progress went to standard error, table by table.
    assert!(
        err.contains("copying") && err.contains("  outbox: "),
        "{err}"
    );
    let (ok, _, err) = voidmate(&["migrate-db", "--from", path, "--to", &url]);
    assert!(!ok);
    assert!(err.contains("the destination is not empty"), "{err}");
    let (ok, _, err) = voidmate(&["migrate-db", "--from", "/nonexistent/v.db", "--to", &url]);
    assert!(
        !ok && err.contains("there is no database at /nonexistent/v.db"),
        "{err}"
    );
    let (ok, _, err) = voidmate(&["migrate-db", "--from", path, "--to", path]);
    assert!(!ok && err.contains("name the same database"), "{err}");

    // Nobody runs on the new database yet: healthy, with its games.
    let (ok, out, err) = voidmate(&["health", "--db", &url]);
    assert!(ok, "{out}{err}");
    assert!(
        out.starts_with("database: PostgreSQL, reachable ("),
        "{out}"
    );
    assert!(
        out.contains("games in play: 1\n") && out.ends_with("processes: 0\nhealthy\n"),
        "{out}"
    );
    // A server that is not there: a clear error, a failing status.
    let (ok, _, err) = voidmate(&["health", "--db", "postgres://voidmate@127.0.0.1:1/none"]);
    assert!(
        !ok && err.contains("the database 127.0.0.1:1/none does not answer"),
        "{err}"
    );
}

/// With SQLite there are no engine workers: a bot process told to leave
/// the engine's turns to them refuses to start, and says what to change.
#[test]
fn a_bot_on_sqlite_does_not_wait_for_engine_workers() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("run.toml");
    std::fs::write(
        &config,
        format!(
            "[database]\npath = \"{}\"\n[engine]\nsearches = \"workers\"\n[discord]\nenabled = true\n\
             token_env = \"VOIDMATE_TEST_DISCORD_TOKEN\"\n",
            dir.path().join("v.db").display()
        ),
    )
    .unwrap();
    let (ok, _, err) = voidmate(&["run", "--config", config.to_str().unwrap()]);
    assert!(!ok);
    assert!(
        err.contains("searches = \"workers\"") && err.contains("with SQLite the engine runs here"),
        "{err}"
    );
    assert!(!dir.path().join("v.db").exists(), "nothing was opened");
}

/// Issue 40's aim: a move commits in at most 6 round trips on PostgreSQL
/// (`BEGIN`, the intake with the author's games, the game locked with its
/// moves, the move, the answer, `COMMIT`), counted by the latency proxy of
/// `voidmate bench --delay-ms`, which tells the pool's checks of its
/// connections apart; the confirmation of a post is one.
#[test]
#[cfg_attr(
    not(voidmate_postgres),
    ignore = "PostgreSQL is not installed: `bash scripts/postgres.sh install` (as root) runs this"
)]
fn a_move_commits_in_six_round_trips() {
    let url = postgres::database();
    let (ok, out, err) = voidmate(&[
        "bench",
        "--db",
        &url,
        "--games",
        "2",
        "--processes",
        "2",
        "--delay-ms",
        "0",
    ]);
    assert!(ok, "{out}{err}");
    let counts = out
        .split("(prepared statements: ")
        .nth(1)
        .and_then(|rest| rest.split(" a move)").next())
        .unwrap_or_else(|| panic!("no round trips counted: {out}"));
    let [handled, confirmed] = counts
        .split(" and ")
        .map(|n| n.parse::<u64>().unwrap())
        .collect::<Vec<_>>()[..]
    else {
        panic!("{counts}")
    };
    assert!(handled <= 6, "a move took {handled} round trips: {out}");
    assert_eq!(confirmed, 1, "{out}");
    // Every move of both processes was played and measured.
    assert!(out.contains(": 2 games (set up in "), "{out}");
    assert!(out.contains(", 48 moves by 2 process(es)"), "{out}");
}
