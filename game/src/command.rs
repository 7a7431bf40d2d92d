//! Chat text to commands: the same words on every platform.

use crate::contract::Player;
use std::fmt;

mod options;
mod parse;
pub mod words;

pub use options::{ColorChoice, ProgramMode, TimeControl};
pub use parse::{parse, CommandError};

/// A game named in a command: `#12`.
pub type GameRef = Option<i64>;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    Ask,
    Accept,
    Decline,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Challenge {
        opponent: Someone,
        variant: Option<String>,
        time: Option<TimeControl>,
        color: Option<ColorChoice>,
        /// The engine's level, for a challenge to the bot.
        level: Option<u8>,
        /// Super Chess reprogramming.
        mode: Option<ProgramMode>,
        /// Play the game in a thread of its own (`Some(true)`), in the
        /// channel (`Some(false)`), or as the channel's setting says.
        thread: Option<bool>,
    },
    Accept {
        challenger: Option<Someone>,
    },
    Decline {
        other: Option<Someone>,
    },
    Move {
        text: String,
        game: GameRef,
    },
    Board {
        game: GameRef,
    },
    Moves {
        square: Option<String>,
        game: GameRef,
    },
    Resign {
        game: GameRef,
    },
    Draw {
        answer: Answer,
        game: GameRef,
    },
    Undo {
        answer: Answer,
        game: GameRef,
    },
    Games,
    History {
        game: GameRef,
        pgn: bool,
    },
    Variants,
    Rules {
        query: String,
    },
    Help {
        topic: Option<String>,
    },
    /// Open a direct conversation with the author (where private commands
    /// and Super Chess programs go).
    Direct,
    Settings {
        key: Option<String>,
        value: Option<String>,
    },
    /// Claim a draw the rules allow (Chess 99), with the move that goes with
    /// a 99-move claim.
    Claim {
        text: Option<String>,
        game: GameRef,
    },
    /// Show or send a Super Chess program (`None`: show).
    Program {
        text: Option<String>,
        game: GameRef,
    },
    /// Show or choose one's piece colour in a game.
    Colour {
        colour: Option<String>,
        game: GameRef,
    },
    /// Text that is no command word: perhaps a bare move (`e4`, `e4 #2`,
    /// `#2 e4`); the game's number is kept apart from the text.
    Bare {
        text: String,
        game: GameRef,
    },
}

impl Command {
    /// A move as typed anywhere: spaces inside it do not count (`e7e8 =Q`).
    pub fn play(text: &str, game: GameRef) -> Command {
        Command::Move {
            text: text.split_whitespace().collect(),
            game,
        }
    }

    /// A draw claim, with the move of a 99-move claim.
    pub fn claim(text: Option<&str>, game: GameRef) -> Command {
        let text: Option<String> = text.map(|t| t.split_whitespace().collect());
        Command::Claim {
            text: text.filter(|t| !t.is_empty()),
            game,
        }
    }

    /// A Super Chess program, shown (`None`) or sent.
    pub fn program(text: Option<&str>, game: GameRef) -> Command {
        let text = text.map(str::trim).filter(|t| !t.is_empty());
        Command::Program {
            text: text.map(str::to_string),
            game,
        }
    }

    /// Commands that only read: they run without SQLite's write lock, so a
    /// busy database never holds them up.
    pub fn is_read_only(&self) -> bool {
        matches!(
            self,
            Command::Board { .. }
                | Command::Moves { .. }
                | Command::Games
                | Command::History { .. }
                | Command::Variants
                | Command::Rules { .. }
                | Command::Help { .. }
                | Command::Direct
        )
    }
}

/// A person named in a command: as written in a chat line (`@bob`,
/// `<@80351110224678912>`), for the core to resolve against the mentions
/// the adapter found, or already known (a slash command's user option, a
/// button's question).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Someone {
    Named(String),
    Known(Player),
}

impl Someone {
    /// A word from a chat line.
    pub fn named(word: &str) -> Someone {
        Someone::Named(word.to_string())
    }
}

impl fmt::Display for Someone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Someone::Named(w) => f.write_str(w.trim_start_matches('@')),
            Someone::Known(p) => write!(f, "{p}"),
        }
    }
}
