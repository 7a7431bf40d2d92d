#![recursion_limit = "256"]
//! The Matrix adapter in rooms as Element users share them, on a real
//! Synapse: events sent through the client-server API in the shapes Element
//! sends (pills in `formatted_body` with `m.mentions`, `m.replace` edits,
//! `m.annotation` reactions, replies), and each player's `/notifications`
//! read back from the server, which applies Matrix's default push rules.

mod synapse;

use matrix_sdk::config::SyncSettings;
use matrix_sdk::ruma::api::client::push::get_notifications;
use matrix_sdk::ruma::events::room::message::{
    MessageType, OriginalSyncRoomMessageEvent, Relation,
};
use matrix_sdk::ruma::events::{AnySyncMessageLikeEvent, AnySyncTimelineEvent};
use matrix_sdk::ruma::{OwnedEventId, OwnedRoomId};
use matrix_sdk::{Client, Room, RoomState};
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use synapse::*;
use tokio::sync::mpsc;

/// Sends an event as Element would, content as JSON.
async fn send(room: &Room, kind: &str, content: Value) -> OwnedEventId {
    room.send_raw(kind, content)
        .await
        .unwrap()
        .response
        .event_id
}

fn pill(user: &str, name: &str) -> String {
    format!("<a href=\"https://matrix.to/#/{user}\">{name}</a>")
}

/// A message with pills: `parts` are plain text or `(user, display name)`.
fn with_pills(parts: &[(&str, Option<&str>)]) -> Value {
    let (mut body, mut html, mut users) = (String::new(), String::new(), Vec::new());
    for (text, user) in parts {
        match user {
            Some(u) => {
                body.push_str(text);
                html.push_str(&pill(u, text));
                users.push(u.to_string());
            }
            None => {
                body.push_str(text);
                html.push_str(text);
            }
        }
    }
    json!({
        "msgtype": "m.text",
        "body": body,
        "format": "org.matrix.custom.html",
        "formatted_body": html,
        "m.mentions": {"user_ids": users},
    })
}

/// An edit as Element sends it: `* ` before the fallback body.
fn edit_of(original: &OwnedEventId, text: &str) -> Value {
    json!({
        "msgtype": "m.text",
        "body": format!("* {text}"),
        "m.new_content": {"msgtype": "m.text", "body": text},
        "m.relates_to": {"rel_type": "m.replace", "event_id": original},
    })
}

fn reaction(to: &OwnedEventId, key: &str) -> Value {
    json!({"m.relates_to": {"rel_type": "m.annotation", "event_id": to, "key": key}})
}

/// Everything the bot says in `room` until `quiet` passes without a word.
async fn until_quiet(
    seen: &mut mpsc::UnboundedReceiver<Seen>,
    room: &OwnedRoomId,
    quiet: Duration,
) -> Vec<OriginalSyncRoomMessageEvent> {
    let mut out = Vec::new();
    loop {
        match tokio::time::timeout(quiet, seen.recv()).await {
            Ok(Some((r, ev))) if &r == room && ev.sender == bot_id() => out.push(ev),
            Ok(Some(_)) => {}
            _ => return out,
        }
    }
}

/// alice challenges bob to `game` (alice White) and bob accepts.
async fn game_begins(
    seen: &mut mpsc::UnboundedReceiver<Seen>,
    room: &Room,
    bob_room: &Room,
    game: &str,
) {
    let rid = room.room_id().to_owned();
    say(room, &format!("!vm challenge @bob {game} white")).await;
    expect(seen, &rid, "the challenge", |e| {
        text_of(e).contains("challenges you")
    })
    .await;
    say(bob_room, "!vm accept").await;
    expect(seen, &rid, "the game start", |e| {
        text_of(e).starts_with("Game #1 begins")
    })
    .await;
}

/// Synapse, the bot, alice and bob in a room with it, and a game of `game`
/// begun (alice White): what the tests below start from.
struct Scene {
    server: Server,
    _work: tempfile::TempDir,
    db: std::path::PathBuf,
    store: std::path::PathBuf,
    bot: tokio::task::JoinHandle<()>,
    seen: mpsc::UnboundedReceiver<Seen>,
    room: Room,
    rid: OwnedRoomId,
    bob_room: Room,
}

impl Scene {
    async fn start(per_second: u32, burst: u32, game: &str) -> Scene {
        let server = Server::with_limits(per_second, burst);
        let work = tempfile::tempdir().unwrap();
        let (db, store) = (work.path().join("v.db"), work.path().join("matrix"));
        let (bot, _) = start_bot(&server, &db, &store).await;
        let (alice, mut seen) = player(&server, "alice", "alicepass").await;
        let (bob, _) = player(&server, "bob", "bobpass").await;
        let room = room_with_bot(&alice, &bob, false).await;
        let rid = room.room_id().to_owned();
        let bob_room = bob.get_room(&rid).unwrap();
        game_begins(&mut seen, &room, &bob_room, game).await;
        Scene {
            server,
            _work: work,
            db,
            store,
            bot,
            seen,
            room,
            rid,
            bob_room,
        }
    }

    /// Stops the bot (as a crash would, nothing cleaned up).
    async fn stop_bot(&mut self) {
        self.bot.abort();
        let _ = (&mut self.bot).await;
    }

    /// Starts the bot again on the same database and Matrix store.
    async fn restart_bot(&mut self) {
        self.bot = start_bot(&self.server, &self.db, &self.store).await.0;
    }
}

/// The bot's events that notified `who`, with whether each was a highlight
/// (a mention), as the server's push rules decided.
async fn notifications(who: &Client) -> Vec<(OwnedEventId, bool, String)> {
    let response = who
        .send(get_notifications::v3::Request::new())
        .await
        .unwrap();
    let mut out = Vec::new();
    for n in response.notifications {
        let Ok(ev) = n.event.deserialize() else {
            continue;
        };
        if ev.sender() != bot_id() {
            continue;
        }
        let msgtype = match &ev {
            AnySyncTimelineEvent::MessageLike(AnySyncMessageLikeEvent::RoomMessage(m)) => m
                .as_original()
                .map(|o| o.content.msgtype().to_string())
                .unwrap_or_default(),
            _ => String::new(),
        };
        let highlight = n.actions.iter().any(|a| a.is_highlight());
        out.push((ev.event_id().to_owned(), highlight, msgtype));
    }
    out
}

fn text_of(ev: &OriginalSyncRoomMessageEvent) -> &str {
    ev.content.body()
}

fn mentions_of(ev: &OriginalSyncRoomMessageEvent) -> Vec<String> {
    ev.content
        .mentions
        .as_ref()
        .map(|m| m.user_ids.iter().map(|u| u.to_string()).collect())
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(voidmate_synapse),
    ignore = "Synapse is not installed: `bash scripts/synapse.sh install` (or `scripts/test.sh`) runs these"
)]
async fn a_shared_room_as_element_users_use_it() {
    let server = Server::with_limits(50, 100);
    let work = tempfile::tempdir().unwrap();
    let (db, store) = (work.path().join("v.db"), work.path().join("matrix"));
    let (_bot, _) = start_bot(&server, &db, &store).await;
    let (alice, mut seen) = player(&server, "alice", "alicepass").await;
    let (bob, _) = player(&server, "bob", "bobpass").await;
    let (carol, _) = player(&server, "carol", "carolpass").await;
    bob.account()
        .set_display_name(Some("Bob Smith"))
        .await
        .unwrap();
    // A look-alike: carol shows herself as "Bob".
    carol.account().set_display_name(Some("Bob")).await.unwrap();
    let room = room_of(&alice, &[&bob, &carol], false).await;
    let rid = room.room_id().to_owned();
    let (bob_room, carol_room) = (bob.get_room(&rid).unwrap(), carol.get_room(&rid).unwrap());

    // 1. Chatter in a shared room gets no answer, however long; a 👍 on
    // someone's lunch message starts nothing.
    let hello = say(&carol_room, "hello everyone").await;
    let lunch = say(&room, &"lunch at noon? ".repeat(50)).await;
    say(&bob_room, "e4 is the best first move, they say").await;
    send(&bob_room, "m.reaction", reaction(&hello, "👍")).await;
    let ask = say(&room, "!vm variants").await;
    let first = expect(&mut seen, &rid, "the answer to variants", |_| true).await;
    assert_eq!(replies_to(&first), Some(ask), "{}", text_of(&first));
    assert!(text_of(&first).starts_with("I play:"));

    // 2. A pill of the bot addresses it, and the pill is not the command.
    let board = send(
        &room,
        "m.room.message",
        with_pills(&[("voidmate", Some("@voidmate:localhost")), (": games", None)]),
    )
    .await;
    let games = expect(&mut seen, &rid, "the answer to the pill", |_| true).await;
    assert_eq!(replies_to(&games), Some(board), "{}", text_of(&games));

    // 3. `@bob` fits bob (by localpart) and carol (by display name): the
    // bot asks which one. A pill of a two-word display name is clear.
    let ask = say(&room, "!vm challenge @bob void").await;
    let which = expect(&mut seen, &rid, "which bob", |_| true).await;
    assert_eq!(replies_to(&which), Some(ask));
    assert!(
        text_of(&which).contains("could be")
            && text_of(&which).contains("@bob:localhost")
            && text_of(&which).contains("@carol:localhost"),
        "{}",
        text_of(&which)
    );
    let ask = send(
        &room,
        "m.room.message",
        with_pills(&[
            ("!vm challenge ", None),
            ("Bob Smith", Some("@bob:localhost")),
            (" void white", None),
        ]),
    )
    .await;
    let challenge = expect(&mut seen, &rid, "the challenge", |e| {
        text_of(e).contains("challenges you")
    })
    .await;
    assert_eq!(replies_to(&challenge), Some(ask));
    assert!(matches!(challenge.content.msgtype, MessageType::Text(_)));
    assert_eq!(mentions_of(&challenge), vec!["@bob:localhost"]);
    // It says how to answer here.
    assert!(
        text_of(&challenge).contains(
            "Answer with `!vm accept` or `!vm decline`, or react ✅ or ❌ to this message."
        ),
        "{}",
        text_of(&challenge)
    );

    // 4. A ✅ from someone the challenge is not for is answered, and does
    // not start the game; bob's ✅ does.
    send(
        &carol_room,
        "m.reaction",
        reaction(&challenge.event_id, "✅"),
    )
    .await;
    let refused = expect(&mut seen, &rid, "carol's reaction refused", |_| true).await;
    assert!(
        text_of(&refused).contains("has not challenged you"),
        "{}",
        text_of(&refused)
    );
    send(&bob_room, "m.reaction", reaction(&challenge.event_id, "✅")).await;
    expect(&mut seen, &rid, "the game start", |e| {
        text_of(e).starts_with("Game #1 begins")
    })
    .await;

    // 5. Edits: a refused move edited is played as its new text; a played
    // move edited stands, and is said to stand once.
    let wrong = say(&room, "!vm Ke2").await;
    let refusal = expect(&mut seen, &rid, "Ke2 refused", |e| {
        text_of(e).contains("illegal")
    })
    .await;
    assert_eq!(replies_to(&refusal), Some(wrong.clone()));
    assert!(matches!(refusal.content.msgtype, MessageType::Notice(_)));
    send(&room, "m.room.message", edit_of(&wrong, "!vm e4")).await;
    let played = expect(&mut seen, &rid, "the edited move", |e| {
        text_of(e).contains("alice played e4")
    })
    .await;
    assert_eq!(replies_to(&played), Some(wrong));
    assert!(matches!(played.content.msgtype, MessageType::Text(_)));
    assert_eq!(mentions_of(&played), vec!["@bob:localhost"]);
    let e6 = say(&bob_room, "e6").await;
    let answered = expect(&mut seen, &rid, "bob's bare e6", |e| {
        text_of(e).contains("Bob Smith played e6")
    })
    .await;
    assert_eq!(mentions_of(&answered), vec!["@alice:localhost"]);
    send(&bob_room, "m.room.message", edit_of(&e6, "d6")).await;
    let stands = expect(&mut seen, &rid, "the edit of a played move", |e| {
        text_of(e).contains("stands")
    })
    .await;
    assert_eq!(replies_to(&stands), Some(e6));

    // 6. A reply to the bot's message addresses it without the prefix.
    let reply = json!({
        "msgtype": "m.text",
        "body": "board",
        "m.relates_to": {"m.in_reply_to": {"event_id": answered.event_id}},
    });
    let asked = send(&room, "m.room.message", reply).await;
    let shown = expect(&mut seen, &rid, "the board by reply", |e| {
        text_of(e).contains("alice to move")
    })
    .await;
    assert_eq!(replies_to(&shown), Some(asked));

    // A command in a thread (as Element starts one on the bot's message)
    // is answered in that thread.
    let threaded = json!({
        "msgtype": "m.text",
        "body": "!vm history",
        "m.relates_to": {
            "rel_type": "m.thread",
            "event_id": shown.event_id,
            "is_falling_back": true,
            "m.in_reply_to": {"event_id": shown.event_id},
        },
    });
    send(&room, "m.room.message", threaded).await;
    let in_thread = expect(&mut seen, &rid, "the answer in the thread", |e| {
        text_of(e).contains("1. e4")
    })
    .await;
    match &in_thread.content.relates_to {
        Some(Relation::Thread(t)) => assert_eq!(t.event_id, shown.event_id),
        other => panic!("not in the thread: {other:?}"),
    }

    // 7. A private program sent in a shared room is refused there.
    say(&bob_room, "!vm challenge @carol:localhost super16 private").await;
    expect(&mut seen, &rid, "the super16 challenge", |e| {
        text_of(e).contains("challenges you")
    })
    .await;
    say(&carol_room, "!vm accept").await;
    expect(&mut seen, &rid, "the private game set", |e| {
        text_of(e).contains("private programs")
    })
    .await;
    say(&carol_room, "!vm program #2 N: jump 2,1").await;
    let private = expect(&mut seen, &rid, "the program refused", |e| {
        text_of(e).contains("are private")
    })
    .await;
    assert!(text_of(&private).contains("`dm`"), "{}", text_of(&private));

    // Everything the bot said answered someone who spoke to it: nothing
    // answered the chatter, the lunch message or the reaction to it, and
    // an edit never reads as the command `*`.
    let rest = until_quiet(&mut seen, &rid, Duration::from_secs(3)).await;
    for ev in [
        &first, &games, &challenge, &refused, &refusal, &played, &stands,
    ]
    .into_iter()
    .chain(&rest)
    {
        assert!(!text_of(ev).contains("I do not know"), "{}", text_of(ev));
        let to = replies_to(ev);
        assert!(to != Some(hello.clone()) && to != Some(lunch.clone()));
    }

    // 8. Who was notified, by the server's push rules: bob by the challenge
    // and by his turn, as mentions; never by a board image or a notice.
    let bob_heard = notifications(&bob).await;
    let highlighted = |id: &OwnedEventId| bob_heard.iter().any(|(e, h, _)| e == id && *h);
    assert!(highlighted(&challenge.event_id), "{bob_heard:?}");
    assert!(highlighted(&played.event_id), "{bob_heard:?}");
    assert!(
        !bob_heard.iter().any(|(e, _, _)| *e == refusal.event_id),
        "a notice notified bob: {bob_heard:?}"
    );
    assert!(
        bob_heard.iter().all(|(_, h, kind)| !*h || kind == "m.text"),
        "only texts mention: {bob_heard:?}"
    );
    let alice_heard = notifications(&alice).await;
    assert!(
        alice_heard
            .iter()
            .any(|(e, h, _)| *e == answered.event_id && *h),
        "{alice_heard:?}"
    );
    assert!(
        !alice_heard
            .iter()
            .any(|(_, h, kind)| *h && kind == "m.image"),
        "a board pinged: {alice_heard:?}"
    );

    // 9. `dm` opens a direct conversation: the bot creates it and invites
    // alice, greets her there, and everything she says there is for it.
    say(&room, "!vm dm").await;
    expect(&mut seen, &rid, "the pointer to the direct room", |e| {
        text_of(e).contains("direct conversation")
    })
    .await;
    let deadline = Instant::now() + Duration::from_secs(60);
    let dm = loop {
        let invited = alice
            .rooms()
            .into_iter()
            .find(|r| r.state() == RoomState::Invited);
        if let Some(r) = invited {
            break r;
        }
        assert!(Instant::now() < deadline, "no invitation from the bot");
        tokio::time::sleep(Duration::from_millis(300)).await;
    };
    let did = dm.room_id().to_owned();
    alice.join_room_by_id(&did).await.unwrap();
    let greeting = expect(&mut seen, &did, "the greeting", |_| true).await;
    assert!(text_of(&greeting).contains("program #N"));
    assert_eq!(mentions_of(&greeting), vec!["@alice:localhost"]);
    let dm = alice.get_room(&did).unwrap();
    say(&dm, "dm").await;
    let already = expect(&mut seen, &did, "already private", |_| true).await;
    assert!(
        text_of(&already).contains("privately already"),
        "{}",
        text_of(&already)
    );
}

/// Issue 18, point 3: while the bot is down a move among 120 chat lines
/// (more than a sync's timeline carries), the reply move, and a command its
/// author redacted. Back up, the bot fetches what the sync left out and
/// handles it in order, each once; the redacted command never runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(voidmate_synapse),
    ignore = "Synapse is not installed: `bash scripts/synapse.sh install` (or `scripts/test.sh`) runs these"
)]
async fn what_was_said_while_the_bot_was_down_is_handled_in_order_once() {
    let mut s = Scene::start(100, 200, "standard").await;
    let (room, rid, bob_room) = (s.room.clone(), s.rid.clone(), s.bob_room.clone());
    until_quiet(&mut s.seen, &rid, Duration::from_secs(2)).await;

    s.stop_bot().await;
    // Chatter before and after the move, so that the move lies deep in
    // what the next sync (at most 50 events a room) leaves out.
    for i in 0..60 {
        say(&bob_room, &format!("chat line {i} while the bot is away")).await;
    }
    let e4 = say(&room, "!vm e4").await;
    for i in 60..120 {
        say(&bob_room, &format!("chat line {i} while the bot is away")).await;
    }
    let e5 = say(&bob_room, "!vm e5").await;
    let resign = say(&bob_room, "!vm resign").await;
    bob_room.redact(&resign, None, None).await.unwrap();

    s.restart_bot().await;
    let first = expect(&mut s.seen, &rid, "e4 from the gap", |e| {
        text_of(e).contains("played")
    })
    .await;
    assert!(
        text_of(&first).contains("alice played e4"),
        "{}",
        text_of(&first)
    );
    assert_eq!(replies_to(&first), Some(e4));
    let second = expect(&mut s.seen, &rid, "e5 after it", |e| {
        text_of(e).contains("played")
    })
    .await;
    assert!(
        text_of(&second).contains("bob played e5"),
        "{}",
        text_of(&second)
    );
    assert_eq!(replies_to(&second), Some(e5));
    say(&room, "!vm board").await;
    let board = expect(&mut s.seen, &rid, "the board", |e| {
        text_of(e).contains("to move")
    })
    .await;
    assert!(
        text_of(&board).contains("alice to move"),
        "the redacted resignation ran: {}",
        text_of(&board)
    );
    let rest = until_quiet(&mut s.seen, &rid, Duration::from_secs(3)).await;
    for ev in &rest {
        assert!(
            !text_of(ev).contains("played e"),
            "answered twice: {}",
            text_of(ev)
        );
        assert!(!text_of(ev).contains("resign"), "{}", text_of(ev));
    }
}

/// A crash in the window between matrix-sdk's save of a sync and the bot's
/// handling of it (found by the kill -9 test): matrix-sdk has stored the
/// sync's token, past a move the bot never handled, and drops any later
/// response ending at that token as "the same sync response twice". The
/// restarted bot must still answer the move, once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(voidmate_synapse),
    ignore = "Synapse is not installed: `bash scripts/synapse.sh install` (or `scripts/test.sh`) runs these"
)]
async fn a_move_received_just_before_a_crash_is_answered_after_the_restart() {
    let mut s = Scene::start(100, 200, "standard").await;
    let (room, rid, bob_room) = (s.room.clone(), s.rid.clone(), s.bob_room.clone());
    say(&room, "!vm e4").await;
    expect(&mut s.seen, &rid, "the answer to e4", |e| {
        text_of(e).contains("alice played e4")
    })
    .await;
    until_quiet(&mut s.seen, &rid, Duration::from_secs(2)).await;
    s.stop_bot().await;

    let e5 = say(&bob_room, "!vm e5").await;
    // What the crash leaves behind: the bot's Matrix client received the
    // sync with e5 and stored it, and the process died before the bot
    // handled it.
    let (client, core) = connect_bot(&s.server, &s.db, &s.store).await;
    client
        .sync_once(SyncSettings::default().timeout(Duration::from_secs(5)))
        .await
        .unwrap();
    drop((client, core));

    s.restart_bot().await;
    let answer = expect(&mut s.seen, &rid, "the answer to e5", |e| {
        text_of(e).contains("played")
    })
    .await;
    assert!(
        text_of(&answer).contains("bob played e5"),
        "{}",
        text_of(&answer)
    );
    assert_eq!(replies_to(&answer), Some(e5));
    let rest = until_quiet(&mut s.seen, &rid, Duration::from_secs(3)).await;
    assert!(
        !rest.iter().any(|e| text_of(e).contains("played e5")),
        "answered twice"
    );
}

/// Issue 18, point 5: correspondence moves are judged by when the
/// homeserver received them (`origin_server_ts`), whenever the bot reads
/// them. A day is 8 seconds here.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(voidmate_synapse),
    ignore = "Synapse is not installed: `bash scripts/synapse.sh install` (or `scripts/test.sh`) runs these"
)]
async fn a_move_sent_in_time_counts_though_the_bot_was_down_at_the_deadline() {
    let mut s = Scene::start(50, 100, "standard 1d").await;
    let (room, rid, bob_room) = (s.room.clone(), s.rid.clone(), s.bob_room.clone());

    // Down before alice's deadline; her move is sent in time, and read
    // only after the deadline has passed.
    s.stop_bot().await;
    let e4 = say(&room, "!vm e4").await;
    tokio::time::sleep(Duration::from_secs(10)).await;
    s.restart_bot().await;
    let played = expect(&mut s.seen, &rid, "e4, in time", |e| {
        text_of(e).contains("played e4") || text_of(e).contains("did not move")
    })
    .await;
    assert!(
        text_of(&played).contains("alice played e4"),
        "{}",
        text_of(&played)
    );
    assert_eq!(replies_to(&played), Some(e4));

    // Down again; bob's move is sent after his deadline: he lost on time.
    until_quiet(&mut s.seen, &rid, Duration::from_secs(1)).await;
    s.stop_bot().await;
    tokio::time::sleep(Duration::from_secs(10)).await;
    say(&bob_room, "!vm e5").await;
    s.restart_bot().await;
    let lost = expect(&mut s.seen, &rid, "bob's loss on time", |e| {
        text_of(e).contains("played e5") || text_of(e).contains("did not move")
    })
    .await;
    assert!(
        text_of(&lost).contains("bob did not move in time. alice wins on time (1-0)"),
        "{}",
        text_of(&lost)
    );
    let rest = until_quiet(&mut s.seen, &rid, Duration::from_secs(3)).await;
    assert!(
        rest.iter().all(|e| !text_of(e).contains("did not move")),
        "announced twice: {:?}",
        rest.iter().map(text_of).collect::<Vec<_>>()
    );
}

/// Issue 18, point 7: kicked from a room, the bot posts nothing more there;
/// what it owes the room is parked, and goes out when it is invited back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(voidmate_synapse),
    ignore = "Synapse is not installed: `bash scripts/synapse.sh install` (or `scripts/test.sh`) runs these"
)]
async fn a_room_that_kicked_the_bot_gets_what_it_was_owed_after_a_new_invite() {
    let mut s = Scene::start(50, 100, "standard 1d").await;
    let (room, rid) = (s.room.clone(), s.rid.clone());
    room.kick_user(&bot_id(), Some("quiet please"))
        .await
        .unwrap();

    // alice's day (8 s) runs out while the bot is out: the loss on time is
    // owed to the room, and parked, not retried for ever.
    let pool = sqlx::SqlitePool::connect(&format!("sqlite:{}", s.db.display()))
        .await
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let parked: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM outbox WHERE parked = 1 AND text LIKE '%did not move in time%'",
        )
        .fetch_one(&pool)
        .await
        .unwrap();
        if parked == 1 {
            break;
        }
        assert!(Instant::now() < deadline, "the loss on time was not parked");
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    room.invite_user_by_id(&bot_id()).await.unwrap();
    let lost = expect(
        &mut s.seen,
        &rid,
        "the loss on time, after the invite",
        |e| text_of(e).contains("did not move in time"),
    )
    .await;
    assert!(text_of(&lost).contains("alice did not move in time"));
}

/// The HTML of a bot's message, if it has any.
fn html_of(ev: &OriginalSyncRoomMessageEvent) -> Option<&str> {
    match &ev.content.msgtype {
        MessageType::Notice(n) => n.formatted.as_ref().map(|f| f.body.as_str()),
        MessageType::Text(t) => t.formatted.as_ref().map(|f| f.body.as_str()),
        _ => None,
    }
}

/// Issue 48 in a room: carol opens a round robin; a player who neither
/// organises it nor may kick in the room cannot start it, the room's
/// admin can (the room's power levels make a moderator); round 1 is
/// announced with the paired players mentioned, and the standings come
/// as an HTML table.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(voidmate_synapse),
    ignore = "Synapse is not installed: `bash scripts/synapse.sh install` (or `scripts/test.sh`) runs these"
)]
async fn a_tournament_in_a_room_with_its_moderators() {
    let server = Server::with_limits(50, 100);
    let work = tempfile::tempdir().unwrap();
    let (db, store) = (work.path().join("v.db"), work.path().join("matrix"));
    let (_bot, _) = start_bot(&server, &db, &store).await;
    let (alice, mut seen) = player(&server, "alice", "alicepass").await;
    let (bob, _) = player(&server, "bob", "bobpass").await;
    let (carol, _) = player(&server, "carol", "carolpass").await;
    // alice made the room: she is its admin (power 100, may kick).
    let room = room_of(&alice, &[&bob, &carol], false).await;
    let rid = room.room_id().to_owned();
    let (bob_room, carol_room) = (bob.get_room(&rid).unwrap(), carol.get_room(&rid).unwrap());

    say(
        &carol_room,
        "!vm tournament create roundrobin standard 10+5",
    )
    .await;
    let open = expect(&mut seen, &rid, "the tournament opened", |e| {
        text_of(e).contains("T1 is open")
    })
    .await;
    assert!(text_of(&open).contains("round robin"), "{}", text_of(&open));
    for r in [&room, &bob_room, &carol_room] {
        say(r, "!vm tournament join").await;
        expect(&mut seen, &rid, "a player joined", |e| {
            text_of(e).contains("joins T1")
        })
        .await;
    }
    say(&bob_room, "!vm tournament start").await;
    let refused = expect(&mut seen, &rid, "bob refused", |_| true).await;
    assert!(
        text_of(&refused).contains("organiser or a moderator"),
        "{}",
        text_of(&refused)
    );
    say(&room, "!vm tournament start T1").await;
    let announced = expect(&mut seen, &rid, "round 1 announced", |e| {
        text_of(e).contains("round 1 of 3")
    })
    .await;
    let mentioned = mentions_of(&announced);
    let paired = ["@alice:localhost", "@bob:localhost", "@carol:localhost"]
        .iter()
        .filter(|u| mentioned.iter().any(|m| m == *u))
        .count();
    assert!(paired >= 2, "{mentioned:?}: {}", text_of(&announced));

    say(&bob_room, "!vm tournament standings").await;
    let standings = expect(&mut seen, &rid, "the standings", |e| {
        text_of(e).contains("Standings of T1")
    })
    .await;
    let html = html_of(&standings).expect("the standings as HTML");
    assert!(
        html.contains("<table><thead><tr><th>#</th><th>Player</th>"),
        "{html}"
    );
    for name in ["alice", "bob", "carol"] {
        assert!(html.contains(&format!("<td>{name}</td>")), "{html}");
    }
}
