//! A round robin's crosstable as a PNG, as chess sites show one: a header
//! row, then a row per player in standings order with their rank, name,
//! result against each player (in the same order; their own cell shaded),
//! points and tie-breaks.
//!
//! It is drawn in the boards' colours and palette, and its names are
//! shaped, fitted and drawn exactly as a board's caption draws them (the
//! renderer's shaper, glyph cache and glyph drawing; `caption::fit_name`),
//! so a name in Arabic, CJK or with emoji looks the same under a board and
//! in the table. The caller's strings are drawn as given (`"½"`, `"1½"`,
//! `"+"`); only their length is bounded by the columns.

use crate::caption;
use crate::renderer::Ink;
use crate::theme::Theme;
use crate::{encode, Renderer};
use std::fmt;

/// A round robin's crosstable: what [`Renderer::crosstable`] draws.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Crosstable {
    /// A line above the table ("Spring Void Cup, round 5"); empty: none.
    pub title: String,
    /// The tie-break columns' headers ("SB", "Wins"), at most
    /// [`Crosstable::MAX_TIE_BREAKS`].
    pub tie_breaks: Vec<String>,
    /// The players in standings order, from 1 to
    /// [`Crosstable::MAX_PLAYERS`].
    pub rows: Vec<CrossRow>,
}

impl Crosstable {
    /// Players shown at most: 20 keeps the picture under 1,400 px wide
    /// whatever its strings, about as much as a chat shows legibly.
    pub const MAX_PLAYERS: usize = 20;
    /// Tie-break columns shown at most.
    pub const MAX_TIE_BREAKS: usize = 3;
}

/// One player's row of a [`Crosstable`]. Every string is drawn as given,
/// cut with an ellipsis where its column is too narrow.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CrossRow {
    /// "1", "=3", ...
    pub rank: String,
    pub name: String,
    /// The result against each player, in the order of the table's rows:
    /// "1", "½", "0", "+", "-", "=", or two results in a double round robin
    /// ("1½"); empty when not played yet. The cell against the player
    /// themself is shaded whatever it holds; missing cells are empty, and
    /// cells beyond the number of players are not drawn.
    pub cells: Vec<String>,
    pub points: String,
    /// One for each of the table's tie-break columns; missing ones are
    /// blank, extra ones are not drawn.
    pub tie_breaks: Vec<String>,
}

/// Why a crosstable cannot be drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CrosstableError {
    /// No rows: a table of nobody.
    NoPlayers,
    /// More rows than [`Crosstable::MAX_PLAYERS`].
    TooManyPlayers(usize),
    /// More tie-break columns than [`Crosstable::MAX_TIE_BREAKS`].
    TooManyTieBreaks(usize),
}

impl fmt::Display for CrosstableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CrosstableError::NoPlayers => f.write_str("a crosstable needs at least one player"),
            CrosstableError::TooManyPlayers(n) => write!(
                f,
                "a crosstable shows at most {} players, not {n}",
                Crosstable::MAX_PLAYERS
            ),
            CrosstableError::TooManyTieBreaks(n) => write!(
                f,
                "a crosstable shows at most {} tie-breaks, not {n}",
                Crosstable::MAX_TIE_BREAKS
            ),
        }
    }
}

impl std::error::Error for CrosstableError {}

/// Text size (the em, px), row height, the margin round the table.
const SIZE: u32 = 15;
const ROW: u32 = 28;
const MARGIN: u32 = 12;
/// The space before text set from the left (names), and the least either
/// side of centred text (results, which must fit "½½" in a narrow cell).
const PAD: u32 = 6;
const TIGHT: u32 = 2;
/// Widths: a result cell; the most a rank, a name, the points or a
/// tie-break column may take (their content decides below that).
const CELL: u32 = 38;
const RANK_MAX: u32 = 48;
const NAME_MAX: u32 = 220;
const SCORE_MAX: u32 = 84;

/// Columns, left to right: rank, name, one per player, points, tie-breaks.
const RANK: usize = 0;
const NAME: usize = 1;
const FIRST_RESULT: usize = 2;

/// A rectangle of pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rect {
    x: u32,
    y: u32,
    w: u32,
    h: u32,
}

/// Where everything goes.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Grid {
    /// Each column's left edge and width (its left grid line included).
    columns: Vec<(u32, u32)>,
    players: usize,
    /// The header row's top.
    head: u32,
    width: u32,
    height: u32,
}

impl Grid {
    fn points(&self) -> usize {
        FIRST_RESULT + self.players
    }

    fn tie_break(&self, k: usize) -> usize {
        self.points() + 1 + k
    }

    /// The header's cell of column `c` (in line with the cells below it).
    fn header(&self, c: usize) -> Rect {
        let (x, w) = self.columns[c];
        Rect {
            x: x + 1,
            y: self.head,
            w: w - 1,
            h: ROW,
        }
    }

    /// The inside of column `c` on player `i`'s row, the grid's lines left
    /// out.
    fn cell(&self, i: usize, c: usize) -> Rect {
        let (x, w) = self.columns[c];
        Rect {
            x: x + 1,
            y: self.head + ROW * (1 + i as u32) + 1,
            w: w - 1,
            h: ROW - 1,
        }
    }

    /// The players' rows with their lines: from the first line to the last.
    fn body(&self) -> Rect {
        let x = self.columns[0].0;
        let (last_x, last_w) = self.columns[self.columns.len() - 1];
        Rect {
            x,
            y: self.head + ROW,
            w: last_x + last_w + 1 - x,
            h: ROW * self.players as u32 + 1,
        }
    }
}

impl Renderer {
    /// Draws `table` as a PNG (8-bit indexed colour, `theme`'s palette, as
    /// the boards). Results missing from a row are drawn empty and extra
    /// ones left out; long strings are cut to their column.
    ///
    /// # Errors
    ///
    /// A table with no players, more than [`Crosstable::MAX_PLAYERS`], or
    /// more than [`Crosstable::MAX_TIE_BREAKS`] tie-break columns.
    pub fn crosstable(&self, table: &Crosstable, theme: Theme) -> Result<Vec<u8>, CrosstableError> {
        let grid = self.grid(table)?;
        let (palette, colors) = (self.theme_palette(theme), theme.colors());
        let stride = grid.width as usize;
        let mut pixels = vec![palette.index(colors.caption_bg); stride * grid.height as usize];
        let fill = |pixels: &mut [u8], r: Rect, index: u8| {
            for y in r.y..r.y + r.h {
                let at = y as usize * stride + r.x as usize;
                pixels[at..at + r.w as usize].fill(index);
            }
        };
        // Header and title as a caption is drawn: its colours on its strip;
        // the players' rows as light squares with dark lines, their own
        // results dark squares.
        let head_ramp = palette.ramp(colors.caption_bg, colors.caption_fg);
        let body_ramp = palette.ramp(colors.light, colors.caption_bg);
        let head = |clip: Rect| Ink {
            palette,
            ramp: &head_ramp,
            bg: colors.caption_bg,
            clip: clip.edges(),
        };
        let body = |clip: Rect| Ink {
            palette,
            ramp: &body_ramp,
            bg: colors.light,
            clip: clip.edges(),
        };
        let (light, dark) = (palette.index(colors.light), palette.index(colors.dark));
        fill(&mut pixels, grid.body(), dark);
        let put = |pixels: &mut [u8], ink: &Ink, s: &str, r: Rect, centred: bool| {
            let room = r.w.saturating_sub(2 * if centred { TIGHT } else { PAD }) as f32;
            let shown = caption::fit_line(self.text(), s, SIZE, room);
            self.place(pixels, grid.width, ink, &shown, r, centred);
        };

        if !table.title.trim().is_empty() {
            let r = Rect {
                x: MARGIN - PAD,
                y: MARGIN,
                w: grid.width - 2 * (MARGIN - PAD),
                h: ROW,
            };
            put(&mut pixels, &head(r), &table.title, r, false);
        }
        let mut headers = vec![("#".to_string(), RANK), ("Player".to_string(), NAME)];
        headers.extend((0..grid.players).map(|j| ((j + 1).to_string(), FIRST_RESULT + j)));
        headers.push(("Pts".to_string(), grid.points()));
        for (k, name) in table.tie_breaks.iter().enumerate() {
            headers.push((name.clone(), grid.tie_break(k)));
        }
        for (label, c) in headers {
            let r = grid.header(c);
            put(&mut pixels, &head(r), &label, r, c != NAME);
        }

        let name_room = (grid.columns[NAME].1 - 1).saturating_sub(2 * PAD) as f32;
        for (i, row) in table.rows.iter().enumerate() {
            for c in 0..grid.columns.len() {
                let shaded = c == FIRST_RESULT + i;
                fill(
                    &mut pixels,
                    grid.cell(i, c),
                    if shaded { dark } else { light },
                );
            }
            let r = grid.cell(i, RANK);
            put(&mut pixels, &body(r), &row.rank, r, true);
            let r = grid.cell(i, NAME);
            let name = caption::fit_name(self.text(), &row.name, SIZE, name_room);
            self.place(&mut pixels, grid.width, &body(r), &name, r, false);
            for (j, result) in row.cells.iter().enumerate().take(grid.players) {
                if j != i {
                    let r = grid.cell(i, FIRST_RESULT + j);
                    put(&mut pixels, &body(r), result, r, true);
                }
            }
            let r = grid.cell(i, grid.points());
            put(&mut pixels, &body(r), &row.points, r, true);
            for (k, tb) in row
                .tie_breaks
                .iter()
                .enumerate()
                .take(table.tie_breaks.len())
            {
                let r = grid.cell(i, grid.tie_break(k));
                put(&mut pixels, &body(r), tb, r, true);
            }
        }
        Ok(encode::encode(
            &pixels,
            grid.width,
            grid.height,
            self.palette(theme),
        ))
    }

    /// The table's geometry: each column as wide as its widest fitted
    /// content, within its bounds.
    fn grid(&self, table: &Crosstable) -> Result<Grid, CrosstableError> {
        let players = table.rows.len();
        if players == 0 {
            return Err(CrosstableError::NoPlayers);
        }
        if players > Crosstable::MAX_PLAYERS {
            return Err(CrosstableError::TooManyPlayers(players));
        }
        let tie_breaks = table.tie_breaks.len();
        if tie_breaks > Crosstable::MAX_TIE_BREAKS {
            return Err(CrosstableError::TooManyTieBreaks(tie_breaks));
        }
        let text = self.text();
        // The width of a column of centred `texts`, each cut to what the
        // widest such column holds, with its grid line at the left.
        let column = |texts: &mut dyn Iterator<Item = &str>, max: u32| {
            let room = (max - 1 - 2 * TIGHT) as f32;
            let widest = texts
                .map(|s| text.width(&caption::fit_line(text, s, SIZE, room), SIZE))
                .fold(0.0f32, f32::max);
            (widest.ceil() as u32 + 2 * PAD + 1).clamp(CELL, max)
        };
        let rows = &table.rows;
        let mut widths = vec![
            column(
                &mut std::iter::once("#").chain(rows.iter().map(|r| r.rank.as_str())),
                RANK_MAX,
            ),
            {
                let room = (NAME_MAX - 1 - 2 * PAD) as f32;
                let widest = rows
                    .iter()
                    .map(|r| text.width(&caption::fit_name(text, &r.name, SIZE, room), SIZE))
                    .fold(text.width("Player", SIZE), f32::max);
                (widest.ceil() as u32 + 2 * PAD + 1).min(NAME_MAX)
            },
        ];
        widths.extend(std::iter::repeat_n(CELL, players));
        widths.push(column(
            &mut std::iter::once("Pts").chain(rows.iter().map(|r| r.points.as_str())),
            SCORE_MAX,
        ));
        for (k, name) in table.tie_breaks.iter().enumerate() {
            let values = rows.iter().filter_map(|r| r.tie_breaks.get(k));
            widths.push(column(
                &mut std::iter::once(name.as_str()).chain(values.map(String::as_str)),
                SCORE_MAX,
            ));
        }
        let mut columns = Vec::with_capacity(widths.len());
        let mut x = MARGIN;
        for w in widths {
            columns.push((x, w));
            x += w;
        }
        let title = if table.title.trim().is_empty() {
            0
        } else {
            ROW
        };
        let head = MARGIN + title;
        Ok(Grid {
            columns,
            players,
            head,
            // The last column's closing line, then the margin.
            width: x + 1 + MARGIN,
            height: head + ROW * (1 + players as u32) + 1 + MARGIN,
        })
    }

    /// Draws `shown` (fitted already) in `r`: centred, or from its left
    /// after the padding; on the row's middle as a caption line is.
    fn place(&self, pixels: &mut [u8], width: u32, ink: &Ink, shown: &str, r: Rect, centred: bool) {
        let run_w = self.text().width(shown, SIZE);
        let x = if centred {
            r.x as f32 + ((r.w as f32 - run_w) / 2.0).max(0.0)
        } else {
            (r.x + PAD) as f32
        };
        let ascent = self.text().ascent(SIZE);
        let baseline = (r.y as f32 + r.h as f32 / 2.0 + ascent / 2.0 - 1.0) as i32;
        self.draw_run(pixels, width, ink, shown, SIZE, x, baseline);
    }
}

impl Rect {
    /// Left, top, right, bottom (the last two excluded), as a clip.
    fn edges(self) -> [i32; 4] {
        [
            self.x as i32,
            self.y as i32,
            (self.x + self.w) as i32,
            (self.y + self.h) as i32,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::theme::Rgb;

    fn row(rank: &str, name: &str, cells: &[&str], points: &str) -> CrossRow {
        CrossRow {
            rank: rank.to_string(),
            name: name.to_string(),
            cells: cells.iter().map(|c| c.to_string()).collect(),
            points: points.to_string(),
            tie_breaks: vec!["0".to_string()],
        }
    }

    /// `n` players, nothing played yet, one tie-break column.
    fn table(n: usize) -> Crosstable {
        Crosstable {
            title: String::new(),
            tie_breaks: vec!["SB".to_string()],
            rows: (0..n)
                .map(|i| {
                    row(
                        &(i + 1).to_string(),
                        &format!("player{i}"),
                        &vec![""; n],
                        "0",
                    )
                })
                .collect(),
        }
    }

    /// A decoded picture, as RGB.
    struct Picture {
        width: u32,
        height: u32,
        rgb: Vec<Rgb>,
    }

    impl Picture {
        fn region(&self, r: Rect) -> Vec<Rgb> {
            assert!(r.x + r.w <= self.width && r.y + r.h <= self.height, "{r:?}");
            (r.y..r.y + r.h)
                .flat_map(|y| (r.x..r.x + r.w).map(move |x| (x, y)))
                .map(|(x, y)| self.rgb[(y * self.width + x) as usize])
                .collect()
        }

        /// Pixels of `r` that are not `bg`.
        fn ink(&self, r: Rect, bg: Rgb) -> usize {
            self.region(r).iter().filter(|&&p| p != bg).count()
        }
    }

    /// Decodes with the `png` crate: the indices looked up in the PLTE.
    fn decode(bytes: &[u8]) -> Picture {
        let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
            .read_info()
            .expect("a PNG");
        let mut buf = vec![0; reader.output_buffer_size().expect("a size")];
        let frame = reader.next_frame(&mut buf).expect("one frame");
        buf.truncate(frame.buffer_size());
        let info = reader.info();
        assert_eq!(info.color_type, png::ColorType::Indexed);
        let plte = info.palette.as_deref().expect("a palette");
        Picture {
            width: info.width,
            height: info.height,
            rgb: buf
                .iter()
                .map(|&i| {
                    let i = i as usize * 3;
                    [plte[i], plte[i + 1], plte[i + 2]]
                })
                .collect(),
        }
    }

    fn draw(table: &Crosstable, theme: Theme) -> (Grid, Picture) {
        let r = Renderer::shared();
        let png = r.crosstable(table, theme).expect("a table that draws");
        let grid = r.grid(table).expect("its grid");
        let picture = decode(&png);
        assert_eq!((picture.width, picture.height), (grid.width, grid.height));
        (grid, picture)
    }

    #[test]
    fn crosstable_grows_with_the_players_and_stays_bounded() {
        let mut last = (0, 0);
        for n in [1, 2, 5, 12, 20] {
            let (_, p) = draw(&table(n), Theme::Classic);
            assert!(
                p.width > last.0 && p.height > last.1,
                "{n} players: {}x{} after {last:?}",
                p.width,
                p.height
            );
            last = (p.width, p.height);
        }
        // The widest there can be: every column at its most.
        let long = "W".repeat(300);
        let mut t = table(Crosstable::MAX_PLAYERS);
        t.tie_breaks = vec![long.clone(); Crosstable::MAX_TIE_BREAKS];
        for r in &mut t.rows {
            r.name.clone_from(&long);
            r.rank.clone_from(&long);
            r.points.clone_from(&long);
            r.tie_breaks = vec![long.clone(); 3];
        }
        let (grid, p) = draw(&t, Theme::Classic);
        let name = grid.columns[NAME].1;
        assert!(name <= NAME_MAX && name > NAME_MAX - 30, "{name}");
        assert!(
            p.width < 1400 && p.height <= 700,
            "{}x{}",
            p.width,
            p.height
        );
    }

    #[test]
    fn crosstable_result_cells_show_their_result_and_empty_ones_nothing() {
        let theme = Theme::Classic;
        let light = theme.colors().light;
        let mut t = table(3);
        t.rows[0].cells = vec![String::new(), "1".into(), String::new()];
        t.rows[1].cells = vec!["0".into(), String::new(), "½".into()];
        let (grid, p) = draw(&t, theme);
        let one = p.region(grid.cell(0, FIRST_RESULT + 1));
        let empty = p.region(grid.cell(0, FIRST_RESULT + 2));
        assert_ne!(one, empty);
        let inked = one.iter().filter(|&&c| c != light).count();
        assert!(inked > 15, "{inked} pixels of a \"1\"");
        assert!(empty.iter().all(|&c| c == light), "an empty cell is blank");
        // Different results draw differently.
        let zero = p.region(grid.cell(1, FIRST_RESULT));
        let half = p.region(grid.cell(1, FIRST_RESULT + 2));
        assert!(zero != one && half != one && half != zero);
    }

    #[test]
    fn crosstable_diagonal_is_shaded_in_the_theme_colour() {
        for theme in Theme::ALL {
            let c = theme.colors();
            let mut t = table(4);
            // Something in every cell, the player's own too: never drawn.
            for r in &mut t.rows {
                r.cells = vec!["1".into(); 4];
            }
            let (grid, p) = draw(&t, theme);
            for i in 0..4 {
                let own = p.region(grid.cell(i, FIRST_RESULT + i));
                assert!(own.iter().all(|&px| px == c.dark), "{theme:?}: row {i}");
                let other = p.region(grid.cell(i, FIRST_RESULT + (i + 1) % 4));
                assert!(other.contains(&c.light), "{theme:?}: row {i}");
                assert!(other.iter().any(|&px| px != c.light && px != c.dark));
            }
        }
    }

    #[test]
    fn crosstable_results_of_a_double_round_robin_fit_their_cells() {
        let text = Renderer::shared().text();
        let room = (CELL - 1 - 2 * TIGHT) as f32;
        for s in ["1½", "½½", "10", "00", "½", "+", "-", "="] {
            let shown = caption::fit_line(text, s, SIZE, room);
            assert!(!shown.contains('…'), "{s:?} shown as {shown:?}");
            assert!(shown.ends_with(s));
        }
    }

    #[test]
    fn crosstable_long_names_are_cut_with_an_ellipsis_within_their_column() {
        let theme = Theme::Classic;
        let c = theme.colors();
        let mut t = table(2);
        let short_grid = Renderer::shared().grid(&t).unwrap();
        t.rows[1].name = "Wolfgang Amadeus Mozart Wolfgang Amadeus Mozart".into();
        let (grid, p) = draw(&t, theme);
        let (long_w, short_w) = (grid.columns[NAME].1, short_grid.columns[NAME].1);
        assert!(long_w <= NAME_MAX && long_w > NAME_MAX - 30, "{long_w}");
        assert!(short_w < 120, "{short_w}");
        let text = Renderer::shared().text();
        let room = (NAME_MAX - 1 - 2 * PAD) as f32;
        let shown = caption::fit_name(text, &t.rows[1].name, SIZE, room);
        assert!(
            shown.ends_with('…') && shown.starts_with("Wolfgang"),
            "{shown}"
        );
        assert!(text.width(&shown, SIZE) <= room);
        // The name stays in its column: the next cell (empty) is blank,
        // and the name's last pixels are inked.
        assert!(p.ink(grid.cell(1, FIRST_RESULT), c.light) == 0);
        let name = grid.cell(1, NAME);
        let tail = Rect {
            x: name.x + name.w / 2,
            w: name.w / 2,
            ..name
        };
        assert!(p.ink(tail, c.light) > 20);
    }

    #[test]
    fn crosstable_title_takes_a_line_above_the_header() {
        let theme = Theme::Classic;
        let mut t = table(3);
        let (plain, _) = draw(&t, theme);
        t.title = "Spring Void Cup".into();
        let (titled, p) = draw(&t, theme);
        assert_eq!(titled.height, plain.height + ROW);
        let line = Rect {
            x: MARGIN,
            y: MARGIN,
            w: titled.width - 2 * MARGIN,
            h: ROW,
        };
        assert!(p.ink(line, theme.colors().caption_bg) > 50);
    }

    #[test]
    fn crosstable_odd_tables_are_errors_or_draw_what_fits() {
        let r = Renderer::shared();
        let theme = Theme::HighContrast;
        assert_eq!(
            r.crosstable(&Crosstable::default(), theme),
            Err(CrosstableError::NoPlayers)
        );
        assert_eq!(
            r.crosstable(&table(21), theme),
            Err(CrosstableError::TooManyPlayers(21))
        );
        let mut t = table(3);
        t.tie_breaks = vec!["a".into(); 4];
        assert_eq!(
            r.crosstable(&t, theme),
            Err(CrosstableError::TooManyTieBreaks(4))
        );
        assert!(!CrosstableError::TooManyPlayers(21).to_string().is_empty());

        // Too few and too many cells and tie-breaks, strange and huge
        // strings: drawn, as wide as a plain table of as many players.
        let plain = draw(&table(4), theme).1;
        let huge = "界".repeat(10_000);
        let mut t = table(4);
        t.rows[0].cells = Vec::new();
        t.rows[1].cells = vec!["1".into(); 30];
        t.rows[1].tie_breaks = vec!["9".into(); 10];
        t.rows[2] = CrossRow::default();
        t.rows[3] = CrossRow {
            rank: "\u{7}\n".into(),
            name: huge.clone(),
            cells: vec![huge.clone(), "e\u{301}\u{308}".into(), "\u{10FFFD}".into()],
            points: huge.clone(),
            tie_breaks: vec![],
        };
        t.title = huge;
        let (grid, p) = draw(&t, theme);
        assert_eq!(p.height, plain.height + ROW);
        assert!(p.width >= plain.width && p.width < 1400);
        // A row without results: its cells blank, its own shaded.
        let c = theme.colors();
        assert_eq!(p.ink(grid.cell(0, FIRST_RESULT + 1), c.light), 0);
        assert!(p
            .region(grid.cell(0, FIRST_RESULT))
            .iter()
            .all(|&x| x == c.dark));
        // The row with 30 results: the ones against the players drawn.
        assert!(p.ink(grid.cell(1, FIRST_RESULT + 3), c.light) > 10);
    }

    #[test]
    #[cfg_attr(
        not(voidmate_fonts),
        ignore = "the CJK and colour emoji fonts are not installed: `apt-get install fonts-noto-cjk fonts-noto-color-emoji` (or `scripts/test.sh`) runs this"
    )]
    fn crosstable_cjk_and_emoji_names_draw_in_the_name_column() {
        let theme = Theme::Classic;
        let light = theme.colors().light;
        let text = Renderer::shared().text();
        let fonts: Vec<String> = text
            .shape("王小明🔥", SIZE)
            .glyphs
            .iter()
            .map(|g| text.family(g.font))
            .collect();
        assert!(
            fonts.iter().any(|f| f.contains("CJK")) && fonts.iter().any(|f| f.contains("Emoji")),
            "install fonts-noto-cjk and fonts-noto-color-emoji: {fonts:?}"
        );
        let mut t = table(2);
        t.rows[0].name = "王小明".into();
        t.rows[1].name = "🔥".into();
        let (grid, p) = draw(&t, theme);
        let cjk = p.ink(grid.cell(0, NAME), light);
        assert!(cjk > 60, "{cjk} pixels of 王小明");
        // Colour emoji keep their colour: the flame is orange or red.
        let flame = p
            .region(grid.cell(1, NAME))
            .into_iter()
            .filter(|&[r, g, b]| r > 180 && b < 100 && r as i32 - g as i32 > 50)
            .count();
        assert!(flame > 10, "{flame} flame-coloured pixels");
        // No name: nothing in the column.
        t.rows[0].name = String::new();
        let (grid, p) = draw(&t, theme);
        assert_eq!(p.ink(grid.cell(0, NAME), light), 0);
    }
}
