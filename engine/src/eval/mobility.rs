//! Piece values of a game read from a file, derived from how its pieces
//! move: a piece is worth what it reaches on its board when each square on
//! its way is taken at some odds ([`TAKEN`], chosen by self-play), on the
//! curve `c · reach^p` that fits chess's knight, bishop, rook and queen
//! best (300, 320, 500, 900, least squares of the logarithms). A rider's
//! far squares count less than a leaper's near ones, as pieces in the way
//! make them. On 8x8 this gives the knight 293, bishop 337, rook 482, queen
//! 909, and of the fairy pieces the ferz 157, alfil 110, commoner 379; on
//! Capablanca's 10x8 the archbishop 749 and chancellor 911 against its
//! queen's 976 (players rank them so: Muller's measured 8.75 and 9 pawns
//! against 9.5).

use super::{Term, Weights};
use voidmate_rules::movement::{Component, Movement};
use voidmate_rules::{BoardSize, Role, Rules, Square};

/// The odds that a square on the way is taken, as the engine plays: chosen
/// by self-play at a fixed effort. A fit to seven fairy games' self-play
/// results (`voidmate tune-reach`) put them at 0.2625, which then lost
/// 1,600 games against the first choice by hand, 0.3 ([`UNTUNED_TAKEN`]),
/// by 13 Elo; 0.35 lost too. The run is in `engine/tuning/runs.md`.
pub const TAKEN: f64 = 0.3;

/// The odds first chosen by hand, before self-play tuned them: the
/// `untuned` evaluation of a defined game.
pub const UNTUNED_TAKEN: f64 = 0.3;

/// What a piece moving as `movement` reaches on a board of `size`, on
/// average over its squares, with each square on the way taken at even
/// odds.
pub fn reach(movement: &Movement, size: BoardSize) -> f64 {
    reach_at(movement, size, TAKEN)
}

/// [`reach`] with each square on the way taken at odds of `taken`.
pub fn reach_at(movement: &Movement, size: BoardSize, taken: f64) -> f64 {
    let squares: Vec<Square> = size.squares().collect();
    let mut total = 0.0;
    for sq in &squares {
        let (f, r) = (sq.file() as i32, sq.rank() as i32);
        for c in &movement.components {
            total += reach_from(c, f, r, size, taken);
        }
    }
    total / squares.len().max(1) as f64
}

/// What one way of moving reaches from `(f, r)`, each square on the way
/// taken at odds of `taken`. A part that only moves or only captures
/// counts half; a hopper counts the squares past a screen met on its line.
fn reach_from(c: &Component, f: i32, r: i32, size: BoardSize, taken: f64) -> f64 {
    let on =
        |f: i32, r: i32| f >= 0 && r >= 0 && f < size.files() as i32 && r < size.ranks() as i32;
    let free = 1.0 - taken;
    let mut total = 0.0;
    match c {
        Component::Leap(vs) => {
            total += vs
                .iter()
                .filter(|(df, dr)| on(f + *df as i32, r + *dr as i32))
                .count() as f64;
        }
        Component::Ride { dirs, range } => {
            let far = range.map_or(i32::MAX, i32::from);
            for (df, dr) in dirs {
                let (mut k, mut odds) = (1, 1.0);
                while k <= far && on(f + k * *df as i32, r + k * *dr as i32) {
                    total += odds;
                    odds *= free;
                    k += 1;
                }
            }
        }
        Component::TwoStep { steps } => {
            for (a, b) in steps {
                let (f1, r1) = (f + *a as i32, r + *b as i32);
                if !on(f1, r1) {
                    continue;
                }
                total += 1.0;
                let second = steps
                    .iter()
                    .filter(|(c, d)| {
                        let (f2, r2) = (f1 + *c as i32, r1 + *d as i32);
                        on(f2, r2) && (f2, r2) != (f, r)
                    })
                    .count();
                total += free * second as f64;
            }
        }
        Component::Path(paths) => {
            for path in paths {
                let (mut pf, mut pr, mut ok) = (f, r, true);
                for (a, b) in path {
                    pf += *a as i32;
                    pr += *b as i32;
                    ok &= on(pf, pr);
                }
                if ok {
                    total += free.powi(path.len() as i32 - 1);
                }
            }
        }
        Component::Hop { dirs, landing } => {
            for (df, dr) in dirs {
                let (df, dr) = (*df as i32, *dr as i32);
                // The screen k squares away: the squares before it free.
                let mut k = 1;
                while on(f + k * df, r + k * dr) {
                    let screen = free.powi(k - 1) * taken;
                    let (mut j, mut odds) = (1, 1.0);
                    while on(f + (k + j) * df, r + (k + j) * dr) {
                        total += screen * odds;
                        if *landing == voidmate_rules::movement::Landing::Next {
                            break;
                        }
                        odds *= free;
                        j += 1;
                    }
                    k += 1;
                }
            }
        }
        Component::Only { part, .. } => total += 0.5 * reach_from(part, f, r, size, taken),
        Component::Pawn => {}
    }
    total
}

/// The curve from reach to value, `(c, p)` of `c · reach^p`: the least
/// squares fit of the logarithms of chess's knight, bishop, rook and queen
/// to their classical values.
fn curve(taken: f64) -> (f64, f64) {
    let chess = voidmate_rules::variants::standard();
    let of = |role: Role| {
        chess
            .definition()
            .roster
            .iter()
            .find(|r| r.role == role)
            .map(|r| reach_at(&r.movement, chess.size(), taken))
            .unwrap_or(1.0)
    };
    let points: Vec<(f64, f64)> = [
        (Role::Knight, 300.0),
        (Role::Bishop, 320.0),
        (Role::Rook, 500.0),
        (Role::Queen, 900.0),
    ]
    .into_iter()
    .map(|(role, v): (Role, f64)| (of(role).ln(), v.ln()))
    .collect();
    let n = points.len() as f64;
    let (mx, my) = (
        points.iter().map(|p| p.0).sum::<f64>() / n,
        points.iter().map(|p| p.1).sum::<f64>() / n,
    );
    let p = points.iter().map(|(x, y)| (x - mx) * (y - my)).sum::<f64>()
        / points.iter().map(|(x, _)| (x - mx).powi(2)).sum::<f64>();
    ((my - p * mx).exp(), p)
}

/// Each role's value in `rules` (centipawns): the pawn 100, the royal
/// piece nothing (it is never traded), every other piece by its reach.
pub fn values(rules: &Rules) -> Vec<(Role, i32)> {
    values_at(rules, TAKEN)
}

/// [`values`] with each square on the way taken at odds of `taken`.
pub fn values_at(rules: &Rules, taken: f64) -> Vec<(Role, i32)> {
    let (c, p) = curve(taken);
    let def = rules.definition();
    def.roster
        .iter()
        .map(|r| {
            let v = if Some(r.role) == def.royal {
                0
            } else if r.role == Role::Pawn {
                100
            } else {
                let m = reach_at(&r.movement, rules.size(), taken);
                (c * m.powf(p)).round().clamp(25.0, 5000.0) as i32
            };
            (r.role, v)
        })
        .collect()
}

/// The engine's weights for a game read from a file: chess's, with each
/// piece's material its value by reach (kept with the game's rules).
pub fn weights(rules: &Rules) -> Weights {
    weights_at(rules, TAKEN)
}

/// [`weights`] with each square on the way taken at odds of `taken`.
pub fn weights_at(rules: &Rules, taken: f64) -> Weights {
    let mut w = Weights::start(None);
    for role in Role::ALL {
        w.set(Term::material(role), 0, 0);
    }
    for (role, v) in values_at(rules, taken) {
        w.set(Term::material(role), v, v);
    }
    w
}

/// A defined game's weights, kept with its rules: as the engine plays
/// ([`TAKEN`]), and as first derived ([`UNTUNED_TAKEN`]) for the `untuned`
/// evaluation a match compares with.
pub struct Kept {
    pub tuned: Weights,
    pub untuned: Weights,
}

impl Kept {
    pub fn of(rules: &Rules) -> Kept {
        Kept {
            tuned: weights_at(rules, odds()),
            untuned: weights_at(rules, UNTUNED_TAKEN),
        }
    }
}

/// The odds the engine plays with: [`TAKEN`], unless a tuning run sets
/// other odds to try (`VOIDMATE_REACH_ODDS`, read once; a match then plays
/// them as `tuned` against [`UNTUNED_TAKEN`] as `untuned`).
pub fn odds() -> f64 {
    static ODDS: std::sync::OnceLock<f64> = std::sync::OnceLock::new();
    *ODDS.get_or_init(|| {
        std::env::var("VOIDMATE_REACH_ODDS")
            .ok()
            .and_then(|v| v.trim().parse::<f64>().ok())
            .filter(|v| (0.0..1.0).contains(v))
            .unwrap_or(TAKEN)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value_of(game: &str, letter: char) -> i32 {
        let rules = voidmate_rules::variant(game).unwrap();
        let role = rules
            .definition()
            .roster
            .iter()
            .find(|r| r.letter == letter)
            .unwrap()
            .role;
        values(rules)
            .into_iter()
            .find(|(r, _)| *r == role)
            .unwrap()
            .1
    }

    /// Chess's pieces come out in their usual order and near their usual
    /// values (the knight and queen exactly: the curve goes through them);
    /// the fairy pieces where players rank them.
    #[test]
    fn values_follow_the_pieces_moves() {
        // Within a tenth of the classical values on chess's own board.
        for (l, v) in [('N', 300), ('B', 320), ('R', 500), ('Q', 900)] {
            let got = value_of("standard", l);
            assert!((got - v).abs() * 10 <= v, "{l}: {got} against {v}");
        }
        for (game, letters) in [
            ("standard", "NBRQ"),
            ("capablanca", "NBRACQ"),
            ("shatranj", "NBRQ"),
            ("courier", "NBREFWM"),
        ] {
            let shown: Vec<String> = letters
                .chars()
                .map(|l| format!("{l} {}", value_of(game, l)))
                .collect();
            println!("{game}: {}", shown.join(", "));
        }
        // A bigger board gives a knight more room: a little more.
        assert!(value_of("capablanca", 'N') > value_of("standard", 'N'));
        // The courier's wazir and ferz are worth about as much; the
        // commoner more than a knight.
        assert!((value_of("courier", 'W') - value_of("courier", 'F')).abs() < 40);
        assert!(value_of("courier", 'M') > value_of("courier", 'N'));
        let (n, b, r, q) = (
            value_of("capablanca", 'N'),
            value_of("capablanca", 'B'),
            value_of("capablanca", 'R'),
            value_of("capablanca", 'Q'),
        );
        assert!(n < b && b < r && r < q, "{n} {b} {r} {q}");
        let (a, c) = (value_of("capablanca", 'A'), value_of("capablanca", 'C'));
        assert!(
            r < a && a < c && c <= q + 50,
            "archbishop {a}, chancellor {c}, queen {q}"
        );
        // Shatranj's ferz and alfil are minor: below the knight.
        assert!(value_of("shatranj", 'Q') < value_of("shatranj", 'N'));
        assert!(value_of("shatranj", 'B') < value_of("shatranj", 'N'));
        assert_eq!(value_of("capablanca", 'K'), 0);
        assert_eq!(value_of("capablanca", 'P'), 100);
    }

    /// The engine's evaluation weighs a defined game's pieces by these
    /// values: a missing archbishop costs about its value more than a
    /// missing knight.
    #[test]
    fn the_engine_weighs_a_defined_games_pieces_by_their_values() {
        use voidmate_rules::Position;
        let rules = voidmate_rules::variant("capablanca").unwrap();
        let without = |rank: &str| {
            let fen = format!("rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/{rank} w KQkq - 0 1");
            crate::eval::evaluate(&Position::from_fen(rules, &fen).unwrap())
        };
        let (no_archbishop, no_knight) = (without("RN1BQKBCNR"), without("R1ABQKBCNR"));
        let gap = no_knight - no_archbishop;
        let expected = value_of("capablanca", 'A') - value_of("capablanca", 'N');
        assert!(
            (gap - expected).abs() < 120,
            "gap {gap}, values differ by {expected}"
        );
    }

    /// The engine plays with the chosen odds (or a tuning run's), the
    /// `untuned` evaluation (what a match compares with) with the odds first
    /// set by hand; fewer squares taken on the way make riders worth more
    /// beside leapers.
    #[test]
    fn the_tuned_odds_play_and_the_first_ones_are_kept_for_comparison() {
        use crate::eval::{evaluate_as, Eval};
        use voidmate_rules::Position;
        let rules = voidmate_rules::variant("capablanca").unwrap();
        let at = |taken: f64, letter: char| {
            let role = rules
                .definition()
                .roster
                .iter()
                .find(|r| r.letter == letter)
                .unwrap()
                .role;
            values_at(rules, taken)
                .into_iter()
                .find(|(r, _)| *r == role)
                .unwrap()
                .1
        };
        assert_eq!(value_of("capablanca", 'A'), at(TAKEN, 'A'));
        let ratio = |taken: f64| f64::from(at(taken, 'R')) / f64::from(at(taken, 'N'));
        assert!(ratio(0.2) > ratio(0.4));
        // White without its archbishop: the two evaluations price it apart.
        let pos = Position::from_fen(
            rules,
            "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RN1BQKBCNR w KQkq - 0 1",
        )
        .unwrap();
        let (tuned, untuned) = (
            evaluate_as(&pos, Eval::Tuned),
            evaluate_as(&pos, Eval::Untuned),
        );
        assert_eq!(
            tuned - untuned,
            at(UNTUNED_TAKEN, 'A') - at(odds(), 'A'),
            "{tuned} {untuned}"
        );
    }
}
