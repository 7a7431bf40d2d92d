//! The caption strip: who plays whom and the state of the game, fitted to
//! the board's width.
//!
//! Fitting, in order of preference:
//! 1. players and status side by side on one line;
//! 2. the players on one line, the status under them;
//! 3. each player on a line of their own, the status under them.
//!
//! A name is shortened (by whole grapheme clusters, with an ellipsis) only
//! when it does not fit even on a line of its own. Each name and each fixed
//! word is shaped as a run of its own and the runs are placed left to right,
//! so a right-to-left name reads right to left inside its run without
//! carrying the words around it along.

use crate::text::Text;
use unicode_segmentation::UnicodeSegmentation;

/// Longest player name shown, in grapheme clusters; longer names are cut.
pub const MAX_NAME_GRAPHEMES: usize = 24;

/// The strip above the board: who plays whom, and the state of the game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Caption {
    pub white: String,
    pub black: String,
    /// "White to move", "1-0 checkmate", ...
    pub status: String,
    /// What to call the sides after the names; `None`: "White" and
    /// "Black". Super Chess says "Player 1" and "Player 2".
    pub sides: Option<[String; 2]>,
}

/// One line of a fitted caption: runs drawn one after another from the
/// left, and perhaps one run set against the right edge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Line {
    pub left: Vec<String>,
    pub right: Option<String>,
}

impl Line {
    pub fn text(&self) -> String {
        let mut s: String = self.left.concat();
        if let Some(r) = &self.right {
            s.push_str("  ");
            s.push_str(r);
        }
        s.replace(LRM, "")
    }
}

/// A name as it can be drawn: its grapheme clusters that some font has.
struct Name {
    graphemes: Vec<String>,
    /// Cut short (too long, or shortened to fit).
    cut: bool,
    side: String,
    /// A name no font here can draw: shown as `?` marks (one a letter, at
    /// most three), never as the side alone (`Black` is nobody's name).
    undrawable: usize,
}

impl Name {
    fn new(name: &str, side: &str, text: &Text, size: u32) -> Name {
        // One past the most shown, to know whether it was cut: a name of
        // any length costs no more than that.
        let letters = || {
            name.graphemes(true)
                .filter(|g| !g.chars().any(char::is_control) && !g.trim().is_empty())
        };
        let drawable: Vec<String> = name
            .graphemes(true)
            .filter(|g| !g.chars().any(char::is_control))
            .filter(|g| text.drawable(g, size))
            .take(MAX_NAME_GRAPHEMES + 1)
            .map(str::to_string)
            .collect();
        let undrawable = letters().take(3).count();
        let cut = drawable.len() > MAX_NAME_GRAPHEMES;
        let mut graphemes: Vec<String> = drawable.into_iter().take(MAX_NAME_GRAPHEMES).collect();
        // Nothing but spaces left: no name to show.
        if graphemes.iter().all(|g| g.trim().is_empty()) {
            graphemes.clear();
        }
        Name {
            graphemes,
            cut,
            side: side.to_string(),
            undrawable,
        }
    }

    /// The runs that name the player: `name`, ` (White)`; or the side alone
    /// when no letter of the name can be drawn.
    fn runs(&self) -> Vec<String> {
        if self.graphemes.is_empty() && self.undrawable == 0 {
            return vec![self.side.clone()];
        }
        vec![self.shown(), format!(" ({})", self.side)]
    }

    /// The name as drawn: its kept clusters, and an ellipsis if it was cut;
    /// empty when none can be drawn.
    fn shown(&self) -> String {
        if self.graphemes.is_empty() {
            return "?".repeat(self.undrawable);
        }
        let mut shown = self.graphemes.concat().trim().to_string();
        if self.cut && !shown.is_empty() {
            shown.push('…');
        }
        shown
    }

    /// Drops the last grapheme; false when only one is left.
    fn shorten(&mut self) -> bool {
        if self.graphemes.len() <= 1 {
            return false;
        }
        self.graphemes.pop();
        self.cut = true;
        true
    }
}

const VS: &str = "  vs  ";

/// Longest status shown, in grapheme clusters.
const MAX_STATUS_GRAPHEMES: usize = 120;

/// Left-to-right mark: sets a line's direction without drawing anything.
const LRM: char = '\u{200E}';

/// Width of runs placed one after another.
fn width(text: &Text, runs: &[String], size: u32) -> f32 {
    runs.iter().map(|r| text.width(r, size)).sum()
}

/// A player's name alone, cut as a caption cuts it (between grapheme
/// clusters, with an ellipsis, never beyond [`MAX_NAME_GRAPHEMES`]) until
/// it fits `room` pixels at `size` px; empty when no character of it can be
/// drawn. A crosstable's name column is fitted with it.
pub(crate) fn fit_name(text: &Text, name: &str, size: u32, room: f32) -> String {
    let mut name = Name::new(name, "", text, size);
    while text.width(&name.shown(), size) > room && name.shorten() {}
    name.shown()
}

/// A line as drawn (a caption's status, a crosstable's cell): left to right
/// whatever it starts with (a name in Arabic at its start must not turn the
/// whole line around), cut to `room`.
pub(crate) fn fit_line(text: &Text, s: &str, size: u32, room: f32) -> String {
    let clean: String = s.chars().filter(|c| !c.is_control()).collect();
    // No status line holds more than this: a longer one is cut to it before
    // it is shaped (shaping it whole, once a cluster, would cost its
    // length squared).
    let mut graphemes: Vec<&str> = clean.graphemes(true).take(MAX_STATUS_GRAPHEMES).collect();
    let clean: String = graphemes.concat();
    let mut shown = format!("{LRM}{clean}");
    while text.width(&shown, size) > room && graphemes.len() > 1 {
        graphemes.pop();
        shown = format!("{LRM}{}…", graphemes.concat().trim_end());
    }
    shown
}

/// A caption's status fitted to `room`: a long name in it is cut first
/// (the longer of the two, a cluster at a time), so that what the line says
/// of the game ("… to move", "1-0 checkmate") stays whole; only a status
/// still too wide is cut at its end.
fn fit_status(text: &Text, c: &Caption, size: u32, room: f32) -> String {
    let whole = fit_line(text, &c.status, size, f32::INFINITY);
    if text.width(&whole, size) <= room {
        return whole;
    }
    let mut names: Vec<(&str, Name)> = [c.white.as_str(), c.black.as_str()]
        .into_iter()
        .filter(|n| n.graphemes(true).count() >= 2 && c.status.contains(*n))
        .map(|n| (n, Name::new(n, "", text, size)))
        .collect();
    // The longer name first, so both end up about as long.
    names.sort_by_key(|(n, _)| std::cmp::Reverse(n.graphemes(true).count()));
    loop {
        let longest = names
            .iter_mut()
            .max_by_key(|(_, name)| name.graphemes.len())
            .map(|(_, name)| name);
        if !longest.is_some_and(Name::shorten) {
            break;
        }
        let mut status = c.status.clone();
        for (original, name) in &names {
            status = status.replace(original, &name.shown());
        }
        let shown = fit_line(text, &status, size, f32::INFINITY);
        if text.width(&shown, size) <= room {
            return shown;
        }
    }
    // Still too wide with the names at their shortest: cut the end of
    // what is left (a clock or two), not the names' verb.
    let mut status = c.status.clone();
    for (original, name) in &names {
        status = status.replace(original, &name.shown());
    }
    fit_line(text, &status, size, room)
}

/// `c` fitted to `room` pixels at `size` px.
pub(crate) fn fit(text: &Text, c: &Caption, size: u32, room: f32, gap: f32) -> Vec<Line> {
    let (a, b) = match &c.sides {
        Some([a, b]) => (a.as_str(), b.as_str()),
        None => ("White", "Black"),
    };
    let mut white = Name::new(&c.white, a, text, size);
    let mut black = Name::new(&c.black, b, text, size);
    let status = fit_status(text, c, size, room);
    let players = |w: &Name, k: &Name| {
        let mut runs = w.runs();
        runs.push(VS.to_string());
        runs.extend(k.runs());
        runs
    };
    let both = players(&white, &black);
    let status_w = text.width(&status, size);
    if width(text, &both, size) + gap + status_w <= room {
        return vec![Line {
            left: both,
            right: Some(status),
        }];
    }
    let status_line = Line {
        left: vec![status],
        right: None,
    };
    if width(text, &both, size) <= room {
        return vec![
            Line {
                left: both,
                right: None,
            },
            status_line,
        ];
    }
    // A line each; a name too long for its own line is shortened.
    let first = |w: &Name| {
        let mut runs = w.runs();
        runs.push(VS.trim_end().to_string());
        runs
    };
    while width(text, &first(&white), size) > room && white.shorten() {}
    let first = first(&white);
    while width(text, &black.runs(), size) > room && black.shorten() {}
    vec![
        Line {
            left: first,
            right: None,
        },
        Line {
            left: black.runs(),
            right: None,
        },
        status_line,
    ]
}
