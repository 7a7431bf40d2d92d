//! A game's and a challenge's rows, typed once when they are read.
//!
//! The database keeps names and codes (`'active'`, `'void'`, `'3d'`,
//! `'private'`, a player's id per side); everything above the store works
//! with a [`GameRecord`] or a [`ChallengeRecord`] instead, built by
//! `TryFrom` from the row. A row that does not convert (a damaged or
//! hand-edited database) is a [`RecordError`]: `voidmate check-db` names it,
//! a command on that game is refused with the reason, and nothing panics.

use crate::command::{OfferKind, ProgramMode, TimeControl};
use crate::contract::{Player, PlayerId};
use crate::store::{ChallengeRow, GameRow};
use std::fmt;
use voidmate_render::PieceColour;
use voidmate_rules::{ByColor, Color, GameKind};

/// Whether a game goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Active,
    Finished,
}

impl Status {
    /// As stored.
    pub fn code(self) -> &'static str {
        match self {
            Status::Active => "active",
            Status::Finished => "finished",
        }
    }

    pub fn from_code(code: &str) -> Option<Status> {
        match code {
            "active" => Some(Status::Active),
            "finished" => Some(Status::Finished),
            _ => None,
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
    pub status: Status,
    /// `1-0`, `0-1` or `1/2-1/2` once finished.
    pub result: Option<String>,
    pub termination: Option<String>,
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

    /// The proposal of `kind` that stands at `ply`, if any.
    pub fn standing(&self, kind: OfferKind, ply: i64) -> Option<Offer> {
        self.offers.get(kind).filter(|o| o.ply == ply)
    }
}

/// Why a stored row is not a game (or challenge) we can go on with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordError(pub String);

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RecordError {}

fn bad<T>(why: impl Into<String>) -> Result<T, RecordError> {
    Err(RecordError(why.into()))
}

fn kind(variant: &str) -> Result<GameKind, RecordError> {
    match GameKind::from_name(variant) {
        Some(kind) => Ok(kind),
        None => bad(format!("unknown variant '{variant}'")),
    }
}

fn clock(code: &str) -> Result<TimeControl, RecordError> {
    match TimeControl::parse(code) {
        Some(t) => Ok(t),
        None => bad(format!("unknown time control '{code}'")),
    }
}

fn mode(code: &str) -> Result<ProgramMode, RecordError> {
    match ProgramMode::from_code(code) {
        Some(m) => Ok(m),
        None => bad(format!("unknown programming mode '{code}'")),
    }
}

fn colour(stored: Option<String>) -> Result<Option<PieceColour>, RecordError> {
    match stored {
        None => Ok(None),
        Some(name) => match PieceColour::from_name(&name) {
            Some(c) => Ok(Some(c)),
            None => bad(format!("unknown piece colour '{name}'")),
        },
    }
}

impl TryFrom<GameRow> for GameRecord {
    type Error = RecordError;

    fn try_from(row: GameRow) -> Result<GameRecord, RecordError> {
        let status = match Status::from_code(&row.status) {
            Some(s) => s,
            None => return bad(format!("unknown status '{}'", row.status)),
        };
        let seats = ByColor {
            white: Seat {
                player: Player::stored(&row.white, row.white_name),
                program: row.program_white,
                colour: colour(row.colour_white)?,
                clock_ms: row.white_ms,
            },
            black: Seat {
                player: Player::stored(&row.black, row.black_name),
                program: row.program_black,
                colour: colour(row.colour_black)?,
                clock_ms: row.black_ms,
            },
        };
        // An offer names its maker by id: it must be one of the players.
        let offer = |by: Option<String>, ply: Option<i64>, what: &str| match (by, ply) {
            (Some(by), Some(ply)) => match Color::ALL
                .into_iter()
                .find(|&c| seats[c].player.id.as_str() == by)
            {
                Some(by) => Ok(Some(Offer { by, ply })),
                None => bad(format!("its {what} is by {by}, who does not play in it")),
            },
            _ => Ok(None),
        };
        let offers = Offers {
            draw: offer(row.draw_offer_by, row.draw_offer_ply, "draw offer")?,
            takeback: offer(row.undo_by, row.undo_ply, "takeback request")?,
        };
        let engine_level = match row.engine_level {
            None => None,
            Some(level) => match u8::try_from(level).ok().filter(|l| (1..=5).contains(l)) {
                Some(level) => Some(level),
                None => return bad(format!("the engine's level {level} is not 1 to 5")),
            },
        };
        Ok(GameRecord {
            id: row.id,
            channel: row.channel,
            kind: kind(&row.variant)?,
            seats,
            start_fen: row.start_fen,
            fen: row.fen,
            clock: clock(&row.time_control)?,
            status,
            result: row.result,
            termination: row.termination,
            version: row.version,
            offers,
            deadline_at: row.deadline_at,
            reminded: row.reminded,
            engine_level,
            engine_wanted_ms: row.engine_wanted_ms,
            turn_started_ms: row.turn_started_ms,
            low_time_warned: row.low_time_warned,
            mode: mode(&row.mode)?,
            community: row.community,
            rated: row.rated,
            finished_ms: row.finished_ms,
            abort_at_ms: row.abort_at_ms,
            created_at: row.created_at,
        })
    }
}

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

impl TryFrom<ChallengeRow> for ChallengeRecord {
    type Error = RecordError;

    fn try_from(row: ChallengeRow) -> Result<ChallengeRecord, RecordError> {
        let challenger_color = match row.challenger_color.as_str() {
            "white" => Color::White,
            "black" => Color::Black,
            other => return bad(format!("unknown side '{other}'")),
        };
        Ok(ChallengeRecord {
            id: row.id,
            challenger: Player::stored(&row.challenger, row.challenger_name),
            challenged: Player::stored(&row.challenged, row.challenged_name),
            kind: kind(&row.variant)?,
            clock: clock(&row.time_control)?,
            challenger_color,
            mode: mode(&row.mode)?,
            program: row.program,
            thread: row.in_thread.map(|t| t != 0),
            community: row.community,
            rated: row.rated,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row() -> GameRow {
        GameRow {
            id: 7,
            channel: "room".into(),
            variant: "void".into(),
            white: "t:alice".into(),
            black: "t:bob".into(),
            start_fen: "start".into(),
            fen: "now".into(),
            time_control: "3d".into(),
            status: "active".into(),
            result: None,
            termination: None,
            version: 4,
            draw_offer_by: Some("t:bob".into()),
            draw_offer_ply: Some(3),
            undo_by: None,
            undo_ply: None,
            deadline_at: Some(100),
            reminded: false,
            engine_level: None,
            engine_wanted_ms: None,
            white_ms: None,
            black_ms: None,
            turn_started_ms: None,
            low_time_warned: false,
            mode: "default".into(),
            program_white: None,
            program_black: None,
            colour_white: Some("gold".into()),
            colour_black: None,
            white_name: Some("Alice".into()),
            black_name: None,
            community: Some("room".into()),
            rated: true,
            finished_ms: None,
            abort_at_ms: None,
            created_at: 1_700_000_000,
        }
    }

    #[test]
    fn a_sound_row_becomes_a_typed_record() {
        let rec = GameRecord::try_from(row()).unwrap();
        assert_eq!(rec.kind, GameKind::Void);
        assert_eq!(rec.clock, TimeControl::Days(3));
        assert_eq!(rec.status, Status::Active);
        assert_eq!(rec.mode, ProgramMode::Default);
        assert_eq!(rec.seats.white.player.name, "Alice");
        assert_eq!(rec.seats.black.player.name, "bob");
        assert_eq!(rec.seats.white.colour, Some(PieceColour::Gold));
        assert_eq!(
            rec.offers.draw,
            Some(Offer {
                by: Color::Black,
                ply: 3
            })
        );
        assert_eq!(
            rec.standing(OfferKind::Draw, 3).map(|o| o.by),
            Some(Color::Black)
        );
        assert_eq!(rec.standing(OfferKind::Draw, 4), None);
        assert_eq!(rec.standing(OfferKind::Takeback, 3), None);
        assert_eq!(
            rec.color_of(&PlayerId::from_stored("t:bob")),
            Some(Color::Black)
        );
        assert!(!rec.plays(&PlayerId::from_stored("t:carol")));
    }

    /// Every field that holds a code is checked: a damaged row names what
    /// is wrong with it instead of panicking later.
    #[test]
    fn a_damaged_row_says_what_is_wrong() {
        type Damage = fn(&mut GameRow);
        let cases: [(Damage, &str); 7] = [
            (
                |r| r.variant = "xiangqi".into(),
                "unknown variant 'xiangqi'",
            ),
            (|r| r.status = "paused".into(), "unknown status 'paused'"),
            (
                |r| r.time_control = "fast".into(),
                "unknown time control 'fast'",
            ),
            (
                |r| r.mode = "secret!".into(),
                "unknown programming mode 'secret!'",
            ),
            (
                |r| r.colour_black = Some("plaid".into()),
                "unknown piece colour 'plaid'",
            ),
            (
                |r| r.draw_offer_by = Some("t:mallory".into()),
                "its draw offer is by t:mallory, who does not play in it",
            ),
            (
                |r| r.engine_level = Some(9),
                "the engine's level 9 is not 1 to 5",
            ),
        ];
        for (damage, why) in cases {
            let mut r = row();
            damage(&mut r);
            assert_eq!(GameRecord::try_from(r).unwrap_err().0, why);
        }
    }

    #[test]
    fn challenges_are_typed_too() {
        let row = ChallengeRow {
            id: 1,
            challenger: "t:alice".into(),
            challenged: "t:bob".into(),
            variant: "super16".into(),
            time_control: "10+5".into(),
            challenger_color: "black".into(),
            mode: "private".into(),
            program: None,
            challenger_name: None,
            challenged_name: Some("Bob".into()),
            in_thread: Some(1),
            community: None,
            rated: false,
        };
        let c = ChallengeRecord::try_from(row.clone()).unwrap();
        assert_eq!(c.kind, GameKind::Super16);
        assert_eq!(c.challenger_color, Color::Black);
        assert_eq!(c.mode, ProgramMode::Private);
        assert_eq!(c.thread, Some(true));
        assert_eq!(c.challenged.name, "Bob");
        let bad_side = ChallengeRow {
            challenger_color: "green".into(),
            ..row
        };
        assert_eq!(
            ChallengeRecord::try_from(bad_side).unwrap_err().0,
            "unknown side 'green'"
        );
    }
}
