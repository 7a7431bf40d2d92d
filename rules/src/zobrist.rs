//! Position keys for repetition detection.
//!
//! Keys are computed on the fly by a 64-bit mixer instead of read from tables:
//! a 16x16 board with tiles would need tens of thousands of random numbers,
//! and a mixer costs a few instructions with no cache misses.

use crate::square::CELLS;
use crate::{Color, Square};

#[inline]
const fn mix(mut z: u64) -> u64 {
    // splitmix64's finaliser
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A piece's key, from the mixer as written: `code` is a piece's cell code
/// (`0x20` and up), `cell` its square's mailbox index.
const fn piece_key(code: u8, cell: usize) -> u64 {
    mix((1 << 40) | ((code as u64) << 16) | cell as u64)
}

/// The piece keys of every code and mailbox cell, worked out by the mixer
/// when the program is built: making a move reads three or four of them,
/// and a lookup is cheaper than mixing. (`piece_keys_are_the_mixers` holds
/// them to the mixer, so no stored key changes.)
static PIECE_KEYS: [[u64; CELLS]; 32] = {
    let mut table = [[0; CELLS]; 32];
    let mut code = 0;
    while code < 32 {
        let mut cell = 0;
        while cell < CELLS {
            table[code][cell] = piece_key(0x20 | code as u8, cell);
            cell += 1;
        }
        code += 1;
    }
    table
};

#[inline]
pub(crate) fn piece(code: u8, sq: Square) -> u64 {
    PIECE_KEYS[(code & 0x1f) as usize][sq.index()]
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The table must give the keys the mixer gave before it: keys of
    /// positions already stored stay valid.
    #[test]
    fn piece_keys_are_the_mixers() {
        for code in 0x20..0x40u8 {
            for cell in 0..CELLS {
                let sq = Square::from_index(cell);
                assert_eq!(piece(code, sq), piece_key(code, cell), "{code:#x} {cell}");
                assert_eq!(
                    piece(code, sq),
                    mix((1 << 40) | (u64::from(code) << 16) | cell as u64)
                );
            }
        }
    }
}
