//! Repetition by the rules of chess: two positions are the same when the
//! same moves are legal in them, so an en-passant right that cannot be used
//! does not tell them apart (issue 21, point 4).

use voidmate_rules::{variants, DrawReason, Outcome, Position, Rules};

fn play(rules: &'static Rules, fen: &str, moves: &str) -> Position {
    let mut p = Position::from_fen(rules, fen).unwrap();
    for m in moves.split_whitespace() {
        assert_eq!(p.outcome(), None, "over before {m}");
        p.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    p
}

#[test]
fn an_en_passant_right_that_is_illegal_to_use_does_not_count() {
    // After e4 the pawn on d4 could take en passant, but the capture would
    // open the rook's line to the king on a4: the right is worth nothing.
    let fen = "8/8/8/8/k2p3R/8/4P3/4K3 w - - 0 1";
    let after_e4 = play(variants::standard(), fen, "e4");
    assert_eq!(after_e4.board().en_passant(), None);
    assert!(after_e4.fen().contains(" b - - "), "{}", after_e4.fen());
    let p = play(
        variants::standard(),
        fen,
        "e4 Ka5 Kf1 Ka4 Ke1 Ka5 Kf1 Ka4 Ke1",
    );
    assert_eq!(p.repetitions(), 3);
    assert_eq!(
        p.outcome(),
        Some(Outcome::Draw(DrawReason::ThreefoldRepetition))
    );
}

#[test]
fn a_usable_en_passant_right_still_counts() {
    // Without the rook the capture is legal: the first position differs.
    let fen = "8/8/8/8/k2p4/8/4P3/4K3 w - - 0 1";
    let after_e4 = play(variants::standard(), fen, "e4");
    assert!(after_e4.board().en_passant().is_some());
    let p = play(
        variants::standard(),
        fen,
        "e4 Ka5 Kf1 Ka4 Ke1 Ka5 Kf1 Ka4 Ke1",
    );
    assert_eq!(p.repetitions(), 2);
    assert_eq!(p.outcome(), None);
}

#[test]
fn void_chess_counts_repetitions_the_same_way() {
    let fen = "9/9/9/9/9/k2p4R/9/4P4/4K4 w - - 0 1";
    let after_e4 = play(variants::void(), fen, "e4");
    assert_eq!(after_e4.board().en_passant(), None);
    let p = play(variants::void(), fen, "e4 Ka5 Kf1 Ka4 Ke1 Ka5 Kf1 Ka4 Ke1");
    assert_eq!(
        p.outcome(),
        Some(Outcome::Draw(DrawReason::ThreefoldRepetition))
    );
}

#[test]
fn the_history_keeps_only_what_repetition_can_still_use() {
    // Kings walk (reversible), then a pawn moves: nothing before the pawn
    // move can come again, so the history starts over there.
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    let walked = play(variants::standard(), fen, "Kd1 Kd8 Ke1 Ke8");
    assert_eq!(walked.history().len(), 4);
    assert_eq!(walked.repetitions(), 2);
    let pushed = play(variants::standard(), fen, "Kd1 Kd8 Ke1 Ke8 e3");
    assert!(pushed.history().is_empty());
    let again = play(
        variants::standard(),
        fen,
        "Kd1 Kd8 Ke1 Ke8 e3 Kd8 Kd1 Ke8 Ke1",
    );
    assert_eq!(again.history().len(), 4);
    assert_eq!(again.repetitions(), 2, "counted since the pawn move only");
}

#[test]
fn a_position_after_a_move_alone_is_the_same_position_without_its_past() {
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    let p = play(variants::standard(), fen, "Kd1 Kd8 Ke1");
    let m = p.parse_move("Ke8").unwrap();
    let (full, alone) = (p.after(&m), p.after_alone(&m));
    assert_eq!(full.fen(), alone.fen());
    assert_eq!(full.board().key(), alone.board().key());
    assert_eq!(full.repetitions(), 2);
    assert!(alone.history().is_empty());
    assert_eq!(alone.repetitions(), 1);
}
