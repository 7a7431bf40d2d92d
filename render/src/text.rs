//! Caption text, drawn per image from glyphs rasterised once.

use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// A glyph's coverage, 0..=255, and where it sits relative to the pen.
pub(crate) struct Glyph {
    pub left: i32,
    pub top: i32,
    pub width: u32,
    pub height: u32,
    pub advance: f32,
    pub coverage: Vec<u8>,
}

pub(crate) struct Glyphs {
    font: FontRef<'static>,
    cache: Mutex<HashMap<(char, u32), Arc<Glyph>>>,
}

impl Glyphs {
    pub fn new(font: FontRef<'static>) -> Glyphs {
        Glyphs {
            font,
            cache: Mutex::new(HashMap::new()),
        }
    }

    pub fn ascent(&self, size: u32) -> f32 {
        self.font.as_scaled(PxScale::from(size as f32)).ascent()
    }

    pub fn glyph(&self, ch: char, size: u32) -> Arc<Glyph> {
        if let Some(g) = self.cache.lock().unwrap().get(&(ch, size)) {
            return g.clone();
        }
        let scale = PxScale::from(size as f32);
        let scaled = self.font.as_scaled(scale);
        let id = self.font.glyph_id(ch);
        let advance = scaled.h_advance(id);
        let glyph = id.with_scale_and_position(scale, ab_glyph::point(0.0, 0.0));
        let g = match self.font.outline_glyph(glyph) {
            Some(outline) => {
                let b = outline.px_bounds();
                let (w, h) = (b.width() as u32, b.height() as u32);
                let mut coverage = vec![0u8; (w * h) as usize];
                outline.draw(|x, y, c| {
                    if x < w && y < h {
                        coverage[(y * w + x) as usize] = (c.clamp(0.0, 1.0) * 255.0) as u8;
                    }
                });
                Glyph {
                    left: b.min.x as i32,
                    top: b.min.y as i32,
                    width: w,
                    height: h,
                    advance,
                    coverage,
                }
            }
            None => Glyph {
                left: 0,
                top: 0,
                width: 0,
                height: 0,
                advance,
                coverage: Vec::new(),
            },
        };
        let g = Arc::new(g);
        self.cache.lock().unwrap().insert((ch, size), g.clone());
        g
    }

    /// Width of `text` in pixels.
    pub fn width(&self, text: &str, size: u32) -> f32 {
        text.chars().map(|c| self.glyph(c, size).advance).sum()
    }
}
