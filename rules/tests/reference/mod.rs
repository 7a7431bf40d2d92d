//! A slow, literal reference implementation of standard chess, Void Chess,
//! antichess, Suicide Void Chess and Chess 99,
//! written from the rules text with plain coordinates and no shared code with
//! the engine. The property tests play random games with the engine and check
//! every position against it.

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use voidmate_rules::{CastlingSide, Color, MoveKind, Position, Role, Square, Tile};

pub type Sq = (i8, i8);

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefPos {
    pub void_rules: bool,
    /// Giveaway rules: no king safety, captures compulsory, promotion to king.
    pub antichess: bool,
    /// Suicide Void Chess: antichess plus one void, placed first and moved by
    /// every capture.
    pub suicide_void: bool,
    pub promotion_wins: bool,
    /// Won outright by the last move (a promotion when promotion wins).
    pub won: bool,
    /// Chess 99: paladin, king capture, pawns' double steps anywhere, en
    /// passant by any piece, free castling, delayed promotion.
    pub chess99: bool,
    /// Black Holes: drops, holes, relativistic moves.
    pub holes: bool,
    pub files: i8,
    pub ranks: i8,
    pub pieces: BTreeMap<Sq, (Color, Role)>,
    pub voids: BTreeSet<Sq>,
    /// By owner: (square).
    pub unstable: [Option<Sq>; 2],
    pub turn: Color,
    pub castling: [bool; 4],
    pub ep: Option<Sq>,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct RefMove {
    pub from: Sq,
    pub to: Sq,
    pub promo: Option<u8>,
    pub castle: Option<u8>,
    pub ep: bool,
    /// Puts the void on `to` (no piece moves), or drops the piece `promo`
    /// names there.
    pub place: bool,
    /// Where the void goes after this capture; the white hole of a
    /// relativistic move.
    pub via: Option<Sq>,
}

fn sq(s: Square) -> Sq {
    (s.file() as i8, s.rank() as i8)
}

const KING: [Sq; 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];
const KNIGHT: [Sq; 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

impl RefPos {
    pub fn from_position(pos: &Position) -> RefPos {
        let size = pos.rules().size();
        let mut pieces = BTreeMap::new();
        let mut voids = BTreeSet::new();
        let mut unstable = [None; 2];
        for s in size.squares() {
            if let Some(p) = pos.piece_at(s) {
                pieces.insert(sq(s), (p.color, p.role));
            }
            match pos.tile(s) {
                Tile::Void => {
                    voids.insert(sq(s));
                }
                Tile::Unstable { owner, .. } => unstable[owner.index()] = Some(sq(s)),
                Tile::Normal => {}
            }
        }
        let b = pos.board();
        let castling = [
            b.castling_right(Color::White, CastlingSide::King),
            b.castling_right(Color::White, CastlingSide::Queen),
            b.castling_right(Color::Black, CastlingSide::King),
            b.castling_right(Color::Black, CastlingSide::Queen),
        ];
        RefPos {
            void_rules: pos.rules().name() == "void",
            antichess: pos.rules().name() == "antichess"
                || pos.rules().name().starts_with("suicide-void"),
            suicide_void: pos.rules().name().starts_with("suicide-void"),
            promotion_wins: pos.rules().name() == "suicide-void-pw",
            won: pos.fen().contains("won:"),
            chess99: pos.rules().name() == "chess99",
            holes: pos.rules().name() == "black-holes",
            files: size.files() as i8,
            ranks: size.ranks() as i8,
            pieces,
            voids,
            unstable,
            turn: pos.turn(),
            castling,
            ep: b.en_passant().map(sq),
        }
    }

    fn on(&self, (f, r): Sq) -> bool {
        f >= 0 && r >= 0 && f < self.files && r < self.ranks
    }

    fn empty(&self, s: Sq) -> bool {
        self.on(s) && !self.pieces.contains_key(&s) && !self.voids.contains(&s)
    }

    fn color_at(&self, s: Sq) -> Option<Color> {
        self.pieces.get(&s).map(|p| p.0)
    }

    fn king(&self, c: Color) -> Option<Sq> {
        self.pieces
            .iter()
            .find(|(_, p)| **p == (c, Role::King))
            .map(|(s, _)| *s)
    }

    fn promo_roles(&self) -> Vec<Role> {
        let mut v = vec![Role::Queen, Role::Rook, Role::Bishop, Role::Knight];
        if self.void_rules {
            v.push(Role::Minister);
        }
        if self.antichess {
            v.push(Role::King);
        }
        if self.holes {
            v.push(Role::Hole);
        }
        v
    }

    fn is_hole(&self, s: Sq, c: Color) -> bool {
        self.pieces.get(&s) == Some(&(c, Role::Hole))
    }

    /// Black Holes' own moves of `side`: relativistic moves (and, when
    /// `all`, drops and holes' steps), written out from the page.
    pub fn hole_moves(&self, side: Color, all: bool) -> Vec<RefMove> {
        let mut out = Vec::new();
        let blank = |from: Sq, to: Sq| RefMove {
            from,
            to,
            promo: None,
            castle: None,
            ep: false,
            place: false,
            via: None,
        };
        let home = if side == Color::White {
            0
        } else {
            self.ranks - 1
        };
        let last = if side == Color::White {
            self.ranks - 1
        } else {
            0
        };
        if all {
            for f in 0..self.files {
                if self.empty((f, home)) {
                    out.push(RefMove {
                        place: true,
                        promo: Some(Role::Hole as u8),
                        ..blank((f, home), (f, home))
                    });
                }
            }
            for (&s, &p) in &self.pieces {
                if p == (side, Role::Hole) {
                    for (a, b) in KING {
                        let t = (s.0 + a, s.1 + b);
                        if self.empty(t) {
                            out.push(blank(s, t));
                        }
                    }
                }
            }
        }
        let holes: Vec<Sq> = self
            .pieces
            .iter()
            .filter(|(_, p)| **p == (side, Role::Hole))
            .map(|(s, _)| *s)
            .collect();
        let fwd = if side == Color::White { 1 } else { -1 };
        // kind: 0 any, 1 pawn straight (no capture), 2 pawn diagonal (must capture)
        for (&s, &(c, role)) in &self.pieces {
            if c != side || role == Role::King {
                continue;
            }
            let mut entries: Vec<(Sq, u8)> = Vec::new();
            match role {
                Role::Knight => {
                    for v in KNIGHT {
                        if self.is_hole((s.0 + v.0, s.1 + v.1), side) {
                            entries.push((v, 0));
                        }
                    }
                }
                Role::Hole => {
                    for v in KING {
                        if self.is_hole((s.0 + v.0, s.1 + v.1), side) {
                            entries.push((v, 0));
                        }
                    }
                }
                Role::Pawn => {
                    let start = if side == Color::White {
                        1
                    } else {
                        self.ranks - 2
                    };
                    let one = (s.0, s.1 + fwd);
                    let two = (s.0, s.1 + 2 * fwd);
                    if self.is_hole(one, side)
                        || (s.1 == start && self.empty(one) && self.is_hole(two, side))
                    {
                        entries.push(((0, fwd), 1));
                    }
                    for df in [-1, 1] {
                        if self.is_hole((s.0 + df, s.1 + fwd), side) {
                            entries.push(((df, fwd), 2));
                        }
                    }
                }
                Role::Bishop | Role::Rook | Role::Queen => {
                    for v in KING {
                        let diag = v.0 != 0 && v.1 != 0;
                        if (role == Role::Bishop && !diag) || (role == Role::Rook && diag) {
                            continue;
                        }
                        let mut t = (s.0 + v.0, s.1 + v.1);
                        while self.empty(t) {
                            t = (t.0 + v.0, t.1 + v.1);
                        }
                        if self.is_hole(t, side) {
                            entries.push((v, 0));
                        }
                    }
                }
                _ => {}
            }
            for (v, kind) in entries {
                for &w in &holes {
                    if role == Role::Hole && w == s {
                        continue;
                    }
                    let mut t = (w.0 + v.0, w.1 + v.1);
                    while self.on(t) {
                        let occupant = if t == s { None } else { self.pieces.get(&t) };
                        let mut found = Vec::new();
                        match occupant {
                            None => {
                                if kind != 2 {
                                    found.push(false);
                                } else if self.ep == Some(t) {
                                    found.push(true);
                                }
                            }
                            Some(&(oc, orole)) => {
                                if !(oc == side && orole == Role::King) && kind != 1 {
                                    found.push(false);
                                }
                            }
                        }
                        for ep in found {
                            let m = RefMove {
                                ep,
                                via: Some(w),
                                ..blank(s, t)
                            };
                            if role == Role::Pawn && t.1 == last {
                                for r in self.promo_roles() {
                                    out.push(RefMove {
                                        promo: Some(r as u8),
                                        ..m.clone()
                                    });
                                }
                            } else {
                                out.push(m);
                            }
                        }
                        if occupant.is_some() {
                            break;
                        }
                        t = (t.0 + v.0, t.1 + v.1);
                    }
                }
            }
        }
        out
    }

    /// Can a piece of `by` capture on `t` (were an enemy there)?
    pub fn attacks(&self, by: Color, t: Sq) -> bool {
        for (&s, &(c, role)) in &self.pieces {
            if c != by {
                continue;
            }
            let (df, dr) = (t.0 - s.0, t.1 - s.1);
            let hit = match role {
                Role::Pawn => {
                    let fwd = if by == Color::White { 1 } else { -1 };
                    dr == fwd && df.abs() == 1
                }
                Role::Knight => KNIGHT.contains(&(df, dr)),
                Role::King => KING.contains(&(df, dr)),
                Role::Paladin => {
                    KNIGHT.contains(&(df, dr))
                        || (df.abs() == dr.abs() && df != 0 && {
                            let step = (df.signum(), dr.signum());
                            let mut p = (s.0 + step.0, s.1 + step.1);
                            while p != t && self.empty(p) {
                                p = (p.0 + step.0, p.1 + step.1);
                            }
                            p == t
                        })
                }
                Role::Bishop | Role::Rook | Role::Queen => {
                    let diag = df.abs() == dr.abs() && df != 0;
                    let orth = (df == 0) != (dr == 0);
                    let ok = match role {
                        Role::Bishop => diag,
                        Role::Rook => orth,
                        _ => diag || orth,
                    };
                    ok && {
                        let step = (df.signum(), dr.signum());
                        let mut p = (s.0 + step.0, s.1 + step.1);
                        let mut clear = true;
                        while p != t {
                            if !self.empty(p) {
                                clear = false;
                                break;
                            }
                            p = (p.0 + step.0, p.1 + step.1);
                        }
                        clear
                    }
                }
                Role::Minister => {
                    KING.contains(&(df, dr))
                        || KING.iter().any(|&(a, b)| {
                            let mid = (s.0 + a, s.1 + b);
                            self.on(mid)
                                && (self.empty(mid) || self.voids.contains(&mid))
                                && KING.contains(&(t.0 - mid.0, t.1 - mid.1))
                        })
                }
                _ => false,
            };
            if hit {
                return true;
            }
        }
        self.holes && self.hole_moves(by, false).iter().any(|m| m.to == t)
    }

    fn landable(&self, s: Sq, us: Color, crosses: bool) -> bool {
        self.on(s)
            && match self.pieces.get(&s) {
                Some(p) => p.0 != us,
                None => !self.voids.contains(&s) || crosses,
            }
    }

    pub fn pseudo(&self) -> Vec<RefMove> {
        let us = self.turn;
        let mut out = Vec::new();
        let mv = |from, to| RefMove {
            from,
            to,
            promo: None,
            castle: None,
            ep: false,
            place: false,
            via: None,
        };
        for (&s, &(c, role)) in &self.pieces {
            if c != us {
                continue;
            }
            let last_rank = if us == Color::White {
                self.ranks - 1
            } else {
                0
            };
            if self.chess99 && role == Role::Pawn && s.1 == last_rank {
                // A waiting pawn: becomes a knight or bishop and moves as it.
                for promo in [Role::Knight, Role::Bishop] {
                    let mut as_piece = self.clone();
                    as_piece.pieces.insert(s, (us, promo));
                    for m in as_piece.pseudo_of(s) {
                        out.push(RefMove {
                            promo: Some(promo as u8),
                            ..m
                        });
                    }
                }
                continue;
            }
            if self.chess99 && role == Role::Paladin {
                let mut as_knight = self.clone();
                as_knight.pieces.insert(s, (us, Role::Knight));
                let mut as_bishop = self.clone();
                as_bishop.pieces.insert(s, (us, Role::Bishop));
                out.extend(as_knight.pseudo_of(s));
                out.extend(as_bishop.pseudo_of(s));
                continue;
            }
            match role {
                Role::Knight | Role::King => {
                    let set = if role == Role::Knight { KNIGHT } else { KING };
                    for (a, b) in set {
                        let t = (s.0 + a, s.1 + b);
                        if self.landable(t, us, false) {
                            out.push(mv(s, t));
                        }
                    }
                }
                Role::Bishop | Role::Rook | Role::Queen => {
                    for (a, b) in KING {
                        let diag = a != 0 && b != 0;
                        if (role == Role::Bishop && !diag) || (role == Role::Rook && diag) {
                            continue;
                        }
                        let mut t = (s.0 + a, s.1 + b);
                        while self.empty(t) {
                            out.push(mv(s, t));
                            t = (t.0 + a, t.1 + b);
                        }
                        if self.on(t) && self.color_at(t) == Some(!us) {
                            out.push(mv(s, t));
                        }
                    }
                }
                Role::Minister => {
                    let mut dests = BTreeSet::new();
                    for (a, b) in KING {
                        let m = (s.0 + a, s.1 + b);
                        if !self.landable(m, us, true) {
                            continue;
                        }
                        dests.insert(m);
                        if self.pieces.contains_key(&m) {
                            continue; // a capture ends the move
                        }
                        for (c2, d2) in KING {
                            let t = (m.0 + c2, m.1 + d2);
                            if t != s && self.landable(t, us, true) {
                                dests.insert(t);
                            }
                        }
                    }
                    out.extend(dests.into_iter().map(|t| mv(s, t)));
                }
                Role::Pawn => {
                    let fwd = if us == Color::White { 1 } else { -1 };
                    let last = if us == Color::White {
                        self.ranks - 1
                    } else {
                        0
                    };
                    let start = if us == Color::White {
                        1
                    } else {
                        self.ranks - 2
                    };
                    let push = |t: Sq, ep: bool, out: &mut Vec<RefMove>| {
                        if t.1 == last && !self.chess99 {
                            for r in self.promo_roles() {
                                out.push(RefMove {
                                    from: s,
                                    to: t,
                                    promo: Some(r as u8),
                                    castle: None,
                                    ep,
                                    place: false,
                                    via: None,
                                });
                            }
                        } else {
                            out.push(RefMove {
                                from: s,
                                to: t,
                                promo: None,
                                castle: None,
                                ep,
                                place: false,
                                via: None,
                            });
                        }
                    };
                    let one = (s.0, s.1 + fwd);
                    if self.empty(one) {
                        push(one, false, &mut out);
                        let two = (s.0, s.1 + 2 * fwd);
                        if (s.1 == start || self.chess99) && self.empty(two) {
                            push(two, false, &mut out);
                        }
                    }
                    for df in [-1, 1] {
                        let t = (s.0 + df, s.1 + fwd);
                        if self.on(t) && self.color_at(t) == Some(!us) {
                            push(t, false, &mut out);
                        } else if self.ep == Some(t) {
                            push(t, true, &mut out);
                        }
                    }
                }
                _ => {}
            }
        }
        if self.chess99 {
            // En passant as the page pictures it: push the pawn back onto the
            // square it passed; whatever could then capture it there takes
            // it, landing on that square.
            if let Some(p) = self.ep {
                let fwd = if us == Color::White { 1 } else { -1 };
                let mut pushed = self.clone();
                let pawn = pushed
                    .pieces
                    .remove(&(p.0, p.1 - fwd))
                    .expect("the pawn that passed");
                pushed.pieces.insert(p, pawn);
                pushed.ep = None;
                out.retain(|m| m.to != p);
                out.extend(
                    pushed
                        .pseudo()
                        .into_iter()
                        .filter(|m| m.to == p)
                        .map(|mut m| {
                            m.ep = true;
                            m
                        }),
                );
            }
            // Free castling: a neighbour on the first rank, or the queen or a
            // rook across empty squares. `castle: Some(2)`.
            let home = if us == Color::White {
                0
            } else {
                self.ranks - 1
            };
            if let Some(k) = self.king(us).filter(|k| k.1 == home) {
                for step in [-1i8, 1] {
                    let mut t = (k.0 + step, home);
                    while self.empty(t) {
                        t.0 += step;
                    }
                    if let Some(&(c, role)) = self.pieces.get(&t) {
                        if c == us
                            && ((t.0 - k.0).abs() == 1 || matches!(role, Role::Queen | Role::Rook))
                        {
                            out.push(RefMove {
                                from: k,
                                to: t,
                                promo: None,
                                castle: Some(2),
                                ep: false,
                                place: false,
                                via: None,
                            });
                        }
                    }
                }
            }
            return out;
        }
        if self.holes {
            // A normal move never takes a hole; holes have moves of their own.
            out.retain(|m| !self.is_hole(m.to, !us));
            out.extend(self.hole_moves(us, true));
        }
        // Castling, every condition written out.
        let home = if us == Color::White {
            0
        } else {
            self.ranks - 1
        };
        let (rook_k, king_f) = (self.files - 1, 4);
        for (side, rook_f, king_to, rook_to) in [(0u8, rook_k, 6, 5), (1u8, 0, 2, 3)] {
            if !self.castling[us.index() * 2 + side as usize] {
                continue;
            }
            let k = (king_f, home);
            let r = (rook_f, home);
            if self.pieces.get(&k) != Some(&(us, Role::King))
                || self.pieces.get(&r) != Some(&(us, Role::Rook))
            {
                continue;
            }
            let lo = king_f.min(rook_f).min(king_to).min(rook_to);
            let hi = king_f.max(rook_f).max(king_to).max(rook_to);
            let clear =
                (lo..=hi).all(|f| (f, home) == k || (f, home) == r || self.empty((f, home)));
            let (a, z) = (king_f.min(king_to), king_f.max(king_to));
            let safe = (a..=z).all(|f| !self.attacks(!us, (f, home)));
            if clear && safe {
                out.push(RefMove {
                    from: k,
                    to: (king_to, home),
                    promo: None,
                    castle: Some(side),
                    ep: false,
                    place: false,
                    via: None,
                });
            }
        }
        out
    }

    /// The pseudo-legal moves of the piece on `s` alone.
    fn pseudo_of(&self, s: Sq) -> Vec<RefMove> {
        let mut one = self.clone();
        one.chess99 = false;
        one.castling = [false; 4];
        one.ep = None;
        one.pseudo().into_iter().filter(|m| m.from == s).collect()
    }

    /// Plays `m`; the en-passant square stays only if an en-passant
    /// capture is then legal (positions with the same legal moves are the
    /// same position).
    pub fn apply(&self, m: &RefMove) -> RefPos {
        let mut n = self.apply_raw(m);
        if n.ep.is_some() && !n.legal().iter().any(|m| m.ep) {
            n.ep = None;
        }
        n
    }

    /// Plays `m`, keeping every en-passant square the move makes.
    fn apply_raw(&self, m: &RefMove) -> RefPos {
        let mut n = self.clone();
        let us = self.turn;
        if m.castle == Some(2) {
            let king = n.pieces.remove(&m.from).unwrap();
            let partner = n.pieces.remove(&m.to).unwrap();
            let k_to = if (m.to.0 - m.from.0).abs() == 1 {
                m.to
            } else {
                (m.from.0 + (m.to.0 - m.from.0).signum(), m.from.1)
            };
            n.pieces.insert(k_to, king);
            n.pieces.insert(m.from, partner);
            n.ep = None;
            n.turn = !us;
            return n;
        }
        if m.place && self.holes {
            n.pieces
                .insert(m.to, (us, Role::ALL[m.promo.unwrap() as usize]));
            n.ep = None;
            n.turn = !us;
            return n;
        }
        if m.place {
            n.voids.insert(m.to);
            n.ep = None;
            n.turn = !us;
            return n;
        }
        let (_, role) = n.pieces.remove(&m.from).unwrap();
        let mut captured = n.pieces.remove(&m.to).is_some();
        if m.ep {
            let fwd = if us == Color::White { 1 } else { -1 };
            n.pieces.remove(&(m.to.0, m.to.1 - fwd));
            captured = true;
        }
        if let Some(side) = m.castle {
            let home = m.from.1;
            let (rf, rt) = if side == 0 {
                (self.files - 1, 5)
            } else {
                (0, 3)
            };
            n.pieces.remove(&(rf, home));
            n.pieces.insert((rt, home), (us, Role::Rook));
        }
        let landed = match m.promo {
            Some(p) => Role::ALL[p as usize],
            None => role,
        };
        n.voids.remove(&m.to); // only a Minister can be here: it heals
        n.pieces.insert(m.to, (us, landed));
        // Castling rights: king or rook squares touched.
        let home_w = 0;
        let home_b = self.ranks - 1;
        let rk = self.files - 1;
        let touched = |s: Sq| s == m.from || s == m.to;
        for (i, (f, r)) in [(4, home_w), (4, home_w), (4, home_b), (4, home_b)]
            .iter()
            .enumerate()
        {
            if touched((*f, *r)) {
                n.castling[i] = false;
            }
        }
        for (i, s) in [(rk, home_w), (0, home_w), (rk, home_b), (0, home_b)]
            .iter()
            .enumerate()
        {
            if touched(*s) {
                n.castling[i] = false;
            }
        }
        // En passant square: only when an enemy pawn stands beside the pawn.
        n.ep = None;
        if self.chess99 && role == Role::Pawn && m.promo.is_none() && (m.to.1 - m.from.1).abs() == 2
        {
            n.ep = Some((m.from.0, (m.from.1 + m.to.1) / 2));
        } else if !self.chess99
            && m.via.is_none()
            && role == Role::Pawn
            && (m.to.1 - m.from.1).abs() == 2
        {
            // Beside it, or in Black Holes anywhere: a pawn may come out of
            // a hole onto the square passed.
            let beside = [(m.to.0 - 1, m.to.1), (m.to.0 + 1, m.to.1)];
            if self.holes
                || beside
                    .iter()
                    .any(|s| n.pieces.get(s) == Some(&(!us, Role::Pawn)))
            {
                n.ep = Some((m.from.0, (m.from.1 + m.to.1) / 2));
            }
        }
        if self.void_rules {
            if let Some(u) = n.unstable[us.index()].take() {
                if let Some(&(_, r)) = n.pieces.get(&u) {
                    if r != Role::Minister {
                        n.pieces.remove(&u);
                        for (i, s) in [(4, home_w), (4, home_w), (4, home_b), (4, home_b)]
                            .iter()
                            .enumerate()
                        {
                            if *s == u {
                                n.castling[i] = false;
                            }
                        }
                        for (i, s) in [(rk, home_w), (0, home_w), (rk, home_b), (0, home_b)]
                            .iter()
                            .enumerate()
                        {
                            if *s == u {
                                n.castling[i] = false;
                            }
                        }
                        n.voids.insert(u);
                    }
                } else {
                    n.voids.insert(u);
                }
            }
            if landed == Role::Minister {
                for o in 0..2 {
                    if n.unstable[o] == Some(m.to) {
                        n.unstable[o] = None;
                    }
                }
            } else if captured {
                if n.unstable[(!us).index()] == Some(m.to) {
                    n.unstable[(!us).index()] = None;
                }
                n.unstable[us.index()] = Some(m.to);
            }
        }
        if let Some(v) = m.via.filter(|_| self.suicide_void) {
            n.voids = [v].into_iter().collect();
        }
        if self.promotion_wins && m.promo.is_some() && n.pieces.values().any(|p| p.0 != us) {
            n.won = true;
        }
        n.turn = !us;
        n
    }

    pub fn legal(&self) -> Vec<RefMove> {
        if self.chess99 {
            if self.king(Color::White).is_none() || self.king(Color::Black).is_none() {
                return Vec::new();
            }
            let mut v = self.pseudo();
            v.sort();
            v.dedup();
            return v;
        }
        if self.suicide_void && self.won {
            return Vec::new();
        }
        if self.suicide_void && self.voids.is_empty() {
            let mut v = Vec::new();
            for f in 0..self.files {
                for r in 0..self.ranks {
                    if self.empty((f, r)) {
                        v.push(RefMove {
                            from: (f, r),
                            to: (f, r),
                            promo: None,
                            castle: None,
                            ep: false,
                            place: true,
                            via: None,
                        });
                    }
                }
            }
            v.sort();
            return v;
        }
        if self.antichess {
            let all = self.pseudo();
            let captures: Vec<RefMove> = all
                .iter()
                .filter(|m| m.ep || self.pieces.contains_key(&m.to))
                .cloned()
                .collect();
            let mut v = if captures.is_empty() { all } else { captures };
            if self.suicide_void && v.iter().any(|m| m.ep || self.pieces.contains_key(&m.to)) {
                // Each capture once per square the void may move to: empty
                // after the capture, and not where the void stands now.
                let old = self.voids.clone();
                v = v
                    .into_iter()
                    .flat_map(|m| {
                        let after = self.apply_raw(&m);
                        let mut out = Vec::new();
                        for f in 0..self.files {
                            for r in 0..self.ranks {
                                let t = (f, r);
                                if !after.pieces.contains_key(&t) && !old.contains(&t) {
                                    out.push(RefMove {
                                        via: Some(t),
                                        ..m.clone()
                                    });
                                }
                            }
                        }
                        out
                    })
                    .collect();
            }
            v.sort();
            v.dedup();
            return v;
        }
        let us = self.turn;
        let king = self.king(us);
        let must_move_king = self.void_rules && king.is_some() && self.unstable[us.index()] == king;
        let mut v: Vec<RefMove> = self
            .pseudo()
            .into_iter()
            .filter(|m| !must_move_king || Some(m.from) == king)
            .filter(|m| {
                let n = self.apply_raw(m);
                match n.king(us) {
                    Some(k) => !n.attacks(!us, k),
                    None => false,
                }
            })
            .collect();
        v.sort();
        v.dedup();
        v
    }
}

/// The engine's legal moves in the reference's form.
pub fn engine_moves(pos: &Position) -> Vec<RefMove> {
    let mut v: Vec<RefMove> = pos
        .legal_moves()
        .iter()
        .map(|m| RefMove {
            from: sq(m.from),
            to: sq(m.to),
            promo: m.promotion.map(|r| r as u8),
            castle: match m.kind {
                MoveKind::Castle(side) => Some(side as u8),
                MoveKind::FreeCastle => Some(2),
                _ => None,
            },
            ep: m.kind == MoveKind::EnPassant,
            place: matches!(m.kind, MoveKind::PlaceVoid | MoveKind::Drop),
            via: m.via.map(sq),
        })
        .collect();
    v.sort();
    v
}
