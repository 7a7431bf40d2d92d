//! SAN out, and the forgiving reader of moves in, with its error messages.

use voidmate_rules::{variants, MoveErrorKind, Position};

fn std_pos(fen: &str) -> Position {
    Position::from_fen(variants::standard(), fen).unwrap()
}

fn void_pos(fen: &str) -> Position {
    Position::from_fen(variants::void(), fen).unwrap()
}

/// The SAN of the move `text` reads as.
fn read(p: &Position, text: &str) -> String {
    let mv = p.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    p.san(&mv)
}

#[test]
fn san_output_covers_castling_promotion_minister_checks_and_mate() {
    let p = void_pos("r3k3r/1P7/9/9/4M4/9/9/9/R3K3R w KQkq - 0 1");
    let sans: Vec<String> = p.legal_moves().iter().map(|m| p.san(m)).collect();
    for want in ["O-O", "O-O-O", "bxa9=M", "b9=Q+", "b9=M", "Mg7+", "Me7#"] {
        assert!(
            sans.contains(&want.to_string()),
            "{want} missing from {sans:?}"
        );
    }
    let mate = std_pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    assert_eq!(read(&mate, "Ra8"), "Ra8#");
}

#[test]
fn san_disambiguates_minimally() {
    // Knights on d3 and g4 both reach e5 (file); rooks on a1 and a5 (rank).
    let p = void_pos("4k4/9/9/9/R8/6N2/3N5/9/R3K4 w - - 0 1");
    assert_eq!(read(&p, "Nde5"), "Nde5");
    assert_eq!(read(&p, "Nge5"), "Nge5");
    assert_eq!(read(&p, "R1a3"), "R1a3");
    assert_eq!(read(&p, "R5a3"), "R5a3");
    assert_eq!(read(&p, "Nb4"), "Nb4", "only the d3 knight reaches b4");
    // Three queens: file and rank both needed.
    let q = std_pos("1k6/8/8/8/Q2Q4/8/8/Q3K3 w - - 0 1");
    assert_eq!(read(&q, "Qa4d1"), "Qa4d1");
}

#[test]
fn lenient_input_is_read_when_it_is_unambiguous() {
    let start = Position::new(variants::standard());
    for (text, san) in [
        ("nf3", "Nf3"),
        ("Ng1f3", "Nf3"),
        ("Ng1-f3", "Nf3"),
        ("g1f3", "Nf3"),
        ("Nf3+!?", "Nf3"),
        ("e2e4", "e4"),
        ("E4", "e4"),
        ("e2-e4", "e4"),
    ] {
        assert_eq!(read(&start, text), san, "{text}");
    }
    let p = std_pos("4k3/8/8/3p4/4P3/8/8/R3K2R w KQ - 0 1");
    for (text, san) in [
        ("exd5", "exd5"),
        ("xd5", "exd5"),
        ("ed5", "exd5"),
        ("0-0", "O-O"),
        ("o-o-o", "O-O-O"),
        ("Rad1", "Rd1"),
        ("Rhf1", "Rf1"),
    ] {
        assert_eq!(read(&p, text), san, "{text}");
    }
    let rooks = std_pos("4k3/8/8/8/8/8/8/2R1K2R w - - 0 1");
    assert_eq!(read(&rooks, "Rcd1"), "Rd1", "over-disambiguated");
    let promo = void_pos("4k4/9/9/9/9/9/9/4p4/K8 b - - 0 1");
    for text in ["e1=M", "e1M", "e1m", "e1(M)", "e2e1m"] {
        assert_eq!(read(&promo, text), "e1=M", "{text}");
    }
}

#[test]
fn a_pawn_reading_wins_over_a_piece_reading() {
    // bxc3 is the b-pawn taking, though the bishop on a5 could also take on c3.
    let p = std_pos("4k3/8/8/B7/8/2n5/1P6/4K3 w - - 0 1");
    assert_eq!(read(&p, "bxc3"), "bxc3");
    assert_eq!(read(&p, "Bxc3"), "Bxc3");
}

#[test]
fn ambiguous_input_lists_the_candidates() {
    let p = void_pos("4k4/9/9/9/9/6N2/3N5/9/4K4 w - - 0 1");
    let err = p.parse_move("e5").unwrap_err();
    assert_eq!(err.to_string(), "e5 is ambiguous: Nde5, Nge5");
    let pawns = std_pos("4k3/8/8/3p4/2P1P3/8/8/4K3 w - - 0 1");
    assert_eq!(
        pawns.parse_move("xd5").unwrap_err().to_string(),
        "xd5 is ambiguous: cxd5, exd5"
    );
}

#[test]
fn bad_input_gets_a_reason_a_player_understands() {
    let start = Position::new(variants::void());
    let cases = [
        (
            "hello",
            "'hello' is not a move I can read: write it like e4, Nf3, exd5, O-O or e2e4",
        ),
        (
            "",
            "'' is not a move I can read: write it like e4, Nf3, exd5, O-O or e2e4",
        ),
        (
            "Zf3",
            "'Zf3' is not a move I can read: write it like e4, Nf3, exd5, O-O or e2e4",
        ),
        ("j5", "j5: j5 is not on this board (files a-i, ranks 1-9)"),
        ("Nf3", "Nf3 is illegal: no knight of yours can move to f3"),
        ("Ke2", "Ke2 is illegal: your own pawn stands on e2"),
        ("e5", "e5 is illegal: no pawn of yours can move to e5"),
        ("e3e4", "e3e4 is illegal: there is no piece on e3"),
        ("e8e7", "e8e7 is illegal: the pawn on e8 is not yours"),
        (
            "O-O",
            "O-O is illegal: castling on the king side needs f1 to be empty",
        ),
        (
            "e4=Q",
            "e4=Q is illegal: only a pawn reaching the last rank promotes",
        ),
        (
            "Mg3",
            "Mg3 is illegal: your minister on g1 cannot move to g3",
        ),
    ];
    for (text, msg) in cases {
        assert_eq!(
            start.parse_move(text).unwrap_err().to_string(),
            msg,
            "{text}"
        );
    }
    let long = "e4".repeat(40);
    assert_eq!(
        start.parse_move(&long).unwrap_err().kind,
        MoveErrorKind::TooLong
    );

    let pinned = std_pos("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1");
    assert_eq!(
        pinned.parse_move("Bd3").unwrap_err().to_string(),
        "Bd3 is illegal: it would leave your king on e1 in check"
    );
    let check = std_pos("4k3/4r3/8/8/8/8/8/R3K3 w - - 0 1");
    assert_eq!(
        check.parse_move("Ra2").unwrap_err().to_string(),
        "Ra2 is illegal: your king on e1 is in check and this move does not answer it"
    );
    assert_eq!(
        check.parse_move("Ke2").unwrap_err().to_string(),
        "Ke2 is illegal: your king would be in check on e2"
    );
    assert_eq!(
        check.parse_move("O-O-O").unwrap_err().to_string(),
        "O-O-O is illegal: you can no longer castle on the queen side: the king or that rook has moved"
    );
}

#[test]
fn a_failed_parse_changes_nothing() {
    let mut p = Position::new(variants::void());
    let before = p.fen();
    assert!(p.play_text("Qh5").is_err());
    assert_eq!(p.fen(), before);
}

// ---- issue 21: text as people paste it; no void words without a void ----

#[test]
fn move_numbers_joined_to_moves_are_read_like_apart() {
    let read: Vec<&str> = voidmate_rules::san::movetext("1.e4 a5 2.Ke2").collect();
    assert_eq!(read, ["e4", "a5", "Ke2"]);
    let read: Vec<&str> =
        voidmate_rules::san::movetext("1. e4 e5 2. Nf3 2... Nc6 3.O-O 0-0 12...Nf6 1-0").collect();
    assert_eq!(read, ["e4", "e5", "Nf3", "Nc6", "O-O", "0-0", "Nf6"]);
    assert_eq!(
        voidmate_rules::san::movetext("1. 2... * 1/2-1/2").count(),
        0
    );
    assert_eq!(
        voidmate_rules::san::movetext("é 1.é").collect::<Vec<_>>(),
        ["é", "é"]
    );
}

#[test]
fn typographic_signs_are_read_and_other_scripts_refused() {
    let mut p = Position::from_fen(
        variants::standard(),
        "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
    )
    .unwrap();
    // Read as the moves they stand for, not merely accepted.
    for (typographic, plain) in [("e4×d5", "exd5"), ("d2–d3", "d3")] {
        let mut q = p.clone();
        q.play_text(typographic).unwrap();
        let want = p.after(&p.parse_move(plain).unwrap());
        assert_eq!(q.fen(), want.fen(), "{typographic}");
    }
    for text in ["é4", "ｅ4", "e４", "Nf3é", "日本"] {
        assert!(p.play_text(text).is_err(), "{text}");
    }
}

#[test]
fn games_without_a_void_never_speak_of_one() {
    for rules in [
        variants::standard(),
        variants::antichess(),
        variants::chess99(),
    ] {
        let p = Position::new(rules);
        for text in ["@e5", "e4@e5", "Nf3@e5", "exd5@e4"] {
            let e = p.parse_move(text).unwrap_err().to_string();
            assert!(!e.contains("void"), "{}: {text}: {e}", rules.name());
        }
    }
    // Void Chess has voids, but none that a player moves.
    let e = Position::new(variants::void())
        .parse_move("e4@e5")
        .unwrap_err()
        .to_string();
    assert!(e.contains("no @ part"), "{e}");
}
