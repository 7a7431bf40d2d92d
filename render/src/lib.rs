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
//! palette per theme ([`palette`](crate::palette)), a frame per board size,
//! orientation and theme (margins, coordinates, empty squares), and each
//! finished square (floor, marks, piece) the first time it is needed, all as
//! 8-bit palette indices. An image then costs a copy of the frame, a copy of
//! each square that differs from an empty one, and a fast PNG encoding.
//! Drawing uses `imageproc` and `resvg` only while those caches fill.
//!
//! Modules, one job each: `theme` (colours), `assets` (our piece art and the
//! font), `palette`, `paint` (drawing helpers), `tiles` (squares), `layout`
//! (geometry), `frame`, `text` (captions).

mod assets;
pub mod demo;
mod frame;
mod layout;
mod paint;
mod palette;
mod text;
mod theme;
mod tiles;

pub use layout::Layout;
pub use theme::{PieceColour, Theme};

use palette::{blend, Palette};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use text::Glyphs;
use tiles::{marks, Floor, TileKey};
use voidmate_rules::{Color, MoveKind, Position, Role, Square, Tile};

/// Longest player name shown in a caption; longer names are cut.
pub const MAX_NAME_CHARS: usize = 24;

/// The strip above the board: who plays whom, and the state of the game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Caption {
    pub white: String,
    pub black: String,
    /// "White to move", "1-0 checkmate", ...
    pub status: String,
    /// What to call the sides after the names; `None`: "White" and
    /// "Black". Super Chess says "Player 1" and "Player 2".
    pub sides: Option<[String; 2]>,
}

/// A caption's words as fitted to an image.
struct CaptionText {
    players: String,
    status: String,
    /// Both on one line (players left, status right), or stacked.
    one_line: bool,
}

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
}

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
        }
    }
}

struct ThemeData {
    palette: Palette,
    plte: Vec<u8>,
    /// Caption text colours by coverage, 16 steps.
    caption_ramp: [u8; 16],
}

/// Drawn pixels (palette indices) by key, built on first use.
struct Cache<K>(Mutex<HashMap<K, Arc<Vec<u8>>>>);

impl<K: std::hash::Hash + Eq + Copy> Cache<K> {
    fn new() -> Self {
        Cache(Mutex::new(HashMap::new()))
    }

    /// The cached pixels for `key`; `build` runs outside the lock, so other
    /// threads keep rendering while a new piece of the picture is drawn.
    fn get(&self, key: K, build: impl FnOnce() -> Vec<u8>) -> Arc<Vec<u8>> {
        if let Some(hit) = self.0.lock().unwrap().get(&key) {
            return hit.clone();
        }
        let built = Arc::new(build());
        self.0.lock().unwrap().entry(key).or_insert(built).clone()
    }
}

/// Draws board images, keeping everything it has drawn for the next image.
/// Share one (see [`Renderer::shared`]); it is safe to use from many threads.
pub struct Renderer {
    themes: [OnceLock<ThemeData>; 2],
    frames: Cache<(Layout, Theme)>,
    tiles: Cache<(Theme, u32, TileKey)>,
    glyphs: Glyphs,
}

impl Default for Renderer {
    fn default() -> Self {
        Renderer::new()
    }
}

impl Renderer {
    pub fn new() -> Renderer {
        Renderer {
            themes: [OnceLock::new(), OnceLock::new()],
            frames: Cache::new(),
            tiles: Cache::new(),
            glyphs: Glyphs::new(assets::font()),
        }
    }

    /// One renderer for the whole process.
    pub fn shared() -> &'static Renderer {
        static SHARED: OnceLock<Renderer> = OnceLock::new();
        SHARED.get_or_init(Renderer::new)
    }

    /// The geometry an image of `pos` with `opts` will have: a caption of
    /// one line, or of two when the players and the status do not fit side
    /// by side.
    pub fn layout(&self, pos: &Position, opts: &RenderOptions) -> Layout {
        let (size, orientation) = (pos.rules().size(), opts.orientation);
        let Some(caption) = &opts.caption else {
            return Layout::new(size, orientation, 0);
        };
        let one = Layout::new(size, orientation, 1);
        if self.caption_text(&one, caption).one_line {
            one
        } else {
            Layout::new(size, orientation, 2)
        }
    }

    /// The caption's lines as drawn on an image of `pos` with `opts`: the
    /// players (names shortened with an ellipsis to fit, never dropped) and
    /// the status, side by side when they fit, else one under the other.
    pub fn caption_lines(&self, pos: &Position, opts: &RenderOptions) -> Vec<String> {
        let Some(c) = &opts.caption else {
            return Vec::new();
        };
        let t = self.caption_text(&self.layout(pos, opts), c);
        if t.one_line {
            vec![format!("{}  {}", t.players, t.status)]
        } else {
            vec![t.players, t.status]
        }
    }

    /// The font size of caption text: by the height of one line.
    fn caption_size(layout: &Layout) -> u32 {
        (layout.caption / layout.caption_lines.max(1) * 9 / 20).max(8)
    }

    /// The caption's words fitted to `layout`'s width.
    fn caption_text(&self, layout: &Layout, c: &Caption) -> CaptionText {
        let size = Self::caption_size(layout);
        let room = layout.width as f32 - 2.0 * layout.margin as f32;
        let width = |s: &str| self.glyphs.width(s, size);
        let players = self.players(c, size, f32::INFINITY);
        let status = self.shorten(&c.status, size, room);
        if width(&players) + layout.margin as f32 + width(&status) <= room {
            return CaptionText {
                players,
                status,
                one_line: true,
            };
        }
        CaptionText {
            players: self.players(c, size, room),
            status,
            one_line: false,
        }
    }

    /// "alice (White)  vs  bob (Black)" within `room` pixels: the longer
    /// name is shortened first, each keeps at least one letter.
    fn players(&self, c: &Caption, size: u32, room: f32) -> String {
        let (a, b) = match &c.sides {
            Some([a, b]) => (a.as_str(), b.as_str()),
            None => ("White", "Black"),
        };
        let line = |w: &str, k: &str| format!("{w} ({a})  vs  {k} ({b})");
        let mut names: [Vec<char>; 2] = [
            c.white.chars().take(MAX_NAME_CHARS).collect(),
            c.black.chars().take(MAX_NAME_CHARS).collect(),
        ];
        let long = [
            c.white.chars().count() > MAX_NAME_CHARS,
            c.black.chars().count() > MAX_NAME_CHARS,
        ];
        let shown = |names: &[Vec<char>; 2], cut: [bool; 2]| -> [String; 2] {
            [0, 1].map(|i| {
                let mut s: String = names[i].iter().collect();
                if cut[i] {
                    s.push('…');
                }
                s
            })
        };
        let mut cut = long;
        loop {
            let [w, k] = shown(&names, cut);
            let text = line(&w, &k);
            let longer = if names[0].len() >= names[1].len() {
                0
            } else {
                1
            };
            if self.glyphs.width(&text, size) <= room || names[longer].len() <= 1 {
                return text;
            }
            names[longer].pop();
            cut[longer] = true;
        }
    }

    /// `s` within `room` pixels, ending in an ellipsis if cut.
    fn shorten(&self, s: &str, size: u32, room: f32) -> String {
        let mut chars: Vec<char> = s.chars().collect();
        let mut text = s.to_string();
        while self.glyphs.width(&text, size) > room && chars.len() > 1 {
            chars.pop();
            text = chars.iter().collect::<String>() + "…";
        }
        text
    }

    /// Draws `pos` and returns a PNG (8-bit indexed colour).
    pub fn render(&self, pos: &Position, opts: &RenderOptions) -> Vec<u8> {
        let layout = self.layout(pos, opts);
        let theme = self.theme(opts.theme);
        let mut pixels: Vec<u8> = self.frame(&layout, opts.theme).as_ref().clone();
        let stride = layout.width as usize;
        let side = layout.square as usize;
        for (sq, key) in tile_keys(pos, opts) {
            if key.is_plain() {
                continue;
            }
            let tile = self.tile(opts.theme, layout.square, &key);
            let (x0, y0) = layout.origin(sq);
            for row in 0..side {
                let at = (y0 as usize + row) * stride + x0 as usize;
                pixels[at..at + side].copy_from_slice(&tile[row * side..(row + 1) * side]);
            }
        }
        for &(from, to) in &opts.arrows {
            draw_arrow(&mut pixels, &layout, theme, opts.theme, from, to);
        }
        if let Some(caption) = &opts.caption {
            self.draw_caption(&mut pixels, &layout, theme, caption);
        }
        encode(&pixels, layout.width, layout.height, &theme.plte)
    }

    fn theme(&self, theme: Theme) -> &ThemeData {
        self.themes[theme.index()].get_or_init(|| {
            let colors = theme.colors();
            let palette = Palette::learn(colors, &palette_samples(theme));
            let mut caption_ramp = [0; 16];
            for (i, slot) in caption_ramp.iter_mut().enumerate() {
                let rgb = blend(colors.caption_bg, colors.caption_fg, i as f32 / 15.0);
                *slot = palette.index(rgb);
            }
            ThemeData {
                plte: palette.bytes(),
                palette,
                caption_ramp,
            }
        })
    }

    fn frame(&self, layout: &Layout, theme: Theme) -> Arc<Vec<u8>> {
        self.frames.get((*layout, theme), || {
            frame::build(layout, theme, &self.theme(theme).palette)
        })
    }

    fn tile(&self, theme: Theme, px: u32, key: &TileKey) -> Arc<Vec<u8>> {
        self.tiles.get((theme, px, *key), || {
            let palette = &self.theme(theme).palette;
            tiles::draw(theme, px, key)
                .pixels()
                .map(|p| palette.index([p[0], p[1], p[2]]))
                .collect()
        })
    }

    fn draw_caption(&self, pixels: &mut [u8], layout: &Layout, theme: &ThemeData, c: &Caption) {
        let size = Self::caption_size(layout);
        let text = self.caption_text(layout, c);
        let line_h = (layout.caption / layout.caption_lines.max(1)) as f32;
        let baseline = |line: u32| {
            (line_h * line as f32 + line_h / 2.0 + self.glyphs.ascent(size) / 2.0 - 1.0) as i32
        };
        let margin = layout.margin as f32;
        let mut write = |s: &str, mut pen: f32, baseline: i32| {
            for ch in s.chars() {
                pen = self.put_glyph(pixels, layout, theme, ch, size, pen, baseline);
            }
        };
        write(&text.players, margin, baseline(0));
        // Beside the players at the right, or under them at the left.
        if text.one_line {
            let x = layout.width as f32 - margin - self.glyphs.width(&text.status, size);
            write(&text.status, x.max(margin), baseline(0));
        } else {
            write(&text.status, margin, baseline(1));
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn put_glyph(
        &self,
        pixels: &mut [u8],
        layout: &Layout,
        theme: &ThemeData,
        ch: char,
        size: u32,
        pen: f32,
        baseline: i32,
    ) -> f32 {
        let g = self.glyphs.glyph(ch, size);
        let x0 = pen.round() as i32 + g.left;
        let y0 = baseline + g.top;
        for gy in 0..g.height as i32 {
            for gx in 0..g.width as i32 {
                let cov = g.coverage[(gy as u32 * g.width + gx as u32) as usize];
                let (x, y) = (x0 + gx, y0 + gy);
                if cov < 8
                    || x < 0
                    || y < 0
                    || x >= layout.width as i32
                    || y >= layout.caption as i32
                {
                    continue;
                }
                pixels[y as usize * layout.width as usize + x as usize] =
                    theme.caption_ramp[(cov >> 4) as usize];
            }
        }
        pen + g.advance
    }
}

/// Each square of the board and how it must look.
fn tile_keys(pos: &Position, opts: &RenderOptions) -> Vec<(Square, TileKey)> {
    let size = pos.rules().size();
    let mut marks_at: HashMap<Square, u8> = HashMap::new();
    let mut mark = |sq: Square, m: u8| *marks_at.entry(sq).or_insert(0) |= m;
    if let Some((from, to)) = opts.last_move {
        mark(from, marks::LAST_MOVE);
        mark(to, marks::LAST_MOVE);
    }
    if pos.is_check() {
        if let Some(k) = pos.board().king(pos.turn()) {
            mark(k, marks::CHECK);
        }
    }
    if let Some(sel) = opts.select.filter(|&s| size.contains(s)) {
        mark(sel, marks::SELECTED);
        for m in pos.legal_moves().iter().filter(|m| m.from == sel) {
            let capture = m.kind == MoveKind::EnPassant
                || pos.piece_at(m.to).is_some_and(|p| p.color != pos.turn());
            mark(m.to, if capture { marks::RING } else { marks::DOT });
        }
    }
    size.squares()
        .map(|sq| {
            let floor = match pos.tile(sq) {
                Tile::Normal => Floor::Normal,
                Tile::Void => Floor::Void,
                Tile::Unstable { owner, .. } => Floor::Unstable(owner),
            };
            let key = TileKey {
                light: sq.is_light(),
                floor,
                marks: marks_at.get(&sq).copied().unwrap_or(0),
                piece: pos.piece_at(sq).map(|p| (p.color, p.role)),
                hue: pos
                    .piece_at(sq)
                    .and_then(|p| opts.colours.map(|c| c[p.color.index()])),
            };
            (sq, key)
        })
        .collect()
}

/// Sample pixels of every kind of square, for learning a theme's palette.
fn palette_samples(theme: Theme) -> Vec<u8> {
    let px = 40;
    let mut keys = Vec::new();
    for light in [true, false] {
        for floor in [
            Floor::Normal,
            Floor::Void,
            Floor::Unstable(Color::White),
            Floor::Unstable(Color::Black),
        ] {
            for m in [
                0,
                marks::LAST_MOVE,
                marks::SELECTED,
                marks::CHECK,
                marks::DOT,
                marks::RING,
            ] {
                keys.push(TileKey {
                    light,
                    floor,
                    marks: m,
                    piece: None,
                    hue: None,
                });
            }
        }
        for color in Color::ALL {
            for role in Role::ALL {
                keys.push(TileKey {
                    light,
                    floor: Floor::Normal,
                    marks: 0,
                    piece: Some((color, role)),
                    hue: None,
                });
            }
            keys.push(TileKey {
                light,
                floor: Floor::Unstable(color),
                marks: marks::LAST_MOVE,
                piece: Some((color, Role::Pawn)),
                hue: None,
            });
        }
        // Chosen piece colours, on a few shapes.
        for hue in PieceColour::ALL {
            for role in [Role::Pawn, Role::Queen, Role::Knight] {
                keys.push(TileKey {
                    light,
                    floor: Floor::Normal,
                    marks: 0,
                    piece: Some((Color::White, role)),
                    hue: Some(hue),
                });
            }
        }
    }
    let mut out = Vec::new();
    for key in keys {
        out.extend_from_slice(tiles::draw(theme, px, &key).as_raw());
    }
    // Blends that text and arrows produce.
    let c = theme.colors();
    let ramps = [
        (c.margin, c.coords),
        (c.caption_bg, c.caption_fg),
        (c.light, c.arrow.rgb),
        (c.dark, c.arrow.rgb),
    ];
    for _ in 0..40 {
        for (a, b) in ramps {
            for i in 0..=16 {
                let rgb = blend(a, b, i as f32 / 16.0);
                out.extend_from_slice(&[rgb[0], rgb[1], rgb[2], 255]);
            }
        }
    }
    out
}

/// An arrow from the centre of one square to the centre of another,
/// anti-aliased through the palette.
fn draw_arrow(
    pixels: &mut [u8],
    layout: &Layout,
    td: &ThemeData,
    theme: Theme,
    from: Square,
    to: Square,
) {
    if !layout.size.contains(from) || !layout.size.contains(to) || from == to {
        return;
    }
    let tint = theme.colors().arrow;
    let (x0, y0) = layout.center(from);
    let (x1, y1) = layout.center(to);
    let (dx, dy) = (x1 - x0, y1 - y0);
    let len = (dx * dx + dy * dy).sqrt();
    let (ux, uy) = (dx / len, dy / len);
    let sq = layout.square as f32;
    let (half_shaft, head_len, head_half) = (sq * 0.09, (sq * 0.45).min(len * 0.6), sq * 0.25);
    let inside = |x: f32, y: f32| {
        let (px, py) = (x - x0, y - y0);
        let along = px * ux + py * uy;
        let across = (px * uy - py * ux).abs();
        if along < 0.0 || along > len {
            return false;
        }
        if along < len - head_len {
            across <= half_shaft
        } else {
            across <= head_half * (len - along) / head_len
        }
    };
    let pad = head_half + 2.0;
    let xmin = (x0.min(x1) - pad).max(0.0) as u32;
    let xmax = ((x0.max(x1) + pad) as u32).min(layout.width - 1);
    let ymin = (y0.min(y1) - pad).max(0.0) as u32;
    let ymax = ((y0.max(y1) + pad) as u32).min(layout.height - 1);
    for y in ymin..=ymax {
        for x in xmin..=xmax {
            let mut hits = 0;
            for (sx, sy) in [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)] {
                if inside(x as f32 + sx, y as f32 + sy) {
                    hits += 1;
                }
            }
            if hits > 0 {
                let i = y as usize * layout.width as usize + x as usize;
                let under = td.palette.rgb[pixels[i] as usize];
                let rgb = blend(under, tint.rgb, tint.alpha * hits as f32 / 4.0);
                pixels[i] = td.palette.index(rgb);
            }
        }
    }
}

/// Encodes palette indices as an 8-bit indexed PNG. Compression and filter
/// are set explicitly: fast deflate with adaptive filtering is both quick and
/// small for board images (defaults have changed between png versions).
fn encode(pixels: &[u8], width: u32, height: u32, plte: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(32 * 1024);
    let mut enc = png::Encoder::new(&mut out, width, height);
    enc.set_color(png::ColorType::Indexed);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_palette(plte);
    enc.set_deflate_compression(png::DeflateCompression::Level(1));
    enc.set_filter(png::Filter::Adaptive);
    let mut writer = enc.write_header().expect("PNG header into memory");
    writer
        .write_image_data(pixels)
        .expect("PNG data into memory");
    writer.finish().expect("PNG end into memory");
    out
}
