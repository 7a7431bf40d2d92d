//! How a game ends.

use crate::Color;
use std::fmt;

/// Why a game was decided.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum WinReason {
    Checkmate,
    /// Void Chess: the king stood on an unstable tile with no move to escape.
    KingLostToVoid,
    /// Giveaway games: the winner has no piece or no move left.
    NothingLeftToGive,
    /// Suicide Void Chess with "promotion wins": a pawn reached its last rank.
    PawnPromoted,
    /// Chess 99: the enemy king was captured.
    KingCaptured,
    /// A game defined in a file whose stalemate is not a draw (Shatranj:
    /// the side with no move loses).
    Stalemated,
    /// A game defined in a file: the loser lost the last of a kind of
    /// piece it must keep.
    Extinction,
    /// A game defined in a file: the winner's flag piece reached its zone.
    ReachedZone,
    /// A game defined in a file (Shatranj, Courier): the loser's king was
    /// left bare, and its move did not bare the winner's.
    BareKing,
}

/// Why a game was drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    Stalemate,
    ThreefoldRepetition,
    FiftyMoveRule,
    InsufficientMaterial,
    /// Void Chess: a king walled in by voids that nobody can ever reach.
    VoidFortress,
    /// Void Chess: 20 full moves of a small fortress nobody broke into.
    VoidSiege,
    /// Chess 99: a king was captured while the capturer's own king stood attacked.
    KingTakenInCheck,
    /// Chess 99: a king was captured by a side with nothing left but its king.
    PyrrhicVictory,
    /// Chess 99, claimed: both kings were attacked.
    BothKingsAttacked,
    /// Chess 99, claimed: the opponent had made 99 moves.
    NinetyNineMoves,
    /// Super Chess 16x16, claimed: 100 moves by each side without a capture
    /// or pawn move.
    HundredMoveRule,
}

/// The result of a finished game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win { winner: Color, reason: WinReason },
    Draw(DrawReason),
}

impl Outcome {
    pub fn winner(&self) -> Option<Color> {
        match self {
            Outcome::Win { winner, .. } => Some(*winner),
            Outcome::Draw(_) => None,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn score(&self) -> &'static str {
        match self.winner() {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl WinReason {
    /// Every reason, for a reader of stored words.
    pub const ALL: [WinReason; 9] = [
        WinReason::Checkmate,
        WinReason::KingLostToVoid,
        WinReason::NothingLeftToGive,
        WinReason::PawnPromoted,
        WinReason::KingCaptured,
        WinReason::Stalemated,
        WinReason::Extinction,
        WinReason::ReachedZone,
        WinReason::BareKing,
    ];

    /// How the game was won, in words: "checkmate".
    pub fn words(self) -> &'static str {
        match self {
            WinReason::Checkmate => "checkmate",
            WinReason::KingLostToVoid => "the enemy king was lost to the void",
            WinReason::NothingLeftToGive => "no piece or move left to give away",
            WinReason::PawnPromoted => "a pawn reached the last rank",
            WinReason::KingCaptured => "the king was captured",
            WinReason::Stalemated => "a side was stalemated",
            WinReason::Extinction => "a side lost the last of a piece it must keep",
            WinReason::ReachedZone => "a piece reached its goal",
            WinReason::BareKing => "the other king was left bare",
        }
    }
}

impl DrawReason {
    /// Every reason, for a reader of stored words.
    pub const ALL: [DrawReason; 11] = [
        DrawReason::Stalemate,
        DrawReason::ThreefoldRepetition,
        DrawReason::FiftyMoveRule,
        DrawReason::InsufficientMaterial,
        DrawReason::VoidFortress,
        DrawReason::VoidSiege,
        DrawReason::KingTakenInCheck,
        DrawReason::PyrrhicVictory,
        DrawReason::BothKingsAttacked,
        DrawReason::NinetyNineMoves,
        DrawReason::HundredMoveRule,
    ];

    /// Why the game was drawn, in words: "stalemate".
    pub fn words(self) -> &'static str {
        match self {
            DrawReason::Stalemate => "stalemate",
            DrawReason::ThreefoldRepetition => "threefold repetition",
            DrawReason::FiftyMoveRule => "50 moves without a capture, pawn move or void loss",
            DrawReason::InsufficientMaterial => "insufficient material",
            DrawReason::VoidFortress => "a king is sealed in a void fortress",
            DrawReason::VoidSiege => "20 moves of unbroken void siege",
            DrawReason::KingTakenInCheck => {
                "the king was taken while the taker's own king stood attacked"
            }
            DrawReason::PyrrhicVictory => {
                "a Pyrrhic victory: the king was taken by a side with only its king left"
            }
            DrawReason::BothKingsAttacked => "claimed with both kings attacked",
            DrawReason::NinetyNineMoves => "claimed under the 99-move rule",
            DrawReason::HundredMoveRule => "claimed under the 100-move rule",
        }
    }
}

impl Outcome {
    /// How the game ended, without who won: what a record stores as its
    /// termination ("checkmate", "stalemate").
    pub fn termination(&self) -> &'static str {
        match self {
            Outcome::Win { reason, .. } => reason.words(),
            Outcome::Draw(reason) => reason.words(),
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win { winner, reason } => write!(f, "{winner} wins: {}", reason.words()),
            Outcome::Draw(reason) => write!(f, "Draw: {}", reason.words()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ALL` lists every reason once: an exhaustive match gives each its
    /// place, so a new reason fails to compile here until it is listed.
    #[test]
    fn every_reason_is_listed_once() {
        let win = |r: WinReason| match r {
            WinReason::Checkmate => 0,
            WinReason::KingLostToVoid => 1,
            WinReason::NothingLeftToGive => 2,
            WinReason::PawnPromoted => 3,
            WinReason::KingCaptured => 4,
            WinReason::Stalemated => 5,
            WinReason::Extinction => 6,
            WinReason::ReachedZone => 7,
            WinReason::BareKing => 8,
        };
        let draw = |r: DrawReason| match r {
            DrawReason::Stalemate => 0,
            DrawReason::ThreefoldRepetition => 1,
            DrawReason::FiftyMoveRule => 2,
            DrawReason::InsufficientMaterial => 3,
            DrawReason::VoidFortress => 4,
            DrawReason::VoidSiege => 5,
            DrawReason::KingTakenInCheck => 6,
            DrawReason::PyrrhicVictory => 7,
            DrawReason::BothKingsAttacked => 8,
            DrawReason::NinetyNineMoves => 9,
            DrawReason::HundredMoveRule => 10,
        };
        for (i, r) in WinReason::ALL.into_iter().enumerate() {
            assert_eq!(win(r), i);
        }
        for (i, r) in DrawReason::ALL.into_iter().enumerate() {
            assert_eq!(draw(r), i);
        }
    }
}
