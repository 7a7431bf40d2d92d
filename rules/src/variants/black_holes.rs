//! Black Holes: 5x8 chess with holes that transport pieces.
//! `docs/rules/black-holes.md` has the rules and our decisions in our words.
//!
//! - Instead of a move, a side may drop a hole of its own on any empty square
//!   of its first rank (`(He1)`). A hole steps like a king to an empty
//!   square; a normal move never captures a hole, and a hole's normal move
//!   never captures.
//! - Relativistic moves, for every piece but the king: a normal move into an
//!   own hole (the "black hole"), out of any own hole (the "white hole"; not
//!   the moving hole itself), and on in the same direction any number of the
//!   piece's own steps over empty squares, ending on an empty square or
//!   capturing anything there except the own king (holes of either side
//!   too). A pawn entering straight must end on an empty square; entering
//!   diagonally it must capture (en passant included). Written
//!   `Ra1-b1-a4xb4`. Relativistic threats give check.
//! - Castling is long only (king e1 to c1, rook a1 to d1); pawns promote to a
//!   queen, rook, bishop, knight or hole.

use super::standard::orthodox_roster;
use crate::board::{Board, WALL};
use crate::movegen::{leaves_king_safe, plain_legal_moves, role_at};
use crate::movement::{Movement, DIAGONAL, KNIGHT, ORTHOGONAL};
use crate::rules::delta;
use crate::square::STRIDE;
use crate::variant::{CastlingDef, Definition, RoleDef, Variant};
use crate::{BoardSize, Color, Move, MoveKind, MoveList, Role, Rules, Square};

pub struct BlackHoles;

const SIZE: BoardSize = match BoardSize::new(5, 8) {
    Some(s) => s,
    None => panic!("5x8 is a board size"),
};

impl Variant for BlackHoles {
    fn definition(&self) -> Definition {
        let mut roster = orthodox_roster();
        // Holes move only by the hooks below: their steps never capture.
        roster.push(RoleDef {
            role: Role::Hole,
            letter: 'H',
            movement: Movement::of(Vec::new()),
        });
        Definition {
            name: crate::GameKind::BlackHoles.name(),
            title: crate::GameKind::BlackHoles.title(),
            size: SIZE,
            roster,
            start_fen: "rnbqk/ppppp/5/5/5/5/PPPPP/RNBQK w Qq - 0 1",
            promotion: vec![
                Role::Queen,
                Role::Rook,
                Role::Bishop,
                Role::Knight,
                Role::Hole,
            ],
            // Long castling only: king e1 to c1, rook a1 to d1. The king-side
            // entries repeat the queen side; no position ever has that right.
            castling: Some(CastlingDef {
                rank: 0,
                king_file: 4,
                rook_from: [0, 0],
                king_to: [2, 2],
                rook_to: [3, 3],
            }),
            royal: Some(Role::King),
        }
    }

    fn has_extra_attacks(&self) -> bool {
        true
    }

    fn extra_attack(&self, rules: &Rules, board: &Board, target: Square, by: Color) -> bool {
        relativistic_reaches(rules, board, target, by)
    }

    fn letter_alias(&self, letter: char) -> Option<Role> {
        (letter == 'S').then_some(Role::Knight)
    }

    fn filter_moves(&self, rules: &Rules, board: &Board, moves: &mut MoveList) {
        // Holes are never taken by a normal move.
        moves.retain(|m| !is_hole_of(board, m.to, !board.turn()));
        extra_moves(rules, board, &mut |m| {
            if !moves.is_full() {
                moves.push(m)
            }
        });
    }

    /// With many holes the relativistic moves can pass what a move list
    /// holds: list them all on the heap.
    fn all_legal_moves(&self, rules: &Rules, board: &Board) -> Option<Vec<Move>> {
        let mut plain = MoveList::new();
        plain_legal_moves(rules, board, &mut plain);
        let mut all: Vec<Move> = plain
            .into_iter()
            .filter(|m| !is_hole_of(board, m.to, !board.turn()))
            .collect();
        extra_moves(rules, board, &mut |m| all.push(m));
        Some(all)
    }

    fn filters_moves(&self) -> bool {
        true
    }

    /// Holes can always be dropped, and holes can capture (relativistically):
    /// no material is too little to mate.
    fn insufficient_material(&self, _rules: &Rules, _board: &Board) -> bool {
        false
    }
}

/// The legal moves Black Holes adds to the pieces' own: drops, the holes'
/// steps and relativistic moves, in a fixed order.
fn extra_moves(rules: &Rules, board: &Board, emit: &mut dyn FnMut(Move)) {
    let us = board.turn();
    let mut extra: Vec<Move> = Vec::new();
    // Drops on the first rank.
    let home = rules.home_rank(us);
    for file in 0..SIZE.files() {
        let sq = Square::new(file, home);
        if board.piece_at(sq).is_none() {
            extra.push(Move {
                promotion: Some(Role::Hole),
                ..Move::new(sq, sq, MoveKind::Drop)
            });
        }
    }
    // Holes step like kings, onto empty squares only.
    for from in board.occupied(us).iter() {
        if role_at(board, from) != Role::Hole {
            continue;
        }
        for v in ORTHOGONAL.iter().chain(&DIAGONAL) {
            let to = from.offset(delta(*v));
            if on(board, to) && board.piece_at(to).is_none() {
                extra.push(Move::new(from, to, MoveKind::Normal));
            }
        }
    }
    relativistic(rules, board, us, &mut |m| extra.push(m));
    for m in extra {
        if leaves_king_safe(rules, board, &m) {
            emit(m);
        }
    }
}

/// A square of the board (not the wall around it).
fn on(board: &Board, sq: Square) -> bool {
    board.cells[sq.index()] != WALL
}

fn is_hole_of(board: &Board, sq: Square, color: Color) -> bool {
    board
        .piece_at(sq)
        .is_some_and(|p| p.color == color && p.role == Role::Hole)
}

/// How a piece entered the black hole.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Entry {
    Any,
    /// A pawn's straight step: the way out may not capture.
    PawnStraight,
    /// A pawn's diagonal step: the way out must capture.
    PawnDiagonal,
}

/// Every relativistic move of `side` (king safety not checked), whoever is
/// to move.
pub(crate) fn relativistic(rules: &Rules, board: &Board, side: Color, emit: &mut dyn FnMut(Move)) {
    let holes: Vec<Square> = board
        .occupied(side)
        .iter()
        .filter(|&s| role_at(board, s) == Role::Hole)
        .collect();
    if holes.is_empty() {
        return;
    }
    let fwd = match side {
        Color::White => STRIDE,
        Color::Black => -STRIDE,
    };
    let empty = |sq: Square, from: Square| sq == from || board.piece_at(sq).is_none();
    for from in board.occupied(side).iter() {
        let role = role_at(board, from);
        // (direction, entry kind), for each own hole reached by a normal move.
        let mut entries: Vec<(i16, Entry)> = Vec::new();
        let own_hole = |sq: Square| on(board, sq) && is_hole_of(board, sq, side);
        match role {
            Role::King => continue,
            Role::Knight => {
                for v in KNIGHT {
                    if own_hole(from.offset(delta(v))) {
                        entries.push((delta(v), Entry::Any));
                    }
                }
            }
            Role::Hole => {
                for v in ORTHOGONAL.iter().chain(&DIAGONAL) {
                    if own_hole(from.offset(delta(*v))) {
                        entries.push((delta(*v), Entry::Any));
                    }
                }
            }
            Role::Pawn => {
                let one = from.offset(fwd);
                // One step, or a double step from the second rank, into a hole.
                let double = from.rank() == rules.double_step_rank(side)
                    && on(board, one)
                    && board.piece_at(one).is_none()
                    && own_hole(one.offset(fwd));
                if own_hole(one) || double {
                    entries.push((fwd, Entry::PawnStraight));
                }
                for side_step in [-1, 1] {
                    if own_hole(from.offset(fwd + side_step)) {
                        entries.push((fwd + side_step, Entry::PawnDiagonal));
                    }
                }
            }
            Role::Bishop | Role::Rook | Role::Queen => {
                let dirs: Vec<_> = match role {
                    Role::Bishop => DIAGONAL.to_vec(),
                    Role::Rook => ORTHOGONAL.to_vec(),
                    _ => ORTHOGONAL.iter().chain(&DIAGONAL).copied().collect(),
                };
                for v in dirs {
                    let d = delta(v);
                    let mut sq = from.offset(d);
                    while on(board, sq) && board.piece_at(sq).is_none() {
                        sq = sq.offset(d);
                    }
                    if own_hole(sq) {
                        entries.push((d, Entry::Any));
                    }
                }
            }
            _ => {}
        }
        for (d, entry) in entries {
            for &white in &holes {
                if role == Role::Hole && white == from {
                    continue;
                }
                let mut to = white.offset(d);
                while on(board, to) {
                    let occupant = if to == from { None } else { board.piece_at(to) };
                    match occupant {
                        None => {
                            let ep = entry == Entry::PawnDiagonal && board.en_passant() == Some(to);
                            if entry != Entry::PawnDiagonal {
                                emit_all(
                                    rules,
                                    side,
                                    role,
                                    from,
                                    to,
                                    white,
                                    MoveKind::Normal,
                                    emit,
                                );
                            } else if ep {
                                emit_all(
                                    rules,
                                    side,
                                    role,
                                    from,
                                    to,
                                    white,
                                    MoveKind::EnPassant,
                                    emit,
                                );
                            }
                        }
                        Some(p) => {
                            let own_king = p.color == side && p.role == Role::King;
                            if !own_king && entry != Entry::PawnStraight {
                                emit_all(
                                    rules,
                                    side,
                                    role,
                                    from,
                                    to,
                                    white,
                                    MoveKind::Normal,
                                    emit,
                                );
                            }
                            break;
                        }
                    }
                    if !empty(to, from) {
                        break;
                    }
                    to = to.offset(d);
                }
            }
        }
    }
}

/// Does some relativistic move of `by` end on `target`? The question every
/// king-safety test asks, so it is answered backwards from the target
/// rather than by listing every such move (which cost Black Holes' search
/// most of its time): walk back along each direction to an own white hole
/// the way out could start from, then look for a piece that can enter an own
/// hole in that direction. It agrees with [`relativistic`] on every position
/// (tested below): the way out may pass the mover's own square, a hole never
/// leaves through itself, a pawn entering straight must end on an empty
/// square and entering diagonally must capture (or take en passant).
fn relativistic_reaches(rules: &Rules, board: &Board, target: Square, by: Color) -> bool {
    if board.counts[by.index()][Role::Hole.index()] == 0 {
        return false;
    }
    if board
        .piece_at(target)
        .is_some_and(|p| p.color == by && p.role == Role::King)
    {
        return false;
    }
    // Every own hole, gathered once (a side rarely has more than a few).
    let mut holes = [target; 40];
    let mut count = 0;
    for sq in board.occupied(by).iter() {
        if role_at(board, sq) == Role::Hole && count < holes.len() {
            holes[count] = sq;
            count += 1;
        }
    }
    let holes = &holes[..count];
    let vectors = KNIGHT.iter().chain(&ORTHOGONAL).chain(&DIAGONAL);
    for v in vectors {
        let d = delta(*v);
        // Back from the target: each own hole is a possible way out; an
        // occupied square between it and the target must be the mover's.
        let mut passed: Option<Square> = None;
        let mut sq = target.offset(-d);
        while on(board, sq) {
            if let Some(p) = board.piece_at(sq) {
                if p.color == by
                    && p.role == Role::Hole
                    && enters(rules, board, by, holes, *v, sq, passed, target)
                {
                    return true;
                }
                if passed.is_some() {
                    break;
                }
                passed = Some(sq);
            }
            sq = sq.offset(-d);
        }
    }
    false
}

/// Can a piece enter one of `holes` (its side's) moving along `v`, to leave
/// by `white` and end on `target`? `mover`: the square the piece must stand
/// on (it stood on the way out), if any.
#[allow(clippy::too_many_arguments)]
fn enters(
    rules: &Rules,
    board: &Board,
    by: Color,
    holes: &[Square],
    v: (i8, i8),
    white: Square,
    mover: Option<Square>,
    target: Square,
) -> bool {
    let d = delta(v);
    let fwd = match by {
        Color::White => STRIDE,
        Color::Black => -STRIDE,
    };
    let knight = KNIGHT.contains(&v);
    let diagonal = DIAGONAL.contains(&v);
    let mine = |sq: Square, role: Role| {
        on(board, sq)
            && board
                .piece_at(sq)
                .is_some_and(|p| p.color == by && p.role == role)
    };
    // Whether a piece from `from`, entering as `entry`, may end on the target.
    let ends = |from: Square, entry: Entry| {
        if mover.is_some_and(|m| m != from) {
            return false;
        }
        let occupant = if target == from {
            None
        } else {
            board.piece_at(target)
        };
        match (occupant, entry) {
            (None, Entry::PawnDiagonal) => board.en_passant() == Some(target),
            (None, _) => true,
            (Some(_), Entry::PawnStraight) => false,
            // An own king is never taken (ruled out by the caller).
            (Some(_), _) => true,
        }
    };
    for &black in holes {
        let behind = black.offset(-d);
        if knight {
            if mine(behind, Role::Knight) && ends(behind, Entry::Any) {
                return true;
            }
            continue;
        }
        // A hole stepping into a neighbouring hole, not leaving through itself.
        if behind != white && mine(behind, Role::Hole) && ends(behind, Entry::Any) {
            return true;
        }
        // A slider over empty squares.
        let mut sq = behind;
        while on(board, sq) && board.piece_at(sq).is_none() {
            sq = sq.offset(-d);
        }
        let slider = if diagonal { Role::Bishop } else { Role::Rook };
        if (mine(sq, slider) || mine(sq, Role::Queen)) && ends(sq, Entry::Any) {
            return true;
        }
        // Pawns: straight (one step, or two from their second rank), or diagonally.
        if d == fwd {
            let double = behind.offset(-fwd);
            if mine(behind, Role::Pawn) && ends(behind, Entry::PawnStraight) {
                return true;
            }
            if on(board, behind)
                && board.piece_at(behind).is_none()
                && mine(double, Role::Pawn)
                && double.rank() == rules.double_step_rank(by)
                && ends(double, Entry::PawnStraight)
            {
                return true;
            }
        } else if (d == fwd + 1 || d == fwd - 1)
            && mine(behind, Role::Pawn)
            && ends(behind, Entry::PawnDiagonal)
        {
            return true;
        }
    }
    false
}

/// One relativistic move, once per promotion piece when a pawn ends on its
/// last rank.
#[allow(clippy::too_many_arguments)]
fn emit_all(
    rules: &Rules,
    side: Color,
    role: Role,
    from: Square,
    to: Square,
    white: Square,
    kind: MoveKind,
    emit: &mut dyn FnMut(Move),
) {
    let base = Move {
        via: Some(white),
        ..Move::new(from, to, kind)
    };
    if role == Role::Pawn && to.rank() == rules.promotion_rank(side) {
        for &p in rules.promotion_roles() {
            emit(Move {
                promotion: Some(p),
                ..base
            });
        }
    } else {
        emit(base);
    }
}

/// The black hole a relativistic move entered (for its notation).
pub(crate) fn black_hole(board: &Board, mv: &Move) -> Option<Square> {
    let white = mv.via?;
    let (df, dr) = (
        mv.to.file() as i16 - white.file() as i16,
        mv.to.rank() as i16 - white.rank() as i16,
    );
    let g = gcd(df.unsigned_abs(), dr.unsigned_abs()).max(1) as i16;
    let d = delta(((df / g) as i8, (dr / g) as i8));
    let role = role_at(board, mv.from);
    if role == Role::Knight {
        return Some(mv.from.offset(d));
    }
    let mut sq = mv.from.offset(d);
    while on(board, sq) && board.piece_at(sq).is_none() {
        sq = sq.offset(d);
    }
    Some(sq)
}

fn gcd(a: u16, b: u16) -> u16 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    fn next(state: &mut u64) -> u64 {
        // xorshift64*
        *state ^= *state >> 12;
        *state ^= *state << 25;
        *state ^= *state >> 27;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// The backwards test against the list of every relativistic move, on
    /// every square, for both sides; how many squares are reached.
    fn agree(pos: &Position) -> usize {
        let (rules, board) = (pos.rules(), pos.board());
        let mut reached = 0;
        for target in rules.size().squares() {
            for by in [Color::White, Color::Black] {
                let mut listed = false;
                relativistic(rules, board, by, &mut |m| listed |= m.to == target);
                assert_eq!(
                    relativistic_reaches(rules, board, target, by),
                    listed,
                    "{by:?} reaching {target:?} in {}",
                    pos.fen()
                );
                reached += usize::from(listed);
            }
        }
        reached
    }

    #[test]
    fn the_backwards_attack_test_agrees_with_the_moves_in_random_games() {
        let rules = crate::variants::black_holes();
        let mut state = 0x9e37_79b9_7f4a_7c15;
        let (mut with_holes, mut reached) = (0, 0);
        for _ in 0..150 {
            let mut pos = Position::new(rules);
            for _ in 0..120 {
                reached += agree(&pos);
                with_holes += usize::from(pos.fen().contains(['H', 'h']));
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[(next(&mut state) % moves.len() as u64) as usize];
                pos.play(&mv).unwrap();
            }
        }
        assert!(with_holes > 5_000, "holes in only {with_holes} positions");
        assert!(reached > 50_000, "only {reached} squares reached");
    }

    /// Crowded boards of random pieces, holes and en passant squares: the
    /// cases a game reaches rarely (a way out through the mover's square,
    /// a pawn entering two squares away, captures of own pieces).
    #[test]
    fn the_backwards_attack_test_agrees_with_the_moves_on_random_boards() {
        let rules = crate::variants::black_holes();
        let mut state = 0x2545_f491_4f6c_dd1d;
        let (mut tried, mut reached, mut en_passant) = (0, 0, 0);
        while tried < 6_000 {
            let mut cells = ['.'; 40];
            cells[(next(&mut state) % 40) as usize] = 'K';
            loop {
                let i = (next(&mut state) % 40) as usize;
                if cells[i] == '.' {
                    cells[i] = 'k';
                    break;
                }
            }
            for cell in cells.iter_mut().filter(|c| **c == '.') {
                let r = next(&mut state) % 24;
                *cell = match r {
                    0..=11 => b"PNBRQHpnbrqh"[r as usize] as char,
                    _ if r.is_multiple_of(4) => 'H',
                    _ if r % 4 == 1 => 'h',
                    _ => '.',
                };
            }
            // En passant on half the boards: the pawn that passed
            // and the square it passed, made so.
            let turn = if next(&mut state).is_multiple_of(2) {
                "w"
            } else {
                "b"
            };
            let file = (next(&mut state) % 5) as usize;
            let (pawn, passed, rank) = match turn {
                "w" => (4 * 5 + file, 5 * 5 + file, 6),
                _ => (3 * 5 + file, 2 * 5 + file, 3),
            };
            let mut ep = "-".to_string();
            let kings = |c: char| c == 'K' || c == 'k';
            if next(&mut state).is_multiple_of(2) && !kings(cells[pawn]) && !kings(cells[passed]) {
                cells[pawn] = if turn == "w" { 'p' } else { 'P' };
                cells[passed] = '.';
                ep = format!("{}{rank}", (b'a' + file as u8) as char);
            }
            let mut rows = Vec::new();
            for rank in (0..8).rev() {
                let mut row = String::new();
                let mut empty = 0;
                for file in 0..5 {
                    let c = cells[rank * 5 + file];
                    if c == '.' {
                        empty += 1;
                        continue;
                    }
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(c);
                }
                if empty > 0 {
                    row.push_str(&empty.to_string());
                }
                rows.push(row);
            }
            let fen = format!("{} {turn} - {ep} 0 1", rows.join("/"));
            // Pawns on an end rank, a side in check out of turn and the like
            // are refused: skip those boards.
            if let Ok(pos) = Position::from_fen(rules, &fen) {
                reached += agree(&pos);
                en_passant += usize::from(pos.board().en_passant().is_some());
                tried += 1;
            }
        }
        assert!(reached > 30_000, "only {reached} squares reached");
        assert!(en_passant > 30, "en passant on only {en_passant} boards");
    }
}
