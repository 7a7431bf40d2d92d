//! Move generation, attack detection and making moves.
//!
//! Moves are generated pseudo-legally from the role tables, then filtered.
//! Most moves are proven legal without being played: when the side to move is
//! not in check, a piece that is not pinned to its king and not next to it
//! (a two-step walker could then reach the king through its square) cannot
//! expose the king. King moves, evasions, en passant, castling and the rest
//! are played on a copy of the board and the king's square tested.

use crate::board::{code, is_color, is_piece, role_of, Board, EMPTY, VOID, WALL};
use crate::movement::Vector;
use crate::program::Reach;
use crate::rules::{RoleGen, Rules};
use crate::tile::Unstable;
use crate::variant::MoveEffect;
use crate::{CastlingSide, Color, Move, MoveKind, MoveList, Piece, Role, Square, SquareSet};
use arrayvec::ArrayVec;

/// Whether `target` is attacked by a piece of `by` (see
/// [`crate::legal::attacked`]), by walking the cells: every board and piece.
pub(crate) fn attacked_by_cells(rules: &Rules, b: &Board, target: Square, by: Color) -> bool {
    if each_attacker(rules, b, target, by, |_, _| true) {
        return true;
    }
    if rules.programs.is_some() && programmed_attack(rules, b, target, by) {
        return true;
    }
    rules.extra_attacks && rules.variant.extra_attack(rules, b, target, by)
}

/// Calls `found` with each piece of `by` that attacks `target` by the role
/// tables (leaps, rides, walks, hops, and Chess 99's pawns waiting to
/// promote), and with the role it would capture as, until `found` answers
/// `true`; whether it did. A piece may be named more than once.
/// Reprogrammed pieces and a variant's own attacks (Black Holes) are not
/// looked at. Only `b`'s cells are read, and its piece counts as a hint
/// (a count of 0 skips that walker), so a scratch board whose cells alone
/// changed may be asked.
#[inline]
pub(crate) fn each_attacker(
    rules: &Rules,
    b: &Board,
    target: Square,
    by: Color,
    mut found: impl FnMut(Square, Role) -> bool,
) -> bool {
    let t = target.index() as i16;
    let mut hit = |s: i16, cell: u8| found(Square::from_index(s as usize), role_of(cell));
    let cells = &b.cells;
    let counts = &b.counts[by.index()];
    for &(d, masks) in &rules.leap_attacks {
        let cell = cells[(t + d) as usize];
        if is_color(cell, by) && masks[by.index()] & (1 << (cell & 0x0f)) != 0 && hit(t + d, cell) {
            return true;
        }
    }
    for ride in &rules.ride_attacks {
        let d = ride.d;
        let mut s = t + d;
        let mut n = 1;
        while cells[s as usize] == EMPTY && n < ride.range {
            s += d;
            n += 1;
        }
        let cell = cells[s as usize];
        if ride.attacks(cell, by, n) && hit(s, cell) {
            return true;
        }
    }
    for (color, role, steps, crosses) in &rules.two_step_attackers {
        if *color != by || counts[role.index()] == 0 {
            continue;
        }
        let walker = code(by, *role);
        for &d2 in steps {
            let mid = (t - d2) as usize;
            let c = cells[mid];
            if c != EMPTY && !(*crosses && c == VOID) {
                continue;
            }
            for &d1 in steps {
                // Out and back is no attack: a walker does not attack the
                // square it stands on.
                let origin = mid as i16 - d1;
                if d1 + d2 != 0 && cells[origin as usize] == walker && hit(origin, walker) {
                    return true;
                }
            }
        }
    }
    for (color, role, paths) in &rules.path_attackers {
        if *color != by || counts[role.index()] == 0 {
            continue;
        }
        let walker = code(by, *role);
        for path in paths {
            let total: i16 = path.iter().sum();
            let origin = t - total;
            if origin < 0 || origin as usize >= cells.len() || cells[origin as usize] != walker {
                continue;
            }
            let mut s = origin;
            let clear = path[..path.len() - 1].iter().all(|&d| {
                s += d;
                cells[s as usize] == EMPTY
            });
            if clear && hit(origin, walker) {
                return true;
            }
        }
    }
    for &(d, masks, next) in &rules.hop_attacks {
        if masks[by.index()] == 0 {
            continue;
        }
        let mut s = t + d;
        if !next {
            while cells[s as usize] == EMPTY {
                s += d;
            }
        }
        if !is_piece(cells[s as usize]) {
            continue;
        }
        s += d;
        while cells[s as usize] == EMPTY {
            s += d;
        }
        let cell = cells[s as usize];
        if is_color(cell, by) && masks[by.index()] & (1 << (cell & 0x0f)) != 0 && hit(s, cell) {
            return true;
        }
    }
    rules.delayed_promotion
        && counts[Role::Pawn.index()] > 0
        && waiting_pawn_attacks(rules, b, target, by, &mut found)
}

/// Under delayed promotion (Chess 99) a pawn waiting on its last rank may
/// become a promotion piece and move as it in one move, so it attacks what
/// that piece would attack from there: `found` is called with each such
/// pawn and the piece it would capture as, until it answers `true`.
fn waiting_pawn_attacks(
    rules: &Rules,
    b: &Board,
    target: Square,
    by: Color,
    found: &mut impl FnMut(Square, Role) -> bool,
) -> bool {
    let rank = rules.promotion_rank(by);
    let pawn = code(by, Role::Pawn);
    (0..rules.size().files())
        .map(|file| Square::new(file, rank))
        .filter(|sq| b.cells[sq.index()] == pawn)
        .any(|from| {
            rules
                .def
                .promotion
                .iter()
                .any(|&role| reaches_as(rules, b, from, role, target) && found(from, role))
        })
}

/// Could a piece moving as `role` from `from` capture on `target`, by its
/// leaps and rides?
fn reaches_as(rules: &Rules, b: &Board, from: Square, role: Role, target: Square) -> bool {
    let by = b.piece_at(from).map_or(b.turn(), |p| p.color);
    let g = rules.gen(by, role.index());
    let (f, t) = (from.index() as i16, target.index() as i16);
    if g.leaps.iter().chain(&g.capture_leaps).any(|&d| f + d == t) {
        return true;
    }
    g.rides.iter().chain(&g.capture_rides).any(|&(d, range)| {
        let mut s = f + d;
        let mut n = 1;
        loop {
            if s == t {
                return true;
            }
            if b.cells[s as usize] != EMPTY || n >= range {
                return false;
            }
            s += d;
            n += 1;
        }
    })
}

/// The square `v` away from `from`, if it is on the board.
#[inline]
fn shifted(b: &Board, from: Square, v: Vector, times: i16) -> Option<Square> {
    let f = from.file() as i16 + v.0 as i16 * times;
    let r = from.rank() as i16 + v.1 as i16 * times;
    if !(0..crate::MAX_FILES as i16).contains(&f) || !(0..crate::MAX_RANKS as i16).contains(&r) {
        return None;
    }
    let sq = Square::new(f as u8, r as u8);
    (b.cells[sq.index()] != WALL).then_some(sq)
}

/// For a straight vector (orthogonal or diagonal) of length `n` > 1, the
/// unit step and `n`; `None` for other vectors (nothing lies between).
fn straight(v: Vector) -> Option<(Vector, i16)> {
    let (f, r) = (v.0 as i16, v.1 as i16);
    let n = f.abs().max(r.abs());
    (n > 1 && (f == 0 || r == 0 || f.abs() == r.abs()))
        .then(|| ((f.signum() as i8, r.signum() as i8), n))
}

/// Can a piece at `from` reach `to` by `way` (the landing square itself not
/// looked at)?
fn way_reaches(b: &Board, from: Square, to: Square, v: Vector, reach: Reach) -> bool {
    let (df, dr) = (
        to.file() as i16 - from.file() as i16,
        to.rank() as i16 - from.rank() as i16,
    );
    let clear = |sq: Square| b.cells[sq.index()] == EMPTY;
    match reach {
        Reach::Jump => (df, dr) == (v.0 as i16, v.1 as i16),
        Reach::Step => {
            (df, dr) == (v.0 as i16, v.1 as i16)
                && straight(v).is_none_or(|(unit, n)| {
                    (1..n).all(|k| shifted(b, from, unit, k).is_some_and(clear))
                })
        }
        Reach::Slide => {
            // `to` = from + k * v for a whole k >= 1, and the stops before it empty.
            let k = if v.0 != 0 {
                df / v.0 as i16
            } else {
                dr / v.1 as i16
            };
            k >= 1
                && (df, dr) == (v.0 as i16 * k, v.1 as i16 * k)
                && (1..k).all(|j| shifted(b, from, v, j).is_some_and(clear))
        }
    }
}

/// Does a reprogrammed piece of `by` attack `target`?
fn programmed_attack(rules: &Rules, b: &Board, target: Square, by: Color) -> bool {
    b.occupied[by.index()].iter().any(|from| {
        rules.program(by, role_at(b, from)).is_some_and(|ways| {
            ways.iter()
                .any(|&(v, reach)| way_reaches(b, from, target, v, reach))
        })
    })
}

/// The moves of a reprogrammed piece: every way lands on an empty square or
/// captures; a pawn promotes on the last rank.
fn programmed_moves(
    rules: &Rules,
    b: &Board,
    from: Square,
    role: Role,
    ways: &[(Vector, Reach)],
    out: &mut MoveList,
) {
    let us = b.turn;
    let them = !us;
    let start = out.len();
    let push = |to: Square, out: &mut MoveList| {
        if out[start..].iter().any(|m| m.to == to) {
            return;
        }
        if role == Role::Pawn && to.rank() == rules.promotion_rank(us) {
            for &p in &rules.def.promotion {
                out.push(Move {
                    promotion: Some(p),
                    ..Move::new(from, to, MoveKind::Normal)
                });
            }
        } else {
            out.push(Move::new(from, to, MoveKind::Normal));
        }
    };
    for &(v, reach) in ways {
        let mut k = 1;
        while let Some(to) = shifted(b, from, v, k) {
            let cell = b.cells[to.index()];
            let landable = cell == EMPTY || is_color(cell, them);
            if landable && (reach != Reach::Step || way_reaches(b, from, to, v, reach)) {
                push(to, out);
            }
            if reach != Reach::Slide || cell != EMPTY {
                break;
            }
            k += 1;
        }
    }
}

/// May a piece of `rules`' role land on `cell`? (empty, enemy, or a void for
/// void-crossers)
#[inline]
fn landable(cell: u8, them: Color, crosses_void: bool) -> bool {
    cell == EMPTY || is_color(cell, them) || (crosses_void && cell == VOID)
}

/// All pseudo-legal moves except castling: pieces move by their rules, without
/// regard for the safety of their own king.
pub(crate) fn pseudo_moves(rules: &Rules, b: &Board, out: &mut MoveList) {
    let us = b.turn;
    let cells = &b.cells;
    for from in b.occupied[us.index()].iter() {
        if rules.programs.is_some() {
            let role = role_at(b, from);
            if let Some(ways) = rules.program(us, role) {
                programmed_moves(rules, b, from, role, ways, out);
                continue;
            }
        }
        let g = rules.gen(us, (cells[from.index()] & 0x0f) as usize);
        role_moves(g, b, from, out);
        if g.pawn {
            pawn_moves(rules, b, from, out);
        }
    }
}

/// The pseudo-legal moves of the side to move's piece on `from` (castling
/// aside).
pub(crate) fn piece_moves(rules: &Rules, b: &Board, from: Square, out: &mut MoveList) {
    let g = rules.gen(b.turn(), (b.cells[from.index()] & 0x0f) as usize);
    role_moves(g, b, from, out);
    if g.pawn {
        pawn_moves(rules, b, from, out);
    }
}

/// How many squares the piece on `from` reaches by its leaps, rides and
/// two-step walks, whichever side is to move: empty squares and enemy
/// pieces (voids too for a piece that crosses them). The evaluation's
/// mobility: a cheap count, so a two-step walk's squares are counted
/// without checking the square between, and pawns and programmed pieces
/// count nothing.
pub(crate) fn reach(rules: &Rules, b: &Board, from: Square) -> u32 {
    let cell = b.cells[from.index()];
    let Some(piece) = crate::board::piece_of(cell) else {
        return 0;
    };
    if !counts_reach(rules, piece) {
        return 0;
    }
    reach_by_cells(
        b,
        from,
        !piece.color,
        rules.gen(piece.color, (cell & 0x0f) as usize),
    )
}

/// Whether `piece`'s reach counts: pawns and programmed pieces count none.
pub(crate) fn counts_reach(rules: &Rules, piece: Piece) -> bool {
    let programmed = rules.programs.is_some() && rules.program(piece.color, piece.role).is_some();
    !programmed && !rules.gen(piece.color, piece.role.index()).pawn
}

/// [`reach`] by walking the cells, for a piece moving by `g` whose enemy
/// is `them`: every board and piece.
fn reach_by_cells(b: &Board, from: Square, them: Color, g: &RoleGen) -> u32 {
    let cells = &b.cells;
    let f = from.index() as i16;
    let mut n = 0;
    for &d in g.leaps.iter().chain(&g.two_steps) {
        n += landable(cells[(f + d) as usize], them, g.crosses_void) as u32;
    }
    for &d2 in &g.two_steps {
        for &d1 in &g.two_steps {
            let to = f + d1 + d2;
            if d1 + d2 != 0 && (0..cells.len() as i16).contains(&to) {
                n += landable(cells[to as usize], them, g.crosses_void) as u32;
            }
        }
    }
    for &(d, range) in &g.rides {
        let mut s = f + d;
        for _ in 0..range {
            let cell = cells[s as usize];
            if cell == EMPTY || (g.crosses_void && cell == VOID) {
                n += 1;
            } else {
                n += is_color(cell, them) as u32;
                break;
            }
            s += d;
        }
    }
    if g.limited() {
        n += limited_targets(g, b, from, them, |_| {});
    }
    n
}

/// The squares the piece on `from`, moving by `g`, reaches by its ways that
/// only move, only capture or hop, each handed to `found` (a square may
/// come twice); returns how many.
fn limited_targets(
    g: &RoleGen,
    b: &Board,
    from: Square,
    them: Color,
    mut found: impl FnMut(i16),
) -> u32 {
    let cells = &b.cells;
    let f = from.index() as i16;
    let mut n = 0;
    let mut hit = |s: i16| {
        n += 1;
        found(s);
    };
    let open = |cell: u8| cell == EMPTY || (g.crosses_void && cell == VOID);
    for &d in &g.quiet_leaps {
        if open(cells[(f + d) as usize]) {
            hit(f + d);
        }
    }
    for &d in &g.capture_leaps {
        if is_color(cells[(f + d) as usize], them) {
            hit(f + d);
        }
    }
    for &(d, range) in &g.quiet_rides {
        let mut s = f + d;
        let mut k = 0;
        while open(cells[s as usize]) && k < range {
            hit(s);
            s += d;
            k += 1;
        }
    }
    for &(d, range) in &g.capture_rides {
        let mut s = f + d;
        let mut k = 1;
        while open(cells[s as usize]) && k < range {
            s += d;
            k += 1;
        }
        if is_color(cells[s as usize], them) {
            hit(s);
        }
    }
    for h in &g.hops {
        let mut s = f + h.d;
        while cells[s as usize] == EMPTY {
            s += h.d;
        }
        if !is_piece(cells[s as usize]) {
            continue;
        }
        s += h.d;
        loop {
            let cell = cells[s as usize];
            if cell == EMPTY {
                if h.moves {
                    hit(s);
                }
            } else {
                if h.captures && is_color(cell, them) {
                    hit(s);
                }
                break;
            }
            if h.next {
                break;
            }
            s += h.d;
        }
    }
    n
}

/// The moves of a piece moving as `role` from `from` (pawns excepted): how
/// a promoted pawn moves in the same turn under delayed promotion.
pub(crate) fn moves_as(rules: &Rules, b: &Board, from: Square, role: Role, out: &mut MoveList) {
    role_moves(rules.gen(b.turn(), role.index()), b, from, out);
}

/// Leaps, rides and two-step walks of one piece.
#[inline]
fn role_moves(g: &RoleGen, b: &Board, from: Square, out: &mut MoveList) {
    let them = !b.turn;
    let cells = &b.cells;
    {
        let f = from.index() as i16;
        for &d in &g.leaps {
            if landable(cells[(f + d) as usize], them, g.crosses_void) {
                out.push(Move::new(from, from.offset(d), MoveKind::Normal));
            }
        }
        for &(d, range) in &g.rides {
            let mut s = f + d;
            let mut n = 0;
            loop {
                let cell = cells[s as usize];
                if cell == EMPTY || (g.crosses_void && cell == VOID) {
                    out.push(Move::new(
                        from,
                        Square::from_index(s as usize),
                        MoveKind::Normal,
                    ));
                } else {
                    if is_color(cell, them) {
                        out.push(Move::new(
                            from,
                            Square::from_index(s as usize),
                            MoveKind::Normal,
                        ));
                    }
                    break;
                }
                n += 1;
                if n >= range {
                    break;
                }
                s += d;
            }
        }
        if !g.two_steps.is_empty() {
            two_step_moves(from, &g.two_steps, g.crosses_void, cells, them, out);
        }
        for path in &g.paths {
            let mut s = f;
            let last = path.len() - 1;
            for (i, &d) in path.iter().enumerate() {
                s += d;
                let cell = cells[s as usize];
                if i < last {
                    if cell != EMPTY {
                        break;
                    }
                } else if landable(cell, them, false) {
                    let to = Square::from_index(s as usize);
                    if !out.iter().any(|m| m.from == from && m.to == to) {
                        out.push(Move::new(from, to, MoveKind::Normal));
                    }
                }
            }
        }
        if g.limited() {
            limited_moves(g, b, from, out);
        }
    }
}

/// The moves of a piece's ways that only move, only capture or hop, each
/// square once with the piece's other moves.
fn limited_moves(g: &RoleGen, b: &Board, from: Square, out: &mut MoveList) {
    // This piece's moves so far start here: a square is kept once among them.
    let start = out
        .iter()
        .rposition(|m| m.from != from)
        .map_or(0, |i| i + 1);
    limited_targets(g, b, from, !b.turn, |s| {
        let to = Square::from_index(s as usize);
        if !out[start..].iter().any(|m| m.to == to) {
            out.push(Move::new(from, to, MoveKind::Normal));
        }
    });
}

fn two_step_moves(
    from: Square,
    steps: &[i16],
    crosses: bool,
    cells: &[u8],
    them: Color,
    out: &mut MoveList,
) {
    let f = from.index() as i16;
    // Destinations seen, by offset from `from` (+ 2 * STRIDE + 2 keeps it >= 0).
    let mut seen: u128 = 0;
    let base = 2 * crate::square::STRIDE + 2;
    let push = |to: i16, seen: &mut u128, out: &mut MoveList| {
        let bit = 1u128 << (to - f + base);
        if *seen & bit == 0 {
            *seen |= bit;
            out.push(Move::new(
                from,
                Square::from_index(to as usize),
                MoveKind::Normal,
            ));
        }
    };
    for &d1 in steps {
        let mid = f + d1;
        let c = cells[mid as usize];
        if is_color(c, them) {
            push(mid, &mut seen, out);
            continue;
        }
        if !(c == EMPTY || (crosses && c == VOID)) {
            continue;
        }
        push(mid, &mut seen, out);
        for &d2 in steps {
            let to = mid + d2;
            if to != f && landable(cells[to as usize], them, crosses) {
                push(to, &mut seen, out);
            }
        }
    }
}

fn pawn_moves(rules: &Rules, b: &Board, from: Square, out: &mut MoveList) {
    let us = b.turn;
    let them = !us;
    let fwd = Rules::pawn_forward(us);
    let cells = &b.cells;
    let promo_rank = rules.promotion_rank(us);
    let push = |to: Square, kind: MoveKind, out: &mut MoveList| {
        let last = to.rank() == promo_rank && !rules.delayed_promotion;
        // In a promotion zone short of the last rank, staying a pawn is a
        // choice beside each promotion (Grand Chess).
        let zone = !last && rules.may_promote_on(us, to.rank());
        if last || zone {
            if zone {
                out.push(Move::new(from, to, kind));
            }
            for &role in &rules.def.promotion {
                if rules.may_become(b, us, role) {
                    out.push(Move {
                        promotion: Some(role),
                        ..Move::new(from, to, kind)
                    });
                }
            }
        } else {
            out.push(Move::new(from, to, kind));
        }
    };
    let one = from.offset(fwd);
    if cells[one.index()] == EMPTY {
        push(one, MoveKind::Normal, out);
        if (from.rank() == rules.double_step_rank(us) || rules.double_step_anywhere)
            && rules.pawn_double_step
        {
            let two = one.offset(fwd);
            if cells[two.index()] == EMPTY {
                // On a tall board a double step may reach the last rank
                // (Super Chess); it promotes like any other arrival.
                push(two, MoveKind::DoubleStep, out);
            }
        }
    }
    for side in [-1, 1] {
        let to = one.offset(side);
        if is_color(cells[to.index()], them) {
            push(to, MoveKind::Normal, out);
        } else if b.ep == Some(to) {
            out.push(Move::new(from, to, MoveKind::EnPassant));
        }
    }
}

/// Castling moves that satisfy every condition: rights, pieces in place,
/// empty squares between, king not in check nor crossing an attacked square.
pub(crate) fn castling_moves(rules: &Rules, b: &Board, out: &mut MoveList) {
    let Some(c) = &rules.def.castling else { return };
    for side in [CastlingSide::King, CastlingSide::Queen] {
        if let Ok(mv) = castling_move(rules, b, c, side) {
            out.push(mv);
        }
    }
}

/// Why castling is not possible, in words (also used for error messages).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CastleBlock {
    NoRight,
    Occupied(Square),
    InCheck,
    Attacked(Square),
}

pub(crate) fn castling_move(
    rules: &Rules,
    b: &Board,
    c: &crate::variant::CastlingDef,
    side: CastlingSide,
) -> Result<Move, CastleBlock> {
    let us = b.turn;
    let them = !us;
    if !b.castling_right(us, side) {
        return Err(CastleBlock::NoRight);
    }
    let rank = rules.castling_rank(us);
    let k_from = Square::new(c.king_file, rank);
    let r_from = Square::new(c.rook_from[side as usize], rank);
    let k_to = Square::new(c.king_to[side as usize], rank);
    let r_to = Square::new(c.rook_to[side as usize], rank);
    if b.piece_at(k_from) != Some(Piece::new(us, Role::King))
        || b.piece_at(r_from) != Some(Piece::new(us, Role::Rook))
    {
        return Err(CastleBlock::NoRight);
    }
    let files = [k_from.file(), r_from.file(), k_to.file(), r_to.file()];
    let lo = *files.iter().min().unwrap();
    let hi = *files.iter().max().unwrap();
    for file in lo..=hi {
        let sq = Square::new(file, rank);
        if sq != k_from && sq != r_from && !b.is_empty(sq) {
            return Err(CastleBlock::Occupied(sq));
        }
    }
    if crate::legal::attacked(rules, b, k_from, them) {
        return Err(CastleBlock::InCheck);
    }
    let (a, z) = (
        k_from.file().min(k_to.file()),
        k_from.file().max(k_to.file()),
    );
    for file in a..=z {
        let sq = Square::new(file, rank);
        if sq != k_from && crate::legal::attacked(rules, b, sq, them) {
            return Err(CastleBlock::Attacked(sq));
        }
    }
    Ok(Move::new(k_from, k_to, MoveKind::Castle(side)))
}

/// Plays `mv` on a copy of `b`. The move must be pseudo-legal.
pub(crate) fn make(rules: &Rules, b: &Board, mv: &Move) -> Board {
    // One copy, built where the caller keeps it: playing on the copy in
    // place lets the compiler skip a second copy of the whole board on the
    // way out (perft makes a move per node).
    let mut n = *b;
    play(rules, &mut n, mv);
    n
}

/// Plays `mv` on `n` in place.
pub(crate) fn play(rules: &Rules, n: &mut Board, mv: &Move) {
    let us = n.turn;
    let them = !us;
    match mv.kind {
        MoveKind::Drop => {
            n.put(mv.to, us, mv.promotion.expect("a drop names its piece"));
            return end_quiet_turn(n, true);
        }
        MoveKind::FreeCastle => {
            let king = n.take(mv.from).expect("the king");
            let partner = n.take(mv.to).expect("the castling partner");
            let step: i16 = if mv.to.file() > mv.from.file() { 1 } else { -1 };
            let king_to = if mv.from.distance(mv.to) == 1 {
                mv.to
            } else {
                mv.from.offset(step)
            };
            n.put(king_to, us, king.role);
            n.put(mv.from, us, partner.role);
            return end_quiet_turn(n, true);
        }
        MoveKind::PlaceVoid => {
            n.set_void(mv.to, true);
            // Not a move of the game's clock: the counters stay.
            return end_quiet_turn(n, false);
        }
        _ => {}
    }
    let mover = n.take(mv.from).expect("a piece on the from square");
    let mut captured = None;
    match mv.kind {
        MoveKind::Normal | MoveKind::DoubleStep => {
            if is_piece(n.cells[mv.to.index()]) {
                captured = n.take(mv.to);
            } else if n.cells[mv.to.index()] == VOID {
                // Only void-crossers get here; landing heals the void.
                n.set_void(mv.to, false);
            }
        }
        MoveKind::EnPassant => {
            captured = n.take(mv.to.offset(-Rules::pawn_forward(us)));
        }
        MoveKind::PlaceVoid | MoveKind::FreeCastle | MoveKind::Drop => {
            unreachable!("handled above")
        }
        MoveKind::Castle(side) => {
            let c = rules.def.castling.as_ref().expect("castling rules");
            let rank = rules.castling_rank(us);
            let r_from = Square::new(c.rook_from[side as usize], rank);
            let r_to = Square::new(c.rook_to[side as usize], rank);
            n.take(r_from);
            n.put(r_to, us, Role::Rook);
        }
    }
    let landed = Piece::new(us, mv.promotion.unwrap_or(mover.role));
    n.put(mv.to, us, landed.role);

    let clear = rules.castle_clear[mv.from.index()] | rules.castle_clear[mv.to.index()];
    if clear & n.castling != 0 {
        n.set_castling(n.castling & !clear);
    }
    let ep = if mv.kind == MoveKind::DoubleStep {
        // Recorded when a capture may be possible: an enemy pawn beside the
        // pawn, or games where other pieces (Chess 99) or pawns out of a
        // hole (Black Holes) may take. `Position` then keeps it only when an
        // en-passant capture is legal, so that repetition sees equal
        // positions as equal.
        let pawn = code(them, Role::Pawn);
        let capturable = en_passant_anyhow(rules)
            || n.cells[mv.to.index() - 1] == pawn
            || n.cells[mv.to.index() + 1] == pawn;
        capturable.then(|| mv.from.offset(Rules::pawn_forward(us)))
    } else {
        None
    };
    if ep != n.ep {
        n.set_ep(ep);
    }
    if mover.role == Role::Pawn || captured.is_some() {
        n.halfmove = 0;
    } else {
        n.halfmove = n.halfmove.saturating_add(1);
    }
    rules.variant.after_move(
        rules,
        n,
        &MoveEffect {
            mover: us,
            mv: *mv,
            landed,
            captured,
        },
    );
    if us == Color::Black {
        n.fullmove = n.fullmove.saturating_add(1);
    }
    n.set_turn(them);
}

/// Whether a two-square advance may be taken en passant by something other
/// than a pawn standing beside it.
pub(crate) fn en_passant_anyhow(rules: &Rules) -> bool {
    rules.ep_any_piece || rules.extra_attacks
}

/// Ends the turn of a move that captures nothing and moves no pawn (a drop,
/// Chess 99's castling, a void placement): no en-passant square, and when
/// `counts`, the half-move clock and move number advance.
fn end_quiet_turn(n: &mut Board, counts: bool) {
    let us = n.turn;
    if n.ep.is_some() {
        n.set_ep(None);
    }
    if counts {
        n.halfmove = n.halfmove.saturating_add(1);
        if us == Color::Black {
            n.fullmove = n.fullmove.saturating_add(1);
        }
    }
    n.set_turn(!us);
}

/// Removes a piece destroyed by a tile, keeping castling rights honest.
pub(crate) fn destroy(rules: &Rules, b: &mut Board, sq: Square) -> Option<Piece> {
    let piece = b.take(sq)?;
    let clear = rules.castle_clear[sq.index()];
    if clear & b.castling != 0 {
        b.set_castling(b.castling & !clear);
    }
    Some(piece)
}

/// Squares of the side to move's pieces pinned to `king` by enemy riders.
fn pinned(rules: &Rules, b: &Board, king: Square, them: Color) -> ArrayVec<Square, 16> {
    let mut out = ArrayVec::new();
    let k = king.index() as i16;
    let cells = &b.cells;
    let us = !them;
    for ride in &rules.ride_attacks {
        let (d, range) = (ride.d, ride.range);
        let mut s = k + d;
        let mut n: u8 = 1;
        while cells[s as usize] == EMPTY {
            s += d;
            n = n.saturating_add(1);
        }
        if !is_color(cells[s as usize], us) || n >= range {
            continue;
        }
        let blocker = s;
        s += d;
        n = n.saturating_add(1);
        while cells[s as usize] == EMPTY && n < range {
            s += d;
            n = n.saturating_add(1);
        }
        let cell = cells[s as usize];
        if ride.attacks(cell, them, n) && !out.is_full() {
            out.push(Square::from_index(blocker as usize));
        }
    }
    out
}

/// Does `mv` capture something (en passant included)?
pub(crate) fn is_capture(b: &Board, mv: &Move) -> bool {
    mv.kind == MoveKind::EnPassant || is_color(b.cells[mv.to.index()], !b.turn)
}

/// Is the side to move's king safe after `mv`?
pub(crate) fn leaves_king_safe(rules: &Rules, b: &Board, mv: &Move) -> bool {
    let us = b.turn;
    let n = make(rules, b, mv);
    match n.kings[us.index()] {
        Some(k) => !crate::legal::attacked(rules, &n, k, !us),
        None => rules.def.royal.is_none() || b.kings[us.index()].is_none(),
    }
}

/// The legal moves by the pieces' own rules, before the variant's
/// [`crate::variant::Variant::filter_moves`].
pub(crate) fn plain_legal_moves(rules: &Rules, b: &Board, out: &mut MoveList) {
    pseudo_moves(rules, b, out);
    castling_moves(rules, b, out);
    let keep = legality(rules, b);
    let mut kept = 0;
    for i in 0..out.len() {
        let m = out[i];
        if keep.is_legal(rules, b, &m) {
            out[kept] = m;
            kept += 1;
        }
    }
    out.truncate(kept);
}

/// Counts the legal moves by the mailbox, without keeping them (perft's
/// last ply, in a variant that filters no moves).
#[inline(never)]
pub(crate) fn plain_count(rules: &Rules, b: &Board) -> u64 {
    let mut moves = MoveList::new();
    pseudo_moves(rules, b, &mut moves);
    castling_moves(rules, b, &mut moves);
    let keep = legality(rules, b);
    moves.iter().filter(|m| keep.is_legal(rules, b, m)).count() as u64
}

/// What the legality filter needs to know about a position, computed once.
pub(crate) struct Legality {
    only_from: Option<Square>,
    king: Option<Square>,
    in_check: bool,
    pins: ArrayVec<Square, 16>,
    walkers: bool,
    removal_near: bool,
    /// Squares on the lame path of an enemy path piece (the Archbishop) to
    /// the king: a piece leaving one may open the path.
    path_risk: SquareSet,
    /// Squares on the king's lines along which an enemy hopper could
    /// attack it: a piece arriving on or leaving one may make or take away
    /// a screen.
    hop_lines: SquareSet,
}

pub(crate) fn legality(rules: &Rules, b: &Board) -> Legality {
    let only_from = rules.variant.restriction(rules, b).map(|r| r.only_from);
    let us = b.turn;
    let them = !us;
    let king = b.kings[us.index()].filter(|_| rules.def.royal.is_some() && !rules.king_capture);
    let Some(k) = king else {
        return Legality {
            only_from,
            king,
            in_check: false,
            pins: ArrayVec::new(),
            walkers: false,
            removal_near: false,
            path_risk: SquareSet::EMPTY,
            hop_lines: SquareSet::EMPTY,
        };
    };
    let in_check = crate::legal::attacked(rules, b, k, them);
    let walkers = rules.two_step_mask != 0
        && b.counts[them.index()]
            .iter()
            .enumerate()
            .any(|(r, &n)| n > 0 && rules.two_step_mask & (1 << r) != 0);
    let mut l = Legality {
        only_from,
        king,
        in_check,
        // With extra attacks every move gets the full test: pins are unused.
        pins: if in_check || rules.extra_attacks {
            ArrayVec::new()
        } else {
            pinned(rules, b, k, them)
        },
        walkers,
        removal_near: false,
        path_risk: SquareSet::EMPTY,
        hop_lines: SquareSet::EMPTY,
    };
    if rules.full_legality {
        // Only a line with an enemy hopper on it: the squares up to it.
        for &(d, masks, _) in &rules.hop_attacks {
            let mask = masks[them.index()];
            if mask == 0 {
                continue;
            }
            let mut s = k.index() as i16 + d;
            let hopper = loop {
                let cell = b.cells[s as usize];
                if cell == WALL {
                    break None;
                }
                if is_color(cell, them) && mask & (1 << (cell & 0x0f)) != 0 {
                    break Some(s);
                }
                s += d;
            };
            if let Some(end) = hopper {
                let mut s = k.index() as i16 + d;
                while s != end + d {
                    l.hop_lines.insert(Square::from_index(s as usize));
                    s += d;
                }
            }
        }
    }
    for (color, role, paths) in &rules.path_attackers {
        if *color != them || b.counts[them.index()][role.index()] == 0 {
            continue;
        }
        let walker = code(them, *role);
        for path in paths {
            let total: i16 = path.iter().sum();
            let origin = k.index() as i16 - total;
            if origin < 0 || origin as usize >= b.cells.len() || b.cells[origin as usize] != walker
            {
                continue;
            }
            let mut s = origin;
            for &d in &path[..path.len() - 1] {
                s += d;
                if b.cells[s as usize] != WALL {
                    l.path_risk.insert(Square::from_index(s as usize));
                }
            }
        }
    }
    // A piece lost to a tile at the end of the move frees its square.
    l.removal_near = rules
        .variant
        .removal_square(b)
        .is_some_and(|s| l.opens_walker_path(rules, b, s));
    l
}

impl Legality {
    /// A square next to the king that empties can become the stepping stone
    /// of an enemy two-step walker standing next to that square.
    fn opens_walker_path(&self, rules: &Rules, b: &Board, sq: Square) -> bool {
        let (Some(king), true) = (self.king, self.walkers) else {
            return false;
        };
        let them = !b.turn;
        sq.distance(king) <= 1
            && rules.leap_attacks.iter().any(|&(d, masks)| {
                let cell = b.cells[(sq.index() as i16 + d) as usize];
                is_color(cell, them)
                    && masks[them.index()] & rules.two_step_mask & (1 << (cell & 0x0f)) != 0
            })
    }

    #[inline]
    pub(crate) fn is_legal(&self, rules: &Rules, b: &Board, m: &Move) -> bool {
        if self.only_from.is_some_and(|s| s != m.from) {
            return false;
        }
        let Some(king) = self.king else { return true };
        let risky = rules.extra_attacks
            || self.hop_lines.contains(m.from)
            || self.hop_lines.contains(m.to)
            || self.path_risk.contains(m.from)
            || removes_capturer(rules, b, m)
            || self.in_check
            || m.from == king
            || self.removal_near
            || !matches!(m.kind, MoveKind::Normal | MoveKind::DoubleStep)
            || self.pins.contains(&m.from)
            || self.opens_walker_path(rules, b, m.from);
        !risky || leaves_king_safe(rules, b, m)
    }
}

/// Whether `m` captures and its capturer is removed with the victim (Super
/// Chess's Fortress guard, asked of the game's rules): the target square
/// then empties too, and whatever the victim blocked (a line, a path, a
/// walker's step) may open onto the king. Asked of each capture through the
/// game's own rule, so a game from a file with the rule gets the test
/// whatever its pieces.
#[inline]
fn removes_capturer(rules: &Rules, b: &Board, m: &Move) -> bool {
    let victim = !b.turn;
    if !is_color(b.cells[m.to.index()], victim) {
        return false;
    }
    let capturer = if m.promotion.is_some() {
        Role::Pawn
    } else {
        role_at(b, m.from)
    };
    rules.variant.capturer_removed(b, m.to, capturer, victim)
}

/// The side to move's king is attacked.
pub(crate) fn in_check(rules: &Rules, b: &Board) -> bool {
    rules.def.royal.is_some()
        && b.kings[b.turn.index()].is_some_and(|k| crate::legal::attacked(rules, b, k, !b.turn))
}

/// Records a new unstable tile of `owner`, made in full move `since`.
pub(crate) fn unstable_at(square: Square, since: u16) -> Unstable {
    Unstable { square, since }
}

/// The role on an occupied square.
pub(crate) fn role_at(b: &Board, sq: Square) -> Role {
    role_of(b.cells[sq.index()])
}
