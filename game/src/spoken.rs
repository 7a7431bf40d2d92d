//! Moves said in words, as a newcomer types them: `pawn to d6`, `knight
//! takes f3`, `e7 e5`, `e7 to e5`, `castle kingside`. Each is read against
//! the position it is meant for, so the move played is the one legal move
//! the words describe, and words that fit none or several get a reply that
//! says so and gives the notation to use.

use voidmate_rules::{MoveKind, Position, Role, Square};

/// What a line said in words is, before a position reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Spoken {
    /// Two squares (`e7 e5`, `e7 to e5`): the piece on the first to the second.
    FromTo(Square, Square),
    /// A piece named in words and where it goes (`knight to f3`).
    Piece(Role, Square),
    /// `castle kingside` / `castle short` (true), `castle queenside` / `long`.
    Castle { king_side: bool },
}

/// Connecting words between a piece or square and where it goes.
const LINKS: [&str; 8] = ["to", "-", "x", "takes", "captures", "on", "moves", "goes"];

/// Reads `text` as a move said in words, or `None` where it is not one
/// (a move in notation, a command, chatter).
pub(crate) fn form(text: &str) -> Option<Spoken> {
    let lower = text.trim().to_lowercase();
    let words: Vec<&str> = lower
        .split_whitespace()
        .filter(|w| !LINKS.contains(w))
        .collect();
    let square = |w: &str| {
        let w = w.trim_end_matches(['!', '?', '.', ',']);
        Square::parse(w).filter(|_| w.len() <= 3)
    };
    match words.as_slice() {
        ["castle" | "castles" | "castling", side] => match *side {
            "kingside" | "short" | "king-side" => Some(Spoken::Castle { king_side: true }),
            "queenside" | "long" | "queen-side" => Some(Spoken::Castle { king_side: false }),
            _ => None,
        },
        [a, b] => {
            if let (Some(from), Some(to)) = (square(a), square(b)) {
                return Some(Spoken::FromTo(from, to));
            }
            let role = role_named(a)?;
            Some(Spoken::Piece(role, square(b)?))
        }
        ["super", "knight", b] => Some(Spoken::Piece(Role::SuperKnight, square(b)?)),
        _ => None,
    }
}

/// The role a word names (`knight`, `knights`, `minster` is not one).
fn role_named(word: &str) -> Option<Role> {
    let word = word.strip_suffix('s').unwrap_or(word);
    Role::ALL
        .into_iter()
        .find(|r| r.name() == word && *r != Role::Hole)
}

/// `text` in notation `pos` reads: the move its words describe when it is
/// said in words, else `text` as it is; or why the words fit no move.
pub(crate) fn notation<'a>(
    pos: &Position,
    text: &'a str,
) -> Result<std::borrow::Cow<'a, str>, String> {
    match form(text) {
        Some(spoken) => read(pos, &spoken).map(std::borrow::Cow::Owned),
        None => Ok(std::borrow::Cow::Borrowed(text)),
    }
}

/// The move `spoken` describes in `pos`, in notation `pos` reads
/// (`Nf3`, `e7e5`), or a reply saying why there is none.
pub(crate) fn read(pos: &Position, spoken: &Spoken) -> Result<String, String> {
    let legal = pos.legal_moves();
    match *spoken {
        // The reader explains a from-to move that is not legal.
        Spoken::FromTo(from, to) => Ok(format!("{from}{to}")),
        Spoken::Castle { king_side } => {
            let castles: Vec<_> = legal
                .iter()
                .filter(|m| match m.kind {
                    MoveKind::Castle(side) => {
                        (side == voidmate_rules::CastlingSide::King) == king_side
                    }
                    _ => false,
                })
                .collect();
            let side = if king_side { "kingside" } else { "queenside" };
            match castles.first() {
                Some(m) => Ok(pos.san(m)),
                None => Err(format!(
                    "You cannot castle {side} now (in notation: `{}`).",
                    if king_side { "O-O" } else { "O-O-O" }
                )),
            }
        }
        Spoken::Piece(role, to) => {
            let mut sans: Vec<String> = legal
                .iter()
                .filter(|m| {
                    m.to == to
                        && !matches!(m.kind, MoveKind::PlaceVoid | MoveKind::Drop)
                        && pos.piece_at(m.from).is_some_and(|p| p.role == role)
                })
                .map(|m| pos.san(m))
                .collect();
            sans.dedup();
            match sans.as_slice() {
                [one] => Ok(one.clone()),
                [] => Err(format!(
                    "No {role} of yours can move to {to} now. Moves are written in notation: `Nf3` (a knight to f3), `e4` (a pawn), `e2e4` (from and to)."
                )),
                several => Err(format!(
                    "Several moves take a {role} to {to}: say which, {}.",
                    several
                        .iter()
                        .map(|s| format!("`{s}`"))
                        .collect::<Vec<_>>()
                        .join(" or ")
                )),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use voidmate_rules::GameKind;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn words_are_read_as_the_forms_players_use() {
        assert_eq!(
            form("pawn to d6"),
            Some(Spoken::Piece(Role::Pawn, sq("d6")))
        );
        assert_eq!(
            form("Knight takes F3"),
            Some(Spoken::Piece(Role::Knight, sq("f3")))
        );
        assert_eq!(
            form("minister e5"),
            Some(Spoken::Piece(Role::Minister, sq("e5")))
        );
        assert_eq!(form("e7 e5"), Some(Spoken::FromTo(sq("e7"), sq("e5"))));
        assert_eq!(form("e2 to e4!"), Some(Spoken::FromTo(sq("e2"), sq("e4"))));
        assert_eq!(
            form("castle short"),
            Some(Spoken::Castle { king_side: true })
        );
        assert_eq!(
            form("super knight to c3"),
            Some(Spoken::Piece(Role::SuperKnight, sq("c3")))
        );
        for not in [
            "e4",
            "Nf3 Nc6",
            "hello there",
            "pawn to",
            "knight to z9",
            "to to",
            "",
            "пешка e4",
            "castle",
        ] {
            assert_eq!(form(not), None, "{not}");
        }
        // Oversized: read without a panic, and no move.
        assert_eq!(form(&format!("pawn to {}", "ж".repeat(10_000))), None);
        assert_eq!(form(&"e4 ".repeat(10_000)), None);
    }

    #[test]
    fn a_piece_named_in_words_finds_its_one_legal_move() {
        let pos = Position::new(GameKind::Standard.rules());
        let read = |t: &str| read(&pos, &form(t).unwrap());
        assert_eq!(read("knight to f3"), Ok("Nf3".to_string()));
        assert_eq!(read("pawn to e4"), Ok("e4".to_string()));
        assert_eq!(read("e2 e4"), Ok("e2e4".to_string()));
        let none = read("bishop to c4").unwrap_err();
        assert!(
            none.starts_with("No bishop of yours can move to c4 now."),
            "{none}"
        );
        let castle = read("castle kingside").unwrap_err();
        assert!(castle.contains("`O-O`"), "{castle}");
        // Two knights can reach d2 once the pawn and bishop are gone.
        let pos = Position::from_fen(
            GameKind::Standard.rules(),
            "rnbqkbnr/pppppppp/8/8/8/5N2/PPP1PPPP/RN1QKB1R w KQkq - 0 1",
        )
        .unwrap();
        let two = super::read(&pos, &form("knight to d2").unwrap()).unwrap_err();
        assert_eq!(
            two,
            "Several moves take a knight to d2: say which, `Nbd2` or `Nfd2`."
        );
    }
}
