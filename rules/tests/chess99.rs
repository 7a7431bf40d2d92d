//! Chess 99: every rule and decision of `docs/rules/chess99.md`, each as a test.

use voidmate_rules::{variants, Color, DrawReason, MoveKind, Outcome, Position, Role, WinReason};

fn pos(fen: &str) -> Position {
    Position::from_fen(variants::chess99(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sans(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(|m| p.san(m)).collect();
    v.sort();
    v
}

fn has(p: &Position, san: &str) -> bool {
    sans(p).iter().any(|s| s == san)
}

#[test]
fn the_set_up_mirrors_the_queens_and_the_paladin_moves_as_knight_and_bishop() {
    let p = Position::new(variants::chess99());
    assert_eq!(
        p.fen(),
        "rnbakqbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKABNR w - - 0 1"
    );
    assert_eq!(p.piece_at("d1".parse().unwrap()).unwrap().role, Role::Queen);
    assert_eq!(p.piece_at("f9".parse().unwrap()).unwrap().role, Role::Queen);
    assert_eq!(
        p.piece_at("f1".parse().unwrap()).unwrap().role,
        Role::Paladin
    );
    let open = pos("4k4/9/9/9/4A4/9/9/9/4K4 w - - 0 1");
    let paladin: Vec<String> = sans(&open)
        .into_iter()
        .filter(|s| s.starts_with('A'))
        .collect();
    // 8 knight leaps and the four diagonals of e5 on 9x9 (4 + 4 + 4 + 4 = 16).
    assert_eq!(paladin.len(), 8 + 16, "{paladin:?}");
}

#[test]
fn pawns_advance_one_or_two_empty_squares_on_every_move() {
    let p = pos("4k4/9/9/9/4P4/9/9/9/4K4 w - - 0 1");
    assert!(has(&p, "e6") && has(&p, "e7"));
    let blocked = pos("4k4/9/9/4p4/4P4/9/9/9/4K4 w - - 0 1");
    assert!(!has(&blocked, "e6") && !has(&blocked, "e7"));
    let half = pos("4k4/9/4p4/9/4P4/9/9/9/4K4 w - - 0 1");
    assert!(has(&half, "e6") && !has(&half, "e7"));
}

#[test]
fn any_piece_that_could_capture_on_the_passed_square_takes_en_passant() {
    // Black's d-pawn jumps from d8 to d6, passing d7: White's knight on b6
    // takes it by landing on d7.
    let mut p = pos("4k4/3p5/9/1N7/9/9/9/9/4K4 b - - 0 1");
    p.play_text("d6").unwrap();
    let mv = p.parse_move("Nxd7").unwrap();
    assert_eq!(mv.kind, MoveKind::EnPassant);
    let after = p.after(&mv);
    assert_eq!(after.fen(), "4k4/9/3N5/9/9/9/9/9/4K4 b - - 0 2");
    // A king, a bishop, a pawn too; and only on the very next move.
    let mut q = pos("4k4/3p5/9/2K6/9/9/9/9/9 b - - 0 1");
    q.play_text("d6").unwrap();
    assert!(has(&q, "Kxd7") || has(&q, "Kxd7+"), "{:?}", sans(&q));
    let mut r = pos("4k4/3p5/9/9/9/9/9/9/4K3R b - - 0 1");
    r.play_text("d6").unwrap();
    r.play_text("Kf1").unwrap();
    r.play_text("Ke8").unwrap();
    assert!(!sans(&r).iter().any(|s| s.contains("d7")));
}

#[test]
fn the_king_castles_with_a_neighbour_or_across_empty_squares_with_queen_or_rook() {
    let p = pos("4k4/9/9/9/9/9/9/9/R3K3R w - - 0 1");
    let mut castles: Vec<String> = sans(&p)
        .into_iter()
        .filter(|s| s.starts_with("O-"))
        .collect();
    castles.sort();
    assert_eq!(castles, ["O-a1+", "O-i1+"]);
    // At a distance the king steps once and the rook takes its square.
    let far = p.after(&p.parse_move("O-i1").unwrap());
    assert_eq!(far.fen(), "4k4/9/9/9/9/9/9/9/R3RK3 b - - 1 1");
    // Next to it, any piece swaps; a bishop at a distance does not castle.
    let next = pos("4k4/9/9/9/9/9/9/9/2B1KN3 w - - 0 1");
    let castles: Vec<String> = sans(&next)
        .into_iter()
        .filter(|s| s.starts_with("O-"))
        .collect();
    assert_eq!(castles, ["O-f1"]);
    let swapped = next.after(&next.parse_move("e1f1").unwrap());
    assert!(swapped.fen().starts_with("4k4/9/9/9/9/9/9/9/2B1NK3 b"));
    // In check, into check, again and again.
    let checked = pos("4k4/9/9/9/9/9/9/9/3QK1r2 w - - 0 1");
    assert!(checked.is_check());
    let mut g = checked.clone();
    g.play_text("O-d1").unwrap();
    g.play_text("Kd8").unwrap();
    g.play_text("O-e1").unwrap();
    assert!(
        g.fen().starts_with("9/3k5/9/9/9/9/9/9/3QK1r2 b"),
        "{}",
        g.fen()
    );
    assert!(p
        .parse_move("O-O")
        .unwrap_err()
        .to_string()
        .contains("name the piece the king castles with"));
}

#[test]
fn moves_may_leave_the_king_attacked_and_check_is_shown() {
    let p = pos("4k4/9/9/9/9/9/9/4r4/4K4 w - - 0 1");
    assert!(p.is_check());
    // Walking along the rook's rank stays attacked, and is legal.
    assert!(has(&p, "Kd2") || has(&p, "Kxe2"));
    assert!(has(&p, "Kd1"));
    let q = pos("4k4/9/9/9/9/9/9/9/Q3K4 w - - 0 1");
    assert!(has(&q, "Qa9+"));
}

#[test]
fn capturing_the_king_wins_unless_it_is_pyrrhic_or_in_check() {
    let mut p = pos("4k4/9/9/9/9/9/9/9/R3K4 w - - 0 1");
    p.play_text("Ra9").unwrap();
    p.play_text("Kd8").unwrap_or_else(|e| panic!("{e}"));
    let mut win = pos("4k4/4R4/9/9/9/9/9/9/4K4 w - - 0 1");
    win.play_text("Rxe9").unwrap();
    assert_eq!(
        win.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::KingCaptured
        })
    );
    assert!(win.legal_moves().is_empty());
    // The taker's own king stands attacked after the capture: a draw.
    let mut in_check = pos("4k4/4R4/9/9/9/9/9/9/r3K4 w - - 0 1");
    in_check.play_text("Rxe9").unwrap();
    assert_eq!(
        in_check.outcome(),
        Some(Outcome::Draw(DrawReason::KingTakenInCheck))
    );
    // Only a king left to take with: a Pyrrhic victory, drawn.
    let mut pyrrhic = pos("9/9/9/9/9/9/9/3k5/4K4 w - - 0 1");
    pyrrhic.play_text("Kxd2").unwrap();
    assert_eq!(
        pyrrhic.outcome(),
        Some(Outcome::Draw(DrawReason::PyrrhicVictory))
    );
}

#[test]
fn a_pawn_on_the_last_rank_waits_then_becomes_a_knight_or_bishop_and_moves() {
    let mut p = pos("k8/4P4/9/9/9/9/9/9/4K4 w - - 0 1");
    let (_, san) = p.play_text("e9").unwrap();
    assert_eq!(san, "e9");
    assert_eq!(p.piece_at("e9".parse().unwrap()).unwrap().role, Role::Pawn);
    p.play_text("Kb8").unwrap();
    let s = sans(&p);
    assert!(
        s.contains(&"e9=Nd7+".to_string()) && s.contains(&"e9=Bd8".to_string()),
        "{s:?}"
    );
    assert!(!s.iter().any(|m| m.contains("=Q") || m.contains("=R")));
    let (mv, san) = p.play_text("e9=Nd7+").unwrap();
    assert_eq!(san, "e9=Nd7+");
    assert_eq!(
        p.piece_at("d7".parse().unwrap()).unwrap().role,
        Role::Knight
    );
    assert!(p.piece_at("e9".parse().unwrap()).is_none());
    assert_eq!(mv.promotion, Some(Role::Knight));
    // The coordinate form reads too.
    let mut q = pos("k8/9/9/9/9/9/9/9/4K4 w - - 0 1");
    q = Position::from_fen(variants::chess99(), &q.fen().replace("k8", "k3P4")).unwrap();
    let m = q.parse_move("e9d8b").unwrap();
    assert_eq!(q.san(&m), "e9=Bd8");
}

#[test]
fn no_stalemate_no_repetition_and_no_fifty_move_draws() {
    let late = pos("4k4/9/9/9/9/9/9/9/R3K4 w - - 150 90");
    assert_eq!(late.outcome(), None);
    let mut p = pos("4k4/9/9/9/9/9/9/9/R3K4 w - - 0 1");
    for m in [
        "Ra2", "Kd9", "Ra1", "Ke9", "Ra2", "Kd9", "Ra1", "Ke9", "Ra2",
    ] {
        p.play_text(m).unwrap();
    }
    assert_eq!(p.outcome(), None);
}

#[test]
fn both_kings_attacked_or_99_moves_let_the_player_to_move_claim_a_draw() {
    let mutual = pos("4k3R/9/9/9/9/9/9/9/r3K4 w - - 0 1");
    assert_eq!(mutual.claimable_draw(), Some(DrawReason::BothKingsAttacked));
    let one = pos("4k3R/9/9/9/9/9/9/9/4K4 w - - 0 1");
    assert_eq!(one.claimable_draw(), None);
    // White to move on move 100: Black has made 99 moves.
    let long = pos("4k4/9/9/9/9/9/9/9/R3K4 w - - 0 100");
    assert_eq!(long.claimable_draw(), Some(DrawReason::NinetyNineMoves));
    let short = pos("4k4/9/9/9/9/9/9/9/R3K4 w - - 0 99");
    assert_eq!(short.claimable_draw(), None);
}

#[test]
fn the_start_has_pawn_knight_paladin_and_castling_moves() {
    let p = Position::new(variants::chess99());
    let s = sans(&p);
    let count = |f: &dyn Fn(&String) -> bool| s.iter().filter(|m| f(m)).count();
    assert_eq!(
        count(&|m| m.chars().next().unwrap().is_ascii_lowercase()),
        18
    );
    assert_eq!(count(&|m| m.starts_with('N')), 4);
    assert_eq!(count(&|m| m.starts_with('A')), 2);
    assert_eq!(count(&|m| m.starts_with("O-")), 2);
    assert_eq!(s.len(), 26);
}

#[test]
fn a_plain_pawn_move_is_never_read_as_a_waiting_pawns_promotion() {
    // Regression: `b7` was ambiguous with the a9 pawn becoming a knight on b7.
    let p = pos("P3k4/9/9/1P7/9/9/9/9/4K4 w - - 0 1");
    assert_eq!(p.parse_move("b7").unwrap().from, "b6".parse().unwrap());
    let knight = p.parse_move("a9=Nb7").unwrap();
    assert_eq!(
        (knight.from, knight.promotion),
        ("a9".parse().unwrap(), Some(Role::Knight))
    );
    assert_eq!(p.parse_move("a9b7n").unwrap(), knight);
}

// ---- issue 21: the waiting pawn attacks; en passant as the page pictures it ----

/// A pawn waiting on the last rank may become a bishop or knight and move
/// in one go, so it attacks what those pieces would: one attack test serves
/// check, the king-capture draw and the claims.
#[test]
fn a_waiting_pawn_attacks_like_its_promotion_pieces() {
    let p = pos("4P4/3k5/9/9/9/9/9/9/4K3q b - - 0 1");
    assert!(p.is_check(), "the pawn on e9 attacks d8 as a bishop would");
    // Taking the king while the waiting pawn attacks one's own is a draw.
    let mut q = p.clone();
    q.play_text("Qxe1").unwrap();
    assert_eq!(
        q.outcome(),
        Some(Outcome::Draw(DrawReason::KingTakenInCheck))
    );
    // With White to move, both kings are attacked: a claim.
    let w = pos("4P4/3k5/9/9/9/9/9/9/4K3q w - - 0 1");
    assert_eq!(w.claimable_draw(), Some(DrawReason::BothKingsAttacked));
    // A pawn arriving on the last rank gives check at once.
    let mut r = pos("9/3kP4/9/9/9/9/9/9/4K4 w - - 0 1");
    let (_, san) = r.play_text("e9").unwrap();
    assert_eq!(san, "e9+");
    // As a knight it attacks c8, f7 and g8 too, but not d9 or e8.
    let k = pos("4P4/9/9/9/9/9/9/9/4K1k2 b - - 0 1");
    for (sq, attacked) in [
        ("c8", true),
        ("f7", true),
        ("g8", true),
        ("d9", false),
        ("e8", false),
    ] {
        let s = voidmate_rules::Square::parse(sq).unwrap();
        assert_eq!(k.is_attacked(s, Color::White), attacked, "{sq}");
    }
}

/// Decision: en passant is taken as if the pawn had stopped on the square
/// it passed, so a rook behind the pawn, blocked by it now, still takes.
#[test]
fn en_passant_as_if_the_pawn_were_pushed_back() {
    let mut p = pos("8k/4r4/9/9/9/9/9/4P4/K8 w - - 0 1");
    p.play_text("e4").unwrap();
    assert!(has(&p, "Rxe3"), "{:?}", sans(&p));
    let (mv, _) = p.play_text("Rxe3").unwrap();
    assert_eq!(mv.kind, MoveKind::EnPassant);
    assert_eq!(p.piece_at(sq("e4")), None, "the pawn is taken");
    assert_eq!(
        p.piece_at(sq("e3")).map(|p| (p.color, p.role)),
        Some((Color::Black, Role::Rook))
    );
    // The right lasts one move only.
    let mut q = pos("8k/4r4/9/9/9/9/9/4P4/K8 w - - 0 1");
    q.play_text("e4").unwrap();
    q.play_text("Kh8").unwrap();
    q.play_text("Kb1").unwrap();
    assert!(!has(&q, "Rxe3"));
}

fn sq(s: &str) -> voidmate_rules::Square {
    voidmate_rules::Square::parse(s).unwrap()
}

/// Issue 20, point 6: `c9=N` names the new piece but not its square; the
/// answer says where it may go, not that a pawn stands on c9.
#[test]
fn a_promotion_without_a_square_asks_where_the_piece_goes() {
    let mut p = pos("4k4/2P6/9/9/9/9/9/9/4K4 w - - 0 1");
    p.play_text("c9").unwrap();
    p.play_text("Kd8").unwrap();
    let e = p.parse_move("c9=N").unwrap_err().to_string();
    assert!(e.contains("say where") && e.contains("c9=Nb7"), "{e}");
    assert!(!e.contains("your own pawn"), "{e}");
    let mv = p.parse_move("c9=Nb7").unwrap();
    assert_eq!(mv.promotion, Some(Role::Knight));
    assert_eq!(mv.to.to_string(), "b7", "the knight goes where it was told");
}
