use std::fmt;
use std::ops::{Add, AddAssign};

/// A score in half points: a draw is exact, and scores compare and hash as
/// integers. Shown as players write it: `3½`, `½`, `0`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Points(pub u32);

impl Points {
    pub const ZERO: Points = Points(0);
    pub const HALF: Points = Points(1);
    pub const ONE: Points = Points(2);

    /// The number of half points.
    #[must_use]
    pub fn halves(self) -> u32 {
        self.0
    }

    #[must_use]
    pub fn as_f64(self) -> f64 {
        f64::from(self.0) / 2.0
    }
}

impl Add for Points {
    type Output = Points;
    fn add(self, other: Points) -> Points {
        Points(self.0 + other.0)
    }
}

impl AddAssign for Points {
    fn add_assign(&mut self, other: Points) {
        self.0 += other.0;
    }
}

impl std::iter::Sum for Points {
    fn sum<I: Iterator<Item = Points>>(iter: I) -> Points {
        iter.fold(Points::ZERO, Add::add)
    }
}

impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.0 / 2, self.0 % 2) {
            (0, 1) => f.write_str("½"),
            (whole, 1) => write!(f, "{whole}½"),
            (whole, _) => write!(f, "{whole}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_show_halves_as_players_write_them() {
        assert_eq!(Points(0).to_string(), "0");
        assert_eq!(Points(1).to_string(), "½");
        assert_eq!(Points(7).to_string(), "3½");
        assert_eq!(Points(8).to_string(), "4");
        assert_eq!(
            [Points::ONE, Points::HALF].into_iter().sum::<Points>(),
            Points(3)
        );
    }
}
