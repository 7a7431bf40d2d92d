//! A variant's definition turned into the tables move generation reads.

use crate::bitboard::Route;
use crate::board::{is_color, Board};
use crate::movement::{Component, Landing, Only, Vector};
use crate::program::{Program, Reach};
use crate::square::{CELLS, STRIDE};
use crate::variant::{CastlingDef, Definition, Variant};
use crate::{BoardSize, CastlingSide, Color, Role, Square};

#[inline]
pub(crate) fn delta((df, dr): Vector) -> i16 {
    dr as i16 * STRIDE + df as i16
}

/// Generation data for one role.
#[derive(Clone, Debug, Default)]
pub(crate) struct RoleGen {
    pub leaps: Vec<i16>,
    pub rides: Vec<(i16, u8)>,
    pub two_steps: Vec<i16>,
    pub pawn: bool,
    /// Lame paths, as step deltas.
    pub paths: Vec<Vec<i16>>,
    pub crosses_void: bool,
    pub heals: bool,
    /// Leaps and rides that only move, or only capture (Betza's `m`, `c`).
    pub quiet_leaps: Vec<i16>,
    pub capture_leaps: Vec<i16>,
    pub quiet_rides: Vec<(i16, u8)>,
    pub capture_rides: Vec<(i16, u8)>,
    /// Hops (Betza's `p`, `g`).
    pub hops: Vec<HopGen>,
}

/// One direction of a hopper's moves, as move generation reads it.
#[derive(Copy, Clone, Debug)]
pub(crate) struct HopGen {
    pub d: i16,
    /// Lands just past the screen (the grasshopper), else anywhere beyond.
    pub next: bool,
    pub moves: bool,
    pub captures: bool,
}

impl RoleGen {
    /// Whether the piece has ways that only move, only capture or hop:
    /// two of its ways may then reach one square, and its moves are kept
    /// once each.
    #[inline]
    pub(crate) fn limited(&self) -> bool {
        !(self.quiet_leaps.is_empty()
            && self.capture_leaps.is_empty()
            && self.quiet_rides.is_empty()
            && self.capture_rides.is_empty()
            && self.hops.is_empty())
    }
}

/// Each role's most moves (see [`Rules::move_bounds`]).
fn move_bounds(rules: &Rules) -> [[u32; 16]; 2] {
    let size = rules.def.size;
    let longest = u32::from(size.files().max(size.ranks())) - 1;
    let ride = |range: u8| u32::from(range).min(longest);
    let promotions = rules.def.promotion.len() as u32;
    let mut bounds = [[0u32; 16]; 2];
    for color in Color::ALL {
        for (r, g) in rules.gen[color.index()].iter().enumerate() {
            let walks = g.two_steps.len() as u32;
            let mut n =
                (g.leaps.len() + g.quiet_leaps.len() + g.capture_leaps.len() + g.paths.len())
                    as u32
                    + walks * (walks + 1)
                    + g.rides
                        .iter()
                        .chain(&g.quiet_rides)
                        .chain(&g.capture_rides)
                        .map(|&(_, range)| ride(range))
                        .sum::<u32>()
                    + g.hops.len() as u32 * longest;
            if g.pawn {
                // One or two squares forward, two captures, en passant:
                // each as a pawn or as each piece it may become.
                n += 5 * (promotions + 1);
            }
            if rules
                .programs
                .as_ref()
                .is_some_and(|t| t[color.index()][r].is_some())
            {
                // A reprogrammed piece reaches at most a queen's squares.
                n = n.max(8 * longest);
            }
            bounds[color.index()][r] = n;
        }
        // A pawn may become any promotion piece and then move as it.
        let most = rules
            .def
            .promotion
            .iter()
            .map(|p| bounds[color.index()][p.index()])
            .max()
            .unwrap_or(0);
        let pawn = &mut bounds[color.index()][Role::Pawn.index()];
        *pawn = (*pawn).max(most);
    }
    bounds
}

/// The board rank where `color` castles under `c`.
pub(crate) fn castling_rank(size: BoardSize, c: &CastlingDef, color: Color) -> u8 {
    match color {
        Color::White => c.rank,
        Color::Black => size.ranks() - 1 - c.rank,
    }
}

/// The rides along one direction, seen from the square they attack:
/// walking from it by `d` over empty squares, at most `range` steps (the
/// longest ride of any role that way), the first piece met, `n` steps away,
/// attacks the square if it is of a colour `c` and a role in `masks[c]`
/// that rides at least `n` steps that way (`reach[c]`, by role).
///
/// One entry a direction, whatever the ranges: Super Chess's Princess
/// rides four squares along the Queen's lines, and a table keyed by range
/// as well walked each of those lines twice.
#[derive(Clone, Debug)]
pub(crate) struct RideAttack {
    pub d: i16,
    pub masks: [u16; 2],
    pub range: u8,
    pub reach: [[u8; 16]; 2],
}

impl RideAttack {
    /// Whether `cell`, met `n` steps along this direction, is a piece of
    /// `by` that attacks back along it.
    #[inline]
    pub(crate) fn attacks(&self, cell: u8, by: Color, n: u8) -> bool {
        let role = usize::from(cell & 0x0f);
        is_color(cell, by)
            && self.masks[by.index()] & (1 << role) != 0
            && n <= self.reach[by.index()][role]
    }
}

/// Marks `role` of `color` as riding at most `range` steps along `d`, in
/// the table of [`RideAttack`]s.
fn add_ride(table: &mut Vec<RideAttack>, d: i16, range: u8, color: Color, role: Role) {
    let at = match table.iter().position(|r| r.d == d) {
        Some(at) => at,
        None => {
            table.push(RideAttack {
                d,
                masks: [0; 2],
                range: 0,
                reach: [[0; 16]; 2],
            });
            table.len() - 1
        }
    };
    let ride = &mut table[at];
    ride.masks[color.index()] |= role.bit();
    ride.range = ride.range.max(range);
    let reach = &mut ride.reach[color.index()][role.index()];
    *reach = (*reach).max(range);
}

/// Marks `role` of `color` as attacking along `d` in an attack table keyed
/// by direction and `kind`: whether a hop lands next to its screen
/// ([`Rules::hop_attacks`]).
fn add_attack<K: PartialEq>(
    table: &mut Vec<(i16, [u16; 2], K)>,
    d: i16,
    kind: K,
    color: Color,
    role: Role,
) {
    match table.iter_mut().find(|(x, _, k)| *x == d && *k == kind) {
        Some((_, m, _)) => m[color.index()] |= role.bit(),
        None => {
            let mut masks = [0u16; 2];
            masks[color.index()] = role.bit();
            table.push((d, masks, kind));
        }
    }
}

/// A variant, ready to play: its definition, its hooks, and tables.
/// Per colour and role, the programmed ways, if that role is programmed.
pub(crate) type Programmed = [[Option<Vec<(Vector, Reach)>>; 16]; 2];

pub struct Rules {
    pub(crate) variant: &'static dyn Variant,
    /// Which of our games this is; `None` for a variant defined elsewhere
    /// (a test's, or the renderer's demo boards).
    kind: Option<crate::GameKind>,
    pub(crate) def: Definition,
    pub(crate) letters: [Option<char>; 16],
    /// How each role moves, per colour (Black's vectors are White's with
    /// the ranks turned round: the same for every symmetric piece, the
    /// mirror image for a forward-only one such as makruk's khon).
    pub(crate) gen: [[RoleGen; 16]; 2],
    /// The rank (counted from each side's own) where pawns promote.
    pub(crate) promotion_ranks: [u8; 2],
    /// The rank from which each side's pawns double-step.
    pub(crate) double_step_ranks: [u8; 2],
    /// The first rank of each side's promotion zone, where promoting is a
    /// choice ([`Variant::promotion_zone`]).
    pub(crate) promotion_zone: Option<[u8; 2]>,
    /// The most of each role a side may have for a pawn to become one
    /// ([`Variant::promotion_limited`]): the start position's counts.
    pub(crate) promotion_limits: Option<[[u8; 16]; 2]>,
    /// `(d, masks)`: a piece of colour `c` with a role in `masks[c]` standing
    /// at `target + d` attacks `target` by a leap.
    pub(crate) leap_attacks: Vec<(i16, [u16; 2])>,
    /// The rides, one entry a direction ([`RideAttack`]).
    pub(crate) ride_attacks: Vec<RideAttack>,
    /// Roles that walk in two steps, per colour, with their step deltas.
    pub(crate) two_step_attackers: Vec<(Color, Role, Vec<i16>, bool)>,
    pub(crate) two_step_mask: u16,
    /// Roles that move along lame paths, per colour, with their paths as
    /// step deltas.
    pub(crate) path_attackers: Vec<(Color, Role, Vec<Vec<i16>>)>,
    /// `(d, masks, next)`: walking from the target by `d` over empty
    /// squares (none when `next`) to a piece of either side, the screen,
    /// then over empty squares beyond it, the first piece met, of colour
    /// `c`, attacks the target by a hop if its role is in `masks[c]`.
    pub(crate) hop_attacks: Vec<(i16, [u16; 2], bool)>,
    /// A piece's attacks can change where no other piece's would (a hopper's
    /// screen moving): every move gets the full king-safety test.
    pub(crate) full_legality: bool,
    /// The most moves a piece of each colour and role could have, on an
    /// empty board by its tables (a pawn: the most of its own and of any
    /// piece it may become): a position whose pieces could together make
    /// more than a move list holds is refused ([`Rules::move_bound`]).
    pub(crate) move_bounds: [[u32; 16]; 2],
    /// Reprogrammed roles per colour (Super Chess): their ways as board
    /// vectors (Black's ranks turned round). Such a role of that colour is
    /// in none of the tables above; move generation and attack detection
    /// read these instead.
    pub(crate) programs: Option<Box<Programmed>>,
    /// Castling rights lost when a piece moves from, to, or off a square.
    pub(crate) castle_clear: Box<[u8; CELLS]>,
    pub(crate) empty: Board,
    /// The variant's answers to the hooks move generation asks per piece,
    /// read once.
    pub(crate) king_capture: bool,
    pub(crate) double_step_anywhere: bool,
    /// Pawns may double-step at all ([`Variant::pawn_double_step`]).
    pub(crate) pawn_double_step: bool,
    pub(crate) delayed_promotion: bool,
    pub(crate) ep_any_piece: bool,
    /// [`Variant::limits_or_blocks`].
    pub(crate) limits_or_blocks: bool,
    /// The variant has wins that stand whatever the moves
    /// ([`Variant::immediate_outcome`]).
    pub(crate) immediate_wins: bool,
    pub(crate) extra_attacks: bool,
    /// Quiet moves may be judged for check before they are played
    /// ([`crate::checks::plain_quiet_checks`]).
    pub(crate) plain_quiet_checks: bool,
    /// The bitboard route's tables, when the board and pieces suit it.
    pub(crate) bitboards: Option<Box<Route>>,
    /// What a user of these rules works out from them once and keeps with
    /// them ([`Rules::kept`]).
    kept: std::sync::OnceLock<Box<dyn std::any::Any + Send + Sync>>,
}

impl Rules {
    pub fn new(variant: &'static dyn Variant) -> Rules {
        Rules::build(variant, None)
    }

    /// The variant with each side's pieces reprogrammed by `programs`
    /// (White's, Black's). The programs must have been read for this
    /// variant ([`Program::parse`]).
    pub fn programmed(variant: &'static dyn Variant, programs: [&Program; 2]) -> Rules {
        Rules::build(variant, Some(programs))
    }

    fn build(variant: &'static dyn Variant, programs: Option<[&Program; 2]>) -> Rules {
        let def = variant.definition();
        let programmed: Option<Box<Programmed>> = programs
            .filter(|p| p.iter().any(|p| !p.is_default()))
            .map(|p| {
                let mut table: Programmed = Default::default();
                for color in Color::ALL {
                    let sign = if color == Color::White { 1 } else { -1 };
                    for role in p[color.index()].roles() {
                        let ways = p[color.index()].ways(role).unwrap_or_default();
                        table[color.index()][role.index()] = Some(
                            ways.iter()
                                .map(|w| ((w.vector.0, w.vector.1 * sign), w.reach))
                                .collect(),
                        );
                    }
                }
                Box::new(table)
            });
        let is_programmed = |color: Color, role: Role| {
            programmed
                .as_ref()
                .is_some_and(|t| t[color.index()][role.index()].is_some())
        };
        let mut letters = [None; 16];
        let mut gen: [[RoleGen; 16]; 2] = Default::default();
        let mut leap_attacks: Vec<(i16, [u16; 2])> = Vec::new();
        let mut ride_attacks: Vec<RideAttack> = Vec::new();
        let mut two_step_attackers = Vec::new();
        let mut two_step_mask = 0;
        let mut path_attackers: Vec<(Color, Role, Vec<Vec<i16>>)> = Vec::new();
        let mut hop_attacks: Vec<(i16, [u16; 2], bool)> = Vec::new();

        let mut add_leap = |d: i16, color: Color, role: Role| {
            if is_programmed(color, role) {
                return;
            }
            match leap_attacks.iter_mut().find(|(x, _)| *x == d) {
                Some((_, masks)) => masks[color.index()] |= role.bit(),
                None => {
                    let mut masks = [0; 2];
                    masks[color.index()] = role.bit();
                    leap_attacks.push((d, masks));
                }
            }
        };
        // A piece's vectors as `color` moves them: White's as written,
        // Black's with the ranks turned round, where that changes anything.
        // A piece that moves alike both ways keeps its vectors, in their
        // order, for Black too: the order moves are generated in (and so a
        // search's ties) stays as it always was.
        let symmetric = |vs: &[Vector]| vs.iter().all(|&(f, r)| vs.contains(&(f, -r)));
        let seen = |color: Color, mirror: bool, (df, dr): Vector| -> Vector {
            match (color, mirror) {
                (Color::Black, true) => (df, -dr),
                _ => (df, dr),
            }
        };

        for rd in &def.roster {
            letters[rd.role.index()] = Some(rd.letter.to_ascii_uppercase());
            for color in Color::ALL {
                let g = &mut gen[color.index()][rd.role.index()];
                g.crosses_void = rd.movement.crosses_void;
                g.heals = rd.movement.heals;
                for comp in &rd.movement.components {
                    match comp {
                        Component::Leap(vs) => {
                            let mirror = !symmetric(vs);
                            for &v in vs {
                                let d = delta(seen(color, mirror, v));
                                g.leaps.push(d);
                                add_leap(-d, color, rd.role);
                            }
                        }
                        Component::Ride { dirs, range } => {
                            let range = range.unwrap_or(u8::MAX);
                            let mirror = !symmetric(dirs);
                            for &v in dirs {
                                let d = delta(seen(color, mirror, v));
                                g.rides.push((d, range));
                                if !is_programmed(color, rd.role) {
                                    add_ride(&mut ride_attacks, -d, range, color, rd.role);
                                }
                            }
                        }
                        Component::TwoStep { steps } => {
                            let mirror = !symmetric(steps);
                            let ds: Vec<i16> = steps
                                .iter()
                                .map(|&v| delta(seen(color, mirror, v)))
                                .collect();
                            g.two_steps.extend(&ds);
                            // A capture on the first step is a plain leap.
                            for &d in &ds {
                                add_leap(-d, color, rd.role);
                            }
                            if !is_programmed(color, rd.role) {
                                two_step_attackers.push((
                                    color,
                                    rd.role,
                                    ds.clone(),
                                    rd.movement.crosses_void,
                                ));
                            }
                            two_step_mask |= rd.role.bit();
                        }
                        Component::Path(paths) => {
                            let ds: Vec<Vec<i16>> = paths
                                .iter()
                                .map(|p| {
                                    let ends: Vec<Vector> =
                                        paths.iter().filter_map(|p| p.last().copied()).collect();
                                    let mirror = !symmetric(&ends);
                                    p.iter().map(|&v| delta(seen(color, mirror, v))).collect()
                                })
                                .collect();
                            g.paths.extend(ds.iter().cloned());
                            if !is_programmed(color, rd.role) {
                                path_attackers.push((color, rd.role, ds));
                            }
                        }
                        Component::Hop { dirs, landing } => {
                            let mirror = !symmetric(dirs);
                            for &v in dirs {
                                let d = delta(seen(color, mirror, v));
                                let next = *landing == Landing::Next;
                                g.hops.push(HopGen {
                                    d,
                                    next,
                                    moves: true,
                                    captures: true,
                                });
                                if !is_programmed(color, rd.role) {
                                    add_attack(&mut hop_attacks, -d, next, color, rd.role);
                                }
                            }
                        }
                        Component::Only { only, part } => {
                            let captures = *only == Only::Captures;
                            match &**part {
                                Component::Leap(vs) => {
                                    let mirror = !symmetric(vs);
                                    for &v in vs {
                                        let d = delta(seen(color, mirror, v));
                                        if captures {
                                            g.capture_leaps.push(d);
                                            add_leap(-d, color, rd.role);
                                        } else {
                                            g.quiet_leaps.push(d);
                                        }
                                    }
                                }
                                Component::Ride { dirs, range } => {
                                    let range = range.unwrap_or(u8::MAX);
                                    let mirror = !symmetric(dirs);
                                    for &v in dirs {
                                        let d = delta(seen(color, mirror, v));
                                        if !captures {
                                            g.quiet_rides.push((d, range));
                                            continue;
                                        }
                                        g.capture_rides.push((d, range));
                                        if !is_programmed(color, rd.role) {
                                            add_ride(&mut ride_attacks, -d, range, color, rd.role);
                                        }
                                    }
                                }
                                Component::Hop { dirs, landing } => {
                                    let mirror = !symmetric(dirs);
                                    for &v in dirs {
                                        let d = delta(seen(color, mirror, v));
                                        let next = *landing == Landing::Next;
                                        g.hops.push(HopGen {
                                            d,
                                            next,
                                            moves: !captures,
                                            captures,
                                        });
                                        if captures && !is_programmed(color, rd.role) {
                                            add_attack(&mut hop_attacks, -d, next, color, rd.role);
                                        }
                                    }
                                }
                                // The reader makes only leaps, rides and hops
                                // move- or capture-only.
                                _ => {}
                            }
                        }
                        Component::Pawn => {
                            g.pawn = true;
                            let forward = if color == Color::White { 1 } else { -1 };
                            for df in [-1, 1] {
                                add_leap(-delta((df, forward)), color, rd.role);
                            }
                        }
                    }
                }
            }
        }

        let mut castle_clear = Box::new([0u8; CELLS]);
        if let Some(c) = &def.castling {
            for color in Color::ALL {
                let home = castling_rank(def.size, c, color);
                let both = crate::board::castling_bit(color, CastlingSide::King)
                    | crate::board::castling_bit(color, CastlingSide::Queen);
                castle_clear[Square::new(c.king_file, home).index()] |= both;
                for side in [CastlingSide::King, CastlingSide::Queen] {
                    let sq = Square::new(c.rook_from[side as usize], home);
                    castle_clear[sq.index()] |= crate::board::castling_bit(color, side);
                }
            }
        }

        let empty = Board::empty(def.size);
        let promotion_ranks = {
            let last = def.size.ranks() - 1;
            let from_own = variant
                .promotion_rank()
                .map_or(last, |r| r.saturating_sub(1).min(last));
            [from_own, last - from_own]
        };
        let double_step_ranks = match variant.double_step_rank() {
            None => [
                def.size.double_step_rank(Color::White),
                def.size.double_step_rank(Color::Black),
            ],
            Some(r) => {
                let own = r.saturating_sub(1).min(def.size.ranks() - 1);
                [own, def.size.ranks() - 1 - own]
            }
        };
        let promotion_zone = variant.promotion_zone().map(|r| {
            let own = r.saturating_sub(1).min(def.size.ranks() - 1);
            [own, def.size.ranks() - 1 - own]
        });
        // The start's count of each role per side, read off the placement
        // field of its FEN by the roster's letters.
        let promotion_limits = variant.promotion_limited().then(|| {
            let mut limits = [[0u8; 16]; 2];
            let placement = def.start_fen.split_whitespace().next().unwrap_or("");
            for ch in placement.chars().filter(char::is_ascii_alphabetic) {
                let color = if ch.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                let upper = ch.to_ascii_uppercase();
                if let Some(r) = def.roster.iter().find(|r| r.letter == upper) {
                    if let Some(slot) = limits[color.index()].get_mut(r.role.index()) {
                        *slot = slot.saturating_add(1);
                    }
                }
            }
            limits
        });
        let mut rules = Rules {
            double_step_ranks,
            promotion_zone,
            promotion_limits,
            kind: crate::GameKind::ALL
                .into_iter()
                .find(|k| k.name() == def.name),
            variant,
            def,
            letters,
            gen,
            promotion_ranks,
            leap_attacks,
            ride_attacks,
            two_step_attackers,
            two_step_mask,
            full_legality: !hop_attacks.is_empty(),
            move_bounds: [[0; 16]; 2],
            path_attackers,
            hop_attacks,
            castle_clear,
            empty,
            king_capture: variant.king_capture(),
            double_step_anywhere: variant.double_step_anywhere(),
            pawn_double_step: variant.pawn_double_step(),
            delayed_promotion: variant.delayed_promotion(),
            ep_any_piece: variant.en_passant_by_any_piece(),
            limits_or_blocks: variant.limits_or_blocks(),
            immediate_wins: variant.has_immediate_outcome(),
            // Programmed pieces need not move symmetrically, which the
            // shortcuts of the legality test assume: test every move.
            extra_attacks: variant.has_extra_attacks() || programmed.is_some(),
            programs: programmed,
            plain_quiet_checks: false,
            bitboards: None,
            kept: std::sync::OnceLock::new(),
        };
        rules.move_bounds = move_bounds(&rules);
        rules.plain_quiet_checks = crate::checks::plain_quiet_checks(&rules);
        // The one choice of route: the bitboard tables where the game's
        // rules allow them and its board and pieces suit them, else the
        // mailbox alone (see `legal`).
        rules.bitboards = rules
            .allows_bitboards()
            .then(|| Route::build(&rules.def))
            .flatten()
            .map(Box::new);
        if rules.bitboards.is_none() {
            // Nothing will read the bitboards: spare every move their upkeep.
            rules.empty.width = 0;
        }
        rules
    }

    /// The most moves `color`'s pieces on `b` could ever make in one turn
    /// by their own movement (castling included), however they stand: the
    /// bound a position must keep within a move list.
    pub(crate) fn move_bound(&self, b: &Board, color: Color) -> u32 {
        b.occupied(color)
            .iter()
            .filter_map(|sq| b.piece_at(sq))
            .map(|p| self.move_bounds[color.index()][p.role.index()])
            .sum::<u32>()
            + 2
    }

    /// Whether the game's own rules leave the legal moves to piece
    /// movement and king safety alone, as the bitboard route computes
    /// them: no hook of the variant's that decides a move's legality
    /// another way, no programmed pieces, no king captures.
    fn allows_bitboards(&self) -> bool {
        self.variant.bitboard_legality()
            && self.programs.is_none()
            && !self.extra_attacks
            && !self.king_capture
            && !self.delayed_promotion
            && !self.double_step_anywhere
            && self.pawn_double_step
            && self.variant.promotion_rank().is_none()
            && self.variant.double_step_rank().is_none()
            && self.promotion_zone.is_none()
            && self.promotion_limits.is_none()
            && !self.ep_any_piece
            && !self.variant.filters_moves()
    }

    /// A value worked out once from these rules and kept with them, for as
    /// long as they live: the engine keeps the piece values of a game read
    /// from a file here, so that its evaluation finds them without a lock.
    /// One value per rules: `None` if another type was kept first.
    pub fn kept<T: std::any::Any + Send + Sync>(&self, init: impl FnOnce() -> T) -> Option<&T> {
        self.kept.get_or_init(|| Box::new(init())).downcast_ref()
    }

    /// Which of our games this is (`None` for a variant defined elsewhere).
    #[inline]
    pub fn kind(&self) -> Option<crate::GameKind> {
        self.kind
    }

    /// `standard`, `void`, ...
    pub fn name(&self) -> &'static str {
        self.def.name
    }

    /// "Void Chess"
    pub fn title(&self) -> &'static str {
        self.def.title
    }

    #[inline]
    pub fn size(&self) -> BoardSize {
        self.def.size
    }

    pub fn definition(&self) -> &Definition {
        &self.def
    }

    #[inline]
    pub fn variant(&self) -> &'static dyn Variant {
        self.variant
    }

    /// The SAN letter of a role in this variant (upper case), if it is in the roster.
    /// What this game calls `role`: its own name for it (a game defined in
    /// a file names its pieces), else the role's ("knight").
    pub fn role_name(&self, role: Role) -> &'static str {
        self.variant.role_name(role).unwrap_or(role.name())
    }

    pub fn letter(&self, role: Role) -> Option<char> {
        self.letters[role.index()]
    }

    /// The role written with `letter` (either case), if any.
    pub fn role_for_letter(&self, letter: char) -> Option<Role> {
        let up = letter.to_ascii_uppercase();
        Role::ALL
            .into_iter()
            .find(|r| self.letters[r.index()] == Some(up))
            .or_else(|| self.variant.letter_alias(up))
    }

    pub fn roster(&self) -> impl Iterator<Item = Role> + '_ {
        self.def.roster.iter().map(|r| r.role)
    }

    pub fn promotion_roles(&self) -> &[Role] {
        &self.def.promotion
    }

    pub fn castling(&self) -> Option<&CastlingDef> {
        self.def.castling.as_ref()
    }

    /// The programmed ways of `color`'s `role` (board vectors), if any.
    pub(crate) fn program(&self, color: Color, role: Role) -> Option<&[(Vector, Reach)]> {
        self.programs.as_ref()?[color.index()][role.index()].as_deref()
    }

    /// Whether some piece is reprogrammed (Super Chess's programmed modes).
    /// Whether this is a giveaway game, where losing every piece wins: it
    /// has no royal piece.
    pub fn is_giveaway(&self) -> bool {
        self.def.royal.is_none()
    }

    /// Whether a player may never leave their own king attacked (a check
    /// must be answered): the game has a royal piece, and it cannot be
    /// captured like any other (Chess 99's can).
    pub fn checks_bind(&self) -> bool {
        self.def.royal.is_some() && !self.king_capture
    }

    /// Whether captures crack the floor: a capture leaves an unstable tile
    /// that falls into a void after its owner's next move (Void Chess).
    /// Other kinds of void (a movable one, holes) do not.
    pub fn has_unstable_tiles(&self) -> bool {
        self.variant.voids() == crate::variant::Voids::ByRule
    }

    /// Whether pieces may be reprogrammed: the roster has a programmable
    /// piece (Super Chess).
    pub fn has_programs(&self) -> bool {
        self.def.roster.iter().any(|r| r.role == Role::Programmable)
    }

    pub fn is_programmed(&self) -> bool {
        self.programs.is_some()
    }

    #[inline]
    pub fn crosses_void(&self, role: Role) -> bool {
        self.gen[0][role.index()].crosses_void
    }

    /// How `color`'s pieces of `role` move.
    #[inline]
    pub(crate) fn gen(&self, color: Color, role_index: usize) -> &RoleGen {
        &self.gen[color.index()][role_index]
    }

    /// The rank where `color`'s pieces start (0 for White).
    pub fn home_rank(&self, color: Color) -> u8 {
        self.def.size.home_rank(color)
    }

    /// The rank where `color` castles: its first, unless the game says
    /// another (Shako's second).
    pub fn castling_rank(&self, color: Color) -> u8 {
        match &self.def.castling {
            Some(c) => castling_rank(self.def.size, c, color),
            None => self.home_rank(color),
        }
    }

    /// The rank where `color`'s pawns promote: the last, unless the game
    /// says another (makruk's sixth).
    pub fn promotion_rank(&self, color: Color) -> u8 {
        self.promotion_ranks[color.index()]
    }

    /// The rank from which `color`'s pawns may advance two squares.
    pub fn double_step_rank(&self, color: Color) -> u8 {
        self.double_step_ranks[color.index()]
    }

    /// Whether a pawn of `color` arriving on `rank` may promote without
    /// having to (in a promotion zone, short of the last rank).
    pub(crate) fn may_promote_on(&self, color: Color, rank: u8) -> bool {
        self.promotion_zone.is_some_and(|z| match color {
            Color::White => rank >= z[0],
            Color::Black => rank <= z[1],
        })
    }

    /// Whether a pawn of `color` may become a `role` on `b` (always, unless
    /// the game limits promotion to the pieces lost).
    pub(crate) fn may_become(&self, b: &Board, color: Color, role: Role) -> bool {
        self.promotion_limits.is_none_or(|limits| {
            b.count(color, role)
                < limits[color.index()]
                    .get(role.index())
                    .copied()
                    .unwrap_or(0)
        })
    }

    pub(crate) fn pawn_forward(color: Color) -> i16 {
        match color {
            Color::White => STRIDE,
            Color::Black => -STRIDE,
        }
    }
}

impl std::fmt::Debug for Rules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rules")
            .field("name", &self.def.name)
            .finish()
    }
}
