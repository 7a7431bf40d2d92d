//! The static exchange evaluation (`Position::exchange`): known exchanges,
//! and bounds that hold in every game's random positions.

use voidmate_rules::{variants, Position, Role, Rules};

/// Values of the textbook kind; the king's is large, so that a king that
/// recaptures into a defended square loses the exchange.
fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Knight | Role::Bishop => 300,
        Role::Rook => 500,
        Role::Queen => 900,
        Role::King => 10_000,
        _ => 800,
    }
}

fn exchange(fen: &str, san: &str) -> Option<i32> {
    let pos = Position::from_fen(variants::standard(), fen).unwrap();
    let mv = pos.parse_move(san).unwrap();
    pos.exchange(&mv, value)
}

#[test]
fn an_undefended_piece_is_won_whole() {
    assert_eq!(
        exchange("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "Rxe5"),
        Some(100)
    );
}

#[test]
fn pieces_behind_the_capturers_join_the_exchange() {
    // N takes, N retakes, R (with the queen behind it) takes, the bishop
    // (with the queen behind it on the long diagonal) takes: a knight for a
    // pawn lost, whatever White does after the knight is taken.
    assert_eq!(
        exchange(
            "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
            "Nxe5"
        ),
        Some(-200)
    );
    // Without Black's queen behind the bishop White's queen has the last
    // word: pawn, knight and bishop for knight and rook.
    assert_eq!(
        exchange(
            "1k1r4/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
            "Nxe5"
        ),
        Some(-100)
    );
}

#[test]
fn a_king_cannot_retake_on_a_square_still_defended() {
    // The queen alone: the king retakes it.
    assert_eq!(
        exchange("8/8/4k3/3p4/8/8/8/3QK3 w - - 0 1", "Qxd5+"),
        Some(-800)
    );
    // The rook with the queen behind it: the king may not retake.
    assert_eq!(
        exchange("8/8/4k3/3p4/8/8/3R4/3QK3 w - - 0 1", "Rxd5"),
        Some(100)
    );
    // A pawn takes a defended rook: the exchange keeps the difference.
    assert_eq!(
        exchange("4k3/8/8/3r4/4P3/8/8/4K3 w - - 0 1", "exd5"),
        Some(500)
    );
    assert_eq!(
        exchange("4k3/4p3/3r4/8/8/8/3Q4/4K3 w - - 0 1", "Qxd6"),
        Some(-400)
    );
}

#[test]
fn a_move_to_an_empty_square_risks_the_piece_that_moves() {
    assert_eq!(exchange("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e4"), Some(0));
    // The knight steps where a pawn takes it.
    assert_eq!(
        exchange("4k3/8/8/3p4/8/2N5/8/4K3 w - - 0 1", "Ne4"),
        Some(-300)
    );
    // The bishop may take the knight, but the king takes back: even.
    assert_eq!(
        exchange("4k3/8/8/1b6/8/8/8/4K1N1 w - - 0 1", "Ne2"),
        Some(0)
    );
}

#[test]
fn en_passant_castling_and_promotions_have_no_exchange() {
    assert_eq!(
        exchange("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6"),
        None,
        "en passant takes off the target square"
    );
    assert_eq!(
        exchange("3rk3/4P3/8/8/8/8/8/4K3 w - - 0 1", "exd8=Q+"),
        None,
        "a promotion"
    );
}

/// A random game's positions, `plies` long at most.
fn random_positions(rules: &'static Rules, seed: u64, plies: usize) -> Vec<Position> {
    let mut x = seed | 1;
    let mut pos = Position::new(rules);
    let mut out = Vec::new();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.outcome().is_some() {
            break;
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        pos.play_unchecked(&moves[(x % moves.len() as u64) as usize]);
        out.push(pos.clone());
    }
    out
}

#[test]
fn an_exchange_wins_at_most_the_victim_and_loses_at_most_the_piece_that_moves() {
    let mut checked = 0;
    for rules in variants::all() {
        for seed in 1..=6 {
            for pos in random_positions(rules, seed * 7919, 120) {
                for mv in pos.legal_moves() {
                    let Some(gain) = pos.exchange(&mv, value) else {
                        continue;
                    };
                    let victim = pos.piece_at(mv.to).map_or(0, |p| value(p.role));
                    let capturer = value(pos.piece_at(mv.from).unwrap().role);
                    assert!(
                        gain <= victim && gain >= victim - capturer,
                        "{}: {} in {}: {gain}",
                        rules.name(),
                        pos.san(&mv),
                        pos.fen()
                    );
                    // In standard chess a capture no piece can answer wins
                    // its victim whole.
                    if rules.name() == variants::standard().name()
                        && !pos.after(&mv).is_attacked(mv.to, !pos.turn())
                    {
                        assert_eq!(gain, victim, "{} in {}", pos.san(&mv), pos.fen());
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 2000, "only {checked} moves checked");
}
