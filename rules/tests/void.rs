//! Void Chess: the rules page's own examples and every decision of
//! `docs/rules/void.md`, each as a test.

use voidmate_rules::{
    variants, Color, DrawReason, MoveErrorKind, Outcome, Position, Role, Square, Tile, WinReason,
};

mod common;
use common::{sq, targets};

fn pos(fen: &str) -> Position {
    Position::from_fen(variants::void(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn play(p: &mut Position, moves: &str) {
    for m in moves.split_whitespace() {
        p.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

// ---- The Minister: the page's four diagrams ----

#[test]
fn minister_reaches_all_24_squares_of_its_5x5_on_an_empty_board() {
    let p = pos("4k4/9/9/9/4M4/9/9/9/4K4 w - - 0 1");
    let t = targets(&p, "e5");
    assert_eq!(t.len(), 24);
    for f in 2..=6u8 {
        for r in 2..=6u8 {
            let s = Square::new(f, r);
            assert_eq!(t.contains(&s.to_string()), s != sq("e5"), "{s}");
        }
    }
}

#[test]
fn minister_surrounded_by_its_own_pieces_has_no_move() {
    let p = pos("4k4/9/9/3NNN3/3NMN3/3NNN3/9/9/4K4 w - - 0 1");
    assert!(targets(&p, "e5").is_empty());
}

#[test]
fn minister_with_one_orthogonal_opening_has_four_moves() {
    let p = pos("4k4/9/9/3N1N3/3NMN3/3NNN3/9/9/4K4 w - - 0 1");
    assert_eq!(targets(&p, "e5"), sorted(&["e6", "d7", "e7", "f7"]));
}

#[test]
fn minister_with_one_diagonal_opening_has_six_moves() {
    let p = pos("4k4/9/9/3NN4/3NMN3/3NNN3/9/9/4K4 w - - 0 1");
    assert_eq!(
        targets(&p, "e5"),
        sorted(&["f6", "e7", "f7", "g7", "g6", "g5"])
    );
}

#[test]
fn minister_capture_on_the_first_step_ends_the_move() {
    let p = pos("4k4/9/9/3NpN3/3NMN3/3NNN3/9/9/4K4 w - - 0 1");
    assert_eq!(targets(&p, "e5"), sorted(&["e6"]));
}

#[test]
fn minister_may_capture_on_its_second_step() {
    let p = pos("k8/9/4p4/3N1N3/3NMN3/3NNN3/9/9/4K4 w - - 0 1");
    assert_eq!(targets(&p, "e5"), sorted(&["e6", "d7", "e7", "f7"]));
    assert_eq!(p.san(&p.parse_move("Mxe7").unwrap()), "Mxe7");
}

// ---- Decision 6: crossing and healing ----

#[test]
fn minister_crosses_a_void_without_healing_it_and_heals_where_it_lands() {
    let start = pos("4k4/9/9/3N1N3/3NMN3/3NNN3/9/9/4K4 w - - 0 1 void:e6");
    assert_eq!(targets(&start, "e5"), sorted(&["e6", "d7", "e7", "f7"]));

    let mut through = start.clone();
    play(&mut through, "Me7");
    assert_eq!(
        through.tile(sq("e6")),
        Tile::Void,
        "a square only passed is not healed"
    );

    let mut onto = start.clone();
    play(&mut onto, "Me6");
    assert_eq!(onto.tile(sq("e6")), Tile::Normal, "landing heals the void");
    assert_eq!(onto.piece_at(sq("e6")).unwrap().role, Role::Minister);
}

#[test]
fn only_the_minister_enters_voids() {
    // Rook a1 with a void on a3, pawns under voids, knight next to voids.
    let p = pos("4k4/9/9/9/9/4N4/9/2P3P2/R3K4 w - - 0 1 void:a3,c3,g4,d6,e5");
    let rook = targets(&p, "a1");
    assert!(rook.contains(&"a2".to_string()));
    assert!(
        !rook.iter().any(|t| t.starts_with('a') && t != "a2"),
        "{rook:?}"
    );
    assert!(
        targets(&p, "c2").is_empty(),
        "a void blocks the single step"
    );
    assert_eq!(
        targets(&p, "g2"),
        sorted(&["g3"]),
        "a void blocks the double step"
    );
    let knight = targets(&p, "e4");
    assert!(
        !knight.contains(&"d6".to_string()),
        "a knight cannot land on a void"
    );
    assert!(
        knight.contains(&"f6".to_string()),
        "a knight jumps over a void"
    );
    let err = p.parse_move("Nd6").unwrap_err();
    assert_eq!(
        err.to_string(),
        "Nd6 is illegal: d6 is a void tile: only the minister may move onto a void"
    );
}

#[test]
fn a_minister_capture_leaves_no_unstable_tile_and_heals_the_enemy_one() {
    // Black just captured on e6, which is Black's unstable tile.
    let mut p = pos("4k4/9/9/3NbN3/3NMN3/3NNN3/9/9/4K4 w - - 0 5 unstable:e6b4");
    play(&mut p, "Mxe6");
    assert_eq!(p.tile(sq("e6")), Tile::Normal);
    assert_eq!(p.board().unstable(Color::White), None);
    assert_eq!(p.board().unstable(Color::Black), None);
}

#[test]
fn promoting_to_a_minister_heals_while_other_promotions_leave_an_unstable_tile() {
    let start = pos("3rk4/4P4/9/9/9/9/9/9/4K4 w - - 0 1");
    let mut minister = start.clone();
    play(&mut minister, "exd9=M");
    assert_eq!(minister.tile(sq("d9")), Tile::Normal);
    let mut queen = start.clone();
    play(&mut queen, "exd9=Q");
    assert_eq!(
        queen.tile(sq("d9")),
        Tile::Unstable {
            owner: Color::White,
            since: 1
        }
    );
}

// ---- Decisions 1 and 2: unstable tiles and voids; the page's walk-through ----

const ROOK_TAKES_PAWN: &str = "4k4/9/9/9/p8/9/9/9/R3K4 w - - 0 1";

#[test]
fn walk_through_capture_makes_an_unstable_tile_and_the_rook_is_safe_this_turn() {
    let mut p = pos(ROOK_TAKES_PAWN);
    play(&mut p, "Rxa5");
    assert_eq!(
        p.tile(sq("a5")),
        Tile::Unstable {
            owner: Color::White,
            since: 1
        }
    );
    play(&mut p, "Ke8");
    assert_eq!(
        p.piece_at(sq("a5")).unwrap().role,
        Role::Rook,
        "safe through Black's move"
    );
}

#[test]
fn walk_through_option_a_the_rook_moves_away_and_survives() {
    let mut p = pos(ROOK_TAKES_PAWN);
    play(&mut p, "Rxa5 Ke8 Ra4");
    assert_eq!(p.tile(sq("a5")), Tile::Void);
    assert_eq!(p.piece_at(sq("a4")).unwrap().role, Role::Rook);
}

#[test]
fn walk_through_option_b_the_rook_stays_and_is_destroyed() {
    let mut p = pos(ROOK_TAKES_PAWN);
    play(&mut p, "Rxa5 Ke8 Kd2");
    assert_eq!(p.tile(sq("a5")), Tile::Void);
    assert_eq!(p.piece_at(sq("a5")), None);
    assert_eq!(p.board().count(Color::White, Role::Rook), 0);
    // Decision 8: losing a piece to the void resets the 50-move count.
    assert_eq!(p.board().halfmove_clock(), 0);
}

#[test]
fn a_capture_on_an_unstable_tile_rearms_it_for_the_new_capturer() {
    let mut p = pos("r3k4/9/9/9/p8/9/9/9/R3K4 w - - 0 1");
    play(&mut p, "Rxa5 Rxa5");
    assert_eq!(
        p.tile(sq("a5")),
        Tile::Unstable {
            owner: Color::Black,
            since: 1
        }
    );
    assert_eq!(p.board().unstable(Color::White), None);
    play(&mut p, "Kd2");
    assert_eq!(
        p.piece_at(sq("a5")).unwrap().color,
        Color::Black,
        "White's move does not resolve Black's tile"
    );
    play(&mut p, "Kd8");
    assert_eq!(p.tile(sq("a5")), Tile::Void);
    assert_eq!(p.piece_at(sq("a5")), None);
}

#[test]
fn en_passant_makes_the_capturing_pawns_destination_unstable() {
    let mut p = pos("4k4/3p5/9/4P4/9/9/9/9/4K4 b - - 0 1");
    play(&mut p, "d6 exd7");
    assert_eq!(
        p.tile(sq("d7")),
        Tile::Unstable {
            owner: Color::White,
            since: 2
        }
    );
    assert_eq!(p.tile(sq("d6")), Tile::Normal);
    assert_eq!(p.piece_at(sq("d6")), None);
}

// ---- Decision 3: legality after the end-of-move resolution ----

#[test]
fn a_move_is_illegal_if_the_piece_lost_to_the_void_was_shielding_the_king() {
    // The rook on e2 (White's unstable tile) blocks the Minister's path e3-e2-e1;
    // whatever White does, e2 turns void, which the Minister can cross.
    let p = pos("4k4/9/9/9/9/9/4m4/3PRP3/N3K4 w - - 0 10 unstable:e2w9");
    assert!(!p.is_check());
    let mut legal: Vec<String> = p.legal_moves().iter().map(|m| p.san(m)).collect();
    legal.sort();
    assert_eq!(legal, sorted(&["Rxe3+", "dxe3", "fxe3"]));
    let err = p.parse_move("Nb3").unwrap_err();
    assert_eq!(
        err.to_string(),
        "Nb3 is illegal: it would leave your king on e1 in check once your rook on e2 falls into the void"
    );
}

// ---- Decision 4: the king on an unstable tile ----

#[test]
fn a_king_on_an_unstable_tile_must_move() {
    let p = pos("4k4/9/9/9/9/4K4/9/9/6N2 w - - 0 9 unstable:e4w8");
    assert!(p.legal_moves().iter().all(|m| m.from == sq("e4")));
    assert!(!p.legal_moves().is_empty());
    let err = p.parse_move("Nf3").unwrap_err();
    assert_eq!(
        err.to_string(),
        "Nf3 is illegal: your king on e4 stands on an unstable tile and must move"
    );
    let mut after = p.clone();
    play(&mut after, "Kd4");
    assert_eq!(after.tile(sq("e4")), Tile::Void);
}

#[test]
fn a_trapped_king_on_an_unstable_tile_is_lost_to_the_void() {
    let p = pos("4k4/9/9/9/8R/9/9/9/K8 w - - 0 20 void:b1,a2,b2;unstable:a1w19");
    assert!(p.legal_moves().is_empty(), "the rook may not move either");
    assert_eq!(
        p.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::KingLostToVoid
        })
    );
}

#[test]
fn checkmate_is_judged_before_king_lost_to_void() {
    let p = pos("4k4/9/9/9/8R/9/1n7/9/K8 w - - 0 20 void:b1,a2,b2;unstable:a1w19");
    assert_eq!(
        p.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::Checkmate
        })
    );
}

// ---- Decision 7: castling ----

#[test]
fn castling_moves_king_and_rook_to_the_decided_squares() {
    let start = pos("r3k3r/9/9/9/9/9/9/9/R3K3R w KQkq - 0 1");
    let mut short = start.clone();
    play(&mut short, "O-O");
    assert_eq!(short.piece_at(sq("g1")).unwrap().role, Role::King);
    assert_eq!(short.piece_at(sq("f1")).unwrap().role, Role::Rook);
    assert_eq!(short.piece_at(sq("i1")), None);
    let mut long = start.clone();
    play(&mut long, "O-O-O");
    assert_eq!(long.piece_at(sq("c1")).unwrap().role, Role::King);
    assert_eq!(long.piece_at(sq("d1")).unwrap().role, Role::Rook);
    assert_eq!(long.piece_at(sq("a1")), None);
    // Coordinates and king-move notation work too.
    assert_eq!(
        start.parse_move("e1g1").unwrap(),
        start.parse_move("O-O").unwrap()
    );
    assert_eq!(
        start.parse_move("Kc1").unwrap(),
        start.parse_move("0-0-0").unwrap()
    );
}

#[test]
fn castling_is_blocked_by_a_void_and_by_attacked_squares() {
    let void = pos("r3k3r/9/9/9/9/9/9/9/R3K3R w KQkq - 0 1 void:h1");
    assert_eq!(
        void.parse_move("O-O").unwrap_err().to_string(),
        "O-O is illegal: castling on the king side needs h1, and it is a void"
    );
    let attacked = pos("r3kr3/9/9/9/9/9/9/9/R3K3R w KQq - 0 1");
    assert_eq!(
        attacked.parse_move("O-O").unwrap_err().to_string(),
        "O-O is illegal: your king would cross or land on f1, which is attacked"
    );
    let castle = attacked.parse_move("O-O-O").unwrap();
    let after = attacked.after(&castle);
    // The king on c1 and the rook beside it on d1, on the long side.
    assert_eq!(
        after.fen().split(' ').next().unwrap().rsplit('/').next(),
        Some("2KR4R")
    );
}

/// Decision 7: an unstable tile always holds the piece that captured there
/// until it collapses, and it collapses as that piece leaves, so no
/// castling ever crosses one: first a piece stands in the way, then a void.
#[test]
fn castling_never_crosses_an_unstable_tile() {
    let held = pos("r3k3r/9/9/9/9/9/9/9/R3Kb2R w KQkq - 0 5 unstable:f1b4");
    assert!(
        held.parse_move("O-O").is_err(),
        "Black's bishop stands on f1"
    );
    let mut p = pos("r3k3r/9/9/9/9/9/9/9/R3Kb2R b KQkq - 0 5 unstable:f1b4");
    play(&mut p, "Bb5");
    assert_eq!(
        p.parse_move("O-O").unwrap_err().to_string(),
        "O-O is illegal: castling on the king side needs f1, and it is a void"
    );
}

#[test]
fn a_rook_lost_to_the_void_takes_its_castling_right_with_it() {
    // The rook on i1 captured there last move; White plays elsewhere and loses it.
    let mut p = pos("4k4/9/9/9/9/9/9/9/R3K3R w KQ - 0 9 unstable:i1w8");
    play(&mut p, "Ra2");
    assert_eq!(p.tile(sq("i1")), Tile::Void);
    assert!(!p.fen().contains(" KQ "), "{}", p.fen());
}

// ---- Decision 8: repetition sees tiles ----

#[test]
fn positions_that_differ_only_in_tiles_are_different_for_repetition() {
    let plain = pos("4k4/9/9/9/9/9/9/9/4K4 w - - 0 1");
    let holed = pos("4k4/9/9/9/9/9/9/9/4K4 w - - 0 1 void:a5");
    assert_ne!(plain.board().key(), holed.board().key());
    let mut p = pos("4k4/9/9/9/9/9/9/9/R3K4 w - - 0 1");
    play(&mut p, "Ra2 Kd9 Ra1 Ke9 Ra2 Kd9 Ra1");
    assert_eq!(p.repetitions(), 2);
    play(&mut p, "Ke9");
    assert_eq!(p.repetitions(), 3);
    assert_eq!(
        p.outcome(),
        Some(Outcome::Draw(DrawReason::ThreefoldRepetition))
    );
}

// ---- Decision 9: void fortress ----

// White's king is sealed on a1-b1 by voids on c1, a2, b2, c2.
const SEALED: &str = "void:c1,a2,b2,c2";

fn fortress(board: &str, to_move: &str) -> Position {
    pos(&format!("{board} {to_move} - - 0 30 {SEALED}"))
}

#[test]
fn fortress_with_no_way_in_no_minister_and_no_promotion_is_an_immediate_draw() {
    let p = fortress("4k4/9/9/9/4r4/9/9/9/K8", "w");
    assert_eq!(p.outcome(), Some(Outcome::Draw(DrawReason::VoidFortress)));
}

#[test]
fn fortress_is_no_draw_when_a_knight_can_jump_in() {
    let p = fortress("4k4/4n4/9/9/4r4/9/9/9/K8", "w");
    assert_eq!(p.outcome(), None);
}

#[test]
fn fortress_is_no_draw_when_an_enemy_piece_stands_in_it() {
    let p = fortress("4k4/9/9/9/4r4/9/9/9/Kb7", "w");
    assert_eq!(p.outcome(), None);
}

#[test]
fn fortress_is_no_draw_when_the_sealed_side_can_still_mate_from_outside() {
    // White's king is sealed in, but White's queen roams Black's part of the board.
    let p = fortress("4k4/9/9/9/4r4/9/9/9/K4Q3", "w");
    assert_eq!(p.outcome(), None);
}

#[test]
fn fortress_is_no_draw_while_a_pawn_can_promote_but_is_when_voids_stop_it() {
    let free = fortress("4k4/9/9/9/4r2p1/9/9/9/K8", "w");
    assert_eq!(free.outcome(), None);
    let stopped = pos("4k4/9/9/9/4r2p1/9/9/9/K8 w - - 0 30 void:c1,a2,b2,c2,g4,h4,i4");
    assert_eq!(
        stopped.outcome(),
        Some(Outcome::Draw(DrawReason::VoidFortress))
    );
}

#[test]
fn siege_counts_plies_while_a_minister_exists_and_draws_after_20_full_moves() {
    let mut p = fortress("4k3m/9/9/9/4r4/9/9/9/K8", "w");
    assert_eq!(
        p.outcome(),
        None,
        "a Minister on the board: no immediate draw"
    );
    play(&mut p, "Kb1 Re6");
    assert_eq!(p.board().siege_plies(), 2);

    let mut late = pos(&format!(
        "4k3m/9/9/9/4r4/9/9/9/K8 w - - 0 30 {SEALED};siege:39"
    ));
    assert_eq!(late.outcome(), None);
    play(&mut late, "Kb1");
    assert_eq!(late.board().siege_plies(), 40);
    assert_eq!(late.outcome(), Some(Outcome::Draw(DrawReason::VoidSiege)));
}

#[test]
fn siege_resets_when_the_minister_breaks_the_wall() {
    let mut p = pos(&format!(
        "4k4/9/9/9/4r4/9/9/3m5/K8 b - - 0 30 {SEALED};siege:30"
    ));
    play(&mut p, "Mc1");
    assert_eq!(p.tile(sq("c1")), Tile::Normal);
    assert_eq!(p.board().siege_plies(), 0);
}

#[test]
fn a_large_fortress_is_no_siege() {
    // Ranks 1-2 sealed by a wall on rank 3: 18 of 72 squares, over 15%.
    let mut p = pos("4k3m/9/9/9/4r4/9/9/9/K8 w - - 0 30 void:a3,b3,c3,d3,e3,f3,g3,h3,i3");
    play(&mut p, "Kb1");
    assert_eq!(p.board().siege_plies(), 0);
    assert_eq!(p.outcome(), None);
}

// ---- Other endings ----

#[test]
fn bare_kings_draw_but_a_king_and_knight_play_on() {
    let bare = pos("4k4/9/9/9/9/9/9/9/4K4 w - - 0 1");
    assert_eq!(
        bare.outcome(),
        Some(Outcome::Draw(DrawReason::InsufficientMaterial))
    );
    let knight = pos("4k4/9/9/9/9/9/9/9/4KN3 w - - 0 1");
    assert_eq!(knight.outcome(), None);
}

#[test]
fn stalemate_and_the_fifty_move_rule() {
    let stalemate = pos("k8/2Q6/9/9/9/9/9/9/4K4 b - - 0 1");
    assert_eq!(
        stalemate.outcome(),
        Some(Outcome::Draw(DrawReason::Stalemate))
    );
    let mut fifty = pos("4k4/9/9/9/9/9/9/9/R3K4 w - - 99 80");
    play(&mut fifty, "Ra2");
    assert_eq!(
        fifty.outcome(),
        Some(Outcome::Draw(DrawReason::FiftyMoveRule))
    );
}

#[test]
fn checkmate_on_the_hundredth_half_move_stands() {
    let mut p = pos("k8/2K6/9/9/9/9/9/9/7R1 w - - 99 80");
    play(&mut p, "Ra1#");
    assert_eq!(
        p.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::Checkmate
        })
    );
}

#[test]
fn promotion_offers_the_minister() {
    let p = pos("9/1P7/9/9/8k/9/9/9/4K4 w - - 0 1");
    let mut sans: Vec<String> = p
        .legal_moves()
        .iter()
        .filter(|m| m.from == sq("b8"))
        .map(|m| p.san(m))
        .collect();
    sans.sort();
    assert_eq!(sans, sorted(&["b9=B", "b9=M", "b9=N", "b9=Q", "b9=R"]));
    match p.parse_move("b9").unwrap_err().kind {
        MoveErrorKind::Ambiguous(options) => assert_eq!(options.len(), 5),
        other => panic!("{other:?}"),
    }
}
