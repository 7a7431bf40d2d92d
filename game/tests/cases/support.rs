//! What every case shares: a bot driven as an adapter drives the core, the
//! configuration of a bot on either backend, and the helpers that play
//! openings, look into the database and wait for notices.

pub(crate) use crate::postgres;
pub(crate) use crate::ON_POSTGRES;
pub(crate) use sqlx::Row;
pub(crate) use voidmate_game::store::LeaseKind;
pub(crate) use voidmate_game::Clock;

pub(crate) use std::path::Path;

pub(crate) use voidmate_game::config::CoreConfig as Config;

pub(crate) use voidmate_game::{Player, PlayerId};

pub(crate) use voidmate_game::{contract, Core, Incoming, Reply};

/// The console's namespace of player ids: names are identities there.
pub(crate) const PLATFORM: &str = "console";

/// Someone in the console, whose name is their identity.
pub(crate) fn console_player(name: &str) -> Player {
    Player::new(PlayerId::new(PLATFORM, name), name)
}

pub(crate) struct Bot {
    pub(crate) core: Core,
    pub(crate) n: u64,
    pub(crate) channel: String,
}

/// The configuration of a bot on `path`; on PostgreSQL, on the database
/// that stands for that path (the same one again after a restart).
pub(crate) fn config(path: &Path) -> Config {
    let mut cfg = Config::default();
    cfg.database.path = path.to_path_buf();
    // Puzzle searches only where a case asks for them: the others count
    // the engine's work and the outbox exactly.
    cfg.engine.puzzle_searches = false;
    if ON_POSTGRES {
        cfg.database.url = Some(postgres::database_for(path));
    }
    cfg
}

impl Bot {
    pub(crate) async fn open(path: &Path) -> Bot {
        Bot::with(config(path)).await
    }

    pub(crate) async fn with(cfg: Config) -> Bot {
        Bot {
            core: Core::open(&cfg).await.unwrap(),
            n: 0,
            channel: "room".into(),
        }
    }

    /// A bot whose clock a test moves by hand.
    pub(crate) async fn with_clock(cfg: Config, clock: Clock) -> Bot {
        Bot {
            core: Core::open_with_time(&cfg, clock).await.unwrap(),
            n: 0,
            channel: "room".into(),
        }
    }

    pub(crate) fn event(&mut self, who: &str, text: &str) -> Incoming {
        self.n += 1;
        let mut ev = Incoming::line(
            format!("{}-{}-{}", self.channel, self.n, std::process::id()),
            self.channel.clone(),
            console_player(who),
            text,
            true,
        );
        ev.mentions = contract::handles(text, PLATFORM);
        ev
    }

    /// A typed command (a slash command, a button) from `who`; must succeed.
    pub(crate) async fn typed(&mut self, who: &str, cmd: voidmate_game::command::Command) -> Reply {
        let mut ev = self.event(who, "");
        ev.input = voidmate_game::Input::Command(cmd);
        let r = self.core.handle(&ev).await.expect("a reply");
        assert!(!r.is_error, "{who}: {:?} -> {}", ev.input, r.text);
        self.posted(&r).await;
        r
    }

    /// Confirms `r` as an adapter does once it has posted it: the answers
    /// owed before it (`r.before`), then the reply itself.
    pub(crate) async fn posted(&self, r: &Reply) {
        for notice in &r.before {
            self.core.delivered(notice.id).await;
        }
        for entry in &r.deliveries {
            self.core.delivered(*entry).await;
        }
    }

    /// The periodic check, its notices posted (confirmed) as an adapter
    /// does; their texts.
    pub(crate) async fn tick(&self) -> Vec<String> {
        let mut texts = Vec::new();
        for n in self.core.tick().await {
            texts.push(n.reply.text.to_string());
            self.core.delivered(n.id).await;
        }
        texts
    }

    /// A line from `who` as the platform shows them now (any id, any name).
    pub(crate) async fn say_as(&mut self, who: voidmate_game::Player, text: &str) -> Reply {
        let mut ev = self.event("", text);
        ev.author = who;
        let r = self.core.handle(&ev).await.expect("a reply");
        self.posted(&r).await;
        r
    }

    /// Says something; the reply is posted (confirmed), as an adapter does.
    pub(crate) async fn say(&mut self, who: &str, text: &str) -> Reply {
        let r = self.say_unconfirmed(who, text).await;
        self.posted(&r).await;
        r
    }

    /// Says something and leaves the reply unposted, as a crash would.
    pub(crate) async fn say_unconfirmed(&mut self, who: &str, text: &str) -> Reply {
        let ev = self.event(who, text);
        self.core
            .handle(&ev)
            .await
            .expect("a new event gets a reply")
    }

    /// Says something that must succeed.
    pub(crate) async fn ok(&mut self, who: &str, text: &str) -> Reply {
        let r = self.say(who, text).await;
        assert!(!r.is_error, "{who}: {text} -> {}", r.text);
        assert_eq!(r.audience, voidmate_game::Audience::Everyone, "{text}");
        r
    }

    /// Says something that must be refused with exactly `msg`, changing nothing.
    pub(crate) async fn refused(&mut self, who: &str, text: &str, msg: &str) {
        let before = snapshot(&self.core).await;
        let r = self.say(who, text).await;
        assert!(r.is_error, "{text} should be refused, got: {}", r.text);
        assert_eq!(r.audience, voidmate_game::Audience::Author, "{text}");
        assert_eq!(r.text.as_str(), msg, "reply to {text}");
        assert!(r.image.is_none());
        assert_eq!(
            snapshot(&self.core).await,
            before,
            "{text} changed the stored state"
        );
    }
}

/// Another connection holding the lock that writes need, as another
/// process would: SQLite's write lock on the file; on PostgreSQL a lock on
/// the games table that lets reads through and holds writes back.
pub(crate) enum Locker {
    Sqlite(sqlx::SqliteConnection),
    Postgres(sqlx::PgConnection),
}

impl Locker {
    pub(crate) async fn hold(path: &Path) -> Locker {
        use sqlx::Connection as _;
        if ON_POSTGRES {
            let url = postgres::database_for(path);
            let mut c = sqlx::PgConnection::connect(&url).await.unwrap();
            for sql in ["BEGIN", "LOCK TABLE games IN EXCLUSIVE MODE"] {
                sqlx::query(sql).execute(&mut c).await.unwrap();
            }
            Locker::Postgres(c)
        } else {
            let url = format!("sqlite://{}", path.display());
            let mut c = sqlx::SqliteConnection::connect(&url).await.unwrap();
            sqlx::query("BEGIN EXCLUSIVE")
                .execute(&mut c)
                .await
                .unwrap();
            Locker::Sqlite(c)
        }
    }

    pub(crate) async fn release(self) {
        match self {
            Locker::Sqlite(mut c) => sqlx::query("ROLLBACK").execute(&mut c).await.map(drop),
            Locker::Postgres(mut c) => sqlx::query("ROLLBACK").execute(&mut c).await.map(drop),
        }
        .unwrap();
    }
}

/// How commits reach the disk: SQLite's `synchronous` (2 FULL, 1 NORMAL),
/// PostgreSQL's `synchronous_commit` (on, off).
pub(crate) async fn sync_mode(bot: &Bot) -> String {
    let pool = bot.core.store().pool();
    if ON_POSTGRES {
        sqlx::query_scalar("SHOW synchronous_commit")
            .fetch_one(pool)
            .await
            .unwrap()
    } else {
        let mode: i64 = sqlx::query_scalar("PRAGMA synchronous")
            .fetch_one(pool)
            .await
            .unwrap();
        mode.to_string()
    }
}

/// Who `name` is in the console's namespace.
pub(crate) fn id(name: &str) -> voidmate_game::PlayerId {
    voidmate_game::PlayerId::new(PLATFORM, name)
}

/// The names of whom a reply notifies.
pub(crate) fn names(players: &[voidmate_game::Player]) -> Vec<String> {
    players.iter().map(|p| p.name.clone()).collect()
}

/// Everything stored about games, moves, challenges and settings.
pub(crate) async fn snapshot(core: &Core) -> String {
    let pool = core.store().pool();
    let mut out = String::new();
    for (sql, cols) in [
        ("SELECT id, fen, version, status, coalesce(result,''), coalesce(draw_offer_by,''), coalesce(undo_by,'') FROM games ORDER BY id", 7),
        ("SELECT game_id, ply, san FROM moves ORDER BY game_id, ply", 3),
        ("SELECT id, status FROM challenges ORDER BY id", 2),
        ("SELECT channel, bare_moves, theme FROM channel_settings ORDER BY channel", 3),
        ("SELECT community, player, variant, pool, games FROM ratings ORDER BY community, player, variant, pool", 5),
        ("SELECT game_id, player FROM rating_changes ORDER BY game_id, player", 2),
        ("SELECT id, status, round, channel FROM tournaments ORDER BY id", 4),
        ("SELECT tournament_id, player, status, joined_round FROM tournament_players ORDER BY tournament_id, player", 4),
        ("SELECT tournament_id, round FROM tournament_rounds ORDER BY tournament_id, round", 2),
        ("SELECT tournament_id, a, b FROM tournament_forbidden ORDER BY tournament_id, a, b", 3),
        ("SELECT id, player, channel, progress, state, settled, hinted FROM puzzle_attempts ORDER BY id", 7),
        ("SELECT community, variant, player, solved, failed FROM puzzle_ratings ORDER BY community, variant, player", 5),
        ("SELECT id, plays FROM puzzles ORDER BY id", 2),
        ("SELECT channel, minute, next_ms FROM daily_puzzles ORDER BY channel", 3),
        ("SELECT channel, day, puzzle_id, progress FROM daily_posts ORDER BY channel, day", 4),
        ("SELECT channel, day, player, moves FROM daily_credits ORDER BY channel, day, player", 4),
    ] {
        for row in sqlx::query(sql).fetch_all(pool).await.unwrap() {
            for i in 0..cols {
                let v: String = row
                    .try_get::<String, _>(i)
                    .or_else(|_| row.try_get::<i64, _>(i).map(|n| n.to_string()))
                    .unwrap();
                out.push_str(&v);
                out.push('|');
            }
            out.push('\n');
        }
    }
    out
}

/// A Void Chess opening with a capture, so a tile turns unstable.
pub(crate) const VOID_OPENING: &[(&str, &str)] = &[
    ("alice", "e4"),
    ("bob", "d6"),
    ("alice", "d4"),
    ("bob", "e6"),
    ("alice", "e5"),
    ("bob", "dxe5"),
];

pub(crate) async fn play(bot: &mut Bot, moves: &[(&str, &str)]) {
    for (who, mv) in moves {
        bot.ok(who, mv).await;
    }
}

pub(crate) async fn start_game(bot: &mut Bot, variant: &str) {
    bot.ok("alice", &format!("challenge @bob {variant}")).await;
    let r = bot.ok("bob", "accept").await;
    assert!(r.text.starts_with("Game #"), "{}", r.text);
    // White moves first here: the first board is drawn from White's side.
    if let Some(card) = r.image.as_ref().and_then(|i| i.board.as_ref()) {
        assert_eq!(card.bottom, voidmate_rules::Color::White, "{variant}");
    }
}

/// Puts game `id` in `fen`, as if it had been reached by play.
pub(crate) async fn set_position(bot: &Bot, id: i64, fen: &str) {
    sqlx::query("UPDATE games SET start_fen = $1, fen = $1 WHERE id = $2")
        .bind(fen)
        .bind(id)
        .execute(bot.core.store().pool())
        .await
        .unwrap();
}

/// Counts the moves stored in game `id`.
pub(crate) async fn moves_in(core: &Core, id: i64) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM moves WHERE game_id = $1")
        .bind(id)
        .fetch_one(core.store().pool())
        .await
        .unwrap()
}

/// Ticks `core` until `n` notices came and were confirmed, waiting for
/// another process's work (an engine search); returns their texts (fewer
/// only if half a minute passed: the caller's assertion then says so).
pub(crate) async fn notices_from(core: &Core, n: usize) -> Vec<String> {
    let mut texts = Vec::new();
    for _ in 0..600 {
        for notice in core.tick().await {
            core.delivered(notice.id).await;
            texts.push(notice.reply.text.to_string());
        }
        if texts.len() >= n {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    texts
}

/// The wall clock in milliseconds, where a test's hand-moved clock starts.
pub(crate) fn wall_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// Who holds the engine's turn in game `id` now, if anyone.
pub(crate) async fn holder(core: &Core, id: i64) -> Option<String> {
    let now = core.store().clock().now_ms();
    voidmate_game::store::leases::holder(core.store().pool(), LeaseKind::EngineTurn, id, now)
        .await
        .unwrap()
}

/// When the hold of outbox entry `id` ends (its next attempt).
pub(crate) async fn hold_until(core: &Core, id: i64) -> i64 {
    sqlx::query_scalar("SELECT next_attempt_ms FROM outbox WHERE id = $1")
        .bind(id)
        .fetch_one(core.store().pool())
        .await
        .unwrap()
}
