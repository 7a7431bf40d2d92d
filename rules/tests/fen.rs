//! FEN: round trips, the tile field, multi-digit rows, and clear errors.

use voidmate_rules::{
    movement,
    variant::{Definition, RoleDef, Variant},
    variants, Board, BoardSize, Color, FenError, Position, Role, Rules, Square, Tile,
};

#[test]
fn start_positions_round_trip_with_six_fields() {
    for rules in variants::all() {
        let p = Position::new(rules);
        assert_eq!(p.fen(), rules.definition().start_fen);
        assert_eq!(p.fen().split_whitespace().count(), 6);
    }
}

#[test]
fn the_tile_field_round_trips_and_six_fields_mean_no_tiles() {
    let fen = "4k4/9/9/p8/1R7/9/9/9/4K4 b - - 3 12 void:c3,b6;unstable:b5w12;siege:4";
    let p = Position::from_fen(variants::void(), fen).unwrap();
    assert_eq!(
        p.fen(),
        "4k4/9/9/p8/1R7/9/9/9/4K4 b - - 3 12 void:c3,b6;unstable:b5w12;siege:4"
    );
    assert_eq!(
        p.tile(Square::parse("b5").unwrap()),
        Tile::Unstable {
            owner: Color::White,
            since: 12
        }
    );
    assert_eq!(p.tile(Square::parse("c3").unwrap()), Tile::Void);
    assert_eq!(p.board().siege_plies(), 4);
    let plain =
        Position::from_fen(variants::void(), "4k4/9/9/p8/1R7/9/9/9/4K4 b - - 3 12").unwrap();
    assert!(plain
        .rules()
        .size()
        .squares()
        .all(|s| plain.tile(s) == Tile::Normal));
}

#[test]
fn regression_unstable_tile_on_the_b_file_is_read() {
    // The owner letter 'b' was once confused with the b-file.
    let fen = "4k4/9/9/9/9/9/9/1R7/4K4 b - - 0 40 unstable:b2w40";
    let p = Position::from_fen(variants::void(), fen).unwrap();
    assert_eq!(p.fen(), fen);
}

#[test]
fn corrupt_fens_get_specific_errors() {
    let void = variants::void();
    let cases: &[(&str, &str)] = &[
        ("", "the FEN is empty"),
        (
            "4k4/9/9/9/9/9/9/4K4 w - - 0 1",
            "the FEN has 8 ranks, this board has 9",
        ),
        (
            "4k4/9/9/9/9/9/9/9/4K5 w - - 0 1",
            "rank 1 of the FEN has 10 squares, the board is 9 wide",
        ),
        (
            "4k4/9/9/9/9/9/9/9/4X4 w - - 0 1",
            "'X' is not a piece of this variant",
        ),
        (
            "4k4/9/9/9/9/9/9/9/4K4 x - - 0 1",
            "the side to move must be 'w' or 'b', not 'x'",
        ),
        (
            "4k4/9/9/9/9/9/9/9/4K4 w K - 0 1",
            "bad castling field: 'K' needs the White king on e1 and a rook on i1",
        ),
        (
            "4k4/9/9/9/9/9/9/9/4K4 w - e3 0 1",
            "bad en passant field: no Black pawn has just passed over e3",
        ),
        (
            "4k4/9/9/9/9/9/9/9/4K4 w - - x 1",
            "bad move counter: 'x' is not a number",
        ),
        (
            "4k4/9/9/9/9/9/9/9/4K4 w - - 0 1 void:e1",
            "bad tile field: e1 is void but holds a piece",
        ),
        (
            "4k4/9/9/9/9/9/9/9/4K4 w - - 0 1 unstable:d4w1",
            "bad tile field: the unstable tile d4 must hold a piece of its owner, White",
        ),
        (
            "4k4/9/9/9/9/9/9/9/4K4 w - - 0 1 holes:d4",
            "bad tile field: unknown part 'holes' (expected void, unstable, siege or won)",
        ),
        (
            "9/9/9/9/9/9/9/9/4K4 w - - 0 1",
            "Black has 0 kings; each side needs exactly one",
        ),
        (
            "4k4/4R4/9/9/9/9/9/9/4K4 w - - 0 1",
            "the side that just moved is in check, which cannot happen",
        ),
        (
            "4k3P/9/9/9/9/9/9/9/4K4 w - - 0 1",
            "a pawn on i9 stands on its promotion rank",
        ),
    ];
    for (fen, msg) in cases {
        let err = Position::from_fen(void, fen).unwrap_err();
        assert_eq!(&err.to_string(), msg, "{fen}");
    }
    assert_eq!(
        Position::from_fen(void, "4k4/9/9/9/9/9/9/9/4K4 w - - 0 1 - extra").unwrap_err(),
        FenError::TooManyFields
    );
}

#[test]
fn missing_counters_default_and_an_uncapturable_en_passant_square_is_dropped() {
    let p = Position::from_fen(variants::standard(), "4k3/8/8/8/4P3/8/8/4K3 b - e3").unwrap();
    assert_eq!(p.fen(), "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1");
    let q = Position::from_fen(variants::standard(), "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1").unwrap();
    assert_eq!(q.fen(), "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
}

// ---- Boards at both ends of the range, through test-only variants ----

struct Wide;
impl Variant for Wide {
    fn definition(&self) -> Definition {
        Definition {
            name: "wide-test",
            title: "16x16 test board",
            size: BoardSize::new(16, 16).unwrap(),
            roster: roster(),
            start_fen: "4k11/16/16/16/16/16/16/16/16/16/16/16/16/16/16/4K11 w - - 0 1",
            promotion: vec![Role::Queen],
            castling: None,
            royal: Some(Role::King),
        }
    }
    fn insufficient_material(&self, _rules: &Rules, _: &Board) -> bool {
        false
    }
}

struct Narrow;
impl Variant for Narrow {
    fn definition(&self) -> Definition {
        Definition {
            name: "narrow-test",
            title: "5x8 test board",
            size: BoardSize::new(5, 8).unwrap(),
            roster: roster(),
            start_fen: "rnbqk/ppppp/5/5/5/5/PPPPP/RNBQK w - - 0 1",
            promotion: vec![Role::Queen, Role::Knight],
            castling: None,
            royal: Some(Role::King),
        }
    }
    fn insufficient_material(&self, _rules: &Rules, _: &Board) -> bool {
        false
    }
}

fn roster() -> Vec<RoleDef> {
    use movement::*;
    vec![
        RoleDef {
            role: Role::Pawn,
            letter: 'P',
            movement: pawn(),
        },
        RoleDef {
            role: Role::Knight,
            letter: 'N',
            movement: knight(),
        },
        RoleDef {
            role: Role::Bishop,
            letter: 'B',
            movement: bishop(),
        },
        RoleDef {
            role: Role::Rook,
            letter: 'R',
            movement: rook(),
        },
        RoleDef {
            role: Role::Queen,
            letter: 'Q',
            movement: queen(),
        },
        RoleDef {
            role: Role::King,
            letter: 'K',
            movement: king(),
        },
    ]
}

fn leak(v: &'static dyn Variant) -> &'static Rules {
    Box::leak(Box::new(Rules::new(v)))
}

#[test]
fn a_16x16_board_reads_multi_digit_rows_and_plays_to_the_far_edge() {
    static WIDE: Wide = Wide;
    let rules = leak(&WIDE);
    let mut p = Position::new(rules);
    assert_eq!(p.fen(), rules.definition().start_fen);
    let q = Position::from_fen(
        rules,
        "4k11/16/16/16/16/16/16/16/16/16/16/16/16/16/16/Q3K11 w - - 0 1",
    )
    .unwrap();
    // Queen on a1: 15 up, 3 right (to the king), 15 diagonal = 33.
    assert_eq!(
        q.legal_moves()
            .iter()
            .filter(|m| m.from == Square::parse("a1").unwrap())
            .count(),
        33
    );
    let mut r = q.clone();
    r.play_text("Qa16").unwrap();
    assert_eq!(
        r.fen(),
        "Q3k11/16/16/16/16/16/16/16/16/16/16/16/16/16/16/4K11 b - - 1 1"
    );
    assert_eq!(r.san(&r.parse_move("Kf15").unwrap()), "Kf15");
    p.play_text("Kf2").unwrap();
    assert_eq!(p.perft(2), 5 * 8, "5 edge-king moves, then 8");
}

#[test]
fn a_5x8_board_plays_and_perft_agrees_with_brute_force() {
    static NARROW: Narrow = Narrow;
    let rules = leak(&NARROW);
    let p = Position::new(rules);
    // Pawns: 5 single + 5 double steps; knight b1: a3, c3 (d2 is taken).
    assert_eq!(p.perft(1), 12);
    let mut total = 0;
    for m in p.legal_moves() {
        total += p.after(&m).legal_moves().len() as u64;
    }
    assert_eq!(p.perft(2), total);
    assert!(Position::from_fen(rules, "rnbqk/ppppp/6/5/5/5/PPPPP/RNBQK w - - 0 1").is_err());
}

// ---- issue 21: bad input gets a clear error, never a panic ----

#[test]
fn a_non_ascii_owner_letter_in_the_tile_field_is_an_error() {
    for tiles in [
        "unstable:a1é3",
        "unstable:e5é",
        "unstable:éé",
        "void:é1",
        "siege:é",
    ] {
        let fen = format!("4k4/9/9/9/4R4/9/9/9/4K4 w - - 0 1 {tiles}");
        let e = Position::from_fen(variants::void(), &fen).unwrap_err();
        assert!(matches!(e, FenError::Tiles(_)), "{tiles}: {e}");
    }
}

#[test]
fn pawns_on_their_own_first_rank_are_refused() {
    for (rules, fen) in [
        (variants::standard(), "4k3/8/8/8/8/8/8/P3K3 w - - 0 1"),
        (variants::standard(), "p3k3/8/8/8/8/8/8/4K3 w - - 0 1"),
        (variants::void(), "4k4/9/9/9/9/9/9/9/P3K4 w - - 0 1"),
        (variants::chess99(), "4k4/9/9/9/9/9/9/9/P3K4 w - - 0 1"),
    ] {
        let e = Position::from_fen(rules, fen).unwrap_err();
        assert!(matches!(e, FenError::PawnOnFirstRank(_)), "{fen}: {e}");
        assert!(e.to_string().contains("first rank"), "{e}");
    }
}

#[test]
fn move_counters_are_bounded_and_never_wrap() {
    let e =
        Position::from_fen(variants::standard(), "4k3/8/8/8/8/8/8/4K3 b - - 0 65535").unwrap_err();
    assert!(matches!(e, FenError::Counter(_)), "{e}");
    assert!(e.to_string().contains("50000"), "{e}");
    let e = Position::from_fen(
        variants::standard(),
        "4k3/8/8/8/8/8/8/4K3 b - - 99999999999 1",
    )
    .unwrap_err();
    assert!(matches!(e, FenError::Counter(_)), "{e}");
    let mut p =
        Position::from_fen(variants::standard(), "4k3/8/8/8/8/8/8/R3K3 b - - 0 50000").unwrap();
    p.play_text("Kd7").unwrap();
    assert_eq!(p.board().fullmove_number(), 50001);
}

/// The null move a search uses: the other side to move, nothing else
/// changed, never out of check.
#[test]
fn a_null_move_hands_over_the_turn_and_nothing_else() {
    use voidmate_rules::{variants, Color, Position};
    let pos = Position::from_fen(
        variants::standard(),
        "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
    )
    .unwrap();
    let passed = pos.after_null().expect("not in check");
    assert_eq!(passed.turn(), Color::Black);
    assert_eq!(
        passed.fen(),
        "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3"
    );
    assert_ne!(passed.board().key(), pos.board().key());
    assert_eq!(passed.board().key(), passed.board().recomputed_key());
    assert!(passed.legal_moves().iter().all(|m| passed
        .piece_at(m.from)
        .is_some_and(|p| p.color == Color::Black)));
    let check = Position::from_fen(
        variants::standard(),
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    )
    .unwrap();
    assert!(check.after_null().is_none());
}
