//! Black Holes: the page's own examples and every decision of
//! `docs/rules/black-holes.md`, each as a test.

use voidmate_rules::{
    variants, Color, DrawReason, MoveKind, Outcome, Position, Role, Square, WinReason,
};

mod common;
use common::sq;

fn pos(fen: &str) -> Position {
    Position::from_fen(variants::black_holes(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sans_from(p: &Position, from: &str) -> Vec<String> {
    let from = sq(from);
    let mut v: Vec<String> = p
        .legal_moves()
        .iter()
        .filter(|m| m.from == from && m.kind != MoveKind::Drop)
        .map(|m| p.san(m))
        .collect();
    v.sort();
    v
}

/// The page's diagram of relativistic moves.
const DIAGRAM: &str = "rn1qk/p1ppp/Bphh1/3hH/HP3/3N1/PBPPP/RH1QK";

#[test]
fn the_pages_rook_and_bishop_have_exactly_the_listed_relativistic_moves() {
    let p = pos(&format!("{DIAGRAM} w - - 0 1"));
    let relativistic = |from: &str| -> Vec<String> {
        sans_from(&p, from)
            .into_iter()
            .filter(|s| s.matches('-').count() >= 2)
            .collect()
    };
    assert_eq!(
        relativistic("a1"),
        ["Ra1-b1-a4xb4", "Ra1-b1-b1-c1", "Ra1-b1-b1xd1"]
    );
    assert_eq!(
        relativistic("b2"),
        ["Bb2-e5-a4-b5", "Bb2-e5-a4xc6", "Bb2-e5-b1xc2"]
    );
}

#[test]
fn the_pages_pawn_captures_are_legal() {
    let p = pos(&format!("{DIAGRAM} b - - 0 1"));
    for mv in [
        "d7-c6-d5xa2",
        "e7-d6-d5xa2",
        "d7-c6-d6xb4",
        "e7-d6-d6xb4",
        "Hd6-d5-c6xc2",
    ] {
        let m = p.parse_move(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
        assert_eq!(p.san(&m), mv);
    }
    // The page writes the knight's capture "Sb8-c6-c6xd2", but from c6 the
    // knight's line runs d4, e2 (as its own illustration game, 8...Sb8-c6-c6xe2,
    // shows): it takes the pawn on e2, and d2 is out of its reach.
    let knight = p.parse_move("Sb8-c6-c6xe2").unwrap();
    assert_eq!(p.san(&knight), "Nb8-c6-c6xe2");
    assert!(p.parse_move("Sb8-c6-c6xd2").is_err());
    // Which leaves exactly one white pawn that no black move can take.
    let taken: Vec<Square> = p
        .legal_moves()
        .iter()
        .filter(|m| {
            p.piece_at(m.to)
                .is_some_and(|x| x.color == Color::White && x.role == Role::Pawn)
        })
        .map(|m| m.to)
        .collect();
    let safe: Vec<&str> = ["a2", "b4", "c2", "d2", "e2"]
        .into_iter()
        .filter(|s| !taken.contains(&sq(s)))
        .collect();
    assert_eq!(safe, ["d2"]);
}

#[test]
fn the_pages_illustration_game_replays_and_relativistic_threats_count() {
    let mut p = Position::new(variants::black_holes());
    for mv in [
        "e4", "a5", "Ke2", "Ra6", "(He1)", "(Ha8)", "Ke3", "Ha7", "He2", "Hb6", "Hd3", "Hc6",
    ] {
        p.play_text(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
    // The b7 pawn threatens e4 through the hole on c6, the knight d4 and e2:
    // the white king has no square left.
    assert!(p.is_attacked(sq("e4"), Color::Black));
    assert!(p.is_attacked(sq("d4"), Color::Black) && p.is_attacked(sq("e2"), Color::Black));
    assert!(sans_from(&p, "e3").is_empty());
    for mv in ["d2-d3-d3-d6", "Ra6-c6-c6xd6", "Qe2", "Sb8-c6-c6xe2"] {
        p.play_text(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
    assert_eq!(p.fen(), "2bqk/1pppp/2hr1/p4/4P/3HK/PPP1n/RNB2 w - - 0 9");
}

#[test]
fn the_exercise_has_a_mate_in_one_for_each_side() {
    for (side, expected) in [
        ("w", vec!["Hc2#"]),
        ("b", vec!["Hb7-b6-d6xd2#", "Rc7-c6-d6xd2#"]),
    ] {
        let p = pos(&format!(
            "Bnkqb/1hrpH/1hhhp/p1p1H/H1P1P/PR3/Pp1P1/1QHKN {side} - - 0 1"
        ));
        let mut mates: Vec<String> = p
            .legal_moves()
            .iter()
            .filter(|m| {
                matches!(
                    p.after(m).outcome(),
                    Some(Outcome::Win {
                        reason: WinReason::Checkmate,
                        ..
                    })
                )
            })
            .map(|m| p.san(m))
            .collect();
        mates.sort();
        assert_eq!(mates, expected, "{side} to move");
    }
}

#[test]
fn holes_are_dropped_on_the_first_rank_and_may_block_a_check() {
    let p = Position::new(variants::black_holes());
    assert!(
        p.legal_moves().iter().all(|m| m.kind != MoveKind::Drop),
        "the first rank is full"
    );
    let mut q = pos("4k/5/5/5/5/5/5/K2r1 w - - 0 1");
    assert!(q.is_check());
    let drops: Vec<String> = q
        .legal_moves()
        .iter()
        .filter(|m| m.kind == MoveKind::Drop)
        .map(|m| q.san(m))
        .collect();
    assert_eq!(
        drops,
        ["(Hb1)", "(Hc1)"],
        "only the drops that cut the check"
    );
    assert_eq!(
        q.parse_move("H@c1").unwrap(),
        q.parse_move("(Hc1)").unwrap()
    );
    q.play_text("(Hc1)").unwrap();
    assert_eq!(q.piece_at(sq("c1")).unwrap().role, Role::Hole);
    // Any number of holes.
    let mut r = pos("4k/5/5/5/5/5/5/K4 w - - 0 1");
    for mv in ["(Hb1)", "Ke7", "(Hc1)", "Ke8", "(Hd1)"] {
        r.play_text(mv).unwrap();
    }
    assert_eq!(r.board().count(Color::White, Role::Hole), 3);
}

#[test]
fn a_hole_steps_like_a_king_without_capturing_and_is_never_captured_normally() {
    let p = pos("4k/5/5/5/1r3/1H3/5/K4 w - - 0 1");
    let mut steps = sans_from(&p, "b3");
    steps.retain(|s| !s.contains('-'));
    assert_eq!(steps, ["Ha2", "Ha3", "Ha4", "Hb2", "Hc2", "Hc3", "Hc4"]);
    // The black rook on b4 cannot take the hole on b3.
    let q = pos("4k/5/5/5/1r3/1H3/5/K4 b - - 0 1");
    assert!(!q.legal_moves().iter().any(|m| m.to == sq("b3")));
}

#[test]
fn pawns_double_step_promote_to_a_hole_and_castle_long_only() {
    let p = pos("4k/1P3/5/5/5/5/P4/R3K w Q - 0 1");
    let promos: Vec<String> = sans_from(&p, "b7");
    assert_eq!(promos, ["b8=B", "b8=H", "b8=N", "b8=Q+", "b8=R+"]);
    assert!(sans_from(&p, "a2").contains(&"a4".to_string()));
    let castle = p.parse_move("O-O-O").unwrap();
    let after = p.after(&castle);
    assert!(
        after.fen().starts_with("4k/1P3/5/5/5/5/P4/2KR1 b"),
        "{}",
        after.fen()
    );
    assert!(p.parse_move("O-O").is_err());
}

#[test]
fn a_pawn_entering_straight_must_end_empty_and_diagonally_must_capture() {
    // White holes on c3 and e5; the c2 pawn enters c3 straight and comes out
    // of c3 up the open file (promoting on c8), or of e5: e6 is empty, e7
    // holds a pawn it may not take.
    let p = pos("k4/4p/5/4H/5/2H2/2P2/K4 w - - 0 1");
    let pawn: Vec<String> = sans_from(&p, "c2")
        .into_iter()
        .filter(|s| s.contains("-c3-"))
        .collect();
    assert_eq!(
        pawn,
        [
            "c2-c3-c3-c4",
            "c2-c3-c3-c5",
            "c2-c3-c3-c6",
            "c2-c3-c3-c7",
            "c2-c3-c3-c8=B",
            "c2-c3-c3-c8=H",
            "c2-c3-c3-c8=N",
            "c2-c3-c3-c8=Q+",
            "c2-c3-c3-c8=R+",
            "c2-c3-e5-e6"
        ]
    );
    // Diagonally into d3, out of e5 to the north-east: nothing; out of d3 it
    // must reach something to take.
    let q = pos("k4/5/5/4H/1p3/3H1/2P2/K4 w - - 0 1");
    let diagonal: Vec<String> = sans_from(&q, "c2")
        .into_iter()
        .filter(|s| s.contains("-d3-"))
        .collect();
    assert!(diagonal.is_empty(), "{diagonal:?}");
    let r = pos("k4/5/5/4H/5/3H1/2P2/K4 w - - 0 1");
    assert!(sans_from(&r, "c2").iter().all(|s| !s.contains("-d3-")));
}

#[test]
fn the_king_never_moves_relativistically() {
    let p = pos("4k/5/5/5/5/5/1H3/K4 w - - 0 1");
    assert!(sans_from(&p, "a1").iter().all(|s| !s.contains('-')));
}

#[test]
fn endings_are_those_of_chess() {
    // A check along the last rank can be cut by a drop: no mate.
    let mut cut = pos("k4/5/K4/5/5/5/5/3R1 w - - 0 1");
    cut.play_text("Rd8+").unwrap();
    assert_eq!(cut.outcome(), None);
    let drop = cut.parse_move("(Hc8)").unwrap();
    assert_eq!(drop.to.to_string(), "c8");
    let after = cut.after(&drop);
    assert!(!after.is_check(), "the drop cuts the check");
    // A queen next to the king, guarded, cannot be blocked: mate.
    let mut mate = pos("k4/4Q/1K3/5/5/5/5/5 w - - 0 1");
    mate.play_text("Qb7#").unwrap();
    assert_eq!(
        mate.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::Checkmate
        })
    );
    let stalemate = pos("k4/2Q2/1K3/5/5/5/5/5 b - - 0 1");
    // Black can still drop a hole on its first rank, so it is not stalemate.
    assert!(stalemate
        .legal_moves()
        .iter()
        .any(|mv| mv.kind == MoveKind::Drop));
    let mut rep = pos("k4/5/5/5/5/5/5/4K w - - 0 1");
    for mv in ["Kd1", "Kb8", "Ke1", "Ka8", "Kd1", "Kb8", "Ke1", "Ka8"] {
        rep.play_text(mv).unwrap();
    }
    assert_eq!(
        rep.outcome(),
        Some(Outcome::Draw(DrawReason::ThreefoldRepetition))
    );
}

#[test]
fn bad_hole_notation_says_how_to_write_it() {
    let p = Position::new(variants::black_holes());
    let err = p.parse_move("e4@d4").unwrap_err().to_string();
    assert!(
        err.contains("write a hole's drop as (He1) or H@e1"),
        "{err}"
    );
    let q = pos("4k/5/5/5/5/5/5/K4 w - - 0 1");
    let err = q.parse_move("(Ha3)").unwrap_err().to_string();
    assert_eq!(
        err,
        "(Ha3) is illegal: a hole can only be dropped on an empty square of your first rank"
    );
}

// ---- issue 21: the move reader, en passant through a hole, long move lists ----

/// Text in any script is refused with a reason, never a panic (a chat line
/// `éé@a1` once took the whole bot down), and the position stays as it was.
#[test]
fn multi_byte_text_is_refused_without_panicking() {
    let long = "é".repeat(500);
    let inputs = [
        "éé@a1",
        "ßß@b2",
        "é@a1",
        "@é",
        "ée4",
        "H@é1",
        "(Hé1)",
        "Ré1-b1-a4xb4",
        "a1-é-b2-c3",
        "日本語@e5",
        "e2e4é",
        "",
        "   ",
        long.as_str(),
    ];
    for fen in [
        "rnbqk/ppppp/5/5/5/5/PPPPP/RNBQK w Qq - 0 1",
        "rn1qk/p1ppp/Bphh1/3hH/HP3/3N1/PBPPP/RH1QK w - - 0 1",
    ] {
        let p = pos(fen);
        for text in inputs {
            let mut q = p.clone();
            assert!(q.play_text(text).is_err(), "{text:?} was read as a move");
            assert_eq!(q.fen(), p.fen());
        }
    }
}

#[test]
fn a_pawn_out_of_a_hole_takes_en_passant() {
    let mut p = pos("4k/5/4p/3h1/5/5/1P3/4K w - - 0 1");
    p.play_text("b4").unwrap();
    assert_eq!(p.board().en_passant(), Some(sq("b3")), "{}", p.fen());
    let (mv, san) = p.play_text("e6-d5-d5xb3").unwrap();
    assert_eq!(mv.kind, MoveKind::EnPassant);
    assert_eq!(san, "e6-d5-d5xb3");
    assert_eq!(p.piece_at(sq("b4")), None, "the pawn taken en passant");
    assert_eq!(p.piece_at(sq("b3")).map(|p| p.role), Some(Role::Pawn));
}

#[test]
fn an_en_passant_square_nobody_can_use_is_dropped() {
    // No hole of Black's and no pawn beside: the square would only tell
    // equal positions apart.
    let mut p = pos("4k/5/4p/5/5/5/1P3/4K w - - 0 1");
    p.play_text("b4").unwrap();
    assert_eq!(p.board().en_passant(), None);
}

#[test]
fn the_piece_letter_and_the_capture_sign_are_checked() {
    let p = pos("rn1qk/p1ppp/Bphh1/3hH/HP3/3N1/PBPPP/RH1QK w - - 0 1");
    let rook_moves = sans_from(&p, "a1");
    let capture = rook_moves
        .iter()
        .find(|s| s.contains('x') && s.matches('-').count() == 2)
        .expect("a relativistic capture by the rook");
    let quiet = rook_moves
        .iter()
        .find(|s| s.matches('-').count() == 3)
        .expect("a relativistic move by the rook");
    let mv = p.parse_move(capture).unwrap();
    assert_eq!(&p.san(&mv), capture, "written back as read");
    let as_knight = capture.replacen('R', "N", 1);
    let e = p.parse_move(&as_knight).unwrap_err().to_string();
    assert!(e.contains("is a rook, not a knight"), "{e}");
    let wrong_sign = format!(
        "{}-{}",
        &capture[..capture.rfind('x').unwrap()],
        &capture[capture.rfind('x').unwrap() + 1..]
    );
    let e = p.parse_move(&wrong_sign).unwrap_err().to_string();
    assert!(e.contains("captures on"), "{e}");
    let i = quiet.rfind('-').unwrap();
    let wrong_sign = format!("{}x{}", &quiet[..i], &quiet[i + 1..]);
    let e = p.parse_move(&wrong_sign).unwrap_err().to_string();
    assert!(e.contains("captures nothing"), "{e}");
}

#[test]
fn only_holes_are_dropped_and_no_void_is_mentioned() {
    let p = pos("rnbqk/ppppp/5/5/5/5/PPPPP/R1BQK w Qq - 0 1");
    for text in ["(Nb1)", "N@b1", "(Qb1)"] {
        let e = p.parse_move(text).unwrap_err().to_string();
        assert!(e.contains("only holes are dropped"), "{text}: {e}");
    }
    let drop = p.parse_move("(Hb1)").unwrap();
    assert_eq!(drop.to.to_string(), "b1");
    assert_eq!(p.san(&drop), "(Hb1)");
    for text in ["@e5", "e2e4@e5", "Nf3@e5", "(Nb1)"] {
        let e = p.parse_move(text).unwrap_err().to_string();
        assert!(!e.contains("void"), "{text}: {e}");
    }
}

/// With holes nearly everywhere a side has more legal moves than the move
/// list holds on the stack; none is left out, and the last ones listed are
/// played like any other.
#[test]
fn no_move_list_is_ever_cut() {
    let p = pos("kr3/ppHHH/HHHHH/HHHHH/HHHHH/HHHHH/HHHHH/HHHHK w - - 0 1");
    let moves = p.legal_moves();
    assert!(moves.len() > voidmate_rules::MAX_MOVES, "{}", moves.len());
    assert_eq!(p.perft(1), moves.len() as u64);
    let mut distinct = moves.clone();
    distinct.sort_by_key(|m| format!("{m:?}"));
    distinct.dedup();
    assert_eq!(distinct.len(), moves.len(), "no move twice");
    for m in moves.iter().rev().take(12) {
        let san = p.san(m);
        assert_eq!(p.parse_move(&san).as_ref(), Ok(m), "{san}");
        let mut q = p.clone();
        q.play(m).unwrap();
    }
}

/// Issue 42, point 4: a relativistic move's path for its picture: the black
/// hole it enters and the white hole it leaves by, as its notation names
/// them; no holes for an ordinary move, nor for Suicide Void Chess's
/// compound capture (whose extra square is a void).
#[test]
fn a_relativistic_move_names_the_holes_it_passed() {
    let p = pos(&format!("{DIAGRAM} w - - 0 1"));
    for (text, black, white) in [
        ("Ra1-b1-a4xb4", "b1", "a4"),
        ("Bb2-e5-a4xc6", "e5", "a4"),
        ("Bb2-e5-b1xc2", "e5", "b1"),
    ] {
        let m = p.parse_move(text).unwrap();
        assert_eq!(p.holes_passed(&m), Some((sq(black), sq(white))), "{text}");
    }
    let plain = p.parse_move("Nd3c5").unwrap();
    assert_eq!(p.holes_passed(&plain), None);
    let s = Position::from_fen(
        variants::suicide_void(false),
        "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1 void:h8",
    )
    .unwrap();
    let compound: Vec<_> = s
        .legal_moves()
        .iter()
        .filter(|m| m.via.is_some())
        .copied()
        .collect();
    assert!(!compound.is_empty());
    for m in compound {
        assert_eq!(s.holes_passed(&m), None, "{}", s.san(&m));
    }
}
