//! The weight of an edge between two players: every criterion of the Dutch
//! system as one lexicographic value, so that a maximum-weight matching is
//! the best pairing by those criteria in their order.
//!
//! bbpPairings packs the criteria into the bits of one large integer; here
//! they are the components of a small array compared lexicographically,
//! which orders matchings identically (each component is wide enough that
//! the sum over a matching never spills into the next one) and keeps the
//! arithmetic to a dozen machine words. The blossom algorithm only adds,
//! subtracts, compares and halves weights, and halving stays exact
//! component by component for the same reason it does for integers (every
//! tight edge joins labels of equal parity).

use std::cmp::Ordering;
use std::ops::{Add, AddAssign, Sub, SubAssign};

/// The components, most significant first.
pub(super) const CARD: usize = 0; // matched pairs (maximum cardinality) and completion
pub(super) const CURRENT_SCORES: usize = 1; // C6/C7: scores paired in the bracket
pub(super) const CURRENT_PAIRS: usize = 2; // C5: pairs in the bracket
pub(super) const NEXT_SCORES: usize = 3; // C8 look-ahead: scores in the next bracket
pub(super) const PACKED_A: usize = 4; // next pairs | C9 | colour C10 | colour C11
pub(super) const PACKED_B: usize = 5; // colour C12 | C13 | floats C14 | C15
pub(super) const PACKED_C: usize = 6; // floats C16 | C17
pub(super) const FLOAT_SCORES: usize = 7; // C18..C21: four components
pub(super) const RESERVED: usize = 11; // tie-breaks set by the procedure
const LEN: usize = 12;

/// One edge weight (or a sum of them, or a dual variable).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(super) struct Lex(pub(super) [i64; LEN]);

impl Lex {
    pub(super) const ZERO: Lex = Lex([0; LEN]);

    pub(super) fn is_zero(&self) -> bool {
        self.0.iter().all(|&c| c == 0)
    }

    /// The same weight with `amount` added to the reserved component.
    pub(super) fn nudged(mut self, amount: i64) -> Lex {
        self.0[RESERVED] += amount;
        self
    }

    /// The weight of a pair that is settled: still an edge (so a maximum
    /// cardinality matching keeps it), and nothing else.
    pub(super) fn settled() -> Lex {
        let mut w = Lex::ZERO;
        w.0[CARD] = 1 << CARD_SHIFT;
        w.0[RESERVED] = 1;
        w
    }
}

/// Where the matched-pair count sits in the first component, above the
/// completion value.
pub(super) const CARD_SHIFT: u32 = 24;

impl Ord for Lex {
    fn cmp(&self, other: &Lex) -> Ordering {
        self.0.cmp(&other.0)
    }
}

impl PartialOrd for Lex {
    fn partial_cmp(&self, other: &Lex) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Add for Lex {
    type Output = Lex;
    fn add(mut self, other: Lex) -> Lex {
        self += other;
        self
    }
}

impl Sub for Lex {
    type Output = Lex;
    fn sub(mut self, other: Lex) -> Lex {
        self -= other;
        self
    }
}

impl AddAssign for Lex {
    fn add_assign(&mut self, other: Lex) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a += b;
        }
    }
}

impl SubAssign for Lex {
    fn sub_assign(&mut self, other: Lex) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a -= b;
        }
    }
}

impl integer_blossom::Weight for Lex {
    const ZERO: Lex = Lex::ZERO;
    const ONE: Lex = {
        let mut one = [0; LEN];
        one[LEN - 1] = 1;
        Lex(one)
    };

    fn inf() -> Lex {
        let mut inf = [0; LEN];
        inf[0] = i64::MAX / 4;
        Lex(inf)
    }

    fn double(self) -> Lex {
        Lex(self.0.map(|c| c * 2))
    }

    fn half(self) -> Lex {
        debug_assert!(
            self.0.iter().all(|c| c % 2 == 0),
            "halving an odd weight: {self:?}"
        );
        Lex(self.0.map(|c| c / 2))
    }
}

/// Packs fields of the given widths into one component, first field most
/// significant.
pub(super) fn pack(fields: &[(i64, u32)]) -> i64 {
    fields
        .iter()
        .fold(0, |acc, &(value, width)| (acc << width) | value)
}

/// A maximum-cardinality, maximum-weight matching of the vertices `active`
/// (indices into the `n`×`n` matrix `weights`): `mate[v]` for each of them,
/// `v` itself where unmatched. Vertices outside `active` are left as they are.
pub(super) fn best_matching(weights: &[Lex], n: usize, active: &[usize], mate: &mut [usize]) {
    let m = active.len();
    let mut sub = vec![Lex::ZERO; m * m];
    for (i, &a) in active.iter().enumerate() {
        for (j, &b) in active.iter().enumerate().skip(i + 1) {
            sub[i * m + j] = weights[a * n + b];
        }
    }
    let result = integer_blossom::max_weight_matching(&sub, m);
    for (i, &a) in active.iter().enumerate() {
        mate[a] = result[i].map_or(a, |j| active[j]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn weight(parts: &[(usize, i64)]) -> Lex {
        let mut w = Lex::ZERO;
        w.0[CARD] = 1 << CARD_SHIFT;
        for &(at, v) in parts {
            w.0[at] = v;
        }
        w
    }

    #[test]
    fn a_higher_criterion_outweighs_any_number_of_lower_ones() {
        // Three players in a path a-b-c plus d: pairing a-b satisfies a
        // higher criterion than b-c and c-d together.
        let n = 4;
        let mut w = vec![Lex::ZERO; n * n];
        let mut set = |a: usize, b: usize, x: Lex| {
            w[a * n + b] = x;
            w[b * n + a] = x;
        };
        set(0, 1, weight(&[(CURRENT_PAIRS, 1)]));
        set(1, 2, weight(&[(PACKED_B, 1000)]));
        set(2, 3, weight(&[(PACKED_B, 1000)]));
        set(0, 3, weight(&[]));
        let mut mate = vec![0; n];
        best_matching(&w, n, &[0, 1, 2, 3], &mut mate);
        assert_eq!(mate, vec![1, 0, 3, 2]);
    }

    #[test]
    fn more_pairs_come_first() {
        // a-b heavy, but taking it leaves c and d unpaired; a-c and b-d
        // pair everybody.
        let n = 4;
        let mut w = vec![Lex::ZERO; n * n];
        let mut set = |a: usize, b: usize, x: Lex| {
            w[a * n + b] = x;
            w[b * n + a] = x;
        };
        set(0, 1, weight(&[(CURRENT_SCORES, 1 << 40)]));
        set(0, 2, weight(&[]));
        set(1, 3, weight(&[]));
        let mut mate = vec![0; n];
        best_matching(&w, n, &[0, 1, 2, 3], &mut mate);
        assert_eq!(mate, vec![2, 3, 0, 1]);
    }

    #[test]
    fn fields_pack_most_significant_first() {
        assert_eq!(pack(&[(1, 4), (2, 4), (3, 4)]), 0x123);
    }
}
