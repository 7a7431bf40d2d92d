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
    by: [[Bits; ROLES]; 2],
    /// Each side's attacks, every role together: an evaluation asks this
    /// most often.
    all: [Bits; 2],
    reach: [[u32; ROLES]; 2],
}

impl Attacks {
    pub(crate) fn new(width: u8, by: [[Bits; ROLES]; 2], reach: [[u32; ROLES]; 2]) -> Attacks {
        let all = by.map(|sets| sets.iter().fold(0, |acc, &set| acc | set));
        Attacks {
            width,
            by,
            all,
            reach,
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
    fn a_game_with_a_walker_asks_square_by_square() {
        // Void Chess's Minister walks two steps: the sets leave it out.
        let pos = Position::new(variants::void());
        assert!(pos.attacks().is_none());
    }
}
