//! Animated replays: a game's positions as one GIF.
//!
//! The technique is lila-gif's (lichess's GIF service), written here for our
//! boards: the theme's palette, learnt once, is the GIF's one global colour
//! table, so no frame is quantised; the first frame is the whole picture and
//! each later one only the rectangle that changed since the one before,
//! drawn over it (disposal "keep"), its unchanged pixels transparent (one
//! palette index is kept free for that: long runs of it cost LZW almost
//! nothing); the animation loops for ever. A frame
//! costs the palette-index drawing of a board (no PNG encoding) and the LZW
//! of its changed rectangle.

use crate::palette::UNCHANGED;
use crate::{RenderOptions, Renderer};
use std::borrow::Cow;
use voidmate_rules::Position;

/// How long each position shows, in hundredths of a second: about 0.8 s a
/// move, as lichess's GIFs, and 5 s on the last before it starts over.
pub const MOVE_DELAY: u16 = 80;
pub const LAST_DELAY: u16 = 500;

/// One position of a replay and how to draw it (the theme, the orientation
/// and the caption should stay the same through a replay).
#[derive(Clone, Debug)]
pub struct ReplayFrame {
    pub pos: Position,
    pub opts: RenderOptions,
}

/// A replay as GIF bytes.
#[derive(Clone, Debug)]
pub struct Replay {
    pub gif: Vec<u8>,
    pub frames: usize,
    pub width: u32,
    pub height: u32,
}

/// The smallest rectangle holding every pixel that differs between two
/// pictures of `width` columns: (left, top, width, height); `None` when
/// they are the same.
fn changed(before: &[u8], after: &[u8], width: usize) -> Option<(usize, usize, usize, usize)> {
    let rows = after.len() / width;
    let row = |y: usize| after[y * width..(y + 1) * width] != before[y * width..(y + 1) * width];
    let top = (0..rows).find(|&y| row(y))?;
    let bottom = (top..rows).rev().find(|&y| row(y)).unwrap_or(top);
    let (mut left, mut right) = (width, 0);
    for y in top..=bottom {
        let (a, b) = (
            &before[y * width..(y + 1) * width],
            &after[y * width..(y + 1) * width],
        );
        if let Some(l) = (0..left.min(width)).find(|&x| a[x] != b[x]) {
            left = l;
        }
        if let Some(r) = (right..width).rev().find(|&x| a[x] != b[x]) {
            right = right.max(r);
        }
    }
    Some((left, top, right + 1 - left, bottom + 1 - top))
}

impl Renderer {
    /// An animated GIF of `frames`, in order. `None` for no frames, or a
    /// picture too big for a GIF (65,535 pixels a side).
    pub fn replay(&self, frames: &[ReplayFrame]) -> Option<Replay> {
        let first = frames.first()?;
        // Each frame's caption fitted once; one size for every frame: the
        // caption as tall as its tallest.
        let fitted: Vec<_> = frames
            .iter()
            .map(|f| self.fitted(&f.pos, &f.opts))
            .collect();
        let lines = fitted.iter().map(|(_, l)| l.len()).max().unwrap_or(0);
        let palette = self.palette(first.opts.theme).to_vec();
        let mut drawn = frames
            .iter()
            .zip(fitted)
            .map(|(f, fit)| self.pixels_fitted(&f.pos, &f.opts, fit, lines))
            .peekable();
        let layout = drawn.peek()?.0;
        let (w, h) = (
            u16::try_from(layout.width).ok()?,
            u16::try_from(layout.height).ok()?,
        );
        let mut out = Vec::with_capacity(64 * 1024);
        {
            let mut enc = gif::Encoder::new(&mut out, w, h, &palette).ok()?;
            enc.set_repeat(gif::Repeat::Infinite).ok()?;
            let mut prev: Option<Vec<u8>> = None;
            for (i, (l, pixels)) in drawn.enumerate() {
                if (l.width, l.height) != (layout.width, layout.height) {
                    return None;
                }
                let stride = l.width as usize;
                let rect = match &prev {
                    None => Some((0, 0, stride, l.height as usize)),
                    Some(p) => changed(p, &pixels, stride),
                };
                // Nothing changed (a repeated position): one pixel, as is.
                let (left, top, width, height) = rect.unwrap_or((0, 0, 1, 1));
                let mut buffer = Vec::with_capacity(width * height);
                for y in top..top + height {
                    let row = y * stride + left..y * stride + left + width;
                    match &prev {
                        // What did not change is left to show through.
                        Some(p) => buffer.extend(pixels[row.clone()].iter().zip(&p[row]).map(
                            |(&now, &was)| {
                                if now == was {
                                    UNCHANGED
                                } else {
                                    now
                                }
                            },
                        )),
                        None => buffer.extend_from_slice(&pixels[row]),
                    }
                }
                let frame = gif::Frame {
                    left: left as u16,
                    top: top as u16,
                    width: width as u16,
                    height: height as u16,
                    delay: if i + 1 == frames.len() {
                        LAST_DELAY
                    } else {
                        MOVE_DELAY
                    },
                    dispose: gif::DisposalMethod::Keep,
                    transparent: prev.is_some().then_some(UNCHANGED),
                    buffer: Cow::Owned(buffer),
                    ..gif::Frame::default()
                };
                enc.write_frame(&frame).ok()?;
                prev = Some(pixels);
            }
        }
        Some(Replay {
            gif: out,
            frames: frames.len(),
            width: layout.width,
            height: layout.height,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::changed;

    #[test]
    fn the_changed_rectangle_holds_every_change_and_no_more() {
        let before = vec![0u8; 6 * 4];
        let mut after = before.clone();
        assert_eq!(changed(&before, &after, 6), None);
        after[6 + 2] = 1;
        assert_eq!(changed(&before, &after, 6), Some((2, 1, 1, 1)));
        after[3 * 6 + 5] = 1;
        after[2 * 6] = 1;
        assert_eq!(changed(&before, &after, 6), Some((0, 1, 6, 3)));
    }
}
