//! Fuzzing every reader of player text: FEN, moves (every game's forms),
//! programs and pasted movetext get arbitrary text, multi-byte and
//! oversized included, and near-misses of valid input. Nothing may panic,
//! and a refused move leaves the position as it was. A proptest, so CI runs
//! it on every build with a bounded number of cases.

use proptest::prelude::*;
use voidmate_rules::{san, variants, Position, Program};

/// Positions where each game's own move forms are live: holes, a placed
/// void, a waiting Chess 99 pawn, free castling, a reprogrammable board.
fn positions() -> Vec<Position> {
    let mut v: Vec<Position> = variants::all().map(Position::new).collect();
    for (rules, fen) in [
        (
            variants::black_holes(),
            "rn1qk/p1ppp/Bphh1/3hH/HP3/3N1/PBPPP/RH1QK w - - 0 1",
        ),
        (
            variants::suicide_void(false),
            "rnbqkbnr/pppppppp/8/8/4p3/8/PPPPPPPP/RNBQKBNR w - - 0 1 void:e5",
        ),
        (variants::chess99(), "4P4/3k5/9/9/9/9/9/9/4K3q b - - 0 1"),
        (
            variants::void(),
            "4k4/9/9/9/4R4/9/9/9/4K4 b - - 0 1 unstable:e5w1",
        ),
    ] {
        v.push(Position::from_fen(rules, fen).unwrap_or_else(|e| panic!("{fen}: {e}")));
    }
    v
}

/// Text made of what moves, FENs and programs are made of, with some
/// multi-byte letters among them.
fn near_valid() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("e4".to_string()),
            Just("N".to_string()),
            Just("x".to_string()),
            Just("@".to_string()),
            Just("-".to_string()),
            Just("=".to_string()),
            Just("(".to_string()),
            Just(")".to_string()),
            Just("H".to_string()),
            Just("O-".to_string()),
            Just("/".to_string()),
            Just(" ".to_string()),
            Just(",".to_string()),
            Just(":".to_string()),
            Just(";".to_string()),
            Just("é".to_string()),
            Just("ß".to_string()),
            Just("日".to_string()),
            Just("1.".to_string()),
            Just("unstable:".to_string()),
            "@[a-p][1-9]".prop_map(|s| s.to_string()),
            "[a-p][1-9]-".prop_map(|s| s.to_string()),
            "[a-p][1-9]".prop_map(|s| s.to_string()),
            "[a-p]".prop_map(|s| s.to_string()),
            "[0-9]{1,3}".prop_map(|s| s.to_string()),
            "-?[0-9]{1,4},-?[0-9]{1,4}".prop_map(|s| s.to_string()),
        ],
        0..14,
    )
    .prop_map(|parts| parts.concat())
}

/// A real FEN with a few characters changed, inserted or dropped.
fn mutated_fen() -> impl Strategy<Value = String> {
    let fens: Vec<String> = variants::all()
        .map(|r| Position::new(r).fen())
        .chain([
            "4k4/9/9/9/4R4/9/9/9/4K4 b - - 0 1 unstable:e5w1;void:c3".to_string(),
            "rnbqkbnr/pppppppp/8/8/4p3/8/PPPPPPPP/RNBQKBNR w - - 0 1 void:e5".to_string(),
        ])
        .collect();
    (
        proptest::sample::select(fens),
        proptest::collection::vec((any::<prop::sample::Index>(), any::<char>(), 0..3u8), 1..5),
    )
        .prop_map(|(fen, edits)| {
            let mut chars: Vec<char> = fen.chars().collect();
            for (at, c, kind) in edits {
                let i = at.index(chars.len() + 1);
                match kind {
                    0 if i < chars.len() => chars[i] = c,
                    1 if i < chars.len() => {
                        chars.remove(i);
                    }
                    _ => chars.insert(i, c),
                }
            }
            chars.into_iter().collect()
        })
}

fn read_everywhere(text: &str, positions: &[Position]) {
    for p in positions {
        let mut q = p.clone();
        if q.play_text(text).is_err() {
            assert_eq!(q.fen(), p.fen(), "a refused move changed the position");
        }
    }
    for rules in variants::all() {
        let _ = Position::from_fen(rules, text);
        let _ = Program::parse(rules, text);
    }
    // Pasted game text: every item is a word of the text.
    for word in san::movetext(text) {
        assert!(
            !word.is_empty() && text.contains(word),
            "{word:?} from {text:?}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn any_text_is_read_without_panic(text in "\\PC{0,40}") {
        read_everywhere(&text, &positions());
    }

    #[test]
    fn near_valid_text_is_read_without_panic(text in near_valid()) {
        read_everywhere(&text, &positions());
    }

    #[test]
    fn mutated_fens_are_read_without_panic(fen in mutated_fen()) {
        for rules in variants::all() {
            if let Ok(p) = Position::from_fen(rules, &fen) {
                // A FEN that reads back must give a position that plays.
                let _ = p.outcome();
                // And reads back as the same position: its FEN a fixed
                // point, its moves the same.
                let again = Position::from_fen(rules, &p.fen());
                prop_assert!(again.is_ok(), "{} from {fen}", p.fen());
                let again = again.unwrap();
                prop_assert_eq!(again.fen(), p.fen());
                prop_assert_eq!(again.legal_moves().len(), p.legal_moves().len());
            }
        }
    }
}

#[test]
fn oversized_text_is_refused_quickly() {
    let huge = "é".repeat(100_000) + &"e4 ".repeat(10_000);
    for p in positions() {
        assert!(p.parse_move(&huge).is_err());
    }
    for rules in variants::all() {
        assert!(Position::from_fen(rules, &huge).is_err());
        let _ = Program::parse(rules, &huge);
    }
}
