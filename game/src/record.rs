//! A game's and a challenge's records, typed: what the store hands up.
//!
//! The database keeps names and codes (`'active'`, `'void'`, `'3d'`,
//! `'private'`, `'1-0'`, a player's id per side); the store converts each
//! row once, where it is read, into a [`GameRecord`] or a
//! [`ChallengeRecord`]. A row that does not convert (a damaged or
//! hand-edited database) is a [`RecordError`] that names it: `voidmate
//! check-db` lists it, a command on that game is refused with the reason,
//! and nothing panics.

use crate::command::{OfferKind, ProgramMode, TimeControl};
use crate::contract::{Player, PlayerId};
use std::fmt;
use voidmate_render::PieceColour;
use voidmate_rules::{ByColor, Color, DrawReason, GameKind, Outcome, WinReason};

/// Whether a game goes on, and how it ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Active,
    Finished(Ending),
}

impl Status {
    /// As stored (the `status` column).
    pub fn code(self) -> &'static str {
        match self {
            Status::Active => "active",
            Status::Finished(_) => "finished",
        }
    }

    pub fn ending(self) -> Option<Ending> {
        match self {
            Status::Active => None,
            Status::Finished(ending) => Some(ending),
        }
    }
}

/// How a game ended: its result and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ending {
    pub result: GameResult,
    pub termination: Termination,
}

impl Ending {
    /// The end the rules found on the board.
    pub fn of_outcome(outcome: &Outcome) -> Ending {
        match *outcome {
            Outcome::Win { winner, reason } => Ending {
                result: GameResult::Win(winner),
                termination: Termination::Won(reason),
            },
            Outcome::Draw(reason) => Ending::draw(Termination::Drawn(reason)),
        }
    }

    /// `loser` loses, for `termination` (resignation, time).
    pub fn loss(loser: Color, termination: Termination) -> Ending {
        Ending {
            result: GameResult::Win(!loser),
            termination,
        }
    }

    pub fn draw(termination: Termination) -> Ending {
        Ending {
            result: GameResult::Draw,
            termination,
        }
    }

    /// Called off: no result.
    pub fn aborted(termination: Termination) -> Ending {
        Ending {
            result: GameResult::NoResult,
            termination,
        }
    }
}

impl fmt::Display for Ending {
    /// "1-0 checkmate", "* aborted".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.result, self.termination)
    }
}

/// A game's result, as PGN writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0` or `0-1`.
    Win(Color),
    /// `1/2-1/2`.
    Draw,
    /// `*`: called off before it began, not rated.
    NoResult,
}

impl GameResult {
    /// As stored and written: `1-0`, `0-1`, `1/2-1/2`, `*`.
    pub fn code(self) -> &'static str {
        match self {
            GameResult::Win(Color::White) => "1-0",
            GameResult::Win(Color::Black) => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::NoResult => "*",
        }
    }

    /// A stored result, nothing else.
    pub fn from_code(code: &str) -> Option<GameResult> {
        match code {
            "1-0" => Some(GameResult::Win(Color::White)),
            "0-1" => Some(GameResult::Win(Color::Black)),
            "1/2-1/2" => Some(GameResult::Draw),
            "*" => Some(GameResult::NoResult),
            _ => None,
        }
    }

    /// White's score (1, ½ or 0); `None` without a result.
    pub fn white_score(self) -> Option<f64> {
        match self {
            GameResult::Win(Color::White) => Some(1.0),
            GameResult::Win(Color::Black) => Some(0.0),
            GameResult::Draw => Some(0.5),
            GameResult::NoResult => None,
        }
    }

    /// What it was for `side`.
    pub fn for_side(self, side: Color) -> SideResult {
        match self {
            GameResult::Win(winner) if winner == side => SideResult::Won,
            GameResult::Win(_) => SideResult::Lost,
            GameResult::Draw => SideResult::Drawn,
            GameResult::NoResult => SideResult::Aborted,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// What a finished game was for one of its players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SideResult {
    Won,
    Drawn,
    Lost,
    Aborted,
}

impl SideResult {
    /// "won", "drawn", "lost", "aborted".
    pub fn words(self) -> &'static str {
        match self {
            SideResult::Won => "won",
            SideResult::Drawn => "drawn",
            SideResult::Lost => "lost",
            SideResult::Aborted => "aborted",
        }
    }
}

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Termination {
    /// Decided on the board by the game's rules.
    Won(WinReason),
    /// Drawn by the game's rules: on the board, or claimed under a rule of
    /// the game (Chess 99, Super Chess).
    Drawn(DrawReason),
    Resignation,
    /// A clock ran out, or a correspondence deadline passed.
    TimeForfeit,
    /// Drawn by agreement.
    Agreement,
    /// Called off by a player before both sides moved.
    Aborted,
    /// Called off by the bot: a first move did not come in time.
    NoFirstMove,
    /// A tournament game a player did not start in time: lost by forfeit
    /// (not rated, not a game played for the pairing).
    Forfeit,
    /// A tournament game still being played at its round's deadline,
    /// decided by the engine's evaluation.
    Adjudicated,
}

impl Termination {
    /// As stored, and as replies and PGN's `Termination` tag say it.
    pub fn code(self) -> &'static str {
        match self {
            // Two claims keep the words they were first stored with.
            Termination::Drawn(DrawReason::BothKingsAttacked) => "both kings attacked (claimed)",
            Termination::Drawn(DrawReason::NinetyNineMoves) => "99-move rule (claimed)",
            Termination::Won(reason) => reason.words(),
            Termination::Drawn(reason) => reason.words(),
            Termination::Resignation => "resignation",
            Termination::TimeForfeit => "time forfeit",
            Termination::Agreement => "agreement",
            Termination::Aborted => "aborted",
            Termination::NoFirstMove => "aborted (no first move)",
            Termination::Forfeit => "forfeit (did not play)",
            Termination::Adjudicated => "adjudicated by the engine",
        }
    }

    /// Every termination there is.
    pub fn all() -> impl Iterator<Item = Termination> {
        let own = [
            Termination::Resignation,
            Termination::TimeForfeit,
            Termination::Agreement,
            Termination::Aborted,
            Termination::NoFirstMove,
            Termination::Forfeit,
            Termination::Adjudicated,
        ];
        WinReason::ALL
            .into_iter()
            .map(Termination::Won)
            .chain(DrawReason::ALL.into_iter().map(Termination::Drawn))
            .chain(own)
    }

    /// A stored termination, nothing else.
    pub fn from_code(code: &str) -> Option<Termination> {
        Termination::all().find(|t| t.code() == code)
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// What a challenge came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChallengeStatus {
    Pending,
    Accepted,
    Declined,
    Withdrawn,
}

impl ChallengeStatus {
    /// As stored.
    pub fn code(self) -> &'static str {
        match self {
            ChallengeStatus::Pending => "pending",
            ChallengeStatus::Accepted => "accepted",
            ChallengeStatus::Declined => "declined",
            ChallengeStatus::Withdrawn => "withdrawn",
        }
    }
}

/// One side of a game: who plays it and what is theirs in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seat {
    /// Their identity, and the name they were last seen with.
    pub player: Player,
    /// Their Super Chess program (canonical text); `None` in a private game
    /// until it is sent, and in games without programs.
    pub program: Option<String>,
    /// The colour they chose for their pieces, if any.
    pub colour: Option<PieceColour>,
    /// A clock game: the time left when their clock last stopped.
    pub clock_ms: Option<i64>,
}

/// A standing proposal (a draw offer, a takeback request): who made it, and
/// at which ply. It stands until the next move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Offer {
    pub by: Color,
    pub ply: i64,
}

/// The proposals a game holds, one of each kind at most.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Offers {
    pub draw: Option<Offer>,
    pub takeback: Option<Offer>,
}

impl Offers {
    pub fn get(&self, kind: OfferKind) -> Option<Offer> {
        match kind {
            OfferKind::Draw => self.draw,
            OfferKind::Takeback => self.takeback,
        }
    }
}

/// A stored game, typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    pub id: i64,
    /// Where it is played (a channel, a room, a game's own thread).
    pub channel: String,
    pub kind: GameKind,
    pub seats: ByColor<Seat>,
    pub start_fen: String,
    /// The position after the last move, as stored (trusted by reads that
    /// need only the position; every write replays the moves).
    pub fen: String,
    pub clock: TimeControl,
    /// Going on, or how it ended.
    pub status: Status,
    /// Bumped by every write; a write that finds another version lost a race.
    pub version: i64,
    pub offers: Offers,
    /// Correspondence: when the player to move must have moved (seconds).
    pub deadline_at: Option<i64>,
    pub reminded: bool,
    /// The engine's level (1-5) when the bot plays in this game.
    pub engine_level: Option<u8>,
    /// Since when the bot is to move (its turn is queued); `None` when it
    /// is not.
    pub engine_wanted_ms: Option<i64>,
    /// Clock games: when the running clock started (ms).
    pub turn_started_ms: Option<i64>,
    pub low_time_warned: bool,
    /// Super Chess reprogramming.
    pub mode: ProgramMode,
    /// The community it is played in; `None`: nowhere that rates (a direct
    /// conversation).
    pub community: Option<String>,
    /// Rated when it ends after both sides have moved.
    pub rated: bool,
    /// When it ended (ms).
    pub finished_ms: Option<i64>,
    /// A clock game before both sides have moved: when the bot aborts it
    /// if the next first move has not come.
    pub abort_at_ms: Option<i64>,
    /// When it began (seconds since 1970, UTC), for the PGN's date.
    pub created_at: i64,
}

impl GameRecord {
    /// The side `id` plays, if they play in this game.
    pub fn color_of(&self, id: &PlayerId) -> Option<Color> {
        Color::ALL
            .into_iter()
            .find(|&c| &self.seats[c].player.id == id)
    }

    /// Whether `id` plays in this game.
    pub fn plays(&self, id: &PlayerId) -> bool {
        self.color_of(id).is_some()
    }

    pub fn player(&self, color: Color) -> &Player {
        &self.seats[color].player
    }

    pub fn is_active(&self) -> bool {
        self.status == Status::Active
    }

    /// How it ended, once it has.
    pub fn ending(&self) -> Option<Ending> {
        self.status.ending()
    }

    /// The proposal of `kind` that stands at `ply`, if any.
    pub fn standing(&self, kind: OfferKind, ply: i64) -> Option<Offer> {
        self.offers.get(kind).filter(|o| o.ply == ply)
    }
}

/// A stored game that does not read: what can always be read of it (for
/// lists), and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DamagedGame {
    pub id: i64,
    pub channel: String,
    pub white: Player,
    pub black: Player,
    /// What is wrong, in words ("unknown variant 'xiangqi'").
    pub why: String,
}

/// Why a stored row is not a record we can go on with, naming the record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordError {
    Game(Box<DamagedGame>),
    Challenge {
        id: i64,
        why: String,
    },
    Rating {
        community: String,
        player: String,
        why: String,
    },
    Tournament {
        id: i64,
        why: String,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Game(g) => write!(f, "game #{}: {}", g.id, g.why),
            RecordError::Challenge { id, why } => write!(f, "challenge #{id}: {why}"),
            RecordError::Rating {
                community,
                player,
                why,
            } => write!(f, "{player}'s rating in {community}: {why}"),
            RecordError::Tournament { id, why } => write!(f, "tournament T{id}: {why}"),
        }
    }
}

impl std::error::Error for RecordError {}

/// A challenge waiting for an answer, typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChallengeRecord {
    pub id: i64,
    pub challenger: Player,
    pub challenged: Player,
    pub kind: GameKind,
    pub clock: TimeControl,
    /// The side the challenger takes.
    pub challenger_color: Color,
    pub mode: ProgramMode,
    /// The roster a symmetric challenge proposes (canonical text).
    pub program: Option<String>,
    /// `Some(true)`: in a thread of its own; `Some(false)`: in the channel;
    /// `None`: as the channel's setting says.
    pub thread: Option<bool>,
    /// Where it was made, and whether the game is to be rated.
    pub community: Option<String>,
    pub rated: bool,
}
