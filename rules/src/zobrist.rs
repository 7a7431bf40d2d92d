//! Position keys for repetition detection.
//!
//! Keys are computed on the fly by a 64-bit mixer instead of read from tables:
//! a 16x16 board with tiles would need tens of thousands of random numbers,
//! and a mixer costs a few instructions with no cache misses.

use crate::{Color, Square};

#[inline]
fn mix(mut z: u64) -> u64 {
    // splitmix64's finaliser
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[inline]
pub(crate) fn piece(code: u8, sq: Square) -> u64 {
    mix((1 << 40) | ((code as u64) << 16) | sq.index() as u64)
}

#[inline]
pub(crate) fn void(sq: Square) -> u64 {
    mix((2 << 40) | sq.index() as u64)
}

#[inline]
pub(crate) fn unstable(owner: Color, sq: Square) -> u64 {
    mix((3 << 40) | ((owner as u64) << 16) | sq.index() as u64)
}

#[inline]
pub(crate) fn castling(rights: u8) -> u64 {
    if rights == 0 {
        0
    } else {
        mix((4 << 40) | rights as u64)
    }
}

#[inline]
pub(crate) fn en_passant(sq: Square) -> u64 {
    mix((5 << 40) | sq.index() as u64)
}

pub(crate) fn black_to_move() -> u64 {
    mix(6 << 40)
}
