//! Help for a game read from a file, made from its definition: what the
//! file says of it, each piece's moves in words ([`betza::describe`]), and
//! a diagram of one piece's moves on an empty board.

use voidmate_rules::betza;
use voidmate_rules::defined::{self, PieceSpec, Spec, Stalemate};
use voidmate_rules::{GameKind, Position, Square};

/// A diagram of one piece's moves: the piece alone with the two royal
/// pieces, its moves marked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PieceDiagram {
    pub fen: String,
    pub select: Square,
    pub caption: String,
}

/// `kind`'s definition, if it was read from a file.
fn spec(kind: GameKind) -> Option<&'static Spec> {
    match kind {
        GameKind::Defined(game) => defined::spec_of(game.rules()),
        _ => None,
    }
}

/// A piece's moves in words.
fn moves_in_words(p: &PieceSpec) -> String {
    let betza = match p.moves.as_str() {
        "pawn" => {
            Some("a pawn: one square forward, captures one square diagonally forward".to_string())
        }
        "king" => Some("one square in any direction, as a king".to_string()),
        "" => None,
        "none" => Some("moves only by the game's own rules".to_string()),
        moves => Some(betza::describe(moves).unwrap_or_else(|_| format!("`{moves}`"))),
    };
    betza
        .into_iter()
        .chain(p.own_words.iter().cloned())
        .collect::<Vec<_>>()
        .join("; or ")
}

/// The overview of a game read from a file: its title and board, what the
/// file says of it, its pieces and their moves, pawns, castling and how it
/// ends. `None` for a built-in game.
pub fn overview(kind: GameKind) -> Option<String> {
    let s = spec(kind)?;
    let mut out = format!("{} ({}x{})", s.title, s.files, s.ranks);
    if !s.description.is_empty() {
        out.push_str(": ");
        out.push_str(&s.description);
    }
    out.push_str("\nPieces:");
    for p in &s.pieces {
        out.push_str(&format!(
            "\n  {} {}{}: {} (`{}`)",
            p.letter,
            p.name,
            if p.royal { ", royal" } else { "" },
            moves_in_words(p),
            p.moves
        ));
    }
    let names = |letters: &[char]| -> Vec<String> {
        letters
            .iter()
            .filter_map(|l| s.pieces.iter().find(|p| p.letter == *l))
            .map(|p| p.name.clone())
            .collect()
    };
    if s.pieces.iter().any(|p| p.moves == "pawn") {
        let rank = s.promotion_rank.map_or("the last rank".to_string(), |r| {
            format!("rank {r} (their own counting)")
        });
        out.push_str(&format!(
            "\nPawns: {}; they promote on {rank} to {}.",
            if s.double_step {
                "two squares on their first move"
            } else {
                "one square at a time, always"
            },
            names(&s.promotion).join(", ")
        ));
    }
    match &s.castling {
        Some(c) => {
            let file = |f: u8| char::from(b'a' + f);
            let rank = c.rank + 1;
            out.push_str(&format!(
                "\nCastling: yes, on each side's rank {rank}: the king goes from {k}{rank} to {ks}{rank} or {qs}{rank}, and the rook jumps over it.",
                k = file(c.king_file),
                ks = file(c.king_to[0]),
                qs = file(c.king_to[1]),
            ));
        }
        None => out.push_str("\nCastling: none."),
    }
    if let Some(hook) = s.hook {
        // The hook's game decides how it is won, and its other rules.
        out.push_str(&format!(
            "\nEverything else (how it is won, draws, and the special rules) is as in {}: ask `rules {}`.",
            hook.title(),
            hook.name()
        ));
        out.push_str(&format!(
            "\nAsk `rules {} <piece>` (a letter or a name) for a diagram of its moves.",
            s.name
        ));
        return Some(out);
    }
    let royal = s.pieces.iter().find(|p| p.royal).map(|p| p.name.as_str());
    out.push_str(&format!(
        "\nWin by checkmating the {}; a stalemate is {}{}.",
        royal.unwrap_or("royal piece"),
        match s.stalemate {
            Stalemate::Draw => "a draw",
            Stalemate::Loss => "a loss for the side with no move",
            Stalemate::Win => "a win for the side with no move",
        },
        if s.move_rule > 0 {
            format!(
                "; {} moves each without a capture or pawn move draw",
                s.move_rule
            )
        } else {
            String::new()
        }
    ));
    out.push_str(&format!(
        "\nAsk `rules {} <piece>` (a letter or a name) for a diagram of its moves.",
        s.name
    ));
    Some(out)
}

/// The piece of `kind` that `query` names (its letter, its name, or a
/// sentence with its name in it), with its moves in words and a diagram.
pub fn piece(kind: GameKind, query: &str) -> Option<(String, PieceDiagram)> {
    let s = spec(kind)?;
    let q = query.trim();
    let words: Vec<String> = q
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let p = s
        .pieces
        .iter()
        .find(|p| q.chars().count() == 1 && q.eq_ignore_ascii_case(&p.letter.to_string()))
        .or_else(|| {
            s.pieces.iter().find(|p| {
                let name = p.name.to_lowercase();
                words
                    .iter()
                    .any(|w| *w == name || w.strip_suffix('s') == Some(name.as_str()))
            })
        })?;
    let text = format!(
        "{} ({}) in {}: {}.",
        p.name,
        p.letter,
        s.title,
        moves_in_words(p)
    );
    Some((text, diagram(kind, s, p)))
}

/// The piece `p` alone near the middle of `s`'s board (a pawn on its
/// second rank), with the royal pieces where they are neither in the way
/// nor in check (the first such squares from the corners).
fn diagram(kind: GameKind, s: &Spec, p: &PieceSpec) -> PieceDiagram {
    let (files, ranks) = (s.files, s.ranks);
    let at = if p.moves == "pawn" {
        Square::new(files / 2, 1)
    } else {
        Square::new(files / 2, ranks / 2)
    };
    let royal = s.pieces.iter().find(|r| r.royal).map(|r| r.letter);
    let white_royal = royal.filter(|l| *l != p.letter);
    // Black's royal piece: the far corners first, then every square from
    // the top.
    let mut spots = vec![Square::new(files - 1, ranks - 1), Square::new(0, ranks - 1)];
    spots.extend(
        (0..ranks)
            .rev()
            .flat_map(|r| (0..files).map(move |f| Square::new(f, r))),
    );
    let fen_with = |black: Option<Square>| {
        let mut board = vec![vec![None; files as usize]; ranks as usize];
        board[at.rank() as usize][at.file() as usize] = Some(p.letter.to_ascii_uppercase());
        if let Some(l) = white_royal {
            board[0][0] = Some(l.to_ascii_uppercase());
        }
        if let (Some(l), Some(q)) = (royal, black) {
            board[q.rank() as usize][q.file() as usize] = Some(l.to_ascii_lowercase());
        }
        fen(&board)
    };
    let fen = spots
        .into_iter()
        .filter(|q| *q != at && *q != Square::new(0, 0))
        .map(|q| fen_with(Some(q)))
        .find(|fen| {
            Position::from_fen(kind.rules(), fen)
                .is_ok_and(|pos| pos.legal_moves().iter().any(|m| m.from == at))
        })
        .unwrap_or_else(|| fen_with(None));
    PieceDiagram {
        fen,
        select: at,
        caption: format!("how the {} moves", p.name),
    }
}

/// A board's FEN, White to move.
fn fen(board: &[Vec<Option<char>>]) -> String {
    let rows: Vec<String> = board
        .iter()
        .rev()
        .map(|row| {
            let mut out = String::new();
            let mut empty = 0;
            for cell in row {
                match cell {
                    None => empty += 1,
                    Some(c) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(*c);
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            out
        })
        .collect();
    format!("{} w - - 0 1", rows.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn capablanca() -> GameKind {
        GameKind::from_name("capablanca").expect("shipped")
    }

    /// A shipped game's help names its pieces with their moves in words,
    /// and each piece's diagram is a position of that game whose marked
    /// piece has exactly the moves the words promise on an empty board.
    #[test]
    fn a_defined_games_help_describes_and_draws_its_pieces() {
        let kind = capablanca();
        let text = overview(kind).unwrap();
        assert!(text.starts_with("Capablanca Chess (10x8)"), "{text}");
        assert!(text.contains("any distance diagonally, as a bishop; or two squares one way and one the other, jumping, as a knight"), "{text}");
        assert!(overview(GameKind::Void).is_none());
        let (words, d) = piece(kind, "how does the archbishop move?").unwrap();
        assert!(
            words.starts_with("archbishop (A) in Capablanca Chess"),
            "{words}"
        );
        let pos = Position::from_fen(kind.rules(), &d.fen).unwrap();
        let moves = pos
            .legal_moves()
            .iter()
            .filter(|m| m.from == d.select)
            .count();
        // From f5 on 10x8: the bishop's 14 squares and the knight's 8.
        assert_eq!(d.select.to_string(), "f5");
        assert_eq!(moves, 14 + 8, "{}", d.fen);
        let (_, pawn) = piece(kind, "p").unwrap();
        let pos = Position::from_fen(kind.rules(), &pawn.fen).unwrap();
        assert_eq!(
            pos.legal_moves()
                .iter()
                .filter(|m| m.from == pawn.select)
                .count(),
            2
        );
        assert!(piece(kind, "dragon").is_none());
        // Every piece of every shipped game draws.
        for kind in GameKind::every().into_iter().filter(|k| k.is_defined()) {
            for p in &spec(kind).unwrap().pieces {
                let (_, d) = piece(kind, &p.letter.to_string()).unwrap();
                let pos = Position::from_fen(kind.rules(), &d.fen)
                    .unwrap_or_else(|e| panic!("{kind} {}: {e} in {}", p.letter, d.fen));
                assert!(
                    pos.legal_moves().iter().any(|m| m.from == d.select),
                    "{kind} {}",
                    p.letter
                );
            }
        }
    }

    /// A game that switches on one of our games' code (`rules = "void"`,
    /// here by inheriting Void Chess's file) says whose rules it follows,
    /// and describes a piece written in our own form (the Minister's walk)
    /// in words, with a diagram.
    #[test]
    fn a_game_with_a_hook_names_its_rules_and_describes_our_own_moves() {
        let text = "[void-help]\ninherits = \"void\"\ntitle = \"Void Help\"\n";
        let rules = voidmate_rules::defined::load("vh.toml", text).unwrap()[0];
        let kind = GameKind::defined(rules);
        let text = overview(kind).unwrap();
        assert!(
            text.contains("is as in Void Chess: ask `rules void`"),
            "{text}"
        );
        assert!(
            text.contains("M minister: walks one or two steps of `K`"),
            "{text}"
        );
        assert!(text.contains("crosses and lands on voids"), "{text}");
        let (words, d) = piece(kind, "minister").unwrap();
        assert!(words.contains("heals the tile it lands on"), "{words}");
        let pos = Position::from_fen(kind.rules(), &d.fen).unwrap();
        // From e5 on the 9x9 board: every square within two king steps.
        assert_eq!(
            pos.legal_moves()
                .iter()
                .filter(|m| m.from == d.select)
                .count(),
            24,
            "{}",
            d.fen
        );
    }

    /// What a player types after `rules NAME` never panics: empty, multi-
    /// byte and oversized words name no piece; a letter of another script
    /// is no piece's letter.
    #[test]
    fn any_words_about_a_defined_game_are_read_safely() {
        let kind = capablanca();
        for q in [
            "",
            " ",
            "ヴォイド",
            "é",
            "عبد الله",
            "🐴",
            &"archbishop ".repeat(5000),
            &"é".repeat(100_000),
        ] {
            let found = piece(kind, q);
            assert!(found.is_none() || q.contains("archbishop"), "{q:.20}");
        }
        assert!(piece(kind, &"archbishop ".repeat(5000)).is_some());
        assert!(piece(GameKind::Void, "A").is_none());
    }
}
