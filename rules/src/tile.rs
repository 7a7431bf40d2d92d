//! The tile layer: what lies under a square besides a piece.

use crate::{Color, Square};

/// The state of a square's floor.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Tile {
    Normal,
    /// Made by a capture of `owner` in full move `since`; it turns void at the
    /// end of `owner`'s next move.
    Unstable {
        owner: Color,
        since: u16,
    },
    /// A hole in the board: only void-crossers (the Minister) may enter it.
    Void,
}

/// An unstable tile as the position stores it: at most one per side, because a
/// side's tile turns void at the end of that side's next move, the move that
/// may make the next one.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Unstable {
    pub square: Square,
    pub since: u16,
}
