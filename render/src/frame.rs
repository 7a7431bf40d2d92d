//! The part of an image that depends only on the board's size, orientation
//! and theme: margins, coordinates, empty squares, caption background.

use crate::assets::font;
use crate::layout::Layout;
use crate::palette::Palette;
use crate::theme::Theme;
use ab_glyph::{Font, PxScale, ScaleFont};
use image::{Rgba, RgbaImage};
use imageproc::drawing::draw_text_mut;
use voidmate_rules::{file_char, Square};

/// Draws the frame in RGBA and converts it to palette indices.
pub(crate) fn build(layout: &Layout, theme: Theme, palette: &Palette) -> Vec<u8> {
    let c = theme.colors();
    let px = |rgb: [u8; 3]| Rgba([rgb[0], rgb[1], rgb[2], 255]);
    let mut img = RgbaImage::from_pixel(layout.width, layout.height, px(c.margin));
    for y in 0..layout.caption {
        for x in 0..layout.width {
            img.put_pixel(x, y, px(c.caption_bg));
        }
    }
    for sq in layout.squares() {
        let (x0, y0) = layout.origin(sq);
        let color = if sq.is_light() { c.light } else { c.dark };
        for y in y0..y0 + layout.square {
            for x in x0..x0 + layout.square {
                img.put_pixel(x, y, px(color));
            }
        }
    }

    let font = font();
    let m = layout.margin as f32;
    let (first_file, first_rank) = layout.first;
    let ranks: Vec<String> = (first_rank..first_rank + layout.shown.1)
        .map(|r| (r + 1).to_string())
        .collect();
    // Coordinates are four fifths of the margin tall. Rank numbers of two
    // digits (10 to 16) would not fit that margin at that size: they keep
    // their height, so they stay readable, and are drawn narrower, so that
    // every number keeps room on both sides, as one digit has.
    let width_at = |scale: PxScale, s: &str| -> f32 {
        let scaled = font.as_scaled(scale);
        s.chars()
            .map(|ch| scaled.h_advance(font.glyph_id(ch)))
            .sum()
    };
    let scale = PxScale::from(m * 0.8);
    let widest = ranks.iter().map(|r| width_at(scale, r)).fold(0.0, f32::max);
    let rank_scale = PxScale {
        x: scale.x * (m * 0.8 / widest).min(1.0),
        y: scale.y,
    };
    let widest = ranks
        .iter()
        .map(|r| width_at(rank_scale, r))
        .fold(0.0, f32::max);
    let scaled = font.as_scaled(scale);
    let height = scaled.ascent() - scaled.descent();
    let mut label = |text: &str, left: f32, cy: f32, scale: PxScale| {
        let y = (cy - height / 2.0).round() as i32;
        let x = left.round() as i32;
        draw_text_mut(&mut img, px(c.coords), x, y, scale, &font, text);
    };
    let board_top = (layout.caption + layout.margin) as f32;
    let board_bottom = board_top + layout.shown.1 as f32 * layout.square as f32;
    for file in first_file..first_file + layout.shown.0 {
        let (cx, _) = layout.center(Square::new(file, first_rank));
        let letter = file_char(file).to_string();
        let left = cx - width_at(scale, &letter) / 2.0;
        label(&letter, left, board_top - m / 2.0, scale);
        label(&letter, left, board_bottom + m / 2.0, scale);
    }
    // Rank numbers keep one gap to the board whatever their digits: set
    // against the board on the left, from it on the right.
    let gap = (m - widest) / 2.0;
    for (rank, number) in (first_rank..).zip(&ranks) {
        let (_, cy) = layout.center(Square::new(first_file, rank));
        let left = m - gap - width_at(rank_scale, number);
        label(number, left, cy, rank_scale);
        label(number, layout.width as f32 - m + gap, cy, rank_scale);
    }

    img.pixels()
        .map(|p| palette.index([p[0], p[1], p[2]]))
        .collect()
}
