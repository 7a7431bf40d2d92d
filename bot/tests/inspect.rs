//! The inspection subcommands, run as a user would run them.

use std::process::Command;

#[path = "said/mod.rs"]
mod said;

use said::voidmate;

#[test]
fn moves_lists_one_san_a_line_and_filters_by_square() {
    let (ok, out, _) = voidmate(&["moves", "--variant", "void"]);
    assert!(ok);
    assert_eq!(out.lines().count(), 22);
    let (ok, out, _) = voidmate(&[
        "moves",
        "--variant",
        "void",
        "--moves",
        "g4 g6",
        "--square",
        "g1",
    ]);
    assert!(ok);
    let mut lines: Vec<&str> = out.lines().collect();
    lines.sort();
    assert_eq!(
        lines,
        ["Mf3", "Mg2", "Mg3", "Mh3"],
        "g2 opens the way to f3, g3, h3"
    );
}

#[test]
fn perft_prints_the_count_on_the_last_line() {
    let (ok, out, _) = voidmate(&["perft", "--variant", "standard", "--depth", "3"]);
    assert!(ok);
    assert_eq!(out.lines().last(), Some("8902"));
    let (ok, out, _) = voidmate(&["perft", "--variant", "void", "--depth", "2", "--divide"]);
    assert!(ok);
    assert_eq!(out.lines().count(), 23);
    assert_eq!(out.lines().last(), Some("484"));
    assert!(out.contains("e4: 22"), "{out}");
}

#[test]
fn fen_replays_moves_from_a_fen_with_tiles() {
    let (ok, out, _) = voidmate(&[
        "fen",
        "--variant",
        "void",
        "--fen",
        "4k4/9/9/9/p8/9/9/9/R3K4 w - - 0 1",
        "--moves",
        "1. Rxa5 Ke8 2. Kd2",
    ]);
    assert!(ok);
    assert_eq!(out.trim(), "9/4k4/9/9/9/9/9/3K5/9 b - - 0 2 void:a5");
}

#[test]
fn bad_input_is_reported_with_the_reason_and_a_failing_status() {
    let (ok, out, err) = voidmate(&["fen", "--variant", "void", "--moves", "e4 e5"]);
    assert!(!ok);
    assert!(out.is_empty());
    assert_eq!(
        err.trim(),
        "error: move 2 of --moves: e5 is illegal: no pawn of yours can move to e5"
    );
    let (ok, _, err) = voidmate(&["moves", "--variant", "xiangqi"]);
    assert!(!ok);
    assert!(
        err.contains("'xiangqi' is not a variant I know; try one of: standard, void, antichess"),
        "{err}"
    );
    let (ok, _, err) = voidmate(&[
        "perft",
        "--variant",
        "void",
        "--fen",
        "4k4/9 w",
        "--depth",
        "1",
    ]);
    assert!(!ok);
    assert!(
        err.contains("the FEN has 2 ranks, this board has 9"),
        "{err}"
    );
    let (ok, _, err) = voidmate(&["moves", "--variant", "void", "--square", "j1"]);
    assert!(!ok);
    assert!(
        err.contains("'j1' is not a square of this board (files a-i, ranks 1-9)"),
        "{err}"
    );
}

#[test]
fn render_writes_a_png_of_the_position() {
    let dir = std::env::temp_dir().join(format!("voidmate-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("board.png");
    let (ok, stdout, err) = voidmate(&[
        "render",
        "--variant",
        "void",
        "--moves",
        "g4 g6",
        "--select",
        "g1",
        "--flip",
        "--theme",
        "high-contrast",
        "--arrows",
        "g1g3,d1h5",
        "--players",
        "alice,bob",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(stdout.contains("bytes"));
    let bytes = std::fs::read(&out).unwrap();
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let reader = decoder.read_info().unwrap();
    let info = reader.info();
    assert_eq!((info.width, info.height), (632, 632 + 48));
    assert_eq!(info.color_type, png::ColorType::Indexed);

    let (ok, _, err) = voidmate(&["render", "--theme", "neon", "--out", out.to_str().unwrap()]);
    assert!(!ok);
    assert!(
        err.contains("'neon' is not a theme; use classic or high-contrast"),
        "{err}"
    );
    let (ok, _, err) = voidmate(&[
        "render",
        "--variant",
        "void",
        "--arrows",
        "e2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(
        err.contains("arrow 'e2' should be two squares, like e2e4"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn console_mode_plays_a_game_from_standard_input() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("console.db");
    let images = dir.path().join("images");
    let script = "challenge @bob void\nas bob\naccept\nas alice\ne4\ndance\nhello\nquit\n";
    let run = |script: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_voidmate"))
            .args([
                "console",
                "--db",
                db.to_str().unwrap(),
                "--images",
                images.to_str().unwrap(),
            ])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(script.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let out = run(script);
    assert!(out.contains("(now speaking as bob)"), "{out}");
    assert!(out.contains("Game #1 begins: Void Chess, alice (White) vs bob (Black), no time limit, rated (alice 1500?, bob 1500?). alice, your move."), "{out}");
    assert!(
        out.contains("#1: alice played e4. bob, your move."),
        "{out}"
    );
    assert!(
        out.contains("I do not know the command `dance`. Say `help` for the list."),
        "{out}"
    );
    assert!(
        out.contains("Hello! I run chess-variant games here."),
        "{out}"
    );
    let image_lines: Vec<&str> = out.lines().filter(|l| l.starts_with("image: ")).collect();
    assert_eq!(image_lines.len(), 2, "{out}");
    for line in image_lines {
        let path = line["image: ".len()..].split(" (").next().unwrap();
        assert!(std::fs::read(path).unwrap().starts_with(b"\x89PNG"));
    }
    // A second session on the same file continues the game.
    let out = run("as bob\ne5\nboard\n");
    assert!(
        out.contains("e5 is illegal: no pawn of yours can move to e5."),
        "{out}"
    );
    assert!(
        out.contains("#1 alice vs bob (Void Chess): bob to move."),
        "{out}"
    );
}

#[test]
fn run_without_an_enabled_adapter_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("v.toml");
    std::fs::write(
        &cfg,
        format!(
            "[database]\npath = \"{}\"\n",
            dir.path().join("v.db").display()
        ),
    )
    .unwrap();
    let (ok, _, err) = voidmate(&["run", "--config", cfg.to_str().unwrap()]);
    assert!(!ok);
    assert!(
        err.contains("no chat adapter is enabled in the configuration"),
        "{err}"
    );
    let (ok, _, err) = voidmate(&[
        "run",
        "--config",
        dir.path().join("missing.toml").to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(err.contains("cannot read the configuration"), "{err}");
}

#[test]
fn run_names_a_missing_discord_token() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("voidmate.toml");
    std::fs::write(
        &cfg,
        format!(
            "[database]\npath = \"{}\"\n[discord]\nenabled = true\ntoken_env = \"VOIDMATE_UNSET_TOKEN_FOR_TEST\"\n",
            dir.path().join("v.db").display()
        ),
    )
    .unwrap();
    let (ok, _, err) = voidmate(&["run", "--config", cfg.to_str().unwrap()]);
    assert!(!ok);
    assert!(
        err.contains("[discord] token_env names VOIDMATE_UNSET_TOKEN_FOR_TEST, which is not set"),
        "{err}"
    );
    assert!(
        !dir.path().join("v.db").exists(),
        "nothing is opened before the settings are read"
    );
}

/// A whole game of `variant` through the console: random legal moves from a
/// fixed seed until the rules engine says the game is over, typed as a
/// player would type them; the console must reach the same end.
fn console_plays_a_whole_game(variant: &str, challenge: &str) {
    console_plays_a_whole_game_with(variant, challenge, "", None)
}

/// As [`console_plays_a_whole_game`], with `setup` typed after the
/// acceptance and the game played under `programs` (White's, Black's) when
/// given. Captures are preferred, so that big boards empty out.
fn console_plays_a_whole_game_with(
    variant: &str,
    challenge: &str,
    setup: &str,
    programs: Option<(&str, &str)>,
) {
    use std::io::Write;
    use voidmate_rules::{Position, Program};
    let base = voidmate_rules::variant(variant).unwrap();
    let mut rules = voidmate_rules::SharedRules::from(base);
    if let Some((w, b)) = programs {
        let read = |t| Program::parse(base, t).unwrap();
        rules = voidmate_rules::variants::programmed(base, &read(w), &read(b)).unwrap();
    }
    let (mut pos, mut moves) = (Position::new(rules.clone()), Vec::new());
    let mut state: u64 = 0x9e3779b97f4a7c15;
    let greedy = programs.is_some() || variant == "super16";
    while pos.outcome().is_none() && moves.len() < 3000 {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mut legal = pos.legal_moves();
        if greedy {
            let captures: Vec<_> = legal
                .iter()
                .copied()
                .filter(|m| pos.piece_at(m.to).is_some())
                .collect();
            if !captures.is_empty() {
                legal = captures;
            }
        }
        let mv = legal[(state >> 33) as usize % legal.len()];
        moves.push(pos.san(&mv));
        pos.play_unchecked(&mv);
    }
    let outcome = pos.outcome().expect("the random game ends");
    let mut script = format!("{challenge}\nas bob\naccept\n{setup}");
    let mut to_move = Position::new(rules).turn();
    for san in &moves {
        let who = if to_move == voidmate_rules::Color::White {
            "alice"
        } else {
            "bob"
        };
        script.push_str(&format!("as {who}\n{san}\n"));
        to_move = !to_move;
    }
    script.push_str("history\nquit\n");
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_voidmate"))
        .args([
            "console",
            "--db",
            dir.path().join("game.db").to_str().unwrap(),
            "--images",
            dir.path().join("images").to_str().unwrap(),
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    std::thread::spawn(move || stdin.write_all(script.as_bytes()).unwrap());
    let out = child.wait_with_output().unwrap();
    let out = String::from_utf8(out.stdout).unwrap();
    assert!(!out.contains(" is illegal"), "{out}");
    let last = moves.last().unwrap();
    let end = format!("played {last}. {outcome}. Result: {}.", outcome.score());
    assert!(out.contains(&end), "no `{end}` in:\n{out}");
    // The record starts at move 1; in Suicide Void Chess with Black's
    // placement, unnumbered, before White's first move.
    let start = if variant.starts_with("suicide-void") {
        format!(": {} 1. {} ", moves[0], moves[1])
    } else {
        format!("1. {} {} ", moves[0], moves[1])
    };
    assert!(out.contains(&start), "no `{start}` in:\n{out}");
    if let Some((w, b)) = programs {
        // Neither program appears anywhere but in its owner's private answer.
        let base = voidmate_rules::variant(variant).unwrap();
        for secret in [w, b] {
            let canonical = Program::parse(base, secret).unwrap().to_string();
            let shown: Vec<&str> = out.lines().filter(|l| l.contains(&canonical)).collect();
            assert_eq!(shown.len(), 1, "{canonical}: {shown:?}");
            assert!(
                shown[0].starts_with("(privately to "),
                "{canonical} shown in public: {shown:?}"
            );
        }
    }
}

#[test]
fn console_plays_a_whole_super16_game() {
    console_plays_a_whole_game("super16", "challenge @bob super16 10+5");
}

#[test]
fn console_plays_a_whole_super16_game_with_private_programs() {
    let white = "N: jump 3,1 1,3 -3,1 -1,3; P: step 1,0 1,1 1,-1";
    let black = "Q: slide 1,1 -1,-1 1,-1 -1,1 jump 0,2 0,-2";
    console_plays_a_whole_game_with(
        "super16",
        "challenge @bob super16 private",
        &format!("as alice\ndm program #1 {white}\nas bob\ndm program {black}\n"),
        Some((white, black)),
    );
}

#[test]
fn console_plays_a_whole_suicide_void_game() {
    console_plays_a_whole_game("suicide-void", "challenge @bob suicide-void");
}

#[test]
fn console_plays_a_whole_suicide_void_game_where_promotion_wins() {
    console_plays_a_whole_game(
        "suicide-void-pw",
        "challenge @bob suicide-void promotion-wins",
    );
}

#[test]
fn console_plays_a_whole_chess99_game() {
    console_plays_a_whole_game("chess99", "challenge @bob chess99");
}

#[test]
fn console_plays_a_whole_black_holes_game() {
    console_plays_a_whole_game("black-holes", "challenge @bob black-holes");
}

#[test]
fn analyse_and_selfplay_report_in_plain_text() {
    let (ok, out, err) = voidmate(&[
        "analyse",
        "--variant",
        "standard",
        "--fen",
        "k7/8/2K5/8/8/8/8/7R w - - 0 1",
        "--depth",
        "3",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("score mate in 2"), "{out}");
    assert!(out.contains("best Kb6 (c6b6)"), "{out}");
    let (ok, _, err) = voidmate(&[
        "analyse",
        "--variant",
        "standard",
        "--moves",
        "f3 e5 g4 Qh4#",
    ]);
    assert!(
        !ok && err.contains("the game is over: Black wins: checkmate"),
        "{err}"
    );
    let (ok, out, err) = voidmate(&[
        "selfplay",
        "--variant",
        "antichess",
        "--a",
        "3",
        "--b",
        "random",
        "--games",
        "2",
        "--time-ms",
        "20",
    ]);
    assert!(ok, "{err}");
    let last = out.lines().last().unwrap();
    assert!(
        last.starts_with("antichess: 3 vs random, 2 games in"),
        "{out}"
    );
    assert_eq!(
        out.lines().filter(|l| l.starts_with("game ")).count(),
        2,
        "{out}"
    );
    let (ok, _, err) = voidmate(&["selfplay", "--variant", "void", "--a", "9", "--b", "random"]);
    assert!(
        !ok && err.contains("'9' is not a player: give a level 1-5, greedy or random"),
        "{err}"
    );
}

/// Issue 21, point 11: bad arrows and a reader that has gone get a clear
/// answer, never a panic.
#[test]
fn bad_arrows_and_a_closed_output_never_panic() {
    let dir = std::env::temp_dir().join(format!("voidmate-arrows-{}", std::process::id()));
    let out = dir.join("board.png");
    let out = out.to_str().unwrap();
    for arrows in ["e2e4,", ",e2e4", "e2e4,,g1f3", "éa,b", "e2é4", "日本"] {
        let (ok, _, err) = voidmate(&[
            "render",
            "--variant",
            "standard",
            "--arrows",
            arrows,
            "--out",
            out,
        ]);
        assert!(!ok, "{arrows}");
        assert!(err.starts_with("error: "), "{arrows}: {err}");
        assert!(!err.contains("panicked"), "{arrows}: {err}");
    }
    // `voidmate moves ... | head -0`: the reader closes before anything is
    // written.
    let mut child = Command::new(env!("CARGO_BIN_EXE_voidmate"))
        .args(["perft", "--variant", "void", "--depth", "2", "--divide"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run voidmate");
    drop(child.stdout.take());
    let status = child.wait().unwrap();
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert!(!err.contains("panicked"), "{err}");
    assert!(status.success(), "{status:?}: {err}");
}

#[test]
fn moves_read_numbers_joined_to_moves() {
    let (ok, out, err) = voidmate(&["fen", "--variant", "standard", "--moves", "1.e4 a5 2.Ke2"]);
    assert!(ok, "{err}");
    assert!(
        out.starts_with("rnbqkbnr/1ppppppp/8/p7/4P3/8/PPPPKPPP/RNBQ1BNR b kq - "),
        "{out}"
    );
}

/// Issue 49, point 1: `voidmate puzzles generate` searches the stored games
/// never searched (here a game that ended before searches were queued),
/// says its progress, finds the blunder's puzzle, and does not search a
/// game twice when run again.
#[test]
fn puzzles_generate_searches_past_games_once() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("v.db");
    said::say_lines(
        &db,
        &[
            ("alice", "challenge @bob standard"),
            ("bob", "accept"),
            ("alice", "e4"),
            ("bob", "e5"),
            ("alice", "Qh5"),
            ("bob", "Nc6"),
            ("alice", "Bc4"),
            ("bob", "Nf6"),
            ("alice", "resign"),
        ],
    );
    let path = db.to_str().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    // As if the game had ended before searches were queued.
    rt.block_on(async {
        let pool = sqlx::SqlitePool::connect(&format!("sqlite://{path}"))
            .await
            .unwrap();
        sqlx::query("DELETE FROM puzzle_searches")
            .execute(&pool)
            .await
            .unwrap();
        pool.close().await;
    });
    let config = dir.path().join("voidmate.toml");
    std::fs::write(&config, "[engine]\npuzzle_nodes = 20000\n").unwrap();
    let config = config.to_str().unwrap();
    let (ok, out, err) = voidmate(&["puzzles", "generate", "--db", path, "--config", config]);
    assert!(ok, "{err}");
    assert!(err.contains("searched 1/1 games, 1 puzzle found"), "{err}");
    assert_eq!(out, "1 game searched, 1 new puzzle found\n");
    let (ok, out, err) = voidmate(&["puzzles", "generate", "--db", path, "--config", config]);
    assert!(ok, "{err}");
    assert_eq!(
        out, "0 games searched, 0 new puzzles found\n",
        "searched once"
    );
    let (ok, out, err) = voidmate(&["check-db", "--db", path]);
    assert!(ok, "{err}");
    assert!(
        out.contains("1 puzzle checked: every solution is legal"),
        "{out}"
    );
    let (ok, _, err) = voidmate(&["puzzles", "generate", "--db", path, "--since", "yesterday"]);
    assert!(!ok);
    assert!(err.contains("`--since yesterday`?"), "{err}");
}

/// Issue 49, points 2 and 4: a puzzle solved in console mode, the same
/// words as on every platform, its board saved as an image; a `kill -9`
/// while the player solves leaves the puzzle open where it was.
#[test]
fn a_puzzle_survives_kill_9_in_console_mode() {
    use std::io::{BufRead, Write};
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("v.db");
    let path = db.to_str().unwrap();
    // The search is the tool's here, not the consoles' periodic check's.
    let config = dir.path().join("voidmate.toml");
    std::fs::write(
        &config,
        "[engine]\npuzzle_nodes = 20000\npuzzle_searches = false\n",
    )
    .unwrap();
    let images = dir.path().join("images");
    let console = || {
        let child = Command::new(env!("CARGO_BIN_EXE_voidmate"))
            .args([
                "console",
                "--db",
                path,
                "--images",
                images.to_str().unwrap(),
            ])
            .args(["--config", config.to_str().unwrap()])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // A console that never says what is awaited must not hang the test.
        let pid = child.id().to_string();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_secs(120));
            let _ = Command::new("kill").args(["-9", &pid]).status();
        });
        child
    };
    // A game in the console's community with a blunder (3...Nf6?? allows
    // Qxf7#), resigned; then searched for puzzles.
    let mut child = console();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"challenge @bob standard\nas bob\naccept\nas alice\ne4\nas bob\ne5\nas alice\nQh5\nas bob\nNc6\nas alice\nBc4\nas bob\nNf6\nas alice\nresign\nquit\n")
        .unwrap();
    assert!(child.wait().unwrap().success());
    let (ok, _, err) = voidmate(&[
        "puzzles",
        "generate",
        "--db",
        path,
        "--config",
        config.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(err.contains("1 puzzle found"), "{err}");
    // Carol opens the puzzle; the process is killed once it has answered.
    let mut child = console();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"as carol\npuzzle\n").unwrap();
    stdin.flush().unwrap();
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let shown = lines
        .by_ref()
        .map(|l| l.unwrap())
        .find(|l| l.contains("Puzzle P1"))
        .expect("the puzzle is shown");
    assert!(
        shown.contains("after Nf6, White to move: find the move that mates"),
        "{shown}"
    );
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    // A new process: the puzzle is still hers, where it was.
    let mut child = console();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"as carol\npuzzle\nQxf7#\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let out = String::from_utf8(out.stdout).unwrap();
    assert!(out.contains("You have this puzzle open here"), "{out}");
    assert!(
        out.contains("Qxf7#: solved! Your Standard chess puzzle rating 1500? -> "),
        "{out}"
    );
    let image = out
        .lines()
        .find(|l| l.starts_with("image: "))
        .expect("the board saved");
    let file = image["image: ".len()..].split(" (").next().unwrap();
    assert!(std::fs::read(file).unwrap().starts_with(b"\x89PNG"));
}

/// Issue 49, point 4: `check-db` names a puzzle whose solution is not legal
/// from its position.
#[test]
fn check_db_names_a_puzzle_whose_solution_is_not_legal() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("v.db");
    said::say_lines(
        &db,
        &[
            ("alice", "challenge @bob standard"),
            ("bob", "accept"),
            ("alice", "e4"),
            ("bob", "resign"),
        ],
    );
    let path = db.to_str().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let insert = |moves: &'static str, ply: i64| {
        rt.block_on(async {
            let pool = sqlx::SqlitePool::connect(&format!("sqlite://{path}"))
                .await
                .unwrap();
            sqlx::query(
                "INSERT INTO puzzles (game_id, ply, community, platform, variant, fen, moves, score, themes, created_ms) \
                 VALUES (1, $1, 'console', 'console', 'standard', \
                 'r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3', $2, 1000000, 'mateIn1 oneMove', 0)",
            )
            .bind(ply)
            .bind(moves)
            .execute(&pool)
            .await
            .unwrap();
            pool.close().await;
        })
    };
    insert("Nf6 Qxf7#", 6);
    let (ok, out, err) = voidmate(&["check-db", "--db", path]);
    assert!(ok, "{err}");
    assert!(
        out.contains("1 puzzle checked: every solution is legal from its position"),
        "{out}"
    );
    // A solution that does not follow: the queen cannot take on f8.
    insert("Nf6 Qxf8#", 8);
    let (ok, _, err) = voidmate(&["check-db", "--db", path]);
    assert!(!ok);
    assert!(
        err.contains("2 puzzles checked; these do not replay:"),
        "{err}"
    );
    assert!(
        err.contains("puzzle 2 (game #1, ply 8): move 2 `Qxf8#` is not legal"),
        "{err}"
    );
}

/// Issue 48, point 6: `check-db` names a tournament whose stored pairings
/// break the absolute rules or whose results do not match its games.
#[test]
fn check_db_names_a_tournament_that_breaks_the_rules() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("v.db");
    said::say_lines(
        &db,
        &[
            ("alice", "tournament create swiss standard 3d rounds 3"),
            ("bob", "tournament join"),
            ("carol", "tournament join"),
            ("dave", "tournament join"),
            ("erin", "tournament join"),
            ("alice", "tournament start"),
        ],
    );
    let path = db.to_str().unwrap();
    let (ok, out, err) = voidmate(&["check-db", "--db", path]);
    assert!(ok, "{err}");
    assert!(
        out.contains("1 tournament checked: every pairing keeps the absolute rules"),
        "{out}"
    );
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let pool = sqlx::SqlitePool::connect(&format!("sqlite://{path}"))
            .await
            .unwrap();
        // Board 2 made a rematch of board 1, and both given results their
        // games do not have.
        let (w, b): (String, String) = sqlx::query_as(
            "SELECT white, black FROM tournament_games WHERE round = 1 AND board = 1",
        )
        .fetch_one(&pool)
        .await
        .unwrap();
        sqlx::query(
            "UPDATE tournament_games SET white = $1, black = $2 WHERE round = 1 AND board = 2",
        )
        .bind(&w)
        .bind(&b)
        .execute(&pool)
        .await
        .unwrap();
        sqlx::query("UPDATE tournament_games SET outcome = '1-0' WHERE round = 1")
            .execute(&pool)
            .await
            .unwrap();
        pool.close().await;
    });
    let (ok, _, err) = voidmate(&["check-db", "--db", path]);
    assert!(!ok);
    assert!(
        err.contains("1 tournament checked; these do not hold together:"),
        "{err}"
    );
    assert!(
        err.contains("T1: round 1: ") && err.contains("meet again"),
        "{err}"
    );
    assert!(
        err.contains("does not match game #1 (still being played)"),
        "{err}"
    );
}

/// Issue 17, point 7: reads trust the stored position, so `check-db`
/// replays every game and names any whose record does not hold together;
/// issue 38, point 5: it recomputes every rating from the rated games too.
#[test]
fn check_db_replays_every_game_and_names_a_damaged_one() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("v.db");
    said::say_lines(
        &db,
        &[
            ("alice", "challenge @bob void"),
            ("bob", "accept"),
            ("alice", "e4"),
            ("bob", "e6"),
            ("carol", "challenge @dave standard"),
            ("dave", "accept"),
            ("carol", "e4"),
            ("dave", "e5"),
            ("dave", "resign"),
        ],
    );
    let rt = tokio::runtime::Runtime::new().unwrap();
    let path = db.to_str().unwrap();
    let (ok, out, err) = voidmate(&["check-db", "--db", path]);
    assert!(ok, "{err}");
    assert_eq!(
        out,
        "2 games checked: every one replays to its stored position\n\
         1 rated game recomputed, 2 ratings compared: every rating is as its games make it\n\
         0 tournaments checked: every pairing keeps the absolute rules and every result matches its game\n\
         0 puzzles checked: every solution is legal from its position\n"
    );
    rt.block_on(async {
        let pool = sqlx::SqlitePool::connect(&format!("sqlite://{path}"))
            .await
            .unwrap();
        sqlx::query("UPDATE moves SET coordinate = 'e8e7' WHERE ply = 2 AND game_id = 1")
            .execute(&pool)
            .await
            .unwrap();
        sqlx::query("UPDATE ratings SET rating = 1700 WHERE player = 'console:dave'")
            .execute(&pool)
            .await
            .unwrap();
        pool.close().await;
    });
    let (ok, _, err) = voidmate(&["check-db", "--db", path]);
    assert!(!ok);
    assert!(err.contains("game #1 in room"), "{err}");
    assert!(err.contains("does not match its moves"), "{err}");
    assert!(
        err.contains(
            "1 rated game recomputed, 2 ratings compared; 1 differs from what the games make them:"
        ),
        "{err}"
    );
    assert!(
        err.contains("console:dave's standard correspondence rating in room is 1700"),
        "{err}"
    );
    let (ok, _, err) = voidmate(&["check-db", "--db", "/nonexistent/v.db"]);
    assert!(!ok && err.contains("there is no database"), "{err}");
    // Issue 43, point 8: a file that is no database is named at once, in
    // words, without the driver's retries in the log or colour codes.
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "hello, this is not a database\n").unwrap();
    for command in ["check-db", "console"] {
        let (ok, _, err) = voidmate(&[command, "--db", text.to_str().unwrap()]);
        assert!(!ok, "{command}");
        assert!(
            err.contains("notes.txt is not an SQLite database"),
            "{command}: {err}"
        );
        assert!(
            !err.contains('\x1b') && !err.contains("sqlx"),
            "{command}: {err}"
        );
        // Issue 53: nor the driver's framing of it.
        assert!(
            !err.contains("error with configuration"),
            "{command}: {err}"
        );
    }
    // A folder is no database either.
    let (ok, _, err) = voidmate(&["check-db", "--db", dir.path().to_str().unwrap()]);
    assert!(
        !ok && err.contains("is a folder, not a database file"),
        "{err}"
    );
    assert!(!err.contains("error returned from database"), "{err}");
}

/// Issue 20, point 10: the console runs the periodic check by itself, as
/// the chat adapters do: a correspondence game is lost on time and said so
/// while nobody types.
#[test]
fn the_console_announces_a_loss_on_time_by_itself() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("voidmate.toml");
    std::fs::write(&config, "[clock]\nday_seconds = 1\n").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_voidmate"))
        .args(["console", "--config", config.to_str().unwrap()])
        .args(["--db", dir.path().join("v.db").to_str().unwrap()])
        .args(["--images", dir.path().join("img").to_str().unwrap()])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("run voidmate");
    let mut stdin = child.stdin.take().unwrap();
    // One "day" (a second here) per move: alice never moves.
    stdin
        .write_all(b"challenge @bob standard 1d\nas bob\naccept\n")
        .unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(std::time::Duration::from_secs(4));
    stdin.write_all(b"quit\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("alice did not move in time. bob wins on time"),
        "{text}"
    );
}

#[test]
fn tuning_from_the_command_line_writes_data_then_weights() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("standard.txt");
    let data_s = data.to_str().unwrap();
    // Four short games, one at a time, into `out`.
    let play = |out: &str| {
        voidmate(&[
            "tune-data",
            "--variant",
            "chess",
            "--games",
            "4",
            "--nodes",
            "300",
            "--threads",
            "1",
            "--out",
            out,
        ])
    };
    let (ok, out, err) = play(data_s);
    assert!(ok, "{err}");
    assert!(out.starts_with("standard: 4 games"), "{out}");
    let text = std::fs::read_to_string(&data).unwrap();
    let mut lines = text.lines();
    assert!(lines
        .next()
        .unwrap()
        .contains("tune-data --variant standard --eval tuned --games 4 --nodes 300"));
    let positions: Vec<&str> = lines.collect();
    assert!(!positions.is_empty());
    for line in &positions {
        let (result, rest) = line.split_once(' ').unwrap();
        assert!(["1", "0.5", "0"].contains(&result), "{line}");
        // The FEN, then the search's score for White.
        let (fen, score) = rest.split_once(" ; ").expect(line);
        assert_eq!(fen.split(' ').count(), 6, "{line}");
        let score: i32 = score.parse().expect(line);
        assert!(score.abs() <= 3000, "{line}");
    }
    // The same command gives the same games.
    let again = dir.path().join("again.txt");
    let (ok, _, _) = play(again.to_str().unwrap());
    assert!(ok);
    assert_eq!(std::fs::read_to_string(&again).unwrap(), text);

    // Games stopped at the ply limit have no result: left out, unless kept
    // as draws on request.
    let short = dir.path().join("short.txt");
    let stop_early = |keep: bool| {
        let mut args = vec![
            "tune-data",
            "--variant",
            "void",
            "--games",
            "3",
            "--nodes",
            "200",
            "--max-plies",
            "6",
            "--threads",
            "1",
            "--out",
            short.to_str().unwrap(),
        ];
        if keep {
            args.push("--keep-unfinished");
        }
        let (ok, out, err) = voidmate(&args);
        assert!(ok, "{err}");
        let text = std::fs::read_to_string(&short).unwrap();
        (
            out,
            text.lines().skip(1).map(str::to_string).collect::<Vec<_>>(),
        )
    };
    let (out, positions) = stop_early(false);
    assert!(
        out.contains("(White +0 =0 -0, 3 stopped unfinished at 6 plies and left out), 0 positions"),
        "{out}"
    );
    assert!(positions.is_empty(), "{positions:?}");
    let (out, positions) = stop_early(true);
    assert!(out.contains("(White +0 =3 -0), "), "{out}");
    assert!(!positions.is_empty());
    assert!(
        positions.iter().all(|l| l.starts_with("0.5 ")),
        "{positions:?}"
    );

    // `voidmate tune` on the data, 100 passes, with `extra` arguments.
    let tune = |extra: &[&str]| {
        let mut args = vec![
            "tune",
            "--variant",
            "standard",
            "--data",
            data_s,
            "--iterations",
            "100",
        ];
        args.extend_from_slice(extra);
        voidmate(&args)
    };
    let weights = dir.path().join("weights.rs");
    let (ok, out, err) = tune(&["--write", weights.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(
        out.contains("positions, k ") && out.contains("written to"),
        "{out}"
    );
    let written = std::fs::read_to_string(&weights).unwrap();
    assert!(
        written.contains("Some(GameKind::Standard) => STANDARD,"),
        "{written}"
    );

    // Part of the evaluation held: a group and a term by name, reported
    // held and left out of the weights that moved.
    let (ok, out, err) = tune(&["--hold", "material.", "--hold", "tempo"]);
    assert!(ok, "{err}");
    assert!(
        out.contains("held at their starting weights (--hold): material.pawn, material.knight"),
        "{out}"
    );
    assert!(out.lines().any(|l| l.starts_with("  mobility.")), "{out}");
    assert!(
        !out.lines()
            .any(|l| l.starts_with("  material.") || l.starts_with("  tempo ")),
        "{out}"
    );
    let (ok, _, err) = tune(&["--hold", "material"]);
    assert!(
        !ok && err.contains("--hold material: no such term or group (groups: bishop. centre. "),
        "{err}"
    );
    assert!(
        !err.contains("tempo."),
        "tempo is a term, not a group: {err}"
    );

    // The targets blended with the search's scores, which the data holds.
    let (ok, out, err) = tune(&["--lambda", "0.25"]);
    assert!(ok, "{err}");
    assert!(
        out.contains("targets: 0.25 result, 0.75 search score (scores read with k "),
        "{out}"
    );
    let (ok, _, err) = tune(&["--lambda", "1.5"]);
    assert!(
        !ok && err.contains("--lambda 1.5: the result's share of the target is from 0 to 1"),
        "{err}"
    );

    // Bad input: a game that does not exist, a line that is not a position.
    let (ok, _, err) = voidmate(&["tune", "--variant", "chess3000", "--data", data_s]);
    assert!(!ok && err.contains("'chess3000' is not a game"), "{err}");
    let broken = dir.path().join("broken.txt");
    // Tunes standard chess on `text` as a data file.
    let tune_on = |text: &str| {
        std::fs::write(&broken, text).unwrap();
        voidmate(&[
            "tune",
            "--variant",
            "standard",
            "--data",
            broken.to_str().unwrap(),
        ])
    };
    let (ok, _, err) = tune_on("1 rnbqkbnr/pppppppp/8/8 w\n");
    assert!(!ok && err.contains("broken.txt line 1"), "{err}");
    let (ok, _, err) = tune_on("win rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n");
    assert!(!ok && err.contains("'win' is not a result"), "{err}");
    let (ok, _, err) =
        tune_on("1 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ; +lots\n");
    assert!(
        !ok && err.contains("broken.txt line 1: '+lots' is not a score in centipawns"),
        "{err}"
    );
    // Lines written before scores were: still read, as results.
    let (ok, out, err) = tune_on("1 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n");
    assert!(ok && out.contains("standard: 1 positions"), "{out}{err}");
    let (ok, out, err) = voidmate(&[
        "tune",
        "--variant",
        "standard",
        "--data",
        broken.to_str().unwrap(),
        "--lambda",
        "0.5",
    ]);
    assert!(
        ok && out.contains("targets: results only (no position in the data has a search score)"),
        "{out}{err}"
    );
}

#[test]
fn engine_match_takes_evaluations_levels_and_an_sprt() {
    let (ok, out, err) = voidmate(&[
        "engine-match",
        "--variant",
        "standard",
        "--a-level",
        "3",
        "--b-level",
        "1",
        "--games",
        "4",
        "--nodes",
        "100000",
        "--sprt",
        "0,100",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("all/level 3 vs none/level 1"), "{out}");
    assert!(out.contains("SPRT [0, 100]: "), "{out}");
    let (ok, _, err) = voidmate(&["engine-match", "--b-eval", "magic", "--games", "2"]);
    assert!(!ok && err.contains("'magic' is not an evaluation"), "{err}");
    let (ok, _, err) = voidmate(&["engine-match", "--a-level", "9", "--games", "2"]);
    assert!(!ok && err.contains("'9' is not a level"), "{err}");
    let (ok, _, err) = voidmate(&["engine-match", "--sprt", "10,0", "--games", "2"]);
    assert!(!ok && err.contains("below the second"), "{err}");

    // A side against itself at another time a move.
    let (ok, out, err) = voidmate(&[
        "engine-match",
        "--b",
        "all",
        "--time-ms",
        "20",
        "--b-time-ms",
        "5",
        "--games",
        "2",
        "--max-plies",
        "6",
    ]);
    assert!(ok, "{err}");
    assert!(
        out.contains("all vs all, 20 ms (b 5 ms) a move, 2 games"),
        "{out}"
    );
    let (ok, _, err) = voidmate(&["engine-match", "--b-time-ms", "5", "--games", "2"]);
    assert!(
        !ok && err.contains("--time-ms"),
        "b's time needs a's: {err}"
    );
}

/// Issue 43, point 6: the tools' help names every game.
#[test]
fn the_tools_help_names_every_game() {
    for tool in ["analyse", "moves", "render"] {
        let (ok, out, err) = voidmate(&[tool, "--help"]);
        assert!(ok, "{tool}: {err}");
        for kind in voidmate_rules::GameKind::ALL {
            assert!(
                out.contains(kind.name()),
                "{tool} --help lacks {}: {out}",
                kind.name()
            );
        }
    }
}

/// Issue 50: games defined in a file, from the command line. The shipped
/// fairy games need no file (`perft --variant capablanca` from a fresh
/// checkout, Fairy-Stockfish's count); a file of one's own is checked with
/// every error named by file, line and field, shown as read, and played by
/// `perft --variants-file`; a bad file fails the command, saying why.
#[test]
fn variants_files_are_checked_shown_and_played_from_the_command_line() {
    let (ok, out, err) = voidmate(&[
        "perft",
        "--variant",
        "capablanca",
        "--moves",
        "e4 e5",
        "--depth",
        "2",
    ]);
    assert!(ok, "{err}");
    let (_, direct, _) = voidmate(&["perft", "--variant", "capablanca", "--depth", "4"]);
    assert_eq!(
        direct.lines().last(),
        Some("805128"),
        "Fairy-Stockfish's count"
    );
    assert!(out.lines().last().unwrap().parse::<u64>().unwrap() > 0);

    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("mine.toml");
    std::fs::write(
        &good,
        "[wazir-chess]\ninherits = \"standard\"\ntitle = \"Wazir Chess\"\nstart = \"rwbqkbwr/pppppppp/8/8/8/8/PPPPPPPP/RWBQKBWR w KQkq - 0 1\"\n\n[wazir-chess.pieces]\nN = false\nW = { moves = \"W\", name = \"wazir\" }\n",
    )
    .unwrap();
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "[tiny]\ntitle = \"Tiny\"\nboard = \"17x5\"\n").unwrap();
    let (ok, out, _) = voidmate(&["variants", "check", good.to_str().unwrap()]);
    assert!(ok);
    assert!(out.contains("ok: wazir-chess (Wazir Chess)"), "{out}");
    let (ok, _, err) = voidmate(&[
        "variants",
        "check",
        good.to_str().unwrap(),
        bad.to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(err.contains("bad.toml:3: tiny.board: `17x5`"), "{err}");
    assert!(err.contains("1 of 2 files refused"), "{err}");
    let file = good.to_str().unwrap();
    let (ok, out, err) = voidmate(&["variants", "show", "wazir-chess", "--variants-file", file]);
    assert!(ok, "{err}");
    assert!(out.contains("W  wazir: W"), "{out}");
    assert!(
        out.contains("castling: on rank 1, king from e to g (rook h to f) or c (rook a to d)"),
        "{out}"
    );
    let (ok, out, err) = voidmate(&[
        "perft",
        "--variant",
        "wazir-chess",
        "--variants-file",
        file,
        "--depth",
        "1",
    ]);
    assert!(ok, "{err}");
    assert_eq!(out.lines().last(), Some("16"));
    let (ok, _, err) = voidmate(&[
        "perft",
        "--variant",
        "tiny",
        "--variants-file",
        bad.to_str().unwrap(),
        "--depth",
        "1",
    ]);
    assert!(!ok && err.contains("from 5x5 to 16x16"), "{err}");
    let (ok, out, _) = voidmate(&["variants", "list"]);
    assert!(
        ok && out.contains("courier  Courier Chess (variants/courier.toml)"),
        "{out}"
    );
}

#[test]
fn console_plays_a_whole_capablanca_game() {
    console_plays_a_whole_game("capablanca", "challenge @bob capablanca");
}

/// Issue 50: a game read from a file is challenged, explained and played
/// like a built-in one; a game in progress keeps the definition it started
/// with when its file changes and when it is gone (stored with the game),
/// while new games take the file as it is now; `check-db` replays it.
#[test]
fn a_game_from_a_file_keeps_its_rules_when_the_file_changes_or_goes() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let file = dir.path().join("mine.toml");
    let config = dir.path().join("voidmate.toml");
    std::fs::write(
        &config,
        format!("[variants]\npaths = [{:?}]\n", file.to_str().unwrap()),
    )
    .unwrap();
    // The piece on b1 and b8 leaps as a knight at first, steps as a ferz
    // after the file changes.
    let define = |moves: &str| {
        std::fs::write(
            &file,
            format!("[leaper-chess]\ninherits = \"standard\"\ntitle = \"Leaper Chess\"\ndescription = \"Chess with a leaper for the queen's knight.\"\nstart = \"rlbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RLBQKBNR w KQkq - 0 1\"\n\n[leaper-chess.pieces]\nL = {{ moves = \"{moves}\", name = \"leaper\" }}\n"),
        )
        .unwrap();
    };
    let run = |script: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_voidmate"))
            .args([
                "console",
                "--config",
                config.to_str().unwrap(),
                "--db",
                db.to_str().unwrap(),
                "--images",
                dir.path().join("images").to_str().unwrap(),
            ])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(script.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success());
        (
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    define("N");
    let (out, _) = run(
        "variants\nrules leaper-chess\nrules leaper-chess leaper\nchallenge @bob leaper-chess\nas bob\naccept\nas alice\nLa3\nquit\n",
    );
    assert!(
        out.contains("leaper-chess* (Leaper Chess, 8x8 board)"),
        "{out}"
    );
    assert!(out.contains("* defined in a variants file"), "{out}");
    assert!(
        out.contains("Leaper Chess (8x8): Chess with a leaper for the queen's knight."),
        "{out}"
    );
    assert!(
        out.contains("leaper (L) in Leaper Chess: two squares one way and one the other, jumping, as a knight."),
        "{out}"
    );
    assert!(out.contains("Game #1 begins: Leaper Chess"), "{out}");
    assert!(
        out.contains("#1: alice played La3. bob, your move."),
        "{out}"
    );

    // The file changes: the leaper steps as a ferz now. Game #1 goes on
    // under its own rules (bob's leaper still leaps); a new game takes the
    // file as it is.
    define("F");
    let (out, err) = run(
        "as bob\nLa6\nas carol\nchallenge @dave leaper-chess\nas dave\naccept\nas carol\nLa3\nquit\n",
    );
    assert!(out.contains("#1: bob played La6."), "{out}\n{err}");
    assert!(out.contains("La3 is illegal"), "{out}");

    // The file goes: the bot starts without it, says so, and game #1 still
    // plays by the rules it started with.
    std::fs::remove_file(&file).unwrap();
    let (out, err) = run("as alice\nLb5\nvariants\nquit\n");
    assert!(out.contains("#1: alice played Lb5."), "{out}\n{err}");
    assert!(!out.contains("leaper-chess*"), "{out}");
    assert!(
        err.contains("variants file") && err.contains("refused"),
        "{err}"
    );
    let (ok, out, err) = voidmate(&["check-db", "--db", db.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(out.contains("2 games checked: every one replays"), "{out}");
}

/// `tune-reach` scores each odds behind a defined game's piece values on
/// self-play positions and names the best, with the values it gives; it
/// refuses one of our own games and a malformed pair.
#[test]
fn the_odds_behind_defined_piece_values_are_tuned_on_self_play() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("shatranj.txt");
    let (ok, _, err) = voidmate(&[
        "tune-data",
        "--variant",
        "shatranj",
        "--games",
        "6",
        "--nodes",
        "300",
        "--threads",
        "1",
        "--out",
        data.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let pair = format!("shatranj={}", data.display());
    let (ok, out, err) = voidmate(&[
        "tune-reach",
        "--data",
        &pair,
        "--from",
        "0.1",
        "--to",
        "0.5",
        "--step",
        "0.1",
    ]);
    assert!(ok, "{err}");
    let rows: Vec<(f64, f64)> = out
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("best"))
        .map(|l| {
            let (a, b) = l.split_once(' ').unwrap();
            (a.parse().unwrap(), b.parse().unwrap())
        })
        .collect();
    assert_eq!(rows.len(), 5, "{out}");
    let least = rows
        .iter()
        .copied()
        .fold((0.0, f64::MAX), |m, r| if r.1 < m.1 { r } else { m });
    assert!(
        out.contains(&format!("best: {:.3} (error {:.6}", least.0, least.1)),
        "{out}"
    );
    // The values at the best odds: the ferz and alfil below the knight.
    let values = out
        .lines()
        .find(|l| l.trim_start().starts_with("shatranj:"))
        .expect(&out);
    assert!(
        values.contains("P 100") && values.contains("K 0"),
        "{values}"
    );

    let standard = format!("standard={}", data.display());
    let (ok, _, err) = voidmate(&["tune-reach", "--data", &standard]);
    assert!(!ok && err.contains("one of our own games"), "{err}");
    let (ok, _, err) = voidmate(&["tune-reach", "--data", "shatranj"]);
    assert!(!ok && err.contains("GAME=FILE"), "{err}");
}
