//! Every square each side attacks, by role, found in one pass over the
//! pieces: what an evaluation asks of a whole position at once (threats to
//! pieces, pieces left undefended, each role's freedom) rather than square
//! by square, as [`Position::is_attacked`](crate::Position::is_attacked)
//! answers a move generator.

use crate::bits::{Bits, ROLES};
use crate::{Color, Role, Square};

/// The squares each side's pieces attack (could capture on, were an enemy
/// piece there; own pieces so reached are defended), by role, and how many
/// squares each role's pieces reach as [`Position::reach`] counts them.
/// Built by [`Position::attacks`](crate::Position::attacks).
///
/// [`Position::reach`]: crate::Position::reach
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attacks {
    width: u8,
    /// Every square of the board.
    board: Bits,
    by: [[Bits; ROLES]; 2],
    /// Each side's attacks, every role together: an evaluation asks this
    /// most often.
    all: [Bits; 2],
    reach: [[u32; ROLES]; 2],
    checks: [[u32; ROLES]; 2],
}

impl Attacks {
    pub(crate) fn new(
        width: u8,
        board: Bits,
        by: [[Bits; ROLES]; 2],
        reach: [[u32; ROLES]; 2],
        checks: [[u32; ROLES]; 2],
    ) -> Attacks {
        let all = by.map(|sets| sets.iter().fold(0, |acc, &set| acc | set));
        Attacks {
            width,
            board,
            by,
            all,
            reach,
            checks,
        }
    }

    #[inline]
    fn mask(&self, sq: Square) -> Bits {
        1 << sq.bit_on(self.width)
    }

    /// Is `sq` attacked by a piece of `by`?
    #[inline]
    pub fn attacked(&self, by: Color, sq: Square) -> bool {
        self.all[by.index()] & self.mask(sq) != 0
    }

    /// Is `sq` attacked by a piece of `by` of role `role`?
    #[inline]
    pub fn attacked_by(&self, by: Color, role: Role, sq: Square) -> bool {
        role.index() < ROLES && self.by[by.index()][role.index()] & self.mask(sq) != 0
    }

    /// The roles of `by`'s pieces that attack `sq`.
    pub fn roles(&self, by: Color, sq: Square) -> impl Iterator<Item = Role> + '_ {
        let m = self.mask(sq);
        (0..ROLES)
            .filter(move |&r| self.by[by.index()][r] & m != 0)
            .map(|r| Role::from_index(r as u8))
    }

    /// The squares within one step of `around`, `around` included: a
    /// king's zone, whose attackers an evaluation counts.
    pub fn zone(&self, around: Square) -> Zone {
        let (w, f0, r0) = (
            i32::from(self.width),
            i32::from(around.file()),
            i32::from(around.rank()),
        );
        let mut set: Bits = 0;
        for r in r0 - 1..=r0 + 1 {
            for f in f0 - 1..=f0 + 1 {
                let bit = r * w + f;
                if (0..w).contains(&f) && r >= 0 && bit < 128 {
                    set |= 1 << bit;
                }
            }
        }
        Zone(set & self.board)
    }

    /// How many squares of `zone` `by`'s pieces of role `role` attack.
    #[inline]
    pub fn hits(&self, by: Color, role: Role, zone: Zone) -> u32 {
        if role.index() < ROLES {
            (self.by[by.index()][role.index()] & zone.0).count_ones()
        } else {
            0
        }
    }

    /// How many squares of `zone` `by` attacks that the other side defends
    /// with its king alone, or not at all: where an attack on a king gets
    /// in.
    pub fn weak_hits(&self, by: Color, zone: Zone) -> u32 {
        let defender = &self.by[(!by).index()];
        let defended = (0..ROLES)
            .filter(|&r| r != Role::King.index())
            .fold(0, |acc, r| acc | defender[r]);
        (self.all[by.index()] & zone.0 & !defended).count_ones()
    }

    /// How many safe checks `by`'s pieces of role `role` have: squares
    /// from which such a piece would attack the enemy king, that one of
    /// them can move to, and that the enemy does not attack. Counted for
    /// pieces whose moves go both ways (all of standard chess's); 0 for
    /// the others, and when the enemy has no king or more than one.
    #[inline]
    pub fn safe_checks(&self, by: Color, role: Role) -> u32 {
        if role.index() < ROLES {
            self.checks[by.index()][role.index()]
        } else {
            0
        }
    }

    /// How many squares `by`'s pieces of role `role` reach together, each
    /// counted as [`Position::reach`](crate::Position::reach) counts it
    /// (pawns and kings count none).
    #[inline]
    pub fn reach(&self, by: Color, role: Role) -> u32 {
        if role.index() < ROLES {
            self.reach[by.index()][role.index()]
        } else {
            0
        }
    }
}

/// A few squares of a board, as [`Attacks::zone`] names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Zone(Bits);

impl Zone {
    /// How many squares the zone holds.
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

#[cfg(test)]
mod tests {
    use crate::{variants, Color, Position, Role, Square};

    fn sq(name: &str) -> Square {
        let b = name.as_bytes();
        Square::new(b[0] - b'a', b[1] - b'1')
    }

    #[test]
    fn a_position_names_who_attacks_each_square() {
        // The black queen on d5 eyes the rook on h1 along the long diagonal;
        // the knight on c3 attacks the queen; the king defends d2 but not h1.
        let pos =
            Position::from_fen(variants::standard(), "4k3/8/8/3q4/8/2N5/8/4K2R w K - 0 1").unwrap();
        let a = pos
            .attacks()
            .expect("standard chess has the bitboard route");
        assert_eq!(
            a.roles(Color::White, sq("d5")).collect::<Vec<_>>(),
            [Role::Knight]
        );
        assert_eq!(
            a.roles(Color::Black, sq("h1")).collect::<Vec<_>>(),
            [Role::Queen]
        );
        assert!(!a.attacked(Color::White, sq("h1")));
        assert!(a.attacked_by(Color::White, Role::King, sq("d2")));
        assert!(!a.attacked_by(Color::White, Role::Knight, sq("d2")));
        // The rook's ride stops at its own king, which it defends; it reaches
        // f1, g1 and h2-h8: nine squares, as `reach` counts.
        assert!(a.attacked_by(Color::White, Role::Rook, sq("e1")));
        assert_eq!(a.reach(Color::White, Role::Rook), 9);
        assert_eq!(a.reach(Color::White, Role::Rook), pos.reach(sq("h1")));
        assert_eq!(a.reach(Color::White, Role::Knight), pos.reach(sq("c3")));
    }

    #[test]
    fn a_king_s_zone_counts_its_attackers_and_the_squares_it_alone_defends() {
        let pos =
            Position::from_fen(variants::standard(), "4k3/8/8/3q4/8/2N5/8/4K2R w K - 0 1").unwrap();
        let a = pos.attacks().unwrap();
        // d1, e1, f1, d2, e2, f2: the edge cuts the zone to six squares,
        // a corner's to four, and a file does not wrap onto the next rank.
        let zone = a.zone(sq("e1"));
        assert_eq!(zone.len(), 6);
        assert_eq!(a.zone(sq("a1")).len(), 4);
        assert_eq!(a.zone(sq("h4")).len(), 6);
        assert_eq!(a.zone(sq("h8")).len(), 4);
        // The queen down the d-file hits d2 and d1; the knight defends d1,
        // so only d2 is the king's alone.
        assert_eq!(a.hits(Color::Black, Role::Queen, zone), 2);
        assert_eq!(a.hits(Color::Black, Role::Rook, zone), 0);
        assert_eq!(a.weak_hits(Color::Black, zone), 1);
        assert_eq!(a.weak_hits(Color::White, a.zone(sq("e8"))), 0);
    }

    #[test]
    fn safe_checks_are_squares_a_piece_can_reach_to_check_unharmed() {
        let pos =
            Position::from_fen(variants::standard(), "4k3/8/8/3q4/8/2N5/8/4K2R w K - 0 1").unwrap();
        let a = pos.attacks().unwrap();
        // The queen checks from h1 (taking the rook nobody defends), e5
        // and e6; d1, d2 and e4 are guarded by the king or the knight.
        assert_eq!(a.safe_checks(Color::Black, Role::Queen), 3);
        // The rook checks from h8; the knight has no check.
        assert_eq!(a.safe_checks(Color::White, Role::Rook), 1);
        assert_eq!(a.safe_checks(Color::White, Role::Knight), 0);
        assert_eq!(a.safe_checks(Color::White, Role::Queen), 0);
        // A pawn on d4 guards e5 (and shuts the d-file).
        let guarded =
            Position::from_fen(variants::standard(), "4k3/8/8/3q4/3P4/2N5/8/4K2R w K - 0 1")
                .unwrap();
        let a = guarded.attacks().unwrap();
        assert_eq!(a.safe_checks(Color::Black, Role::Queen), 2, "h1 and e6");
    }

    #[test]
    fn a_game_with_a_walker_asks_square_by_square() {
        // Void Chess's Minister walks two steps: the sets leave it out.
        let pos = Position::new(variants::void());
        assert!(pos.attacks().is_none());
    }
}
