//! The renderer: its caches (a palette and the drawn squares per theme, a
//! frame per board size, orientation and theme), and the drawing of a whole
//! image from them: squares copied, arrows and the caption drawn, the
//! result encoded.

use crate::caption;
use crate::layout::Layout;
use crate::options::{RenderOptions, ZOOM};
use crate::palette::{blend, Palette};
use crate::text::{self, Text};
use crate::theme::{self, PieceColour, Theme};
use crate::tiles::{marks, Floor, TileKey};
use crate::{encode, frame, tiles};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use voidmate_rules::defined::Art;
use voidmate_rules::{Color, MoveKind, Position, Role, Rules, Square, Tile};

/// How a piece of `role` is drawn in `rules`' game: a role's drawing, or
/// (a fairy piece of a game read from a file) its letter in a disc.
fn art(rules: &Rules, role: Role) -> (Role, Option<char>) {
    match rules.variant().defined_spec().and_then(|s| s.art_of(role)) {
        Some(Art::Letter(c)) => (role, Some(c)),
        Some(Art::Drawing(r)) => (r, None),
        None => (role, None),
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
    text: Text,
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
            text: Text::new(),
        }
    }

    /// One renderer for the whole process.
    pub fn shared() -> &'static Renderer {
        static SHARED: OnceLock<Renderer> = OnceLock::new();
        SHARED.get_or_init(Renderer::new)
    }

    /// The geometry an image of `pos` with `opts` will have: a caption of
    /// as many lines as its words need (see the `caption` module).
    pub fn layout(&self, pos: &Position, opts: &RenderOptions) -> Layout {
        self.fitted(pos, opts).0
    }

    /// The kinds of names this machine's fonts cannot draw, each with the
    /// package that draws them: what `run` and `console` warn of at start
    /// (captions then show `?` for what they cannot draw).
    pub fn missing_fonts(&self) -> Vec<(&'static str, &'static str)> {
        const NEEDS: [(&str, &str, &str); 2] = [
            (
                "名前",
                "Chinese, Japanese and Korean names",
                "fonts-noto-cjk",
            ),
            ("😀", "emoji in names", "fonts-noto-color-emoji"),
        ];
        NEEDS
            .into_iter()
            .filter(|(sample, _, _)| !self.text.drawable(sample, 16))
            .map(|(_, what, package)| (what, package))
            .collect()
    }

    /// How many lines the caption of `pos` with `opts` takes.
    /// The caption's lines as drawn on an image of `pos` with `opts`.
    pub fn caption_lines(&self, pos: &Position, opts: &RenderOptions) -> Vec<String> {
        self.fitted(pos, opts).1.iter().map(|l| l.text()).collect()
    }

    /// The glyphs of the caption as drawn, run by run: which font drew each
    /// and where. Tests compare them with a shaper's own output.
    pub fn caption_runs(&self, pos: &Position, opts: &RenderOptions) -> Vec<CaptionRun> {
        let (layout, lines) = self.fitted(pos, opts);
        let mut out = Vec::new();
        self.place_caption(&layout, &lines, |text, x, line| {
            let shaped = self.text.shape(text, Self::caption_size(&layout));
            out.push(CaptionRun {
                text: text.to_string(),
                line,
                x,
                glyphs: shaped
                    .glyphs
                    .iter()
                    .map(|g| CaptionGlyph {
                        font: self.text.family(g.font),
                        id: g.glyph_id,
                        x: x + g.left,
                    })
                    .collect(),
            });
        });
        out
    }

    /// The first font's missing-glyph box as drawn in `pos`'s caption:
    /// coverage rows (0..=255), for tests that make sure it never shows.
    pub fn missing_glyph(&self, pos: &Position, opts: &RenderOptions) -> Option<(u32, Vec<u8>)> {
        let layout = self.layout(pos, opts);
        let g = self.text.missing_glyph(Self::caption_size(&layout))?;
        Some((g.width, g.data.clone()))
    }

    /// The layout with the caption's lines fitted to it.
    pub(crate) fn fitted(
        &self,
        pos: &Position,
        opts: &RenderOptions,
    ) -> (Layout, Vec<caption::Line>) {
        let (size, orientation) = (pos.rules().size(), opts.orientation);
        let (first, shown) = match opts.zoom.filter(|&s| size.contains(s)) {
            // The window centred on the square as far as the board allows.
            Some(s) => (
                (
                    s.file().saturating_sub(ZOOM / 2 - 1),
                    s.rank().saturating_sub(ZOOM / 2 - 1),
                ),
                (ZOOM, ZOOM),
            ),
            None => ((0, 0), (size.files(), size.ranks())),
        };
        let layout = |lines| Layout::window(size, orientation, lines, first, shown);
        let Some(c) = &opts.caption else {
            return (layout(0), Vec::new());
        };
        let one = layout(1);
        let font = Self::caption_size(&one);
        let room = one.width as f32 - 2.0 * one.margin as f32;
        let lines = caption::fit(&self.text, c, font, room, one.margin as f32);
        (layout(lines.len() as u32), lines)
    }

    /// The font size (em, px) of caption text: by the height of one line.
    fn caption_size(layout: &Layout) -> u32 {
        (layout.caption_line_height() * 387 / 1000).max(8)
    }

    /// Calls `put` with each run of the caption, its left edge and its line.
    fn place_caption(
        &self,
        layout: &Layout,
        lines: &[caption::Line],
        mut put: impl FnMut(&str, f32, u32),
    ) {
        let size = Self::caption_size(layout);
        let margin = layout.margin as f32;
        for (i, line) in lines.iter().enumerate() {
            let mut pen = margin;
            for run in &line.left {
                put(run, pen, i as u32);
                pen += self.text.width(run, size);
            }
            if let Some(right) = &line.right {
                let x = layout.width as f32 - margin - self.text.width(right, size);
                put(right, x.max(pen + margin), i as u32);
            }
        }
    }

    /// Draws `pos` and returns a PNG (8-bit indexed colour).
    pub fn render(&self, pos: &Position, opts: &RenderOptions) -> Vec<u8> {
        let (layout, pixels) = self.pixels(pos, opts, 0);
        encode::encode(
            &pixels,
            layout.width,
            layout.height,
            &self.theme(opts.theme).plte,
        )
    }

    /// The picture of `pos` as palette indices (the theme's palette, see
    /// [`Renderer::palette`]), with a caption of at least `min_lines` lines
    /// (a replay keeps one size for all its frames).
    pub(crate) fn pixels(
        &self,
        pos: &Position,
        opts: &RenderOptions,
        min_lines: usize,
    ) -> (Layout, Vec<u8>) {
        self.pixels_fitted(pos, opts, self.fitted(pos, opts), min_lines)
    }

    /// [`Renderer::pixels`] with the caption fitted already (a replay fits
    /// each frame's caption once, to size every frame by the tallest).
    pub(crate) fn pixels_fitted(
        &self,
        pos: &Position,
        opts: &RenderOptions,
        fitted: (Layout, Vec<caption::Line>),
        min_lines: usize,
    ) -> (Layout, Vec<u8>) {
        let (layout, mut lines) = fitted;
        let layout = if lines.len() < min_lines && opts.caption.is_some() {
            while lines.len() < min_lines {
                lines.push(caption::Line {
                    left: Vec::new(),
                    right: None,
                });
            }
            Layout::window(
                layout.size,
                layout.orientation,
                min_lines as u32,
                layout.first,
                layout.shown,
            )
        } else {
            layout
        };
        let theme = self.theme(opts.theme);
        let mut pixels: Vec<u8> = self.frame(&layout, opts.theme).as_ref().clone();
        let stride = layout.width as usize;
        let side = layout.square as usize;
        for (sq, key) in tile_keys(pos, opts, &layout) {
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
        // A relativistic move: into the black hole, out of the white one.
        if let (Some((from, to)), Some((black, white))) = (opts.last_move, opts.through) {
            for (a, b) in [(from, black), (white, to)] {
                draw_arrow(&mut pixels, &layout, theme, opts.theme, a, b);
            }
        }
        if opts.caption.is_some() {
            let bg = opts.theme.colors().caption_bg;
            self.draw_caption(&mut pixels, &layout, theme, bg, &lines);
        }
        (layout, pixels)
    }

    /// A theme's palette: 256 RGB triples, the same for every image.
    pub fn palette(&self, theme: Theme) -> &[u8] {
        &self.theme(theme).plte
    }

    fn theme(&self, theme: Theme) -> &ThemeData {
        self.themes[theme.index()].get_or_init(|| {
            let colors = theme.colors();
            let palette = Palette::learn(colors, &palette_samples(theme));
            let caption_ramp = palette.ramp(colors.caption_bg, colors.caption_fg);
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

    fn draw_caption(
        &self,
        pixels: &mut [u8],
        layout: &Layout,
        theme: &ThemeData,
        bg: theme::Rgb,
        lines: &[caption::Line],
    ) {
        let size = Self::caption_size(layout);
        let line_h = layout.caption_line_height() as f32;
        let ascent = self.text.ascent(size);
        let ink = Ink {
            palette: &theme.palette,
            ramp: &theme.caption_ramp,
            bg,
            clip: [0, 0, layout.width as i32, layout.caption as i32],
        };
        self.place_caption(layout, lines, |run, x, line| {
            let baseline = (line_h * line as f32 + line_h / 2.0 + ascent / 2.0 - 1.0) as i32;
            self.draw_run(pixels, layout.width, &ink, run, size, x, baseline);
        });
    }

    /// The shaper and glyph cache that captions are drawn with.
    pub(crate) fn text(&self) -> &Text {
        &self.text
    }

    /// A theme's palette, for drawing other pictures in the boards' colours.
    pub(crate) fn theme_palette(&self, theme: Theme) -> &Palette {
        &self.theme(theme).palette
    }

    /// Draws `run` shaped at `size` px into `pixels` (palette indices,
    /// `width` a row), its left edge at `x` and its baseline at `baseline`:
    /// the one way text is put into a picture, captions' and tables' alike.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn draw_run(
        &self,
        pixels: &mut [u8],
        width: u32,
        ink: &Ink,
        run: &str,
        size: u32,
        x: f32,
        baseline: i32,
    ) {
        let shaped = self.text.shape(run, size);
        let pen = x.round() as i32;
        for g in &shaped.glyphs {
            // Glyph 0 is the missing-glyph box: never drawn.
            if g.glyph_id == 0 {
                continue;
            }
            if let Some(img) = self.text.image(g.key) {
                put_glyph(
                    pixels,
                    width,
                    ink,
                    &img,
                    pen + g.x + img.left,
                    baseline + g.y - img.top,
                );
            }
        }
    }
}

/// How text is drawn into a picture: its colours, and where it may go.
pub(crate) struct Ink<'a> {
    pub palette: &'a Palette,
    /// The text's colour by coverage, in 16 steps from `bg` (see
    /// [`Palette::ramp`]).
    pub ramp: &'a [u8; 16],
    /// What the text lies on: colour glyphs (emoji) are blended over it.
    pub bg: theme::Rgb,
    /// The only pixels drawn: left, top, right and bottom, the last two
    /// excluded.
    pub clip: [i32; 4],
}

/// A run of caption text as drawn (see [`Renderer::caption_runs`]).
#[derive(Clone, Debug, PartialEq)]
pub struct CaptionRun {
    pub text: String,
    /// Which line of the caption, from 0.
    pub line: u32,
    /// Left edge in pixels.
    pub x: f32,
    pub glyphs: Vec<CaptionGlyph>,
}

/// One glyph of a caption: the font's family, the glyph's id in it, and its
/// left edge in pixels.
#[derive(Clone, Debug, PartialEq)]
pub struct CaptionGlyph {
    pub font: String,
    pub id: u16,
    pub x: f32,
}

/// Draws a glyph's pixels inside the ink's clip: coverage through its
/// ramp, colour (emoji) over its background.
fn put_glyph(pixels: &mut [u8], width: u32, ink: &Ink, g: &text::GlyphImage, x0: i32, y0: i32) {
    let [left, top, right, bottom] = ink.clip;
    for gy in 0..g.height as i32 {
        for gx in 0..g.width as i32 {
            let (x, y) = (x0 + gx, y0 + gy);
            if x < left.max(0) || y < top.max(0) || x >= right.min(width as i32) || y >= bottom {
                continue;
            }
            let at = (gy as u32 * g.width + gx as u32) as usize;
            let Some(px) = pixels.get_mut(y as usize * width as usize + x as usize) else {
                continue;
            };
            if g.colour {
                let c = &g.data[at * 4..at * 4 + 4];
                if c[3] < 8 {
                    continue;
                }
                let a = c[3] as f32 / 255.0;
                // swash gives colour glyphs with straight alpha.
                *px = ink.palette.index(blend(ink.bg, [c[0], c[1], c[2]], a));
            } else {
                let cov = g.data[at];
                if cov >= 8 {
                    *px = ink.ramp[(cov >> 4) as usize];
                }
            }
        }
    }
}

/// Each square of the picture and how it must look.
fn tile_keys(pos: &Position, opts: &RenderOptions, layout: &Layout) -> Vec<(Square, TileKey)> {
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
    // A king on its own unstable tile falls with it after its side's next
    // move unless it leaves: as urgent as check.
    for color in Color::ALL {
        if let Some(k) = pos.board().king(color) {
            if matches!(pos.tile(k), Tile::Unstable { owner, .. } if owner == color) {
                mark(k, marks::MUST_LEAVE);
            }
        }
    }
    if let Some(sel) = opts.select.filter(|&s| size.contains(s)) {
        mark(sel, marks::SELECTED);
        // A piece of the side not to move: its moves on its next turn.
        let side = pos.piece_at(sel).map_or(pos.turn(), |p| p.color);
        let passed = (side != pos.turn()).then(|| pos.passed_turn()).flatten();
        let mover = passed.as_ref().unwrap_or(pos);
        if mover.turn() == side {
            for m in mover.legal_moves().iter().filter(|m| m.from == sel) {
                let capture = m.kind == MoveKind::EnPassant
                    || mover.piece_at(m.to).is_some_and(|p| p.color != side);
                mark(m.to, if capture { marks::RING } else { marks::DOT });
            }
        }
    }
    layout
        .squares()
        .map(|sq| {
            let floor = match pos.tile(sq) {
                Tile::Normal => Floor::Normal,
                Tile::Void => Floor::Void,
                Tile::Unstable { owner, .. } => Floor::Unstable(owner),
            };
            let art = pos
                .piece_at(sq)
                .map(|p| (p.color, art(pos.rules(), p.role)));
            let key = TileKey {
                light: sq.is_light(),
                floor,
                marks: marks_at.get(&sq).copied().unwrap_or(0),
                piece: art.map(|(color, (role, _))| (color, role)),
                letter: art.and_then(|(_, (_, letter))| letter),
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
                marks::MUST_LEAVE,
            ] {
                keys.push(TileKey {
                    light,
                    floor,
                    marks: m,
                    piece: None,
                    hue: None,
                    letter: None,
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
                    letter: None,
                });
            }
            keys.push(TileKey {
                light,
                floor: Floor::Unstable(color),
                marks: marks::LAST_MOVE,
                piece: Some((color, Role::Pawn)),
                hue: None,
                letter: None,
            });
        }
        // A fairy piece of a game read from a file: its letter in a disc.
        for color in Color::ALL {
            keys.push(TileKey {
                light,
                floor: Floor::Normal,
                marks: 0,
                piece: Some((color, Role::Paladin)),
                hue: None,
                letter: Some('A'),
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
                    letter: None,
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
    if !layout.contains(from) || !layout.contains(to) || from == to {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A game read from a file shows chess's pieces with their drawings and
    /// its fairy pieces as their letters, never as another game's piece; a
    /// file may name a drawing for a piece; the built-in games are as ever.
    #[test]
    fn a_defined_games_fairy_pieces_are_drawn_as_letters() {
        let capa = voidmate_rules::variant("capablanca").unwrap();
        let role_of = |letter: char| {
            capa.definition()
                .roster
                .iter()
                .find(|r| r.letter == letter)
                .unwrap()
                .role
        };
        assert_eq!(art(capa, role_of('N')), (Role::Knight, None));
        assert_eq!(art(capa, role_of('K')), (Role::King, None));
        assert_eq!(art(capa, role_of('A')), (role_of('A'), Some('A')));
        assert_eq!(art(capa, role_of('C')), (role_of('C'), Some('C')));
        let named = voidmate_rules::defined::load(
            "art.toml",
            "[art-test]\ninherits = \"capablanca\"\ntitle = \"Art\"\n\n[art-test.pieces]\nA = { moves = \"BN\", name = \"archbishop\", art = \"archbishop\" }\n",
        )
        .unwrap()[0];
        let a = named
            .definition()
            .roster
            .iter()
            .find(|r| r.letter == 'A')
            .unwrap()
            .role;
        assert_eq!(art(named, a), (Role::Archbishop, None));
        let void = voidmate_rules::variant("void").unwrap();
        assert_eq!(art(void, Role::Minister), (Role::Minister, None));
        // The letter is drawn: the square differs from the same piece's
        // drawing, and from another letter.
        let key = |letter| TileKey {
            light: true,
            floor: Floor::Normal,
            marks: 0,
            piece: Some((Color::White, Role::Paladin)),
            hue: None,
            letter,
        };
        let (disc_a, disc_c, drawing) = (
            tiles::draw(Theme::default(), 64, &key(Some('A'))),
            tiles::draw(Theme::default(), 64, &key(Some('C'))),
            tiles::draw(Theme::default(), 64, &key(None)),
        );
        assert_ne!(disc_a, drawing);
        assert_ne!(disc_a, disc_c);
    }
}
