//! Chat text to commands: the same words on every platform. A command is
//! typed once, by the parser here or by an adapter (a slash command's
//! choices, a button), and the core reads no text again.

use crate::contract::Player;
use std::fmt;
use voidmate_render::{PieceColour, Theme};
use voidmate_rules::GameKind;

mod options;
mod parse;
pub mod puzzle;
pub mod tournament;
pub mod words;

pub use options::{ColorChoice, OfferKind, Pool, ProgramMode, TimeControl};
pub use parse::{parse, CommandError};
pub use puzzle::{Level, PuzzleAction};
pub use tournament::{Start, TournamentAction, TournamentSpec};

/// A game named in a command: `#12`.
pub type GameRef = Option<i64>;

/// How a player answers a proposal (a draw offer, a takeback request): a
/// bare `draw` asks, or accepts one that stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    Ask,
    Accept,
    Decline,
}

/// What a challenge asks for besides the opponent. Each field is `None`
/// when the challenge does not say (the core picks: Void Chess, no time
/// limit, White, the engine's default level, no reprogramming, the
/// channel's setting for threads).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChallengeOptions {
    pub variant: Option<GameKind>,
    pub time: Option<TimeControl>,
    pub color: Option<ColorChoice>,
    /// The engine's level (1-5), for a challenge to the bot.
    pub level: Option<u8>,
    /// Super Chess reprogramming.
    pub mode: Option<ProgramMode>,
    /// Play the game in a thread of its own (`Some(true)`), in the
    /// channel (`Some(false)`), or as the channel's setting says.
    pub thread: Option<bool>,
    /// Rated (`Some(true)`) or casual (`Some(false)`); rated when it can be
    /// if the challenge does not say.
    pub rated: Option<bool>,
}

/// A colour as asked for: one the renderer paints, or a word that names
/// none (the reply lists the colours, once the game is known).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Paint {
    Known(PieceColour),
    Unknown(String),
}

impl Paint {
    pub fn read(word: &str) -> Paint {
        match PieceColour::from_name(word) {
            Some(c) => Paint::Known(c),
            None => Paint::Unknown(word.to_ascii_lowercase()),
        }
    }
}

/// Which side a player's boards are drawn from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Flip {
    /// From the side to move; a board a player asks for, from their side.
    #[default]
    Auto,
    White,
    Black,
}

impl Flip {
    pub const ALL: [Flip; 3] = [Flip::Auto, Flip::White, Flip::Black];

    pub fn name(self) -> &'static str {
        match self {
            Flip::Auto => "auto",
            Flip::White => "white",
            Flip::Black => "black",
        }
    }

    /// `auto`, `white`, `black`; Super Chess's `player1` (or `p1`, `1`)
    /// and `player2` for White and Black.
    pub fn from_name(name: &str) -> Option<Flip> {
        let name: String = name
            .chars()
            .filter(|c| !matches!(c, ' ' | '-' | '_'))
            .flat_map(char::to_lowercase)
            .collect();
        match name.as_str() {
            "player1" | "p1" | "1" => Some(Flip::White),
            "player2" | "p2" | "2" => Some(Flip::Black),
            _ => Flip::ALL.into_iter().find(|f| f.name() == name),
        }
    }
}

/// One change to a channel's settings, or to the author's own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Setting {
    BareMoves(bool),
    Theme(Theme),
    /// New games in a thread of their own; `None`: a value that is neither
    /// on nor off.
    Threads(Option<bool>),
    /// The author's own boards: which side they are drawn from.
    Flip(Flip),
    /// An animated replay after each finished game here.
    Replays(bool),
    /// A puzzle a day here at this time (minutes after midnight, UTC), or
    /// none (`off`); moderators only.
    DailyPuzzle(Option<u16>),
    /// Words that name no setting, or a setting without a value it takes
    /// (the reply lists the settings of this platform).
    Unreadable,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Challenge {
        opponent: Someone,
        options: ChallengeOptions,
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
        /// A square to look closer at: an 8x8 window of the board around it.
        zoom: Option<String>,
    },
    Moves {
        square: Option<String>,
        game: GameRef,
    },
    Resign {
        game: GameRef,
    },
    /// A draw offer or a takeback request, made or answered.
    Offer {
        kind: OfferKind,
        answer: Answer,
        game: GameRef,
    },
    /// The games in progress here, or (`finished`) the last ones to end.
    Games {
        finished: bool,
    },
    History {
        game: GameRef,
        pgn: bool,
    },
    Variants,
    /// A game named by a platform's option that is none of ours (a slash
    /// command's autocompleted option may be typed freely).
    UnknownGame {
        name: String,
    },
    /// A rules question, about `game` if the command names one apart from
    /// the words (a slash command's choice), else about the game the words
    /// name or the one played here.
    Rules {
        game: Option<GameKind>,
        query: String,
    },
    Help {
        topic: Option<String>,
    },
    /// Open a direct conversation with the author (where private commands
    /// and Super Chess programs go).
    Direct,
    /// Show the channel's settings (no changes) or change them, in order.
    Settings {
        changes: Vec<Setting>,
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
        colour: Option<Paint>,
        game: GameRef,
    },
    /// A player's ratings in this community (the author's if nobody is
    /// named), in every game and pool or in `game`.
    Rating {
        who: Option<Someone>,
        game: Option<GameKind>,
    },
    /// The community's best players in a game and pool.
    Leaderboard {
        game: Option<GameKind>,
        pool: Option<Pool>,
    },
    /// A player's record in this community.
    Profile {
        who: Option<Someone>,
    },
    /// The same game again against the same opponent, sides swapped.
    Rematch {
        game: GameRef,
    },
    /// An animated replay of a game (a GIF).
    Replay {
        game: GameRef,
    },
    /// The engine's review of a finished game (queued; posted when done).
    Analysis {
        game: GameRef,
    },
    /// Call off a game before both sides have moved.
    Abort {
        game: GameRef,
    },
    /// A tournament's command; `id` where it names one (`T3`).
    Tournament {
        id: Option<tournament::TournamentId>,
        action: TournamentAction,
    },
    /// Solving the community's puzzles.
    Puzzle {
        action: PuzzleAction,
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
        match self {
            Command::Board { .. }
            | Command::Moves { .. }
            | Command::Games { .. }
            | Command::History { .. }
            | Command::Replay { .. }
            | Command::Rating { .. }
            | Command::Leaderboard { .. }
            | Command::Profile { .. }
            | Command::Variants
            | Command::UnknownGame { .. }
            | Command::Rules { .. }
            | Command::Help { .. }
            | Command::Direct => true,
            Command::Tournament { action, .. } => action.is_read_only(),
            Command::Puzzle { action } => action.is_read_only(),
            Command::Challenge { .. }
            | Command::Accept { .. }
            | Command::Decline { .. }
            | Command::Move { .. }
            | Command::Resign { .. }
            | Command::Offer { .. }
            | Command::Settings { .. }
            | Command::Claim { .. }
            | Command::Program { .. }
            | Command::Colour { .. }
            | Command::Rematch { .. }
            | Command::Abort { .. }
            | Command::Analysis { .. }
            | Command::Bare { .. } => false,
        }
    }
}

impl Command {
    /// Whether the command may create or settle what belongs to its
    /// channel rather than to one game: challenges (one pending per pair),
    /// the games accepting them starts, the channel's settings. Such a
    /// command holds its channel's lock to its commit, on PostgreSQL, so
    /// two of them in one channel run one after the other; a command on one
    /// game holds only that game's row ([`crate::store::lock_game`]).
    pub fn touches_channel(&self) -> bool {
        matches!(
            self,
            Command::Challenge { .. }
                | Command::Accept { .. }
                | Command::Decline { .. }
                | Command::Settings { .. }
                | Command::Program { .. }
                | Command::Rematch { .. }
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
