//! Colour preferences (C.04.3 article 1.6) and the allocation of colours to a
//! pair (article 5).

use super::Entrant;
use crate::Side;

/// How much a player wants their preferred colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Strength {
    /// No game played yet.
    None,
    /// Colours balanced: the player would like to alternate.
    Mild,
    /// One colour played once more than the other.
    Strong,
    /// A colour played twice more than the other, or in each of the last two
    /// games: the player must not get it again (except between leaders in
    /// the last round).
    Absolute,
}

/// A player's colour preference, from the colours of the games they played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preference {
    pub side: Option<Side>,
    pub strength: Strength,
    /// Whites played minus blacks played.
    pub difference: i32,
    /// The colour of each of the last two games, where they were the same.
    pub repeated: Option<Side>,
}

impl Preference {
    #[must_use]
    pub fn of(colours: &[Side]) -> Preference {
        let difference: i32 = colours
            .iter()
            .map(|c| match c {
                Side::White => 1,
                Side::Black => -1,
            })
            .sum();
        let repeated = match colours {
            [.., a, b] if a == b => Some(*b),
            _ => None,
        };
        let last = colours.last().copied();
        let side = if let Some(twice) = repeated {
            Some(twice.opposite())
        } else if difference > 0 {
            Some(Side::Black)
        } else if difference < 0 {
            Some(Side::White)
        } else {
            last.map(Side::opposite)
        };
        let strength = if colours.is_empty() {
            Strength::None
        } else if difference.abs() >= 2 || repeated.is_some() {
            Strength::Absolute
        } else if difference.abs() == 1 {
            Strength::Strong
        } else {
            Strength::Mild
        };
        Preference {
            side,
            strength,
            difference,
            repeated,
        }
    }

    /// Whether getting `side` would break an absolute rule: a colour
    /// difference beyond 2, or the same colour three games running.
    #[must_use]
    pub fn forbids(&self, side: Side) -> bool {
        let after = self.difference
            + match side {
                Side::White => 1,
                Side::Black => -1,
            };
        self.repeated == Some(side) || after.abs() > 2
    }
}

/// Whether two players can be given colours at all without breaking an
/// absolute rule for either.
pub(super) fn compatible(a: &Preference, b: &Preference) -> bool {
    (!a.forbids(Side::White) && !b.forbids(Side::Black))
        || (!a.forbids(Side::Black) && !b.forbids(Side::White))
}

/// Gives a pair its colours (article 5.2): both preferences where they
/// differ; else the stronger one (between two absolute preferences, the
/// wider colour difference); else alternate from the last round in which
/// their colours differed; else the preference of the higher-ranked player
/// (the smaller pairing number); else by lot: the higher-ranked player gets
/// the initial colour on an odd pairing number, the other on an even one.
/// Returns (white, black).
pub(super) fn allocate<'a>(
    a: &'a Entrant,
    b: &'a Entrant,
    initial: Side,
) -> (&'a Entrant, &'a Entrant) {
    let (pa, pb) = (Preference::of(&a.colours), Preference::of(&b.colours));
    let give = |who: &'a Entrant, side: Side| {
        let other = if std::ptr::eq(who, a) { b } else { a };
        match side {
            Side::White => (who, other),
            Side::Black => (other, who),
        }
    };
    if let (Some(sa), Some(sb)) = (pa.side, pb.side) {
        if sa != sb {
            return give(a, sa);
        }
    }
    if pa.strength != pb.strength {
        let (who, pref) = if pa.strength > pb.strength {
            (a, pa)
        } else {
            (b, pb)
        };
        if let Some(side) = pref.side {
            return give(who, side);
        }
    } else if pa.strength > Strength::None && pa.side == pb.side {
        match pa.side {
            Some(Side::White) if pa.difference != pb.difference => {
                return give(
                    if pa.difference < pb.difference { a } else { b },
                    Side::White,
                );
            }
            Some(Side::Black) if pa.difference != pb.difference => {
                return give(
                    if pa.difference > pb.difference { a } else { b },
                    Side::Black,
                );
            }
            _ => {}
        }
    }
    for (ca, cb) in a.colours.iter().rev().zip(b.colours.iter().rev()) {
        if ca != cb {
            return give(a, ca.opposite());
        }
    }
    let (higher, hp) = if a.number < b.number {
        (a, pa)
    } else {
        (b, pb)
    };
    if let Some(side) = hp.side {
        return give(higher, side);
    }
    if higher.number % 2 == 1 {
        give(higher, initial)
    } else {
        give(higher, initial.opposite())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Points;
    use Side::{Black as B, White as W};

    fn entrant(id: u32, number: u32, colours: &[Side]) -> Entrant {
        Entrant {
            id,
            number,
            score: Points::ZERO,
            colours: colours.to_vec(),
            floats: Vec::new(),
            played: colours.len() as u32,
            unplayed_win: false,
            avoid: Default::default(),
        }
    }

    #[test]
    fn preferences_follow_the_colour_history() {
        assert_eq!(Preference::of(&[]).strength, Strength::None);
        let mild = Preference::of(&[W, B]);
        assert_eq!((mild.side, mild.strength), (Some(W), Strength::Mild));
        let strong = Preference::of(&[W]);
        assert_eq!((strong.side, strong.strength), (Some(B), Strength::Strong));
        let twice = Preference::of(&[B, W, W]);
        assert_eq!((twice.side, twice.strength), (Some(B), Strength::Absolute));
        assert!(twice.forbids(W) && !twice.forbids(B));
        let wide = Preference::of(&[W, B, W, W, B, W]);
        assert_eq!(wide.difference, 2);
        assert!(wide.forbids(W));
    }

    #[test]
    fn colours_grant_both_then_the_stronger_then_alternate_then_the_lot() {
        // Different preferences: both granted.
        let (a, b) = (entrant(1, 1, &[W]), entrant(2, 2, &[B]));
        assert_eq!(allocate(&a, &b, W).0.id, 2);
        // Same preference, the stronger wins: absolute (two blacks) over mild.
        let (a, b) = (entrant(1, 1, &[W, B]), entrant(2, 2, &[B, B]));
        assert_eq!(allocate(&a, &b, W).0.id, 2);
        // Same mild preference: alternate from the last round they differed.
        let (a, b) = (entrant(1, 1, &[W, B, W, B]), entrant(2, 2, &[B, W, W, B]));
        // The last two rounds they had the same colours; in the one before,
        // a had black and b white: a gets white now.
        assert_eq!(allocate(&a, &b, W).0.id, 1);
        // Nothing played: the lot decides by the higher player's number.
        let (a, b) = (entrant(1, 3, &[]), entrant(2, 4, &[]));
        assert_eq!(allocate(&a, &b, W).0.id, 1);
        assert_eq!(allocate(&a, &b, B).0.id, 2);
        let (a, b) = (entrant(1, 2, &[]), entrant(2, 5, &[]));
        assert_eq!(allocate(&a, &b, W).0.id, 2);
    }
}
