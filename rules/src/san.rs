//! Standard algebraic notation out, and a forgiving reader of moves in.
//!
//! Out: `Nf3`, `exd5`, `Mxe5`, `e8=M`, `O-O`, `Rcd2` (minimal
//! disambiguation), `+` for check and `#` for mate. Ranks may have two digits
//! on big boards (`a10`).
//!
//! In: SAN as written above, and also what people type in chat: lower-case
//! piece letters (`nf3`), too much disambiguation (`Ng1f3`, `Ng1-f3`),
//! trailing `+ # ! ?`, `0-0`, pawn captures with or without the file (`exd5`,
//! `xd5`, `ed5`), a bare destination when a single piece can go there (`f3`),
//! promotion as `e8=Q`, `e8Q`, `e8q` or `e8(Q)`, and coordinates (`e2e4`,
//! `e8e9m`). A strict reading is tried first; only if it finds no legal move
//! are the looser readings tried, so `bxc3` is always the pawn when the pawn
//! can take. A move that matches nothing gets a reason in words.

use crate::board::{is_color, Board, WALL};
use crate::movegen::{self, castling_move, make, CastleBlock};
use crate::{CastlingSide, Move, MoveKind, MoveList, Position, Role, Square};
use std::fmt;

/// Longest move text we read; anything longer is not a move.
pub const MAX_MOVE_TEXT: usize = 24;

/// Why a move could not be played, for the player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveError {
    /// The text as the player wrote it (trimmed, at most [`MAX_MOVE_TEXT`] characters).
    pub input: String,
    pub kind: MoveErrorKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveErrorKind {
    /// Nothing that reads as a move.
    Malformed,
    /// Longer than any move.
    TooLong,
    /// Names a square off this board.
    OffBoard { square: String, board: String },
    /// Several legal moves fit; their SAN.
    Ambiguous(Vec<String>),
    /// No legal move fits; why, in words.
    Illegal(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let input = &self.input;
        match &self.kind {
            MoveErrorKind::Malformed => write!(
                f,
                "'{input}' is not a move I can read: write it like e4, Nf3, exd5, O-O or e2e4"
            ),
            MoveErrorKind::TooLong => write!(
                f,
                "that is too long to be a move: write it like e4, Nf3, exd5, O-O or e2e4"
            ),
            MoveErrorKind::OffBoard { square, board } => {
                write!(f, "{input}: {square} is not on this board ({board})")
            }
            MoveErrorKind::Ambiguous(options) => {
                write!(f, "{input} is ambiguous: {}", options.join(", "))
            }
            MoveErrorKind::Illegal(why) => write!(f, "{input} is illegal: {why}"),
        }
    }
}

impl std::error::Error for MoveError {}

/// What a piece of text says about a move.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Pattern {
    role: Option<Role>,
    from_file: Option<u8>,
    from_rank: Option<u8>,
    to: (u8, u8),
    promotion: Option<Role>,
    /// When the role is not given: `true` means "a pawn" (strict SAN),
    /// `false` means "any piece".
    role_none_is_pawn: bool,
}

enum Parsed {
    Castle(CastlingSide),
    /// Readings, strictest first.
    Patterns(Vec<Pattern>),
}

impl Position {
    /// The holes a relativistic move of Black Holes passes through: the
    /// black hole it enters and the white hole it comes out of (`None` for
    /// any other move). Asked before the move is played.
    pub fn holes_passed(&self, mv: &Move) -> Option<(Square, Square)> {
        let white = mv.via?;
        let black = crate::variants::black_holes::black_hole(self.board(), mv)?;
        self.board()
            .piece_at(black)
            .is_some_and(|p| p.role == crate::Role::Hole)
            .then_some((black, white))
    }

    /// SAN of a legal move, with `+` or `#`.
    pub fn san(&self, mv: &Move) -> String {
        let rules = self.rules();
        let b = self.board();
        let mut s = san_plain(self, mv);
        let after = make(rules, b, mv);
        if movegen::in_check(rules, &after) {
            let mut replies = MoveList::new();
            crate::legal::legal_moves(rules, &after, &mut replies);
            s.push(if replies.is_empty() { '#' } else { '+' });
        }
        s
    }

    /// Coordinate notation of a move (`e2e4`, `e8e9m`).
    pub fn coordinate(&self, mv: &Move) -> String {
        mv.to_coordinate(|r| self.rules().letter(r).unwrap_or('?'))
    }

    /// Reads a move typed by a player, leniently, and checks it is legal.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let input: String = text.trim().chars().take(MAX_MOVE_TEXT).collect();
        let err = |kind| MoveError {
            input: input.clone(),
            kind,
        };
        if text.trim().chars().count() > MAX_MOVE_TEXT {
            return Err(err(MoveErrorKind::TooLong));
        }
        // Every reading below works on ASCII: the few non-ASCII signs people
        // paste (a typographic `×` or dash) become their ASCII forms, and
        // anything else non-ASCII cannot be part of a move.
        let input = match ascii_move_text(&input) {
            Some(text) => void_placement(&text),
            None => return Err(err(MoveErrorKind::Malformed)),
        };
        let mut legal = self.legal_moves();
        if let Some(found) = self.parse_hole_forms(&input, &legal) {
            return found.map_err(err);
        }
        // A void part: `@e5` alone places the void, `Bxe5@d4` moves it.
        let bare = input.trim_end_matches(['+', '#', '!', '?']);
        let (main, via) = match bare.rsplit_once('@') {
            None => (input.as_str(), None),
            Some((main, sq)) => {
                let size = self.rules().size();
                let sq = Square::parse(&sq.to_ascii_lowercase())
                    .ok_or_else(|| err(MoveErrorKind::Malformed))?;
                if !size.contains(sq) {
                    return Err(err(MoveErrorKind::OffBoard {
                        square: sq.to_string(),
                        board: size.describe(),
                    }));
                }
                (main, Some(sq))
            }
        };
        let places = legal.iter().any(|m| m.kind == MoveKind::PlaceVoid);
        if main.is_empty() && self.rules().variant().voids() != crate::variant::Voids::Placed {
            return Err(err(MoveErrorKind::Malformed));
        }
        if main.is_empty() {
            let sq = via.ok_or_else(|| err(MoveErrorKind::Malformed))?;
            return legal
                .iter()
                .find(|m| m.kind == MoveKind::PlaceVoid && m.to == sq)
                .copied()
                .ok_or_else(|| {
                    err(MoveErrorKind::Illegal(if !places {
                        "the void is already on the board; it moves only together with a capture, like Bxe5@d4".into()
                    } else {
                        format!("{sq} is not empty; the void goes on an empty square")
                    }))
                });
        }
        if places {
            return Err(err(MoveErrorKind::Illegal(
                "first the void must be placed on an empty square, like @e5".into(),
            )));
        }
        let relocating = !self.rules().extra_attacks && legal.iter().any(|m| m.via.is_some());
        if let Some(sq) = via {
            if !relocating {
                use crate::variant::Voids;
                let why = match self.rules().variant().voids() {
                    _ if self.rules().extra_attacks => {
                        "write a hole's drop as (He1) or H@e1, and a move through holes as Ra1-b1-a4xb4"
                    }
                    Voids::Placed => "the void moves only together with a capture",
                    Voids::ByRule => {
                        "a move here has no @ part: voids appear by themselves, from captures"
                    }
                    Voids::None => return Err(err(MoveErrorKind::Malformed)),
                };
                return Err(err(MoveErrorKind::Illegal(why.into())));
            }
            let (with, without): (Vec<Move>, Vec<Move>) =
                legal.iter().copied().partition(|m| m.via == Some(sq));
            if with.is_empty() {
                let why = if self.board().is_void(sq) {
                    format!("the void already stands on {sq}; it must move to another square")
                } else {
                    format!("the void cannot move to {sq}: it needs an empty square")
                };
                // Only when the capture itself is right is the void the problem.
                if parse_text(self, main).is_some_and(|p| match p {
                    Parsed::Patterns(ps) => ps
                        .iter()
                        .any(|p| without.iter().any(|m| matches(self.board(), p, m))),
                    Parsed::Castle(_) => false,
                }) {
                    return Err(err(MoveErrorKind::Illegal(why)));
                }
            }
            legal = with;
        } else if relocating {
            if let Some(Parsed::Patterns(ps)) = parse_text(self, main) {
                if let Some(m) = ps.iter().find_map(|p| {
                    legal
                        .iter()
                        .find(|m| m.via.is_some() && matches(self.board(), p, m))
                }) {
                    let mut san = san_plain(self, m);
                    san.truncate(san.rfind('@').unwrap_or(san.len()));
                    return Err(err(MoveErrorKind::Illegal(format!(
                        "a capture moves the void too: say where, like {san}@{}",
                        m.via.expect("relocating")
                    ))));
                }
            }
        }
        if let Some(found) = self.parse_chess99_forms(main, &legal) {
            return found.map_err(err);
        }
        if self.rules().extra_attacks {
            // Relativistic moves are read only in their own notation.
            legal.retain(|m| m.via.is_none());
        }
        let Some(parsed) = parse_text(self, main) else {
            // `Qz9`: a move whose square is no square at all is named.
            return Err(err(match square_beyond_the_files(main) {
                Some(square) => MoveErrorKind::OffBoard {
                    square,
                    board: self.rules().size().describe(),
                },
                None => MoveErrorKind::Malformed,
            }));
        };
        let patterns = match parsed {
            Parsed::Castle(side) => {
                return legal
                    .iter()
                    .find(|m| m.kind == MoveKind::Castle(side))
                    .copied()
                    .ok_or_else(|| err(MoveErrorKind::Illegal(self.why_no_castle(side))));
            }
            Parsed::Patterns(p) => p,
        };
        let size = self.rules().size();
        for p in &patterns {
            let mut found: Vec<Move> = legal
                .iter()
                .filter(|m| matches(self.board(), p, m))
                .copied()
                .collect();
            // Candidates named in a stable order, by file then rank of the
            // piece, whatever order the generator found them in.
            found.sort_by_key(|m| (m.from.file(), m.from.rank(), m.to.file(), m.to.rank()));
            found.dedup();
            // A promotion that names no piece takes the game's default, if
            // it has one, when the moves found differ only in the piece.
            if let (None, Some(default), [first, ..]) = (
                p.promotion,
                self.rules().variant().default_promotion(),
                found.as_slice(),
            ) {
                let (from, to) = (first.from, first.to);
                if found.len() > 1
                    && found
                        .iter()
                        .all(|m| m.from == from && m.to == to && m.promotion.is_some())
                {
                    found.retain(|m| m.promotion == Some(default));
                }
            }
            match found.len() {
                0 => continue,
                1 => return Ok(found[0]),
                _ => {
                    let sans = found.iter().map(|m| self.san(m)).collect();
                    return Err(err(MoveErrorKind::Ambiguous(sans)));
                }
            }
        }
        // Nothing fits: explain with the strictest reading that names real squares.
        let p = &patterns[0];
        let to = Square::new(p.to.0, p.to.1);
        if !size.contains(to) {
            return Err(err(MoveErrorKind::OffBoard {
                square: to.to_string(),
                board: size.describe(),
            }));
        }
        if let (Some(f), Some(r)) = (p.from_file, p.from_rank) {
            let from = Square::new(f, r);
            if !size.contains(from) {
                return Err(err(MoveErrorKind::OffBoard {
                    square: from.to_string(),
                    board: size.describe(),
                }));
            }
        }
        let p = patterns
            .iter()
            .find(|p| p.from_file.is_none_or(|f| f < size.files()))
            .unwrap_or(p);
        Err(err(MoveErrorKind::Illegal(self.why_illegal(p))))
    }

    /// Black Holes' own move forms: a drop (`(He1)`, `H@e1`) and a
    /// relativistic move (`Ra1-b1-a4xb4`, `d2-d3-d3-d6`). `None`: not such a
    /// form.
    fn parse_hole_forms(&self, text: &str, legal: &[Move]) -> Option<Result<Move, MoveErrorKind>> {
        if !self.rules().extra_attacks {
            return None;
        }
        let t = text.trim_end_matches(['+', '#', '!', '?']);
        // Coordinates of a relativistic move: start, end, `@` white hole.
        if let Some((main, white)) = t.split_once('@') {
            if main.len() >= 4 {
                let white = Square::parse(&white.to_ascii_lowercase())?;
                let (from, to, promo) = split_coordinates(self, main)?;
                return Some(
                    legal
                        .iter()
                        .find(|m| {
                            m.from == from
                                && m.to == to
                                && m.via == Some(white)
                                && m.promotion == promo
                        })
                        .copied()
                        .ok_or_else(|| {
                            MoveErrorKind::Illegal(format!(
                                "no piece of yours on {from} can come out of your hole on {white} to {to}"
                            ))
                        }),
                );
            }
        }
        let drop = t
            .strip_prefix('(')
            .and_then(|r| r.strip_suffix(')'))
            .or_else(|| t.contains('@').then_some(t))
            .map(|r| r.replace('@', ""));
        if let Some(d) = drop {
            let mut chars = d.chars();
            let role = self.rules().role_for_letter(chars.next()?)?;
            let sq = Square::parse(&chars.as_str().to_ascii_lowercase())?;
            if role != Role::Hole {
                return Some(Err(MoveErrorKind::Illegal(format!(
                    "only holes are dropped, not a {role}: write a drop like (H{sq}) or H@{sq}"
                ))));
            }
            return Some(
                legal
                    .iter()
                    .find(|m| m.kind == MoveKind::Drop && m.to == sq && m.promotion == Some(role))
                    .copied()
                    .ok_or_else(|| {
                        MoveErrorKind::Illegal(format!(
                            "a {role} can only be dropped on an empty square of your first rank"
                        ))
                    }),
            );
        }
        // Four squares: start, black hole, white hole, end, after an
        // optional piece letter; the last sign is `x` for a capture.
        let (body, promo) = match t.split_once('=') {
            Some((b, p)) => (b, Some(self.rules().role_for_letter(p.chars().next()?)?)),
            None => (t, None),
        };
        let (named, squares_text) = match body.chars().next() {
            Some(c) if c.is_ascii_uppercase() => {
                (Some(self.rules().role_for_letter(c)?), &body[1..])
            }
            _ => (None, body),
        };
        let lower = squares_text.to_ascii_lowercase();
        let mut parts = Vec::new();
        let mut signs = Vec::new();
        let mut start = 0;
        for (i, c) in lower.char_indices() {
            if c == '-' || c == 'x' {
                parts.push(&lower[start..i]);
                signs.push(c);
                start = i + 1;
            }
        }
        parts.push(&lower[start..]);
        let squares: Vec<Square> = parts
            .iter()
            .map(|p| Square::parse(p))
            .collect::<Option<Vec<_>>>()?;
        let [from, black, white, to] = squares.as_slice() else {
            return None;
        };
        let (from, to) = (*from, *to);
        if let Some(role) = named {
            match self.board().piece_at(from) {
                Some(p) if p.color == self.turn() && p.role != role => {
                    return Some(Err(MoveErrorKind::Illegal(format!(
                        "the piece on {from} is a {}, not a {role}",
                        p.role
                    ))))
                }
                _ => {}
            }
        }
        let found = legal.iter().find(|m| {
            m.from == from
                && m.to == to
                && m.via == Some(*white)
                && (promo.is_none() || m.promotion == promo)
                && crate::variants::black_holes::black_hole(self.board(), m) == Some(*black)
        });
        let Some(m) = found else {
            return Some(Err(MoveErrorKind::Illegal(format!(
                "no piece of yours on {from} can go through your hole on {black} and out of your hole on {white} to {to}"
            ))));
        };
        let captures = m.kind == MoveKind::EnPassant || self.board().piece_at(to).is_some();
        match (signs.last(), captures) {
            (Some('x'), false) => Some(Err(MoveErrorKind::Illegal(format!(
                "{to} is empty, so this move captures nothing: write it with - before {to}"
            )))),
            (Some('-'), true) => Some(Err(MoveErrorKind::Illegal(format!(
                "this move captures on {to}: write it with x before {to}"
            )))),
            _ => Some(Ok(*m)),
        }
    }

    /// Chess 99's own move forms: castling with a named piece (`O-h1`) and a
    /// delayed promotion played at once (`e9=Nd7`). `None`: not such a form.
    fn parse_chess99_forms(
        &self,
        text: &str,
        legal: &[Move],
    ) -> Option<Result<Move, MoveErrorKind>> {
        let lower = text
            .trim_end_matches(['+', '#', '!', '?'])
            .to_ascii_lowercase();
        let castles = legal.iter().any(|m| m.kind == MoveKind::FreeCastle);
        if let Some(sq) = lower
            .strip_prefix("o-")
            .or_else(|| lower.strip_prefix("0-"))
            .and_then(Square::parse)
        {
            return Some(
                legal
                    .iter()
                    .find(|m| m.kind == MoveKind::FreeCastle && m.to == sq)
                    .copied()
                    .ok_or_else(|| {
                        MoveErrorKind::Illegal(format!(
                            "your king cannot castle with {sq}: it castles with a piece of yours next to it on your first rank, or with a queen or rook there with only empty squares between"
                        ))
                    }),
            );
        }
        if castles
            && matches!(
                lower.replace('0', "o").replace('-', "").as_str(),
                "oo" | "ooo"
            )
        {
            return Some(Err(MoveErrorKind::Illegal(
                "in Chess 99 name the piece the king castles with, like O-h1 (or e1h1)".into(),
            )));
        }
        if !self.rules().delayed_promotion {
            return None;
        }
        let (from, rest) = lower.split_once('=')?;
        let from = Square::parse(from)?;
        let mut chars = rest.chars();
        let role = self.rules().role_for_letter(chars.next()?)?;
        let dest = chars.as_str().trim_start_matches(['x', '-']);
        if dest.is_empty() && movegen::role_at(self.board(), from) == Role::Pawn {
            // `c9=N`: the new piece moves in the same move; ask where.
            let options: Vec<String> = legal
                .iter()
                .filter(|m| m.from == from && m.promotion == Some(role))
                .map(|m| self.san(m))
                .collect();
            return Some(Err(MoveErrorKind::Illegal(if options.is_empty() {
                format!("the pawn on {from} cannot become a {role} and move now")
            } else {
                format!(
                    "the new {role} moves in the same move: say where, like {}",
                    options.join(", ")
                )
            })));
        }
        let to = Square::parse(dest)?;
        Some(
            legal
                .iter()
                .find(|m| m.from == from && m.to == to && m.promotion == Some(role))
                .copied()
                .ok_or_else(|| {
                    MoveErrorKind::Illegal(format!(
                        "the pawn on {from} cannot become a {role} and go to {to}"
                    ))
                }),
        )
    }

    /// Parses and plays a move; on error nothing changes. Returns the move
    /// and its SAN.
    pub fn play_text(&mut self, text: &str) -> Result<(Move, String), MoveError> {
        let mv = self.parse_move(text)?;
        let san = self.san(&mv);
        self.play_unchecked(&mv);
        Ok((mv, san))
    }

    fn why_no_castle(&self, side: CastlingSide) -> String {
        let rules = self.rules();
        let which = match side {
            CastlingSide::King => "on the king side",
            CastlingSide::Queen => "on the queen side",
        };
        let Some(c) = rules.castling() else {
            return format!("there is no castling in {}", rules.title());
        };
        match castling_move(rules, self.board(), c, side) {
            Err(CastleBlock::NoRight) => {
                format!("you can no longer castle {which}: the king or that rook has moved")
            }
            Err(CastleBlock::Occupied(sq)) => {
                if self.board().is_void(sq) {
                    format!("castling {which} needs {sq}, and it is a void")
                } else {
                    format!("castling {which} needs {sq} to be empty")
                }
            }
            Err(CastleBlock::InCheck) => "you cannot castle out of check".to_string(),
            Err(CastleBlock::Attacked(sq)) => {
                format!("your king would cross or land on {sq}, which is attacked")
            }
            Ok(mv) => self.why_pseudo_illegal(&mv),
        }
    }

    /// Why a pseudo-legal move is not legal.
    fn why_pseudo_illegal(&self, mv: &Move) -> String {
        if let Some(r) = self.restriction() {
            if mv.from != r.only_from {
                return r.reason;
            }
        }
        if self.rules().def.royal.is_none() {
            // No check in this game (antichess, Suicide Void Chess): a
            // move the pieces allow is refused because a capture is due.
            let mut captures: Vec<String> = self
                .legal_moves()
                .iter()
                .filter(|m| movegen::is_capture(self.board(), m))
                .map(|m| {
                    let san = self.san(m);
                    // Suicide Void: one capture, whatever square the void takes.
                    match san.split_once('@') {
                        Some((main, _)) if !main.is_empty() => format!("{main}@…"),
                        _ => san,
                    }
                })
                .collect();
            captures.dedup();
            return match captures.as_slice() {
                [] => "it is not allowed here".to_string(),
                [one] => format!("a capture is compulsory: you must play {one}"),
                many => format!(
                    "a capture is compulsory: you must take, with {}",
                    many.join(", ")
                ),
            };
        }
        let us = self.turn();
        let king = self.board().king(us);
        match king {
            Some(k) if mv.from == k => {
                format!("your king would be in check on {}", mv.to)
            }
            Some(k) if self.is_check() => {
                format!("your king on {k} is in check and this move does not answer it")
            }
            Some(k) => {
                let lost = self
                    .rules()
                    .variant()
                    .removal_square(self.board())
                    .filter(|&s| s != mv.from);
                match lost.and_then(|s| self.piece_at(s).map(|p| (s, p))) {
                    Some((s, p)) => format!(
                        "it would leave your king on {k} in check once your {} on {s} falls into the void",
                        p.role
                    ),
                    None => format!("it would leave your king on {k} in check"),
                }
            }
            None => "it is not allowed here".to_string(),
        }
    }

    fn why_illegal(&self, p: &Pattern) -> String {
        let rules = self.rules();
        let b = self.board();
        let us = self.turn();
        let to = Square::new(p.to.0, p.to.1);
        let mut pseudo = MoveList::new();
        movegen::pseudo_moves(rules, b, &mut pseudo);
        if let Some(c) = rules.castling() {
            for side in [CastlingSide::King, CastlingSide::Queen] {
                if let Ok(m) = castling_move(rules, b, c, side) {
                    pseudo.push(m);
                }
            }
        }
        if let Some(m) = pseudo.iter().find(|m| matches(b, p, m)) {
            return self.why_pseudo_illegal(m);
        }
        // Castling written as a king move (e1g1, Kg1).
        if p.role.is_none_or(|r| r == Role::King) {
            if let (Some(c), Some(k)) = (rules.castling(), b.king(us)) {
                for side in [CastlingSide::King, CastlingSide::Queen] {
                    let dest = Square::new(c.king_to[side as usize], rules.castling_rank(us));
                    let from_ok = p.from_file.is_none_or(|f| f == k.file())
                        && p.from_rank.is_none_or(|r| r == k.rank());
                    if dest == to && from_ok && k.distance(to) == 2 && k.rank() == to.rank() {
                        return self.why_no_castle(side);
                    }
                }
            }
        }
        let from_square = match (p.from_file, p.from_rank) {
            (Some(f), Some(r)) => Some(Square::new(f, r)),
            _ => None,
        };
        if let Some(from) = from_square {
            match b.piece_at(from) {
                None if rules.size().ranks() != 8 && matches!(from.rank(), 6 | 7) => {
                    // Coordinates from an 8x8 habit (`e7e5` on 9x9): Black's
                    // pieces stand on ranks 7 and 8 there.
                    return format!(
                        "there is no piece on {from}: this board is {}, and the pawns start on ranks {} and {}",
                        rules.size(),
                        rules.double_step_rank(crate::Color::White) + 1,
                        rules.double_step_rank(crate::Color::Black) + 1
                    );
                }
                None => return format!("there is no piece on {from}"),
                Some(pc) if pc.color != us => {
                    return format!("the {} on {from} is not yours", pc.role)
                }
                _ => {}
            }
        }
        let role = match (p.role, from_square) {
            (Some(r), _) => Some(r),
            (None, Some(from)) => b.piece_at(from).map(|pc| pc.role),
            (None, None) if p.role_none_is_pawn => Some(Role::Pawn),
            (None, None) => None,
        };
        if let Some(promo) = p.promotion {
            let pawn_move = role == Some(Role::Pawn) && to.rank() == rules.promotion_rank(us);
            if !pawn_move {
                return "only a pawn reaching the last rank promotes".to_string();
            }
            if !rules.promotion_roles().contains(&promo) {
                let letters: Vec<String> = rules
                    .promotion_roles()
                    .iter()
                    .filter_map(|&r| rules.letter(r).map(String::from))
                    .collect();
                return format!(
                    "a pawn cannot become a {promo} here; choose {}",
                    letters.join(", ")
                );
            }
        }
        if let Some(target) = b.piece_at(to).filter(|pc| pc.color == us) {
            return format!("your own {} stands on {to}", rules.role_name(target.role));
        }
        if b.is_void(to) && role.is_none_or(|r| !rules.crosses_void(r)) {
            let crossers: Vec<&str> = rules
                .roster()
                .filter(|&r| rules.crosses_void(r))
                .map(|r| rules.role_name(r))
                .collect();
            return if crossers.is_empty() {
                format!("{to} is a void")
            } else {
                format!(
                    "{to} is a void tile: only the {} may move onto a void",
                    crossers.join(" or ")
                )
            };
        }
        let Some(role) = role else {
            return format!("none of your pieces can move to {to}");
        };
        let candidates: Vec<Square> = b
            .occupied(us)
            .iter()
            .filter(|&s| is_color(b.cells[s.index()], us))
            .filter(|&s| movegen::role_at(b, s) == role)
            .filter(|&s| p.from_file.is_none_or(|f| f == s.file()))
            .filter(|&s| p.from_rank.is_none_or(|r| r == s.rank()))
            .collect();
        let name = rules.role_name(role);
        match candidates.as_slice() {
            [] if b.count(us, role) == 0 => format!("you have no {name}"),
            [] => format!("you have no {name} there"),
            [one] => format!("your {name} on {one} cannot move to {to}"),
            _ => format!("no {name} of yours can move to {to}"),
        }
    }
}

fn matches(b: &Board, p: &Pattern, m: &Move) -> bool {
    if (m.to.file(), m.to.rank()) != p.to {
        return false;
    }
    // A pawn waiting on the last rank (Chess 99) that turns into a piece and
    // moves is meant only when the new piece is named (`a9=Nb7`, `a9b7n`),
    // never by a plain `b7`.
    if m.promotion.is_some()
        && p.promotion.is_none()
        && movegen::role_at(b, m.from) == Role::Pawn
        && b.cells[m.from.offset(crate::Rules::pawn_forward(b.turn())).index()] == WALL
    {
        return false;
    }
    if p.from_file.is_some_and(|f| f != m.from.file())
        || p.from_rank.is_some_and(|r| r != m.from.rank())
    {
        return false;
    }
    let role = movegen::role_at(b, m.from);
    let role_ok = match p.role {
        Some(r) => r == role,
        None if p.from_file.is_some() && p.from_rank.is_some() => true,
        None => !p.role_none_is_pawn || role == Role::Pawn,
    };
    role_ok && p.promotion.is_none_or(|r| m.promotion == Some(r))
}

/// The SAN of a legal move without the check suffix.
fn san_plain(pos: &Position, mv: &Move) -> String {
    let rules = pos.rules();
    let b = pos.board();
    match mv.kind {
        MoveKind::Castle(CastlingSide::King) => return "O-O".into(),
        MoveKind::Castle(CastlingSide::Queen) => return "O-O-O".into(),
        MoveKind::PlaceVoid => return format!("@{}", mv.to),
        MoveKind::FreeCastle => return format!("O-{}", mv.to),
        MoveKind::Drop => {
            let role = mv.promotion.unwrap_or(Role::Pawn);
            return format!("({}{})", rules.letter(role).unwrap_or('?'), mv.to);
        }
        _ => {}
    }
    if let (Some(white), true) = (mv.via, rules.extra_attacks) {
        // A relativistic move: piece, start, black hole, white hole, end.
        let role = movegen::role_at(b, mv.from);
        let capture = mv.kind == MoveKind::EnPassant || b.piece_at(mv.to).is_some();
        let mut s = String::new();
        if role != Role::Pawn {
            s.push(rules.letter(role).unwrap_or('?'));
        }
        let black = crate::variants::black_holes::black_hole(b, mv).unwrap_or(white);
        s.push_str(&format!(
            "{}-{black}-{white}{}{}",
            mv.from,
            if capture { 'x' } else { '-' },
            mv.to
        ));
        if let Some(promo) = mv.promotion {
            s.push('=');
            s.push(rules.letter(promo).unwrap_or('?'));
        }
        return s;
    }
    let role = movegen::role_at(b, mv.from);
    if role == Role::Pawn
        && rules.delayed_promotion
        && mv.from.rank() == rules.promotion_rank(b.turn())
    {
        // A waiting pawn turns into its new piece and moves as it: `e9=Nd7`.
        let capture = mv.kind == MoveKind::EnPassant || is_color(b.cells[mv.to.index()], !b.turn());
        return format!(
            "{}={}{}{}",
            mv.from,
            rules
                .letter(mv.promotion.unwrap_or(Role::Pawn))
                .unwrap_or('?'),
            if capture { "x" } else { "" },
            mv.to
        );
    }
    let capture = mv.kind == MoveKind::EnPassant || is_color(b.cells[mv.to.index()], !b.turn());
    let mut s = String::new();
    if rules.is_programmed() {
        // A reprogrammed game: which other pieces could have gone to the
        // same square depends on programs the opponent may not know, and
        // so does whether a piece is programmed at all. Name the start
        // square always, so the notation tells nothing more than the move.
        if role != Role::Pawn {
            s.push(rules.letter(role).unwrap_or('?'));
        }
        s.push_str(&mv.from.to_string());
        if capture {
            s.push('x');
        }
    } else if role == Role::Pawn {
        if capture {
            s.push(mv.from.file_char());
            s.push('x');
        }
    } else {
        s.push(rules.letter(role).unwrap_or('?'));
        let others: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.to == mv.to && m.from != mv.from && movegen::role_at(b, m.from) == role)
            .collect();
        if !others.is_empty() {
            if others.iter().all(|m| m.from.file() != mv.from.file()) {
                s.push(mv.from.file_char());
            } else if others.iter().all(|m| m.from.rank() != mv.from.rank()) {
                s.push_str(&(mv.from.rank() + 1).to_string());
            } else {
                s.push_str(&mv.from.to_string());
            }
        }
        if capture {
            s.push('x');
        }
    }
    s.push_str(&mv.to.to_string());
    if let Some(promo) = mv.promotion {
        s.push('=');
        s.push(rules.letter(promo).unwrap_or('?'));
    }
    if let Some(v) = mv.via {
        s.push('@');
        s.push_str(&v.to_string());
    }
    s
}

/// Splits move text into readings. `None` if it cannot be a move at all.
fn parse_text(pos: &Position, text: &str) -> Option<Parsed> {
    let rules = pos.rules();
    let s = text.trim_end_matches(['+', '#', '!', '?']);
    let castle: String = s
        .chars()
        .filter(|c| *c != '-')
        .map(|c| {
            if c == '0' {
                'O'
            } else {
                c.to_ascii_uppercase()
            }
        })
        .collect();
    match castle.as_str() {
        "OO" => return Some(Parsed::Castle(CastlingSide::King)),
        "OOO" => return Some(Parsed::Castle(CastlingSide::Queen)),
        _ => {}
    }
    if !s.is_ascii() || s.is_empty() {
        return None;
    }
    let mut body = s.to_string();

    // Promotion: `=Q`, `(Q)`, or a letter right after the destination rank.
    let mut promotion = None;
    if let Some(inner) = body.strip_suffix(')') {
        let (head, letter) = inner.rsplit_once('(')?;
        promotion = Some(single_role(rules, letter)?);
        body = head.to_string();
    } else if let Some((head, letter)) = body.rsplit_once('=') {
        promotion = Some(single_role(rules, letter)?);
        body = head.to_string();
    } else {
        let bytes = body.as_bytes();
        let n = bytes.len();
        if n >= 3 && bytes[n - 1].is_ascii_alphabetic() && bytes[n - 2].is_ascii_digit() {
            promotion = Some(rules.role_for_letter(bytes[n - 1] as char)?);
            body.truncate(n - 1);
        }
    }

    // Destination: a file letter and one or two digits at the end.
    let bytes = body.as_bytes();
    let digits = bytes
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_digit())
        .count();
    if digits == 0 || digits > 2 || bytes.len() < digits + 1 {
        return None;
    }
    let file_at = bytes.len() - digits - 1;
    let to_file = file_of(bytes[file_at])?;
    let to_rank = rank_of(&body[file_at + 1..])?;
    let mut prefix = &body[..file_at];
    prefix = prefix.strip_suffix(['x', 'X', ':', '-']).unwrap_or(prefix);

    let mut readings = Vec::new();
    let reading = |role: Option<Role>, rest: &str, pawn: bool| -> Option<Pattern> {
        let (from_file, from_rank) = from_part(rest)?;
        Some(Pattern {
            role,
            from_file,
            from_rank,
            to: (to_file, to_rank),
            promotion,
            role_none_is_pawn: pawn,
        })
    };
    let first = prefix.chars().next();
    match first {
        Some(c) if c.is_ascii_uppercase() => {
            if let Some(role) = rules.role_for_letter(c) {
                readings.push(reading(Some(role), &prefix[1..], true)?);
            } else {
                // An upper-case file (`E4`, `E2E4`).
                readings.push(reading(None, &prefix.to_ascii_lowercase(), true)?);
            }
        }
        _ => {
            if let Some(p) = reading(None, prefix, true) {
                readings.push(p);
            }
            if let Some(role) = first.and_then(|c| rules.role_for_letter(c)) {
                if role != Role::Pawn {
                    if let Some(p) = reading(Some(role), &prefix[1..], true) {
                        readings.push(p);
                    }
                }
            }
            if prefix.is_empty() {
                readings.push(reading(None, "", false)?);
            }
        }
    }
    (!readings.is_empty()).then_some(Parsed::Patterns(readings))
}

/// `text` with typographic signs made ASCII (`×` to `x`, dashes to `-`),
/// or `None` if something non-ASCII remains.
/// The square a move like `Qz9` or `Nxq3` ends on when its file is past
/// every board's last (`p`): the move's last letter and the digits after
/// it, when the move is otherwise a piece letter, `x` and that square.
fn square_beyond_the_files(text: &str) -> Option<String> {
    let text = text.trim_end_matches(['+', '#', '!', '?']);
    let digits = text.len() - text.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if !(1..=2).contains(&digits) || text.len() < digits + 1 {
        return None;
    }
    let split = text.len() - digits - 1;
    let (head, square) = text.split_at(split);
    let file = square.chars().next()?;
    let head_ok = head.chars().all(|c| c.is_ascii_uppercase() || c == 'x') && head.len() <= 2;
    (file.is_ascii_lowercase() && file > 'p' && head_ok).then(|| square.to_string())
}

/// The other ways to write the void's placement (`@e5`): `V@e5`, as our
/// PGN writes it, and `void e5` in words.
fn void_placement(text: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let rest = lower
        .strip_prefix("v@")
        .or_else(|| lower.strip_prefix("void"))
        .map(|r| r.trim_start_matches([' ', '@']));
    match rest {
        Some(sq) if Square::parse(sq).is_some() => format!("@{sq}"),
        _ => text.to_string(),
    }
}

fn ascii_move_text(text: &str) -> Option<String> {
    let out: String = text
        .chars()
        .map(|c| match c {
            '×' => 'x',
            '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
            other => other,
        })
        .collect();
    out.is_ascii().then_some(out)
}

fn single_role(rules: &crate::Rules, letter: &str) -> Option<Role> {
    let mut chars = letter.chars();
    let c = chars.next()?;
    if chars.next().is_some() {
        return None;
    }
    rules.role_for_letter(c)
}

fn file_of(b: u8) -> Option<u8> {
    let c = b.to_ascii_lowercase();
    (b'a'..=b'p').contains(&c).then(|| c - b'a')
}

fn rank_of(digits: &str) -> Option<u8> {
    if digits.starts_with('0') {
        return None;
    }
    let r: u8 = digits.parse().ok()?;
    (1..=16).contains(&r).then(|| r - 1)
}

/// `""`, `d`, `1`, `d1` (the from part of a move).
fn from_part(rest: &str) -> Option<(Option<u8>, Option<u8>)> {
    let bytes = rest.as_bytes();
    match bytes {
        [] => Some((None, None)),
        [f, digits @ ..] if f.is_ascii_alphabetic() => {
            let file = file_of(*f)?;
            if digits.is_empty() {
                Some((Some(file), None))
            } else {
                Some((
                    Some(file),
                    Some(rank_of(std::str::from_utf8(digits).ok()?)?),
                ))
            }
        }
        digits => Some((None, Some(rank_of(std::str::from_utf8(digits).ok()?)?))),
    }
}

/// `e2e4`, `e7e8q`: start, end and promotion of a coordinate move.
fn split_coordinates(pos: &Position, text: &str) -> Option<(Square, Square, Option<Role>)> {
    if !text.is_ascii() {
        return None;
    }
    let lower = text.to_ascii_lowercase();
    // Where a square's rank digits end: after the file letter, the digits.
    let digits_end = |s: &str| -> Option<usize> {
        let tail = s.get(1..)?;
        Some(
            1 + tail
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(tail.len()),
        )
    };
    let a = digits_end(&lower)?;
    let from = Square::parse(&lower[..a])?;
    let rest = &lower[a..];
    let b = digits_end(rest)?;
    let to = Square::parse(&rest[..b])?;
    let promo = match &rest[b..] {
        "" => None,
        p => Some(pos.rules().role_for_letter(p.chars().next()?)?),
    };
    Some((from, to, promo))
}

/// The moves of a game's text as people paste it: move numbers are
/// dropped whether they stand apart (`1. e4`, `1... e5`) or are joined to
/// the move (`1.e4`, `12...Nf6`), and so are results (`1-0`, `1/2-1/2`,
/// `*`). Each item is one move's text, for [`Position::parse_move`].
pub fn movetext(text: &str) -> impl Iterator<Item = &str> {
    text.split_whitespace().filter_map(|word| {
        let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let rest = &word[digits..];
        let after_dots = rest.trim_start_matches('.');
        let numbered = digits > 0 && (after_dots.len() < rest.len() || rest.is_empty());
        let word = if numbered { after_dots } else { word };
        let result = matches!(word, "1-0" | "0-1" | "1/2-1/2" | "½-½" | "*");
        (!word.is_empty() && !result).then_some(word)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 43, point 5: `Qz9` names its square.
    #[test]
    fn a_square_past_every_file_is_named() {
        assert_eq!(square_beyond_the_files("Qz9"), Some("z9".into()));
        assert_eq!(square_beyond_the_files("Nxq3+"), Some("q3".into()));
        assert_eq!(square_beyond_the_files("e4"), None);
        assert_eq!(square_beyond_the_files("hello"), None);
        assert_eq!(square_beyond_the_files("z"), None);
        assert_eq!(square_beyond_the_files("9"), None);
        let p = Position::new(crate::variants::standard());
        assert_eq!(
            p.parse_move("Qz9").unwrap_err().to_string(),
            "Qz9: z9 is not on this board (files a-h, ranks 1-8)"
        );
    }
}
