//! Tournaments as the core keeps them: typed records of the `tournaments`
//! tables, converted once where they are read. What a tournament does
//! (pairing rounds, forfeits, standings) is in `handlers::rounds` and `periodic::tournaments`; the
//! pairing itself and the tie-breaks in the `voidmate-tournament` crate.

use crate::command::TimeControl;
use crate::contract::{Player, PlayerId};
use voidmate_rules::GameKind;
pub use voidmate_tournament::history::Outcome;
pub use voidmate_tournament::Side;
// The words for them are the command's, which names them before anything
// is looked up.
pub use crate::command::tournament::{Format, TournamentId};

/// Where a tournament stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TournamentStatus {
    /// Taking players; starts at its time or when its organiser says.
    Open,
    Running,
    /// No round is paired and the round's deadline waits.
    Paused,
    Finished,
    Cancelled,
}

impl TournamentStatus {
    pub fn code(self) -> &'static str {
        match self {
            TournamentStatus::Open => "open",
            TournamentStatus::Running => "running",
            TournamentStatus::Paused => "paused",
            TournamentStatus::Finished => "finished",
            TournamentStatus::Cancelled => "cancelled",
        }
    }

    pub fn from_code(code: &str) -> Option<TournamentStatus> {
        [
            TournamentStatus::Open,
            TournamentStatus::Running,
            TournamentStatus::Paused,
            TournamentStatus::Finished,
            TournamentStatus::Cancelled,
        ]
        .into_iter()
        .find(|s| s.code() == code)
    }

    /// Whether it is still to be played (open, running or paused).
    pub fn is_live(self) -> bool {
        matches!(
            self,
            TournamentStatus::Open | TournamentStatus::Running | TournamentStatus::Paused
        )
    }
}

/// A tournament, typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentRecord {
    pub id: TournamentId,
    pub channel: String,
    pub community: Option<String>,
    pub platform: String,
    pub creator: PlayerId,
    pub format: Format,
    pub kind: GameKind,
    pub time: TimeControl,
    pub rated: bool,
    /// Swiss: as asked; round robin: known once it starts (0 before).
    pub rounds: u32,
    /// A correspondence round's length in days; `None` on a clock.
    pub round_days: Option<u32>,
    pub starts_ms: Option<i64>,
    pub max_players: u32,
    pub adjudicate: bool,
    pub status: TournamentStatus,
    /// The round paired last (0 before the first).
    pub round: u32,
    pub round_deadline_ms: Option<i64>,
    pub remind_ms: Option<i64>,
    /// The lot for round 1's colours.
    pub initial: Option<Side>,
    pub paused_ms: Option<i64>,
    pub ended_reason: Option<String>,
    pub created_ms: i64,
    pub finished_ms: Option<i64>,
}

impl TournamentRecord {
    /// `T3 (Swiss, Void Chess, 3 days per move)`.
    pub fn title(&self) -> String {
        format!(
            "{} ({}, {}, {})",
            self.id,
            self.format,
            self.kind.title(),
            self.time
        )
    }
}

/// Where a player stands in a tournament.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryStatus {
    Active,
    /// Lost a game by forfeit: not paired until they rejoin.
    Absent,
    Withdrawn,
    /// Removed by the organiser: not paired again.
    Kicked,
}

impl EntryStatus {
    pub fn code(self) -> &'static str {
        match self {
            EntryStatus::Active => "active",
            EntryStatus::Absent => "absent",
            EntryStatus::Withdrawn => "withdrawn",
            EntryStatus::Kicked => "kicked",
        }
    }

    pub fn from_code(code: &str) -> Option<EntryStatus> {
        [
            EntryStatus::Active,
            EntryStatus::Absent,
            EntryStatus::Withdrawn,
            EntryStatus::Kicked,
        ]
        .into_iter()
        .find(|s| s.code() == code)
    }
}

/// A player in a tournament.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub player: Player,
    /// The rating the pairing orders by.
    pub rating: i64,
    pub joined_round: u32,
    pub joined_ms: i64,
    pub status: EntryStatus,
    pub here_round: Option<u32>,
}

/// One game of a round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundGame {
    pub round: u32,
    pub board: u32,
    pub white: PlayerId,
    pub black: PlayerId,
    /// The game played (none for a forfeit decided as the round was paired).
    pub game_id: Option<i64>,
    pub outcome: Option<Outcome>,
}

/// A paired round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundRecord {
    pub round: u32,
    pub paired_ms: i64,
    pub deadline_ms: Option<i64>,
    pub bye: Option<PlayerId>,
}

/// One line of stored standings.
#[derive(Debug, Clone, PartialEq)]
pub struct StandingRow {
    pub player: PlayerId,
    pub rank: u32,
    /// Half points.
    pub points: u32,
    pub tie_breaks: [f64; 3],
    pub performance: Option<i64>,
}

/// A finished tournament as a player's profile lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct Placing {
    pub tournament: TournamentId,
    pub format: Format,
    pub kind: GameKind,
    pub rank: u32,
    pub players: u32,
    pub points: u32,
    pub performance: Option<i64>,
}

/// An outcome as a pairing list shows it: `1-0`, `½-½`, `1F-0F` for a
/// forfeit.
pub fn outcome_shown(o: Option<Outcome>) -> &'static str {
    match o {
        None => "playing",
        Some(Outcome::WhiteWins) => "1-0",
        Some(Outcome::BlackWins) => "0-1",
        Some(Outcome::Draw) => "½-½",
        Some(Outcome::WhiteByForfeit) => "+/- (forfeit)",
        Some(Outcome::BlackByForfeit) => "-/+ (forfeit)",
        Some(Outcome::BothForfeited) => "-/- (both forfeit)",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tournament_numbers_read_with_or_without_the_t() {
        assert_eq!(TournamentId::parse("T3"), Some(TournamentId(3)));
        assert_eq!(TournamentId::parse("t12"), Some(TournamentId(12)));
        assert_eq!(TournamentId::parse("7"), Some(TournamentId(7)));
        assert_eq!(TournamentId::parse("T"), None);
        assert_eq!(TournamentId::parse("T3x"), None);
        assert_eq!(TournamentId::parse("Ｔ３"), None);
        assert_eq!(TournamentId::parse("T99999999999999999999"), None);
        assert_eq!(TournamentId(4).to_string(), "T4");
    }

    #[test]
    fn outcomes_round_trip_through_their_codes() {
        for o in [
            Outcome::WhiteWins,
            Outcome::BlackWins,
            Outcome::Draw,
            Outcome::WhiteByForfeit,
            Outcome::BlackByForfeit,
            Outcome::BothForfeited,
        ] {
            assert_eq!(Outcome::from_code(o.code()), Some(o));
        }
        assert_eq!(Outcome::from_code("2-0"), None);
    }
}
