//! The core end to end on an in-memory database: handlers, isolation,
//! edits and direct conversations, through [`Core::handle`].

use crate::config::CoreConfig;
use crate::contract::{Player, PlayerId};
use crate::core::{CommandStyle, Core};
use crate::incoming::Incoming;
use crate::isolate;
use crate::reply::Reply;
use crate::store;
use std::sync::Arc;

fn event(n: u64, who: &str, text: &str, addressed: bool) -> Incoming {
    let mut ev = Incoming::line(
        format!("ev-{n}"),
        "room",
        Player::new(PlayerId::new("test", who), who),
        text,
        addressed,
    );
    ev.mentions = crate::contract::handles(text, "test");
    ev
}

/// A core on an in-memory database, as handler tests use it.
async fn memory_core() -> Core {
    let mut cfg = CoreConfig::default();
    cfg.database.path = store::IN_MEMORY.into();
    Core::open(&cfg).await.unwrap()
}

async fn say(core: &Core, n: u64, who: &str, text: &str) -> Reply {
    let r = core.handle(&event(n, who, text, true)).await.unwrap();
    posted(core, &r).await;
    r
}

/// Confirms `r` as an adapter does once it has posted it: the answers owed
/// before it, then the reply itself.
async fn posted(core: &Core, r: &Reply) {
    for notice in &r.before {
        core.delivered(notice.id).await;
    }
    for entry in &r.deliveries {
        core.delivered(*entry).await;
    }
}

/// The handlers on an in-memory database: a game from challenge to
/// resignation, nothing written to disk.
#[tokio::test]
async fn handlers_run_on_an_in_memory_database() {
    let core = memory_core().await;
    assert!(
        !say(&core, 1, "alice", "challenge @bob standard")
            .await
            .is_error
    );
    let r = say(&core, 2, "bob", "accept").await;
    assert!(r.text.starts_with("Game #1 begins"), "{}", r.text);
    let r = say(&core, 3, "alice", "e4").await;
    assert_eq!(r.text, "#1: alice played e4. bob, your move.");
    let r = say(&core, 4, "alice", "e5").await;
    assert!(
        r.is_error && r.text.contains("bob is to move"),
        "{}",
        r.text
    );
    let r = say(&core, 5, "bob", "resign").await;
    assert_eq!(
        r.text,
        "bob resigns game #1. alice wins (1-0). Not rated: it ended before both sides had moved."
    );
    // A redelivered event is recognised in memory too.
    assert!(core
        .handle(&event(5, "bob", "resign", true))
        .await
        .is_none());
    let games: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games")
        .fetch_one(core.store().pool())
        .await
        .unwrap();
    assert_eq!(games, 1);
}

/// Chatter is never answered, however long; the same text said to the
/// bot is refused as too long.
#[tokio::test]
async fn long_chatter_gets_no_answer() {
    let core = memory_core().await;
    let long = "lunch anyone? ".repeat(60);
    assert!(core
        .handle(&event(1, "alice", &long, false))
        .await
        .is_none());
    let r = core.handle(&event(2, "alice", &long, true)).await.unwrap();
    assert!(r.is_error && r.text.contains("too long"), "{}", r.text);
}

/// Games in threads (issue 19, point 8): asked for by the challenge or,
/// when it says nothing, by the channel's setting; only where the
/// platform has threads. Once the adapter has moved the game to its
/// thread, moves there need no number and the channel has no game.
#[tokio::test]
async fn a_game_may_get_a_thread_of_its_own() {
    let core = memory_core().await;
    // A platform without threads refuses the option and the setting.
    let r = say(&core, 1, "alice", "challenge @bob standard thread").await;
    assert!(r.is_error && r.text.contains("for Discord"), "{}", r.text);
    let r = say(&core, 2, "alice", "settings threads on").await;
    assert!(r.is_error, "{}", r.text);

    core.set_command_style(
        "test",
        CommandStyle {
            threads: true,
            ..CommandStyle::default()
        },
    );
    let r = say(&core, 3, "alice", "challenge @bob standard thread").await;
    assert!(r.text.contains("in a thread of its own"), "{}", r.text);
    let r = core.handle(&event(4, "bob", "accept", true)).await.unwrap();
    let thread = r.thread.clone().expect("a thread for the game");
    assert_eq!(thread.subject, crate::reply::Threaded::Game(1));
    assert_eq!(thread.name, "#1 alice vs bob · Standard chess");
    // The adapter opened it: the game and its first answer move there.
    assert!(core
        .move_game(1, "room", "thread-1", &r.deliveries)
        .await
        .unwrap());
    let owed: Vec<String> = sqlx::query_scalar("SELECT channel FROM outbox")
        .fetch_all(core.store().pool())
        .await
        .unwrap();
    assert_eq!(owed, vec!["thread-1".to_string()]);
    for entry in &r.deliveries {
        core.delivered(*entry).await;
    }
    let mut moved = event(5, "alice", "e4", true);
    moved.channel = "thread-1".into();
    let r = core.handle(&moved).await.unwrap();
    assert_eq!(r.text, "#1: alice played e4. bob, your move.");
    let r = say(&core, 6, "bob", "e5").await;
    assert!(r.is_error, "the game is still in the channel: {}", r.text);
    // A second move of the same game elsewhere does nothing.
    assert!(!core.move_game(1, "room", "thread-2", &[]).await.unwrap());

    // Without the option, the channel's setting decides; `no-thread`
    // overrides it.
    let r = say(&core, 7, "carol", "settings threads on").await;
    assert!(r.text.contains("own thread on"), "{}", r.text);
    say(&core, 8, "carol", "challenge @dave standard").await;
    let r = say(&core, 9, "dave", "accept").await;
    assert!(r.thread.is_some(), "{}", r.text);
    say(&core, 10, "erin", "challenge @frank standard no-thread").await;
    let r = say(&core, 11, "frank", "accept").await;
    assert!(r.thread.is_none(), "{}", r.text);
}

/// `dm` asks the adapter to open a direct conversation with the author,
/// greeting them there; in one already, it says so and opens nothing.
#[tokio::test]
async fn dm_opens_a_direct_conversation_with_the_author() {
    let core = memory_core().await;
    let r = say(&core, 1, "alice", "dm").await;
    let direct = r.direct.expect("a conversation to open");
    assert_eq!(direct.with.id, PlayerId::new("test", "alice"));
    assert!(direct.greeting.to_string().contains("program #N"));
    assert_eq!(direct.greeting.mentioned().count(), 1);
    assert!(r.text.to_string().contains("direct conversation"));
    let mut private = event(2, "alice", "dm", true);
    private.private = true;
    let r = core.handle(&private).await.unwrap();
    assert!(r.direct.is_none() && r.text.contains("privately already"));
}

/// An edit of a refused command is handled as the new command; an edit
/// of one acted on leaves what was done and says so once.
#[tokio::test]
async fn edits_run_once_and_never_undo_what_was_done() {
    let core = memory_core().await;
    say(&core, 1, "alice", "challenge @bob standard").await;
    say(&core, 2, "bob", "accept").await;
    let r = say(&core, 3, "alice", "Ke2").await;
    assert!(r.is_error, "{}", r.text);
    let r = core
        .handle_edit(&event(4, "alice", "e4", true), "ev-3")
        .await
        .unwrap();
    posted(&core, &r).await;
    assert_eq!(r.text, "#1: alice played e4. bob, your move.");
    say(&core, 5, "bob", "e5").await;
    let r = core
        .handle_edit(&event(6, "bob", "d5", true), "ev-5")
        .await
        .unwrap();
    assert!(r.is_error && r.text.contains("stands"), "{}", r.text);
    // Told once: a redelivered edit says nothing.
    assert!(core
        .handle_edit(&event(6, "bob", "d5", true), "ev-5")
        .await
        .is_none());
    let r = say(&core, 7, "alice", "board").await;
    assert!(r.text.contains("alice to move"), "{}", r.text);
    // An edit that arrives before its original: the original never runs.
    let r = core
        .handle_edit(&event(9, "alice", "Nf3", true), "ev-8")
        .await
        .unwrap();
    posted(&core, &r).await;
    assert!(r.text.contains("played Nf3"), "{}", r.text);
    assert!(core.handle(&event(8, "alice", "d4", true)).await.is_none());
}

/// A name the adapter found for several people is not guessed at.
#[tokio::test]
async fn a_name_that_fits_several_people_is_asked_about() {
    let core = memory_core().await;
    let mut ev = event(1, "alice", "challenge @bob void", true);
    let bob = |id: &str, name: &str| crate::contract::Mentioned {
        written: "@bob".into(),
        who: Player::new(PlayerId::new("test", id), name),
    };
    ev.mentions = vec![bob("@bob:a.org", "Bob Smith"), bob("@bob:b.org", "Bob")];
    let r = core.handle(&ev).await.unwrap();
    assert_eq!(
        r.text,
        "`@bob` could be Bob Smith (@bob:a.org) or Bob (@bob:b.org). Mention the one you mean (type @ and pick them), or write their full id."
    );
    ev.event_id = "ev-2".into();
    ev.mentions.truncate(1);
    let r = core.handle(&ev).await.unwrap();
    assert!(
        r.text.contains("Bob Smith, alice challenges you"),
        "{}",
        r.text
    );
}

/// A resignation and an agreed draw end with the final board, and the
/// other player hears of it.
#[tokio::test]
async fn resignations_and_agreed_draws_show_the_final_board_and_notify() {
    let core = memory_core().await;
    say(&core, 1, "alice", "challenge @bob standard").await;
    say(&core, 2, "bob", "accept").await;
    let r = say(&core, 3, "alice", "resign").await;
    assert_eq!(
        r.text,
        "alice resigns game #1. bob wins (0-1). Not rated: it ended before both sides had moved."
    );
    let names: Vec<&str> = r.notify.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["bob"]);
    let image = r.image.expect("the final board");
    assert!(image.alt.contains("final position"), "{}", image.alt);
    say(&core, 4, "alice", "challenge @bob standard").await;
    say(&core, 5, "bob", "accept").await;
    say(&core, 6, "bob", "draw").await;
    let r = say(&core, 7, "alice", "draw accept").await;
    assert!(r.text.contains("drawn by agreement"), "{}", r.text);
    let names: Vec<&str> = r.notify.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["bob"]);
    assert!(r.image.is_some(), "the final board");
}

/// Two in-memory cores share nothing.
#[tokio::test]
async fn in_memory_databases_are_apart() {
    let (a, b) = (memory_core().await, memory_core().await);
    say(&a, 1, "alice", "challenge @bob void").await;
    let r = say(&b, 1, "bob", "accept").await;
    assert!(r.is_error, "{}", r.text);
}

/// A panic inside one event is answered with an apology, the event is
/// not handled again when redelivered, and the next events work.
/// Log lines written while the guard lives, for the test to read.
#[derive(Clone, Default)]
struct Captured(Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test]
async fn a_panic_in_one_event_leaves_the_bot_running() {
    let logs = Captured::default();
    let writer = logs.clone();
    let _logging = tracing::subscriber::set_default(
        tracing_subscriber::fmt()
            .with_writer(move || writer.clone())
            .with_ansi(false)
            .finish(),
    );
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = CoreConfig::default();
    cfg.database.path = dir.path().join("v.db");
    let core = Core::open(&cfg).await.unwrap();
    let r = core
        .handle(&event(1, "alice", "challenge @bob void", true))
        .await
        .unwrap();
    posted(&core, &r).await;
    assert!(!r.is_error);
    // Poison the lock that every challenge reads (the bot's own names):
    // the next challenge panics inside the core.
    let names = core.bots.clone();
    let _ = std::thread::spawn(move || {
        let _guard = names.write().unwrap();
        panic!("poisoning the lock for the test");
    })
    .join();
    let failed = event(2, "carol", "challenge @dave void", true);
    let r = core.handle(&failed).await.expect("an apology");
    assert!(r.is_error);
    assert_eq!(r.text.as_str(), isolate::APOLOGY);
    let logged = String::from_utf8(logs.0.lock().unwrap().clone()).unwrap();
    assert!(
        logged.contains("ERROR")
            && logged.contains("handling an event panicked")
            && logged.contains("event=ev-2")
            && logged.contains("channel=room")
            && logged.contains("author=test:carol"),
        "{logged}"
    );
    // Redelivered: already seen, not tried (nor apologised for) again.
    assert!(core.handle(&failed).await.is_none());
    // Unaddressed chatter that fails gets no answer at all.
    assert!(core
        .handle(&event(3, "carol", "challenge @dave void", false))
        .await
        .is_none());
    // The process goes on: what does not touch the broken part works.
    let r = core.handle(&event(6, "erin", "help", true)).await.unwrap();
    assert!(!r.is_error, "{}", r.text);
    // Once that part is sound again, play resumes where it was.
    core.bots.clear_poison();
    let r = core.handle(&event(4, "bob", "accept", true)).await.unwrap();
    posted(&core, &r).await;
    assert!(r.text.starts_with("Game #1"), "{}", r.text);
    let r = core.handle(&event(5, "alice", "e4", true)).await.unwrap();
    assert!(!r.is_error, "{}", r.text);
}

/// Issue 53: a replay's frames say where they are. The first shows the
/// start (not the result), each later one its move as a game score numbers
/// it, and the last one holds the result as well.
#[tokio::test]
async fn replay_frames_name_their_moves_and_the_last_holds_the_result() {
    let core = memory_core().await;
    for (n, (who, text)) in [
        ("alice", "challenge @bob standard"),
        ("bob", "accept"),
        ("alice", "e4"),
        ("bob", "e5"),
        ("alice", "Nf3"),
        ("bob", "resign"),
    ]
    .into_iter()
    .enumerate()
    {
        assert!(!say(&core, n as u64, who, text).await.is_error, "{text}");
    }
    let mut tx = core.store().begin().await.unwrap();
    let rec = store::game(&mut tx, "room", 1).await.unwrap().unwrap();
    let g = core.load(&mut tx, rec).await.unwrap();
    let picture = crate::picture::game_picture(
        &g,
        voidmate_render::Theme::Classic,
        &PlayerId::new("test", "alice"),
        None,
        crate::command::Flip::Auto,
    );
    let frames = crate::picture::replay_frames(&g, &picture.opts).unwrap();
    let said: Vec<String> = frames
        .iter()
        .map(|f| f.opts.caption.as_ref().unwrap().status.clone())
        .collect();
    let end = picture.opts.caption.as_ref().unwrap().status.clone();
    assert!(end.contains("resign"), "{end}");
    assert_eq!(
        said,
        [
            "Starting position".to_string(),
            "1. e4".to_string(),
            "1... e5".to_string(),
            format!("2. Nf3; {end}"),
        ]
    );
}

/// Issue 53: a review's graph writes each marked move as a game score
/// numbers it, beside its dot, and numbers the moves along the bottom.
#[tokio::test]
async fn the_review_graph_names_its_marked_moves_and_numbers_the_moves() {
    use crate::review::{Eval, Review};
    let core = memory_core().await;
    let moves = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Nd4", "Nxe5", "Qg5"];
    for (n, (who, text)) in [("alice", "challenge @bob standard"), ("bob", "accept")]
        .into_iter()
        .chain(
            moves
                .iter()
                .enumerate()
                .map(|(i, m)| (if i % 2 == 0 { "alice" } else { "bob" }, *m)),
        )
        .enumerate()
    {
        assert!(!say(&core, n as u64, who, text).await.is_error, "{text}");
    }
    let mut tx = core.store().begin().await.unwrap();
    let rec = store::game(&mut tx, "room", 1).await.unwrap().unwrap();
    let g = core.load(&mut tx, rec).await.unwrap();
    // Level, until White's 4. Nxe5 throws a piece away (a blunder), and
    // Black's 3... Nd4 before it was level too.
    let evals: Vec<Eval> = [0, 0, 0, 0, 0, 0, 0, 900, -900]
        .into_iter()
        .map(Eval::Cp)
        .collect();
    let sans: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    let review = Review::new(
        g.kind(),
        voidmate_rules::Color::White,
        &sans,
        &evals,
        &vec![None; evals.len()],
    );
    let picture = crate::picture::graph_picture(&g, &review, voidmate_render::Theme::Classic);
    let graph = picture.graph.unwrap();
    assert_eq!(graph.chances.len(), moves.len() + 1);
    let labels: Vec<&str> = graph.marks.iter().map(|m| m.label.as_str()).collect();
    assert_eq!(labels, ["4. Nxe5??"], "{:?}", graph.marks);
    assert_eq!(graph.marks[0].index, 7);
    let ticks: Vec<(usize, &str)> = graph.ticks.iter().map(|(i, s)| (*i, s.as_str())).collect();
    assert_eq!(ticks, [(1, "1"), (3, "2"), (5, "3"), (7, "4")]);
    assert!(
        picture.alt.contains("move numbers along the bottom"),
        "{}",
        picture.alt
    );
}
