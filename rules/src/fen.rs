//! FEN, generalised to any board and to the tile layer.
//!
//! The six usual fields, with board rows of any width (empty runs may have
//! two digits: `16`), then an optional seventh field for tiles:
//!
//! ```text
//! rnbqkbmnr/ppp1ppppp/9/3p5/9/9/9/PPPPPPPPP/RNBQKBMNR w KQkq - 0 2 void:c3,d4;unstable:e5w12;siege:3
//! ```
//!
//! - `void:` the void squares, comma-separated;
//! - `unstable:` each unstable tile as square, owner (`w`/`b`) and the full move
//!   in which the owner's capture made it (the owner's latest move, since a
//!   tile turns void at the end of its owner's next move);
//! - `siege:` plies of unbroken void siege (see `docs/rules/void.md`);
//! - `won:` the side that won by a variant's own rule with the last move
//!   (Suicide Void Chess: a promotion when promotion wins).
//!
//! Parts may come in any order; a position without special tiles is written
//! with six fields, and a six-field FEN means "no special tiles".

use crate::board::{castling_bit, code, Board};
use crate::legal::attacked;
use crate::movegen::{en_passant_anyhow, unstable_at};
use crate::rules::Rules;
use crate::{CastlingSide, Color, Piece, Role, Square};
use std::fmt;

/// Why a FEN was rejected, in words an operator (or player) can act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    Empty,
    Ranks {
        found: usize,
        expected: u8,
    },
    RankWidth {
        rank: u8,
        found: usize,
        expected: u8,
    },
    UnknownPiece {
        letter: char,
    },
    Turn(String),
    Castling(String),
    EnPassant(String),
    Counter(String),
    Tiles(String),
    Kings(String),
    Pawns(Square),
    PawnOnFirstRank(Square),
    /// A set-up the variant's own rules rule out, in words.
    Setup(String),
    OpponentInCheck,
    TooManyFields,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "the FEN is empty"),
            FenError::Ranks { found, expected } => {
                write!(f, "the FEN has {found} ranks, this board has {expected}")
            }
            FenError::RankWidth {
                rank,
                found,
                expected,
            } => write!(
                f,
                "rank {rank} of the FEN has {found} squares, the board is {expected} wide"
            ),
            FenError::UnknownPiece { letter } => {
                write!(f, "'{letter}' is not a piece of this variant")
            }
            FenError::Turn(s) => write!(f, "the side to move must be 'w' or 'b', not '{s}'"),
            FenError::Castling(s) => write!(f, "bad castling field: {s}"),
            FenError::EnPassant(s) => write!(f, "bad en passant field: {s}"),
            FenError::Counter(s) => write!(f, "bad move counter: {s}"),
            FenError::Tiles(s) => write!(f, "bad tile field: {s}"),
            FenError::Kings(s) => write!(f, "{s}"),
            FenError::Pawns(sq) => write!(f, "a pawn on {sq} stands on its promotion rank"),
            FenError::PawnOnFirstRank(sq) => write!(
                f,
                "a pawn on {sq} stands on its own first rank, where no pawn can ever be"
            ),
            FenError::Setup(why) => write!(f, "{why}"),
            FenError::OpponentInCheck => {
                write!(
                    f,
                    "the side that just moved is in check, which cannot happen"
                )
            }
            FenError::TooManyFields => write!(f, "the FEN has more than seven fields"),
        }
    }
}

impl std::error::Error for FenError {}

pub(crate) fn parse(rules: &Rules, fen: &str) -> Result<Board, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.is_empty() {
        return Err(FenError::Empty);
    }
    if fields.len() > 7 {
        return Err(FenError::TooManyFields);
    }
    let size = rules.size();
    let mut b = rules.empty;

    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len() != size.ranks() as usize {
        return Err(FenError::Ranks {
            found: rows.len(),
            expected: size.ranks(),
        });
    }
    for (i, row) in rows.iter().enumerate() {
        let rank = size.ranks() - 1 - i as u8;
        let mut file = 0usize;
        let mut run = 0usize;
        let mut place = |piece: Option<Piece>, run: &mut usize, file: &mut usize| {
            *file += std::mem::take(run);
            if let Some(p) = piece {
                if *file < size.files() as usize {
                    b.put(Square::new(*file as u8, rank), p.color, p.role);
                }
                *file += 1;
            }
        };
        for ch in row.chars() {
            if let Some(d) = ch.to_digit(10) {
                run = run * 10 + d as usize;
                if run > 16 {
                    return Err(FenError::RankWidth {
                        rank: rank + 1,
                        found: file + run,
                        expected: size.files(),
                    });
                }
            } else {
                let role = rules
                    .role_for_letter(ch)
                    .filter(|_| ch.is_ascii_alphabetic())
                    .ok_or(FenError::UnknownPiece { letter: ch })?;
                let color = if ch.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                place(Some(Piece::new(color, role)), &mut run, &mut file);
            }
        }
        place(None, &mut run, &mut file);
        if file != size.files() as usize {
            return Err(FenError::RankWidth {
                rank: rank + 1,
                found: file,
                expected: size.files(),
            });
        }
    }

    let turn = match fields.get(1).copied().unwrap_or("w") {
        "w" | "W" => Color::White,
        "b" | "B" => Color::Black,
        other => return Err(FenError::Turn(other.to_string())),
    };
    b.set_turn(turn);

    let castling = fields.get(2).copied().unwrap_or("-");
    let mut rights = 0u8;
    if castling != "-" {
        let Some(c) = rules.castling() else {
            return Err(FenError::Castling("this variant has no castling".into()));
        };
        for ch in castling.chars() {
            let (color, side) = match ch {
                'K' => (Color::White, CastlingSide::King),
                'Q' => (Color::White, CastlingSide::Queen),
                'k' => (Color::Black, CastlingSide::King),
                'q' => (Color::Black, CastlingSide::Queen),
                _ => return Err(FenError::Castling(format!("'{ch}' is not one of KQkq"))),
            };
            let bit = castling_bit(color, side);
            if rights & bit != 0 {
                return Err(FenError::Castling(format!("'{ch}' appears twice")));
            }
            let rank = rules.castling_rank(color);
            let king = Square::new(c.king_file, rank);
            let rook = Square::new(c.rook_from[side as usize], rank);
            if b.piece_at(king) != Some(Piece::new(color, Role::King))
                || b.piece_at(rook) != Some(Piece::new(color, Role::Rook))
            {
                return Err(FenError::Castling(format!(
                    "'{ch}' needs the {color} king on {king} and a rook on {rook}"
                )));
            }
            rights |= bit;
        }
    }
    b.set_castling(rights);

    let ep = fields.get(3).copied().unwrap_or("-");
    if ep != "-" {
        let sq = Square::parse(ep)
            .filter(|&s| size.contains(s))
            .ok_or_else(|| FenError::EnPassant(format!("'{ep}' is not a square of this board")))?;
        let them = !turn;
        let fwd = Rules::pawn_forward(them);
        let pawn = sq.offset(fwd);
        if !size.contains(pawn)
            || b.piece_at(pawn) != Some(Piece::new(them, Role::Pawn))
            || !b.is_empty(sq)
        {
            return Err(FenError::EnPassant(format!(
                "no {them} pawn has just passed over {sq}"
            )));
        }
        let own = code(turn, Role::Pawn);
        // Kept when a capture may be possible, as make-move does;
        // `Position` drops it unless an en-passant capture is legal.
        if en_passant_anyhow(rules)
            || b.cells[pawn.index() - 1] == own
            || b.cells[pawn.index() + 1] == own
        {
            b.set_ep(Some(sq));
        }
    }

    let counter = |i: usize, default: u16| -> Result<u16, FenError> {
        match fields.get(i) {
            None => Ok(default),
            Some(s) => match s.parse::<u64>() {
                Ok(n) if n <= MAX_COUNTER as u64 => Ok(n as u16),
                Ok(_) => Err(FenError::Counter(format!(
                    "{s} is more than {MAX_COUNTER}, longer than any game"
                ))),
                Err(_) => Err(FenError::Counter(format!("'{s}' is not a number"))),
            },
        }
    };
    b.halfmove = counter(4, 0)?;
    b.fullmove = counter(5, 1)?.max(1);

    if let Some(tiles) = fields.get(6) {
        parse_tiles(rules, &mut b, tiles)?;
    }
    validate(rules, &b)?;
    Ok(b)
}

/// The largest move number and half-move count a FEN may give. Games are
/// far shorter; the cap leaves the counters room to grow without wrapping.
pub const MAX_COUNTER: u16 = 50_000;

fn parse_tiles(rules: &Rules, b: &mut Board, field: &str) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    let size = rules.size();
    let square = |s: &str| {
        Square::parse(s)
            .filter(|&sq| size.contains(sq))
            .ok_or_else(|| FenError::Tiles(format!("'{s}' is not a square of this board")))
    };
    for part in field.split(';').filter(|p| !p.is_empty()) {
        let (key, value) = part
            .split_once(':')
            .ok_or_else(|| FenError::Tiles(format!("'{part}' should look like void:c3,d4")))?;
        let items = value.split(',').filter(|s| !s.is_empty());
        match key {
            "void" => {
                for item in items {
                    let sq = square(item)?;
                    if !b.is_empty(sq) {
                        return Err(FenError::Tiles(format!("{sq} is void but holds a piece")));
                    }
                    b.set_void(sq, true);
                }
            }
            "unstable" => {
                for item in items {
                    // The square's file letter, its rank digits, then the owner.
                    let (split, owner) = item
                        .char_indices()
                        .skip(1)
                        .find(|(_, c)| !c.is_ascii_digit())
                        .filter(|&(i, _)| i > 1)
                        .and_then(|(i, c)| match c {
                            'w' => Some((i, Color::White)),
                            'b' => Some((i, Color::Black)),
                            _ => None,
                        })
                        .ok_or_else(|| {
                            FenError::Tiles(format!("'{item}' should look like e5w12"))
                        })?;
                    let sq = square(&item[..split])?;
                    // The owner letter is ASCII: one byte.
                    let since_text = &item[split + 1..];
                    // The owner's latest move: this full move if the owner
                    // already moved in it, else the previous one.
                    let latest = if owner == Color::White && b.turn == Color::Black {
                        b.fullmove
                    } else {
                        b.fullmove.saturating_sub(1).max(1)
                    };
                    let since = if since_text.is_empty() {
                        latest
                    } else {
                        since_text
                            .parse()
                            .map_err(|_| FenError::Tiles(format!("'{item}': bad move number")))?
                    };
                    if b.unstable(owner).is_some() {
                        return Err(FenError::Tiles(format!(
                            "{owner} has two unstable tiles; a side has at most one"
                        )));
                    }
                    match b.piece_at(sq) {
                        Some(p)
                            if p.color == owner && !rules.gen(p.color, p.role.index()).heals => {}
                        _ => {
                            return Err(FenError::Tiles(format!(
                                "the unstable tile {sq} must hold a piece of its owner, {owner}"
                            )))
                        }
                    }
                    b.set_unstable(owner, Some(unstable_at(sq, since)));
                }
            }
            "siege" => {
                b.siege = value
                    .parse()
                    .map_err(|_| FenError::Tiles(format!("siege '{value}' is not a number")))?;
            }
            "won" => {
                b.winner = Some(match value {
                    "w" => Color::White,
                    "b" => Color::Black,
                    _ => return Err(FenError::Tiles(format!("won '{value}' should be w or b"))),
                });
            }
            other => {
                return Err(FenError::Tiles(format!(
                    "unknown part '{other}' (expected void, unstable, siege or won)"
                )))
            }
        }
    }
    if let (Some(w), Some(bl)) = (b.unstable(Color::White), b.unstable(Color::Black)) {
        if w.square == bl.square {
            return Err(FenError::Tiles(format!("{} has two owners", w.square)));
        }
    }
    Ok(())
}

fn validate(rules: &Rules, b: &Board) -> Result<(), FenError> {
    // Every move of a turn must fit in a move list.
    for color in Color::ALL {
        let most = rules.move_bound(b, color);
        if most > crate::MAX_MOVES as u32 {
            return Err(FenError::Setup(format!(
                "{color}'s pieces could make up to {most} moves in a turn, more than the {} a position may have: fewer or weaker pieces",
                crate::MAX_MOVES
            )));
        }
    }
    if rules.def.royal == Some(Role::King) {
        for color in Color::ALL {
            let n = b.count(color, Role::King);
            // Where kings are captured, a finished game has one king left.
            if n != 1 && !(rules.king_capture && n == 0) {
                return Err(FenError::Kings(format!(
                    "{color} has {n} kings; each side needs exactly one"
                )));
            }
        }
        let them = !b.turn;
        if let Some(k) = b.king(them).filter(|_| !rules.king_capture) {
            if attacked(rules, b, k, b.turn) {
                return Err(FenError::OpponentInCheck);
            }
        }
    }
    for color in Color::ALL {
        let last = rules.promotion_rank(color);
        let first = rules.home_rank(color);
        for sq in b.occupied(color).iter() {
            if b.piece_at(sq).map(|p| p.role) != Some(Role::Pawn) {
                continue;
            }
            if sq.rank() == last && !rules.delayed_promotion {
                return Err(FenError::Pawns(sq));
            }
            // Pawns never step back, so none stands on its own first rank;
            // a reprogrammed pawn may, so programmed games allow it.
            if sq.rank() == first && !rules.is_programmed() {
                return Err(FenError::PawnOnFirstRank(sq));
            }
        }
    }
    rules
        .variant
        .validate_setup(rules, b)
        .map_err(FenError::Setup)
}

pub(crate) fn format(rules: &Rules, b: &Board) -> String {
    let size = rules.size();
    let mut s = String::new();
    for rank in (0..size.ranks()).rev() {
        let mut run = 0;
        for file in 0..size.files() {
            let sq = Square::new(file, rank);
            match b.piece_at(sq) {
                None => run += 1,
                Some(p) => {
                    if run > 0 {
                        s.push_str(&run.to_string());
                        run = 0;
                    }
                    let letter = rules.letter(p.role).unwrap_or('?');
                    s.push(if p.color == Color::White {
                        letter
                    } else {
                        letter.to_ascii_lowercase()
                    });
                }
            }
        }
        if run > 0 {
            s.push_str(&run.to_string());
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s.push(' ');
    s.push(b.turn.char());
    s.push(' ');
    let mut castling = String::new();
    for (color, side, ch) in [
        (Color::White, CastlingSide::King, 'K'),
        (Color::White, CastlingSide::Queen, 'Q'),
        (Color::Black, CastlingSide::King, 'k'),
        (Color::Black, CastlingSide::Queen, 'q'),
    ] {
        if b.castling_right(color, side) {
            castling.push(ch);
        }
    }
    s.push_str(if castling.is_empty() { "-" } else { &castling });
    s.push(' ');
    match b.ep {
        Some(sq) => s.push_str(&sq.to_string()),
        None => s.push('-'),
    }
    s.push_str(&format!(" {} {}", b.halfmove, b.fullmove));

    let mut parts = Vec::new();
    if !b.voids.is_empty() {
        let mut voids: Vec<Square> = b.voids.iter().collect();
        voids.sort_by_key(|sq| (sq.rank(), sq.file()));
        let list: Vec<String> = voids.iter().map(|sq| sq.to_string()).collect();
        parts.push(format!("void:{}", list.join(",")));
    }
    let unstable: Vec<String> = Color::ALL
        .iter()
        .filter_map(|&c| {
            b.unstable(c)
                .map(|u| format!("{}{}{}", u.square, c.char(), u.since))
        })
        .collect();
    if !unstable.is_empty() {
        parts.push(format!("unstable:{}", unstable.join(",")));
    }
    if b.siege > 0 {
        parts.push(format!("siege:{}", b.siege));
    }
    if let Some(w) = b.winner {
        parts.push(format!("won:{}", w.char()));
    }
    if !parts.is_empty() {
        s.push(' ');
        s.push_str(&parts.join(";"));
    }
    s
}
