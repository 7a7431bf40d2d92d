//! Caption text as the world writes it: shaped (joined Arabic letters,
//! combining marks, emoji sequences), laid out in the right direction, each
//! character from the first font that has it, emoji in colour.
//!
//! `cosmic-text` does the work (harfrust shaping, `unicode-bidi`, per-script
//! font fallback, swash rasterising outlines, colour outlines and colour
//! bitmaps); a hand-made stack of rustybuzz, unicode-bidi and our own
//! fallback would be the same parts with fewer users.
//!
//! Fonts, in the order they are asked (see `docs/fonts.md`):
//! - built in, under open licences: DejaVu Sans Bold (Latin, Greek,
//!   Cyrillic, and the first choice for everything it has), Noto Sans
//!   Arabic, Hebrew and Devanagari Bold (`assets/fonts/`, SIL OFL 1.1);
//! - the machine's fonts for the rest, chiefly CJK (`fonts-noto-cjk`) and
//!   colour emoji (`fonts-noto-color-emoji`).
//!
//! Shaped lines and glyph images are kept, so a caption seen before costs
//! only copies.

use cosmic_text::fontdb::{self, Source};
use cosmic_text::{
    Attrs, Buffer, CacheKey, Family, FontSystem, Metrics, Shaping, SwashCache, SwashContent,
    Weight, Wrap,
};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The family every caption asks for first.
const FIRST_FAMILY: &str = "DejaVu Sans";

/// Fonts built into the binary: (file name, data).
pub(crate) const BUILT_IN: [(&str, &[u8]); 3] = [
    (
        "NotoSansArabic-Bold.ttf",
        include_bytes!("../assets/fonts/NotoSansArabic-Bold.ttf"),
    ),
    (
        "NotoSansHebrew-Bold.ttf",
        include_bytes!("../assets/fonts/NotoSansHebrew-Bold.ttf"),
    ),
    (
        "NotoSansDevanagari-Bold.ttf",
        include_bytes!("../assets/fonts/NotoSansDevanagari-Bold.ttf"),
    ),
];

/// One glyph of a shaped line, placed relative to the line's start on its
/// baseline.
#[derive(Clone, Debug)]
pub(crate) struct Placed {
    pub x: i32,
    pub y: i32,
    /// Left edge in unrounded pixels, for reading the order of glyphs.
    pub left: f32,
    pub key: CacheKey,
    pub font: fontdb::ID,
    pub glyph_id: u16,
}

/// A line of text, shaped.
#[derive(Debug)]
pub(crate) struct Shaped {
    pub width: f32,
    pub glyphs: Vec<Placed>,
    /// Some character had no glyph in any font (it would show as a box).
    pub missing: bool,
}

/// A glyph's pixels: coverage (0..=255) or colour (RGBA).
pub(crate) struct GlyphImage {
    pub left: i32,
    pub top: i32,
    pub width: u32,
    pub height: u32,
    pub colour: bool,
    pub data: Vec<u8>,
}

struct Inner {
    fonts: FontSystem,
    swash: SwashCache,
    shaped: HashMap<(String, u32), Arc<Shaped>>,
    images: HashMap<CacheKey, Arc<GlyphImage>>,
}

pub(crate) struct Text {
    inner: Mutex<Inner>,
}

/// Shaped lines kept at most; names come and go, so the cache starts over
/// when it is full rather than growing for ever.
const KEPT_LINES: usize = 4096;
/// Glyph images kept at most (each a few hundred bytes to a few KB).
const KEPT_GLYPHS: usize = 16_384;

impl Text {
    pub fn new() -> Text {
        let mut db = fontdb::Database::new();
        db.load_font_source(Source::Binary(Arc::new(dejavu::sans::bold())));
        for (_, data) in BUILT_IN {
            db.load_font_source(Source::Binary(Arc::new(data)));
        }
        db.load_system_fonts();
        db.set_sans_serif_family(FIRST_FAMILY);
        // The captions' words are English: fallback follows an English
        // locale whatever the machine's, so images do not vary with it.
        let fonts = FontSystem::new_with_locale_and_db("en-US".to_string(), db);
        Text {
            inner: Mutex::new(Inner {
                fonts,
                swash: SwashCache::new(),
                shaped: HashMap::new(),
                images: HashMap::new(),
            }),
        }
    }

    /// `text` shaped at `size` px (the em), on one line.
    pub fn shape(&self, text: &str, size: u32) -> Arc<Shaped> {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let key = (text.to_string(), size);
        if let Some(hit) = inner.shaped.get(&key) {
            return hit.clone();
        }
        let shaped = Arc::new(shape(&mut inner.fonts, text, size));
        if inner.shaped.len() >= KEPT_LINES {
            inner.shaped.clear();
        }
        inner.shaped.insert(key, shaped.clone());
        shaped
    }

    /// Width of `text` in pixels.
    pub fn width(&self, text: &str, size: u32) -> f32 {
        self.shape(text, size).width
    }

    /// Whether every character of `text` has a glyph in some font.
    pub fn drawable(&self, text: &str, size: u32) -> bool {
        !self.shape(text, size).missing
    }

    /// The first font's ascent at `size` px.
    pub fn ascent(&self, size: u32) -> f32 {
        size as f32 * 0.928
    }

    /// The pixels of a placed glyph.
    pub fn image(&self, key: CacheKey) -> Option<Arc<GlyphImage>> {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(hit) = inner.images.get(&key) {
            return Some(hit.clone());
        }
        let Inner { fonts, swash, .. } = &mut *inner;
        let image = swash.get_image_uncached(fonts, key)?;
        let colour = matches!(image.content, SwashContent::Color);
        let data = match image.content {
            SwashContent::Mask | SwashContent::Color => image.data,
            // Not asked for (the format is alpha), but take the green
            // channel's coverage if it ever comes.
            SwashContent::SubpixelMask => image.data.chunks(4).map(|c| c[1]).collect(),
        };
        let g = Arc::new(GlyphImage {
            left: image.placement.left,
            top: image.placement.top,
            width: image.placement.width,
            height: image.placement.height,
            colour,
            data,
        });
        // Bounded like the shaped lines: every glyph of every name ever
        // seen would otherwise stay for the life of the process.
        if inner.images.len() >= KEPT_GLYPHS {
            inner.images.clear();
        }
        inner.images.insert(key, g.clone());
        Some(g)
    }

    /// The family name of a font, for tests and diagnostics.
    pub fn family(&self, id: fontdb::ID) -> String {
        let inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        inner
            .fonts
            .db()
            .face(id)
            .and_then(|f| f.families.first().map(|(name, _)| name.clone()))
            .unwrap_or_default()
    }

    /// The first font's missing-glyph box at `size` px: what a character no
    /// font has would look like, so tests can make sure it never shows.
    pub fn missing_glyph(&self, size: u32) -> Option<Arc<GlyphImage>> {
        let shaped = {
            let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
            shape(&mut inner.fonts, "A", size)
        };
        let first = shaped.glyphs.first()?;
        let (key, _, _) = CacheKey::new(
            first.font,
            0,
            size as f32,
            (0.0, 0.0),
            fontdb::Weight::BOLD,
            cosmic_text::CacheKeyFlags::empty(),
        );
        self.image(key)
    }
}

fn shape(fonts: &mut FontSystem, text: &str, size: u32) -> Shaped {
    let metrics = Metrics::new(size as f32, (size as f32 * 1.3).ceil());
    let mut buffer = Buffer::new_empty(metrics);
    buffer.set_wrap(Wrap::None);
    buffer.set_size(None, None);
    let attrs = Attrs::new()
        .family(Family::Name(FIRST_FAMILY))
        .weight(Weight::BOLD);
    buffer.set_text(text, &attrs, Shaping::Advanced, None);
    buffer.shape_until_scroll(fonts, false);
    let (mut width, mut glyphs, mut missing) = (0.0f32, Vec::new(), false);
    for run in buffer.layout_runs() {
        width = width.max(run.line_w);
        for g in run.glyphs {
            let p = g.physical((0.0, 0.0), 1.0);
            missing |= g.glyph_id == 0 && !invisible(&run.text[g.start..g.end]);
            glyphs.push(Placed {
                x: p.x,
                y: p.y,
                left: g.x,
                key: p.cache_key,
                font: g.font_id,
                glyph_id: g.glyph_id,
            });
        }
    }
    Shaped {
        width,
        glyphs,
        missing,
    }
}

/// Characters that draw nothing by design (joiners, direction marks,
/// variation selectors, spaces): a font without them has nothing missing.
fn invisible(cluster: &str) -> bool {
    cluster.chars().all(|c| {
        c.is_whitespace()
            || matches!(c,
                '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}'
                | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{E0100}'..='\u{E01EF}')
    })
}
