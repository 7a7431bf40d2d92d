//! Where things go in the picture.

use voidmate_rules::{BoardSize, Color, Square};

/// Pixel geometry of one image: squares of `square` pixels inside a margin
/// that carries the coordinates, under an optional caption strip.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    pub size: BoardSize,
    pub orientation: Color,
    pub square: u32,
    pub margin: u32,
    /// Height of the caption strip (0: none).
    pub caption: u32,
    /// Lines of text in it: one, or two when names and status do not fit
    /// side by side.
    pub caption_lines: u32,
    pub width: u32,
    pub height: u32,
}

impl Layout {
    /// 64 px squares up to 10 files, 48 px on wider boards, so a 16x16 board
    /// stays under 900 px. Wide boards get a wider margin: chat shows them
    /// about 400 px wide, and their coordinates must stay readable there.
    pub fn new(size: BoardSize, orientation: Color, caption_lines: u32) -> Layout {
        let wide = size.files() > 10;
        let square = if wide { 48 } else { 64 };
        let margin = if wide {
            square * 5 / 8
        } else {
            square * 7 / 16
        };
        let caption = caption_lines * (square * 3 / 4);
        Layout {
            size,
            orientation,
            square,
            margin,
            caption,
            caption_lines,
            width: size.files() as u32 * square + 2 * margin,
            height: size.ranks() as u32 * square + 2 * margin + caption,
        }
    }

    /// Column and row on screen of a square (0, 0 top-left).
    pub fn cell(&self, sq: Square) -> (u32, u32) {
        let (f, r) = (sq.file() as u32, sq.rank() as u32);
        let (files, ranks) = (self.size.files() as u32, self.size.ranks() as u32);
        match self.orientation {
            Color::White => (f, ranks - 1 - r),
            Color::Black => (files - 1 - f, r),
        }
    }

    /// Top-left pixel of a square.
    pub fn origin(&self, sq: Square) -> (u32, u32) {
        let (col, row) = self.cell(sq);
        (
            self.margin + col * self.square,
            self.caption + self.margin + row * self.square,
        )
    }

    /// Centre pixel of a square.
    pub fn center(&self, sq: Square) -> (f32, f32) {
        let (x, y) = self.origin(sq);
        let half = self.square as f32 / 2.0;
        (x as f32 + half, y as f32 + half)
    }
}
