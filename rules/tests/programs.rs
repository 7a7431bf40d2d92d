//! Reprogrammed pieces in Super Chess 16x16: reading programs, each way of
//! moving on an empty and a crowded board, Black's mirrored vectors,
//! attacks and check by programmed pieces, programmed pawns. Decisions are
//! in `docs/rules/super16.md`.

use voidmate_rules::program::MAX_REACH;
use voidmate_rules::{variants, Color, Position, Program, Role};

mod common;
use common::{sq, targets};

fn program(text: &str) -> Program {
    Program::parse(variants::super16(), text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn refusal(text: &str) -> String {
    Program::parse(variants::super16(), text)
        .expect_err(text)
        .to_string()
}

fn pos_with(white: &str, black: &str, fen: &str) -> Position {
    let rules = variants::programmed(variants::super16(), &program(white), &program(black))
        .expect("super16 is programmable");
    Position::from_fen(rules, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// A white knight on h8, kings in the corners.
const LONE_KNIGHT: &str = "k15/16/16/16/16/16/16/16/7N8/16/16/16/16/16/16/15K w - - 0 1";

#[test]
fn programs_read_leniently_and_print_canonically() {
    let p = program("n: Jump 2,1 (1,2) 2,1 ;  rook : slides 1,0 -1,0\nG: step 0,1 jump 3,3");
    assert_eq!(
        p.to_string(),
        "N: jump 1,2 2,1; R: slide -1,0 1,0; G: step 0,1 jump 3,3"
    );
    assert_eq!(program(&p.to_string()), p, "the canonical text reads back");
    assert_eq!(program("default").to_string(), "default");
    // Lines joined by a chat platform still read.
    assert_eq!(
        program("N: jump 2,1 super knight: step 1,1 R: slide 1,0").to_string(),
        "N: jump 2,1; R: slide 1,0; U: step 1,1"
    );
    assert!(program("N: default").is_default());
    assert!(program("").is_default());
    assert_eq!(
        program("super knight: step 1,1")
            .roles()
            .collect::<Vec<_>>(),
        [Role::SuperKnight]
    );
}

#[test]
fn bad_programs_are_refused_with_the_reason() {
    assert!(refusal("Z: jump 1,1").contains("not a piece of this game"));
    assert!(refusal("N jump 1,1").contains("names no piece"));
    assert!(refusal("N: 1,1").contains("step"));
    assert!(refusal("N: hop 1,1").contains("not a way to move"));
    assert!(refusal("N: jump 1;1").contains("not a vector"));
    assert!(refusal("N: jump 1,x").contains("not a vector"));
    assert!(refusal("N: jump 0,0").contains("goes nowhere"));
    assert!(refusal("N: jump 16,0").contains("leaves the board"));
    assert!(refusal("N: jump 1,2; N: jump 2,1").contains("twice"));
    assert!(refusal("N:").contains("no vectors"));
    // A piece that reaches more than MAX_REACH squares.
    let mut all = String::from("Q: jump");
    for r in -5..=5 {
        for f in -5..=5 {
            if (r, f) != (0, 0) {
                all.push_str(&format!(" {r},{f}"));
            }
        }
    }
    let why = refusal(&all);
    assert!(why.contains("120 squares"), "{why}");
    assert!(why.contains(&format!("at most {MAX_REACH}")), "{why}");
    // The queen's own eight slides are fine.
    program("Q: slide 1,0 -1,0 0,1 0,-1 1,1 1,-1 -1,1 -1,-1");
    // Not for other games.
    let other = variants::programmed(
        variants::standard(),
        &program("N: jump 1,1"),
        &Program::none(),
    );
    assert!(other.unwrap_err().to_string().contains("only Super Chess"));
}

#[test]
fn a_jump_goes_exactly_there_over_anything() {
    let p = pos_with("N: jump 3,0 0,-3", "default", LONE_KNIGHT);
    assert_eq!(targets(&p, "h8"), sorted(&["h11", "e8"]));
    // Crowded: pieces between do not matter; an own piece on the target does.
    let c = pos_with(
        "N: jump 3,0 0,-3",
        "default",
        "k15/16/16/16/16/16/7p8/7P8/6PN8/16/16/16/16/16/16/15K w - - 0 1",
    );
    assert_eq!(targets(&c, "h8"), sorted(&["h11", "e8"]));
    let own = pos_with(
        "N: jump 3,0 0,-3",
        "default",
        "k15/16/16/16/16/16/16/16/4P2N8/16/16/16/16/16/16/15K w - - 0 1",
    );
    assert_eq!(targets(&own, "h8"), ["h11"]);
}

#[test]
fn a_step_needs_the_straight_way_empty() {
    let p = pos_with("N: step 3,0 2,1", "default", LONE_KNIGHT);
    assert_eq!(targets(&p, "h8"), sorted(&["h11", "i10"]));
    // A piece on h9 blocks the straight step; the bent 2,1 has nothing between.
    let c = pos_with(
        "N: step 3,0 2,1",
        "default",
        "k15/16/16/16/16/16/16/7p8/7N8/16/16/16/16/16/16/15K w - - 0 1",
    );
    assert_eq!(targets(&c, "h8"), ["i10"]);
}

#[test]
fn a_slide_repeats_the_vector_until_something_stops_it() {
    let p = pos_with("N: slide 1,0", "default", LONE_KNIGHT);
    assert_eq!(targets(&p, "h8").len(), 8, "h9 to h16");
    // An enemy on h12 is taken and stops the slide; squares between two
    // repetitions of 2,0 are not looked at.
    let c = pos_with(
        "N: slide 1,0 2,0",
        "default",
        "k15/16/16/16/7p8/16/16/7P8/7N8/16/16/16/16/16/16/15K w - - 0 1",
    );
    assert_eq!(targets(&c, "h8"), sorted(&["h10", "h12"]));
}

#[test]
fn black_vectors_count_forward_from_black_and_mirror_whites() {
    let fen = "k15/16/16/16/16/16/16/7n8/16/16/16/16/16/16/16/15K b - - 0 1";
    let p = pos_with("default", "N: jump 2,1", fen);
    // Black's knight on h9: two ranks towards White, one file towards p.
    assert_eq!(targets(&p, "h9"), ["i7"]);
    // The same program for White on h8 goes to i10: a mirror image.
    let w = pos_with("N: jump 2,1", "default", LONE_KNIGHT);
    assert_eq!(targets(&w, "h8"), ["i10"]);
    // Each side's program is its own: White's knight here is unchanged.
    let both = pos_with(
        "default",
        "N: jump 2,1",
        "k15/16/16/16/16/16/16/7n8/7N8/16/16/16/16/16/16/15K w - - 0 1",
    );
    assert_eq!(targets(&both, "h8").len(), 8);
}

#[test]
fn programmed_pieces_give_check_and_default_attacks_of_the_role_vanish() {
    // A black rook programmed to step one square forward only.
    let fen = "k15/16/16/16/16/16/16/7r8/16/16/16/16/16/16/16/7K8 w - - 0 1";
    let p = pos_with("default", "R: step 1,0", fen);
    // The rook on h9 no longer attacks down the h-file: the king may stay.
    assert!(!p.is_check());
    assert!(!p.is_attacked(sq("h2"), Color::Black));
    // It attacks h8 (one square towards White).
    assert!(p.is_attacked(sq("h8"), Color::Black));
    // A white king next to it may not step into its reach.
    let k = pos_with(
        "default",
        "R: step 1,0",
        "k15/16/16/16/16/16/16/7r8/16/7K8/16/16/16/16/16/16 w - - 0 1",
    );
    let t = targets(&k, "h7");
    assert!(
        !t.contains(&"h8".to_string()) && t.contains(&"g8".to_string()),
        "{t:?}"
    );
    // Check by a programmed jump must be answered.
    let c = pos_with(
        "default",
        "N: jump 5,5",
        "k15/16/16/16/16/16/16/16/16/16/2n13/16/16/16/16/7K8 w - - 0 1",
    );
    // Black's 5,5 from c6: five ranks towards White, five files towards p.
    assert!(c.is_check());
    assert!(c.legal_moves().iter().all(|m| m.from == sq("h1")));
}

#[test]
fn a_programmed_pawn_moves_by_its_program_and_still_promotes() {
    let p = pos_with(
        "P: step 1,1 1,-1",
        "default",
        "k15/16/16/16/16/16/16/16/7P8/16/16/16/16/16/16/15K w - - 0 1",
    );
    assert_eq!(targets(&p, "h8"), sorted(&["g9", "i9"]));
    let q = pos_with(
        "P: step 1,1 1,-1",
        "default",
        "k15/7P8/16/16/16/16/16/16/16/16/16/16/16/16/16/15K w - - 0 1",
    );
    let promos = q
        .legal_moves()
        .iter()
        .filter(|m| m.from == sq("h15"))
        .count();
    assert_eq!(promos, 20, "two squares, ten promotion pieces each");
    let mut q2 = q.clone();
    let (_, san) = q2.play_text("g16=I").unwrap();
    // The start square is always named in a programmed game (issue 21, point 8).
    assert_eq!(san, "h15g16=I");
    assert_eq!(q2.piece_at(sq("g16")).map(|p| p.role), Some(Role::Prince));
}

#[test]
fn the_same_programs_give_the_same_rules() {
    let a = variants::programmed(
        variants::super16(),
        &program("N: jump 1,1"),
        &Program::none(),
    )
    .unwrap();
    let b = variants::programmed(
        variants::super16(),
        &program("n: jump 1,1"),
        &Program::none(),
    )
    .unwrap();
    assert!(a.same(&b));
    let none =
        variants::programmed(variants::super16(), &Program::none(), &Program::none()).unwrap();
    assert!(none.same(&variants::super16().into()));
    assert!(a.is_programmed() && !none.is_programmed());
}

/// Rules built for programs are not kept for ever: the cache holds a bounded
/// number, and rules that fell out of it live exactly as long as a position
/// uses them (issue 17, point 10).
#[test]
fn programmed_rules_are_cached_with_a_bound_and_freed_after_use() {
    let build = |n: usize| {
        variants::programmed(
            variants::super16(),
            &program(&format!("N: jump {},1", n % 7 + 1)),
            &program(&format!("N: jump 1,{}", n / 7 + 1)),
        )
        .unwrap()
    };
    let first = build(0);
    // The cache and this handle hold the rules now.
    assert_eq!(first.holders(), Some(2));
    let pos = Position::new(first.clone());
    drop(first);
    for n in 1..=variants::PROGRAMMED_CACHE + 5 {
        build(n);
    }
    // Out of the cache: only the position holds them, and dropping it
    // frees them.
    assert_eq!(pos.shared_rules().holders(), Some(1));
    assert!(!pos.legal_moves().is_empty(), "the position still works");
    let again = build(0);
    assert!(!again.same(pos.shared_rules()), "built anew");
    assert_eq!(
        voidmate_rules::SharedRules::from(variants::super16()).holders(),
        None
    );
}

#[test]
fn random_programmed_games_never_leave_the_king_attacked() {
    let white = "N: jump 3,1 1,3 -3,1; B: slide 1,2 -1,-2; P: step 1,0 1,1 1,-1; K: step 1,0 0,1 0,-1 -1,0 2,0";
    let black = "Q: slide 1,0 0,1 0,-1 jump 2,2; R: step 2,0 0,2 0,-2 -2,0; U: jump 5,0";
    let rules =
        variants::programmed(variants::super16(), &program(white), &program(black)).unwrap();
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..6 {
        let mut p = Position::new(rules.clone());
        for _ in 0..120 {
            if p.outcome().is_some() {
                break;
            }
            let moves = p.legal_moves();
            let me = p.turn();
            for m in &moves {
                let after = p.after(m);
                let king = after.board().king(me).expect("a king");
                assert!(!after.is_attacked(king, !me), "{} in {}", p.san(m), p.fen());
                let parsed = p
                    .parse_move(&p.san(m))
                    .unwrap_or_else(|e| panic!("{} in {}: {e}", p.san(m), p.fen()));
                assert_eq!(&parsed, m);
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            p.play_unchecked(&moves[(state % moves.len() as u64) as usize]);
        }
    }
}

#[test]
fn a_double_step_onto_the_last_rank_promotes() {
    // Regression: a Super Pawn on rank 14 stepping two landed on rank 16
    // unpromoted.
    let p = Position::from_fen(
        variants::super16(),
        "k15/16/7P8/16/16/16/16/16/16/16/16/16/16/16/16/15K w - - 0 1",
    )
    .unwrap();
    let to16: Vec<_> = p
        .legal_moves()
        .into_iter()
        .filter(|m| m.to == sq("h16"))
        .collect();
    assert_eq!(to16.len(), 10);
    assert!(to16.iter().all(|m| m.promotion.is_some()));
}

// ---- issue 21: public notation, bounded vectors ----

/// Notation that others see must not depend on a secret program: in a
/// programmed game every move names its start square, so `Nbh4` (which
/// would tell that the other knight can reach h4 too) is never written.
#[test]
fn public_notation_reveals_nothing_of_a_program() {
    let p = pos_with(
        "N: jump 3,1 1,3 -3,1",
        "default",
        "k15/16/16/16/16/16/16/16/16/16/16/16/16/16/16/1N3N9K w - - 0 1",
    );
    for m in p.legal_moves() {
        let san = p.san(&m);
        assert!(san.contains(&m.from.to_string()), "{san} hides its start");
        assert_eq!(p.parse_move(&san), Ok(m), "{san}");
    }
    // The opponent's unprogrammed pieces are written the same way: whether
    // a piece is programmed is secret too.
    let q = pos_with(
        "N: jump 3,1",
        "default",
        "k15/16/16/16/16/16/16/16/16/16/16/16/16/16/16/1N13K b - - 0 1",
    );
    let (_, san) = q.clone().play_text("Kb16").unwrap();
    assert_eq!(san, "Ka16b16");
}

#[test]
fn vectors_out_of_range_are_refused_with_the_reason() {
    for text in [
        "N: jump -128,0",
        "N: jump 999,1",
        "N: jump 1,-999",
        "N: jump 16,0",
        "N: jump 99999999999999999999999,1",
    ] {
        let e = refusal(text);
        assert!(e.contains("at most 15 squares"), "{text}: {e}");
    }
    assert!(refusal("N: jump 1é,2").contains("not a vector"));
    // The largest vectors are kept as written.
    let longest = Program::parse(variants::super16(), "N: jump -15,15").unwrap();
    assert!(longest.to_string().contains("-15,15"), "{longest}");
}
