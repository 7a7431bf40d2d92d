//! Finished squares: floor, marks and piece, drawn once and kept as palette
//! indices.

use crate::assets::sprite;
use crate::paint::{composite, coverage, disc, fill, fill_with, polygon, ring};
use crate::palette::{blend, tint};
use crate::theme::{PieceColour, Theme};
use image::{Rgba, RgbaImage};
use voidmate_rules::{Color, Role};

/// What lies under a piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Floor {
    Normal,
    Void,
    /// An unstable tile and the side whose move will turn it void.
    Unstable(Color),
}

pub(crate) mod marks {
    pub const LAST_MOVE: u8 = 1;
    pub const CHECK: u8 = 2;
    pub const SELECTED: u8 = 4;
    /// A quiet move of the selected piece may go here.
    pub const DOT: u8 = 8;
    /// The selected piece may capture here.
    pub const RING: u8 = 16;
    /// A king on its own unstable tile: it must leave at once.
    pub const MUST_LEAVE: u8 = 32;
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct TileKey {
    pub light: bool,
    pub floor: Floor,
    pub marks: u8,
    pub piece: Option<(Color, Role)>,
    /// The piece's paint when its player chose one (`None`: the theme's
    /// colour for its side).
    pub hue: Option<PieceColour>,
    /// Drawn as this letter in a disc rather than the role's drawing (a
    /// fairy piece of a game read from a file).
    pub letter: Option<char>,
}

impl TileKey {
    /// A square the frame already shows as it is.
    pub fn is_plain(&self) -> bool {
        self.floor == Floor::Normal && self.marks == 0 && self.piece.is_none()
    }
}

/// Draws a square of `px` pixels in RGBA.
pub(crate) fn draw(theme: Theme, px: u32, key: &TileKey) -> RgbaImage {
    let c = theme.colors();
    let w = px as f32;
    let base = if key.light { c.light } else { c.dark };
    let mut img = RgbaImage::from_pixel(px, px, Rgba([base[0], base[1], base[2], 255]));

    if key.floor == Floor::Void {
        draw_void(theme, &mut img, w);
    }
    // On a void or unstable tile the last move is a frame drawn over the
    // tile (below), so that the tile and the move both show; a fill would
    // hide a void that appeared with the move.
    let special = key.floor != Floor::Normal;
    if key.marks & marks::LAST_MOVE != 0 && !special {
        let t = tint(base, c.last_move);
        fill_with(&mut img, t, |_, _| 1.0);
        if c.last_move_border {
            frame(&mut img, w, (w / 16.0).max(2.0), c.last_move.rgb);
        }
    }
    if key.marks & marks::SELECTED != 0 {
        fill_with(&mut img, tint(base, c.selected), |_, _| 1.0);
    }
    if let Floor::Unstable(owner) = key.floor {
        draw_unstable(theme, &mut img, w, owner);
    }
    if key.marks & marks::LAST_MOVE != 0 && special {
        frame(&mut img, w, (w / 9.0).max(3.0), c.last_move.rgb);
    }
    // In check the king must move anyway: check's own mark says it.
    let must_leave = key.marks & marks::MUST_LEAVE != 0 && key.marks & marks::CHECK == 0;
    if must_leave {
        hazard_frame(&mut img, w);
    }
    if key.marks & marks::CHECK != 0 {
        // A glow under the king, and a ring round it, so check does not rest on colour.
        fill_with(&mut img, c.check, |x, y| {
            let d = ((x - w / 2.0).powi(2) + (y - w / 2.0).powi(2)).sqrt() / (w * 0.5);
            (1.0 - d).max(0.0).powf(0.8) * 1.1
        });
        // The ring is light between dark edges: it stands out by lightness
        // on any floor, the red glow and stripes of an unstable tile too,
        // whatever colours the eye tells apart.
        let edge = ring(px, w / 2.0, w / 2.0, w * 0.5, w * 0.4);
        fill(&mut img, &edge, [0x14, 0x10, 0x12], 0.95);
        let band = ring(px, w / 2.0, w / 2.0, w * 0.482, w * 0.418);
        fill(
            &mut img,
            &band,
            blend(c.check, [0xff, 0xff, 0xff], 0.45),
            1.0,
        );
    }
    if let Some((color, role)) = key.piece {
        let paint = match key.hue {
            Some(h) => h.paint(theme),
            None => *c.piece(color),
        };
        match key.letter {
            Some(l) => letter_disc(&mut img, &paint, l, w),
            None => composite(&mut img, &sprite(&paint, role, px)),
        }
    }
    if must_leave {
        warning_badge(&mut img, w);
    }
    if key.marks & marks::DOT != 0 {
        // Bigger on the small squares of wide boards, which chat shrinks most.
        let r = if px <= 48 { 0.2 } else { 0.15 };
        let d = coverage(px, px, |g, s| disc(g, s, w / 2.0, w / 2.0, w * r));
        fill(&mut img, &d, c.marker.rgb, c.marker.alpha);
    }
    if key.marks & marks::RING != 0 {
        let r = ring(px, w / 2.0, w / 2.0, w * 0.5, w * 0.41);
        fill(&mut img, &r, c.marker.rgb, c.marker.alpha);
    }
    img
}

/// A piece drawn as its letter in a disc of its side's paint: a fairy
/// piece no drawing of ours shows.
fn letter_disc(img: &mut RgbaImage, paint: &crate::theme::PieceColors, letter: char, w: f32) {
    use ab_glyph::{Font, PxScale, ScaleFont};
    let px = img.width();
    let body = coverage(px, px, |g, s| disc(g, s, w / 2.0, w / 2.0, w * 0.4));
    fill(img, &body, paint.fill, 1.0);
    let edge = ring(px, w / 2.0, w / 2.0, w * 0.4, w * 0.35);
    fill(img, &edge, paint.line, 1.0);
    let font = crate::assets::font();
    let scale = PxScale::from(w * 0.5);
    let scaled = font.as_scaled(scale);
    let glyph = font.glyph_id(letter.to_ascii_uppercase());
    let width = scaled.h_advance(glyph);
    let height = scaled.ascent() - scaled.descent();
    let x = (w / 2.0 - width / 2.0).round() as i32;
    let y = (w / 2.0 - height / 2.0).round() as i32;
    // The drawings' detail colour: the one that stands out on the fill
    // (light on a dark piece, dark on a light one).
    let ink = image::Rgba([paint.detail[0], paint.detail[1], paint.detail[2], 255]);
    imageproc::drawing::draw_text_mut(
        img,
        ink,
        x,
        y,
        scale,
        &font,
        &letter.to_ascii_uppercase().to_string(),
    );
}

/// Near-black and pale yellow: hazard stripes that differ by lightness, so
/// they show for every colour vision, on the red glow of an unstable tile.
const HAZARD_DARK: [u8; 3] = [0x14, 0x10, 0x12];
const HAZARD_LIGHT: [u8; 3] = [0xff, 0xe8, 0x5c];

/// Hazard tape along the square's edges (a king on its own unstable tile):
/// a shape of its own, unlike check's ring, wide enough to show when chat
/// shrinks a 16x16 board to 400 px (3 px of a 25 px square).
fn hazard_frame(img: &mut RgbaImage, w: f32) {
    let band = (w * 0.14).max(3.0);
    let period = w / 3.5;
    let in_band = move |x: f32, y: f32| x.min(y).min(w - x).min(w - y) < band;
    fill_with(
        img,
        HAZARD_LIGHT,
        |x, y| if in_band(x, y) { 1.0 } else { 0.0 },
    );
    fill_with(img, HAZARD_DARK, |x, y| {
        // Light stripes wider than the dark: the tile's own glow is dark.
        if in_band(x, y) && (x + y) % period < period * 0.35 {
            1.0
        } else {
            0.0
        }
    });
}

/// A warning triangle with an exclamation mark in the top-right corner,
/// over the piece.
fn warning_badge(img: &mut RgbaImage, w: f32) {
    let px = img.width();
    let (cx, top, bottom, half) = (w * 0.78, w * 0.10, w * 0.40, w * 0.18);
    let outline = coverage(px, px, |g, s| {
        polygon(
            g,
            s,
            &[
                (cx, top - w * 0.04),
                (cx + half + w * 0.05, bottom + w * 0.025),
                (cx - half - w * 0.05, bottom + w * 0.025),
            ],
        )
    });
    fill(img, &outline, HAZARD_DARK, 1.0);
    let inside = coverage(px, px, |g, s| {
        polygon(g, s, &[(cx, top), (cx + half, bottom), (cx - half, bottom)])
    });
    fill(img, &inside, HAZARD_LIGHT, 1.0);
    let bar = w * 0.025;
    let mark = coverage(px, px, |g, s| {
        polygon(
            g,
            s,
            &[
                (cx - bar, top + w * 0.09),
                (cx + bar, top + w * 0.09),
                (cx + bar * 0.7, bottom - w * 0.09),
                (cx - bar * 0.7, bottom - w * 0.09),
            ],
        );
        disc(g, s, cx, bottom - w * 0.045, bar * 1.1);
    });
    fill(img, &mark, HAZARD_DARK, 1.0);
}

/// A band of `band` pixels along the square's four edges.
fn frame(img: &mut RgbaImage, w: f32, band: f32, rgb: [u8; 3]) {
    fill_with(img, rgb, |x, y| {
        let edge = x.min(y).min(w - x).min(w - y);
        if edge < band {
            1.0
        } else {
            0.0
        }
    });
}

/// A hole in the board: near-black with a lit rim and a scatter of stars, so
/// it reads as "nothing here" rather than a dark square, in any colour vision.
fn draw_void(theme: Theme, img: &mut RgbaImage, w: f32) {
    let c = theme.colors();
    fill_with(img, c.void_base, |_, _| 1.0);
    fill_with(img, c.void_rim, |x, y| {
        let edge = x.min(y).min(w - x).min(w - y);
        let t = edge / (w * 0.12);
        if t < 1.0 {
            (1.0 - t) * 0.9
        } else {
            0.0
        }
    });
    let stars: [(f32, f32, f32); 7] = [
        (0.27, 0.31, 0.035),
        (0.68, 0.22, 0.025),
        (0.55, 0.55, 0.04),
        (0.32, 0.72, 0.03),
        (0.78, 0.70, 0.035),
        (0.45, 0.38, 0.02),
        (0.20, 0.52, 0.02),
    ];
    let px = img.width();
    let cov = coverage(px, px, |g, s| {
        for (x, y, r) in stars {
            disc(g, s, x * w, y * w, (r * w).max(1.0));
        }
    });
    fill(img, &cov, c.void_stars, 1.0);
}

/// An unstable tile: a red glow from the edges, diagonal hatching (the
/// colour-blind cue), and a badge in the owner's colour with an hourglass:
/// this tile falls after that side's next move.
fn draw_unstable(theme: Theme, img: &mut RgbaImage, w: f32, owner: Color) {
    let c = theme.colors();
    fill_with(img, c.unstable, |x, y| {
        let edge = x.min(y).min(w - x).min(w - y);
        (1.0 - edge / (w * 0.4)).max(0.0) * 0.85
    });
    // Dark stripes over the glow: a pattern that stays visible where the
    // glow is strongest and for eyes that do not see the red.
    let period = w / 5.0;
    let stripe = w / 14.0;
    let shade = [c.unstable[0] / 3, c.unstable[1] / 3, c.unstable[2] / 3];
    fill_with(img, shade, |x, y| {
        if (x + y) % period < stripe {
            0.6
        } else {
            0.0
        }
    });
    let px = img.width();
    let (bx, by, br) = (w * 0.17, w * 0.17, w * 0.14);
    let rim = coverage(px, px, |g, s| disc(g, s, bx, by, br + w * 0.025));
    fill(img, &rim, c.unstable, 1.0);
    let badge = coverage(px, px, |g, s| disc(g, s, bx, by, br));
    fill(img, &badge, c.piece(owner).fill, 1.0);
    let h = br * 0.62;
    let glass = coverage(px, px, |g, s| {
        polygon(
            g,
            s,
            &[(bx - h * 0.7, by - h), (bx + h * 0.7, by - h), (bx, by)],
        );
        polygon(
            g,
            s,
            &[(bx, by), (bx + h * 0.7, by + h), (bx - h * 0.7, by + h)],
        );
    });
    fill(img, &glass, c.piece(owner).detail, 1.0);
}
