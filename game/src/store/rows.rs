//! The rows of `games` and `challenges` as the database keeps them (names
//! and codes), and their conversion, once, into the records the rest of
//! the core works with. A row that does not convert is an error naming it.

use super::Flag;
use crate::command::{ProgramMode, TimeControl};
use crate::contract::Player;
use crate::record::{
    ChallengeRecord, DamagedGame, Ending, GameRecord, GameResult, Offer, Offers, RecordError, Seat,
    Status, Termination,
};
use sqlx::FromRow;
use voidmate_render::PieceColour;
use voidmate_rules::{ByColor, Color, GameKind};

#[derive(Debug, Clone, FromRow)]
pub(crate) struct GameRow {
    pub id: i64,
    pub channel: String,
    pub variant: String,
    pub white: String,
    pub black: String,
    pub start_fen: String,
    pub fen: String,
    pub time_control: String,
    pub status: String,
    pub result: Option<String>,
    pub termination: Option<String>,
    pub version: i64,
    pub draw_offer_by: Option<String>,
    pub draw_offer_ply: Option<i64>,
    pub undo_by: Option<String>,
    pub undo_ply: Option<i64>,
    pub deadline_at: Option<i64>,
    #[sqlx(try_from = "Flag")]
    pub reminded: bool,
    /// The engine's level when the bot plays in this game.
    pub engine_level: Option<i64>,
    /// Since when the bot is to move (ms); `None` when it is not.
    pub engine_wanted_ms: Option<i64>,
    /// Clock games: time left per side, and when the side to move began.
    pub white_ms: Option<i64>,
    pub black_ms: Option<i64>,
    pub turn_started_ms: Option<i64>,
    #[sqlx(try_from = "Flag")]
    pub low_time_warned: bool,
    /// Super Chess reprogramming: `default`, `symmetric` or `private`.
    pub mode: String,
    /// Canonical program texts; `None` in a private game until sent.
    pub program_white: Option<String>,
    pub program_black: Option<String>,
    /// Cosmetic piece colours chosen by the players.
    pub colour_white: Option<String>,
    pub colour_black: Option<String>,
    /// The names the seats' players were last seen with.
    pub white_name: Option<String>,
    pub black_name: Option<String>,
    /// The community it is played in (a Discord server, a Matrix room).
    pub community: Option<String>,
    #[sqlx(try_from = "Flag")]
    pub rated: bool,
    pub finished_ms: Option<i64>,
    /// Until when its first moves may come before the bot aborts it.
    pub abort_at_ms: Option<i64>,
    /// When it began (seconds since 1970, UTC).
    pub created_at: i64,
}

#[derive(Debug, Clone, FromRow)]
pub(crate) struct ChallengeRow {
    pub id: i64,
    pub challenger: String,
    pub challenged: String,
    pub variant: String,
    pub time_control: String,
    pub challenger_color: String,
    pub mode: String,
    /// The roster a symmetric challenge proposes (canonical text).
    pub program: Option<String>,
    pub challenger_name: Option<String>,
    pub challenged_name: Option<String>,
    /// 1: in a thread of its own, 0: in the channel, NULL: as the channel's
    /// setting says.
    pub in_thread: Option<i64>,
    /// Where it was made (none in a direct conversation).
    pub community: Option<String>,
    #[sqlx(try_from = "Flag")]
    pub rated: bool,
}

fn bad<T>(why: impl Into<String>) -> Result<T, String> {
    Err(why.into())
}

fn kind(variant: &str) -> Result<GameKind, String> {
    match GameKind::from_storage_key(variant) {
        Some(kind) => Ok(kind),
        None if variant.contains('@') => bad(format!(
            "game '{variant}' read from a file, whose stored definition is missing"
        )),
        None => bad(format!("unknown variant '{variant}'")),
    }
}

fn clock(code: &str) -> Result<TimeControl, String> {
    match TimeControl::parse(code) {
        Some(t) => Ok(t),
        None => bad(format!("unknown time control '{code}'")),
    }
}

fn mode(code: &str) -> Result<ProgramMode, String> {
    match ProgramMode::from_code(code) {
        Some(m) => Ok(m),
        None => bad(format!("unknown programming mode '{code}'")),
    }
}

fn colour(stored: Option<String>) -> Result<Option<PieceColour>, String> {
    match stored {
        None => Ok(None),
        Some(name) => match PieceColour::from_name(&name) {
            Some(c) => Ok(Some(c)),
            None => bad(format!("unknown piece colour '{name}'")),
        },
    }
}

/// A finished game's result and termination, as stored.
fn ending(result: Option<&str>, termination: Option<&str>) -> Result<Ending, String> {
    let result = result.unwrap_or("");
    let Some(result) = GameResult::from_code(result) else {
        return bad(format!("unknown result '{result}'"));
    };
    let termination = termination.unwrap_or("");
    let Some(termination) = Termination::from_code(termination) else {
        return bad(format!("unknown termination '{termination}'"));
    };
    Ok(Ending {
        result,
        termination,
    })
}

impl GameRow {
    /// The game this row stands for, or what is wrong with it, naming it.
    pub(super) fn into_record(self) -> Result<GameRecord, Box<DamagedGame>> {
        let (id, channel) = (self.id, self.channel.clone());
        let white = Player::stored(&self.white, self.white_name.clone());
        let black = Player::stored(&self.black, self.black_name.clone());
        self.typed().map_err(|why| {
            Box::new(DamagedGame {
                id,
                channel,
                white,
                black,
                why,
            })
        })
    }

    fn typed(self) -> Result<GameRecord, String> {
        let row = self;
        let status = match row.status.as_str() {
            "active" => Status::Active,
            "finished" => {
                Status::Finished(ending(row.result.as_deref(), row.termination.as_deref())?)
            }
            other => return bad(format!("unknown status '{other}'")),
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

impl ChallengeRow {
    /// The challenge this row stands for, or what is wrong with it, naming it.
    pub(super) fn into_record(self) -> Result<ChallengeRecord, RecordError> {
        let id = self.id;
        self.typed()
            .map_err(|why| RecordError::Challenge { id, why })
    }

    fn typed(self) -> Result<ChallengeRecord, String> {
        let row = self;
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
    use crate::command::OfferKind;
    use crate::contract::PlayerId;
    use voidmate_rules::{DrawReason, WinReason};

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
        let rec = row().into_record().unwrap();
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
            assert_eq!(r.into_record().unwrap_err().why, why);
        }
    }

    /// A finished game's result and termination are typed, and every
    /// termination reads back as it is stored.
    #[test]
    fn a_finished_row_says_how_it_ended() {
        let finished = |result: &str, termination: &str| GameRow {
            status: "finished".into(),
            result: Some(result.into()),
            termination: Some(termination.into()),
            ..row()
        };
        let rec = finished("0-1", "checkmate").into_record().unwrap();
        assert_eq!(
            rec.ending(),
            Some(Ending {
                result: GameResult::Win(Color::Black),
                termination: Termination::Won(WinReason::Checkmate),
            })
        );
        let claimed = finished("1/2-1/2", "99-move rule (claimed)")
            .into_record()
            .unwrap();
        assert_eq!(
            claimed.ending().unwrap().termination,
            Termination::Drawn(DrawReason::NinetyNineMoves)
        );
        for t in Termination::all() {
            assert_eq!(Termination::from_code(t.code()), Some(t), "{t}");
        }
        let err = finished("2-0", "checkmate").into_record().unwrap_err();
        assert_eq!(err.why, "unknown result '2-0'");
        assert_eq!((err.id, err.channel.as_str()), (7, "room"));
        assert_eq!(err.white.name, "Alice");
        assert_eq!(
            RecordError::Game(err).to_string(),
            "game #7: unknown result '2-0'"
        );
        let err = finished("1-0", "fell asleep").into_record().unwrap_err();
        assert_eq!(err.why, "unknown termination 'fell asleep'");
        let err = GameRow {
            status: "finished".into(),
            ..row()
        }
        .into_record()
        .unwrap_err();
        assert_eq!(err.why, "unknown result ''");
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
        let c = row.clone().into_record().unwrap();
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
            bad_side.into_record().unwrap_err(),
            RecordError::Challenge {
                id: 1,
                why: "unknown side 'green'".into()
            }
        );
    }
}
