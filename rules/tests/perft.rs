//! Perft: one harness, one data file per variant (`tests/data/<variant>.perft`).
//!
//! The standard file holds published numbers. The Void Chess file holds our
//! engine's numbers; every count up to depth 3 is also recomputed here by the
//! independent reference generator, so no number stands on the engine alone.

mod perft_file;
mod reference;

use reference::RefPos;
use voidmate_rules::{variants, GameKind, Position, Rules};

struct Case {
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn load(name: &str) -> Vec<Case> {
    let path = format!("{}/tests/data/{name}.perft", env!("CARGO_MANIFEST_DIR"));
    perft_file::read(&path)
        .into_iter()
        .map(|(fen, counts)| Case { fen, counts })
        .collect()
}

fn reference_perft(p: &RefPos, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    p.legal()
        .iter()
        .map(|m| reference_perft(&p.apply(m), depth - 1))
        .sum()
}

fn run(rules: &'static Rules, cases: &[Case], cross_check_depth: u32) {
    assert!(!cases.is_empty());
    for case in cases {
        let pos = Position::from_fen(rules, &case.fen).unwrap();
        for &(depth, want) in &case.counts {
            assert_eq!(pos.perft(depth), want, "{} depth {depth}", case.fen);
            if depth <= cross_check_depth {
                let reference = reference_perft(&RefPos::from_position(&pos), depth);
                assert_eq!(
                    reference, want,
                    "reference disagrees: {} depth {depth}",
                    case.fen
                );
            }
        }
    }
}

/// How deep the independent reference generator checks each game's
/// counts: it knows every game's rules but Super Chess's (whose numbers are
/// the engine's own, recorded). A new game does not compile until it says.
fn reference_depth(kind: GameKind) -> u32 {
    match kind {
        GameKind::Standard => 2,
        GameKind::Void
        | GameKind::Antichess
        | GameKind::SuicideVoid
        | GameKind::SuicideVoidPromotionWins
        | GameKind::Chess99
        | GameKind::BlackHoles => 3,
        // Defined games are checked against Fairy-Stockfish (`defined.rs`).
        GameKind::Super16 | GameKind::Defined(_) => 0,
    }
}

/// Every game has its file (`tests/data/<name>.perft`), and every count in
/// it holds.
#[test]
fn every_game_matches_its_perft_file() {
    for kind in GameKind::ALL {
        run(kind.rules(), &load(kind.name()), reference_depth(kind));
    }
}

#[test]
fn divide_sums_to_perft() {
    let pos = Position::new(variants::void());
    let divided = pos.divide(3);
    assert_eq!(divided.len(), 22);
    assert_eq!(divided.iter().map(|(_, n)| n).sum::<u64>(), pos.perft(3));
}
