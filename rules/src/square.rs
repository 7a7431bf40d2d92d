//! Squares, board sizes and sets of squares.
//!
//! Every board, from 5x8 to 16x16, lives inside one padded "mailbox" of
//! 24 x 24 cells: four cells of wall on each side of the largest board. The
//! padding means a leap of up to four squares from any playable square lands
//! on a real cell (wall or not), so move generation needs no bounds checks, and
//! a move offset (`rank_delta * 24 + file_delta`) is the same number on every
//! board size. A [`Square`] is an index into that mailbox.

use std::fmt;
use std::str::FromStr;

/// Width of the padded mailbox (16 files plus 4 cells of wall on each side).
pub(crate) const STRIDE: i16 = 24;
/// Cells in the padded mailbox.
pub(crate) const CELLS: usize = (STRIDE * STRIDE) as usize;
const PAD: i16 = 4;
/// The largest board: 16 files (a..p) and 16 ranks.
pub const MAX_FILES: u8 = 16;
pub const MAX_RANKS: u8 = 16;

/// A square of a board of up to 16x16 (files a..p, ranks 1..16).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u16);

impl Square {
    /// The square on `file` (0 = a) and `rank` (0 = rank 1). Both must be below 16.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Square {
        assert!(file < MAX_FILES && rank < MAX_RANKS);
        Square(((rank as i16 + PAD) * STRIDE + file as i16 + PAD) as u16)
    }

    /// 0 for the a-file.
    #[inline]
    pub const fn file(self) -> u8 {
        (self.0 as i16 % STRIDE - PAD) as u8
    }

    /// 0 for rank 1.
    #[inline]
    pub const fn rank(self) -> u8 {
        (self.0 as i16 / STRIDE - PAD) as u8
    }

    #[inline]
    pub(crate) const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub(crate) const fn from_index(i: usize) -> Square {
        Square(i as u16)
    }

    /// The square `delta` mailbox cells away; the caller knows it is on the board.
    #[inline]
    pub(crate) const fn offset(self, delta: i16) -> Square {
        Square((self.0 as i16 + delta) as u16)
    }

    /// The square `df` files and `dr` ranks away, if it exists on a 16x16 board.
    #[inline]
    pub fn shifted(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        ((0..MAX_FILES as i8).contains(&f) && (0..MAX_RANKS as i8).contains(&r))
            .then(|| Square::new(f as u8, r as u8))
    }

    /// Chebyshev (king-step) distance.
    #[inline]
    pub fn distance(self, other: Square) -> u8 {
        let df = (self.file() as i8 - other.file() as i8).unsigned_abs();
        let dr = (self.rank() as i8 - other.rank() as i8).unsigned_abs();
        df.max(dr)
    }

    /// `true` for a light square (h1 is light on an 8x8 board; a1 is dark).
    #[inline]
    pub fn is_light(self) -> bool {
        (self.file() + self.rank()) % 2 == 1
    }

    /// Parses `a1` .. `p16` (case-insensitive file letter).
    pub fn parse(s: &str) -> Option<Square> {
        let mut chars = s.chars();
        let f = chars.next()?.to_ascii_lowercase();
        if !('a'..='p').contains(&f) {
            return None;
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if digits.starts_with('0') {
            return None;
        }
        let r: u8 = digits.parse().ok()?;
        (1..=MAX_RANKS)
            .contains(&r)
            .then(|| Square::new(f as u8 - b'a', r - 1))
    }

    pub fn file_char(self) -> char {
        file_char(self.file())
    }
}

/// The letter of a file: `a` for 0.
pub fn file_char(file: u8) -> char {
    (b'a' + file) as char
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.rank() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Square {
    type Err = ();
    fn from_str(s: &str) -> Result<Square, ()> {
        Square::parse(s).ok_or(())
    }
}

/// The dimensions of a board: 5..=16 files and 5..=16 ranks.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct BoardSize {
    files: u8,
    ranks: u8,
}

impl BoardSize {
    /// A board of `files` x `ranks`; `None` outside 5..=16 in either direction.
    #[inline]
    pub const fn new(files: u8, ranks: u8) -> Option<BoardSize> {
        if files >= 5 && files <= MAX_FILES && ranks >= 5 && ranks <= MAX_RANKS {
            Some(BoardSize { files, ranks })
        } else {
            None
        }
    }

    #[inline]
    pub const fn files(self) -> u8 {
        self.files
    }

    #[inline]
    pub const fn ranks(self) -> u8 {
        self.ranks
    }

    #[inline]
    pub fn contains(self, sq: Square) -> bool {
        sq.file() < self.files && sq.rank() < self.ranks
    }

    /// The rank where `color`'s pieces start (0 for White, the last for
    /// Black); the other side's home rank is where `color`'s pawns promote.
    #[inline]
    pub const fn home_rank(self, color: crate::Color) -> u8 {
        match color {
            crate::Color::White => 0,
            crate::Color::Black => self.ranks - 1,
        }
    }

    /// The rank from which `color`'s pawns may advance two squares.
    #[inline]
    pub const fn double_step_rank(self, color: crate::Color) -> u8 {
        match color {
            crate::Color::White => 1,
            crate::Color::Black => self.ranks - 2,
        }
    }

    /// Number of squares.
    #[inline]
    pub fn area(self) -> usize {
        self.files as usize * self.ranks as usize
    }

    /// Every square, a1 first, then along rank 1, then rank 2, ...
    pub fn squares(self) -> impl Iterator<Item = Square> {
        (0..self.ranks).flat_map(move |r| (0..self.files).map(move |f| Square::new(f, r)))
    }

    /// `a-i, 1-9` style description for error messages.
    pub fn describe(self) -> String {
        format!(
            "files a-{}, ranks 1-{}",
            file_char(self.files - 1),
            self.ranks
        )
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.files, self.ranks)
    }
}

/// Bits of a [`SquareSet`]: one per square of a 16x16 board (not per mailbox
/// cell, so small boards fill only the first words).
const WORDS: usize = 4;

/// A square's bit in a [`SquareSet`]: `rank * 16 + file`.
#[inline]
const fn bit_index(sq: Square) -> usize {
    let i = sq.0 as usize - (PAD as usize * STRIDE as usize + PAD as usize);
    let rank = i / STRIDE as usize;
    let file = i % STRIDE as usize;
    rank * 16 + file
}

#[inline]
const fn from_bit_index(b: usize) -> Square {
    Square(((b >> 4) as i16 * STRIDE + (b & 15) as i16 + PAD * STRIDE + PAD) as u16)
}

/// The mailbox cell of each bit of a small board's sets
/// ([`crate::bits::bit`]: `rank * width + file`), by width: a lookup where
/// working it out would divide by the width.
static CELL_OF_BIT: [[u16; 128]; MAX_FILES as usize + 1] = {
    let mut table = [[0u16; 128]; MAX_FILES as usize + 1];
    let mut width = 1;
    while width <= MAX_FILES as usize {
        let mut b = 0;
        while b < 128 {
            let (rank, file) = (b / width, b % width);
            if rank < MAX_RANKS as usize {
                table[width][b] = Square::new(file as u8, rank as u8).0;
            }
            b += 1;
        }
        width += 1;
    }
    table
};

/// The bit ([`crate::bits::bit`]) of each mailbox cell on a small board,
/// by width: the inverse of [`CELL_OF_BIT`], `rank * width + file` without
/// dividing a cell by the stride (0 for cells off such a board).
static BIT_OF_CELL: [[u8; CELLS]; MAX_FILES as usize + 1] = {
    let mut table = [[0u8; CELLS]; MAX_FILES as usize + 1];
    let mut width = 1;
    while width <= MAX_FILES as usize {
        let mut cell = 0;
        while cell < CELLS {
            let sq = Square(cell as u16);
            let (file, rank) = (
                (cell as i16 % STRIDE - PAD) as usize,
                (cell as i16 / STRIDE - PAD) as usize,
            );
            let on_board = file < width
                && rank < MAX_RANKS as usize
                && (cell as i16 % STRIDE) >= PAD
                && (cell as i16 / STRIDE) >= PAD;
            if on_board && rank * width + file < 128 {
                table[width][sq.0 as usize] = (rank * width + file) as u8;
            }
            cell += 1;
        }
        width += 1;
    }
    table
};

impl Square {
    /// This square's bit on a small board `width` files wide.
    #[inline]
    pub(crate) fn bit_on(self, width: u8) -> u32 {
        u32::from(BIT_OF_CELL[width as usize][self.index()])
    }

    /// The square of bit `b` of a small board `width` files wide.
    #[inline]
    pub(crate) fn of_bit(b: u32, width: u8) -> Square {
        Square(CELL_OF_BIT[width as usize][b as usize & 127])
    }
}

/// A set of squares of a board up to 16x16.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct SquareSet([u64; WORDS]);

impl SquareSet {
    pub const EMPTY: SquareSet = SquareSet([0; WORDS]);

    #[inline]
    pub fn contains(&self, sq: Square) -> bool {
        let b = bit_index(sq);
        self.0[b / 64] & (1 << (b % 64)) != 0
    }

    #[inline]
    pub fn insert(&mut self, sq: Square) {
        let b = bit_index(sq);
        self.0[b / 64] |= 1 << (b % 64);
    }

    #[inline]
    pub fn remove(&mut self, sq: Square) {
        let b = bit_index(sq);
        self.0[b / 64] &= !(1 << (b % 64));
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    #[inline]
    pub fn intersects(&self, other: &SquareSet) -> bool {
        self.0.iter().zip(other.0.iter()).any(|(a, b)| a & b != 0)
    }

    #[inline]
    pub fn iter(&self) -> SquareSetIter {
        SquareSetIter {
            words: self.0,
            word: 0,
        }
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        let mut set = SquareSet::EMPTY;
        for sq in iter {
            set.insert(sq);
        }
        set
    }
}

impl fmt::Debug for SquareSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// Iterates a [`SquareSet`] in board order (a1, b1, ..., a2, ...).
pub struct SquareSetIter {
    words: [u64; WORDS],
    word: usize,
}

impl Iterator for SquareSetIter {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        while self.word < WORDS {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some(from_bit_index(self.word * 64 + w.trailing_zeros() as usize));
            }
            self.word += 1;
        }
        None
    }
}

impl IntoIterator for &SquareSet {
    type Item = Square;
    type IntoIter = SquareSetIter;
    fn into_iter(self) -> SquareSetIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {

    /// The lookups between a small board's bits and the mailbox agree with
    /// `rank * width + file` on every board of at most 128 squares.
    #[test]
    fn bits_and_cells_look_each_other_up() {
        for width in 5..=MAX_FILES {
            for rank in 0..MAX_RANKS {
                for file in 0..width {
                    let b = u32::from(rank) * u32::from(width) + u32::from(file);
                    if b >= 128 {
                        continue;
                    }
                    let sq = Square::new(file, rank);
                    assert_eq!(sq.bit_on(width), b, "{sq} on width {width}");
                    assert_eq!(Square::of_bit(b, width), sq, "bit {b} on width {width}");
                }
            }
        }
    }

    use super::*;

    #[test]
    fn square_coordinates_round_trip() {
        for r in 0..16 {
            for f in 0..16 {
                let sq = Square::new(f, r);
                assert_eq!((sq.file(), sq.rank()), (f, r));
                assert_eq!(Square::parse(&sq.to_string()), Some(sq));
            }
        }
        assert_eq!(Square::parse("p16"), Some(Square::new(15, 15)));
        assert_eq!(Square::parse("q1"), None);
        assert_eq!(Square::parse("a17"), None);
        assert_eq!(Square::parse("a0"), None);
        assert_eq!(Square::parse("a01"), None);
    }

    #[test]
    fn set_iterates_what_was_inserted() {
        let squares = [Square::new(0, 0), Square::new(15, 15), Square::new(4, 8)];
        let set: SquareSet = squares.iter().copied().collect();
        assert_eq!(set.len(), 3);
        let mut got: Vec<_> = set.iter().collect();
        got.sort();
        let mut want = squares.to_vec();
        want.sort();
        assert_eq!(got, want);
    }

    #[test]
    fn board_sizes_are_bounded() {
        assert!(BoardSize::new(5, 8).is_some());
        assert!(BoardSize::new(16, 16).is_some());
        assert!(BoardSize::new(4, 8).is_none());
        assert!(BoardSize::new(17, 8).is_none());
    }
}
