//! Bitboards for small boards: a second, faster route to the legal moves.
//!
//! The mailbox in [`crate::board`] serves every board up to 16x16 and every
//! kind of piece. On boards of at most 128 squares (8x8, Void Chess's 9x9,
//! anything up to 11x11) each side's pieces, each role and the voids are also
//! kept as one `u128` bit per square (`rank * files + file`), and a variant
//! whose pieces the tables below can describe (leapers, unlimited riders, a
//! symmetric two-step walker such as the Minister, the orthodox pawn) gets
//! its legal moves from set operations: a piece's targets are one lookup or
//! one ray scan, king safety comes from pins and checks computed once per
//! position, and counting moves (perft's last ply) is a population count.
//!
//! Whatever this route does not cover falls back to the mailbox code, which
//! stays the reference: a check by a two-step walker, a variant restriction,
//! a tile about to turn void beside a walker. Moves it cannot prove safe by
//! sets (unusual castling, a pinned pawn, a pawn that may take en passant, a
//! piece that might open a walker's path) are played and tested one by one. The property tests compare the two routes on
//! random games of every variant that uses this one.
//!
//! The tables grow with the board's area, not with a precomputed attack
//! table per occupancy: a few kilobytes per variant.

use crate::attacks::Attacks;
use crate::bits::{bit, squares, Bits, Set, Sets, MAX_SQUARES, ROLES};
use crate::board::Board;
use crate::movement::{king_steps, Component, Vector};
use crate::variant::Definition;
use arrayvec::ArrayVec;

use crate::{CastlingSide, Color, Move, MoveKind, MoveList, Role, Square};

/// Squares of a board of at most 128 squares, one entry per square.
type Table<B> = Box<[B; 128]>;

fn table(f: impl Fn(usize) -> Bits) -> Table<Bits> {
    let mut t = Box::new([0; 128]);
    for (s, set) in t.iter_mut().enumerate() {
        *set = f(s);
    }
    t
}

fn narrow<B: Set>(t: &Table<Bits>) -> Table<B> {
    Box::new(t.map(B::narrow))
}

/// A ride direction: for each square, the squares along it to the edge.
struct Ray<B> {
    /// Held in the ray, not behind a pointer of its own: the rays lie end
    /// to end, and a rider's move is a lookup in each of its rays.
    to: [B; 128],
    /// Bit indices grow along the ray (the nearest blocker is the lowest bit).
    forward: bool,
}

/// The most rider groups (sets of roles that ride the same rays) a game on
/// the bitboard route may have; a game with more takes the mailbox. Every
/// game so far has at most two (the orthogonal riders and the diagonal).
const MAX_GROUPS: usize = 8;

/// One side's riders in each rider group ([`Tables::riders`]).
type Riders<B> = [B; MAX_GROUPS];

/// Pieces found first along a ray from a target that attack back along it.
struct RiderGroup<B> {
    /// Held in the group, not behind a pointer: read for every position.
    roles: ArrayVec<usize, ROLES>,
    rays: Vec<usize>,
    /// For each square, every square of the group's rays from it: when no
    /// rider of the group stands on those, no ray need be looked at (the
    /// usual case for a king's square and the squares around it).
    lines: Table<B>,
}

impl<B: Set> RiderGroup<B> {
    /// The pieces of `side` (a side's set) of the group's roles.
    #[inline]
    fn riders(&self, bits: &Sets<B>, side: B) -> B {
        side & self
            .roles
            .iter()
            .fold(B::ZERO, |acc, &r| acc | bits.role[r])
    }
}

/// How one role of the roster (not the pawn, not the king) moves, by sets.
struct Mover<B> {
    role: usize,
    leaps: Option<Table<B>>,
    rays: Vec<usize>,
    crosses: bool,
}

/// The two-step walker (the Minister): its role, its steps from each
/// square, and whether it passes and lands on voids.
struct Walk<B> {
    role: usize,
    steps: Table<B>,
    /// Every square two steps or fewer away, whatever is in the way: a
    /// walker outside `reach[t]` cannot attack `t`, which spares the path
    /// search in most positions.
    reach: Table<B>,
    crosses: bool,
}

impl<B: Set> Walk<B> {
    /// The squares the walker may pass, of those free of pieces.
    #[inline]
    fn passable(&self, empty: B, void: B) -> B {
        if self.crosses {
            empty
        } else {
            empty & !void
        }
    }

    /// The squares the walker on `s` may end on, given the squares it may
    /// pass: one step, or two through a passable first square.
    #[inline]
    fn from(&self, s: u32, passable: B) -> B {
        let first = self.steps[s as usize & 127];
        let mut out = first;
        // At most eight first squares: table lookups beat whole-set shifts.
        for m in squares(first & passable) {
            out |= self.steps[m as usize & 127];
        }
        // Everything in reach but `s` itself: a lookup, where clearing the
        // one bit would be a variable shift of two words.
        out & self.reach[s as usize & 127]
    }

    /// Is `t` attacked by one of `walkers`, passing only `passable`?
    #[inline]
    fn attacks(&self, t: u32, walkers: B, passable: B) -> bool {
        self.reach[t as usize & 127] & walkers != B::ZERO
            && self.from(t, passable) & walkers != B::ZERO
    }
}

/// A castling move by sets: the squares that must be empty, those the king
/// crosses or lands on (none may be attacked), and where king and rook stand.
#[derive(Clone, Copy)]
struct Castle<B> {
    between: B,
    path: B,
    king: B,
    rook: B,
    mv: Move,
}

/// A variant's move tables on its board, for the bitboard route.
pub(crate) struct Tables<B> {
    width: i32,
    board: B,
    squares: Box<[Square; 128]>,
    movers: Vec<Mover<B>>,
    king_steps: Table<B>,
    /// `(r, leaps_to)`: the squares from which a role-`r` piece leaps to a square.
    leapers: Vec<(usize, Table<B>)>,
    rays: Vec<Ray<B>>,
    rider_groups: Vec<RiderGroup<B>>,
    walk: Option<Walk<B>>,
    pawn_attacks: [Table<B>; 2],
    /// Squares of the files at either edge.
    first_file: B,
    last_file: B,
    /// Per side: the rank its pawns promote on, and the rank a pawn's
    /// double step passes (one forward of where it may start).
    promotion_rank: [B; 2],
    double_step_via: [B; 2],
    /// What a pawn may promote to, in the order moves list them.
    promotions: Vec<Role>,
    castles: [[Option<Castle<B>>; 2]; 2],
}

/// The tables in the word size the board needs.
pub(crate) enum Route {
    Narrow(Tables<u64>),
    Wide(Tables<u128>),
}

impl Route {
    /// The route for a game of `def`, if its board and pieces suit it
    /// (whether its rules allow it at all, `Rules` decides).
    pub(crate) fn build(def: &Definition) -> Option<Route> {
        let t = Tables::build(def)?;
        Some(if def.size.area() <= 64 {
            Route::Narrow(t.narrow())
        } else {
            Route::Wide(t)
        })
    }

    /// See [`legal`].
    #[inline]
    pub(crate) fn legal<S: Sink>(&self, b: &Board, sink: &mut S, mailbox: &impl Mailbox) -> bool {
        match self {
            Route::Narrow(t) => legal(t, b, sink, mailbox),
            Route::Wide(t) => legal(t, b, sink, mailbox),
        }
    }

    /// What a pawn may promote to.
    pub(crate) fn promotions(&self) -> &[Role] {
        match self {
            Route::Narrow(t) => &t.promotions,
            Route::Wide(t) => &t.promotions,
        }
    }

    /// Is `target` attacked by a piece of `by`? The same answer as the
    /// mailbox's `attacked` (`crate::movegen`), from a few lookups and ray scans.
    #[inline]
    pub(crate) fn attacked(&self, b: &Board, target: Square, by: Color) -> bool {
        match self {
            Route::Narrow(t) => t.attacked_on(b, target, by),
            Route::Wide(t) => t.attacked_on(b, target, by),
        }
    }

    /// The evaluation's mobility of the piece of `role` on `from` (see
    /// `movegen::reach`), or `None` for a role these tables leave to the
    /// mailbox: a two-step walker (the mailbox counts its squares its own
    /// cheap way) and a piece that crosses voids.
    #[inline]
    pub(crate) fn reach(&self, b: &Board, from: Square, color: Color, role: Role) -> Option<u32> {
        match self {
            Route::Narrow(t) => t.reach_on(b, from, color, role),
            Route::Wide(t) => t.reach_on(b, from, color, role),
        }
    }

    /// See [`Position::attacks`](crate::Position::attacks): `None` for a
    /// game with a two-step walker or pieces that cross voids, whose
    /// attacks these sets do not follow alone.
    pub(crate) fn attacks(&self, b: &Board) -> Option<Attacks> {
        match self {
            Route::Narrow(t) => t.attacks_on(b),
            Route::Wide(t) => t.attacks_on(b),
        }
    }

    /// See [`Position::exchange`](crate::Position::exchange).
    pub(crate) fn exchange(
        &self,
        b: &Board,
        from: Square,
        to: Square,
        victim: i32,
        value: &dyn Fn(Role) -> i32,
    ) -> i32 {
        match self {
            Route::Narrow(t) => t.exchange_on(b, from, to, victim, value),
            Route::Wide(t) => t.exchange_on(b, from, to, victim, value),
        }
    }

    /// The number of legal moves (perft's last ply), or `None` when the
    /// position needs the mailbox route.
    #[inline]
    pub(crate) fn count(&self, b: &Board, mailbox: &impl Mailbox) -> Option<u64> {
        let mut count = Count(0);
        self.legal(b, &mut count, mailbox).then_some(count.0)
    }
}

impl Tables<Bits> {
    /// The same tables in 64-bit words (the board has at most 64 squares).
    fn narrow(self) -> Tables<u64> {
        Tables {
            width: self.width,
            board: u64::narrow(self.board),
            squares: self.squares,
            movers: self
                .movers
                .iter()
                .map(|m| Mover {
                    role: m.role,
                    leaps: m.leaps.as_ref().map(narrow),
                    rays: m.rays.clone(),
                    crosses: m.crosses,
                })
                .collect(),
            king_steps: narrow(&self.king_steps),
            leapers: self.leapers.iter().map(|(r, t)| (*r, narrow(t))).collect(),
            rays: self
                .rays
                .iter()
                .map(|r| Ray {
                    to: r.to.map(u64::narrow),
                    forward: r.forward,
                })
                .collect(),
            rider_groups: self
                .rider_groups
                .iter()
                .map(|g| RiderGroup {
                    roles: g.roles.clone(),
                    rays: g.rays.clone(),
                    lines: narrow(&g.lines),
                })
                .collect(),
            walk: self.walk.as_ref().map(|w| Walk {
                role: w.role,
                steps: narrow(&w.steps),
                reach: narrow(&w.reach),
                crosses: w.crosses,
            }),
            pawn_attacks: [narrow(&self.pawn_attacks[0]), narrow(&self.pawn_attacks[1])],
            first_file: u64::narrow(self.first_file),
            last_file: u64::narrow(self.last_file),
            promotion_rank: self.promotion_rank.map(u64::narrow),
            double_step_via: self.double_step_via.map(u64::narrow),
            promotions: self.promotions,
            castles: self.castles.map(|sides| {
                sides.map(|c| {
                    c.map(|c| Castle {
                        between: u64::narrow(c.between),
                        path: u64::narrow(c.path),
                        king: u64::narrow(c.king),
                        rook: u64::narrow(c.rook),
                        mv: c.mv,
                    })
                })
            }),
        }
    }

    /// Tables for a game of `def`, if its board and pieces suit the
    /// bitboard route: at most 128 squares, leapers, unlimited riders, one
    /// symmetric two-step walker at most, the orthodox pawn and king.
    fn build(def: &Definition) -> Option<Tables<Bits>> {
        let (files, ranks) = (def.size.files() as i32, def.size.ranks() as i32);
        let walkers = def
            .roster
            .iter()
            .filter(|rd| {
                rd.movement
                    .components
                    .iter()
                    .any(|c| matches!(c, Component::TwoStep { .. }))
            })
            .count();
        let suitable = (files * ranks) as usize <= MAX_SQUARES
            && walkers <= 1
            && def.royal == Some(Role::King)
            && def.roster.iter().all(|rd| {
                rd.role.index() < ROLES
                    && rd.movement.components.iter().all(|c| match c {
                        // Black's moves are White's turned round: the tables
                        // hold one set of moves for both, so only pieces that
                        // move alike both ways suit them.
                        Component::Leap(vs) => vs.iter().all(|&(f, r)| vs.contains(&(f, -r))),
                        Component::Ride { range, dirs } => {
                            range.is_none() && dirs.iter().all(|&(f, r)| dirs.contains(&(f, -r)))
                        }
                        Component::TwoStep { steps } => steps.iter().all(|&(f, r)| {
                            steps.contains(&(-f, -r)) && f.abs() <= 1 && r.abs() <= 1
                        }),
                        Component::Pawn => rd.role == Role::Pawn,
                        Component::Path(_) | Component::Hop { .. } | Component::Only { .. } => {
                            false
                        }
                    })
                    && (rd.role != Role::King
                        || rd.movement.components == [Component::Leap(king_steps())])
            });
        if !suitable {
            return None;
        }
        let n = (files * ranks) as usize;
        let at = |s: usize, (df, dr): Vector| -> Option<usize> {
            let f = s as i32 % files + df as i32;
            let r = s as i32 / files + dr as i32;
            (s < n && (0..files).contains(&f) && (0..ranks).contains(&r))
                .then(|| (r * files + f) as usize)
        };
        let set_of = |vs: &[Vector]| -> Table<Bits> {
            table(|s| {
                vs.iter()
                    .filter_map(|&v| at(s, v))
                    .fold(0, |acc, t| acc | 1 << t)
            })
        };
        let mut squares = Box::new([Square::new(0, 0); 128]);
        for (i, sq) in squares.iter_mut().enumerate().take(n) {
            *sq = Square::new((i as i32 % files) as u8, (i as i32 / files) as u8);
        }
        let rank_set = |r: u8| ((1u128 << files) - 1) << (r as i32 * files);
        let mut t = Tables {
            width: files,
            board: if n == 128 { !0 } else { (1 << n) - 1 },
            squares,
            movers: Vec::new(),
            king_steps: set_of(&king_steps()),
            leapers: Vec::new(),
            rays: Vec::new(),
            rider_groups: Vec::new(),
            walk: None,
            pawn_attacks: [set_of(&[(-1, 1), (1, 1)]), set_of(&[(-1, -1), (1, -1)])],
            first_file: 0,
            last_file: 0,
            promotion_rank: Color::ALL.map(|c| rank_set(def.size.home_rank(!c))),
            double_step_via: [
                rank_set(def.size.double_step_rank(Color::White) + 1),
                rank_set(def.size.double_step_rank(Color::Black) - 1),
            ],
            promotions: def.promotion.clone(),
            castles: Default::default(),
        };
        for s in 0..n {
            if s as i32 % files == 0 {
                t.first_file |= 1 << s;
            }
            if s as i32 % files == files - 1 {
                t.last_file |= 1 << s;
            }
        }
        let mut ray_vectors: Vec<Vector> = Vec::new();
        let ray_index = |v: Vector, ray_vectors: &mut Vec<Vector>| match ray_vectors
            .iter()
            .position(|&x| x == v)
        {
            Some(i) => i,
            None => {
                ray_vectors.push(v);
                ray_vectors.len() - 1
            }
        };
        // Which roles attack back along each ray: a rider of direction v,
        // met first walking from a target along -v.
        let mut ray_roles: Vec<u16> = Vec::new();
        for rd in &def.roster {
            let r = rd.role.index();
            let mut mover = Mover {
                role: r,
                leaps: None,
                rays: Vec::new(),
                crosses: rd.movement.crosses_void,
            };
            let mut leaps = Vec::new();
            for c in &rd.movement.components {
                match c {
                    Component::Leap(vs) => leaps.extend(vs.iter().copied()),
                    Component::Ride { dirs, .. } => {
                        for &v in dirs {
                            mover.rays.push(ray_index(v, &mut ray_vectors));
                            let back = ray_index((-v.0, -v.1), &mut ray_vectors);
                            ray_roles.resize(ray_vectors.len(), 0);
                            ray_roles[back] |= rd.role.bit();
                        }
                    }
                    Component::TwoStep { steps } => {
                        let steps_of = set_of(steps);
                        let reach = table(|s| {
                            self::squares(steps_of[s])
                                .fold(steps_of[s], |acc, m| acc | steps_of[m as usize])
                                & !(1 << s)
                        });
                        t.walk = Some(Walk {
                            role: r,
                            steps: steps_of,
                            reach,
                            crosses: rd.movement.crosses_void,
                        });
                    }
                    Component::Pawn
                    | Component::Path(_)
                    | Component::Hop { .. }
                    | Component::Only { .. } => {}
                }
            }
            if !leaps.is_empty() {
                let reversed: Vec<Vector> = leaps.iter().map(|&(f, r)| (-f, -r)).collect();
                mover.leaps = Some(set_of(&leaps));
                t.leapers.push((r, set_of(&reversed)));
            }
            if rd.role != Role::Pawn && rd.role != Role::King {
                t.movers.push(mover);
            }
        }
        ray_roles.resize(ray_vectors.len(), 0);
        for &(df, dr) in &ray_vectors {
            t.rays.push(Ray {
                to: *table(|s| {
                    let mut set = 0;
                    let mut k = 1;
                    while let Some(x) = at(s, (df * k, dr * k)) {
                        set |= 1 << x;
                        k += 1;
                    }
                    set
                }),
                forward: dr as i32 * files + df as i32 > 0,
            });
        }
        for (i, &roles) in ray_roles.iter().enumerate() {
            if roles == 0 {
                continue;
            }
            let list: ArrayVec<usize, ROLES> =
                (0..ROLES).filter(|r| roles & (1 << r) != 0).collect();
            match t.rider_groups.iter_mut().find(|g| g.roles == list) {
                Some(g) => g.rays.push(i),
                None => t.rider_groups.push(RiderGroup {
                    roles: list,
                    rays: vec![i],
                    lines: Box::new([0; 128]),
                }),
            }
        }
        if t.rider_groups.len() > MAX_GROUPS {
            return None;
        }
        for g in &mut t.rider_groups {
            for s in 0..128 {
                g.lines[s] = g.rays.iter().fold(0, |acc, &i| acc | t.rays[i].to[s]);
            }
        }
        if let Some(c) = &def.castling {
            for color in Color::ALL {
                let rank = crate::rules::castling_rank(def.size, c, color) as i32;
                for side in 0..2 {
                    let files = [
                        c.king_file,
                        c.rook_from[side],
                        c.king_to[side],
                        c.rook_to[side],
                    ];
                    let (lo, hi) = (*files.iter().min()?, *files.iter().max()?);
                    let at = |f: u8| 1u128 << (rank * t.width + f as i32);
                    let mut between = 0;
                    for f in lo..=hi {
                        if f != c.king_file && f != c.rook_from[side] {
                            between |= at(f);
                        }
                    }
                    let (a, z) = (
                        c.king_file.min(c.king_to[side]),
                        c.king_file.max(c.king_to[side]),
                    );
                    let path = (a..=z)
                        .filter(|&f| f != c.king_file)
                        .fold(0, |acc, f| acc | at(f));
                    let sq = |f: u8| Square::new(f, rank as u8);
                    let kind = MoveKind::Castle(if side == 0 {
                        CastlingSide::King
                    } else {
                        CastlingSide::Queen
                    });
                    t.castles[color.index()][side] = Some(Castle {
                        between,
                        path,
                        king: at(c.king_file),
                        rook: at(c.rook_from[side]),
                        mv: Move::new(sq(c.king_file), sq(c.king_to[side]), kind),
                    });
                }
            }
        }
        Some(t)
    }
}

impl<B: Set> Tables<B> {
    /// See [`Route::attacked`].
    #[inline]
    fn attacked_on(&self, b: &Board, target: Square, by: Color) -> bool {
        B::with_sets(&b.bits, |bits| {
            let pieces = bits.color[0] | bits.color[1];
            let empty = self.board & !pieces;
            let t = bit(target, self.width as u8);
            self.attacked(bits, t, by, pieces | bits.void, empty)
        })
    }

    /// See [`Route::exchange`]: the swap list of captures on `to`, each
    /// side taking with its least valuable attacker, pieces behind a
    /// capturer joining in as the line opens.
    fn exchange_on(
        &self,
        b: &Board,
        from: Square,
        to: Square,
        victim: i32,
        value: &dyn Fn(Role) -> i32,
    ) -> i32 {
        B::with_sets(&b.bits, |bits| {
            let width = self.width as u8;
            let (f, t) = (B::bit(bit(from, width)), bit(to, width));
            let role_on = |sets: &Sets<B>, b: B| {
                (0..ROLES)
                    .find(|&r| sets.role[r] & b != B::ZERO)
                    .map(|r| Role::from_index(r as u8))
            };
            let mut sets = *bits;
            let Some(first) = role_on(&sets, f) else {
                return victim;
            };
            // The capturer leaves its square; the target stays occupied
            // whoever stands on it, and its victim never attacks it.
            let take = |sets: &mut Sets<B>, b: B| {
                for set in sets.color.iter_mut().chain(sets.role.iter_mut()) {
                    *set &= !b;
                }
            };
            take(&mut sets, f | B::bit(t));
            // gain[d]: what the side making the d-th capture has won if the
            // exchange stops after it.
            let mut gain = [0i32; 32];
            gain[0] = victim;
            let mut on_target = value(first);
            let mut side = !b.turn;
            let mut d = 0;
            while d + 1 < gain.len() {
                let pieces = sets.color[0] | sets.color[1];
                let occ = pieces | sets.void | B::bit(t);
                let empty = self.board & !pieces & !B::bit(t);
                let (found, _) = self.attackers(&sets, t, side, occ, empty);
                let Some((next, role)) = squares(found)
                    .filter_map(|s| role_on(&sets, B::bit(s)).map(|r| (s, r)))
                    .min_by_key(|&(_, r)| value(r))
                else {
                    break;
                };
                d += 1;
                gain[d] = on_target - gain[d - 1];
                on_target = value(role);
                take(&mut sets, B::bit(next));
                side = !side;
            }
            while d > 0 {
                gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
                d -= 1;
            }
            gain[0]
        })
    }

    /// See [`Route::reach`].
    #[inline]
    fn reach_on(&self, b: &Board, from: Square, color: Color, role: Role) -> Option<u32> {
        let m = self.movers.iter().find(|m| m.role == role.index())?;
        if m.crosses || self.walk.as_ref().is_some_and(|w| w.role == m.role) {
            return None;
        }
        Some(B::with_sets(&b.bits, |bits| {
            let s = bit(from, self.width as u8);
            let occ = bits.color[0] | bits.color[1] | bits.void;
            let to = self.targets(m, s, occ);
            (to & !bits.color[color.index()] & !bits.void).count()
        }))
    }

    /// See [`Route::attacks`]: each side's pawns, king and pieces, role by
    /// role, their targets found as the move generator finds them (rides
    /// stop at the first piece or void, which they attack).
    fn attacks_on(&self, b: &Board) -> Option<Attacks> {
        if self.walk.is_some() || self.movers.iter().any(|m| m.crosses) {
            return None;
        }
        Some(B::with_sets(&b.bits, |bits| {
            let occ = bits.color[0] | bits.color[1] | bits.void;
            let mut by = [[0; ROLES]; 2];
            let mut reach = [[0; ROLES]; 2];
            for c in Color::ALL {
                let own = bits.color[c.index()];
                let (by, reach) = (&mut by[c.index()], &mut reach[c.index()]);
                let mut pawns = B::ZERO;
                for s in squares(own & bits.role[Role::Pawn.index()]) {
                    pawns |= self.pawn_attacks[c.index()][s as usize & 127];
                }
                by[Role::Pawn.index()] = pawns.wide();
                let mut king = B::ZERO;
                for s in squares(own & bits.role[Role::King.index()]) {
                    king |= self.king_steps[s as usize & 127];
                }
                by[Role::King.index()] = king.wide();
                for m in &self.movers {
                    let mut all = B::ZERO;
                    let mut n = 0;
                    for s in squares(own & bits.role[m.role]) {
                        let to = self.targets(m, s, occ);
                        all |= to;
                        n += (to & !own & !bits.void).count();
                    }
                    by[m.role] |= all.wide();
                    reach[m.role] += n;
                }
            }
            Attacks::new(self.width as u8, by, reach)
        }))
    }

    /// The squares the piece moving as `m` on `s` attacks (its leaps and
    /// its rides, each ride's first blocker in `occ` included).
    #[inline]
    fn targets(&self, m: &Mover<B>, s: u32, occ: B) -> B {
        let mut to = m.leaps.as_ref().map_or(B::ZERO, |l| l[s as usize & 127]);
        for &i in &m.rays {
            to |= self.ray(i, s, occ);
        }
        to
    }

    /// The squares a rider along ray `i` from `s` reaches, the first
    /// blocker in `occ` included.
    #[inline]
    fn ray(&self, i: usize, s: u32, occ: B) -> B {
        let ray = &self.rays[i];
        let full = ray.to[s as usize & 127];
        let blockers = full & occ;
        if blockers == B::ZERO {
            return full;
        }
        let b = if ray.forward {
            blockers.first()
        } else {
            blockers.last()
        };
        full ^ ray.to[b as usize & 127]
    }

    /// The pieces of `by` attacking `t`, with `occ` blocking rides and
    /// `empty` the squares walkers may pass; and the squares between each
    /// rider among them and `t`.
    fn attackers(&self, bits: &Sets<B>, t: u32, by: Color, occ: B, empty: B) -> (B, B) {
        let theirs = bits.color[by.index()];
        let ts = t as usize & 127;
        let mut found =
            self.pawn_attacks[(!by).index()][ts] & bits.role[Role::Pawn.index()] & theirs;
        let mut lines = B::ZERO;
        for (r, to) in &self.leapers {
            found |= to[ts] & bits.role[*r] & theirs;
        }
        for g in &self.rider_groups {
            let riders = g.riders(bits, theirs) & g.lines[ts];
            if riders == B::ZERO {
                continue;
            }
            for &i in &g.rays {
                if self.rays[i].to[ts] & riders != B::ZERO {
                    let ray = self.ray(i, t, occ);
                    if ray & riders != B::ZERO {
                        found |= ray & riders;
                        lines |= ray & !riders;
                    }
                }
            }
        }
        if let Some(walk) = &self.walk {
            let walkers = theirs & bits.role[walk.role] & walk.reach[ts];
            if walkers != B::ZERO {
                let passable = walk.passable(empty, bits.void);
                found |= walk.from(t, passable) & walkers;
            }
        }
        (found, lines)
    }

    /// Is `t` attacked by `by`, with `occ` blocking rides and `empty` the
    /// squares free of pieces (walkers pass those, and voids if they may)?
    fn attacked(&self, bits: &Sets<B>, t: u32, by: Color, occ: B, empty: B) -> bool {
        let riders = self.riders(bits, bits.color[by.index()]);
        self.attacked_with(bits, t, by, occ, empty, &riders)
    }

    /// [`Self::attacked`] with `by`'s riders found ([`Self::riders`]).
    #[inline]
    fn attacked_with(
        &self,
        bits: &Sets<B>,
        t: u32,
        by: Color,
        occ: B,
        empty: B,
        riders: &Riders<B>,
    ) -> bool {
        self.attacked_by_pieces(bits, t, by, occ, riders)
            || self.walk.as_ref().is_some_and(|walk| {
                let walkers = bits.color[by.index()] & bits.role[walk.role];
                walk.attacks(t, walkers, walk.passable(empty, bits.void))
            })
    }

    /// The pieces of `side` (a side's set) in each rider group, in the
    /// groups' order: found once for a position, not for each square a
    /// king looks at.
    #[inline]
    fn riders(&self, bits: &Sets<B>, side: B) -> Riders<B> {
        let mut riders = [B::ZERO; MAX_GROUPS];
        for (r, g) in riders.iter_mut().zip(&self.rider_groups) {
            *r = g.riders(bits, side);
        }
        riders
    }

    /// Is `t` attacked by `by` with `occ` blocking rides, walkers aside?
    /// `riders` are `by`'s ([`Self::riders`]).
    fn attacked_by_pieces(
        &self,
        bits: &Sets<B>,
        t: u32,
        by: Color,
        occ: B,
        riders: &Riders<B>,
    ) -> bool {
        let theirs = bits.color[by.index()];
        let ts = t as usize & 127;
        if self.pawn_attacks[(!by).index()][ts] & bits.role[Role::Pawn.index()] & theirs != B::ZERO
        {
            return true;
        }
        for (r, to) in &self.leapers {
            if to[ts] & bits.role[*r] & theirs != B::ZERO {
                return true;
            }
        }
        for (g, &riders) in self.rider_groups.iter().zip(riders) {
            let riders = riders & g.lines[ts];
            if riders == B::ZERO {
                continue;
            }
            for &i in &g.rays {
                if self.rays[i].to[ts] & riders != B::ZERO
                    && self.ray(i, t, occ) & riders != B::ZERO
                {
                    return true;
                }
            }
        }
        false
    }
}

/// Where the bitboard route sends legal moves: counted, or listed. Sets
/// arrive in the route's word size, so a count of an 8x8 board's moves is
/// one machine word's.
pub(crate) trait Sink {
    /// Moves of one piece from `from` to each of `to`, none a pawn's.
    fn piece<T: Set>(&mut self, squares: &[Square; 128], from: u32, to: T);
    /// Pawn moves to each of `to`, each from `back` bits behind; those on
    /// the last rank (`promo`) promote, in `promotions` ways.
    fn pawns<T: Set>(
        &mut self,
        squares: &[Square; 128],
        to: T,
        back: i32,
        kind: MoveKind,
        promo: T,
        promotions: u64,
    );
    /// One move proven legal by playing it.
    fn tested(&mut self, mv: Move);
}

/// Counts moves.
pub(crate) struct Count(pub u64);

impl Sink for Count {
    #[inline]
    fn piece<T: Set>(&mut self, _: &[Square; 128], _: u32, to: T) {
        self.0 += u64::from(to.count());
    }
    #[inline]
    fn pawns<T: Set>(
        &mut self,
        _: &[Square; 128],
        to: T,
        _: i32,
        _: MoveKind,
        promo: T,
        promotions: u64,
    ) {
        // Promotions are rare: one count in the usual case.
        let promoting = to & promo;
        self.0 += if promoting == T::ZERO {
            u64::from(to.count())
        } else {
            u64::from((to ^ promoting).count()) + u64::from(promoting.count()) * promotions
        };
    }
    #[inline]
    fn tested(&mut self, _: Move) {
        self.0 += 1;
    }
}

/// Lists moves.
pub(crate) struct List<'a> {
    /// What a pawn may promote to ([`Route::promotions`]).
    pub promotions: &'a [Role],
    pub out: &'a mut MoveList,
}

impl Sink for List<'_> {
    fn piece<T: Set>(&mut self, squares_of: &[Square; 128], from: u32, to: T) {
        let from = squares_of[from as usize & 127];
        for b in squares(to) {
            self.out.push(Move::new(
                from,
                squares_of[b as usize & 127],
                MoveKind::Normal,
            ));
        }
    }
    fn pawns<T: Set>(
        &mut self,
        squares_of: &[Square; 128],
        to: T,
        back: i32,
        kind: MoveKind,
        promo: T,
        _: u64,
    ) {
        for b in squares(to) {
            let from = squares_of[(b as i32 - back) as usize & 127];
            let mv = Move::new(from, squares_of[b as usize & 127], kind);
            if promo & T::bit(b) != T::ZERO {
                for &role in self.promotions {
                    self.out.push(Move {
                        promotion: Some(role),
                        ..mv
                    });
                }
            } else {
                self.out.push(mv);
            }
        }
    }
    fn tested(&mut self, mv: Move) {
        self.out.push(mv);
    }
}

/// What this route leaves to the game's rules and the mailbox, lent by
/// whoever picks the route ([`crate::legal`]): the variant's questions about
/// a position, and the moves the sets cannot prove legal, listed and tested
/// there one by one.
pub(crate) trait Mailbox {
    /// Whether the variant limits this turn's moves (a restriction the
    /// sets do not know): the position then takes the mailbox route.
    fn restricted(&self, b: &Board) -> bool;
    /// A square that blocks lines once the move is over, whatever it is
    /// (Void Chess: the mover's unstable tile turns void or keeps its
    /// Minister).
    fn blocker_after_move(&self, b: &Board) -> Option<Square>;
    /// Whether playing `mv` leaves the mover's king safe.
    fn leaves_king_safe(&self, b: &Board, mv: &Move) -> bool;
    /// The moves of the piece on `from` by its own rules, not yet tested.
    fn piece_moves(&self, b: &Board, from: Square, out: &mut MoveList);
    /// Castling on `side`, if the pieces and rights allow it (not yet
    /// tested for safety).
    fn castling_move(&self, b: &Board, side: CastlingSide) -> Option<Move>;
}

/// Sends the legal moves of the side to move to `sink`; `false` (and
/// nothing sent) when the position needs the mailbox route.
fn legal<B: Set, S: Sink>(t: &Tables<B>, b: &Board, sink: &mut S, mailbox: &impl Mailbox) -> bool {
    B::with_sets(&b.bits, |bits| legal_with(t, b, bits, sink, mailbox))
}

/// [`legal`] with the board's sets in the route's word size.
#[inline]
fn legal_with<B: Set, S: Sink>(
    t: &Tables<B>,
    b: &Board,
    bits: &Sets<B>,
    sink: &mut S,
    mailbox: &impl Mailbox,
) -> bool {
    let us = b.turn;
    let them = !us;
    let Some(king_sq) = b.kings[us.index()] else {
        return false;
    };
    if mailbox.restricted(b) {
        return false;
    }
    let zero = B::ZERO;
    let w = t.width;
    let k = bit(king_sq, w as u8);
    let kb = B::bit(k);
    let own = bits.color[us.index()];
    let enemy = bits.color[them.index()];
    let pieces = own | enemy;
    let occ = pieces | bits.void;
    // A square that blocks lines once the move is over, whatever it is
    // (Void Chess: the mover's unstable tile turns void or keeps its Minister).
    let after = mailbox
        .blocker_after_move(b)
        .map_or(zero, |s| B::bit(bit(s, w as u8)));
    let occ_after = occ | after;
    let empty = t.board & !pieces;
    // In check, the other pieces may only capture a lone checker or step
    // between it and a rider's line; a walker's check goes the slow way.
    let mut evasion = !zero;
    let mut in_check = false;
    let mut double_check = false;
    let foes = t.riders(bits, enemy);
    if t.attacked_with(bits, k, them, occ_after, empty, &foes) {
        let (checkers, lines) = t.attackers(bits, k, them, occ_after, empty);
        if t.walk
            .as_ref()
            .is_some_and(|walk| checkers & bits.role[walk.role] != zero)
        {
            return false;
        }
        in_check = true;
        double_check = checkers.rest() != zero;
        evasion = checkers | lines;
    }
    // Squares next to the king that an enemy walker could pass through: a
    // piece leaving one is tested by playing the move.
    // Only walkers within three steps of the king matter to it and to the
    // squares it may step to: the squares those attack with the king lifted
    // off its square are worked out once, for every king step below.
    let king_zone = t.king_steps[k as usize & 127];
    let mut risky = zero;
    let mut near_walkers = false;
    let mut walker_hits = zero;
    if let Some(walk) = &t.walk {
        let passable = walk.passable(empty | kb, bits.void);
        for m in squares(enemy & bits.role[walk.role]) {
            if walk.reach[m as usize & 127] & king_zone != zero {
                near_walkers = true;
                risky |= king_zone & walk.steps[m as usize & 127];
                walker_hits |= walk.from(m, passable);
            }
        }
        if after & risky != zero {
            // The tile turning void would open a walker's path to the king.
            return false;
        }
    }
    // Pins: an own piece first along a line from the king, an enemy rider
    // of that line behind it. A pinned piece keeps to the line.
    let mut pinned = zero;
    // Not an array: zeroing sixteen entries per position costs more than
    // the pins themselves.
    let mut lines: ArrayVec<(u32, B), 16> = ArrayVec::new();
    for (g, &riders) in t.rider_groups.iter().zip(&foes) {
        let riders = riders & g.lines[k as usize & 127];
        if riders == zero {
            continue;
        }
        for &i in &g.rays {
            if t.rays[i].to[k as usize & 127] & riders == zero {
                continue;
            }
            let near = t.ray(i, k, occ_after);
            let blocker = near & own & !after;
            if blocker == zero {
                continue;
            }
            let line = t.ray(i, k, occ_after ^ blocker);
            if line & riders & !near != zero && !lines.is_full() {
                pinned |= blocker;
                lines.push((blocker.first(), line));
            }
        }
    }
    let line_of = |s: u32| lines.iter().find(|l| l.0 == s).map_or(zero, |l| l.1);
    let targets = t.board & !own & !bits.void;
    let pawn_set = bits.role[Role::Pawn.index()];
    // A pawn that may take en passant is played and tested, all its moves:
    // the capture empties a square beside it that the sets cannot see
    // through (a pin along the rank), and each game says when it is allowed.
    let en_passant = b.ep.map_or(zero, |ep| {
        t.pawn_attacks[them.index()][bit(ep, w as u8) as usize & 127] & pawn_set
    });
    let slow = own & (risky | ((pinned | en_passant) & pawn_set));

    if !double_check {
        // Pieces other than pawns and the king, role by role.
        for m in &t.movers {
            let set = own & bits.role[m.role] & !slow;
            if set == zero {
                continue;
            }
            let land = evasion
                & if m.crosses {
                    targets | bits.void
                } else {
                    targets
                };
            let walk = t.walk.as_ref().filter(|w| w.role == m.role);
            let passable = walk.map_or(zero, |w| w.passable(empty, bits.void));
            for s in squares(set) {
                let mut to = m.leaps.as_ref().map_or(zero, |l| l[s as usize & 127]);
                for &i in &m.rays {
                    to |= t.ray(i, s, occ);
                }
                if let Some(walk) = walk {
                    to |= walk.from(s, passable);
                }
                to &= land;
                if pinned != zero && pinned & B::bit(s) != zero {
                    to &= line_of(s);
                }
                sink.piece(&t.squares, s, to);
            }
        }

        // Pawns, all at once.
        let pawns = own & pawn_set & !slow;
        if pawns != zero {
            let free = t.board & !occ & evasion;
            let capture = enemy & evasion;
            let promo = t.promotion_rank[us.index()];
            let (one, two, left, right, fwd);
            if us == Color::White {
                fwd = w;
                let step = (pawns << w) & t.board & !occ;
                let from_rank = t.double_step_via[us.index()];
                one = step & free;
                two = ((step & from_rank) << w) & free;
                left = ((pawns & !t.first_file) << (w - 1)) & capture;
                right = ((pawns & !t.last_file) << (w + 1)) & capture;
            } else {
                fwd = -w;
                let step = (pawns >> w) & t.board & !occ;
                let from_rank = t.double_step_via[us.index()];
                one = step & free;
                two = ((step & from_rank) >> w) & free;
                left = ((pawns & !t.first_file) >> (w + 1)) & capture;
                right = ((pawns & !t.last_file) >> (w - 1)) & capture;
            }
            let n = t.promotions.len() as u64;
            let sq = &t.squares;
            sink.pawns(sq, one, fwd, MoveKind::Normal, promo, n);
            sink.pawns(sq, two, 2 * fwd, MoveKind::DoubleStep, promo, n);
            sink.pawns(sq, left, fwd - 1, MoveKind::Normal, promo, n);
            sink.pawns(sq, right, fwd + 1, MoveKind::Normal, promo, n);
        }
    }

    // King steps: the destination must be safe with the king gone from its
    // square, and must not be a tile about to swallow it.
    // `walker_hits` cannot see a walker's path through the tile about to
    // turn void: when a walker is near, each step is then played instead.
    let test_king = after != zero && near_walkers;
    let steps = king_zone & targets & !after & if test_king { !zero } else { !walker_hits };
    let lifted = occ_after & !kb;
    for s in squares(steps) {
        let to = B::bit(s);
        if test_king {
            let mv = Move::new(king_sq, t.squares[s as usize & 127], MoveKind::Normal);
            if mailbox.leaves_king_safe(b, &mv) {
                sink.tested(mv);
            }
        } else if !t.attacked_by_pieces(bits, s, them, lifted | to, &foes) {
            sink.piece(&t.squares, k, to);
        }
    }

    // Castling by sets when nothing is unusual; else, like the pieces that
    // might open a walker's path and pinned pawns, played and tested.
    let mut odd_castles = [false; 2];
    for (side, castle) in [CastlingSide::King, CastlingSide::Queen]
        .into_iter()
        .zip(&t.castles[us.index()])
    {
        let Some(c) = castle else { continue };
        if in_check || !b.castling_right(us, side) || c.between & occ != zero {
            continue;
        }
        if test_king || c.king & kb == zero || c.rook & own & bits.role[Role::Rook.index()] == zero
        {
            odd_castles[side as usize] = true;
        } else if squares(c.path).all(|s| !t.attacked_with(bits, s, them, occ_after, empty, &foes))
        {
            sink.tested(c.mv);
        }
    }
    if slow != zero || odd_castles.contains(&true) {
        let from = squares(slow).map(|s| t.squares[s as usize & 127]);
        played_and_tested(b, from, odd_castles, sink, mailbox);
    }
    true
}

/// The moves of the pieces on `from` and the castlings marked in `castles`,
/// each played and kept if it leaves the king safe. Not inlined: its move
/// list is tens of kilobytes, and a frame that holds one pays for probing
/// that stack on every call, where most positions never come here.
#[inline(never)]
fn played_and_tested<S: Sink>(
    b: &Board,
    from: impl Iterator<Item = Square>,
    castles: [bool; 2],
    sink: &mut S,
    mailbox: &impl Mailbox,
) {
    let mut moves = MoveList::new();
    for s in from {
        mailbox.piece_moves(b, s, &mut moves);
    }
    for side in [CastlingSide::King, CastlingSide::Queen] {
        if castles[side as usize] {
            if let Some(mv) = mailbox.castling_move(b, side) {
                moves.push(mv);
            }
        }
    }
    for mv in &moves {
        if mailbox.leaves_king_safe(b, mv) {
            sink.tested(*mv);
        }
    }
}
