//! Suicide Void Chess: every rule and decision of `docs/rules/suicide-void.md`,
//! each as a test.

use voidmate_rules::{variants, Color, DrawReason, MoveKind, Outcome, Position, Square, WinReason};

mod common;
use common::sq;

fn pos(fen: &str) -> Position {
    Position::from_fen(variants::suicide_void(false), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn pw(fen: &str) -> Position {
    Position::from_fen(variants::suicide_void(true), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The distinct moves without their void part (`Bxe5@d4` -> `Bxe5`).
fn plain_sans(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p
        .legal_moves()
        .iter()
        .map(|m| {
            let s = p.san(m);
            s.split('@').next().unwrap().to_string()
        })
        .collect();
    v.sort();
    v.dedup();
    v
}

fn err(p: &Position, text: &str) -> String {
    p.parse_move(text).unwrap_err().to_string()
}

#[test]
fn black_opens_by_placing_the_void_on_any_empty_square() {
    let mut p = Position::new(variants::suicide_void(false));
    assert_eq!(p.turn(), Color::Black);
    let moves = p.legal_moves();
    assert_eq!(moves.len(), 32);
    assert!(moves.iter().all(|m| m.kind == MoveKind::PlaceVoid));
    assert!(err(&p, "e4").contains("first the void must be placed on an empty square, like @e5"));
    assert!(err(&p, "@e2").contains("e2 is not empty"));
    let (mv, san) = p.play_text("@e5").unwrap();
    assert_eq!(san, "@e5");
    assert_eq!(p.coordinate(&mv), "@e5");
    assert_eq!(p.turn(), Color::White);
    // The placement is not a move of the clock: White still makes move 1.
    assert_eq!(p.board().fullmove_number(), 1);
    assert!(p.fen().ends_with(" w - - 0 1 void:e5"), "{}", p.fen());
    assert!(err(&p, "@d4").contains("the void is already on the board"));
}

#[test]
fn nothing_lands_on_the_void_and_only_knights_pass_it() {
    // Void on d4: nothing lands there (knight b3, pawn d2's double step),
    // the bishop on b2 stops at c3.
    let p = pos("4k3/8/8/8/8/1N6/1B1P4/3RK3 w - - 0 1 void:d4");
    let moves = plain_sans(&p);
    assert!(!moves.iter().any(|m| m.ends_with("d4")), "{moves:?}");
    assert!(
        !moves.contains(&"Be5".to_string()),
        "the bishop passed the void"
    );
    assert!(moves.contains(&"Bc3".to_string()));
    assert!(moves.contains(&"d3".to_string()));
    // A knight next to the void jumps over it.
    let p = pos("4k3/8/8/8/8/4n3/4P3/4K3 b - - 0 1 void:d4");
    let moves = plain_sans(&p);
    assert!(moves.contains(&"Nc4".to_string()) && moves.contains(&"Nf5".to_string()));
    // A pawn cannot step onto the void, nor double-step across it.
    let double = pos("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1 void:d3");
    let moves = plain_sans(&double);
    assert!(
        !moves.contains(&"d3".to_string()) && !moves.contains(&"d4".to_string()),
        "{moves:?}"
    );
}

#[test]
fn a_knight_jumps_over_the_void_but_a_rook_cannot_capture_through_it() {
    let open = pos("4k3/8/8/p7/8/8/8/R3K3 w - - 0 1 void:h8");
    assert_eq!(plain_sans(&open), ["Rxa5"]);
    let knight = pos("4k3/8/8/8/8/2p5/8/1N2K3 w - - 0 1 void:b2");
    assert!(plain_sans(&knight).contains(&"Nxc3".to_string()));
}

#[test]
fn a_capture_is_compulsory_judged_with_the_void_where_it_stands() {
    // The rook could take on a5 if the void on a3 were gone; it is not, so
    // White may play anything, and the capture is no capture at all.
    let p = pos("4k3/8/8/p7/8/8/8/R3K3 w - - 0 1 void:a3");
    let moves = plain_sans(&p);
    assert!(moves.contains(&"Ke2".to_string()), "{moves:?}");
    assert!(!moves.contains(&"Rxa5".to_string()));
    // With two captures, either may be chosen; nothing else.
    let two = pos("4k3/8/8/3p1p2/4P3/8/8/R3K3 w - - 0 1 void:h8");
    assert_eq!(plain_sans(&two), ["exd5", "exf5"]);
}

#[test]
fn every_capture_moves_the_void_to_another_empty_square() {
    let p = pos("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1 void:h8");
    // Empty after exd5: 64 squares less the kings, the capturer and the void.
    assert_eq!(p.legal_moves().len(), 64 - 3 - 1);
    let targets: Vec<Square> = p.legal_moves().iter().map(|m| m.via.unwrap()).collect();
    assert!(
        targets.contains(&sq("e4")),
        "the capturer's old square is free"
    );
    assert!(!targets.contains(&sq("h8")) && !targets.contains(&sq("d5")));
    let mv = p.parse_move("exd5@e4").unwrap();
    assert_eq!(p.san(&mv), "exd5@e4");
    assert_eq!(p.coordinate(&mv), "e4d5@e4");
    assert_eq!(p.parse_move("e4d5@e4").unwrap(), mv);
    assert_eq!(p.parse_move("xd5@e4").unwrap(), mv);
    let after = p.after(&mv);
    assert!(after.fen().ends_with("void:e4"), "{}", after.fen());
    assert_eq!(
        err(&p, "exd5"),
        "exd5 is illegal: a capture moves the void too: say where, like exd5@a1"
    );
    assert_eq!(
        err(&p, "exd5@h8"),
        "exd5@h8 is illegal: the void already stands on h8; it must move to another square"
    );
    assert_eq!(
        err(&p, "exd5@e1"),
        "exd5@e1 is illegal: the void cannot move to e1: it needs an empty square"
    );
    assert_eq!(
        err(&p, "exd5@z9"),
        "'exd5@z9' is not a move I can read: write it like e4, Nf3, exd5, O-O or e2e4"
    );
    let quiet = pos("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 void:h8");
    assert!(err(&quiet, "e4@d4").contains("the void moves only together with a capture"));
}

#[test]
fn en_passant_frees_the_taken_pawns_square_for_the_void() {
    let p = pos("8/8/8/3pP3/8/8/8/7k w - d6 0 1 void:a1");
    let mv = p.parse_move("exd6@d5").unwrap();
    assert_eq!(mv.kind, MoveKind::EnPassant);
    let after = p.after(&mv);
    assert!(after.fen().starts_with("8/8/3P4/8/8/8/8/7k b"));
    assert!(after.fen().ends_with("void:d5"));
}

#[test]
fn the_king_is_ordinary_and_pawns_may_become_kings() {
    let p = pos("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1 void:a8");
    assert!(!p.is_check());
    assert_eq!(plain_sans(&p), ["Kxd2"]);
    assert!(p.parse_move("O-O").is_err());
    let promo = pos("8/4P3/8/8/8/8/8/k7 w - - 0 1 void:a8");
    assert_eq!(plain_sans(&promo), ["e8=B", "e8=K", "e8=N", "e8=Q", "e8=R"]);
}

#[test]
fn no_pieces_or_no_moves_left_wins() {
    let mut p = pos("8/8/8/8/8/8/8/Rn6 w - - 0 1 void:h8");
    p.play_text("Rxb1@a1").unwrap();
    assert_eq!(
        p.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::NothingLeftToGive
        })
    );
    // A pawn stuck behind the void has no move: its side wins.
    let stuck = pos("7k/8/8/8/8/8/P7/8 w - - 0 1 void:a3");
    assert_eq!(
        stuck.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::NothingLeftToGive
        })
    );
}

#[test]
fn repetition_and_the_fifty_move_rule_draw() {
    let mut p = pos("k7/8/8/8/8/8/8/7K w - - 0 1 void:d4");
    for m in ["Kg1", "Kb8", "Kh1", "Ka8", "Kg1", "Kb8", "Kh1", "Ka8"] {
        p.play_text(m).unwrap();
    }
    assert_eq!(
        p.outcome(),
        Some(Outcome::Draw(DrawReason::ThreefoldRepetition))
    );
    let late = pos("k7/8/8/8/8/8/8/7K w - - 99 80 void:d4");
    let mut late = late;
    late.play_text("Kg1").unwrap();
    assert_eq!(
        late.outcome(),
        Some(Outcome::Draw(DrawReason::FiftyMoveRule))
    );
}

#[test]
fn with_promotion_wins_a_pawn_on_the_last_rank_wins() {
    let mut p = pw("8/4P3/8/8/8/8/8/k7 w - - 0 1 void:a8");
    p.play_text("e8=Q").unwrap();
    assert_eq!(
        p.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::PawnPromoted
        })
    );
    assert!(p.legal_moves().is_empty());
    assert!(p.fen().contains("won:w"), "{}", p.fen());
    // The FEN keeps the result.
    let again = pw(&p.fen());
    assert_eq!(again.outcome(), p.outcome());
    // Without the option it is an ordinary promotion.
    let mut plain = pos("8/4P3/8/8/8/8/8/k7 w - - 0 1 void:a8");
    plain.play_text("e8=Q").unwrap();
    assert_eq!(plain.outcome(), None);
}

#[test]
fn a_promotion_that_takes_the_last_piece_loses() {
    // The capture comes first: Black has nothing left and wins.
    let mut p = pw("3r4/4P3/8/8/8/8/8/8 w - - 0 1 void:a1");
    p.play_text("exd8=Q@e7").unwrap();
    assert_eq!(
        p.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::NothingLeftToGive
        })
    );
    // With another black piece left, the same promotion wins for White.
    let mut q = pw("3r4/4P3/8/8/8/8/8/k7 w - - 0 1 void:h1");
    q.play_text("exd8=Q@e7").unwrap();
    assert_eq!(q.outcome().and_then(|o| o.winner()), Some(Color::White));
}

/// Black places the void before White's first move, so a position without
/// the void and White to move cannot arise: its FEN is refused.
#[test]
fn a_fen_without_the_void_needs_black_to_move() {
    let e = Position::from_fen(
        variants::suicide_void(false),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("Black to move"), "{e}");
    let p = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1");
    assert_eq!(p.turn(), Color::Black);
    assert!(p
        .legal_moves()
        .iter()
        .all(|m| m.kind == MoveKind::PlaceVoid));
}
