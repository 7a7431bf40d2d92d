//! Sets of squares as machine words: what a small board keeps beside its
//! mailbox (one bit per square, per side, per role, and the voids), and the
//! operations the bitboard route is written over. A leaf: it knows squares
//! and nothing else, so the board, the bitboard route and the move
//! generator all build on it without building on each other.

use crate::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Shl, Shr};

/// One bit per square of a board of at most 128 squares, as the board
/// keeps them.
pub(crate) type Bits = u128;

/// A set of squares as one machine word or two: boards of up to 64 squares
/// (8x8) work in `u64`, larger ones up to 128 squares (Void Chess's 9x9) in
/// `u128`. The route is written once, over this trait.
pub(crate) trait Set:
    Copy
    + Eq
    + Not<Output = Self>
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + Shl<i32, Output = Self>
    + Shr<i32, Output = Self>
{
    const ZERO: Self;
    /// The set of square `i` alone.
    fn bit(i: u32) -> Self;
    /// The squares of a board-kept set (all below this type's width).
    fn narrow(wide: Bits) -> Self;
    /// The same squares in the board's widest word.
    fn wide(self) -> Bits;
    /// The lowest and highest square of a non-empty set.
    fn first(self) -> u32;
    fn last(self) -> u32;
    /// The set without its lowest square.
    fn rest(self) -> Self;
    /// How many squares the set holds.
    fn count(self) -> u32;
    /// Runs `f` on the board's sets in this word size. The board's own
    /// word is lent as it is: a copy just written in halves and read back
    /// whole would stall the processor's store forwarding on every read.
    fn with_sets<R>(bits: &BoardBits, f: impl FnOnce(&Sets<Self>) -> R) -> R;
}

macro_rules! impl_set {
    ($t:ty, |$bits:ident, $f:ident| $with:expr) => {
        impl Set for $t {
            const ZERO: Self = 0;
            #[inline]
            fn bit(i: u32) -> Self {
                1 << i
            }
            #[inline]
            fn narrow(wide: Bits) -> Self {
                wide as $t
            }
            #[inline]
            fn wide(self) -> Bits {
                self as Bits
            }
            #[inline]
            fn first(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline]
            fn last(self) -> u32 {
                <$t>::BITS - 1 - self.leading_zeros()
            }
            #[inline]
            fn rest(self) -> Self {
                self & (self - 1)
            }
            #[inline]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn with_sets<R>($bits: &BoardBits, $f: impl FnOnce(&Sets<Self>) -> R) -> R {
                $with
            }
        }
    };
}
impl_set!(u64, |bits, f| f(&Sets::of(bits)));
impl_set!(u128, |bits, f| f(bits));

/// A board's sets: one per side, one per role, and the voids.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Sets<B> {
    pub color: [B; 2],
    pub role: [B; ROLES],
    pub void: B,
}

/// The bitboards a small board keeps beside its mailbox, in the widest word.
pub(crate) type BoardBits = Sets<Bits>;

impl<B: Set> Sets<B> {
    #[inline]
    pub(crate) fn of(bits: &BoardBits) -> Sets<B> {
        Sets {
            color: bits.color.map(B::narrow),
            role: bits.role.map(B::narrow),
            void: B::narrow(bits.void),
        }
    }
}

/// Roles with a bitboard of their own in [`Board`]: the orthodox six and the
/// Minister (indices 0..7). Variants using others do not take this route.
pub(crate) const ROLES: usize = 7;

/// The most squares a board may have to keep bit sets (`u128`): the
/// bitboard route's limit, and the board's.
pub(crate) const MAX_SQUARES: usize = 128;

/// The bit of `sq` on a board `width` files wide: looked up
/// ([`Square::bit_on`]), as making a move asks it several times.
#[inline]
pub(crate) fn bit(sq: Square, width: u8) -> u32 {
    sq.bit_on(width)
}

#[inline]
pub(crate) fn squares<B: Set>(mut bits: B) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (bits != B::ZERO).then(|| {
            let b = bits.first();
            bits = bits.rest();
            b
        })
    })
}
