//! What the evaluation looks at: a list of terms, each a number counted on
//! the board (White's count less Black's), and [`features`], which counts
//! them. The score is a weighted sum of the terms, so the weights can be
//! tuned from games (`voidmate tune`) while the counting stays here, the
//! one place both the search and the tuner read.

use super::value;
use voidmate_rules::{Attacks, Color, GameKind, Position, Role, Square, Tile};

/// Roles have three terms each: material, mobility and centrality.
const ROLES: usize = Role::ALL.len();

/// One term of the evaluation, an index into a game's [`Weights`](super::Weights).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Term(u16);

macro_rules! named_terms {
    ($($(#[$doc:meta])* $name:ident = $text:literal,)*) => {
        /// The terms that are not per role, in order after the role terms.
        const NAMED: &[&str] = &[$($text),*];
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[repr(u16)]
        enum Named { $($name),* }
        impl Term {
            $($(#[$doc])* pub const $name: Term = Term(3 * ROLES as u16 + Named::$name as u16);)*
        }
    };
}

named_terms! {
    /// The side to move (+1 for White to move, -1 for Black).
    TEMPO = "tempo",
    /// How far each pawn has come, in ranks.
    PAWN_ADVANCE = "pawn.advance",
    /// The same, squared: the last steps matter most.
    PAWN_ADVANCE2 = "pawn.advance2",
    /// A pawn with no enemy pawn ahead on its own or a next file.
    PASSED = "pawn.passed",
    /// A passed pawn's ranks come, squared.
    PASSED_ADVANCE2 = "pawn.passed-advance2",
    /// A second (third...) pawn on a file.
    DOUBLED = "pawn.doubled",
    /// A pawn with no friendly pawn on the files beside it.
    ISOLATED = "pawn.isolated",
    /// Both bishops.
    BISHOP_PAIR = "bishop.pair",
    /// A rook on a file without pawns.
    ROOK_OPEN = "rook.open-file",
    /// A rook on a file without own pawns but with enemy ones.
    ROOK_HALF_OPEN = "rook.half-open-file",
    /// Own pawns one or two ranks in front of the king, on its file or next.
    KING_SHELTER = "king.shelter",
    /// Files at or beside the king with no own pawn.
    KING_OPEN_FILES = "king.open-files",
    /// Enemy pieces (pawns and king aside) within two squares of the king.
    KING_NEAR_ENEMIES = "king.near-enemies",
    /// The king is attacked (in the games where it can then be taken or
    /// threatened through holes).
    KING_ATTACKED = "king.attacked",
    /// Void Chess: a piece on its owner's unstable tile (it falls unless it
    /// moves), counted once...
    UNSTABLE_PIECE = "void.unstable-piece",
    /// ...and by its value, in pawns.
    UNSTABLE_VALUE = "void.unstable-value",
    /// Void Chess: empty squares next to the king.
    KING_EXITS = "void.king-exits",
    /// Void Chess: voids next to the king.
    KING_VOIDS = "void.king-voids",
    /// Void Chess: voids two squares from the king (a wall further out).
    KING_VOID_WALL = "void.king-wall",
    /// Void Chess: voids beside a Minister, which it could heal (three at most).
    MINISTER_HEALS = "void.minister-heals",
    /// Super Chess: the king beside its own Fortress.
    FORTRESS_KING = "fortress.king",
    /// Super Chess: another piece beside its own Fortress.
    FORTRESS_PIECE = "fortress.piece",
    /// With a lead of four pawns or more: the losing king's distance from
    /// the centre...
    HUNT_EDGE = "hunt.edge",
    /// ...and how close the kings are (the winner's king helps).
    HUNT_CLOSE = "hunt.close",
    /// An enemy piece (pawns and king aside) a pawn attacks: it must move.
    PAWN_THREAT = "threat.pawn",
    /// A pawn another pawn of its side defends.
    PAWN_PROTECTED = "pawn.protected",
    /// A passed pawn: the enemy king's distance from the square in front
    /// of it less its own king's (the kings race for it in the endgame).
    PASSED_KINGS = "pawn.passed-kings",
    /// A rook on the rank before the enemy's back rank.
    ROOK_SEVENTH = "rook.seventh",
    /// Standard chess: an enemy piece attacked by a piece of ours worth a
    /// pawn or more less than it (a knight or bishop on a rook or queen, a
    /// rook on a queen), with us to move: a threat to cash in...
    THREAT_LESSER = "threat.lesser",
    /// ...and with the enemy to move, who may step away (or strike first).
    THREAT_LESSER_WAITING = "threat.lesser-waiting",
    /// Standard chess: an enemy piece (not a pawn, not the king) attacked
    /// and not defended, with us to move...
    HANGING = "threat.hanging",
    /// ...and with the enemy to move.
    HANGING_WAITING = "threat.hanging-waiting",
    /// Standard chess: an enemy pawn attacked and not defended, with us to
    /// move...
    HANGING_PAWN = "threat.hanging-pawn",
    /// ...and with the enemy to move.
    HANGING_PAWN_WAITING = "threat.hanging-pawn-waiting",
}

/// Where the piece-square terms start: after the role terms and the named.
const SQUARE_BASE: usize = 3 * ROLES + NAMED.len();

/// Standard chess's piece-square terms: one for each of its six roles
/// (the first six of [`Role::ALL`]) on each square of half the board. A
/// file and its mirror (a and h, b and g...) share a term, and ranks count
/// from the piece's own side, so one table serves both colours and both
/// wings with a quarter of the weights to fit.
const SQUARE_ROLES: usize = 6;
const HALF_BOARD: usize = 32;

/// How many terms there are.
pub const COUNT: usize = SQUARE_BASE + SQUARE_ROLES * HALF_BOARD;

impl Term {
    /// The value of a piece of `role`.
    pub const fn material(role: Role) -> Term {
        Term(role.index() as u16)
    }

    /// Per square a piece of `role` reaches.
    pub const fn mobility(role: Role) -> Term {
        Term((ROLES + role.index()) as u16)
    }

    /// Per step a piece of `role` stands nearer the centre (0 in a corner).
    pub const fn centre(role: Role) -> Term {
        Term((2 * ROLES + role.index()) as u16)
    }

    /// Standard chess: a piece of `role` on file `file` (0-7), `rank` ranks
    /// (0-7) from its own side. `None` for the other roles.
    pub fn square(role: Role, file: u8, rank: u8) -> Option<Term> {
        (role.index() < SQUARE_ROLES && file < 8 && rank < 8).then(|| {
            let wing = file.min(7 - file) as usize;
            Term((SQUARE_BASE + role.index() * HALF_BOARD + rank as usize * 4 + wing) as u16)
        })
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The role a material, mobility or centre term is about.
    pub fn role(self) -> Option<Role> {
        (self.index() < 3 * ROLES).then(|| Role::ALL[self.index() % ROLES])
    }

    /// Every term, in order.
    pub fn all() -> impl Iterator<Item = Term> {
        (0..COUNT as u16).map(Term)
    }

    /// The term's name: `material.knight`, `pawn.passed`.
    pub fn name(self) -> String {
        let i = self.index();
        let role = |k: usize| Role::ALL[i - k * ROLES].name().replace(' ', "-");
        match i / ROLES {
            0 => format!("material.{}", role(0)),
            1 => format!("mobility.{}", role(1)),
            2 => format!("centre.{}", role(2)),
            _ if i < SQUARE_BASE => NAMED[i - 3 * ROLES].to_string(),
            _ => {
                let k = i - SQUARE_BASE;
                let (role, at) = (Role::ALL[k / HALF_BOARD], k % HALF_BOARD);
                let file = (b'a' + (at % 4) as u8) as char;
                format!("square.{}.{file}{}", role.name(), at / 4 + 1)
            }
        }
    }

    /// The term named `name`.
    pub fn named(name: &str) -> Option<Term> {
        Term::all().find(|t| t.name() == name)
    }
}

/// Where the terms counted go: the score, or the tuner's records.
pub trait Sink {
    /// `value`: White's count less Black's.
    fn add(&mut self, term: Term, value: i32);
}

fn sign(c: Color) -> i32 {
    if c == Color::White {
        1
    } else {
        -1
    }
}

/// Pawns of one side, by file: how many, and the lowest and highest rank
/// one stands on.
#[derive(Clone, Copy)]
struct PawnFiles {
    count: [u8; 16],
    lowest: [u8; 16],
    highest: [u8; 16],
}

impl PawnFiles {
    /// Both sides' pawns, White's first, and the pieces of each side as a
    /// list of squares and pieces, so that the terms walk a short list
    /// instead of asking the board square by square.
    fn of(pos: &Position) -> ([PawnFiles; 2], [Pieces; 2]) {
        let empty = PawnFiles {
            count: [0; 16],
            lowest: [u8::MAX; 16],
            highest: [0; 16],
        };
        let mut files = [empty; 2];
        let mut pieces = [Pieces::new(), Pieces::new()];
        for c in Color::ALL {
            let p = &mut files[c.index()];
            for sq in pos.board().occupied(c).iter() {
                let Some(piece) = pos.piece_at(sq) else {
                    continue;
                };
                pieces[c.index()].push((sq, piece.role));
                if piece.role == Role::Pawn {
                    let (f, r) = (sq.file() as usize, sq.rank());
                    p.count[f] += 1;
                    p.lowest[f] = p.lowest[f].min(r);
                    p.highest[f] = p.highest[f].max(r);
                }
            }
        }
        (files, pieces)
    }

    /// Files `f - 1 ..= f + 1` on a board of `files` files.
    fn around(f: usize, files: usize) -> std::ops::RangeInclusive<usize> {
        f.saturating_sub(1)..=(f + 1).min(files - 1)
    }
}

/// One side's pieces and their squares. A 16x16 board holds at most 256.
type Pieces = arrayvec::ArrayVec<(Square, Role), 256>;

/// Steps from the nearest corner towards the centre: 0 in a corner, 6 in
/// the middle of an 8x8 board.
fn centrality(sq: Square, files: i32, ranks: i32) -> i32 {
    let f = (2 * sq.file() as i32 - (files - 1)).abs();
    let r = (2 * sq.rank() as i32 - (ranks - 1)).abs();
    (files - 1 + ranks - 1 - f - r) / 2
}

/// Counts every term of `pos` into `sink`.
pub fn features(pos: &Position, sink: &mut impl Sink) {
    let kind = pos.rules().kind();
    let size = pos.rules().size();
    let (files, ranks) = (size.files() as usize, size.ranks() as usize);
    let last = ranks as u8 - 1;
    let b = pos.board();
    let (pawns, pieces) = PawnFiles::of(pos);
    let giveaway = pos.rules().is_giveaway();
    let standard = kind == Some(GameKind::Standard);
    // Standard chess counts threats, so it takes each side's attacks in one
    // pass, and its pieces' mobility with them.
    let attacks = if standard { pos.attacks() } else { None };
    sink.add(Term::TEMPO, sign(pos.turn()));
    for c in Color::ALL {
        let s = sign(c);
        let (mine, theirs) = (&pawns[c.index()], &pawns[(!c).index()]);
        let mut bishops = 0;
        // Enemy pieces (pawns and king aside) within two squares of the
        // other side's king, for its safety.
        let their_king = b.king(!c);
        let mut near_their_king = 0;
        // Ranks come from c's side, and the ranks ahead of and behind one.
        let progress_of = |r: u8| if c == Color::White { r } else { last - r } as i32;
        let forward = |r: u8, step: i8| {
            let to = r as i8 + if c == Color::White { step } else { -step };
            (0..ranks as i8).contains(&to).then_some(to as u8)
        };
        let ahead = |r: u8| forward(r, 1);
        let behind = |r: u8| forward(r, -1);
        for &(sq, role) in &pieces[c.index()] {
            sink.add(Term::material(role), s);
            if standard {
                let rank = progress_of(sq.rank()) as u8;
                if let Some(t) = Term::square(role, sq.file(), rank) {
                    sink.add(t, s);
                }
            }
            sink.add(
                Term::centre(role),
                s * centrality(sq, files as i32, ranks as i32),
            );
            let (f, r) = (sq.file() as usize, sq.rank());
            if !matches!(role, Role::Pawn | Role::King)
                && their_king.is_some_and(|k| sq.distance(k) <= 2)
            {
                near_their_king += 1;
            }
            match role {
                Role::Pawn => {
                    let progress = progress_of(r);
                    sink.add(Term::PAWN_ADVANCE, s * progress);
                    sink.add(Term::PAWN_ADVANCE2, s * progress * progress);
                    let blocked = PawnFiles::around(f, files).any(|g| {
                        theirs.count[g] > 0
                            && if c == Color::White {
                                theirs.highest[g] > r
                            } else {
                                theirs.lowest[g] < r
                            }
                    });
                    if !blocked {
                        sink.add(Term::PASSED, s);
                        sink.add(Term::PASSED_ADVANCE2, s * progress * progress);
                        if let (Some(ours), Some(theirs), Some(stop)) = (
                            b.king(c),
                            their_king,
                            ahead(r).map(|a| Square::new(f as u8, a)),
                        ) {
                            let race = stop.distance(theirs) as i32 - stop.distance(ours) as i32;
                            sink.add(Term::PASSED_KINGS, s * race);
                        }
                    }
                    // The squares a pawn attacks, and those of the pawns
                    // that would defend it.
                    let beside = |rank: Option<u8>| {
                        [f.checked_sub(1), Some(f + 1).filter(|&g| g < files)]
                            .into_iter()
                            .flatten()
                            .filter_map(move |g| Some(Square::new(g as u8, rank?)))
                    };
                    let threats = beside(ahead(r))
                        .filter(|&t| {
                            pos.piece_at(t).is_some_and(|q| {
                                q.color != c && !matches!(q.role, Role::Pawn | Role::King)
                            })
                        })
                        .count() as i32;
                    sink.add(Term::PAWN_THREAT, s * threats);
                    let defended = beside(behind(r)).any(|t| {
                        pos.piece_at(t)
                            .is_some_and(|q| q.color == c && q.role == Role::Pawn)
                    });
                    if defended {
                        sink.add(Term::PAWN_PROTECTED, s);
                    }
                    let alone = PawnFiles::around(f, files).all(|g| g == f || mine.count[g] == 0);
                    if alone {
                        sink.add(Term::ISOLATED, s);
                    }
                }
                Role::King => {}
                role => {
                    if attacks.is_none() {
                        sink.add(Term::mobility(role), s * pos.reach(sq) as i32);
                    }
                    if role == Role::Bishop {
                        bishops += 1;
                    }
                    if role == Role::Rook && progress_of(r) == last as i32 - 1 {
                        sink.add(Term::ROOK_SEVENTH, s);
                    }
                    if role == Role::Rook && mine.count[f] == 0 {
                        if theirs.count[f] == 0 {
                            sink.add(Term::ROOK_OPEN, s);
                        } else {
                            sink.add(Term::ROOK_HALF_OPEN, s);
                        }
                    }
                }
            }
        }
        if bishops >= 2 {
            sink.add(Term::BISHOP_PAIR, s);
        }
        if let Some(a) = &attacks {
            for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
                sink.add(Term::mobility(role), s * a.reach(c, role) as i32);
            }
            threats(pos, a, c, &pieces[(!c).index()], sink);
        }
        let doubled: i32 = mine.count[..files]
            .iter()
            .map(|&n| (n as i32 - 1).max(0))
            .sum();
        sink.add(Term::DOUBLED, s * doubled);
        if giveaway {
            continue;
        }
        if let Some(k) = their_king {
            sink.add(Term::KING_NEAR_ENEMIES, -s * near_their_king);
            king_safety(pos, !c, k, theirs, sink);
        }
    }
    match kind {
        Some(GameKind::Void) => void_tiles(pos, sink),
        Some(GameKind::Chess99 | GameKind::BlackHoles) => kings_attacked(pos, sink),
        Some(GameKind::Super16) => {
            fortress_shelter(pos, sink);
            king_hunt(pos, sink);
        }
        Some(
            GameKind::Standard
            | GameKind::Antichess
            | GameKind::SuicideVoid
            | GameKind::SuicideVoidPromotionWins
            | GameKind::Defined(_),
        )
        | None => {}
    }
}

/// What `c`'s pieces threaten among `theirs` (the enemy's pieces): those
/// attacked by a lesser piece, and those left undefended. A threat weighs
/// more for the side to move, who can carry it out, than for the side that
/// waits while the enemy moves, so each term comes in both.
fn threats(pos: &Position, a: &Attacks, c: Color, theirs: &[(Square, Role)], sink: &mut impl Sink) {
    let s = sign(c);
    let to_move = pos.turn() == c;
    for &(sq, role) in theirs {
        if role == Role::King || !a.attacked(c, sq) {
            continue;
        }
        let lesser = role != Role::Pawn
            && a.roles(c, sq)
                .any(|r| !matches!(r, Role::Pawn | Role::King) && value(r) + 100 <= value(role));
        if lesser {
            let t = if to_move {
                Term::THREAT_LESSER
            } else {
                Term::THREAT_LESSER_WAITING
            };
            sink.add(t, s);
        }
        if !a.attacked(!c, sq) {
            let t = match (role == Role::Pawn, to_move) {
                (false, true) => Term::HANGING,
                (false, false) => Term::HANGING_WAITING,
                (true, true) => Term::HANGING_PAWN,
                (true, false) => Term::HANGING_PAWN_WAITING,
            };
            sink.add(t, s);
        }
    }
}

fn king_safety(pos: &Position, c: Color, k: Square, mine: &PawnFiles, sink: &mut impl Sink) {
    let s = sign(c);
    let files = pos.rules().size().files() as usize;
    let (kf, kr) = (k.file() as i32, k.rank() as i32);
    let ahead = if c == Color::White { 1 } else { -1 };
    let mut shelter = 0;
    let mut open = 0;
    for f in PawnFiles::around(kf as usize, files) {
        if mine.count[f] == 0 {
            open += 1;
            continue;
        }
        for step in 1..=2 {
            let r = kr + ahead * step;
            if r >= 0 && (r as u8) < pos.rules().size().ranks() {
                let sq = Square::new(f as u8, r as u8);
                if pos
                    .piece_at(sq)
                    .is_some_and(|p| p.color == c && p.role == Role::Pawn)
                {
                    shelter += 1;
                }
            }
        }
    }
    sink.add(Term::KING_SHELTER, s * shelter);
    sink.add(Term::KING_OPEN_FILES, s * open);
}

/// Void Chess's tiles: pieces on unstable tiles, voids around the kings,
/// voids a Minister could heal.
fn void_tiles(pos: &Position, sink: &mut impl Sink) {
    let b = pos.board();
    for c in Color::ALL {
        let s = sign(c);
        if let Some(u) = b.unstable(c) {
            if let Some(p) = pos.piece_at(u.square).filter(|p| p.color == c) {
                if p.role != Role::Minister {
                    sink.add(Term::UNSTABLE_PIECE, s);
                    sink.add(Term::UNSTABLE_VALUE, s * value(p.role) / 100);
                }
            }
        }
        if let Some(k) = b.king(c) {
            let (mut exits, mut voids) = (0, 0);
            for sq in super::neighbours(pos, k) {
                match pos.tile(sq) {
                    Tile::Void => voids += 1,
                    _ if pos.piece_at(sq).is_none() => exits += 1,
                    _ => {}
                }
            }
            sink.add(Term::KING_EXITS, s * exits);
            sink.add(Term::KING_VOIDS, s * voids);
            let wall = b.voids().iter().filter(|v| v.distance(k) == 2).count() as i32;
            sink.add(Term::KING_VOID_WALL, s * wall);
        }
        for sq in b.occupied(c).iter() {
            if pos.piece_at(sq).is_some_and(|p| p.role == Role::Minister) {
                let healable = super::neighbours(pos, sq)
                    .filter(|n| pos.tile(*n) == Tile::Void)
                    .count() as i32;
                sink.add(Term::MINISTER_HEALS, s * healable.min(3));
            }
        }
    }
}

/// Chess 99 and Black Holes: a king in reach can be taken or threatened.
fn kings_attacked(pos: &Position, sink: &mut impl Sink) {
    for c in Color::ALL {
        if let Some(k) = pos.board().king(c) {
            if pos.is_attacked(k, !c) {
                sink.add(Term::KING_ATTACKED, sign(c));
            }
        }
    }
}

/// Super Chess: pieces next to their own Fortress are shielded from all but
/// royal capturers.
fn fortress_shelter(pos: &Position, sink: &mut impl Sink) {
    let b = pos.board();
    for c in Color::ALL {
        // A side has a Fortress or two: each piece asks whether one stands
        // a king's step away, not what stands on each of its eight
        // neighbours (this runs at every evaluation).
        if b.count(c, Role::Fortress) == 0 {
            continue;
        }
        let fortresses: arrayvec::ArrayVec<Square, 256> = b
            .occupied(c)
            .iter()
            .filter(|&sq| pos.piece_at(sq).is_some_and(|p| p.role == Role::Fortress))
            .collect();
        for sq in b.occupied(c).iter() {
            let Some(p) = pos.piece_at(sq) else { continue };
            let sheltered = fortresses.iter().any(|&f| sq.distance(f) == 1);
            if sheltered {
                let term = if p.role == Role::King {
                    Term::FORTRESS_KING
                } else {
                    Term::FORTRESS_PIECE
                };
                sink.add(term, sign(c));
            }
        }
    }
}

/// With a clear lead on a big board, the losing king belongs at the edge
/// and the winning king near it: the long way to a mate.
fn king_hunt(pos: &Position, sink: &mut impl Sink) {
    let Some(([white, black], close)) = super::hunt(pos) else {
        return;
    };
    let b = pos.board();
    let lead: i32 = Color::ALL
        .into_iter()
        .flat_map(|c| b.occupied(c).iter().map(move |sq| (c, sq)))
        .filter_map(|(c, sq)| pos.piece_at(sq).map(|p| sign(c) * value(p.role)))
        .sum();
    if lead > 400 {
        sink.add(Term::HUNT_EDGE, black);
        sink.add(Term::HUNT_CLOSE, close);
    } else if lead < -400 {
        sink.add(Term::HUNT_EDGE, -white);
        sink.add(Term::HUNT_CLOSE, -close);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use voidmate_rules::variants;

    #[derive(Default)]
    struct Counts(Vec<(Term, i32)>);

    impl Sink for Counts {
        fn add(&mut self, term: Term, value: i32) {
            self.0.push((term, value));
        }
    }

    fn count(fen: &str, term: Term) -> i32 {
        counted(
            &Position::from_fen(variants::standard(), fen).unwrap(),
            term,
        )
    }

    /// White's count of `term` in `pos`, less Black's.
    fn counted(pos: &Position, term: Term) -> i32 {
        let mut counts = Counts::default();
        features(pos, &mut counts);
        counts
            .0
            .iter()
            .filter(|(t, _)| *t == term)
            .map(|(_, v)| v)
            .sum()
    }

    #[test]
    fn void_walls_near_a_king_and_voids_a_minister_can_heal_are_counted() {
        let void = |fen: &str| Position::from_fen(variants::void(), fen).unwrap();
        let open = void("4k4/9/9/9/9/9/9/9/4K4 w - - 0 1");
        let walled = void("4k4/9/9/9/9/9/9/9/4K4 w - - 0 1 void:c3,d3,e3,f3,g3");
        assert_eq!(counted(&open, Term::KING_VOID_WALL), 0);
        assert_eq!(
            counted(&walled, Term::KING_VOID_WALL),
            5,
            "a wall before White's king"
        );
        let hemmed = void("4k4/9/9/9/9/9/9/9/4K4 b - - 0 1 void:d2,e2,f2");
        assert_eq!(counted(&hemmed, Term::KING_VOIDS), 3);
        assert_eq!(
            counted(&hemmed, Term::KING_EXITS),
            2 - 5,
            "d1, f1 against Black's five"
        );
        let near = void("4k4/9/9/9/9/9/9/9/4K3M w - - 0 1 void:h2,i2");
        let far = void("4k4/9/9/9/9/9/9/9/4K3M w - - 0 1 void:a5,b5");
        assert_eq!(counted(&near, Term::MINISTER_HEALS), 2);
        assert_eq!(counted(&far, Term::MINISTER_HEALS), 0);
        let flipped = void("4k3m/9/9/9/9/9/9/9/4K4 w - - 0 1 void:h8,i8,h9");
        assert_eq!(
            counted(&flipped, Term::MINISTER_HEALS),
            -3,
            "Black's Minister in the corner: h8, i8, h9"
        );
    }

    #[test]
    fn every_term_has_one_name_and_is_found_by_it() {
        let names: std::collections::HashSet<String> = Term::all().map(|t| t.name()).collect();
        assert_eq!(names.len(), COUNT);
        assert_eq!(
            Term::named("material.knight"),
            Some(Term::material(Role::Knight))
        );
        assert_eq!(Term::named("pawn.passed"), Some(Term::PASSED));
        assert_eq!(
            Term::named("mobility.super-knight"),
            Some(Term::mobility(Role::SuperKnight))
        );
        assert_eq!(Term::named("nonsense"), None);
    }

    #[test]
    fn pawn_structure_is_counted_for_both_sides() {
        // White: doubled isolated a-pawns, a passed d-pawn on d6. Black: h7.
        let fen = "4k3/7p/3P4/8/8/P7/P7/4K3 w - - 0 1";
        assert_eq!(count(fen, Term::DOUBLED), 1);
        assert_eq!(count(fen, Term::ISOLATED), 3 - 1, "three white, one black");
        assert_eq!(count(fen, Term::PASSED), 3 - 1);
        assert_eq!(count(fen, Term::PASSED_ADVANCE2), 25 + 4 + 1 - 1);
        // A black pawn ahead on the next file stops d6 being passed (and d6
        // stops c7): only Black's h-pawn is left passed.
        assert_eq!(
            count("4k3/2p4p/3P4/8/8/8/8/4K3 w - - 0 1", Term::PASSED),
            -1
        );
    }

    #[test]
    fn threats_by_lesser_pieces_and_undefended_pieces_count_for_whoever_may_strike() {
        // The knight on c3 attacks the black queen, which nothing defends;
        // the queen attacks the undefended rook on h1. White to move.
        let fen = "4k3/8/8/3q4/8/2N5/8/4K2R w K - 0 1";
        assert_eq!(count(fen, Term::THREAT_LESSER), 1);
        assert_eq!(count(fen, Term::THREAT_LESSER_WAITING), 0);
        assert_eq!(count(fen, Term::HANGING), 1, "the queen");
        assert_eq!(count(fen, Term::HANGING_WAITING), -1, "the rook");
        // Black to move: the same threats, waiting and to move swapped.
        let fen = "4k3/8/8/3q4/8/2N5/8/4K2R b K - 0 1";
        assert_eq!(count(fen, Term::THREAT_LESSER), 0);
        assert_eq!(count(fen, Term::THREAT_LESSER_WAITING), 1);
        assert_eq!(count(fen, Term::HANGING), -1);
        assert_eq!(count(fen, Term::HANGING_WAITING), 1);
        // A queen attacking a rook is no lesser threat; a defended rook
        // does not hang.
        let queen_on_rook = "4k3/8/8/3q4/8/8/8/6KR b - - 0 1";
        assert_eq!(count(queen_on_rook, Term::THREAT_LESSER), 0);
        assert_eq!(count(queen_on_rook, Term::HANGING), 0);
        assert_eq!(count(queen_on_rook, Term::HANGING_WAITING), 0);
        // A pawn alone on d5 under the rook's eye hangs; with e6 beside it,
        // not.
        assert_eq!(
            count("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", Term::HANGING_PAWN),
            1
        );
        assert_eq!(
            count("4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1", Term::HANGING_PAWN),
            0
        );
        // The king is never counted, and other games count no threats:
        // antichess, with the first position's pieces, counts none.
        assert_eq!(
            count("4k3/8/8/8/8/8/8/3KR3 b - - 0 1", Term::HANGING_WAITING),
            0
        );
        let giveaway =
            Position::from_fen(variants::antichess(), "4k3/8/8/3q4/8/2N5/8/4K2R w - - 0 1")
                .unwrap();
        for t in [Term::THREAT_LESSER, Term::HANGING, Term::HANGING_WAITING] {
            assert_eq!(counted(&giveaway, t), 0);
        }
    }

    #[test]
    fn standard_mobility_from_the_attack_sets_is_each_piece_s_reach() {
        let mut pos = Position::new(variants::standard());
        for san in [
            "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1",
        ] {
            let m = pos.parse_move(san).unwrap();
            pos.play(&m).unwrap();
        }
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            let expected: i32 = pos
                .rules()
                .size()
                .squares()
                .filter_map(|sq| pos.piece_at(sq).filter(|p| p.role == role).map(|p| (sq, p)))
                .map(|(sq, p)| sign(p.color) * pos.reach(sq) as i32)
                .sum();
            assert_eq!(counted(&pos, Term::mobility(role)), expected, "{role:?}");
        }
    }

    #[test]
    fn pawn_threats_defended_pawns_rooks_on_the_seventh_and_the_kings_race() {
        // e4 attacks the knight on d5 and is defended by d3.
        let fen = "4k3/8/8/3n4/4P3/3P4/8/4K3 w - - 0 1";
        assert_eq!(count(fen, Term::PAWN_THREAT), 1);
        assert_eq!(count(fen, Term::PAWN_PROTECTED), 1);
        // A pawn attacking a pawn or the king is no threat by this term.
        assert_eq!(
            count("8/8/8/3pk3/4P3/8/8/4K3 w - - 0 1", Term::PAWN_THREAT),
            0
        );
        assert_eq!(
            count("4k3/R7/8/8/8/8/8/4K3 w - - 0 1", Term::ROOK_SEVENTH),
            1
        );
        assert_eq!(
            count("4k3/8/8/8/8/8/r7/4K3 w - - 0 1", Term::ROOK_SEVENTH),
            -1
        );
        // The a-pawn's square in front is a3: Black's king is one step
        // away, White's seven.
        assert_eq!(
            count("8/8/8/8/1k6/8/P7/7K w - - 0 1", Term::PASSED_KINGS),
            1 - 7
        );
    }

    /// Super Chess's shelter terms, counted from where the Fortresses
    /// stand, agree with the rule read square by square (a piece with its
    /// own Fortress on one of its eight neighbours) in every position of a
    /// long, varied game, captures and promotions included.
    #[test]
    fn fortress_shelter_counts_the_pieces_beside_their_own_fortress() {
        let mut pos = Position::new(variants::super16());
        let mut sheltered_seen = 0;
        for ply in 0..400usize {
            let mut expected = [0; 2];
            for c in Color::ALL {
                for sq in pos.board().occupied(c).iter() {
                    let p = pos.piece_at(sq).unwrap();
                    let beside = super::super::neighbours(&pos, sq).any(|n| {
                        pos.piece_at(n)
                            .is_some_and(|q| q.color == c && q.role == Role::Fortress)
                    });
                    if beside {
                        let i = usize::from(p.role != Role::King);
                        expected[i] += sign(c);
                        sheltered_seen += 1;
                    }
                }
            }
            assert_eq!(counted(&pos, Term::FORTRESS_KING), expected[0], "ply {ply}");
            assert_eq!(
                counted(&pos, Term::FORTRESS_PIECE),
                expected[1],
                "ply {ply}"
            );
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Captures first when there are any, so the board thins out.
            let captures: Vec<_> = moves
                .iter()
                .filter(|m| pos.piece_at(m.to).is_some())
                .collect();
            let m = if ply % 3 == 0 && !captures.is_empty() {
                *captures[ply * 7 % captures.len()]
            } else {
                moves[(ply * 31 + 17) % moves.len()]
            };
            pos.play(&m).unwrap();
        }
        assert!(
            sheltered_seen > 100,
            "the game kept pieces beside Fortresses"
        );
    }

    #[test]
    fn mobility_and_shelter_and_rooks_on_open_files() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(
            count(start, Term::mobility(Role::Knight)),
            0,
            "even at the start"
        );
        assert_eq!(
            count(
                "4k3/8/8/8/8/8/8/N3K3 w - - 0 1",
                Term::mobility(Role::Knight)
            ),
            2
        );
        assert_eq!(
            count(
                "4k3/8/8/8/3N4/8/8/4K3 w - - 0 1",
                Term::mobility(Role::Knight)
            ),
            8
        );
        assert_eq!(
            count("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", Term::ROOK_OPEN),
            1
        );
        assert_eq!(
            count("6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1", Term::KING_SHELTER),
            0
        );
        assert_eq!(
            count("6k1/8/8/8/8/8/5PPP/6K1 w - - 0 1", Term::KING_SHELTER),
            3
        );
        assert_eq!(count("6k1/8/8/8/8/8/5PPP/6K1 w - - 0 1", Term::TEMPO), 1);
        assert_eq!(count("6k1/8/8/8/8/8/5PPP/6K1 b - - 0 1", Term::TEMPO), -1);
    }

    /// Every square term counted in `pos`, with White's count less Black's.
    fn square_counts(pos: &Position) -> Vec<(Term, i32)> {
        let mut counts = Counts::default();
        features(pos, &mut counts);
        counts
            .0
            .into_iter()
            .filter(|(t, _)| t.index() >= SQUARE_BASE)
            .collect()
    }

    #[test]
    fn square_terms_are_named_by_the_half_board_and_only_for_standard_roles() {
        // a1..d1 then a2: files mirror, ranks count from the piece's side.
        assert_eq!(
            Term::square(Role::Pawn, 4, 1).map(Term::name).as_deref(),
            Some("square.pawn.d2"),
            "e2 shares d2's term"
        );
        assert_eq!(
            Term::named("square.king.a1"),
            Term::square(Role::King, 7, 0),
            "h1 is a1's mirror"
        );
        assert_eq!(
            Term::named("square.queen.d8").map(Term::index),
            Some(COUNT - 1 - 32),
            "the queen's last square, before the king's 32"
        );
        assert_eq!(Term::square(Role::Minister, 0, 0), None);
        assert_eq!(Term::square(Role::Paladin, 3, 3), None);
        assert_eq!(Term::square(Role::Knight, 8, 0), None, "no ninth file");
        assert_eq!(Term::square(Role::Knight, 0, 8), None, "no ninth rank");
        let squares: std::collections::HashSet<Term> = Role::ALL[..6]
            .iter()
            .flat_map(|&r| (0..8).flat_map(move |f| (0..8).map(move |k| (r, f, k))))
            .filter_map(|(r, f, k)| Term::square(r, f, k))
            .collect();
        assert_eq!(squares.len(), 6 * 32, "each term for one mirrored pair");
        assert!(squares
            .iter()
            .all(|t| t.index() >= SQUARE_BASE && t.index() < COUNT));
    }

    #[test]
    fn square_terms_mirror_across_colours_and_wings() {
        let standard = |fen: &str| Position::from_fen(variants::standard(), fen).unwrap();
        let knight_b1 = Term::square(Role::Knight, 1, 0).unwrap();
        // A white knight on g1 counts as one on b1; a black one on b8 too,
        // from Black's side, and the two cancel.
        assert_eq!(
            counted(&standard("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1"), knight_b1),
            1
        );
        assert_eq!(
            counted(&standard("1n2k3/8/8/8/8/8/8/4K3 w - - 0 1"), knight_b1),
            -1
        );
        assert_eq!(
            counted(&standard("1n2k3/8/8/8/8/8/8/4K1N1 w - - 0 1"), knight_b1),
            0
        );
        // The start position is its own mirror: every square term cancels,
        // and each of the 32 pieces was counted on its own side.
        let start = standard("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let counts = square_counts(&start);
        assert_eq!(counts.len(), 32);
        let mut net = std::collections::HashMap::new();
        for (t, v) in counts {
            *net.entry(t).or_insert(0) += v;
        }
        assert!(net.values().all(|&v| v == 0), "{net:?}");
        // A pawn on e4 is a pawn on d4 counted from White's side, and a
        // black pawn on e5 is the same term from Black's.
        let d4 = Term::square(Role::Pawn, 3, 3).unwrap();
        assert_eq!(counted(&standard("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1"), d4), 1);
        assert_eq!(
            counted(&standard("4k3/8/8/4p3/8/8/8/4K3 w - - 0 1"), d4),
            -1
        );
    }

    #[test]
    fn square_terms_are_counted_in_standard_chess_alone() {
        let standard = Position::new(variants::standard());
        assert_eq!(square_counts(&standard).len(), 32);
        for pos in [
            Position::new(variants::void()),
            Position::new(variants::chess99()),
            Position::new(variants::antichess()),
            Position::new(variants::super16()),
        ] {
            assert!(square_counts(&pos).is_empty(), "{}", pos.fen());
        }
    }
}
