//! Round robins from FIDE's Berger tables (C.05, annex 1).
//!
//! Players are numbered 1..=n in the order of the tournament (rating,
//! highest first). With an odd number of players a phantom n+1 is added,
//! and whoever is paired with it has the round off (a bye). A double round
//! robin plays the schedule twice, colours reversed the second time, with
//! the last two rounds of the first cycle swapped: otherwise the players
//! who have the same colour in the last round of the first cycle and the
//! first of the second would have it three times running.

/// One round of a round robin: games as (white, black) numbers, from 1, and
/// the number with the round off, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    pub games: Vec<(u32, u32)>,
    pub bye: Option<u32>,
}

/// The number of rounds of a round robin of `players`.
#[must_use]
pub fn rounds(players: u32, double: bool) -> u32 {
    let cycle = players + players % 2 - 1;
    if double {
        2 * cycle
    } else {
        cycle
    }
}

/// Round `round` (from 1) of a round robin of `players` (at least 2).
/// `None` past the last round.
#[must_use]
pub fn round(players: u32, double: bool, round: u32) -> Option<Round> {
    if players < 2 || round == 0 || round > rounds(players, double) {
        return None;
    }
    let n = players + players % 2;
    let cycle = n - 1;
    let (in_cycle, reversed) = if round > cycle {
        (round - cycle, true)
    } else if double && cycle >= 3 && round >= cycle - 1 {
        // The last two rounds of the first cycle swapped.
        (2 * cycle - 1 - round, false)
    } else {
        (round, false)
    };
    let mut games = Vec::with_capacity(n as usize / 2);
    let target = in_cycle % cycle; // i + j ≡ round + 1 (mod n - 1), residues 1..=n-1
    for i in 1..n {
        for j in (i + 1)..n {
            if (i + j) % cycle == (target + 1) % cycle {
                // An odd sum gives the smaller number white, an even one the
                // larger.
                let pair = if (i + j) % 2 == 1 { (i, j) } else { (j, i) };
                games.push(pair);
            }
        }
    }
    // Player n meets the one left over; white in even rounds.
    let left = (1..n)
        .find(|&i| !games.iter().any(|&(a, b)| a == i || b == i))
        .expect("one player is left for the last number");
    games.insert(
        0,
        if in_cycle % 2 == 0 {
            (n, left)
        } else {
            (left, n)
        },
    );
    if reversed {
        for g in &mut games {
            *g = (g.1, g.0);
        }
    }
    let mut bye = None;
    if players % 2 == 1 {
        games.retain(|&(w, b)| {
            if w == n || b == n {
                bye = Some(if w == n { b } else { w });
                false
            } else {
                true
            }
        });
    }
    Some(Round { games, bye })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn six_players_follow_the_fide_table() {
        // FIDE C.05 annex 1, the table for 5 or 6 players.
        let table = [
            vec![(1, 6), (2, 5), (3, 4)],
            vec![(6, 4), (5, 3), (1, 2)],
            vec![(2, 6), (3, 1), (4, 5)],
            vec![(6, 5), (1, 4), (2, 3)],
            vec![(3, 6), (4, 2), (5, 1)],
        ];
        for (r, expected) in table.iter().enumerate() {
            let got = round(6, false, r as u32 + 1).unwrap();
            let mut got = got.games;
            let mut expected = expected.clone();
            got.sort();
            expected.sort();
            assert_eq!(got, expected, "round {}", r + 1);
        }
        assert_eq!(round(6, false, 6), None);
    }

    #[test]
    fn everyone_meets_everyone_once_per_cycle() {
        for players in 3..=20u32 {
            for double in [false, true] {
                let mut met = std::collections::HashMap::new();
                let mut byes = vec![0; players as usize + 1];
                for r in 1..=rounds(players, double) {
                    let round = round(players, double, r).unwrap();
                    let mut seen = std::collections::HashSet::new();
                    for &(w, b) in &round.games {
                        assert!(w <= players && b <= players && w != b);
                        assert!(seen.insert(w) && seen.insert(b));
                        *met.entry((w.min(b), w.max(b))).or_insert(0) += 1;
                    }
                    if let Some(bye) = round.bye {
                        assert!(seen.insert(bye));
                        byes[bye as usize] += 1;
                    }
                    assert_eq!(seen.len() as u32, players, "{players} players, round {r}");
                }
                let times = if double { 2 } else { 1 };
                assert_eq!(met.len() as u32, players * (players - 1) / 2);
                assert!(met.values().all(|&m| m == times));
                if players % 2 == 1 {
                    assert!(byes[1..].iter().all(|&b| b == times));
                }
            }
        }
    }

    #[test]
    fn a_double_round_robin_gives_nobody_one_colour_three_times_running() {
        for players in (4..=20u32).step_by(2) {
            let total = rounds(players, true);
            for p in 1..=players {
                let colours: Vec<bool> = (1..=total)
                    .map(|r| round(players, true, r).unwrap())
                    .map(|round| round.games.iter().any(|&(w, _)| w == p))
                    .collect();
                for w in colours.windows(3) {
                    assert!(
                        !(w[0] == w[1] && w[1] == w[2]),
                        "player {p} of {players}: {colours:?}"
                    );
                }
            }
        }
    }
}
