//! `voidmate engine-match` with UCI programs as its sides (what
//! `scripts/versus.sh` runs against the engine at another commit), and on
//! a clock, run as a user would run it.

// The shared helpers; this file uses only `voidmate`.
#[path = "said/mod.rs"]
#[allow(dead_code)]
mod said;

use said::voidmate;

/// The numbers of a result line's `+W =D -L`.
fn record(out: &str) -> (u32, u32, u32) {
    let line = out.lines().next().unwrap();
    let at = line.find(": +").expect("a result") + 2;
    let mut parts = line[at..].split_whitespace().take(3);
    let mut n = |sign: char| -> u32 {
        parts
            .next()
            .unwrap()
            .trim_start_matches(sign)
            .trim_end_matches(',')
            .parse()
            .unwrap()
    };
    (n('+'), n('='), n('-'))
}

#[test]
fn two_uci_programs_play_from_the_stored_openings_with_colours_swapped() {
    let me = env!("CARGO_BIN_EXE_voidmate");
    let uci = format!("{me} uci");
    let openings = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../engine/tests/data/openings/void.txt"
    );
    let (ok, out, err) = voidmate(&[
        "engine-match",
        "--variant",
        "void",
        "--a-uci",
        &uci,
        "--b-uci",
        &uci,
        "--openings",
        openings,
        "--nodes",
        "300",
        "--games",
        "4",
        "--max-plies",
        "40",
        "--threads",
        "2",
    ]);
    assert!(ok, "{err}");
    // A progress line a game on standard error, and nothing else there.
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 4, "{err}");
    assert!(
        lines.iter().all(|l| l.starts_with("after ")),
        "no game ended by a fault: {err}"
    );
    assert!(lines[3].starts_with("after 4 games: +"), "{err}");
    let (w, d, l) = record(&out);
    assert_eq!(w + d + l, 4, "{out}");
    assert!(
        out.contains(&format!("uci '{me} uci' vs uci '{me} uci'")),
        "{out}"
    );
}

#[test]
fn a_broken_uci_program_loses_its_games_and_is_named() {
    let (ok, out, err) = voidmate(&[
        "engine-match",
        "--variant",
        "standard",
        "--b-uci",
        "true",
        "--nodes",
        "200",
        "--games",
        "2",
        "--threads",
        "1",
    ]);
    assert!(ok, "{err}");
    assert!(err.contains("b did not start"), "{err}");
    assert!(out.contains("2 games ended by a fault"), "{out}");
}

#[test]
fn on_a_clock_the_match_reports_each_sides_time() {
    // A fast clock: 3 s and 50 ms a move, short games. The report names each
    // side's losses on time, its lowest clock and its time a move.
    let (ok, out, err) = voidmate(&[
        "engine-match",
        "--variant",
        "standard",
        "--a",
        "all",
        "--b",
        "all",
        "--clock",
        "3+0.05",
        "--games",
        "2",
        "--max-plies",
        "60",
        "--threads",
        "1",
    ]);
    assert!(ok, "{err}");
    let a = out.lines().find(|l| l.starts_with("a: ")).expect(&out);
    let b = out.lines().find(|l| l.starts_with("b: ")).expect(&out);
    // Whether a side lost on time is not asserted (it depends on the
    // machine's load); the report's shape is.
    for side in [a, b] {
        assert!(side.contains(" lost on time; "), "{side}");
        assert!(
            side.contains("lowest clock with more than 10 moves to go"),
            "{side}"
        );
    }
    let (ok, _, err) = voidmate(&["engine-match", "--clock", "2", "--games", "2"]);
    assert!(!ok && err.contains("not a clock like 60+0"), "{err}");
}

#[test]
fn a_bad_openings_file_is_refused_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.txt");
    std::fs::write(
        &path,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nzz\n",
    )
    .unwrap();
    let (ok, out, err) = voidmate(&[
        "engine-match",
        "--openings",
        path.to_str().unwrap(),
        "--games",
        "2",
    ]);
    assert!(!ok, "{out}");
    assert!(err.contains("line 2"), "{err}");
}

/// The same engine on both sides at a fixed number of nodes plays each
/// opening's second game as the mirror of its first: the arbiter favours
/// neither seat, so the score is exactly half, in process and over UCI.
#[test]
fn identical_engines_at_fixed_nodes_score_exactly_half() {
    let me = env!("CARGO_BIN_EXE_voidmate");
    let uci = format!("{me} uci");
    let openings = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../engine/tests/data/openings/standard.txt"
    );
    for sides in [
        vec!["--a", "all", "--b", "all"],
        vec!["--a-uci", uci.as_str(), "--b-uci", uci.as_str()],
    ] {
        let mut args = vec![
            "engine-match",
            "--variant",
            "standard",
            "--openings",
            openings,
            "--nodes",
            "400",
            "--games",
            "8",
            "--max-plies",
            "80",
            "--threads",
            "2",
        ];
        args.extend(sides);
        let (ok, out, err) = voidmate(&args);
        assert!(ok, "{err}");
        let (w, d, l) = record(&out);
        assert_eq!((w + d + l, w), (8, l), "{out}");
        assert!(out.contains("score 50.0%"), "{out}");
    }
}
