//! Where things go in the picture.

use voidmate_rules::{BoardSize, Color, Square};

/// Pixel geometry of one image: squares of `square` pixels inside a margin
/// that carries the coordinates, under an optional caption strip.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    pub size: BoardSize,
    /// The part of the board shown: its first file and rank, and how many
    /// of each (the whole board, or a zoomed window of it).
    pub first: (u8, u8),
    pub shown: (u8, u8),
    pub orientation: Color,
    pub square: u32,
    pub margin: u32,
    /// Height of the caption strip (0: none).
    pub caption: u32,
    /// Lines of text in it: one; two when names and status do not fit side
    /// by side; three when the names need a line each.
    pub caption_lines: u32,
    pub width: u32,
    pub height: u32,
}

impl Layout {
    /// 64 px squares up to 10 files, 48 px on wider boards, so a 16x16 board
    /// stays under 900 px. Wide boards get a wider margin: chat shows them
    /// about 400 px wide, and their coordinates must stay readable there.
    pub fn new(size: BoardSize, orientation: Color, caption_lines: u32) -> Layout {
        Layout::window(
            size,
            orientation,
            caption_lines,
            (0, 0),
            (size.files(), size.ranks()),
        )
    }

    /// The window of `shown` files and ranks from `first` (clamped to the
    /// board), drawn at the square size of a board that size.
    pub fn window(
        size: BoardSize,
        orientation: Color,
        caption_lines: u32,
        first: (u8, u8),
        shown: (u8, u8),
    ) -> Layout {
        let shown = (shown.0.min(size.files()), shown.1.min(size.ranks()));
        let first = (
            first.0.min(size.files() - shown.0),
            first.1.min(size.ranks() - shown.1),
        );
        let wide = shown.0 > 10;
        let square = if wide { 48 } else { 64 };
        let margin = if wide {
            square * 5 / 8
        } else {
            square * 7 / 16
        };
        let width = shown.0 as u32 * square + 2 * margin;
        let caption = caption_lines * Self::caption_line(square, width);
        Layout {
            size,
            first,
            shown,
            orientation,
            square,
            margin,
            caption,
            caption_lines,
            width,
            height: shown.1 as u32 * square + 2 * margin + caption,
        }
    }

    /// Height of one caption line: three quarters of a square, and on wide
    /// boards enough that capital letters stay 7.5 px tall when chat shows
    /// the image 400 px wide.
    fn caption_line(square: u32, width: u32) -> u32 {
        (square * 3 / 4).max((width * 2).div_ceil(29))
    }

    /// Height of one line of the caption (0: none).
    pub fn caption_line_height(&self) -> u32 {
        self.caption / self.caption_lines.max(1)
    }

    /// Whether the picture shows `sq`.
    pub fn contains(&self, sq: Square) -> bool {
        self.size.contains(sq)
            && (self.first.0..self.first.0 + self.shown.0).contains(&sq.file())
            && (self.first.1..self.first.1 + self.shown.1).contains(&sq.rank())
    }

    /// The squares the picture shows.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        self.size.squares().filter(|&sq| self.contains(sq))
    }

    /// Column and row on screen of a square (0, 0 top-left).
    pub fn cell(&self, sq: Square) -> (u32, u32) {
        let f = (sq.file() - self.first.0) as u32;
        let r = (sq.rank() - self.first.1) as u32;
        let (files, ranks) = (self.shown.0 as u32, self.shown.1 as u32);
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
