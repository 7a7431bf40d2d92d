//! Board images for Voidmate: a position in, PNG bytes out.
//!
//! ```
//! use voidmate_render::{Renderer, RenderOptions};
//! use voidmate_rules::{variants, Position};
//!
//! let pos = Position::new(variants::void());
//! let png = Renderer::shared().render(&pos, &RenderOptions::default());
//! assert_eq!(&png[1..4], b"PNG");
//! ```
//!
//! Everything that can be drawn ahead of time is drawn once and kept: a
//! palette per theme (`palette`), a frame per board size,
//! orientation and theme (margins, coordinates, empty squares), and each
//! finished square (floor, marks, piece) the first time it is needed, all as
//! 8-bit palette indices. An image then costs a copy of the frame, a copy of
//! each square that differs from an empty one, and a fast PNG encoding.
//! Drawing uses `imageproc` and `resvg` only while those caches fill.
//!
//! Modules, one job each: `options` (what to draw), `renderer` (the caches
//! and the drawing of a whole image), `theme` (colours), `assets` (our piece
//! art and the font), `palette`, `paint` (drawing helpers), `tiles`
//! (squares), `layout` (geometry), `frame`, `text` and `caption` (captions:
//! shaping, and fitting names and status to the width), `encode` (PNG),
//! `gif` (replays), `graph` (a review's evaluation graph), `crosstable` (a
//! round robin's table, its names drawn as captions draw them), `demo`
//! (every piece on one board, for the gallery).

mod assets;
mod caption;
mod crosstable;
pub mod demo;
mod encode;
mod frame;
mod gif;
mod graph;
mod layout;
mod options;
mod paint;
mod palette;
mod renderer;
mod text;
mod theme;
mod tiles;

pub use caption::{Caption, MAX_NAME_GRAPHEMES};
pub use crosstable::{CrossRow, Crosstable, CrosstableError};
pub use gif::{Replay, ReplayFrame};
pub use graph::{EvalGraph, GraphMark, Severity, GRAPH_SIZE};
pub use layout::Layout;
pub use options::{RenderOptions, ZOOM};
pub use renderer::{CaptionGlyph, CaptionRun, Renderer};
pub use theme::{PieceColour, Theme};
