//! Drawing into RGBA tiles and frames, used only when a cached piece of the
//! picture is first built. Shapes are drawn with imageproc at four times the
//! size and averaged down, which gives smooth edges.

use crate::palette::blend;
use crate::theme::Rgb;
use image::{GrayImage, Luma, RgbaImage};
use imageproc::drawing::{draw_filled_circle_mut, draw_polygon_mut};
use imageproc::point::Point;

const SS: u32 = 4;

/// Coverage (0..=1) of a shape drawn by `draw` on a `w` x `h` canvas that is
/// [`SS`] times larger; `draw` gets the canvas and the scale.
pub(crate) fn coverage(w: u32, h: u32, draw: impl FnOnce(&mut GrayImage, f32)) -> Vec<f32> {
    let mut big = GrayImage::new(w * SS, h * SS);
    draw(&mut big, SS as f32);
    let mut out = vec![0.0; (w * h) as usize];
    for y in 0..h {
        for x in 0..w {
            let mut sum = 0u32;
            for dy in 0..SS {
                for dx in 0..SS {
                    sum += big.get_pixel(x * SS + dx, y * SS + dy)[0] as u32;
                }
            }
            out[(y * w + x) as usize] = sum as f32 / (255 * SS * SS) as f32;
        }
    }
    out
}

/// Lays `color` over `img` with `alpha` times each pixel's coverage.
pub(crate) fn fill(img: &mut RgbaImage, cov: &[f32], color: Rgb, alpha: f32) {
    for (p, &c) in img.pixels_mut().zip(cov) {
        if c > 0.0 {
            let rgb = blend([p[0], p[1], p[2]], color, (alpha * c).min(1.0));
            p.0 = [rgb[0], rgb[1], rgb[2], 255];
        }
    }
}

/// Lays `color` over every pixel with an opacity from `alpha(x, y)`.
pub(crate) fn fill_with(img: &mut RgbaImage, color: Rgb, alpha: impl Fn(f32, f32) -> f32) {
    for (x, y, p) in img.enumerate_pixels_mut() {
        let a = alpha(x as f32 + 0.5, y as f32 + 0.5).clamp(0.0, 1.0);
        if a > 0.0 {
            let rgb = blend([p[0], p[1], p[2]], color, a);
            p.0 = [rgb[0], rgb[1], rgb[2], 255];
        }
    }
}

pub(crate) fn disc(g: &mut GrayImage, s: f32, cx: f32, cy: f32, r: f32) {
    draw_filled_circle_mut(
        g,
        ((cx * s) as i32, (cy * s) as i32),
        (r * s) as i32,
        Luma([255]),
    );
}

pub(crate) fn ring(w: u32, cx: f32, cy: f32, outer: f32, inner: f32) -> Vec<f32> {
    let a = coverage(w, w, |g, s| disc(g, s, cx, cy, outer));
    let b = coverage(w, w, |g, s| disc(g, s, cx, cy, inner));
    a.iter().zip(&b).map(|(x, y)| (x - y).max(0.0)).collect()
}

pub(crate) fn polygon(g: &mut GrayImage, s: f32, points: &[(f32, f32)]) {
    let pts: Vec<Point<i32>> = points
        .iter()
        .map(|&(x, y)| Point::new((x * s).round() as i32, (y * s).round() as i32))
        .collect();
    let mut pts = pts;
    pts.dedup();
    if pts.len() >= 3 && pts.first() != pts.last() {
        draw_polygon_mut(g, &pts, Luma([255]));
    }
}

/// Composites a premultiplied sprite over an opaque image.
pub(crate) fn composite(img: &mut RgbaImage, sprite: &RgbaImage) {
    for (p, s) in img.pixels_mut().zip(sprite.pixels()) {
        let a = s[3] as f32 / 255.0;
        if a > 0.0 {
            for i in 0..3 {
                p[i] = (s[i] as f32 + p[i] as f32 * (1.0 - a)).round().min(255.0) as u8;
            }
        }
    }
}
