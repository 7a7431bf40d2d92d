//! A review's evaluation graph: White's winning chances over the game,
//! White's side above the middle and Black's below, the marked moves as
//! dots, drawn with our own drawing (no plotting crate, no system fonts).

use crate::theme::Theme;
use image::{Rgb, RgbImage};
use imageproc::drawing::{draw_antialiased_line_segment_mut, draw_filled_circle_mut};
use imageproc::pixelops::interpolate;

/// How bad a marked move was: its dot's size and colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Inaccuracy,
    Mistake,
    Blunder,
}

/// Width and height of the graph, in pixels.
pub const GRAPH_SIZE: (u32, u32) = (640, 200);

/// Draws White's winning chances (each −1 to 1: the start, then after each
/// move) with dots on the marked moves (`(index into chances, severity)`),
/// as a PNG.
pub fn eval_graph(chances: &[f64], marked: &[(usize, Severity)], theme: Theme) -> Vec<u8> {
    let (w, h) = GRAPH_SIZE;
    let c = theme.colors();
    let white = Rgb(c.light);
    let black = Rgb(c.dark);
    let mut img = RgbImage::from_pixel(w, h, Rgb(c.margin));
    let (pad_x, pad_y) = (12.0f32, 10.0f32);
    let (plot_w, plot_h) = (w as f32 - 2.0 * pad_x, h as f32 - 2.0 * pad_y);
    let mid = pad_y + plot_h / 2.0;
    let n = chances.len().max(2) - 1;
    let point = |i: usize, v: f64| {
        let x = pad_x + plot_w * i as f32 / n as f32;
        let y = mid - (v.clamp(-1.0, 1.0) as f32) * plot_h / 2.0;
        (x, y)
    };
    // The area between the curve and the middle: light where White leads,
    // dark where Black does, column by column.
    for x in 0..w {
        let xf = x as f32 + 0.5;
        if xf < pad_x || xf > pad_x + plot_w {
            continue;
        }
        let t = (xf - pad_x) / plot_w * n as f32;
        let i = (t.floor() as usize).min(n.saturating_sub(1));
        let f = (t - i as f32) as f64;
        let v = match (chances.get(i), chances.get(i + 1)) {
            (Some(a), Some(b)) => a + (b - a) * f,
            (Some(a), None) => *a,
            _ => 0.0,
        };
        let (_, y) = point(0, v);
        let (top, bottom) = if y < mid { (y, mid) } else { (mid, y) };
        let fill = if y < mid { white } else { black };
        for py in top.round() as u32..bottom.round() as u32 {
            img.put_pixel(x, py.min(h - 1), fill);
        }
    }
    // The middle line and the curve.
    let grid = Rgb(c.coords);
    draw_antialiased_line_segment_mut(
        &mut img,
        (pad_x as i32, mid as i32),
        ((pad_x + plot_w) as i32, mid as i32),
        grid,
        interpolate,
    );
    for i in 0..chances.len().saturating_sub(1) {
        let (x0, y0) = point(i, chances[i]);
        let (x1, y1) = point(i + 1, chances[i + 1]);
        draw_antialiased_line_segment_mut(
            &mut img,
            (x0.round() as i32, y0.round() as i32),
            (x1.round() as i32, y1.round() as i32),
            Rgb(c.caption_fg),
            interpolate,
        );
    }
    for &(i, severity) in marked {
        let Some(&v) = chances.get(i) else {
            continue;
        };
        let (x, y) = point(i, v);
        let (r, colour) = match severity {
            Severity::Inaccuracy => (4, Rgb([0x56, 0xb4, 0xe9])),
            Severity::Mistake => (5, Rgb([0xe6, 0x9f, 0x00])),
            Severity::Blunder => (6, Rgb([0xd5, 0x5e, 0x00])),
        };
        let centre = (x.round() as i32, y.round() as i32);
        draw_filled_circle_mut(&mut img, centre, r + 1, Rgb([0x10, 0x10, 0x10]));
        draw_filled_circle_mut(&mut img, centre, r, colour);
    }
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut writer = enc.write_header().expect("PNG header into memory");
    writer
        .write_image_data(img.as_raw())
        .expect("PNG data into memory");
    writer.finish().expect("PNG end into memory");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(png: &[u8]) -> RgbImage {
        image::load_from_memory(png).unwrap().to_rgb8()
    }

    #[test]
    fn white_leads_above_the_middle_and_dots_mark_the_moves() {
        let theme = Theme::Classic;
        let c = theme.colors();
        // White ahead for the first half, Black for the second.
        let chances: Vec<f64> = (0..=20).map(|i| if i < 10 { 0.8 } else { -0.8 }).collect();
        let img = decode(&eval_graph(&chances, &[(10, Severity::Blunder)], theme));
        assert_eq!(img.dimensions(), GRAPH_SIZE);
        let (w, h) = GRAPH_SIZE;
        let quarter = w / 4;
        // Above the middle on the left: White's colour; below on the right:
        // Black's.
        assert_eq!(img.get_pixel(quarter, h / 2 - 30).0, c.light);
        assert_eq!(img.get_pixel(quarter, h / 2 + 30).0, c.margin);
        assert_eq!(img.get_pixel(3 * quarter, h / 2 + 30).0, c.dark);
        assert_eq!(img.get_pixel(3 * quarter, h / 2 - 30).0, c.margin);
        // The blunder's dot, where the lead changes hands.
        let dots = (0..w)
            .flat_map(|x| (0..h).map(move |y| (x, y)))
            .filter(|&(x, y)| img.get_pixel(x, y).0 == [0xd5, 0x5e, 0x00])
            .count();
        assert!(dots > 40, "{dots} pixels of the blunder's dot");
        // No marks, no dots.
        let plain = decode(&eval_graph(&chances, &[], theme));
        assert!(!plain.pixels().any(|p| p.0 == [0xd5, 0x5e, 0x00]));
    }
}
