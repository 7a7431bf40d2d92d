//! What happened in a tournament, round by round, and what the pairing of
//! the next round sees of it: scores, colours, floats, byes and opponents.
//!
//! Scoring: a win 1, a draw ½, a loss 0; the pairing-allocated bye 1; a win
//! by forfeit 1 (not a game played: no colour, no opponent met, and no bye
//! later); a double forfeit 0 for both. A player who joins late has ½ point,
//! once, for the rounds they missed (as lichess scores a late joiner's
//! first round); a round a present player is absent scores 0.

use std::collections::{HashMap, HashSet};

use crate::dutch::{Entrant, Field, Float};
use crate::{Points, Side};

/// How a tournament game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    WhiteWins,
    BlackWins,
    Draw,
    /// White won because Black did not play.
    WhiteByForfeit,
    /// Black won because White did not play.
    BlackByForfeit,
    /// Neither played: both lose.
    BothForfeited,
}

impl Outcome {
    /// The outcome as written in tables and files: `1-0`, `0-1`, `1/2`, and
    /// for forfeits `+-`, `-+`, `--` (White's mark first, as in FIDE's
    /// tournament report format).
    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2",
            Outcome::WhiteByForfeit => "+-",
            Outcome::BlackByForfeit => "-+",
            Outcome::BothForfeited => "--",
        }
    }

    /// The outcome a [`code`](Outcome::code) writes; `None` for any other text.
    #[must_use]
    pub fn from_code(code: &str) -> Option<Outcome> {
        Some(match code {
            "1-0" => Outcome::WhiteWins,
            "0-1" => Outcome::BlackWins,
            "1/2" => Outcome::Draw,
            "+-" => Outcome::WhiteByForfeit,
            "-+" => Outcome::BlackByForfeit,
            "--" => Outcome::BothForfeited,
            _ => return None,
        })
    }

    /// The points of white and black.
    #[must_use]
    pub fn points(self) -> (Points, Points) {
        match self {
            Outcome::WhiteWins | Outcome::WhiteByForfeit => (Points::ONE, Points::ZERO),
            Outcome::BlackWins | Outcome::BlackByForfeit => (Points::ZERO, Points::ONE),
            Outcome::Draw => (Points::HALF, Points::HALF),
            Outcome::BothForfeited => (Points::ZERO, Points::ZERO),
        }
    }

    /// Whether the game was played over the board (a forfeit is not).
    #[must_use]
    pub fn played(self) -> bool {
        matches!(
            self,
            Outcome::WhiteWins | Outcome::BlackWins | Outcome::Draw
        )
    }
}

/// One game of a round; `outcome` is `None` while it is being played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    pub white: u32,
    pub black: u32,
    pub outcome: Option<Outcome>,
}

/// One round: its games and the pairing-allocated bye.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Round {
    pub games: Vec<Game>,
    pub bye: Option<u32>,
}

/// A tournament's rounds so far, and the round each player joined in.
#[derive(Clone, Debug, Default)]
pub struct History {
    pub rounds: Vec<Round>,
    /// Player id → the first round they could be paired in (1 for everyone
    /// there at the start).
    pub joined: HashMap<u32, u32>,
}

/// What one player did in one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// Played a game (over the board or by forfeit).
    Game {
        opponent: u32,
        side: Side,
        outcome: Option<Outcome>,
    },
    Bye,
    /// Not paired: not yet in the tournament (late), absent or withdrawn.
    Out,
}

impl Part {
    /// The points this part scored (a late joiner's half points aside).
    #[must_use]
    pub fn points(self) -> Points {
        match self {
            Part::Game {
                side,
                outcome: Some(o),
                ..
            } => {
                let (w, b) = o.points();
                if side == Side::White {
                    w
                } else {
                    b
                }
            }
            Part::Bye => Points::ONE,
            _ => Points::ZERO,
        }
    }

    /// Whether a game was played over the board.
    #[must_use]
    pub fn played(self) -> bool {
        matches!(self, Part::Game { outcome: Some(o), .. } if o.played())
    }

    /// Points without playing: the bye or a win by forfeit.
    #[must_use]
    pub fn unplayed_win(self) -> bool {
        match self {
            Part::Bye => true,
            Part::Game {
                side,
                outcome: Some(o),
                ..
            } => matches!(
                (side, o),
                (Side::White, Outcome::WhiteByForfeit) | (Side::Black, Outcome::BlackByForfeit)
            ),
            _ => false,
        }
    }
}

impl History {
    /// What `player` did in round `round` (from 1).
    #[must_use]
    pub fn part(&self, player: u32, round: u32) -> Part {
        let Some(r) = round
            .checked_sub(1)
            .and_then(|i| self.rounds.get(i as usize))
        else {
            return Part::Out;
        };
        if r.bye == Some(player) {
            return Part::Bye;
        }
        for g in &r.games {
            if g.white == player {
                return Part::Game {
                    opponent: g.black,
                    side: Side::White,
                    outcome: g.outcome,
                };
            }
            if g.black == player {
                return Part::Game {
                    opponent: g.white,
                    side: Side::Black,
                    outcome: g.outcome,
                };
            }
        }
        Part::Out
    }

    /// The round `player` joined in (1 where unknown).
    #[must_use]
    pub fn joined(&self, player: u32) -> u32 {
        self.joined.get(&player).copied().unwrap_or(1)
    }

    /// Half a point, once, for the rounds missed before joining (counted as
    /// the first round's), nothing for a player there from the start.
    #[must_use]
    pub fn late_points(&self, player: u32) -> Points {
        if self.joined(player) > 1 {
            Points::HALF
        } else {
            Points::ZERO
        }
    }

    /// `player`'s score before round `round` (after the rounds before it).
    #[must_use]
    pub fn score_before(&self, player: u32, round: u32) -> Points {
        if self.joined(player) > round {
            return Points::ZERO;
        }
        let mut score = self.late_points(player);
        for k in 1..round {
            score += self.part(player, k).points();
        }
        score
    }

    /// The player as the pairing of round `round` sees them. `number` is
    /// their pairing number; `forbidden` the ids they may never meet.
    #[must_use]
    pub fn entrant(
        &self,
        player: u32,
        round: u32,
        number: u32,
        forbidden: &HashSet<u32>,
    ) -> Entrant {
        let mut colours = Vec::new();
        let mut floats = Vec::new();
        let mut avoid = forbidden.clone();
        let mut played = 0;
        let mut unplayed_win = false;
        for k in 1..round {
            let part = self.part(player, k);
            unplayed_win |= part.unplayed_win();
            match part {
                Part::Game { opponent, side, .. } if part.played() => {
                    played += 1;
                    colours.push(side);
                    avoid.insert(opponent);
                    let (mine, theirs) =
                        (self.score_before(player, k), self.score_before(opponent, k));
                    floats.push(match mine.cmp(&theirs) {
                        std::cmp::Ordering::Greater => Float::Down,
                        std::cmp::Ordering::Less => Float::Up,
                        std::cmp::Ordering::Equal => Float::None,
                    });
                }
                // A round without a game played counts as a downfloat.
                _ => floats.push(Float::Down),
            }
        }
        Entrant {
            id: player,
            number,
            score: self.score_before(player, round),
            colours,
            floats,
            played,
            unplayed_win,
            avoid,
        }
    }

    /// The field of round `round` of `rounds`: the players `present`, each
    /// with their pairing number, and the pairs that may never meet.
    #[must_use]
    pub fn field(
        &self,
        round: u32,
        rounds: u32,
        initial: Side,
        present: &[(u32, u32)],
        forbidden: &[(u32, u32)],
    ) -> Field {
        let entrants = present
            .iter()
            .map(|&(id, number)| {
                let never: HashSet<u32> = forbidden
                    .iter()
                    .filter_map(|&(a, b)| {
                        if a == id {
                            Some(b)
                        } else if b == id {
                            Some(a)
                        } else {
                            None
                        }
                    })
                    .collect();
                self.entrant(id, round, number, &never)
            })
            .collect();
        Field {
            round,
            rounds,
            initial,
            entrants,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A late joiner has ½ point once, however many rounds they missed
    /// (lichess's "late" first round); the rounds missed after the first
    /// score nothing.
    #[test]
    fn a_late_joiner_has_half_a_point_once() {
        let round = |white, black| Round {
            games: vec![Game {
                white,
                black,
                outcome: Some(Outcome::WhiteWins),
            }],
            bye: None,
        };
        let history = History {
            rounds: vec![round(1, 2), round(2, 1), round(1, 2)],
            joined: HashMap::from([(1, 1), (2, 1), (3, 2), (4, 3)]),
        };
        assert_eq!(history.late_points(1), Points::ZERO);
        assert_eq!(history.late_points(3), Points::HALF);
        assert_eq!(history.late_points(4), Points::HALF);
        // Before round 4: ½ for the late joiners whatever they missed.
        assert_eq!(history.score_before(3, 4), Points::HALF);
        assert_eq!(history.score_before(4, 4), Points::HALF);
        assert_eq!(history.score_before(1, 4), Points(4));
    }
}
