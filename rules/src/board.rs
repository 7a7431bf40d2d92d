//! The board: pieces, tiles, and the counters that go with a position.
//!
//! A [`Board`] is plain data that knows nothing of the rules; the variant's
//! [`Rules`](crate::Rules) interpret it. It is copied to make a move (copy-make):
//! at well under a kilobyte that is cheaper than undoing tile effects.

use crate::bits::{self, BoardBits};
use crate::square::CELLS;
use crate::tile::Unstable;
use crate::{zobrist, BoardSize, CastlingSide, Color, Piece, Role, Square, SquareSet, Tile};

pub(crate) const EMPTY: u8 = 0;
pub(crate) const VOID: u8 = 1;
pub(crate) const WALL: u8 = 2;
pub(crate) const PIECE: u8 = 0x20;

#[inline]
pub(crate) const fn code(color: Color, role: Role) -> u8 {
    PIECE | ((color as u8) << 4) | role as u8
}

#[inline]
pub(crate) const fn is_piece(cell: u8) -> bool {
    cell & PIECE != 0
}

/// `true` if `cell` holds a piece of `color`.
#[inline]
pub(crate) const fn is_color(cell: u8, color: Color) -> bool {
    cell & 0x30 == PIECE | ((color as u8) << 4)
}

#[inline]
pub(crate) fn role_of(cell: u8) -> Role {
    Role::from_index(cell & 0x0f)
}

#[inline]
pub(crate) fn piece_of(cell: u8) -> Option<Piece> {
    is_piece(cell).then(|| Piece::new(Color::from_index((cell >> 4) & 1), role_of(cell)))
}

/// Bit of a castling right in [`Board::castling`].
#[inline]
pub(crate) const fn castling_bit(color: Color, side: CastlingSide) -> u8 {
    1 << (color as u8 * 2 + side as u8)
}

/// Pieces, tiles, side to move and counters of one position.
///
/// `Copy`, because copy-make copies it at every node: a derived `Clone`
/// copies field by field through a temporary, a copy is one block move.
#[derive(Clone, Copy)]
pub struct Board {
    pub(crate) cells: [u8; CELLS],
    pub(crate) occupied: [SquareSet; 2],
    pub(crate) voids: SquareSet,
    pub(crate) kings: [Option<Square>; 2],
    pub(crate) counts: [[u8; 16]; 2],
    pub(crate) unstable: [Option<Unstable>; 2],
    pub(crate) castling: u8,
    pub(crate) ep: Option<Square>,
    pub(crate) turn: Color,
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u16,
    pub(crate) siege: u16,
    /// Set when a move won the game outright by a variant's own rule
    /// (Suicide Void Chess's "promotion wins"). Such a position is final, so
    /// the key need not see it.
    pub(crate) winner: Option<Color>,
    pub(crate) hash: u64,
    /// Files of the board when it has at most 128 squares and its variant
    /// takes the bitboard route ([`crate::bitboard`]), else 0. When not 0,
    /// `bits` mirrors the cells.
    pub(crate) width: u8,
    pub(crate) bits: BoardBits,
}

impl Board {
    /// An empty board of `size`: walls outside, normal tiles inside.
    pub(crate) fn empty(size: BoardSize) -> Board {
        let mut cells = [WALL; CELLS];
        for sq in size.squares() {
            cells[sq.index()] = EMPTY;
        }
        Board {
            cells,
            occupied: [SquareSet::EMPTY; 2],
            voids: SquareSet::EMPTY,
            kings: [None; 2],
            counts: [[0; 16]; 2],
            unstable: [None; 2],
            castling: 0,
            ep: None,
            turn: Color::White,
            halfmove: 0,
            fullmove: 1,
            siege: 0,
            winner: None,
            hash: 0,
            width: if size.area() <= crate::bits::MAX_SQUARES {
                size.files()
            } else {
                0
            },
            bits: BoardBits::default(),
        }
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        piece_of(self.cells[sq.index()])
    }

    #[inline]
    pub fn tile(&self, sq: Square) -> Tile {
        if self.cells[sq.index()] == VOID {
            return Tile::Void;
        }
        for owner in Color::ALL {
            if let Some(u) = self.unstable[owner.index()] {
                if u.square == sq {
                    return Tile::Unstable {
                        owner,
                        since: u.since,
                    };
                }
            }
        }
        Tile::Normal
    }

    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The square of `color`'s king (one of them, in the giveaway games that
    /// allow several).
    #[inline]
    pub fn king(&self, color: Color) -> Option<Square> {
        self.kings[color.index()]
    }

    /// The side's unstable tile, if it has one.
    #[inline]
    pub fn unstable(&self, owner: Color) -> Option<Unstable> {
        self.unstable[owner.index()]
    }

    #[inline]
    pub fn voids(&self) -> &SquareSet {
        &self.voids
    }

    #[inline]
    pub fn occupied(&self, color: Color) -> &SquareSet {
        &self.occupied[color.index()]
    }

    #[inline]
    pub fn count(&self, color: Color, role: Role) -> u8 {
        self.counts[color.index()][role.index()]
    }

    /// Pieces of both sides of `role`.
    #[inline]
    pub fn count_both(&self, role: Role) -> u8 {
        self.count(Color::White, role) + self.count(Color::Black, role)
    }

    #[inline]
    pub fn castling_right(&self, color: Color, side: CastlingSide) -> bool {
        self.castling & castling_bit(color, side) != 0
    }

    #[inline]
    pub fn en_passant(&self) -> Option<Square> {
        self.ep
    }

    #[inline]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    #[inline]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    /// Plies the current void siege has lasted (Void Chess; 0 elsewhere).
    #[inline]
    pub fn siege_plies(&self) -> u16 {
        self.siege
    }

    /// The key that identifies this position for repetition: pieces, tiles,
    /// side to move, castling rights and a capturable en-passant square.
    #[inline]
    pub fn key(&self) -> u64 {
        self.hash
    }

    #[inline]
    pub(crate) fn is_empty(&self, sq: Square) -> bool {
        self.cells[sq.index()] == EMPTY
    }

    #[inline]
    pub(crate) fn is_void(&self, sq: Square) -> bool {
        self.cells[sq.index()] == VOID
    }

    // ---- mutators: each keeps sets, counts and the key in step ----

    pub(crate) fn put(&mut self, sq: Square, color: Color, role: Role) {
        debug_assert_eq!(self.cells[sq.index()], EMPTY, "put on occupied {sq}");
        let c = code(color, role);
        self.cells[sq.index()] = c;
        self.occupied[color.index()].insert(sq);
        self.counts[color.index()][role.index()] += 1;
        if role == Role::King {
            self.kings[color.index()] = Some(sq);
        }
        self.hash ^= zobrist::piece(c, sq);
        if self.width != 0 {
            let b = 1 << bits::bit(sq, self.width);
            self.bits.color[color.index()] |= b;
            if let Some(set) = self.bits.role.get_mut(role.index()) {
                *set |= b;
            }
        }
    }

    /// Removes and returns the piece on `sq` (leaving the square empty).
    pub(crate) fn take(&mut self, sq: Square) -> Option<Piece> {
        let c = self.cells[sq.index()];
        let piece = piece_of(c)?;
        self.cells[sq.index()] = EMPTY;
        self.occupied[piece.color.index()].remove(sq);
        self.counts[piece.color.index()][piece.role.index()] -= 1;
        if piece.role == Role::King && self.kings[piece.color.index()] == Some(sq) {
            if self.counts[piece.color.index()][Role::King.index()] == 0 {
                self.kings[piece.color.index()] = None;
            } else {
                // Only giveaway games allow a second king (by promotion); keep
                // pointing at one that remains.
                let king = code(piece.color, Role::King);
                self.kings[piece.color.index()] = self.occupied[piece.color.index()]
                    .iter()
                    .find(|s| self.cells[s.index()] == king);
            }
        }
        self.hash ^= zobrist::piece(c, sq);
        if self.width != 0 {
            let b = !(1 << bits::bit(sq, self.width));
            self.bits.color[piece.color.index()] &= b;
            if let Some(set) = self.bits.role.get_mut(piece.role.index()) {
                *set &= b;
            }
        }
        Some(piece)
    }

    pub(crate) fn set_void(&mut self, sq: Square, void: bool) {
        let cell = &mut self.cells[sq.index()];
        if void {
            debug_assert_eq!(*cell, EMPTY);
            *cell = VOID;
            self.voids.insert(sq);
            if self.width != 0 {
                self.bits.void |= 1 << bits::bit(sq, self.width);
            }
        } else {
            debug_assert_eq!(*cell, VOID);
            *cell = EMPTY;
            self.voids.remove(sq);
            if self.width != 0 {
                self.bits.void &= !(1 << bits::bit(sq, self.width));
            }
        }
        self.hash ^= zobrist::void(sq);
    }

    /// Moves the one void of the board to `to` (Suicide Void Chess).
    pub(crate) fn move_void(&mut self, to: Square) {
        let old: Vec<Square> = self.voids.iter().collect();
        for sq in old {
            self.set_void(sq, false);
        }
        self.set_void(to, true);
    }

    pub(crate) fn set_unstable(&mut self, owner: Color, tile: Option<Unstable>) {
        if let Some(old) = self.unstable[owner.index()] {
            self.hash ^= zobrist::unstable(owner, old.square);
        }
        if let Some(new) = tile {
            self.hash ^= zobrist::unstable(owner, new.square);
        }
        self.unstable[owner.index()] = tile;
    }

    pub(crate) fn set_castling(&mut self, rights: u8) {
        self.hash ^= zobrist::castling(self.castling) ^ zobrist::castling(rights);
        self.castling = rights;
    }

    pub(crate) fn set_ep(&mut self, ep: Option<Square>) {
        if let Some(old) = self.ep {
            self.hash ^= zobrist::en_passant(old);
        }
        if let Some(new) = ep {
            self.hash ^= zobrist::en_passant(new);
        }
        self.ep = ep;
    }

    pub(crate) fn set_turn(&mut self, turn: Color) {
        if turn != self.turn {
            self.hash ^= zobrist::black_to_move();
        }
        self.turn = turn;
    }

    /// Makes this board `before` again after moves were played on it, when
    /// it is a small board whose sets mirror its cells: only the cells the
    /// sets say changed are copied back, with the fields beside them, not
    /// the whole padded mailbox. `false` (and nothing done) on a large
    /// board, which the caller copies whole.
    ///
    /// Perft plays each move of a node on one scratch board and puts it back
    /// this way: a full copy of the board per move was a fifth of its time.
    #[inline]
    pub(crate) fn undo_to(&mut self, before: &Board) -> bool {
        if self.width == 0 || self.width != before.width {
            return false;
        }
        let mut changed = (self.bits.color[0] ^ before.bits.color[0])
            | (self.bits.color[1] ^ before.bits.color[1])
            | (self.bits.void ^ before.bits.void);
        for (now, then) in self.bits.role.iter().zip(&before.bits.role) {
            changed |= now ^ then;
        }
        // Word by word: an 8x8 board's upper word is empty, and a scan of a
        // 64-bit word is one instruction where a 128-bit one is several.
        for (half, base) in [(changed as u64, 0), ((changed >> 64) as u64, 64)] {
            let mut left = half;
            while left != 0 {
                let i = Square::of_bit(left.trailing_zeros() + base, self.width).index();
                left &= left - 1;
                self.cells[i] = before.cells[i];
            }
        }
        // Every other field, named so that a new one cannot be forgotten.
        let Board {
            cells: _,
            occupied,
            voids,
            kings,
            counts,
            unstable,
            castling,
            ep,
            turn,
            halfmove,
            fullmove,
            siege,
            winner,
            hash,
            width,
            bits,
        } = before;
        self.occupied = *occupied;
        self.voids = *voids;
        self.kings = *kings;
        self.counts = *counts;
        self.unstable = *unstable;
        self.castling = *castling;
        self.ep = *ep;
        self.turn = *turn;
        self.halfmove = *halfmove;
        self.fullmove = *fullmove;
        self.siege = *siege;
        self.winner = *winner;
        self.hash = *hash;
        self.width = *width;
        self.bits = *bits;
        debug_assert!(
            self.cells == before.cells,
            "a cell changed that the sets do not show"
        );
        true
    }

    /// The key computed from scratch; equal to [`Board::key`] unless a bug
    /// lost an update (the property tests check this after every move).
    pub fn recomputed_key(&self) -> u64 {
        let mut h = 0;
        for color in Color::ALL {
            for sq in self.occupied[color.index()].iter() {
                h ^= zobrist::piece(self.cells[sq.index()], sq);
            }
            if let Some(u) = self.unstable[color.index()] {
                h ^= zobrist::unstable(color, u.square);
            }
        }
        for sq in self.voids.iter() {
            h ^= zobrist::void(sq);
        }
        h ^= zobrist::castling(self.castling);
        if let Some(ep) = self.ep {
            h ^= zobrist::en_passant(ep);
        }
        if self.turn == Color::Black {
            h ^= zobrist::black_to_move();
        }
        h
    }

    /// Checks that the redundant parts (sets, counts, kings, key) agree with
    /// the cells. For tests.
    pub fn check_consistency(&self) -> Result<(), String> {
        let mut counts = [[0u8; 16]; 2];
        for (i, &cell) in self.cells.iter().enumerate() {
            if cell == WALL {
                continue;
            }
            let sq = Square::from_index(i);
            if let Some(p) = piece_of(cell) {
                counts[p.color.index()][p.role.index()] += 1;
                if !self.occupied[p.color.index()].contains(sq) {
                    return Err(format!("{sq} holds a piece missing from the set"));
                }
            } else if self.occupied[0].contains(sq) || self.occupied[1].contains(sq) {
                return Err(format!("{sq} is in a piece set but holds no piece"));
            }
            if (cell == VOID) != self.voids.contains(sq) {
                return Err(format!("{sq}: void set and cells disagree"));
            }
        }
        if self.width != 0 {
            let mut bits = BoardBits::default();
            for (i, &cell) in self.cells.iter().enumerate() {
                let sq = Square::from_index(i);
                let b = if cell == WALL {
                    0
                } else {
                    1 << bits::bit(sq, self.width)
                };
                if let Some(p) = piece_of(cell) {
                    bits.color[p.color.index()] |= b;
                    if let Some(set) = bits.role.get_mut(p.role.index()) {
                        *set |= b;
                    }
                } else if cell == VOID {
                    bits.void |= b;
                }
            }
            if bits != self.bits {
                return Err("bitboards disagree with the cells".into());
            }
        }
        if counts != self.counts {
            return Err("piece counts disagree with the cells".into());
        }
        for color in Color::ALL {
            let kings: Vec<Square> = self.occupied[color.index()]
                .iter()
                .filter(|&sq| role_of(self.cells[sq.index()]) == Role::King)
                .collect();
            let known = self.kings[color.index()];
            let fine = match kings.as_slice() {
                [] => known.is_none(),
                // With several kings (giveaway games) any of them will do.
                _ => known.is_some_and(|k| kings.contains(&k)),
            };
            if !fine {
                return Err(format!("{color} king square is stale"));
            }
        }
        if self.recomputed_key() != self.hash {
            return Err("incremental key differs from recomputed key".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    /// Copy-make copies the whole board for every move played in search; the
    /// padded 16x16 mailbox must keep that copy small on every board size.
    #[test]
    fn a_board_stays_under_a_kilobyte() {
        let size = std::mem::size_of::<super::Board>();
        assert!(size < 1024, "Board is {size} bytes");
    }
}
