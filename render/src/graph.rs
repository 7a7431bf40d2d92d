//! A review's evaluation graph: White's winning chances over the game,
//! White's side above the centre line and Black's below, the marked moves
//! as dots with their moves written beside them, and the move numbers along
//! the bottom, as lichess draws its graph. Drawn with our own drawing (no
//! plotting crate); the words with the captions' text (shaped, the fonts
//! built in first).

use crate::theme::Theme;
use crate::Renderer;
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

impl Severity {
    /// The dot's radius and colour (the Okabe-Ito colours, which stay
    /// apart for the common kinds of colour blindness).
    fn dot(self) -> (i32, Rgb<u8>) {
        match self {
            Severity::Inaccuracy => (4, Rgb([0x56, 0xb4, 0xe9])),
            Severity::Mistake => (5, Rgb([0xe6, 0x9f, 0x00])),
            Severity::Blunder => (6, Rgb([0xd5, 0x5e, 0x00])),
        }
    }
}

/// A marked move: the position after it (an index into the chances), how
/// bad it was, and its words (`12. Nxe5??`).
#[derive(Clone, Debug, PartialEq)]
pub struct GraphMark {
    pub index: usize,
    pub severity: Severity,
    pub label: String,
}

/// What the graph shows: White's winning chances (each −1 to 1: the start,
/// then after each move), the marked moves, and the move numbers to write
/// along the bottom (`(index into chances, "12")`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EvalGraph {
    pub chances: Vec<f64>,
    pub marks: Vec<GraphMark>,
    pub ticks: Vec<(usize, String)>,
}

/// Width and height of the graph, in pixels.
pub const GRAPH_SIZE: (u32, u32) = (640, 200);

/// The size of the graph's words, in pixels.
const LABEL_SIZE: u32 = 11;
/// Room under the plot for the move numbers.
const AXIS_ROOM: f32 = 16.0;

impl Renderer {
    /// Draws `graph` in `theme`, as a PNG.
    pub fn eval_graph(&self, graph: &EvalGraph, theme: Theme) -> Vec<u8> {
        let chances = &graph.chances;
        let (w, h) = GRAPH_SIZE;
        let c = theme.colors();
        let white = Rgb(c.light);
        let black = Rgb(c.dark);
        let mut img = RgbImage::from_pixel(w, h, Rgb(c.margin));
        let (pad_x, pad_y) = (12.0f32, 10.0f32);
        let (plot_w, plot_h) = (w as f32 - 2.0 * pad_x, h as f32 - 2.0 * pad_y - AXIS_ROOM);
        let mid = pad_y + plot_h / 2.0;
        let n = chances.len().max(2) - 1;
        let point = |i: usize, v: f64| {
            let x = pad_x + plot_w * i as f32 / n as f32;
            let y = mid - (v.clamp(-1.0, 1.0) as f32) * plot_h / 2.0;
            (x, y)
        };
        // The area between the curve and the centre line: light where White
        // leads, dark where Black does, column by column.
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
        // The centre line (even chances), two pixels thick so that it shows
        // under the curve, and the move numbers' ticks on the bottom edge.
        let grid = Rgb(c.coords);
        for dy in [0, 1] {
            draw_antialiased_line_segment_mut(
                &mut img,
                (pad_x as i32, mid as i32 + dy),
                ((pad_x + plot_w) as i32, mid as i32 + dy),
                grid,
                interpolate,
            );
        }
        let axis = pad_y + plot_h;
        let ascent = self.text().ascent(LABEL_SIZE);
        let mut free_from = f32::MIN;
        for (i, label) in &graph.ticks {
            if *i > n {
                continue;
            }
            let (x, _) = point(*i, 0.0);
            draw_antialiased_line_segment_mut(
                &mut img,
                (x.round() as i32, axis as i32),
                (x.round() as i32, axis as i32 + 3),
                grid,
                interpolate,
            );
            let width = self.text().width(label, LABEL_SIZE);
            let left = (x - width / 2.0).clamp(0.0, w as f32 - width);
            if left < free_from {
                continue;
            }
            free_from = left + width + 6.0;
            self.put_text(&mut img, label, left, (axis + 4.0 + ascent) as i32, grid);
        }
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
        // The dots, then their words: beside each dot, on the side of the
        // centre line where there is room, skipped where they would cover
        // words already written (the worst marks are written first).
        let mut order: Vec<&GraphMark> = graph
            .marks
            .iter()
            .filter(|m| m.index < chances.len())
            .collect();
        for m in &order {
            let (x, y) = point(m.index, chances[m.index]);
            let (r, colour) = m.severity.dot();
            let centre = (x.round() as i32, y.round() as i32);
            draw_filled_circle_mut(&mut img, centre, r + 1, Rgb([0x10, 0x10, 0x10]));
            draw_filled_circle_mut(&mut img, centre, r, colour);
        }
        order.sort_by_key(|m| std::cmp::Reverse(m.severity.dot().0));
        let mut taken: Vec<[f32; 4]> = Vec::new();
        for m in order {
            let (x, y) = point(m.index, chances[m.index]);
            let width = self.text().width(&m.label, LABEL_SIZE);
            let left = (x + 8.0).min(pad_x + plot_w - width).max(0.0);
            // Above the dot when it is low, below it when it is high.
            let top = if y > mid { y - 10.0 - ascent } else { y + 10.0 };
            let top = top.clamp(0.0, axis - ascent - 2.0);
            let rect = [
                left - 2.0,
                top - 2.0,
                left + width + 2.0,
                top + ascent + 4.0,
            ];
            let overlaps =
                |a: &[f32; 4]| a[0] < rect[2] && rect[0] < a[2] && a[1] < rect[3] && rect[1] < a[3];
            if taken.iter().any(overlaps) {
                continue;
            }
            taken.push(rect);
            let (_, colour) = m.severity.dot();
            // A dark edge keeps the words readable over either side's area.
            let baseline = (top + ascent) as i32;
            for (dx, dy) in [(-1.0, 0), (1.0, 0), (0.0, -1), (0.0, 1)] {
                self.put_text(
                    &mut img,
                    &m.label,
                    left + dx,
                    baseline + dy,
                    Rgb([0x10, 0x10, 0x10]),
                );
            }
            self.put_text(&mut img, &m.label, left, baseline, colour);
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

    /// Writes `run` into `img` in `colour` (colour glyphs in their own),
    /// its left edge at `x` and its baseline at `baseline`, blended over
    /// what is there.
    fn put_text(&self, img: &mut RgbImage, run: &str, x: f32, baseline: i32, colour: Rgb<u8>) {
        let shaped = self.text().shape(run, LABEL_SIZE);
        let pen = x.round() as i32;
        let (w, h) = (img.width() as i32, img.height() as i32);
        for g in &shaped.glyphs {
            if g.glyph_id == 0 {
                continue;
            }
            let Some(glyph) = self.text().image(g.key) else {
                continue;
            };
            let (ox, oy) = (pen + g.x + glyph.left, baseline + g.y - glyph.top);
            for gy in 0..glyph.height as i32 {
                for gx in 0..glyph.width as i32 {
                    let (px, py) = (ox + gx, oy + gy);
                    if px < 0 || py < 0 || px >= w || py >= h {
                        continue;
                    }
                    let at = (gy * glyph.width as i32 + gx) as usize;
                    let (alpha, ink) = if glyph.colour {
                        let d = &glyph.data[at * 4..at * 4 + 4];
                        (f32::from(d[3]) / 255.0, [d[0], d[1], d[2]])
                    } else {
                        (f32::from(glyph.data[at]) / 255.0, colour.0)
                    };
                    if alpha <= 0.0 {
                        continue;
                    }
                    let p = img.get_pixel_mut(px as u32, py as u32);
                    for (channel, ink) in p.0.iter_mut().zip(ink) {
                        *channel = (f32::from(*channel) * (1.0 - alpha) + f32::from(ink) * alpha)
                            .round() as u8;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(png: &[u8]) -> RgbImage {
        image::load_from_memory(png).unwrap().to_rgb8()
    }

    fn count(img: &RgbImage, colour: [u8; 3], rows: std::ops::Range<u32>) -> usize {
        rows.flat_map(|y| (0..img.width()).map(move |x| (x, y)))
            .filter(|&(x, y)| img.get_pixel(x, y).0 == colour)
            .count()
    }

    #[test]
    fn white_leads_above_the_middle_and_dots_mark_the_moves() {
        let theme = Theme::Classic;
        let c = theme.colors();
        let r = Renderer::shared();
        // White ahead for the first half, Black for the second.
        let chances: Vec<f64> = (0..=20).map(|i| if i < 10 { 0.8 } else { -0.8 }).collect();
        let graph = EvalGraph {
            chances: chances.clone(),
            marks: vec![GraphMark {
                index: 10,
                severity: Severity::Blunder,
                label: "5... Qh4??".into(),
            }],
            ticks: vec![],
        };
        let img = decode(&r.eval_graph(&graph, theme));
        assert_eq!(img.dimensions(), GRAPH_SIZE);
        let (w, h) = GRAPH_SIZE;
        let quarter = w / 4;
        let mid = (h - AXIS_ROOM as u32) / 2;
        // Above the middle on the left: White's colour; below on the right:
        // Black's.
        assert_eq!(img.get_pixel(quarter, mid - 30).0, c.light);
        assert_eq!(img.get_pixel(quarter, mid + 30).0, c.margin);
        assert_eq!(img.get_pixel(3 * quarter, mid + 30).0, c.dark);
        assert_eq!(img.get_pixel(3 * quarter, mid - 30).0, c.margin);
        // The blunder's dot, where the lead changes hands.
        let dots = count(&img, [0xd5, 0x5e, 0x00], 0..h);
        assert!(dots > 40, "{dots} pixels of the blunder's dot");
        // No marks, no dots.
        let plain = decode(&r.eval_graph(
            &EvalGraph {
                marks: vec![],
                ..graph.clone()
            },
            theme,
        ));
        assert!(!plain.pixels().any(|p| p.0 == [0xd5, 0x5e, 0x00]));
    }

    /// Issue 53: a centre line across the whole plot, move numbers along
    /// the bottom, and each mark's move written beside its dot.
    #[test]
    fn the_graph_has_a_centre_line_move_numbers_and_the_marks_words() {
        let theme = Theme::Classic;
        let c = theme.colors();
        let r = Renderer::shared();
        let (w, h) = GRAPH_SIZE;
        // Level all game: the curve lies on the centre line, no area.
        let level = EvalGraph {
            chances: vec![0.0; 41],
            ..EvalGraph::default()
        };
        let img = decode(&r.eval_graph(&level, theme));
        let axis = h - 10 - AXIS_ROOM as u32;
        // The centre line: the grid colour (or the curve over it) across.
        let mid = 10 + (axis - 10) / 2;
        let lined = (20..w - 20)
            .filter(|&x| (mid - 1..=mid + 2).any(|y| img.get_pixel(x, y).0 != c.margin))
            .count();
        assert!(
            lined as u32 >= w - 40 - 2,
            "{lined} columns of the centre line"
        );
        // Nothing under the plot without ticks.
        assert_eq!(count(&img, c.coords, axis + 4..h), 0);
        // Ticks and their numbers: ink under the plot.
        let ticked = EvalGraph {
            ticks: (1..=20)
                .step_by(5)
                .map(|m| (2 * m - 1, m.to_string()))
                .collect(),
            ..level.clone()
        };
        let img = decode(&r.eval_graph(&ticked, theme));
        let ink = (axis + 4..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .filter(|&(x, y)| img.get_pixel(x, y).0 != c.margin)
            .count();
        assert!(ink > 40, "{ink} pixels of move numbers");
        // A mark's words are drawn in its colour beside it: more of that
        // colour than the dot alone.
        let dot_only = EvalGraph {
            marks: vec![GraphMark {
                index: 20,
                severity: Severity::Mistake,
                label: String::new(),
            }],
            ..level.clone()
        };
        let worded = EvalGraph {
            marks: vec![GraphMark {
                label: "10... Nxe5?".into(),
                ..dot_only.marks[0].clone()
            }],
            ..level.clone()
        };
        let orange = |g: &EvalGraph| {
            decode(&r.eval_graph(g, theme))
                .pixels()
                .filter(|p| {
                    let [r, g, b] = p.0;
                    r > 0xb0 && g > 0x70 && g < 0xb8 && b < 0x40
                })
                .count()
        };
        assert!(orange(&worded) > orange(&dot_only) + 20);
    }
}
