//! One 256-colour palette per theme, so every image is an 8-bit indexed PNG
//! without quantising anything per image.
//!
//! The palette is learnt once (NeuQuant) from sample renders of every kind of
//! tile, with the theme's flat colours reserved exactly, so large areas keep
//! their true colour. A 32K-entry table maps any 15-bit colour to its nearest
//! palette index for everything drawn later.

use crate::theme::{Colors, Rgb, Tint};
use color_quant::NeuQuant;

pub(crate) struct Palette {
    pub rgb: Vec<Rgb>,
    exact: Vec<(Rgb, u8)>,
    table: Vec<u8>,
}

/// Colours that colour emoji in captions are mostly made of (a yellow face,
/// the five skin tones, the usual flag and heart colours), kept so that
/// emoji keep their colours in an image whose palette was learnt from the
/// board. Matched to the nearest entry, not reserved exactly.
const EMOJI: [Rgb; 15] = [
    [0xff, 0xcc, 0x4d],
    [0xf4, 0x90, 0x0c],
    [0xdd, 0x2e, 0x44],
    [0x55, 0xac, 0xee],
    [0x78, 0xb1, 0x59],
    [0xaa, 0x8d, 0xd8],
    [0xf7, 0xde, 0xce],
    [0xf3, 0xd2, 0xa2],
    [0xd5, 0xab, 0x88],
    [0xaf, 0x7e, 0x57],
    [0x7c, 0x53, 0x3e],
    [0x29, 0x2f, 0x33],
    [0xff, 0xff, 0xff],
    [0x99, 0xaa, 0xb5],
    [0x00, 0x38, 0xa8],
];

/// The palette index no drawing uses: a replay's frames give it to the
/// pixels that did not change (the GIF's transparent colour), which LZW
/// packs into almost nothing.
pub(crate) const UNCHANGED: u8 = 255;
const UNUSED_RGB: Rgb = [0, 0, 0];

pub(crate) fn blend(base: Rgb, top: Rgb, alpha: f32) -> Rgb {
    let mix = |a: u8, b: u8| (a as f32 + (b as f32 - a as f32) * alpha).round() as u8;
    [
        mix(base[0], top[0]),
        mix(base[1], top[1]),
        mix(base[2], top[2]),
    ]
}

pub(crate) fn tint(base: Rgb, t: Tint) -> Rgb {
    blend(base, t.rgb, t.alpha)
}

impl Palette {
    /// Learns a palette from `samples` (RGBA pixels), keeping `colors`' flat
    /// colours exactly.
    pub fn learn(colors: &Colors, samples: &[u8]) -> Palette {
        let mut reserved: Vec<Rgb> = vec![
            colors.light,
            colors.dark,
            colors.margin,
            colors.coords,
            colors.caption_bg,
            colors.caption_fg,
            tint(colors.light, colors.last_move),
            tint(colors.dark, colors.last_move),
            tint(colors.light, colors.selected),
            tint(colors.dark, colors.selected),
            colors.void_base,
            colors.unstable,
            colors.check,
            colors.white.fill,
            colors.white.line,
            colors.black.fill,
            colors.black.line,
            colors.black.detail,
        ];
        // Chosen piece colours keep their exact fill too.
        for hue in crate::theme::PieceColour::ALL {
            reserved.push(hue.paint_with(colors).fill);
        }
        let mut unique: Vec<Rgb> = Vec::new();
        for c in reserved {
            if !unique.contains(&c) {
                unique.push(c);
            }
        }
        let reserved = unique;
        // One index stays free: replays mark "unchanged" with it.
        let learnt = NeuQuant::new(10, 255 - reserved.len() - EMOJI.len(), samples).color_map_rgb();
        let mut rgb = reserved.clone();
        rgb.extend(EMOJI.iter().filter(|c| !reserved.contains(c)));
        rgb.extend(learnt.chunks(3).map(|c| [c[0], c[1], c[2]]));
        rgb.truncate(255);
        // PNG filters predict each byte from its neighbours; with the palette
        // in order of brightness, an anti-aliased edge becomes a run of small
        // index steps, which compresses far better than scattered indices.
        rgb.sort_by_key(|c| (luma(*c), c[0], c[2]));
        let exact = reserved
            .iter()
            .map(|&c| {
                (
                    c,
                    rgb.iter()
                        .position(|&p| p == c)
                        .expect("reserved colour kept") as u8,
                )
            })
            .collect();
        // The free index, last: never the nearest colour to anything.
        while rgb.len() < UNCHANGED as usize {
            rgb.push(rgb[rgb.len() - 1]);
        }
        rgb.push(UNUSED_RGB);
        let mut table = vec![0u8; 1 << 15];
        for (key, slot) in table.iter_mut().enumerate() {
            let c = [
                ((key >> 10) as u8) << 3 | 4,
                (((key >> 5) & 31) as u8) << 3 | 4,
                ((key & 31) as u8) << 3 | 4,
            ];
            *slot = nearest(&rgb[..UNCHANGED as usize], c);
        }
        Palette { rgb, exact, table }
    }

    #[inline]
    pub fn index(&self, c: Rgb) -> u8 {
        if let Some(&(_, i)) = self.exact.iter().find(|(e, _)| *e == c) {
            return i;
        }
        let key = ((c[0] as usize >> 3) << 10) | ((c[1] as usize >> 3) << 5) | (c[2] as usize >> 3);
        self.table[key]
    }

    /// The indices of 16 even steps from `from` to `to`: text drawn in `to`
    /// over `from`, by its coverage.
    pub fn ramp(&self, from: Rgb, to: Rgb) -> [u8; 16] {
        let mut ramp = [0; 16];
        for (i, slot) in ramp.iter_mut().enumerate() {
            *slot = self.index(blend(from, to, i as f32 / 15.0));
        }
        ramp
    }

    /// The PLTE chunk: 256 RGB triples.
    pub fn bytes(&self) -> Vec<u8> {
        let mut out: Vec<u8> = self.rgb.iter().flatten().copied().collect();
        out.resize(768, 0);
        out
    }
}

fn luma(c: Rgb) -> u32 {
    299 * c[0] as u32 + 587 * c[1] as u32 + 114 * c[2] as u32
}

fn nearest(palette: &[Rgb], c: Rgb) -> u8 {
    let mut best = (u32::MAX, 0u8);
    for (i, p) in palette.iter().enumerate() {
        let d = |a: u8, b: u8| (a as i32 - b as i32).pow(2) as u32;
        // Weighted towards green, as the eye is.
        let dist = 2 * d(p[0], c[0]) + 4 * d(p[1], c[1]) + 3 * d(p[2], c[2]);
        if dist < best.0 {
            best = (dist, i as u8);
        }
    }
    best.1
}
