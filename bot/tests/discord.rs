//! The Discord adapter, run for real over HTTP and WebSocket against a fake
//! Discord on 127.0.0.1 (Discord itself cannot be reached from a test).

mod fake_discord;

use fake_discord::{
    message, user, FakeDiscord, Logged, APP, BOT_NAME, BOT_ROLE, CHANNEL, CLUB_ROLE, GUILD,
};
use serde_json::{json, Value};
use std::path::Path;
use voidmate::config::Config;
use voidmate::discord::{self, DiscordConfig};
use voidmate::game::Core;
use voidmate_rules::{variants, Position};

const ALICE: (u64, &str) = (11, "alice");
const BOB: (u64, &str) = (22, "bob");
const CAROL: (u64, &str) = (33, "carol");

/// Everything the bot logged at `warn` or above, from every test here.
fn logged() -> String {
    String::from_utf8_lossy(&LOG.lock().unwrap()).into_owned()
}

static LOG: std::sync::Mutex<Vec<u8>> = std::sync::Mutex::new(Vec::new());

struct LogWriter;

impl std::io::Write for LogWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        LOG.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Starts the bot against `fake` with `extra` lines in its `[discord]` section.
async fn start_bot(fake: &FakeDiscord, dir: &Path, extra: &str) -> tokio::task::JoinHandle<()> {
    let (core, discord) = bot_config(fake, dir, extra).await;
    let bot = tokio::spawn(async move {
        if let Err(e) = discord::run_bot(core, discord).await {
            panic!("the Discord adapter stopped: {e:#}");
        }
    });
    fake.wait_for("command registration", |r| {
        r.method == "PUT" && r.path == format!("/applications/{APP}/guilds/{GUILD}/commands")
    })
    .await;
    bot
}

/// The bot's core and Discord settings against `fake`, with `extra` lines
/// in `[discord]`; its warnings and errors kept for the tests to read.
async fn bot_config(fake: &FakeDiscord, dir: &Path, extra: &str) -> (Core, DiscordConfig) {
    let _ = tracing_subscriber::fmt()
        .with_env_filter("warn")
        .with_ansi(false)
        .with_writer(|| LogWriter)
        .try_init();
    let path = dir.join("voidmate.toml");
    std::fs::write(
        &path,
        format!(
            "[database]\npath = \"{}\"\n[clock]\nday_seconds = 2\n[engine]\nmove_time_ms = 50\n[discord]\nenabled = true\n\
             token_env = \"VOIDMATE_TEST_DISCORD_TOKEN\"\nguild_id = \"{GUILD}\"\napi_url = \"{}\"\n\
             tick_seconds = 1\n{extra}\n",
            dir.join("voidmate.db").display(),
            fake.api_url
        ),
    )
    .unwrap();
    let cfg = Config::load(Some(&path)).unwrap();
    let core = Core::open(&cfg).await.unwrap();
    let env = |var: &str| (var == "VOIDMATE_TEST_DISCORD_TOKEN").then(|| "fake-token".to_string());
    let discord = DiscordConfig::from_section_with(&cfg.discord, env).unwrap();
    (core, discord)
}

/// The slash commands as the bot registered them.
async fn registration(fake: &FakeDiscord) -> Value {
    fake.wait_for("registration", |r| r.method == "PUT")
        .await
        .json
}

/// alice challenges bob to a game on a day's clock (two seconds here), in a
/// thread of its own if `thread`, and bob accepts.
async fn day_game_begins(fake: &FakeDiscord, thread: bool) {
    let registration = registration(fake).await;
    let one_day = choice_index(
        &registration,
        "challenge",
        "time",
        "Correspondence: 1 day per move",
    );
    let id = alice_challenges_bob(
        fake,
        vec![
            option("time", 4, json!(one_day)),
            option("thread", 5, json!(thread)),
        ],
    );
    fake.callback(id).await;
    let id = fake.slash(BOB, "accept", json!([]), json!({}));
    fake.callback(id).await;
}

fn option(name: &str, kind: u64, value: Value) -> Value {
    json!({"name": name, "type": kind, "value": value})
}

/// A slash command's game option: a string with an autocomplete (a
/// server's own games from files appear without registering again), whose
/// value is the game's name.
fn game_option(registration: &Value, command: &str, name: &str) -> &'static str {
    let cmd = registration
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == command)
        .unwrap_or_else(|| panic!("/{command} is not registered"));
    let opt = cmd["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "variant")
        .unwrap_or_else(|| panic!("/{command} has no variant option"));
    assert_eq!(opt["type"], 3, "/{command} variant is a string");
    assert_eq!(
        opt["autocomplete"], true,
        "/{command} variant is autocompleted"
    );
    assert!(
        opt.get("choices")
            .is_none_or(|c| c.is_null() || c.as_array().is_some_and(Vec::is_empty)),
        "/{command}: no fixed list"
    );
    voidmate_rules::GameKind::from_name(name)
        .expect("a game")
        .name()
}

fn choice_index(registration: &Value, command: &str, option: &str, choice: &str) -> u64 {
    let cmd = registration
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == command)
        .unwrap_or_else(|| panic!("/{command} is not registered"));
    let opt = cmd["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == option)
        .unwrap_or_else(|| panic!("/{command} has no option {option}"));
    opt["choices"]
        .as_array()
        .unwrap_or_else(|| panic!("/{command} {option} offers no choices"))
        .iter()
        .find(|c| c["name"] == choice)
        .unwrap_or_else(|| panic!("/{command} {option} has no choice {choice}"))["value"]
        .as_u64()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_played_through_slash_commands_buttons_and_replies() {
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start().await;
    let bot = start_bot(&fake, dir.path(), "defer_after_ms = 2500").await;

    // It asked for no privileged intent: no message content, members or presences.
    let intents = fake.identify().unwrap()["intents"].as_u64().unwrap();
    assert_eq!(
        intents & ((1 << 15) | (1 << 1) | (1 << 8)),
        0,
        "intents {intents:b}"
    );
    assert_eq!(fake.identify().unwrap()["token"], "Bot fake-token");

    // Every command is registered, with choices for the fixed options.
    let registration = registration(&fake).await;
    let mut names: Vec<&str> = registration
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "abort",
            "accept",
            "analysis",
            "board",
            "challenge",
            "claim",
            "colour",
            "decline",
            "draw",
            "games",
            "help",
            "history",
            "leaderboard",
            "move",
            "moves",
            "profile",
            "program",
            "puzzle",
            "rating",
            "rematch",
            "replay",
            "resign",
            "roster",
            "rules",
            "settings",
            "tournament",
            "undo",
            "variants"
        ]
    );
    let standard = game_option(&registration, "challenge", "standard");
    choice_index(
        &registration,
        "challenge",
        "time",
        "Correspondence: 3 days per move",
    );
    choice_index(&registration, "settings", "theme", "High contrast");
    game_option(&registration, "rules", "void");
    let move_cmd = registration
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "move")
        .unwrap();
    assert_eq!(move_cmd["options"][0]["autocomplete"], true);

    // alice challenges bob: the message names bob and carries his buttons.
    let id = alice_challenges_bob(&fake, vec![option("variant", 3, json!(standard))]);
    let challenge = fake.callback(id).await;
    assert_eq!(challenge.json["type"], 4);
    assert!(!challenge.ephemeral());
    assert!(
        challenge
            .content()
            .starts_with("<@22>, alice challenges you"),
        "{}",
        challenge.content()
    );
    assert_eq!(
        challenge.message()["allowed_mentions"]["users"],
        json!(["22"])
    );
    let buttons = challenge.buttons();
    assert_eq!(buttons, ["vm:y:c:11:22", "vm:n:c:11:22"]);
    // The buttons are on the response's message.
    let question = fake.original(id).expect("the challenge's message");

    // carol may not answer it.
    let id = fake.press(CAROL, &buttons[0], question);
    let refused = fake.callback(id).await;
    assert!(refused.ephemeral());
    assert_eq!(
        refused.content(),
        "This is not your game: only <@22> can answer this challenge."
    );

    // bob accepts: the game starts with a board and alice is called.
    let id = fake.press(BOB, &buttons[0], question);
    let start = fake.callback(id).await;
    assert!(
        start.content().starts_with("<@11> ") && start.content().contains("Game #1 begins"),
        "{}",
        start.content()
    );
    assert!(start.png().is_some(), "no board attached");
    let embed = &start.message()["embeds"][0];
    assert_eq!(embed["title"], "Game #1: Standard chess");
    assert_eq!(embed["image"]["url"], "attachment://board.png");
    assert_eq!(start.field("White").as_deref(), Some("alice"));
    assert_eq!(start.field("Black").as_deref(), Some("bob"));
    assert_eq!(start.field("To move").as_deref(), Some("alice"));
    // The answered question loses its buttons.
    let cleared = fake
        .wait_for("buttons removed", |r| {
            r.method == "PATCH" && r.path == format!("/channels/{CHANNEL}/messages/{question}")
        })
        .await;
    assert_eq!(cleared.json["components"], json!([]));

    // Autocomplete offers alice's legal moves that match what she typed...
    let id = fake.autocomplete(ALICE, "move", "move", "N");
    let offered = fake.callback(id).await;
    assert_eq!(offered.json["type"], 8);
    let mut offered: Vec<String> = offered.json["data"]["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["value"].as_str().unwrap().to_string())
        .collect();
    offered.sort();
    let pos = Position::new(variants::standard());
    let mut expected: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| pos.san(m))
        .filter(|s| s.starts_with('N'))
        .collect();
    expected.sort();
    assert_eq!(offered, expected);
    // ...at most 25 of them, and nothing to bob, who is not to move.
    let id = fake.autocomplete(ALICE, "move", "move", "");
    let all = fake.callback(id).await;
    assert_eq!(all.json["data"]["choices"].as_array().unwrap().len(), 20);
    let id = fake.autocomplete(BOB, "move", "move", "");
    assert_eq!(fake.callback(id).await.json["data"]["choices"], json!([]));

    // The game option is an autocomplete of the games played here, a game
    // from a shipped variants file among them, the name as the value...
    let id = fake.autocomplete(ALICE, "challenge", "variant", "capa");
    assert_eq!(
        fake.callback(id).await.json["data"]["choices"],
        json!([{"name": "Capablanca Chess", "value": "capablanca"}])
    );
    let id = fake.autocomplete(ALICE, "rules", "variant", "");
    let every = fake.callback(id).await;
    let offered = every.json["data"]["choices"].as_array().unwrap().len();
    assert_eq!(offered, voidmate_rules::GameKind::every().len().min(25));
    // ...and a name typed past it that is no game is refused, saying which are.
    let id = alice_challenges_bob(&fake, vec![option("variant", 3, json!("xiangqi"))]);
    let refused = fake.callback(id).await;
    assert!(
        refused.ephemeral()
            && refused
                .content()
                .contains("`xiangqi` is not a game I play here")
            && refused.content().contains("capablanca"),
        "{:?}",
        refused.json
    );

    // Moves: a legal one, one out of turn, an illegal one.
    let id = fake.slash(
        ALICE,
        "move",
        json!([option("move", 3, json!("f3"))]),
        json!({}),
    );
    let played = fake.callback(id).await;
    assert!(played.content().starts_with("<@22> ") && played.content().contains("alice played f3"));
    assert_eq!(played.field("Last move").as_deref(), Some("f3"));
    assert!(played.png().is_some());

    let id = fake.slash(
        ALICE,
        "move",
        json!([option("move", 3, json!("e4"))]),
        json!({}),
    );
    let early = fake.callback(id).await;
    assert!(
        early.ephemeral() && early.content().contains("not your turn"),
        "{}",
        early.content()
    );

    let id = fake.slash(
        BOB,
        "move",
        json!([option("move", 3, json!("Ke7"))]),
        json!({}),
    );
    let illegal = fake.callback(id).await;
    assert!(illegal.ephemeral(), "an error must be private");
    assert!(
        illegal.content().contains("illegal"),
        "{}",
        illegal.content()
    );
    assert!(illegal.png().is_none());

    let id = fake.slash(
        BOB,
        "move",
        json!([option("move", 3, json!("e5"))]),
        json!({}),
    );
    let board_msg = fake.callback(id).await;
    assert!(board_msg.content().contains("bob played e5"));

    // alice answers the board with a reply "g4": Discord mentions the bot
    // for a reply, but the content has only the move.
    let bot_board = message(777, user(APP, BOT_NAME), board_msg.content());
    let said = fake.say(ALICE, "g4", json!([user(APP, BOT_NAME)]), Some(bot_board));
    let answer = fake
        .wait_for("a reply to the move message", |r| {
            r.method == "POST"
                && r.path == format!("/channels/{CHANNEL}/messages")
                && r.json["message_reference"]["message_id"] == said.to_string().as_str()
        })
        .await;
    assert!(
        answer.content().contains("alice played g4"),
        "{}",
        answer.content()
    );
    assert!(answer.png().is_some());
    // Posted with the outbox entry's key as a nonce that Discord enforces:
    // a retry of this answer after a crash could not show twice.
    assert!(
        answer.json["nonce"]
            .as_str()
            .is_some_and(|n| n.starts_with("vm-") && n.len() <= 25),
        "{}",
        answer.json
    );
    assert_eq!(answer.json["enforce_nonce"], true);
    let posts_of = |nonce: &Value| {
        fake.requests()
            .iter()
            .filter(|r| r.json["nonce"] == *nonce && !r.deduplicated)
            .count()
    };
    assert_eq!(posts_of(&answer.json["nonce"]), 1);

    // bob mates.
    let id = fake.slash(
        BOB,
        "move",
        json!([option("move", 3, json!("Qh4#"))]),
        json!({}),
    );
    let mate = fake.callback(id).await;
    assert!(
        mate.content().contains("bob played Qh4#"),
        "{}",
        mate.content()
    );
    assert!(mate.content().contains("0-1"), "{}", mate.content());
    let result = mate.field("Result").unwrap();
    assert!(
        result.contains("0-1") && result.contains("checkmate"),
        "{result}"
    );
    assert_eq!(mate.field("To move"), None);
    assert!(mate.png().is_some());

    // History as text; nothing asked of Discord that it does not have.
    let id = fake.slash(ALICE, "history", json!([]), json!({}));
    let history = fake.callback(id).await;
    assert!(
        history.content().contains("1. f3 e5 2. g4 Qh4#"),
        "{}",
        history.content()
    );
    let unknown: Vec<String> = fake
        .requests()
        .iter()
        .filter(|r| {
            !(r.path.starts_with("/interactions/")
                || r.path.starts_with("/channels/")
                || r.path.starts_with("/applications/")
                || r.path.starts_with("/gateway"))
        })
        .map(|r| format!("{} {}", r.method, r.path))
        .collect();
    assert!(unknown.is_empty(), "unexpected requests: {unknown:?}");

    // Super Chess with private programs: `/program` is answered to its
    // author alone, and the program never reaches the channel.
    let super16 = game_option(&registration, "challenge", "super16");
    let private = choice_index(
        &registration,
        "challenge",
        "programs",
        "Private: each side programs in secret",
    );
    let id = alice_challenges_bob(
        &fake,
        vec![
            option("variant", 3, json!(super16)),
            option("programs", 4, json!(private)),
        ],
    );
    let challenged = fake.callback(id).await;
    assert!(
        challenged.content().contains("private programs"),
        "{}",
        challenged.content()
    );
    let id = fake.slash(BOB, "accept", json!([]), json!({}));
    let set = fake.callback(id).await;
    assert!(
        set.content().contains("send me your program privately"),
        "{}",
        set.content()
    );
    let id = fake.slash(
        ALICE,
        "program",
        json!([option("program", 3, json!("N: jump 3,3 -3,3"))]),
        json!({}),
    );
    let sent = fake.callback(id).await;
    assert!(sent.ephemeral(), "a program is answered privately");
    assert!(
        sent.content().contains("N: jump -3,3 3,3"),
        "{}",
        sent.content()
    );
    let leaked: Vec<String> = fake
        .requests()
        .iter()
        .filter(|r| r.json.to_string().contains("3,3"))
        .filter(|r| !(r.path.starts_with("/interactions/") && r.ephemeral()))
        .map(|r| format!("{} {}", r.method, r.path))
        .collect();
    assert!(leaked.is_empty(), "the program was sent to {leaked:?}");
    bot.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_answers_are_deferred_and_errors_stay_private() {
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start().await;
    // Defer everything: the path a 16x16 board or an engine move takes.
    let bot = start_bot(&fake, dir.path(), "defer_after_ms = 0").await;

    // An error after deferring: the public placeholder goes, a private
    // message says what to do.
    let id = fake.slash(ALICE, "board", json!([]), json!({}));
    let deferred = fake.callback(id).await;
    assert_eq!(deferred.json["type"], 5);
    let token = format!("tok{id}");
    fake.wait_for("the placeholder deleted", |r| {
        r.method == "DELETE" && r.path == format!("/webhooks/{APP}/{token}/messages/@original")
    })
    .await;
    let private = fake
        .wait_for("a private follow-up", |r| {
            r.method == "POST" && r.path == format!("/webhooks/{APP}/{token}")
        })
        .await;
    assert!(private.ephemeral());
    assert!(
        private.content().contains("no game in progress"),
        "{}",
        private.content()
    );

    // A challenge with a time limit, accepted by command rather than button.
    let registration = registration(&fake).await;
    let one_day = choice_index(
        &registration,
        "challenge",
        "time",
        "Correspondence: 1 day per move",
    );
    let id = alice_challenges_bob(&fake, vec![option("time", 4, json!(one_day))]);
    // bob must hear of it: an edit of the placeholder would notify nobody,
    // so the placeholder goes and the challenge is a new message.
    let token = format!("tok{id}");
    let posted = fake
        .wait_for("the challenge as a follow-up", |r| {
            r.method == "POST" && r.path == format!("/webhooks/{APP}/{token}")
        })
        .await;
    assert!(
        posted.content().contains("challenges you"),
        "{}",
        posted.content()
    );
    assert_eq!(posted.buttons().len(), 2);
    assert!(fake
        .requests()
        .iter()
        .any(|r| r.method == "DELETE"
            && r.path == format!("/webhooks/{APP}/{token}/messages/@original")));
    assert_eq!(fake.pings(BOB.0), 1, "bob is notified once");

    let id = fake.slash(BOB, "accept", json!([]), json!({}));
    let token = format!("tok{id}");
    let started = fake
        .wait_for("the board, as a follow-up", |r| {
            r.method == "POST" && r.path == format!("/webhooks/{APP}/{token}")
        })
        .await;
    assert_eq!(fake.pings(ALICE.0), 1, "alice hears that she is to move");
    assert!(
        started.content().contains("Void Chess"),
        "{}",
        started.content()
    );
    assert!(started.png().is_some(), "the board must come with it");

    // A message that mentions the bot is a command; chatter gets told off
    // publicly (there is no private reply to a message).
    let mention = json!([user(APP, BOT_NAME)]);
    let said = fake.say(ALICE, &format!("<@{APP}> board"), mention.clone(), None);
    let shown = fake
        .wait_for("a board for the mention", |r| {
            r.path == format!("/channels/{CHANNEL}/messages")
                && r.json["message_reference"]["message_id"] == said.to_string().as_str()
        })
        .await;
    assert!(shown.png().is_some());
    let said = fake.say(BOB, &format!("<@{APP}> dance"), mention, None);
    let told = fake
        .wait_for("an answer to chatter", |r| {
            r.path == format!("/channels/{CHANNEL}/messages")
                && r.json["message_reference"]["message_id"] == said.to_string().as_str()
        })
        .await;
    assert!(told.content().contains("I do not know the command `dance`"));

    // Nobody moves: the day (2 s here) runs out and the bot says so itself.
    let forfeit = fake
        .wait_for("the loss on time", |r| {
            r.path == format!("/channels/{CHANNEL}/messages") && r.content().contains("on time")
        })
        .await;
    assert!(
        forfeit.content().contains("<@11>") && forfeit.content().contains("bob wins on time"),
        "{}",
        forfeit.content()
    );
    bot.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenging_the_bot_plays_its_engine() {
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start().await;
    let bot = start_bot(&fake, dir.path(), "").await;
    let registration = registration(&fake).await;
    let black = choice_index(&registration, "challenge", "color", "Black");
    let standard = game_option(&registration, "challenge", "standard");
    // The bot is White at level 1: its first move comes with the board.
    let id = fake.slash(
        ALICE,
        "challenge",
        json!([
            option("user", 6, json!(APP.to_string())),
            option("variant", 3, json!(standard)),
            option("color", 4, json!(black)),
            option("level", 4, json!(1))
        ]),
        json!({"users": {APP.to_string(): user(APP, BOT_NAME)}}),
    );
    let start = fake.callback(id).await;
    assert!(
        start.content().starts_with("<@11> Game #1 begins")
            && start
                .content()
                .contains("I play at level 1. Voidmate Chess played "),
        "{}",
        start.content()
    );
    assert!(start.png().is_some());
    assert_eq!(start.field("To move").as_deref(), Some("alice"));
    // alice answers with a move the autocomplete offers; the engine replies
    // in the same message.
    let id = fake.autocomplete(ALICE, "move", "move", "");
    let offered = fake.callback(id).await;
    let first = offered.json["data"]["choices"][0]["value"]
        .as_str()
        .unwrap()
        .to_string();
    let id = fake.slash(
        ALICE,
        "move",
        json!([option("move", 3, json!(first))]),
        json!({}),
    );
    let reply = fake.callback(id).await;
    assert!(
        reply.content().contains(&format!("alice played {first}"))
            && reply.content().contains("Voidmate Chess played"),
        "{}",
        reply.content()
    );
    assert_eq!(reply.field("To move").as_deref(), Some("alice"));

    // By mention too, although its name has a space: bob writes
    // `@Voidmate Chess challenge @Voidmate Chess standard`.
    let me = json!([user(APP, BOT_NAME)]);
    let said = fake.say(
        BOB,
        &format!("<@{APP}> challenge <@{APP}> standard"),
        me,
        None,
    );
    let started = fake
        .wait_for("the game against the bot, by mention", |r| {
            r.method == "POST"
                && r.path == format!("/channels/{CHANNEL}/messages")
                && r.json["message_reference"]["message_id"] == said.to_string().as_str()
        })
        .await;
    assert!(
        started.content().contains("Game #2 begins")
            && started
                .content()
                .contains("bob (White) vs Voidmate Chess (Black)"),
        "{}",
        started.content()
    );
    bot.abort();
}

/// Issue 19, point 4: Discord's member list offers the bot's managed role
/// under the bot's name, so `@Voidmate Chess` often arrives as a mention of
/// that role. It addresses the bot like a mention of the bot itself, and
/// names it; a mention of any other role addresses nobody.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mention_of_the_bots_role_addresses_it() {
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start().await;
    let bot = start_bot(&fake, dir.path(), "").await;
    let bot_role = format!("<@&{BOT_ROLE}>");
    // A club announcement first: not for the bot, and never answered.
    let chatter = fake.say_to_roles(ALICE, &format!("<@&{CLUB_ROLE}> help"), &[CLUB_ROLE]);
    let said = fake.say_to_roles(
        BOB,
        &format!("{bot_role} challenge {bot_role} standard"),
        &[BOT_ROLE],
    );
    let started = fake
        .wait_for("the game against the bot, by its role", |r| {
            r.method == "POST"
                && r.json["message_reference"]["message_id"] == said.to_string().as_str()
        })
        .await;
    assert!(
        started.content().contains("Game #1 begins")
            && started
                .content()
                .contains("bob (White) vs Voidmate Chess (Black)"),
        "{}",
        started.content()
    );
    // The role mention works for moves too.
    let moved = fake.say_to_roles(BOB, &format!("{bot_role} e4"), &[BOT_ROLE]);
    let answer = fake
        .wait_for("the answer to a move by role mention", |r| {
            r.method == "POST"
                && r.json["message_reference"]["message_id"] == moved.to_string().as_str()
        })
        .await;
    assert!(
        answer.content().contains("bob played e4"),
        "{}",
        answer.content()
    );
    assert!(
        !fake
            .requests()
            .iter()
            .any(|r| r.json["message_reference"]["message_id"] == chatter.to_string().as_str()),
        "a mention of another role was answered"
    );
    let asked = fake.say(
        BOB,
        &format!("<@{APP}> board"),
        json!([user(APP, BOT_NAME)]),
        None,
    );
    fake.wait_for("the board, by mention", |r| {
        r.method == "POST"
            && r.json["message_reference"]["message_id"] == asked.to_string().as_str()
    })
    .await;
    // Moves by mention are ours to handle, not poise's: nothing is logged
    // about an unknown prefix command (issue 19, point 9).
    let log = logged();
    assert!(!log.contains("unknown command"), "{log}");
    bot.abort();
}

/// Issue 19, point 8: a game in a thread of its own. The challenge stays in
/// the channel; the thread, named after the game, gets the game's first
/// board and pings, its moves (no game number needed there) and its
/// notices; the channel gets a pointer. A channel's setting makes it the
/// default, and a notice for an archived thread unarchives it first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_can_be_played_in_its_own_thread() {
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start().await;
    let bot = start_bot(&fake, dir.path(), "").await;
    let registration = registration(&fake).await;
    let standard = game_option(&registration, "challenge", "standard");
    let id = alice_challenges_bob(
        &fake,
        vec![
            option("variant", 3, json!(standard)),
            option("thread", 5, json!(true)),
        ],
    );
    let challenge = fake.callback(id).await;
    assert!(
        challenge.content().contains("in a thread of its own"),
        "{}",
        challenge.content()
    );
    assert!(
        fake.threads().is_empty(),
        "no thread before the game begins"
    );

    let id = fake.slash(BOB, "accept", json!([]), json!({}));
    fake.callback(id).await;
    let pointer = fake
        .wait_for("the pointer to the thread", |r| {
            r.path.starts_with(&format!("/webhooks/{APP}/tok{id}")) && r.content().contains("<#")
        })
        .await;
    let threads = fake.threads();
    let [(thread, parent, name)] = threads.as_slice() else {
        panic!("one thread expected: {threads:?}");
    };
    assert_eq!(*parent, CHANNEL);
    assert_eq!(name, "#1 alice vs bob · Standard chess");
    assert_eq!(
        pointer.content(),
        format!("Game #1 is played in its own thread: <#{thread}>.")
    );
    let start = fake
        .wait_for("the game's start in its thread", |r| {
            r.method == "POST" && r.path == format!("/channels/{thread}/messages")
        })
        .await;
    assert!(
        start.content().contains("Game #1 begins"),
        "{}",
        start.content()
    );
    assert!(start.png().is_some(), "the board goes with it");
    assert!(start.notifies(ALICE.0), "alice, to move, is pinged there");
    assert_eq!(fake.pings(ALICE.0), 1);

    // In the thread the game needs no number; in the channel there is none.
    let id = fake.slash_in(
        *thread,
        ALICE,
        "move",
        json!([option("move", 3, json!("e4"))]),
        json!({}),
    );
    let moved = fake.callback(id).await;
    assert!(
        moved.content().contains("alice played e4"),
        "{}",
        moved.content()
    );
    let id = fake.slash(
        BOB,
        "move",
        json!([option("move", 3, json!("e5"))]),
        json!({}),
    );
    let refused = fake.callback(id).await;
    assert!(refused.ephemeral(), "{}", refused.content());

    // The channel's setting: every new game gets a thread. This one is on
    // a day's clock (two seconds here); its thread is archived before the
    // reminder, which must still be posted there.
    let id = fake.slash(
        CAROL,
        "settings",
        json!([option("threads", 5, json!(true))]),
        json!({}),
    );
    let set = fake.callback(id).await;
    assert!(
        set.content().contains("in their own thread on"),
        "{}",
        set.content()
    );
    let day = choice_index(
        &registration,
        "challenge",
        "time",
        "Correspondence: 1 day per move",
    );
    let id = fake.slash(
        CAROL,
        "challenge",
        json!([
            option("user", 6, json!("22")),
            option("variant", 3, json!(standard)),
            option("time", 4, json!(day))
        ]),
        json!({"users": {"22": user(22, "bob")}}),
    );
    fake.callback(id).await;
    let id = fake.slash(BOB, "accept", json!([]), json!({"users": {}}));
    fake.callback(id).await;
    fake.wait_for("a second thread", |_| fake.threads().len() == 2)
        .await;
    let second = fake.threads()[1].0;
    fake.wait_for("the second game's start", |r| {
        r.method == "POST" && r.path == format!("/channels/{second}/messages") && r.status == 200
    })
    .await;
    fake.archive(second);
    let notice = fake
        .wait_for("a notice in the archived thread", |r| {
            r.method == "POST"
                && r.path == format!("/channels/{second}/messages")
                && r.status == 200
                && !r.content().contains("begins")
        })
        .await;
    assert!(!fake.archived(second));
    assert!(
        fake.requests().iter().any(|r| r.method == "PATCH"
            && r.path == format!("/channels/{second}")
            && r.json["archived"] == false),
        "the thread was not unarchived"
    );
    assert!(notice.content().contains("carol"), "{}", notice.content());
    // Nothing of either game went to the channel but the challenges and
    // the pointers.
    let in_channel: Vec<String> = fake
        .requests()
        .iter()
        .filter(|r| r.method == "POST" && r.path == format!("/channels/{CHANNEL}/messages"))
        .map(|r| r.content().to_string())
        .collect();
    assert!(in_channel.is_empty(), "{in_channel:?}");
    bot.abort();
}

/// Issue 19, point 2: a game's thread is deleted while its clock runs.
/// Discord answers 404 Unknown Channel, which must not be retried in a
/// loop: each notice gets a few attempts, then none.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_thread_is_not_posted_to_in_a_loop() {
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start().await;
    let bot = start_bot(&fake, dir.path(), "").await;
    day_game_begins(&fake, true).await;
    fake.wait_for("the thread", |_| fake.threads().len() == 1)
        .await;
    let thread = fake.threads()[0].0;
    fake.wait_for("the game's start in the thread", |r| {
        r.path == format!("/channels/{thread}/messages") && r.status == 200
    })
    .await;
    fake.delete_channel(thread);
    let posts = || {
        fake.requests()
            .iter()
            .filter(|r| r.path.starts_with(&format!("/channels/{thread}")))
            .filter(|r| r.status == 404)
            .count()
    };
    // A day is two seconds: the reminder and the loss on time fall due.
    tokio::time::sleep(std::time::Duration::from_secs(14)).await;
    let refused = posts();
    assert!(refused >= 1, "the notices were tried");
    assert!(
        refused <= 2 * voidmate::game::PARK_AFTER as usize,
        "{refused} refused requests"
    );
    tokio::time::sleep(std::time::Duration::from_secs(4)).await;
    assert_eq!(posts(), refused, "nothing more once parked");
    bot.abort();
}

/// alice (user 11) challenges bob (user 22) with `options` besides him;
/// the interaction's id.
fn alice_challenges_bob(fake: &FakeDiscord, options: Vec<Value>) -> u64 {
    let mut all = vec![option("user", 6, json!("22"))];
    all.extend(options);
    fake.slash(
        ALICE,
        "challenge",
        Value::Array(all),
        json!({"users": {"22": user(22, "bob")}}),
    )
}

/// `voidmate run` as its own process against the fake Discord.
struct BotProcess(std::process::Child);

impl BotProcess {
    fn start(config: &Path, log: &Path) -> BotProcess {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
            .unwrap();
        let child = std::process::Command::new(env!("CARGO_BIN_EXE_voidmate"))
            .args(["run", "--config", config.to_str().unwrap()])
            .env("VOIDMATE_TEST_DISCORD_TOKEN", "fake-token")
            .env("RUST_LOG", "info")
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .expect("voidmate runs");
        BotProcess(child)
    }

    /// `kill -9`: nothing cleaned up.
    fn kill(mut self) {
        self.0.kill().unwrap();
        self.0.wait().unwrap();
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Issue 19: the bot process is killed (SIGKILL) while its engine thinks
/// about its answer to alice's move. Restarted, it posts alice's move and
/// the engine's answer, each exactly once, and the game goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kill_during_the_engines_thinking_loses_and_doubles_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start().await;
    let config = dir.path().join("voidmate.toml");
    let log = dir.path().join("bot.log");
    std::fs::write(
        &config,
        format!(
            "[database]\npath = \"{}\"\n[engine]\nmove_time_ms = 4000\n[discord]\nenabled = true\n\
             token_env = \"VOIDMATE_TEST_DISCORD_TOKEN\"\nguild_id = \"{GUILD}\"\napi_url = \"{}\"\n\
             tick_seconds = 1\n",
            dir.path().join("voidmate.db").display(),
            fake.api_url
        ),
    )
    .unwrap();
    let registered = |fake: &FakeDiscord| {
        fake.requests()
            .iter()
            .filter(|r| r.method == "PUT" && r.path.ends_with("/commands"))
            .count()
    };
    let bot = BotProcess::start(&config, &log);
    let registration = registration(&fake).await;
    let standard = game_option(&registration, "challenge", "standard");
    let id = fake.slash(
        ALICE,
        "challenge",
        json!([
            option("user", 6, json!(APP.to_string())),
            option("variant", 3, json!(standard)),
            option("level", 4, json!(5))
        ]),
        json!({"users": {APP.to_string(): user(APP, BOT_NAME)}}),
    );
    fake.callback(id).await;
    fake.wait_for("the game's start", |r| {
        r.content().contains("Game #1 begins")
    })
    .await;
    let id = fake.slash(
        ALICE,
        "move",
        json!([option("move", 3, json!("e4"))]),
        json!({}),
    );
    // The move is taken (the answer deferred while the engine thinks) ...
    fake.callback(id).await;
    tokio::time::sleep(std::time::Duration::from_millis(800)).await;
    // ... and the process dies in the middle of the search.
    bot.kill();
    let engine_moved = |r: &fake_discord::Recorded| {
        r.creates_visible_message()
            && r.field("To move").as_deref() == Some("alice")
            && r.field("Last move").is_some_and(|m| m != "e4")
    };
    assert!(
        !fake.requests().iter().any(engine_moved),
        "the engine had answered before the kill"
    );
    let before = fake.requests().len();
    let _bot = BotProcess::start(&config, &log);
    fake.wait_for("the restart", |_| registered(&fake) == 2)
        .await;
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(40);
    while !fake.requests().iter().any(engine_moved) {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the engine never moved after the restart; requests since: {:#?}\nlog:\n{}",
            fake.requests()[before..]
                .iter()
                .map(|r| format!("{} {} {}", r.method, r.path, r.content()))
                .collect::<Vec<_>>(),
            std::fs::read_to_string(&log).unwrap_or_default()
        );
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    // Anything late or doubled has time to show.
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    let posted = fake.requests();
    let count = |what: &str| {
        posted
            .iter()
            .filter(|r| r.creates_visible_message() && r.content().contains(what))
            .count()
    };
    assert_eq!(count("alice played e4"), 1, "alice's move");
    assert_eq!(
        posted.iter().filter(|r| engine_moved(r)).count(),
        1,
        "the engine's move"
    );
    // The game goes on from there.
    let id = fake.slash(ALICE, "board", json!([]), json!({}));
    let board = fake.callback(id).await;
    assert!(!board.ephemeral(), "{}", board.content());
    assert_eq!(board.field("To move").as_deref(), Some("alice"));
}

/// Issue 38, tests: the process is killed (SIGKILL) between a rated game's
/// last move (bob resigns) and its reply, which Discord holds back with a
/// long rate limit. Restarted, the bot posts the result with the rating
/// changes once, and the ratings changed once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kill_between_a_rated_games_end_and_its_reply_rates_it_once() {
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start().await;
    let config = dir.path().join("voidmate.toml");
    let log = dir.path().join("bot.log");
    let db = dir.path().join("voidmate.db");
    std::fs::write(
        &config,
        format!(
            "[database]\npath = \"{}\"\n[discord]\nenabled = true\n\
             token_env = \"VOIDMATE_TEST_DISCORD_TOKEN\"\nguild_id = \"{GUILD}\"\napi_url = \"{}\"\n\
             tick_seconds = 1\n",
            db.display(),
            fake.api_url
        ),
    )
    .unwrap();
    let bot = BotProcess::start(&config, &log);
    let registration = registration(&fake).await;
    let standard = game_option(&registration, "challenge", "standard");
    let id = alice_challenges_bob(&fake, vec![option("variant", 3, json!(standard))]);
    let asked = fake.callback(id).await;
    assert!(
        asked.content().contains("(no time limit, rated)"),
        "{}",
        asked.content()
    );
    let id = fake.slash(BOB, "accept", json!([]), json!({}));
    let begun = fake.callback(id).await;
    assert!(
        begun.content().contains("rated (alice 1500?, bob 1500?)"),
        "{}",
        begun.content()
    );
    for (who, mv) in [(ALICE, "e4"), (BOB, "e5")] {
        let id = fake.slash(
            who,
            "move",
            json!([option("move", 3, json!(mv))]),
            json!({}),
        );
        assert!(!fake.callback(id).await.ephemeral());
    }
    // Discord holds channel messages back (5 s at a time, for as long as
    // the test wants).
    let messages = format!("/channels/{CHANNEL}/messages");
    fake.rate_limit_route("POST", &messages, 1000, 5.0);
    fake.say(
        BOB,
        &format!("<@{APP}> resign"),
        json!([user(APP, BOT_NAME)]),
        None,
    );
    fake.wait_for("the result, held back", |r| {
        r.status == 429 && r.path == messages
    })
    .await;
    bot.kill();
    let ratings_said = |fake: &FakeDiscord| {
        fake.requests()
            .iter()
            .filter(|r| r.creates_visible_message() && r.content().contains(" Ratings: "))
            .count()
    };
    assert_eq!(ratings_said(&fake), 0, "nothing was posted before the kill");

    // The limit is lifted (the last wait still runs out); a new process.
    fake.clear_rate_limits();
    let _bot = BotProcess::start(&config, &log);
    let posted = fake
        .wait_for("the owed result", |r| {
            r.creates_visible_message() && r.content().contains(" Ratings: ")
        })
        .await;
    assert!(
        posted
            .content()
            .contains("bob resigns game #1. alice wins (1-0). Ratings: alice 1500? -> 1662? (+162), bob 1500? -> 1338? (-162)."),
        "{}",
        posted.content()
    );
    // Anything late or doubled has time to show.
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    assert_eq!(ratings_said(&fake), 1, "the result, once");
    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}", db.display()))
        .await
        .unwrap();
    let changes: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM rating_changes")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(changes, 2, "one change for each player");
    let rows: Vec<(String, i64, String)> =
        sqlx::query_as("SELECT player, games, community FROM ratings ORDER BY player")
            .fetch_all(&pool)
            .await
            .unwrap();
    let community = format!("discord:guild:{GUILD}");
    assert_eq!(
        rows,
        [
            ("discord:11".to_string(), 1, community.clone()),
            ("discord:22".to_string(), 1, community)
        ]
    );
}

/// Issue 17, point 3 / issue 19, point 4: players are Discord user ids.
/// alice renames and keeps her game; a newcomer who takes the name "alice"
/// cannot act in it; replies show the name each goes by now.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_renamed_player_keeps_their_game_and_the_old_name_gives_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start().await;
    let bot = start_bot(&fake, dir.path(), "").await;
    let registration = registration(&fake).await;
    let standard = game_option(&registration, "challenge", "standard");
    let id = alice_challenges_bob(&fake, vec![option("variant", 3, json!(standard))]);
    assert!(!fake.callback(id).await.ephemeral());
    let id = fake.slash(BOB, "accept", json!([]), json!({}));
    let begun = fake.callback(id).await;
    assert!(
        begun.content().contains("alice (White) vs bob (Black)"),
        "{}",
        begun.content()
    );

    let alicia = (ALICE.0, "alicia");
    let id = fake.slash(
        alicia,
        "move",
        json!([option("move", 3, json!("e4"))]),
        json!({}),
    );
    let moved = fake.callback(id).await;
    assert!(!moved.ephemeral(), "{}", moved.content());
    assert!(
        moved.content().contains("alicia played e4"),
        "{}",
        moved.content()
    );
    assert_eq!(moved.field("White").as_deref(), Some("alicia"));

    // Someone else now called "alice" has no game here, by any command.
    let impostor = (44, "alice");
    let id = fake.slash(impostor, "resign", json!([]), json!({}));
    let refused = fake.callback(id).await;
    assert!(refused.ephemeral());
    assert!(
        refused
            .content()
            .starts_with("You have no game in progress here"),
        "{}",
        refused.content()
    );
    let id = fake.slash(
        impostor,
        "move",
        json!([option("move", 3, json!("d4"))]),
        json!({}),
    );
    assert!(fake.callback(id).await.ephemeral());

    // bob moves; the one pinged is alicia, by id.
    let id = fake.slash(
        BOB,
        "move",
        json!([option("move", 3, json!("e5"))]),
        json!({}),
    );
    let answer = fake.callback(id).await;
    assert!(
        answer.content().contains("alicia, your move"),
        "{}",
        answer.content()
    );
    assert_eq!(answer.message()["allowed_mentions"]["users"], json!(["11"]));
    bot.abort();
}

/// Issue 17, point 5 / issue 19, point 2: the bot loses the permission to
/// post in a channel where notices are due. Discord answers 403 (Missing
/// Permissions), which must not be retried in a loop: each notice gets a
/// few attempts, spaced out, then none. Once the bot is seen in the channel
/// again, the parked notices are posted; nothing was lost.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_channel_that_refuses_posts_gets_a_bounded_number_of_attempts() {
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start().await;
    let bot = start_bot(&fake, dir.path(), "").await;
    day_game_begins(&fake, false).await;
    // A day is two seconds here: the reminder and the loss on time fall due
    // while the bot may not post.
    fake.forbid(CHANNEL, true);
    let posts = || {
        fake.requests()
            .iter()
            .filter(|r| r.method == "POST" && r.path == format!("/channels/{CHANNEL}/messages"))
            .count()
    };
    tokio::time::sleep(std::time::Duration::from_secs(14)).await;
    let refused = posts();
    assert!(refused >= 1, "the notices were tried");
    // Two notices, each parked after PARK_AFTER refusals.
    assert!(
        refused <= 2 * voidmate::game::PARK_AFTER as usize,
        "{refused} refused posts"
    );
    tokio::time::sleep(std::time::Duration::from_secs(4)).await;
    assert_eq!(posts(), refused, "nothing more once parked");

    // Allowed again, and seen there (alice mentions the bot): the parked
    // notices go out, the loss on time among them.
    fake.forbid(CHANNEL, false);
    fake.say(
        ALICE,
        &format!("<@{APP}> games"),
        json!([user(APP, BOT_NAME)]),
        None,
    );
    let lost = fake
        .wait_for("the parked loss on time", |r| {
            r.method == "POST"
                && r.path == format!("/channels/{CHANNEL}/messages")
                && r.content().contains("time")
                && r.content().contains("wins")
        })
        .await;
    assert!(lost.content().contains("alice"), "{}", lost.content());
    bot.abort();
}

/// Issue 19, point 3: the same interaction delivered twice (two processes
/// on one shard during a deploy). Discord takes one response; the
/// duplicate must not answer at all, quick or deferred, so the real answer
/// always gets through.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duplicated_interaction_never_takes_the_answer() {
    for defer in ["defer_after_ms = 2500", "defer_after_ms = 0"] {
        let dir = tempfile::tempdir().unwrap();
        let fake = FakeDiscord::start().await;
        let bot = start_bot(&fake, dir.path(), defer).await;
        for round in 0..4 {
            let who = if round % 2 == 0 {
                (ALICE, BOB)
            } else {
                (BOB, ALICE)
            };
            let id = fake.slash(
                who.0,
                "challenge",
                json!([option("user", 6, json!(who.1 .0.to_string()))]),
                json!({"users": {who.1 .0.to_string(): user(who.1 .0, who.1 .1)}}),
            );
            fake.redeliver(id);
            let token = format!("tok{id}");
            let answered = fake
                .wait_for("the challenge", |r| {
                    r.content().contains("challenges you")
                        && (r.path.contains(&id.to_string()) || r.path.contains(&token))
                })
                .await;
            assert!(answered.status < 300, "{defer}: {answered:?}");
            // Let the duplicate finish whatever it would do.
            tokio::time::sleep(std::time::Duration::from_millis(700)).await;
            let about: Vec<_> = fake
                .requests()
                .into_iter()
                .filter(|r| r.path.contains(&id.to_string()) || r.path.contains(&token))
                .collect();
            assert!(
                about.iter().all(|r| !r.content().contains("already")),
                "{defer}: {about:?}"
            );
            let shown: Vec<_> = about
                .iter()
                .filter(|r| r.creates_visible_message() || (r.method == "PATCH" && r.status < 300))
                .collect();
            assert_eq!(shown.len(), 1, "{defer}: one answer: {about:?}");
            // Withdraw it, for the next round.
            let id = fake.slash(who.0, "decline", json!([]), json!({}));
            fake.wait_for("the withdrawal", |r| {
                r.path.contains(&id.to_string()) || r.path.contains(&format!("tok{id}"))
            })
            .await;
            tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        }
        bot.abort();
    }
}

/// Issue 19, point 7: a button the bot does not know (an old message's)
/// is answered, to its presser alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_button_is_answered_privately() {
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start().await;
    let bot = start_bot(&fake, dir.path(), "").await;
    let id = fake.press(ALICE, "v1:accept:something-old", 424242);
    let answer = fake.callback(id).await;
    assert_eq!(answer.json["type"], 4);
    assert!(answer.ephemeral());
    assert!(
        answer.content().contains("no longer valid"),
        "{}",
        answer.content()
    );
    bot.abort();
}

/// Issue 19, point 5: without the message-content intent (the default) the
/// texts name only what works on Discord; `message_content = true` asks for
/// the intent and makes bare moves in a channel work.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bare_moves_need_the_message_content_intent_and_texts_say_what_works() {
    // Without the intent.
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start().await;
    let bot = start_bot(&fake, dir.path(), "").await;
    let id = fake.slash(
        ALICE,
        "challenge",
        json!([option("user", 6, json!("22"))]),
        json!({"users": {"22": user(22, "bob")}}),
    );
    let challenge = fake.callback(id).await;
    assert!(
        challenge
            .content()
            .contains("Answer with the buttons below, or `/accept` or `/decline`."),
        "{}",
        challenge.content()
    );
    let id = fake.slash(
        ALICE,
        "settings",
        json!([option("bare_moves", 5, json!(true))]),
        json!({}),
    );
    let settings = fake.callback(id).await;
    assert!(
        settings.content().contains("message-content intent"),
        "{}",
        settings.content()
    );
    bot.abort();

    // With it: the intent is asked for, and a bare move by the player to
    // move is played.
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start().await;
    // The Developer Portal's switch for the intent is on.
    fake.allow_privileged(1 << 15);
    let bot = start_bot(&fake, dir.path(), "message_content = true").await;
    let intents = fake.identify().unwrap()["intents"].as_u64().unwrap();
    assert_ne!(intents & (1 << 15), 0, "intents {intents:b}");
    let id = fake.slash(
        ALICE,
        "challenge",
        json!([option("user", 6, json!("22")), option("color", 4, json!(0))]),
        json!({"users": {"22": user(22, "bob")}}),
    );
    fake.callback(id).await;
    let id = fake.slash(BOB, "accept", json!([]), json!({}));
    let started = fake.callback(id).await;
    let white = if started.content().contains("alice (White)") {
        ALICE
    } else {
        BOB
    };
    let said = fake.say(white, "e3", json!([]), None);
    let played = fake
        .wait_for("the bare move", |r| {
            r.json["message_reference"]["message_id"] == said.to_string().as_str()
        })
        .await;
    assert!(
        played.content().contains(&format!("{} played e3", white.1)),
        "{}",
        played.content()
    );
    // Chatter stays unanswered.
    let chat = fake.say(BOB, "good luck, have fun", json!([]), None);
    tokio::time::sleep(std::time::Duration::from_millis(800)).await;
    assert!(!fake
        .requests()
        .iter()
        .any(|r| r.json["message_reference"]["message_id"] == chat.to_string().as_str()));
    bot.abort();
}

/// Issue 19, point 7: the message a reply answers was deleted before the
/// answer went out; the answer still posts (as a plain message).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_to_a_deleted_message_still_posts() {
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start().await;
    let bot = start_bot(&fake, dir.path(), "").await;
    let mention = json!([user(APP, BOT_NAME)]);
    let said = fake.say_and_delete(ALICE, &format!("<@{APP}> variants"), mention);
    let answer = fake
        .wait_for("the answer", |r| {
            r.path == format!("/channels/{CHANNEL}/messages")
                && r.json["message_reference"]["message_id"] == said.to_string().as_str()
        })
        .await;
    assert_eq!(answer.status, 200, "{answer:?}");
    assert!(
        answer.content().starts_with("I play:"),
        "{}",
        answer.content()
    );
    bot.abort();
}

/// Issue 19, point 9: `/help` answers with an embed, a field per command,
/// not with a text file to open.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn help_is_an_embed_with_a_field_per_command() {
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start().await;
    let bot = start_bot(&fake, dir.path(), "").await;
    let id = fake.slash(ALICE, "help", json!([]), json!({}));
    let help = fake.callback(id).await;
    assert!(help.files.is_empty(), "no attachment: {:?}", help.files);
    let embed = &help.message()["embeds"][0];
    assert!(
        embed["title"]
            .as_str()
            .unwrap_or("")
            .starts_with("Commands"),
        "{embed}"
    );
    let fields = embed["fields"].as_array().expect("fields");
    // Discord takes 25 fields at most: past the 24th, the commands share
    // the last field, a line each; none is left out.
    let words = voidmate::game::command::words::WORDS.len();
    assert_eq!(fields.len(), words.min(25));
    if words > 25 {
        let more = fields[24]["value"].as_str().unwrap();
        assert_eq!(more.lines().count(), words - 24, "{more}");
        assert!(more.contains("`help [command]`"), "{more}");
    }
    assert_eq!(fields[1]["name"], "`accept [@user]`");
    assert_eq!(
        fields[1]["value"],
        "accept a challenge waiting for you here"
    );
    bot.abort();
}

/// Issue 19, point 2: a 429 with serenity's limiter off (`api_url` set)
/// delays the answer and loses nothing, a board that has no outbox entry
/// included.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rate_limited_answer_is_posted_after_the_wait() {
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start().await;
    let bot = start_bot(&fake, dir.path(), "").await;
    let id = fake.slash(
        ALICE,
        "challenge",
        json!([option("user", 6, json!("22"))]),
        json!({"users": {"22": user(22, "bob")}}),
    );
    fake.callback(id).await;
    let id = fake.slash(BOB, "accept", json!([]), json!({}));
    fake.callback(id).await;
    fake.rate_limit(2);
    let mention = json!([user(APP, BOT_NAME)]);
    let said = fake.say(ALICE, &format!("<@{APP}> board"), mention, None);
    let posted = fake
        .wait_for("the board, after the 429s", |r| {
            r.path == format!("/channels/{CHANNEL}/messages")
                && r.json["message_reference"]["message_id"] == said.to_string().as_str()
                && r.status == 200
        })
        .await;
    assert!(posted.png().is_some(), "the board came with it");
    let refused = fake.requests().iter().filter(|r| r.status == 429).count();
    assert_eq!(refused, 2);
    bot.abort();
}

/// How many IDENTIFYs the fake's gateway saw.
fn identifies(fake: &FakeDiscord) -> usize {
    fake.gateway_log()
        .iter()
        .filter(|l| matches!(l, Logged::Identify { .. }))
        .count()
}

/// Issue 41, point 13: a 429 on the edit of a deferred answer (with
/// `api_url`, serenity's own limiter is off) is waited out by the wait
/// Discord asks for and sent again: the player is not left with "Voidmate
/// is thinking...".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rate_limited_edit_of_a_deferred_answer_is_waited_out() {
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start().await;
    let bot = start_bot(&fake, dir.path(), "defer_after_ms = 0").await;
    let id = fake.slash(ALICE, "variants", json!([]), json!({}));
    fake.rate_limit_route("PATCH", "/webhooks/", 1, 1.2);
    let deferred = fake.callback(id).await;
    assert_eq!(deferred.json["type"], 5, "deferred first");
    let token = format!("tok{id}");
    let edited = fake
        .wait_for("the edit, after the 429", |r| {
            r.method == "PATCH" && r.path.contains(&token) && r.status == 200
        })
        .await;
    assert!(edited.content().contains("I play:"), "{}", edited.content());
    let tries: Vec<u16> = fake
        .requests()
        .iter()
        .filter(|r| r.method == "PATCH" && r.path.contains(&token))
        .map(|r| r.status)
        .collect();
    // Refused once, then sent again once the wait was over (a try within
    // the wait would have been refused again).
    assert_eq!(tries, [429, 200]);
    bot.abort();
}

/// A global 429 holds back every request but the interaction endpoints
/// until it ends; the answer is posted after it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_global_rate_limit_is_waited_out_too() {
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start().await;
    let bot = start_bot(&fake, dir.path(), "").await;
    fake.rate_limit_globally(1, 1.0);
    let mention = json!([user(APP, BOT_NAME)]);
    let said = fake.say(ALICE, &format!("<@{APP}> variants"), mention, None);
    fake.wait_for("the answer, after the global 429", |r| {
        r.json["message_reference"]["message_id"] == said.to_string().as_str() && r.status == 200
    })
    .await;
    let refused = fake.refused_for_rate();
    assert_eq!(refused.len(), 1, "{refused:?}");
    bot.abort();
}

/// An interaction whose first response comes too late (Discord: 404
/// Unknown Interaction, 10062) still gets its answer, as a channel message;
/// so does one whose token no longer works (401, 50027) for the edit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missed_interaction_is_answered_in_the_channel() {
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start().await;
    let bot = start_bot(&fake, dir.path(), "").await;
    fake.set_response_window(std::time::Duration::ZERO);
    let id = fake.slash(ALICE, "variants", json!([]), json!({}));
    let late = fake.callback(id).await;
    assert_eq!((late.status, late.json["type"].as_u64()), (404, Some(4)));
    let posted = fake
        .wait_for("the answer in the channel", |r| {
            r.path == format!("/channels/{CHANNEL}/messages") && r.status == 200
        })
        .await;
    assert!(posted.content().contains("I play:"), "{}", posted.content());
    bot.abort();

    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start().await;
    let bot = start_bot(&fake, dir.path(), "defer_after_ms = 0").await;
    fake.set_token_life(std::time::Duration::ZERO);
    let id = fake.slash(ALICE, "variants", json!([]), json!({}));
    assert_eq!(fake.callback(id).await.json["type"], 5);
    let token = format!("tok{id}");
    let refused = fake
        .wait_for("the edit, refused", |r| {
            r.path.contains(&token) && r.method == "PATCH"
        })
        .await;
    assert_eq!(refused.status, 401);
    let posted = fake
        .wait_for("the answer in the channel", |r| {
            r.path == format!("/channels/{CHANNEL}/messages") && r.status == 200
        })
        .await;
    assert!(posted.content().contains("I play:"), "{}", posted.content());
    bot.abort();
}

/// Issue 41, point 13: asked to reconnect (op 7), the bot resumes its
/// session at READY's `resume_gateway_url`, and the events sent meanwhile
/// are replayed to it and answered once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reconnect_resumes_at_the_sessions_own_address() {
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start().await;
    let bot = start_bot(&fake, dir.path(), "").await;
    fake.reconnect(0);
    let mention = json!([user(APP, BOT_NAME)]);
    let said = fake.say(ALICE, &format!("<@{APP}> variants"), mention, None);
    fake.wait_for_gateway("a resume", |log| {
        log.iter()
            .any(|l| matches!(l, Logged::Resume { accepted: true, .. }))
    })
    .await;
    let resumes: Vec<String> = fake
        .gateway_log()
        .iter()
        .filter_map(|l| match l {
            Logged::Resume { path, .. } => Some(path.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(resumes, ["/resume"], "resumed at the session's address");
    fake.wait_for("the answer", |r| {
        r.json["message_reference"]["message_id"] == said.to_string().as_str()
    })
    .await;
    // Anything doubled has time to show.
    tokio::time::sleep(std::time::Duration::from_millis(800)).await;
    let answers = fake
        .requests()
        .iter()
        .filter(|r| r.json["message_reference"]["message_id"] == said.to_string().as_str())
        .count();
    assert_eq!(answers, 1);
    // No new session was needed: one identify in all.
    let identifies = identifies(&fake);
    assert_eq!(identifies, 1);
    bot.abort();
}

/// Issue 41, point 13: after an Invalid Session that cannot be resumed
/// (op 9, `d: false`) the bot waits at least a second before identifying
/// again, at the gateway's address; what was sent while it had no session
/// is lost, as on Discord, and what comes after is answered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invalid_session_is_followed_by_a_new_identify_after_a_wait() {
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start().await;
    let bot = start_bot(&fake, dir.path(), "").await;
    fake.invalidate(0);
    let mention = json!([user(APP, BOT_NAME)]);
    fake.say(ALICE, &format!("<@{APP}> variants"), mention.clone(), None);
    fake.wait_for_gateway("a new identify", |log| {
        log.iter()
            .filter(|l| matches!(l, Logged::Identify { .. }))
            .count()
            >= 2
    })
    .await;
    let log = fake.gateway_log();
    let invalidated = log
        .iter()
        .find_map(|l| match l {
            Logged::InvalidSession { at, .. } => Some(*at),
            _ => None,
        })
        .unwrap();
    let (path, identified) = log
        .iter()
        .filter_map(|l| match l {
            Logged::Identify { path, at, .. } => Some((path.clone(), *at)),
            _ => None,
        })
        .nth(1)
        .unwrap();
    assert_eq!(path, "/", "identifies go to the gateway's address");
    // A lower bound the protocol asks for, not a speed: a slow machine only
    // makes the gap longer.
    assert!(
        identified.duration_since(invalidated) >= std::time::Duration::from_secs(1),
        "identified again {:?} after the invalid session",
        identified.duration_since(invalidated)
    );
    assert!(
        log.iter()
            .any(|l| matches!(l, Logged::Lost { t } if t == "MESSAGE_CREATE")),
        "the message sent without a session is lost: {log:?}"
    );
    let said = fake.say(ALICE, &format!("<@{APP}> variants"), mention, None);
    fake.wait_for("the answer after the new session", |r| {
        r.json["message_reference"]["message_id"] == said.to_string().as_str()
    })
    .await;
    bot.abort();
}

/// Asking for the message-content intent without the Developer Portal's
/// switch: Discord closes the gateway with 4014, and the bot stops with an
/// error that says what to do (it does not reconnect in a loop).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_disallowed_intent_stops_the_bot_with_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start().await;
    let (core, discord) = bot_config(&fake, dir.path(), "message_content = true").await;
    let ended = tokio::time::timeout(
        std::time::Duration::from_secs(30),
        discord::run_bot(core, discord),
    )
    .await
    .expect("the bot stops instead of reconnecting for ever");
    let err = format!("{:#}", ended.unwrap_err());
    assert!(
        err.contains("message-content intent") && err.contains("4014"),
        "{err}"
    );
    let identifies = identifies(&fake);
    assert_eq!(identifies, 1, "no identify after the refusal");
}

/// Issue 39, point 4: after a game's result, its replay comes into the
/// game's channel as one message with the GIF attached; `/replay` answers
/// with it too; `/analysis` queues the review, which comes as one message:
/// an embed with a field per side and the costliest moves, the graph
/// attached and shown in it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_games_replay_and_review_come_to_its_channel() {
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start().await;
    let bot = start_bot(&fake, dir.path(), "").await;
    let registration = registration(&fake).await;
    let standard = game_option(&registration, "challenge", "standard");
    let id = alice_challenges_bob(&fake, vec![option("variant", 3, json!(standard))]);
    let challenge = fake.callback(id).await;
    let question = fake.original(id).expect("the challenge's message");
    let id = fake.press(BOB, &challenge.buttons()[0], question);
    fake.callback(id).await;
    for (who, mv) in [(ALICE, "f3"), (BOB, "e5"), (ALICE, "g4"), (BOB, "Qh4#")] {
        let id = fake.slash(
            who,
            "move",
            json!([option("move", 3, json!(mv))]),
            json!({}),
        );
        let played = fake.callback(id).await;
        assert!(!played.ephemeral(), "{}", played.content());
    }
    let gif = |r: &fake_discord::Recorded| {
        r.files
            .iter()
            .find(|(name, bytes)| name == "replay.gif" && bytes.starts_with(b"GIF89a"))
            .map(|(_, b)| b.clone())
    };
    let replay = fake
        .wait_for("the replay after the result", |r| {
            r.path == format!("/channels/{CHANNEL}/messages") && gif(r).is_some()
        })
        .await;
    assert!(
        replay.content().contains("Replay of #1 alice vs bob"),
        "{}",
        replay.content()
    );
    let id = fake.slash(ALICE, "replay", json!([]), json!({}));
    let asked = fake.callback(id).await;
    assert!(gif(&asked).is_some(), "{:?}", asked.files);
    assert_eq!(
        asked.message()["embeds"][0]["image"]["url"],
        "attachment://replay.gif"
    );
    let id = fake.slash(ALICE, "analysis", json!([]), json!({}));
    let queued = fake.callback(id).await;
    assert!(
        queued.content().contains("queued for the engine's review"),
        "{}",
        queued.content()
    );
    let review = fake
        .wait_for("the review", |r| {
            r.path == format!("/channels/{CHANNEL}/messages")
                && r.message()["embeds"][0]["title"]
                    .as_str()
                    .is_some_and(|t| t.starts_with("Review of #1"))
        })
        .await;
    let embed = &review.message()["embeds"][0];
    assert_eq!(embed["image"]["url"], "attachment://board.png");
    assert!(review.png().is_some(), "the graph is attached");
    let names: Vec<&str> = embed["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["`alice (White)`", "`bob (Black)`", "`Costliest moves`"],
        "{embed}"
    );
    assert!(
        embed["fields"][0]["value"]
            .as_str()
            .unwrap()
            .contains("1 blunder"),
        "{embed}"
    );
    bot.abort();
}

/// Issue 39, point 2: a review interrupted by kill -9 is finished after the
/// restart and posted once. The bot process reviews at a high effort (each
/// position takes seconds), is killed once it has kept at least one
/// position's evaluation and before it is done, and a new process finishes
/// the review from the positions kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_cut_by_kill_9_is_finished_after_the_restart_and_posted_once() {
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start().await;
    let config = dir.path().join("voidmate.toml");
    let log = dir.path().join("bot.log");
    let db = dir.path().join("voidmate.db");
    std::fs::write(
        &config,
        format!(
            "[database]\npath = \"{}\"\n[engine]\nreview_nodes = 1000000\n[discord]\nenabled = true\n\
             token_env = \"VOIDMATE_TEST_DISCORD_TOKEN\"\nguild_id = \"{GUILD}\"\napi_url = \"{}\"\n\
             tick_seconds = 1\n",
            db.display(),
            fake.api_url
        ),
    )
    .unwrap();
    let bot = BotProcess::start(&config, &log);
    let registration = registration(&fake).await;
    let standard = game_option(&registration, "challenge", "standard");
    let id = alice_challenges_bob(&fake, vec![option("variant", 3, json!(standard))]);
    fake.callback(id).await;
    let id = fake.slash(BOB, "accept", json!([]), json!({}));
    fake.callback(id).await;
    for (who, mv) in [
        (ALICE, "e4"),
        (BOB, "e5"),
        (ALICE, "Nf3"),
        (BOB, "Nc6"),
        (ALICE, "Bb5"),
    ] {
        let id = fake.slash(
            who,
            "move",
            json!([option("move", 3, json!(mv))]),
            json!({}),
        );
        assert!(!fake.callback(id).await.ephemeral());
    }
    let id = fake.slash(BOB, "resign", json!([]), json!({}));
    fake.callback(id).await;
    let id = fake.slash(ALICE, "analysis", json!([]), json!({}));
    let queued = fake.callback(id).await;
    assert!(queued.content().contains("queued"), "{}", queued.content());
    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}", db.display()))
        .await
        .unwrap();
    let kept = || async {
        sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM review_positions")
            .fetch_one(&pool)
            .await
            .unwrap()
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while kept().await == 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "no position was reviewed"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    bot.kill();
    let before = kept().await;
    assert!(
        (1..6).contains(&before),
        "killed mid-review: {before} of 6 kept"
    );
    let reviews = |fake: &FakeDiscord| {
        fake.requests()
            .iter()
            .filter(|r| {
                r.creates_visible_message()
                    && r.message()["embeds"][0]["title"]
                        .as_str()
                        .is_some_and(|t| t.starts_with("Review of #1"))
            })
            .count()
    };
    assert_eq!(reviews(&fake), 0);
    let _bot = BotProcess::start(&config, &log);
    fake.wait_for("the review, after the restart", |r| {
        r.creates_visible_message()
            && r.message()["embeds"][0]["title"]
                .as_str()
                .is_some_and(|t| t.starts_with("Review of #1"))
    })
    .await;
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    assert_eq!(reviews(&fake), 1, "the review, once");
    assert_eq!(kept().await, 6, "every position, once");
}

/// Issue 40, point 4: an interaction's answer carries no nonce, so a second
/// post of it would show twice. Discord holds alice's answer back (a 429 of
/// 7 s on its follow-up, waited out), longer than an answer waits before it
/// takes over one whose process died; bob's move comes meanwhile. Its
/// answer waits for alice's, which renews its hold while it is sent: alice's
/// answer shows once, and before bob's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_interaction_answer_shows_once_and_first() {
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start().await;
    let bot = start_bot(&fake, dir.path(), "defer_after_ms = 0").await;
    alice_challenges_bob(&fake, vec![]);
    fake.wait_for("the challenge", |r| {
        r.creates_visible_message() && r.content().contains("alice challenges you")
    })
    .await;
    fake.slash(BOB, "accept", json!([]), json!({}));
    fake.wait_for("the game", |r| {
        r.creates_visible_message() && r.content().contains("Game #1 begins")
    })
    .await;
    fake.rate_limit_route("POST", "/webhooks/", 1, 7.0);
    let id = fake.slash(
        ALICE,
        "move",
        json!([option("move", 3, json!("e4"))]),
        json!({}),
    );
    let deferred = fake.callback(id).await;
    assert_eq!(deferred.json["type"], 5, "deferred first");
    fake.wait_for("alice's answer, held back", |r| {
        r.status == 429 && r.path.starts_with("/webhooks/")
    })
    .await;
    fake.say(
        BOB,
        &format!("<@{APP}> move e6"),
        json!([user(APP, BOT_NAME)]),
        None,
    );
    fake.wait_for("bob's answer", |r| {
        r.creates_visible_message() && r.content().contains("bob played e6")
    })
    .await;
    // Anything late or doubled has time to show.
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    let shown: Vec<String> = fake
        .requests()
        .iter()
        .filter(|r| r.creates_visible_message())
        .map(|r| r.content().to_string())
        .filter(|c| c.contains("alice played e4") || c.contains("bob played e6"))
        .collect();
    assert_eq!(shown.len(), 2, "{shown:#?}");
    assert!(shown[0].contains("alice played e4"), "{shown:#?}");
    assert!(shown[1].contains("bob played e6"), "{shown:#?}");
    bot.abort();
}

/// `/tournament name` with a subcommand and its options, as Discord sends
/// a subcommand (`interactions/application-commands#subcommands`).
fn tournament(sub: &str, options: Value) -> Value {
    json!([{"name": sub, "type": 1, "options": options}])
}

/// Issue 48: a round robin run from `/tournament`: created in a thread of
/// its own with Join/Leave buttons that anyone may press, started by a
/// moderator (not by a passer-by), the first round announced with pings,
/// the standings as an embed in fixed width, and options that do not fit
/// together refused to their author alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_is_run_from_the_tournament_command_and_its_buttons() {
    const DAVE: (u64, &str) = (44, "dave");
    const ERIN: (u64, &str) = (55, "erin");
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start().await;
    let bot = start_bot(&fake, dir.path(), "").await;
    let registration = registration(&fake).await;
    let put = fake.wait_for("registration", |r| r.method == "PUT").await;
    assert_eq!(
        put.status, 200,
        "Discord refused the commands as registered"
    );
    let sub = |name: &str| {
        let cmd = registration
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == "tournament")
            .expect("/tournament registered");
        cmd["options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == name)
            .unwrap_or_else(|| panic!("/tournament {name} missing"))
            .clone()
    };
    let choice = |sub_name: &str, option: &str, label: &str| -> u64 {
        sub(sub_name)["options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == option)
            .unwrap()["choices"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == label)
            .unwrap_or_else(|| panic!("no choice {label}"))["value"]
            .as_u64()
            .unwrap()
    };
    let round_robin = choice("create", "format", "Round robin: everyone meets once");
    // The game is an autocompleted name, not a fixed list.
    let variant = sub("create")["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "variant")
        .unwrap()
        .clone();
    assert_eq!(
        (variant["type"].as_u64(), variant["autocomplete"].as_bool()),
        (Some(3), Some(true))
    );
    let standard = "standard";
    let blitz = choice("create", "time", "Blitz 3+2");

    // Options that do not fit together: refused, to their author alone.
    let id = fake.slash(
        ALICE,
        "tournament",
        tournament(
            "create",
            json!([
                option("format", 4, json!(round_robin)),
                option("variant", 3, json!(standard)),
                option("time", 4, json!(blitz)),
                option("rounds", 4, json!(5)),
            ]),
        ),
        json!({}),
    );
    let refused = fake.callback(id).await;
    assert!(refused.ephemeral(), "{}", refused.content());
    assert!(
        refused.content().contains("round robin"),
        "{}",
        refused.content()
    );

    let id = fake.slash(
        ALICE,
        "tournament",
        tournament(
            "create",
            json!([
                option("format", 4, json!(round_robin)),
                option("variant", 3, json!(standard)),
                option("time", 4, json!(blitz)),
            ]),
        ),
        json!({}),
    );
    fake.callback(id).await;
    fake.wait_for("the tournament's thread", |_| !fake.threads().is_empty())
        .await;
    let (thread, parent, name) = fake.threads()[0].clone();
    assert_eq!(parent, CHANNEL);
    assert!(name.starts_with("T1"), "{name}");
    let open = fake
        .wait_for("the tournament's opening in its thread", |r| {
            r.method == "POST"
                && r.path == format!("/channels/{thread}/messages")
                && r.status == 200
        })
        .await;
    assert!(open.content().contains("T1 is open"), "{}", open.content());
    assert_eq!(open.buttons(), vec!["vm:t:join:1", "vm:t:leave:1"]);

    // Anyone presses Join for themselves; the buttons stay for the next.
    for who in [BOB, CAROL] {
        let id = fake.press(who, "vm:t:join:1", 9000);
        let joined = fake.callback(id).await;
        assert!(!joined.ephemeral(), "{}", joined.content());
        assert!(
            joined.content().contains(&format!("{} joins T1", who.1)),
            "{}",
            joined.content()
        );
    }
    assert!(
        fake.requests()
            .iter()
            .any(|r| r.content().contains("(1 player)")),
        "one player, not one players"
    );
    assert!(
        !fake
            .requests()
            .iter()
            .any(|r| r.method == "PATCH" && r.path.ends_with("/messages/9000")),
        "the Join button must stay"
    );
    let id = fake.press(BOB, "vm:t:join:1", 9000);
    let twice = fake.callback(id).await;
    assert!(twice.ephemeral(), "{}", twice.content());
    assert!(
        twice.content().contains("already in T1"),
        "{}",
        twice.content()
    );
    let id = fake.slash_in(
        thread,
        ALICE,
        "tournament",
        tournament("join", json!([])),
        json!({}),
    );
    let joined = fake.callback(id).await;
    assert!(
        joined.content().contains("alice joins T1"),
        "{}",
        joined.content()
    );

    // A passer-by may not start it; a moderator of the channel may.
    let id = fake.slash_in(
        thread,
        DAVE,
        "tournament",
        tournament("start", json!([])),
        json!({}),
    );
    let refused = fake.callback(id).await;
    assert!(refused.ephemeral(), "{}", refused.content());
    assert!(
        refused.content().contains("moderator"),
        "{}",
        refused.content()
    );
    fake.make_moderator(ERIN.0);
    let id = fake.slash_in(
        thread,
        ERIN,
        "tournament",
        tournament("start", json!([option("number", 4, json!(1))])),
        json!({}),
    );
    fake.callback(id).await;
    let announced = fake
        .wait_for("round 1 announced with pings", |r| {
            r.creates_visible_message()
                && r.content().contains("round 1")
                && r.notifies(BOB.0)
                && r.notifies(CAROL.0)
        })
        .await;
    assert!(
        announced.content().contains("game #1"),
        "{}",
        announced.content()
    );
    assert!(
        announced.content().contains("Bye"),
        "{}",
        announced.content()
    );

    // The standings: an embed whose rows line up in a code block.
    let id = fake.slash_in(
        thread,
        BOB,
        "tournament",
        tournament("standings", json!([])),
        json!({}),
    );
    let standings = fake.callback(id).await;
    let embed = &standings.message()["embeds"][0];
    assert!(
        embed["title"]
            .as_str()
            .unwrap_or("")
            .contains("T1 standings"),
        "{embed}"
    );
    let rows = embed["description"].as_str().unwrap_or("");
    assert!(rows.starts_with("```\n#"), "{rows}");
    for who in [ALICE, BOB, CAROL] {
        assert!(rows.contains(who.1), "{rows}");
    }
    bot.abort();
}

/// Issue 49: a puzzle from the server's own game, solved through `/puzzle`:
/// its board and Hint/Solution/Next buttons, the legal moves offered as the
/// solver types, a button that acts for whoever presses it, and
/// `/rating puzzles:true`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_puzzle_is_solved_through_the_puzzle_command_and_its_buttons() {
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start().await;
    let _bot = start_bot(&fake, dir.path(), "").await;
    let registration = registration(&fake).await;
    let standard = game_option(&registration, "challenge", "standard");
    let puzzle = registration
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "puzzle")
        .expect("/puzzle registered")
        .clone();
    assert_eq!(puzzle["options"][0]["name"], "move");
    assert_eq!(puzzle["options"][0]["autocomplete"], true);

    // Nobody has finished a game here: no puzzles, said privately.
    let id = fake.slash(CAROL, "puzzle", json!([]), json!({}));
    let none = fake.callback(id).await;
    assert!(
        none.ephemeral() && none.content().starts_with("No puzzles here yet"),
        "{}",
        none.content()
    );

    // A game with a blunder (3...Nf6?? allows Qxf7#), resigned instead.
    let id = alice_challenges_bob(&fake, vec![option("variant", 3, json!(standard))]);
    fake.callback(id).await;
    let id = fake.slash(BOB, "accept", json!([]), json!({}));
    fake.callback(id).await;
    for (i, mv) in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"].iter().enumerate() {
        let who = if i % 2 == 0 { ALICE } else { BOB };
        let id = fake.slash(
            who,
            "move",
            json!([option("move", 3, json!(mv))]),
            json!({}),
        );
        fake.callback(id).await;
    }
    let id = fake.slash(ALICE, "resign", json!([]), json!({}));
    fake.callback(id).await;

    // The bot's periodic check searches the game; the puzzle is there soon.
    let mut opened = None;
    for _ in 0..600 {
        let id = fake.slash(CAROL, "puzzle", json!([]), json!({}));
        let answer = fake.callback(id).await;
        if !answer.ephemeral() {
            opened = Some(answer);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let opened = opened.expect("a puzzle within a minute");
    assert!(
        opened.content().starts_with("Puzzle P1 (Standard chess"),
        "{}",
        opened.content()
    );
    assert!(opened.png().is_some(), "its board");
    assert_eq!(
        opened.buttons(),
        vec!["vm:p:hint:1", "vm:p:solution:1", "vm:p:next:standard"]
    );

    // The solver's legal moves as she types; nothing for someone without one.
    let id = fake.autocomplete(CAROL, "puzzle", "move", "Qx");
    let offered = fake.callback(id).await;
    let offered: Vec<&str> = offered.json["data"]["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["value"].as_str().unwrap())
        .collect();
    assert!(
        offered.contains(&"Qxf7#") && offered.contains(&"Qxe5+"),
        "{offered:?}"
    );
    let id = fake.autocomplete(BOB, "puzzle", "move", "");
    assert_eq!(fake.callback(id).await.json["data"]["choices"], json!([]));

    // Bob presses Carol's Hint: it is not his puzzle, and only he is told.
    let id = fake.press(BOB, "vm:p:hint:1", 9100);
    let refused = fake.callback(id).await;
    assert!(
        refused.ephemeral() && refused.content().contains("not solving here"),
        "{}",
        refused.content()
    );
    // Carol's answer, through the option: solved, rated, a Next button.
    let id = fake.slash(
        CAROL,
        "puzzle",
        json!([option("move", 3, json!("Qxf7#"))]),
        json!({}),
    );
    let solved = fake.callback(id).await;
    assert!(
        solved.content().starts_with("Qxf7#: solved!"),
        "{}",
        solved.content()
    );
    assert_eq!(solved.buttons(), vec!["vm:p:next:standard"]);
    let id = fake.press(CAROL, "vm:p:next:standard", 9200);
    let next = fake.callback(id).await;
    assert!(
        next.ephemeral() && next.content().contains("tried every Standard chess puzzle"),
        "{}",
        next.content()
    );
    let id = fake.slash(
        CAROL,
        "rating",
        json!([option("puzzles", 5, json!(true))]),
        json!({}),
    );
    let rating = fake.callback(id).await;
    assert!(
        rating.content().contains("Puzzle ratings of carol")
            && rating.content().contains("1 solved, 0 failed"),
        "{}",
        rating.content()
    );
}
