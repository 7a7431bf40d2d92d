//! Standings: points, then tie-breaks, and shared ranks where everything is
//! equal.
//!
//! - Swiss: Sonneborn-Berger, Buchholz cut 1, performance.
//! - Round robin: Sonneborn-Berger, direct encounter, number of wins.
//!
//! A round a player did not play (the bye, a forfeit, an absence, a round
//! missed before joining) counts, for Sonneborn-Berger and Buchholz, as a
//! game against a virtual opponent with the player's own score before that
//! round, scored as the player scored it (FIDE C.02's treatment of
//! unplayed rounds): a bye adds the player's earlier score to both, an
//! absence adds it to Buchholz only.

use std::cmp::Ordering;
use std::collections::HashMap;

use crate::history::{History, Part};
use crate::Points;

/// How a tournament is played: which tie-breaks it uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Swiss,
    RoundRobin,
}

/// A tie-break, as the standings' header names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TieBreak {
    SonnebornBerger,
    BuchholzCut1,
    Performance,
    DirectEncounter,
    Wins,
}

impl TieBreak {
    /// The short name for a table's header.
    #[must_use]
    pub fn short(self) -> &'static str {
        match self {
            TieBreak::SonnebornBerger => "SB",
            TieBreak::BuchholzCut1 => "BH-1",
            TieBreak::Performance => "Perf",
            TieBreak::DirectEncounter => "DE",
            TieBreak::Wins => "Wins",
        }
    }

    /// The full name, for help and the header's legend.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            TieBreak::SonnebornBerger => "Sonneborn-Berger",
            TieBreak::BuchholzCut1 => "Buchholz cut 1",
            TieBreak::Performance => "performance",
            TieBreak::DirectEncounter => "direct encounter",
            TieBreak::Wins => "number of wins",
        }
    }
}

impl TieBreak {
    /// A value as players read it: a count of wins or a rating as a whole
    /// number; scores to the quarter point (Sonneborn-Berger halves a drawn
    /// opponent's score, so ¼ and ¾ occur), as `9¾`.
    #[must_use]
    pub fn shown(self, value: f64) -> String {
        match self {
            TieBreak::Wins | TieBreak::Performance => format!("{}", value.round() as i64),
            _ => {
                let quarters = (value * 4.0).round() as i64;
                let (whole, rest) = (quarters.div_euclid(4), quarters.rem_euclid(4));
                let fraction = ["", "¼", "½", "¾"][rest as usize];
                match (whole, rest) {
                    (0, r) if r > 0 => fraction.to_string(),
                    _ => format!("{whole}{fraction}"),
                }
            }
        }
    }
}

impl Format {
    /// The tie-breaks, in the order they are applied.
    #[must_use]
    pub fn tie_breaks(self) -> [TieBreak; 3] {
        match self {
            Format::Swiss => [
                TieBreak::SonnebornBerger,
                TieBreak::BuchholzCut1,
                TieBreak::Performance,
            ],
            Format::RoundRobin => [
                TieBreak::SonnebornBerger,
                TieBreak::DirectEncounter,
                TieBreak::Wins,
            ],
        }
    }
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub player: u32,
    /// 1 for the first; equal for players equal in points and every
    /// tie-break.
    pub rank: u32,
    pub points: Points,
    /// The values of [`Format::tie_breaks`], in order.
    pub tie_breaks: [f64; 3],
    /// Games played over the board.
    pub played: u32,
    pub wins: u32,
    /// Performance over the games played (mean opponent rating, ±400 a
    /// win or loss); `None` without a game played.
    pub performance: Option<i64>,
}

/// The standings after the rounds of `history` that are over (a round
/// whose games are still being played counts what has finished of it).
/// `ratings` holds each player's rating for the tournament (the players
/// listed are the ones ranked).
#[must_use]
pub fn standings<S: std::hash::BuildHasher>(
    history: &History,
    ratings: &HashMap<u32, i64, S>,
    format: Format,
) -> Vec<Line> {
    let rounds = history.rounds.len() as u32;
    let mut players: Vec<u32> = ratings.keys().copied().collect();
    players.sort_unstable();
    let total: HashMap<u32, Points> = players
        .iter()
        .map(|&p| (p, history.score_before(p, rounds + 1)))
        .collect();
    let mut lines: Vec<Line> = players
        .iter()
        .map(|&p| {
            let mut sb = 0.0;
            let mut opponents = Vec::new();
            let (mut played, mut wins, mut rating_sum, mut balance) = (0u32, 0u32, 0i64, 0i64);
            for k in 1..=rounds {
                let part = history.part(p, k);
                let points = part.points();
                if part.points() == Points::ONE {
                    if let Part::Game { .. } = part {
                        wins += 1;
                    }
                }
                let opponent_score = match part {
                    Part::Game { opponent, .. } if part.played() => {
                        played += 1;
                        rating_sum += ratings.get(&opponent).copied().unwrap_or(0);
                        balance += match points {
                            Points::ONE => 1,
                            Points::ZERO => -1,
                            _ => 0,
                        };
                        total.get(&opponent).copied().unwrap_or(Points::ZERO)
                    }
                    // A game still being played counts nothing yet.
                    Part::Game { outcome: None, .. } => continue,
                    _ => {
                        if k < history.joined(p) {
                            // A round missed before joining: the first
                            // scored the late joiner's ½, the others 0,
                            // each against a virtual opponent with the
                            // player's own score before it.
                            let (scored, before) = match k {
                                1 => (history.late_points(p), Points::ZERO),
                                _ => (Points::ZERO, history.late_points(p)),
                            };
                            sb += scored.as_f64() * before.as_f64();
                            opponents.push(before);
                            continue;
                        }
                        history.score_before(p, k)
                    }
                };
                sb += points.as_f64() * opponent_score.as_f64();
                opponents.push(opponent_score);
            }
            let performance = (played > 0)
                .then(|| (rating_sum + 400 * balance) as f64 / f64::from(played))
                .map(|x| x.round() as i64);
            let buchholz_cut1 = {
                let sum: u32 = opponents.iter().map(|s| s.0).sum();
                let lowest = opponents.iter().map(|s| s.0).min().unwrap_or(0);
                f64::from(sum - lowest) / 2.0
            };
            let tie_breaks = match format {
                Format::Swiss => [sb, buchholz_cut1, performance.unwrap_or(0) as f64],
                Format::RoundRobin => [sb, 0.0, f64::from(wins)],
            };
            Line {
                player: p,
                rank: 0,
                points: total[&p],
                tie_breaks,
                played,
                wins,
                performance,
            }
        })
        .collect();
    if format == Format::RoundRobin {
        direct_encounters(history, &mut lines);
    }
    lines.sort_by(|a, b| compare(b, a).then(a.player.cmp(&b.player)));
    for i in 0..lines.len() {
        lines[i].rank = if i > 0 && compare(&lines[i], &lines[i - 1]) == Ordering::Equal {
            lines[i - 1].rank
        } else {
            i as u32 + 1
        };
    }
    lines
}

fn compare(a: &Line, b: &Line) -> Ordering {
    a.points.cmp(&b.points).then_with(|| {
        a.tie_breaks
            .iter()
            .zip(&b.tie_breaks)
            .map(|(x, y)| x.total_cmp(y))
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal)
    })
}

/// Direct encounter: among players equal in points and Sonneborn-Berger,
/// the points each scored in the games between them.
fn direct_encounters(history: &History, lines: &mut [Line]) {
    let mut groups: HashMap<(Points, u64), Vec<u32>> = HashMap::new();
    for l in lines.iter() {
        groups
            .entry((l.points, l.tie_breaks[0].to_bits()))
            .or_default()
            .push(l.player);
    }
    for l in lines.iter_mut() {
        let group = &groups[&(l.points, l.tie_breaks[0].to_bits())];
        if group.len() < 2 {
            continue;
        }
        let mut scored = Points::ZERO;
        for k in 1..=history.rounds.len() as u32 {
            let part = history.part(l.player, k);
            if let Part::Game { opponent, .. } = part {
                if group.contains(&opponent) {
                    scored += part.points();
                }
            }
        }
        l.tie_breaks[1] = scored.as_f64();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two players equal in points whose Sonneborn-Berger differs by a
    /// quarter must not look equal in the table.
    #[test]
    fn tie_breaks_show_quarters() {
        let sb = TieBreak::SonnebornBerger;
        assert_eq!(sb.shown(9.75), "9¾");
        assert_eq!(sb.shown(9.5), "9½");
        assert_eq!(sb.shown(0.25), "¼");
        assert_eq!(sb.shown(0.0), "0");
        assert_eq!(sb.shown(12.0), "12");
        assert_eq!(TieBreak::BuchholzCut1.shown(10.5), "10½");
        assert_eq!(TieBreak::Wins.shown(3.0), "3");
        assert_eq!(TieBreak::Performance.shown(1659.6), "1660");
    }
    use crate::history::{Game, Outcome, Round};

    fn game(white: u32, black: u32, outcome: Outcome) -> Game {
        Game {
            white,
            black,
            outcome: Some(outcome),
        }
    }

    #[test]
    fn swiss_tie_breaks_count_a_bye_as_the_players_own_score() {
        // Round 1: 1 beats 2, 3 has the bye. Round 2: 3 beats 1, 2 has the bye.
        let history = History {
            rounds: vec![
                Round {
                    games: vec![game(1, 2, Outcome::WhiteWins)],
                    bye: Some(3),
                },
                Round {
                    games: vec![game(3, 1, Outcome::WhiteWins)],
                    bye: Some(2),
                },
            ],
            joined: HashMap::new(),
        };
        let ratings: HashMap<u32, i64> = [(1, 2000), (2, 1800), (3, 1600)].into();
        let lines = standings(&history, &ratings, Format::Swiss);
        // 3: 2 points (bye + win over 1); 1: 1 point; 2: 1 point (bye).
        assert_eq!(lines[0].player, 3);
        assert_eq!(lines[0].points, Points(4));
        // 3's SB: the bye against its own 0 before round 1 (0), the win
        // over 1 (1 point) = 1.
        assert!((lines[0].tie_breaks[0] - 1.0).abs() < 1e-9);
        // 1: beat 2 (1 point) = 1; 2: the bye in round 2 against its own 0
        // before it = 0. So 1 is second.
        assert_eq!(lines[1].player, 1);
        assert_eq!(lines[2].player, 2);
        assert_eq!((lines[1].rank, lines[2].rank), (2, 3));
        // Performance of 3: one game, a win over 2000: 2400.
        assert_eq!(lines[0].performance, Some(2400));
    }

    #[test]
    fn equal_players_share_a_rank() {
        let history = History {
            rounds: vec![Round {
                games: vec![game(1, 2, Outcome::Draw)],
                bye: None,
            }],
            joined: HashMap::new(),
        };
        let ratings: HashMap<u32, i64> = [(1, 1500), (2, 1500)].into();
        let lines = standings(&history, &ratings, Format::RoundRobin);
        assert_eq!((lines[0].rank, lines[1].rank), (1, 1));
    }

    #[test]
    fn round_robin_breaks_ties_by_direct_encounter() {
        // Four players; 1 and 2 end on 1½ points with equal Sonneborn-Berger
        // (1¾), and 1 beat 2.
        let history = History {
            rounds: vec![
                Round {
                    games: vec![
                        game(1, 2, Outcome::WhiteWins),
                        game(3, 4, Outcome::WhiteWins),
                    ],
                    bye: None,
                },
                Round {
                    games: vec![
                        game(3, 1, Outcome::WhiteWins),
                        game(2, 4, Outcome::WhiteWins),
                    ],
                    bye: None,
                },
                Round {
                    games: vec![game(4, 1, Outcome::Draw), game(2, 3, Outcome::Draw)],
                    bye: None,
                },
            ],
            joined: HashMap::new(),
        };
        let ratings: HashMap<u32, i64> = [(1, 1500), (2, 1500), (3, 1500), (4, 1500)].into();
        let lines = standings(&history, &ratings, Format::RoundRobin);
        let of = |p: u32| lines.iter().find(|l| l.player == p).unwrap();
        assert_eq!((of(1).points, of(2).points), (Points(3), Points(3)));
        assert_eq!(of(1).tie_breaks[0], 1.75);
        assert_eq!(of(2).tie_breaks[0], 1.75);
        assert_eq!((of(1).tie_breaks[1], of(2).tie_breaks[1]), (1.0, 0.0));
        assert_eq!((of(1).rank, of(2).rank), (2, 3));
    }
}
