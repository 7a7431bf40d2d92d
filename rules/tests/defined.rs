//! Issue 50: games defined in a file.
//!
//! The fairy games we ship count the same perft as Fairy-Stockfish 11.1
//! (`tests/data/fsf/<game>.perft`, recorded from it by
//! `scripts/fsf-perft.py`; where the binary is installed a live check asks
//! it about more positions too); orthodox chess written as a file counts as
//! the built-in game does; every error in a file is named with its file,
//! line and field; and random definitions never panic.

mod perft_file;

use voidmate_rules::defined::{self, DefinitionError};
use voidmate_rules::{variants, Position, Rules};

/// The shipped fairy games, as Fairy-Stockfish names them.
const FAIRY: [&str; 10] = [
    "capablanca",
    "gothic",
    "embassy",
    "chancellor",
    "knightmate",
    "shatranj",
    "courier",
    "makruk",
    "grand",
    "shako",
];

fn check_perft(rules: &'static Rules, path: &str) {
    let cases = perft_file::read(path);
    assert!(cases.len() >= 3, "{path}: the start and two middlegames");
    for (fen, counts) in cases {
        let pos = Position::from_fen(rules, &fen)
            .unwrap_or_else(|e| panic!("{}: {fen}: {e}", rules.name()));
        for (depth, want) in counts {
            assert_eq!(
                pos.perft(depth),
                want,
                "{} {fen} depth {depth}",
                rules.name()
            );
        }
    }
}

#[test]
fn every_shipped_fairy_game_counts_as_fairy_stockfish_does() {
    for name in FAIRY {
        let rules = variants::by_name(name).unwrap_or_else(|| panic!("{name} is shipped"));
        assert_eq!(rules.name(), name);
        assert!(rules.kind().is_none(), "{name} is a defined game");
        let path = format!("{}/tests/data/fsf/{name}.perft", env!("CARGO_MANIFEST_DIR"));
        check_perft(rules, &path);
    }
}

/// Orthodox chess, read from its file, counts every line of the built-in
/// game's perft file (published numbers) to depth 4.
#[test]
fn standard_chess_from_its_file_counts_as_the_built_in_game() {
    let twin = defined::twin("standard").expect("standard.toml is shipped");
    assert!(defined::spec_of(twin).is_some());
    let path = format!("{}/tests/data/standard.perft", env!("CARGO_MANIFEST_DIR"));
    for (fen, counts) in perft_file::read(&path) {
        let ours = Position::from_fen(twin, &fen).unwrap();
        let built_in = Position::from_fen(variants::standard(), &fen).unwrap();
        for (depth, want) in counts.into_iter().filter(|(d, _)| *d <= 4) {
            assert_eq!(ours.perft(depth), want, "{fen} depth {depth}");
            assert_eq!(built_in.perft(depth), want, "{fen} depth {depth}");
        }
    }
}

/// The live check: Fairy-Stockfish counts positions reached by our own
/// random moves in each game, to depth 2, as we do.
#[test]
#[cfg_attr(
    not(voidmate_fairy_stockfish),
    ignore = "Fairy-Stockfish is not installed: `apt-get install fairy-stockfish` (or `scripts/test.sh`) runs this"
)]
fn fairy_stockfish_agrees_on_positions_it_has_not_seen() {
    use std::io::Write;
    for name in FAIRY {
        let rules = variants::by_name(name).unwrap();
        let mut pos = Position::new(rules);
        let mut seed = 0x9e37_79b9_7f4a_7c15u64 ^ name.len() as u64;
        let mut fens = Vec::new();
        for ply in 0..24 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let mv = moves[(seed >> 33) as usize % moves.len()];
            pos.play(&mv).unwrap();
            if ply % 8 == 7 {
                fens.push(pos.fen());
            }
        }
        for fen in fens {
            let script = format!(
                "uci\nsetoption name UCI_Variant value {name}\nposition fen {fen}\ngo perft 2\nquit\n"
            );
            let mut child = std::process::Command::new("/usr/games/fairy-stockfish")
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .spawn()
                .expect("fairy-stockfish runs");
            child
                .stdin
                .take()
                .unwrap()
                .write_all(script.as_bytes())
                .unwrap();
            let out = String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap();
            let theirs: u64 = out
                .lines()
                .find_map(|l| l.strip_prefix("Nodes searched:"))
                .unwrap_or_else(|| panic!("{name}: no count for {fen}:\n{out}"))
                .trim()
                .parse()
                .unwrap();
            let ours = Position::from_fen(rules, &fen).unwrap().perft(2);
            assert_eq!(ours, theirs, "{name} {fen}");
        }
    }
}

/// Each of our games written as a file (`variants/<game>.toml`: data, with
/// a named hook for what the format cannot say) has the built-in game's
/// board, start, pieces, promotion and castling, counts every line of the
/// built-in game's perft file to depth 4, and counts as the built-in game
/// from its start to depth 4.
#[test]
fn our_games_from_their_files_count_as_the_built_in_games() {
    use voidmate_rules::GameKind;
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    for kind in GameKind::ALL {
        let built_in = kind.rules();
        let twin = defined::twin(kind.name())
            .unwrap_or_else(|| panic!("variants/ has no file for {kind}"));
        let spec = defined::spec_of(twin).unwrap();
        assert_eq!(
            spec.hook.is_some(),
            defined::HOOKS.contains(&kind),
            "{kind}"
        );
        let (a, b) = (built_in.definition(), twin.definition());
        assert_eq!(a.size, b.size, "{kind}");
        assert_eq!(a.start_fen, b.start_fen, "{kind}");
        assert_eq!(a.promotion, b.promotion, "{kind}");
        assert_eq!(a.castling, b.castling, "{kind}");
        assert_eq!(a.royal, b.royal, "{kind}");
        let roster = |d: &voidmate_rules::variant::Definition| {
            let mut r: Vec<_> = d.roster.iter().map(|r| (r.letter, r.role)).collect();
            r.sort();
            r
        };
        assert_eq!(roster(a), roster(b), "{kind}");
        for rd in &a.roster {
            let theirs = b.roster.iter().find(|r| r.role == rd.role).unwrap();
            assert_eq!(
                (rd.movement.crosses_void, rd.movement.heals),
                (theirs.movement.crosses_void, theirs.movement.heals),
                "{kind} {:?}",
                rd.role
            );
        }
        for (fen, counts) in perft_file::read(&format!("{dir}/{}.perft", kind.name())) {
            let ours = Position::from_fen(twin, &fen).unwrap();
            for (depth, want) in counts.into_iter().filter(|(d, _)| *d <= 4) {
                assert_eq!(ours.perft(depth), want, "{kind} {fen} depth {depth}");
            }
        }
        let depth = 4;
        assert_eq!(
            Position::new(twin).perft(depth),
            Position::new(built_in).perft(depth),
            "{kind} from its start, depth {depth}"
        );
    }
}

/// The test game of hoppers and one-way pieces (`tests/data/fsf/hoppers.toml`,
/// and the same game for Fairy-Stockfish in `hoppers.ini`).
fn hoppers() -> &'static Rules {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/fsf");
    let text = std::fs::read_to_string(format!("{dir}/hoppers.toml")).unwrap();
    defined::load("hoppers.toml", &text).unwrap()[0]
}

/// Cannons (`pR`, `pB`, the xiangqi cannon `mRcpR`), the grasshopper
/// (`gQ`), a piece that moves as a knight and captures as a king (`mNcK`)
/// and one that moves forward, captures diagonally forward and steps back
/// (`mfWcfFbW`) count as Fairy-Stockfish counts them (recorded through
/// pyffish by `scripts/pyffish.sh record`).
#[test]
fn hoppers_and_one_way_pieces_count_as_fairy_stockfish_does() {
    let path = format!(
        "{}/tests/data/fsf/hoppers.perft",
        env!("CARGO_MANIFEST_DIR")
    );
    check_perft(hoppers(), &path);
}

/// Positions the recording never saw, counted by pyffish now: checks
/// given through a screen, and screens that move away.
#[test]
#[cfg_attr(
    not(voidmate_pyffish),
    ignore = "pyffish is not installed: `scripts/pyffish.sh install` (or `scripts/test.sh`) runs this"
)]
fn pyffish_agrees_on_hopper_positions_it_has_not_seen() {
    use std::io::Write;
    let rules = hoppers();
    let mut fens = Vec::new();
    for game in 0..4u64 {
        let mut pos = Position::new(rules);
        let mut seed = 0x2545_f491_4f6c_dd1du64 ^ game;
        for ply in 0..40 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            // Captures first, half the time: hoppers need pieces to hop.
            let captures: Vec<_> = moves
                .iter()
                .filter(|m| pos.board().piece_at(m.to).is_some())
                .copied()
                .collect();
            let pool = if seed & 1 == 0 && !captures.is_empty() {
                &captures[..]
            } else {
                &moves[..]
            };
            let mv = pool[(seed >> 33) as usize % pool.len()];
            pos.play(&mv).unwrap();
            if ply % 6 == 5 && pos.outcome().is_none() {
                fens.push(pos.fen());
            }
        }
    }
    assert!(fens.len() >= 12, "{fens:?}");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/pyffish.sh");
    let ini = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/fsf/hoppers.ini");
    let mut child = std::process::Command::new("bash")
        .args([script, "count", ini, "hoppers", "2"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("pyffish runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(fens.join("\n").as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "pyffish failed");
    let theirs: Vec<u64> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.trim().parse().unwrap())
        .collect();
    assert_eq!(theirs.len(), fens.len());
    for (fen, want) in fens.iter().zip(theirs) {
        let ours = Position::from_fen(rules, fen).unwrap().perft(2);
        assert_eq!(ours, want, "{fen}");
    }
}

fn errors(file: &str, text: &str) -> Vec<DefinitionError> {
    defined::read(file, text, &|_| None).expect_err(text)
}

#[test]
fn every_error_names_its_file_line_and_field() {
    let good = "[tiny]\ntitle = \"Tiny\"\nboard = \"5x5\"\nstart = \"rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1\"\n\n[tiny.pieces]\nP = \"pawn\"\nN = \"N\"\nB = \"B\"\nR = \"R\"\nQ = \"Q\"\nK = \"king\"\n";
    let specs = defined::read("tiny.toml", good, &|_| None).unwrap();
    assert_eq!(specs.len(), 1);
    assert_eq!(specs[0].files, 5);
    // (file text, line, field, words of the message)
    let cases: Vec<(String, usize, &str, &str)> = vec![
        (
            good.replace("title = \"Tiny\"", "title = \"Tiny\"\ncolour = 3"),
            3,
            "tiny.colour",
            "unknown field",
        ),
        (
            good.replace("board = \"5x5\"", "board = \"17x8\""),
            3,
            "tiny.board",
            "from 5x5 to 16x16",
        ),
        (
            good.replace("rnbqk/ppppp/5/PPPPP/RNBQK", "rnbqk/ppppp/6/PPPPP/RNBQK"),
            4,
            "tiny.start",
            "no start for this game",
        ),
        (
            good.replace("N = \"N\"", "N = \"iW\""),
            8,
            "tiny.pieces.N",
            "initial",
        ),
        (
            good.replace("N = \"N\"", "N = \"\""),
            8,
            "tiny.pieces.N",
            "no moves",
        ),
        (
            good.replace("K = \"king\"", "K = \"K\""),
            6,
            "tiny.pieces",
            "no royal piece",
        ),
        (
            good.replace("N = \"N\"", "n = \"N\""),
            8,
            "tiny.pieces.n",
            "one upper-case letter",
        ),
        (
            good.replace(
                "title = \"Tiny\"",
                "title = \"Tiny\"\ninherits = \"nothing\"",
            ),
            3,
            "tiny.inherits",
            "no game `nothing`",
        ),
        (
            good.replace("title = \"Tiny\"", "title = \"Tiny\"\ncastling = true\n")
                .replace("R = \"R\"\n", ""),
            3,
            "tiny.castling",
            "needs a rook",
        ),
        (
            good.replace("title = \"Tiny\"", "title = \"Tiny\"\npromotion = \"K\""),
            3,
            "tiny.promotion",
            "`K` is not a piece",
        ),
        (
            good.replace("[tiny]", "[standard]")
                .replace("[tiny.pieces]", "[standard.pieces]"),
            1,
            "standard",
            "built-in game",
        ),
        (
            good.replace("title = \"Tiny\"", "title = \"Tiny\"\nmove_rule = -1"),
            3,
            "tiny.move_rule",
            "0 to 1000",
        ),
        (
            good.replace(
                "title = \"Tiny\"",
                "title = \"Tiny\"\nstalemate = \"maybe\"",
            ),
            3,
            "tiny.stalemate",
            "\"draw\", \"loss\" or \"win\"",
        ),
        (
            good.replace("K = \"king\"", "K = \"king\"\nX = \"king\""),
            6,
            "tiny.pieces",
            "one royal piece only",
        ),
        (
            good.replace("title = \"Tiny\"", "title = Tiny"),
            2,
            "file",
            "not TOML",
        ),
        (
            good.replace("title = \"Tiny\"", "title = \"Tiny\"\nrules = \"atomic\""),
            3,
            "tiny.rules",
            "no hook `atomic`; the hooks: void, suicide-void",
        ),
        (
            good.replace("title = \"Tiny\"", "title = \"Tiny\"\nrules = \"void\""),
            4,
            "tiny.board",
            "the hook `void` plays on 9x9 only",
        ),
        (
            good.replace(
                "title = \"Tiny\"",
                "title = \"Tiny\"\nrules = \"void\"\nmove_rule = 10",
            ),
            4,
            "tiny.move_rule",
            "the hook `void` decides this",
        ),
        (
            "[bh]\ntitle = \"B\"\nrules = \"black-holes\"\nboard = \"5x8\"\nstart = \"rnbqk/ppppp/5/5/5/5/PPPPP/RNBQK w - - 0 1\"\n[bh.pieces]\nP = \"pawn\"\nZ = \"N\"\n".to_string(),
            8,
            "bh.pieces.Z",
            "knows the pieces",
        ),
        (
            good.replace("N = \"N\"", "N = { leaps = [\"0,0\"] }"),
            8,
            "tiny.pieces.N.leaps",
            "not both 0",
        ),
        (
            good.replace("N = \"N\"", "N = { paths = [\"K K K\"] }"),
            8,
            "tiny.pieces.N.paths",
            "too many paths",
        ),
        (
            good.replace("N = \"N\"", "N = { walk = \"N\" }"),
            8,
            "tiny.pieces.N.walk",
            "one square",
        ),
        (
            good.replace("N = \"N\"", "N = { moves = \"none\" }"),
            8,
            "tiny.pieces.N",
            "`none`",
        ),
    ];
    for (text, line, field, says) in cases {
        let e = errors("bad.toml", &text);
        let e = e.first().unwrap();
        assert_eq!(e.file, "bad.toml", "{text}");
        assert_eq!((e.line, e.field.as_str()), (line, field), "{e} for\n{text}");
        assert!(e.message.contains(says), "{e}");
        assert!(
            e.to_string()
                .starts_with(&format!("bad.toml:{line}: {field}: ")),
            "{e}"
        );
    }
}

/// A game of one's own is found by its name once its file is loaded; the
/// same file again adds nothing; another game of that name is refused.
#[test]
fn a_loaded_game_is_found_by_name_and_a_name_is_one_game() {
    let text = "[grasshopper-test]\ninherits = \"standard\"\ntitle = \"Wazir chess\"\n\n[grasshopper-test.pieces]\nN = false\nW = { moves = \"W\", name = \"wazir\" }\n";
    let start = "rwbqkbwr/pppppppp/8/8/8/8/PPPPPPPP/RWBQKBWR w KQkq - 0 1";
    let text = text.replace(
        "title = \"Wazir chess\"",
        &format!("title = \"Wazir chess\"\nstart = \"{start}\""),
    );
    assert!(variants::by_name("grasshopper-test").is_none());
    let added = defined::load("mine.toml", &text).unwrap();
    assert_eq!(added.len(), 1);
    let rules = variants::by_name("GRASSHOPPER-TEST").unwrap();
    assert_eq!(rules.name(), "grasshopper-test");
    // Wazirs step one square: from the start, 16 pawn moves and none else.
    assert_eq!(Position::new(rules).perft(1), 16);
    assert_eq!(
        defined::load("mine.toml", &text).unwrap()[0].name(),
        "grasshopper-test"
    );
    let other = text.replace("moves = \"W\"", "moves = \"F\"");
    let e = defined::load("other.toml", &other).unwrap_err();
    assert!(
        e[0].message.contains("loaded already with other rules"),
        "{}",
        e[0]
    );
}

/// Random definitions, read and played: every one is read or refused with
/// a reason, and a game read plays random moves without a panic, its
/// perft at depth 1 the number of its legal moves.
#[test]
fn random_definitions_never_panic() {
    let atoms = [
        "W", "F", "D", "N", "A", "H", "C", "Z", "G", "K", "R", "B", "Q", "WW", "NN", "W3", "nN",
        "fW", "X", "n", "Q15", "ñ", "", "mR", "cK", "pR", "gQ", "mfW", "cfF", "pB", "gW", "mcN",
        "pgR",
    ];
    let mut seed = 7u64;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n.max(1)
    };
    let (mut read, mut refused) = (0, 0);
    for i in 0..400 {
        let files = 5 + next(13) as u8;
        let ranks = 5 + next(13) as u8;
        let letters: Vec<char> = "ABCDEFGHIJ".chars().take(1 + next(9)).collect();
        // A start: royal pieces on the first and last ranks, pawns before them.
        let pick = |k: usize| letters[k % letters.len()];
        let back: String = (0..files)
            .map(|f| {
                if f == files / 2 {
                    'K'
                } else {
                    pick(2 * f as usize)
                }
            })
            .collect();
        let pawns: String = "P".repeat(files as usize);
        let empty = format!("{files}/").repeat(ranks.saturating_sub(4) as usize);
        let start = format!(
            "{}/{}/{}{}/{} w - - 0 1",
            back.to_lowercase(),
            pawns.to_lowercase(),
            empty,
            pawns,
            back
        );
        let mut text = format!(
            "[fuzz-{i}]\ntitle = \"Fuzz\"\nboard = \"{files}x{ranks}\"\nstart = \"{start}\"\ndouble_step = {}\n[fuzz-{i}.pieces]\nP = \"pawn\"\nK = \"king\"\n",
            next(2) == 0
        );
        for l in &letters {
            let moves = format!("{}{}", atoms[next(atoms.len())], atoms[next(atoms.len())]);
            text.push_str(&format!("{l} = \"{moves}\"\n"));
        }
        match defined::read("fuzz.toml", &text, &|_| None) {
            Err(e) => {
                refused += 1;
                assert!(!e.is_empty());
                assert!(
                    e.iter().all(|e| !e.message.is_empty() && e.line >= 1),
                    "{e:?}"
                );
            }
            Ok(specs) => {
                read += 1;
                let rules = defined::load("fuzz.toml", &text)
                    .unwrap_or_else(|e| panic!("{e:?}\n{text}"))[0];
                let mut pos = Position::new(rules);
                for _ in 0..30 {
                    let moves = pos.legal_moves();
                    assert_eq!(pos.perft(1), moves.len() as u64, "{text}");
                    if moves.is_empty() || pos.outcome().is_some() {
                        break;
                    }
                    let mv = moves[next(moves.len())];
                    pos.play(&mv).unwrap();
                }
                assert_eq!(specs.len(), 1);
            }
        }
    }
    assert!(read > 50 && refused > 50, "{read} read, {refused} refused");
}

/// Wins other than mate: a flag piece reaching its squares (King of the
/// Hill, as Fairy-Stockfish's `kingofthehill`), and extinction (losing the
/// last of a kind of piece a side must keep, as its `extinction`), where
/// the king need not be royal. Neither changes the moves (a perft is
/// chess's), only when the game ends.
#[test]
fn a_game_is_won_by_a_flag_or_by_extinction() {
    use voidmate_rules::{Color, Outcome, WinReason};
    let hill = defined::load(
        "hill.toml",
        "[hill-test]\ninherits = \"standard\"\ntitle = \"Hill\"\nwin = { flag = { piece = \"K\", white = \"d4 e4 d5 e5\" } }\n",
    )
    .unwrap()[0];
    let chess = variants::standard();
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ] {
        let (a, b) = (
            Position::from_fen(hill, fen).unwrap(),
            Position::from_fen(chess, fen).unwrap(),
        );
        assert_eq!(a.perft(3), b.perft(3));
    }
    let mut pos = Position::from_fen(hill, "4k3/8/8/8/8/4K3/8/8 w - - 0 1").unwrap();
    assert_eq!(pos.outcome(), None);
    let mv = pos.parse_move("Kd4").unwrap();
    pos.play(&mv).unwrap();
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::ReachedZone
        })
    );
    // Black's squares default to White's: the centre is both sides' hill.
    let pos = Position::from_fen(hill, "8/8/8/4k3/8/8/8/K7 w - - 0 1").unwrap();
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::ReachedZone
        })
    );

    let ext = defined::load(
        "extinction.toml",
        "[extinction-test]\ninherits = \"standard\"\ntitle = \"Extinction\"\ncastling = false\nstart = \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\"\nwin = { extinction = \"Q\" }\n\n[extinction-test.pieces]\nK = { moves = \"K\", name = \"king\", royal = false }\n",
    )
    .unwrap()[0];
    assert_eq!(ext.definition().royal, None);
    let mut pos = Position::from_fen(ext, "k7/8/8/8/8/8/8/KQ5q w - - 0 1").unwrap();
    assert_eq!(pos.outcome(), None);
    let mv = pos.parse_move("Qxh1").unwrap();
    pos.play(&mv).unwrap();
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::Extinction
        })
    );
    // With no royal piece there is no check: a king may step next to a queen.
    let pos = Position::from_fen(ext, "k7/8/8/8/8/8/1q6/K6Q w - - 0 1").unwrap();
    assert!(pos.legal_moves().iter().any(|m| pos.san(m) == "Kb1"));

    // A win names its field when it is wrong.
    let errors = |text: &str| {
        defined::read("w.toml", text, &|n| {
            defined::twin(n)
                .and_then(defined::spec_of)
                .map(|s| s.table.clone())
        })
        .expect_err(text)
    };
    let e = errors(
        "[w]\ninherits = \"standard\"\ntitle = \"W\"\nwin = { flag = { piece = \"Z\", white = \"d4\" } }\n",
    );
    assert!(
        e[0].to_string()
            .contains("w.win.flag.piece: `Z` is no piece of this game"),
        "{e:?}"
    );
    let e = errors(
        "[w]\ninherits = \"standard\"\ntitle = \"W\"\nwin = { flag = { piece = \"K\", white = \"z9\" } }\n",
    );
    assert!(
        e[0].to_string()
            .contains("`z9` is not a square of this board"),
        "{e:?}"
    );
    let e = errors(
        "[w]\ninherits = \"standard\"\ntitle = \"W\"\n\n[w.pieces]\nK = { moves = \"K\", royal = false }\n",
    );
    assert!(
        e[0].to_string()
            .contains("no royal piece and no other way to win"),
        "{e:?}"
    );
}

/// Giveaway written as a file (captures compulsory, a king that is an
/// ordinary piece and may be promoted to, the side left without a move
/// winning) counts every position of the built-in antichess's perft file
/// (its counts independently checked) to depth 3.
#[test]
fn giveaway_written_as_a_file_counts_as_antichess() {
    let giveaway = defined::load(
        "giveaway.toml",
        "[giveaway-test]\ninherits = \"standard\"\ntitle = \"Giveaway\"\ncastling = false\nstart = \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\"\npromotion = \"QRBNK\"\nstalemate = \"win\"\nwin = { captures_forced = true }\n\n[giveaway-test.pieces]\nK = { moves = \"K\", name = \"king\", royal = false }\n",
    )
    .unwrap()[0];
    let path = format!("{}/tests/data/antichess.perft", env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    for (fen, counts) in perft_file::read(&path) {
        let ours = Position::from_fen(giveaway, &fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for (depth, want) in counts.into_iter().filter(|(d, _)| *d <= 3) {
            assert_eq!(ours.perft(depth), want, "{fen} depth {depth}");
            checked += 1;
        }
    }
    assert!(checked >= 6, "{checked}");
    // The capture is forced, and losing the last piece wins.
    use voidmate_rules::{Color, Outcome, WinReason};
    let mut pos = Position::from_fen(giveaway, "8/8/8/8/8/8/1k6/Q7 b - - 0 1").unwrap();
    let legal: Vec<String> = pos.legal_moves().iter().map(|m| pos.san(m)).collect();
    assert_eq!(legal, ["Kxa1"]);
    let mv = pos.parse_move("Kxa1").unwrap();
    pos.play(&mv).unwrap();
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::Stalemated
        })
    );
}

/// Shatranj's and Courier's bare king, as Fairy-Stockfish (pyffish 0.0.90)
/// judged these positions: the side to move wins when the other has its
/// king alone and it has more; the bared side first has its move, and
/// baring the other king with it draws.
#[test]
fn a_bare_king_loses_unless_it_bares_the_other() {
    use voidmate_rules::{Color, DrawReason, Outcome, WinReason};
    for (game, wide) in [("shatranj", false), ("courier", true)] {
        let rules = variants::by_name(game).unwrap();
        let fen = |f: &str| {
            if wide {
                f.replace("8/", "12/")
                    .replace("R3K3", "R3K7")
                    .replace("r7", "r11")
                    .replace("4k3", "4k7")
                    .replace("3k4", "3k8")
                    .replace("3R3K", "3R7K")
            } else {
                f.to_string()
            }
        };
        let at = |f: &str| Position::from_fen(rules, &fen(f)).unwrap();
        assert_eq!(
            at("8/8/8/4k3/8/8/8/R3K3 w - - 0 1").outcome(),
            Some(Outcome::Win {
                winner: Color::White,
                reason: WinReason::BareKing
            }),
            "{game}"
        );
        // The bared side has its move first; a rook left to it is no bare king.
        assert_eq!(
            at("8/8/8/4k3/8/8/8/R3K3 b - - 0 1").outcome(),
            None,
            "{game}"
        );
        assert_eq!(
            at("8/8/8/4k3/8/8/r7/R3K3 w - - 0 1").outcome(),
            None,
            "{game}"
        );
        // Baring the other king back: two bare kings draw.
        let mut pos = at("8/8/8/8/8/8/3k4/3R3K b - - 0 1");
        assert_eq!(pos.outcome(), None, "{game}");
        let take = pos
            .legal_moves()
            .iter()
            .copied()
            .find(|m| m.to.to_string() == "d1")
            .unwrap();
        pos.play(&take).unwrap();
        assert_eq!(
            pos.outcome(),
            Some(Outcome::Draw(DrawReason::InsufficientMaterial)),
            "{game}"
        );
    }
    // Not in a game without the rule: Capablanca's lone king plays on.
    let capa = variants::by_name("capablanca").unwrap();
    let pos = Position::from_fen(capa, "10/10/10/4k5/10/10/10/R3K5 w - - 0 1").unwrap();
    assert_eq!(pos.outcome(), None);
}

/// Void Chess's tile layer switched on in a file without its hook (`tiles
/// = "void"`, on the general route): Void Chess written so counts every
/// line of Void Chess's perft file to depth 4, and the layer works on
/// another game too (Capablanca with voids: a capture leaves an unstable
/// tile that turns void on the capturer's next move). A file's default
/// promotion piece is what a pawn becomes when none is named.
#[test]
fn the_void_tile_layer_switched_on_in_a_file() {
    let text = include_str!("../../variants/void.toml")
        .replace("[void]", "[void-tiles]")
        .replace("[void.pieces]", "[void-tiles.pieces]")
        .replace("rules = \"void\"", "tiles = \"void\"");
    let rules = defined::load("void-tiles.toml", &text).unwrap()[0];
    assert!(defined::spec_of(rules).unwrap().hook.is_none());
    let path = format!("{}/tests/data/void.perft", env!("CARGO_MANIFEST_DIR"));
    for (fen, counts) in perft_file::read(&path) {
        let pos = Position::from_fen(rules, &fen).unwrap();
        for (depth, want) in counts.into_iter().filter(|(d, _)| *d <= 4) {
            assert_eq!(pos.perft(depth), want, "{fen} depth {depth}");
        }
    }

    let capa = "[capa-void]\ninherits = \"capablanca\"\ntitle = \"Capablanca with voids\"\ntiles = \"void\"\npromotion_default = \"Q\"\n";
    let rules = defined::load("capa-void.toml", capa).unwrap()[0];
    let mut pos = Position::new(rules);
    for san in ["e4", "d5", "exd5", "a6", "a3"] {
        let mv = pos
            .parse_move(san)
            .unwrap_or_else(|e| panic!("{san}: {e:?}"));
        pos.play(&mv).unwrap();
    }
    let fen = pos.fen();
    assert!(fen.contains("void:d5"), "{fen}");
    // The pawn on d5 fell into the void.
    assert!(
        pos.board().piece_at("d5".parse().unwrap()).is_none(),
        "{fen}"
    );
    let pos = Position::from_fen(rules, "4k5/P9/10/10/10/10/10/4K5 w - - 0 1").unwrap();
    let mv = pos.parse_move("a8").unwrap();
    assert_eq!(mv.promotion, Some(voidmate_rules::Role::Queen));
    // Without a default the player must name the piece.
    let plain = variants::by_name("capablanca").unwrap();
    let pos = Position::from_fen(plain, "4k5/P9/10/10/10/10/10/4K5 w - - 0 1").unwrap();
    assert!(pos.parse_move("a8").is_err());
}

/// A move list holds 4,096 moves: a start (or any position) whose pieces
/// could together make more in a turn is refused with the bound named, so
/// that no definition can overflow it; the games we ship keep well within.
#[test]
fn a_position_with_more_moves_than_a_move_list_holds_is_refused() {
    let rows: Vec<String> = std::iter::once("k15".to_string())
        .chain(std::iter::repeat_n("1x".repeat(8), 6))
        .chain(std::iter::repeat_n(String::new(), 0))
        .chain(std::iter::repeat_n("16".to_string(), 2))
        .chain(std::iter::repeat_n("X1".repeat(8), 6))
        .chain(std::iter::once("K15".to_string()))
        .collect();
    let text = format!(
        "[crowd]\ntitle = \"Crowd\"\nboard = \"16x16\"\nstart = \"{} w - - 0 1\"\n[crowd.pieces]\nX = {{ moves = \"QNNCZG\", leaps = [\"4,1\", \"5,2\"] }}\nK = \"king\"\n",
        rows.join("/")
    );
    let e = errors("crowd.toml", &text);
    let e = e.first().unwrap();
    assert_eq!(e.field, "crowd.start", "{e}");
    assert!(
        e.message.contains("moves in a turn, more than the 4096"),
        "{e}"
    );
    // Every shipped game's start is far within it.
    for kind in voidmate_rules::GameKind::every() {
        let pos = Position::new(kind.rules());
        assert!(pos.legal_moves().len() < 200, "{kind}");
    }
}

/// The shipped files may be named by any path in a configuration: our own
/// games' files read as their twins (adding nothing), while a file of
/// another text under a built-in game's name is refused.
#[test]
fn shipped_files_read_from_any_path() {
    for (file, text) in defined::SHIPPED {
        let elsewhere = format!("/srv/voidmate/{file}");
        let games = defined::load(&elsewhere, text).unwrap_or_else(|e| panic!("{file}: {e:?}"));
        assert!(!games.is_empty(), "{file}");
    }
    let text = defined::SHIPPED
        .iter()
        .find(|(f, _)| f.ends_with("void.toml") && !f.contains("suicide"))
        .unwrap()
        .1
        .replace("Chess on 9x9", "Our chess on 9x9");
    let e = errors("/srv/voidmate/variants/void.toml", &text);
    assert!(e[0].message.contains("`void` is a built-in game"), "{e:?}");
}
