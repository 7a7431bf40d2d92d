//! Colour themes.

use voidmate_rules::Color;

pub(crate) type Rgb = [u8; 3];

/// A look for the board. Both themes mark every special square with a shape
/// or pattern as well as a colour, so no information rests on colour alone.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Theme {
    /// Warm wood tones; the default.
    #[default]
    Classic,
    /// Strong contrast and the Okabe-Ito colours, which stay distinct for the
    /// common kinds of colour blindness.
    HighContrast,
}

impl Theme {
    pub const ALL: [Theme; 2] = [Theme::Classic, Theme::HighContrast];

    pub fn name(self) -> &'static str {
        match self {
            Theme::Classic => "classic",
            Theme::HighContrast => "high-contrast",
        }
    }

    pub fn from_name(name: &str) -> Option<Theme> {
        match name.trim().to_ascii_lowercase().as_str() {
            "classic" | "wood" => Some(Theme::Classic),
            "high-contrast" | "highcontrast" | "contrast" | "hc" | "colorblind" | "colourblind" => {
                Some(Theme::HighContrast)
            }
            _ => None,
        }
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }

    pub(crate) fn colors(self) -> &'static Colors {
        match self {
            Theme::Classic => &CLASSIC,
            Theme::HighContrast => &HIGH_CONTRAST,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct PieceColors {
    pub fill: Rgb,
    pub line: Rgb,
    pub detail: Rgb,
}

/// A colour laid over a square with some opacity.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Tint {
    pub rgb: Rgb,
    pub alpha: f32,
}

#[derive(Debug)]
pub(crate) struct Colors {
    pub light: Rgb,
    pub dark: Rgb,
    pub margin: Rgb,
    pub coords: Rgb,
    pub caption_bg: Rgb,
    pub caption_fg: Rgb,
    pub last_move: Tint,
    pub selected: Tint,
    /// Draw a border round last-move squares too (a shape cue).
    pub last_move_border: bool,
    pub check: Rgb,
    pub marker: Tint,
    pub arrow: Tint,
    pub unstable: Rgb,
    pub void_base: Rgb,
    pub void_rim: Rgb,
    pub void_stars: Rgb,
    pub white: PieceColors,
    pub black: PieceColors,
}

impl Colors {
    pub fn piece(&self, color: Color) -> &PieceColors {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }
}

static CLASSIC: Colors = Colors {
    light: [0xec, 0xda, 0xb9],
    dark: [0xae, 0x8a, 0x68],
    margin: [0x2b, 0x27, 0x24],
    coords: [0xd9, 0xcb, 0xb5],
    caption_bg: [0x2b, 0x27, 0x24],
    caption_fg: [0xf2, 0xea, 0xdc],
    last_move: Tint {
        rgb: [0xcd, 0xd2, 0x6a],
        alpha: 0.6,
    },
    selected: Tint {
        rgb: [0x6f, 0xa8, 0xdc],
        alpha: 0.55,
    },
    last_move_border: false,
    check: [0xe0, 0x32, 0x2b],
    marker: Tint {
        rgb: [0x1d, 0x5c, 0x2a],
        alpha: 0.5,
    },
    arrow: Tint {
        rgb: [0x2e, 0x7d, 0x32],
        alpha: 0.8,
    },
    unstable: [0xe5, 0x39, 0x35],
    void_base: [0x0d, 0x0b, 0x14],
    void_rim: [0x4a, 0x40, 0x66],
    void_stars: [0xc8, 0xc0, 0xe6],
    white: PieceColors {
        fill: [0xfa, 0xf6, 0xee],
        line: [0x2a, 0x25, 0x22],
        detail: [0x2a, 0x25, 0x22],
    },
    black: PieceColors {
        fill: [0x33, 0x2e, 0x2b],
        line: [0x0f, 0x0d, 0x0c],
        detail: [0xe9, 0xe4, 0xda],
    },
};

static HIGH_CONTRAST: Colors = Colors {
    light: [0xf2, 0xf2, 0xf2],
    dark: [0x8c, 0x96, 0xa3],
    margin: [0x00, 0x00, 0x00],
    coords: [0xff, 0xff, 0xff],
    caption_bg: [0x00, 0x00, 0x00],
    caption_fg: [0xff, 0xff, 0xff],
    last_move: Tint {
        rgb: [0x00, 0x72, 0xb2],
        alpha: 0.4,
    },
    selected: Tint {
        rgb: [0x56, 0xb4, 0xe9],
        alpha: 0.6,
    },
    last_move_border: true,
    check: [0xcc, 0x79, 0xa7],
    marker: Tint {
        rgb: [0x00, 0x00, 0x00],
        alpha: 0.6,
    },
    arrow: Tint {
        rgb: [0xe6, 0x9f, 0x00],
        alpha: 0.9,
    },
    unstable: [0xd5, 0x5e, 0x00],
    void_base: [0x00, 0x00, 0x00],
    void_rim: [0xff, 0xff, 0xff],
    void_stars: [0xff, 0xff, 0xff],
    white: PieceColors {
        fill: [0xff, 0xff, 0xff],
        line: [0x00, 0x00, 0x00],
        detail: [0x00, 0x00, 0x00],
    },
    black: PieceColors {
        fill: [0x00, 0x00, 0x00],
        line: [0xff, 0xff, 0xff],
        detail: [0xff, 0xff, 0xff],
    },
};

/// A colour for one side's pieces, chosen by its player (Super Chess lets
/// each player pick; the colours are cosmetic). `White` and `Black` are the
/// theme's own piece colours; the others are fixed paints with a dark
/// outline, so pieces stay readable on either square colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PieceColour {
    White,
    Black,
    Red,
    Blue,
    Green,
    Gold,
    Silver,
    Purple,
    Orange,
    Pink,
    Teal,
    Brown,
}

impl PieceColour {
    pub const ALL: [PieceColour; 12] = [
        PieceColour::White,
        PieceColour::Black,
        PieceColour::Red,
        PieceColour::Blue,
        PieceColour::Green,
        PieceColour::Gold,
        PieceColour::Silver,
        PieceColour::Purple,
        PieceColour::Orange,
        PieceColour::Pink,
        PieceColour::Teal,
        PieceColour::Brown,
    ];

    pub fn name(self) -> &'static str {
        match self {
            PieceColour::White => "white",
            PieceColour::Black => "black",
            PieceColour::Red => "red",
            PieceColour::Blue => "blue",
            PieceColour::Green => "green",
            PieceColour::Gold => "gold",
            PieceColour::Silver => "silver",
            PieceColour::Purple => "purple",
            PieceColour::Orange => "orange",
            PieceColour::Pink => "pink",
            PieceColour::Teal => "teal",
            PieceColour::Brown => "brown",
        }
    }

    /// Reads a colour name (either case; `grey`/`gray` is silver, `yellow`
    /// gold, `violet` purple, `cyan` teal).
    pub fn from_name(name: &str) -> Option<PieceColour> {
        let n = name.trim().to_ascii_lowercase();
        let alias = match n.as_str() {
            "grey" | "gray" => "silver",
            "yellow" => "gold",
            "violet" => "purple",
            "cyan" | "turquoise" => "teal",
            other => other,
        };
        PieceColour::ALL.into_iter().find(|c| c.name() == alias)
    }

    /// The paint for this colour under `theme`.
    pub(crate) fn paint(self, theme: Theme) -> PieceColors {
        self.paint_with(theme.colors())
    }

    pub(crate) fn paint_with(self, colors: &Colors) -> PieceColors {
        let dark_line = [0x1c, 0x18, 0x16];
        let light_detail = [0xf4, 0xef, 0xe6];
        let custom = |fill: Rgb, detail: Rgb| PieceColors {
            fill,
            line: dark_line,
            detail,
        };
        match self {
            PieceColour::White => *colors.piece(Color::White),
            PieceColour::Black => *colors.piece(Color::Black),
            PieceColour::Red => custom([0xd3, 0x2f, 0x2f], light_detail),
            PieceColour::Blue => custom([0x1e, 0x5a, 0xc8], light_detail),
            PieceColour::Green => custom([0x2e, 0x8b, 0x3e], light_detail),
            PieceColour::Gold => custom([0xf2, 0xc1, 0x2e], dark_line),
            PieceColour::Silver => custom([0xb8, 0xbe, 0xc6], dark_line),
            PieceColour::Purple => custom([0x7b, 0x3f, 0xa8], light_detail),
            PieceColour::Orange => custom([0xf0, 0x7f, 0x1a], dark_line),
            PieceColour::Pink => custom([0xf4, 0x8f, 0xb1], dark_line),
            PieceColour::Teal => custom([0x16, 0x9c, 0x94], light_detail),
            PieceColour::Brown => custom([0x7a, 0x4a, 0x24], light_detail),
        }
    }
}

impl std::fmt::Display for PieceColour {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
