//! Antichess: every rule of `docs/rules/antichess.md`, each as a test.

use voidmate_rules::{variants, Color, DrawReason, Outcome, Position, WinReason};

fn pos(fen: &str) -> Position {
    Position::from_fen(variants::antichess(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sans(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(|m| p.san(m)).collect();
    v.sort();
    v
}

#[test]
fn a_capture_must_be_made_when_one_is_possible_and_any_capture_will_do() {
    let p = pos("4k3/8/8/3p4/4P3/8/8/R3K3 w - - 0 1");
    assert_eq!(sans(&p), ["exd5"]);
    let two = pos("4k3/8/8/3p1p2/4P3/8/8/R3K3 w - - 0 1");
    assert_eq!(sans(&two), ["exd5", "exf5"]);
    let err = p.parse_move("Ra2").unwrap_err();
    assert!(err.to_string().starts_with("Ra2 is illegal"), "{err}");
}

#[test]
fn the_king_is_an_ordinary_piece_with_no_check_and_no_castling() {
    // The white king may walk next to the rook's file and be taken; no check.
    let p = pos("r3k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert!(!p.is_check());
    assert!(sans(&p).contains(&"Kd1".to_string()));
    assert!(p.parse_move("O-O-O").is_err());
    let mut taken = pos("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1");
    taken.play_text("Kxd2").unwrap();
    let mut king_gone = pos("4k3/8/8/8/8/8/8/r3K3 b - - 0 1");
    king_gone.play_text("Rxe1").unwrap();
    assert_eq!(king_gone.board().king(Color::White), None);
}

#[test]
fn pawns_promote_to_a_king_too() {
    let p = pos("4k3/P7/8/8/8/8/8/8 w - - 0 1");
    assert_eq!(sans(&p), ["a8=B", "a8=K", "a8=N", "a8=Q", "a8=R"]);
    let mut q = p.clone();
    q.play_text("a8=K").unwrap();
    assert_eq!(q.fen(), "K3k3/8/8/8/8/8/8/8 b - - 0 1");
}

#[test]
fn having_no_piece_or_no_move_wins() {
    // Black's last piece is taken: Black, to move with nothing, wins.
    let mut p = pos("8/8/8/8/8/8/8/Rn6 w - - 0 1");
    p.play_text("Rxb1").unwrap();
    assert_eq!(
        p.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::NothingLeftToGive
        })
    );
    // Blocked with no legal move: the blocked side wins.
    let stuck = pos("8/8/8/8/8/p7/P7/8 w - - 0 1");
    assert!(stuck.legal_moves().is_empty());
    assert_eq!(
        stuck.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::NothingLeftToGive
        })
    );
}

#[test]
fn en_passant_is_a_capture_and_so_compulsory() {
    let mut p = pos("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    p.play_text("d5").unwrap();
    assert_eq!(sans(&p), ["exd6"]);
}

#[test]
fn repetition_and_the_fifty_move_rule_draw_but_material_never_runs_out() {
    let bare = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(
        bare.outcome(),
        None,
        "two kings can still give themselves away"
    );
    let mut fifty = pos("4k3/8/8/8/8/8/8/4K3 w - - 99 80");
    fifty.play_text("Kd1").unwrap();
    assert_eq!(
        fifty.outcome(),
        Some(Outcome::Draw(DrawReason::FiftyMoveRule))
    );
}

/// Issue 20, point 6: no check exists here, so a refused move names the
/// capture that is due, never a king in check.
#[test]
fn a_refused_move_names_the_compulsory_capture() {
    let mut p = voidmate_rules::Position::new(voidmate_rules::variants::antichess());
    p.play_text("e4").unwrap();
    p.play_text("d5").unwrap();
    let e = p.parse_move("Nf3").unwrap_err().to_string();
    assert!(
        e.contains("a capture is compulsory") && e.contains("exd5"),
        "{e}"
    );
    assert!(!e.contains("check"), "{e}");
    let mut s = voidmate_rules::Position::new(voidmate_rules::variants::suicide_void(false));
    for m in ["@a6", "e4", "d5"] {
        s.play_text(m).unwrap();
    }
    let e = s.parse_move("Nf3").unwrap_err().to_string();
    assert!(e.contains("you must play exd5@"), "{e}");
    assert!(!e.contains("check"), "{e}");
}
