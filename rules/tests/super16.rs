//! Super Chess 16x16: each new piece on an empty and a crowded board, the
//! Fortress's protection, castling next to a Fortress, Super Pawns, the draw
//! rules. Decisions are in `docs/rules/super16.md`.

use voidmate_rules::{variants, Color, DrawReason, Outcome, Position, Role, Square};

mod common;
use common::{sq, targets};

fn pos(fen: &str) -> Position {
    Position::from_fen(variants::super16(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// A lone piece of `letter` on h8 with the kings far away.
fn alone(letter: char) -> Position {
    pos(&format!(
        "k15/16/16/16/16/16/16/16/7{letter}8/16/16/16/16/16/16/15K w - - 0 1"
    ))
}

#[test]
fn the_prince_jumps_up_to_four_squares_any_way() {
    let p = alone('I');
    assert_eq!(targets(&p, "h8").len(), 32);
    assert!(targets(&p, "h8").contains(&"l12".to_string()));
    // Crowded: own pieces next to it do not stop its jumps.
    let c = pos("k15/16/16/16/16/16/16/6PPP7/6PIP7/6PPP7/16/16/16/16/16/15K w - - 0 1");
    let t = targets(&c, "h8");
    assert_eq!(t.len(), 24, "{t:?}");
    assert!(t.contains(&"h11".to_string()) && !t.contains(&"h9".to_string()));
}

#[test]
fn the_princess_slides_up_to_four_squares() {
    let p = alone('S');
    assert_eq!(targets(&p, "h8").len(), 32);
    assert!(!targets(&p, "h8").contains(&"h13".to_string()));
    // A blocker at distance 2 stops her there; an enemy there is taken.
    let c = pos("k15/16/16/16/16/16/7p8/16/7S8/16/7P8/16/16/16/16/15K w - - 0 1");
    let t = targets(&c, "h8");
    assert!(t.contains(&"h9".to_string()) && t.contains(&"h10".to_string()));
    assert!(!t.contains(&"h11".to_string()) && !t.contains(&"h6".to_string()));
    assert!(t.contains(&"h7".to_string()));
}

/// The Princess rides four squares along the Queen's lines, the Rook any
/// number along the same lines: the attack test keeps both ranges in one
/// walk a direction, and the first piece met attacks only if its own range
/// reaches.
#[test]
fn the_princess_checks_from_four_squares_and_blocks_a_rook_beyond() {
    // Black's king on a16, White's on p1, White's pieces on the a-file at
    // the ranks given; Black to move.
    let check = |pieces: &[(u8, char)]| {
        let rows: Vec<String> = (2..=15)
            .rev()
            .map(|rank| {
                pieces
                    .iter()
                    .find(|(r, _)| *r == rank)
                    .map_or("16".to_string(), |(_, p)| format!("{p}15"))
            })
            .collect();
        pos(&format!("k15/{}/15K b - - 0 1", rows.join("/"))).is_check()
    };
    assert!(check(&[(12, 'S')]));
    assert!(!check(&[(11, 'S')]));
    assert!(check(&[(2, 'R')]));
    // Five squares away the Princess does not attack, and she still stands
    // between the Rook and the king.
    assert!(!check(&[(11, 'S'), (2, 'R')]));
}

#[test]
fn the_archbishop_goes_three_diagonally_then_one_orthogonally_on_an_open_path() {
    let p = alone('H');
    let t = targets(&p, "h8");
    assert_eq!(t.len(), 16, "{t:?}");
    for s in ["l11", "k12", "j11", "k10", "d5", "e4"] {
        assert!(t.contains(&s.to_string()), "{s} in {t:?}");
    }
    // Any piece on the three diagonal squares, or the corner square, blocks.
    let c = pos("k15/16/16/16/16/10p5/16/8P7/7H8/16/16/16/16/16/16/15K w - - 0 1");
    let t = targets(&c, "h8");
    assert!(
        !t.iter()
            .any(|s| ["l11", "k12", "j11", "k10"].contains(&s.as_str())),
        "{t:?}"
    );
    assert!(t.contains(&"d11".to_string()));
}

#[test]
fn the_super_knight_jumps_three_then_one_diagonally() {
    let p = alone('U');
    let t = targets(&p, "h8");
    assert_eq!(t.len(), 16);
    for s in ["i12", "g12", "l9", "d7", "i10", "j9"] {
        assert!(t.contains(&s.to_string()), "{s} in {t:?}");
    }
    // Surrounded, it still jumps.
    let c = pos("k15/16/16/16/16/16/16/6PPP7/6PUP7/6PPP7/16/16/16/16/16/15K w - - 0 1");
    assert_eq!(targets(&c, "h8").len(), 16);
}

#[test]
fn the_fortress_steps_and_the_unprogrammed_piece_steps_straight() {
    assert_eq!(targets(&alone('F'), "h8").len(), 8);
    assert_eq!(targets(&alone('G'), "h8"), ["g8", "h7", "h9", "i8"]);
}

#[test]
fn a_non_royal_capturer_of_a_guarded_piece_is_removed_with_it() {
    // Black's knight on h9 stands next to Black's Fortress on h10.
    let fen = "k15/16/16/16/16/16/7f8/7n8/16/6N9/16/16/16/16/16/15K w - - 0 1";
    let mut p = pos(fen);
    p.play_text("Nxh9").unwrap();
    assert_eq!(p.piece_at(sq("h9")), None, "both are gone");
    assert_eq!(p.board().count(Color::White, Role::Knight), 0);
    // A Queen (royal) takes as usual.
    let mut q = pos("k15/16/16/16/16/16/7f8/7n8/16/16/16/16/16/16/7Q8/15K w - - 0 1");
    q.play_text("Qxh9").unwrap();
    assert_eq!(q.piece_at(sq("h9")).unwrap().role, Role::Queen);
    // Unguarded, the knight survives its capture.
    let mut r = pos("k15/16/16/16/16/16/16/7n8/16/6N9/16/16/16/16/16/15K w - - 0 1");
    r.play_text("Nxh9").unwrap();
    assert_eq!(r.piece_at(sq("h9")).unwrap().role, Role::Knight);
}

/// A knight taking a guarded piece is removed with it, so the square it
/// took empties too: where that piece stood between an enemy rook and the
/// own king, the capture leaves the king attacked and is not legal. The
/// same in a game read from a file with the `super16` hook and no
/// Archbishop: the legality filter once gave every capture the full test
/// only where the game had a path piece, and let this one through there.
#[test]
fn a_capture_whose_capturer_is_removed_may_not_open_a_line_to_the_own_king() {
    // Black's rook on a16, Black's pawn on a8 beside Black's Fortress on b9,
    // White's king on a1 and knight on c7.
    let fen = "r14k/16/16/16/16/16/16/1f14/p15/2N13/16/16/16/16/16/K15 w - - 0 1";
    let pieces = "[super16-small.pieces]\nP = \"pawn\"\nN = { moves = \"N\", name = \"knight\" }\n\
         R = { moves = \"R\", name = \"rook\" }\nQ = { moves = \"Q\", name = \"queen\" }\nK = \"king\"\n\
         F = { moves = \"K\", name = \"fortress\" }\n";
    let without_archbishop = voidmate_rules::defined::load(
        "no-archbishop.toml",
        &format!(
            "[super16-small]\nrules = \"super16\"\ntitle = \"Super Chess, few pieces\"\n\
             board = \"16x16\"\nstart = \"{fen}\"\npromotion = \"QRNF\"\n\n{pieces}"
        ),
    )
    .unwrap_or_else(|e| panic!("{e:?}"))[0];
    for rules in [variants::super16(), without_archbishop] {
        let p = Position::from_fen(rules, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let knight = targets(&p, "c7");
        let game = rules.name();
        assert!(!knight.contains(&"a8".to_string()), "{game}: {knight:?}");
        assert!(knight.contains(&"a6".to_string()), "{game}: {knight:?}");
        // Unguarded (no Fortress), the knight stays on a8 and still blocks.
        let open = Position::from_fen(rules, &fen.replace("/1f14/", "/16/")).unwrap();
        assert!(targets(&open, "c7").contains(&"a8".to_string()), "{game}");
    }
}

#[test]
fn castling_on_either_side_puts_the_king_next_to_a_fortress() {
    let start = Position::new(variants::super16());
    assert!(start
        .fen()
        .starts_with("rnbhusqkigbhunfr/5f3f6/pppppppppppppppp/"));
    // Clear the first rank between king and rooks, keep the Fortresses.
    let p = pos("r6k7r/5f3f6/pppppppppppppppp/16/16/16/16/16/16/16/16/16/16/PPPPPPPPPPPPPPPP/5F3F6/R6K7R w KQkq - 0 1");
    for (side, king) in [("O-O", "j1"), ("O-O-O", "f1")] {
        let after = p.after(&p.parse_move(side).unwrap());
        let k = after.board().king(Color::White).unwrap();
        assert_eq!(k, sq(king), "{side}");
        let next_to_fortress = (0..16).any(|f| {
            (0..2).any(|r| {
                let s = Square::new(f, r);
                s.distance(k) == 1 && after.piece_at(s).is_some_and(|x| x.role == Role::Fortress)
            })
        });
        assert!(next_to_fortress, "{side}: {}", after.fen());
    }
}

#[test]
fn super_pawns_step_one_or_two_on_every_move_and_promote_widely() {
    let p = pos("k15/16/16/16/16/16/16/16/7P8/16/16/16/16/16/16/15K w - - 0 1");
    assert_eq!(targets(&p, "h8"), ["h10", "h9"]);
    let q = pos("k15/7P8/16/16/16/16/16/16/16/16/16/16/16/16/16/15K w - - 0 1");
    let promos: Vec<Role> = q
        .legal_moves()
        .iter()
        .filter(|m| m.from == sq("h15"))
        .filter_map(|m| m.promotion)
        .collect();
    assert_eq!(promos.len(), 10);
    assert!(promos.contains(&Role::Prince) && promos.contains(&Role::Programmable));
    assert!(!promos.contains(&Role::King));
}

#[test]
fn the_hundred_move_rule_is_a_claim_and_repetition_draws() {
    let late = pos("k15/16/16/16/16/16/16/16/16/16/16/16/16/16/16/1R13K w - - 150 120");
    assert_eq!(late.outcome(), None, "no automatic 50-move draw");
    assert_eq!(late.claimable_draw(), None);
    let claim = pos("k15/16/16/16/16/16/16/16/16/16/16/16/16/16/16/1R13K w - - 200 150");
    assert_eq!(claim.claimable_draw(), Some(DrawReason::HundredMoveRule));
    let bare = pos("k15/16/16/16/16/16/16/16/16/16/16/16/16/16/16/15K w - - 0 1");
    assert_eq!(
        bare.outcome(),
        Some(Outcome::Draw(DrawReason::InsufficientMaterial))
    );
}

#[test]
fn no_legal_move_leaves_the_own_king_attacked() {
    // The legality filter skips the full test for moves that cannot expose
    // the king; check every move it lets through over random games.
    let mut state = 0x853c_49e6_748f_ea9bu64;
    for _ in 0..12 {
        let mut p = Position::new(variants::super16());
        for _ in 0..80 {
            if p.outcome().is_some() {
                break;
            }
            let moves = p.legal_moves();
            let me = p.turn();
            for m in &moves {
                let after = p.after(m);
                let king = after.board().king(me).expect("a king");
                assert!(
                    !after.is_attacked(king, !me),
                    "{} leaves the king attacked in {}",
                    p.san(m),
                    p.fen()
                );
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            p.play_unchecked(&moves[(state % moves.len() as u64) as usize]);
        }
    }
}

// ---- issue 21: default promotion, dead positions ----

#[test]
fn a_pawn_promotes_to_a_queen_unless_another_piece_is_named() {
    let fen = "k15/7P8/16/16/16/16/16/16/16/16/16/16/16/16/16/15K w - - 0 1";
    for text in ["h16", "h15h16", "h16+"] {
        let mut p = pos(fen);
        let (mv, san) = p.play_text(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(mv.promotion, Some(Role::Queen), "{text}");
        assert!(san.starts_with("h16=Q"), "{san}");
    }
    let mut p = pos(fen);
    let (mv, _) = p.play_text("h16=I").unwrap();
    assert_eq!(mv.promotion, Some(Role::Prince));
}

/// Decision (docs/rules/super16.md): a bare king against a king and one
/// Knight, Bishop, Super Knight, Archbishop or Programmable Piece, or
/// bishops all on one colour, can never be mated: drawn at once.
#[test]
fn material_that_can_never_mate_is_a_draw() {
    let dead = Some(Outcome::Draw(DrawReason::InsufficientMaterial));
    // The pieces stand on rank 8, off the kings' lines.
    let with = |piece: &str| {
        pos(&format!(
            "k15/16/16/16/16/16/16/16/{piece}/16/16/16/16/16/16/15K w - - 0 1"
        ))
    };
    for piece in [
        "7N8", "7B8", "7U8", "7H8", "7G8", "7n8", "16", "4B1B9", "4B1b9",
    ] {
        assert_eq!(with(piece).outcome(), dead, "{piece}");
    }
    // Pieces that can mate, two knights, or bishops on both colours play on.
    for piece in [
        "7F8", "7I8", "7S8", "7R8", "7Q8", "6NN8", "7N7n", "6BB8", "6B2b6", "7P8",
    ] {
        assert_eq!(with(piece).outcome(), None, "{piece}");
    }
}

/// In a game with reprogrammed pieces a knight may move like a queen:
/// only bare kings are a dead position there.
#[test]
fn programmed_games_draw_only_on_bare_kings() {
    let rules = voidmate_rules::variants::programmed(
        variants::super16(),
        &voidmate_rules::Program::parse(variants::super16(), "N: slide 1,0 0,1 1,1").unwrap(),
        &voidmate_rules::Program::none(),
    )
    .unwrap();
    let knight = Position::from_fen(
        rules.clone(),
        "k15/16/16/16/16/16/16/7N8/16/16/16/16/16/16/16/15K w - - 0 1",
    )
    .unwrap();
    assert_eq!(knight.outcome(), None);
    let bare = Position::from_fen(
        rules,
        "k15/16/16/16/16/16/16/16/16/16/16/16/16/16/16/15K w - - 0 1",
    )
    .unwrap();
    assert_eq!(
        bare.outcome(),
        Some(Outcome::Draw(DrawReason::InsufficientMaterial))
    );
}
