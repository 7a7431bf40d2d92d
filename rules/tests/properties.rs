//! Property tests over random games: the engine agrees with the slow
//! reference generator on every position, make-move keeps the board's
//! redundant parts consistent, and FEN and SAN round-trip.

mod reference;

use proptest::prelude::*;
use reference::{engine_moves, RefPos};
use voidmate_rules::{variants, Position, Rules};

fn next(state: &mut u64) -> u64 {
    // xorshift64*: a reproducible choice of moves from the proptest seed.
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_f491_4f6c_dd1d)
}

fn check_position(pos: &Position) -> Result<(), TestCaseError> {
    pos.board()
        .check_consistency()
        .map_err(|e| TestCaseError::fail(format!("{e} in {}", pos.fen())))?;

    let fen = pos.fen();
    let again = Position::from_fen(pos.shared_rules().clone(), &fen)
        .map_err(|e| TestCaseError::fail(format!("own FEN rejected: {e}: {fen}")))?;
    prop_assert_eq!(again.fen(), fen.clone());
    prop_assert_eq!(again.board().key(), pos.board().key());

    let reference = RefPos::from_position(pos);
    prop_assert_eq!(
        engine_moves(pos),
        reference.legal(),
        "legal moves differ in {}",
        fen
    );

    // Counting (perft's last ply, which may take another route) agrees.
    prop_assert_eq!(
        pos.perft(1) as usize,
        pos.legal_moves().len(),
        "move count differs in {}",
        fen
    );

    // The search's shortcut (the outcome from moves it already holds)
    // judges every position as `outcome` does.
    prop_assert_eq!(
        pos.outcome_given(&pos.legal_moves()),
        pos.outcome(),
        "outcome differs in {}",
        fen
    );

    // The whole-position attack sets, where the game has them, agree with
    // the square-by-square questions on every square a piece may stand on.
    if let Some(attacks) = pos.attacks() {
        let mut reach = [[0u32; 16]; 2];
        for sq in pos.rules().size().squares() {
            if pos.tile(sq) == voidmate_rules::Tile::Void {
                continue;
            }
            for c in voidmate_rules::Color::ALL {
                prop_assert_eq!(
                    attacks.attacked(c, sq),
                    pos.is_attacked(sq, c),
                    "attacks on {:?} by {:?} differ in {}",
                    sq,
                    c,
                    fen
                );
            }
            if let Some(p) = pos.piece_at(sq) {
                reach[p.color.index()][p.role.index()] += pos.reach(sq);
            }
        }
        for c in voidmate_rules::Color::ALL {
            for role in voidmate_rules::Role::ALL.iter().filter(|r| r.index() < 16) {
                if *role != voidmate_rules::Role::King {
                    prop_assert_eq!(
                        attacks.reach(c, *role),
                        reach[c.index()][role.index()],
                        "reach of {:?} {:?} differs in {}",
                        c,
                        role,
                        fen
                    );
                }
            }
        }
    }

    for mv in pos.legal_moves().iter() {
        let san = pos.san(mv);
        prop_assert_eq!(
            pos.parse_move(&san).ok(),
            Some(*mv),
            "SAN {} in {}",
            san,
            fen
        );
        let coord = pos.coordinate(mv);
        prop_assert_eq!(
            pos.parse_move(&coord).ok(),
            Some(*mv),
            "coordinate {} in {}",
            coord,
            fen
        );
    }
    Ok(())
}

fn random_game(rules: &'static Rules, seed: u64, plies: usize) -> Result<(), TestCaseError> {
    let mut state = seed | 1;
    let mut pos = Position::new(rules);
    for _ in 0..plies {
        check_position(&pos)?;
        if pos.outcome().is_some() {
            break;
        }
        let moves = pos.legal_moves();
        let mv = moves[(next(&mut state) % moves.len() as u64) as usize];
        let expected = RefPos::from_position(&pos)
            .legal()
            .into_iter()
            .find(|m| {
                (m.from, m.to)
                    == (
                        (mv.from.file() as i8, mv.from.rank() as i8),
                        (mv.to.file() as i8, mv.to.rank() as i8),
                    )
                    && m.promo == mv.promotion.map(|r| r as u8)
                    && m.castle.is_some()
                        == matches!(
                            mv.kind,
                            voidmate_rules::MoveKind::Castle(_)
                                | voidmate_rules::MoveKind::FreeCastle
                        )
                    && m.place
                        == matches!(
                            mv.kind,
                            voidmate_rules::MoveKind::PlaceVoid | voidmate_rules::MoveKind::Drop
                        )
                    && m.via == mv.via.map(|s| (s.file() as i8, s.rank() as i8))
            })
            .map(|m| RefPos::from_position(&pos).apply(&m))
            .expect("the reference knows the move");
        pos.play(&mv)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(RefPos::from_position(&pos), expected, "after {:?}", mv);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, ..ProptestConfig::default() })]

    #[test]
    fn standard_random_games_agree_with_reference(seed in any::<u64>()) {
        random_game(variants::standard(), seed, 120)?;
    }

    #[test]
    fn antichess_random_games_agree_with_reference(seed in any::<u64>()) {
        random_game(variants::antichess(), seed, 160)?;
    }

    #[test]
    fn suicide_void_random_games_agree_with_reference(seed in any::<u64>()) {
        random_game(variants::suicide_void(false), seed, 160)?;
    }

    #[test]
    fn suicide_void_promotion_wins_games_agree_with_reference(seed in any::<u64>()) {
        random_game(variants::suicide_void(true), seed, 160)?;
    }

    #[test]
    fn chess99_random_games_agree_with_reference(seed in any::<u64>()) {
        random_game(variants::chess99(), seed, 200)?;
    }

    #[test]
    fn black_holes_random_games_agree_with_reference(seed in any::<u64>()) {
        random_game(variants::black_holes(), seed, 160)?;
    }

    #[test]
    fn void_random_games_agree_with_reference(seed in any::<u64>()) {
        random_game(variants::void(), seed, 160)?;
    }
}
