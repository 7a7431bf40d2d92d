//! What to draw besides the position itself: orientation, theme, marks,
//! arrows, the caption, colours and a closer look at a big board.

use crate::caption::Caption;
use crate::theme::{PieceColour, Theme};
use voidmate_rules::{Color, Square};

/// What to draw besides the position itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderOptions {
    /// The side shown at the bottom.
    pub orientation: Color,
    pub theme: Theme,
    /// The last move's from and to squares, highlighted.
    pub last_move: Option<(Square, Square)>,
    /// A piece whose legal moves are marked: dots for quiet moves, rings for
    /// captures.
    pub select: Option<Square>,
    /// Arrows from one square to another.
    pub arrows: Vec<(Square, Square)>,
    pub caption: Option<Caption>,
    /// Each side's piece colour (White's, Black's); `None`: the theme's.
    pub colours: Option<[PieceColour; 2]>,
    /// The holes a relativistic last move went through (the black hole in,
    /// the white hole out): its path is drawn as an arrow in two legs.
    pub through: Option<(Square, Square)>,
    /// Draw only an 8x8 window of the board around this square, at full
    /// size, to look closer at a big board.
    pub zoom: Option<Square>,
}

/// Files and ranks of a zoomed window.
pub const ZOOM: u8 = 8;

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            orientation: Color::White,
            theme: Theme::Classic,
            last_move: None,
            select: None,
            arrows: Vec::new(),
            caption: None,
            colours: None,
            through: None,
            zoom: None,
        }
    }
}
