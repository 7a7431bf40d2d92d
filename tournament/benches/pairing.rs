//! Pairing a round of a large Swiss: 200 players after 4 and after 8 rounds
//! of random results (draws, the odd forfeit), the field odd so the bye is
//! chosen too.
//!
//!     cargo bench -p voidmate-tournament --bench pairing

use std::collections::HashMap;

use criterion::{criterion_group, criterion_main, Criterion};
use voidmate_tournament::dutch::{self, Field};
use voidmate_tournament::history::{Game, History, Outcome, Round};
use voidmate_tournament::Side;

/// A small deterministic generator (no dependency for a benchmark).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// The field of round `round` of a tournament of `players` whose earlier
/// rounds were paired by us and played out at random.
fn field(players: u32, round: u32, rounds: u32) -> Field {
    let mut rng = Lcg(7);
    let numbers: Vec<(u32, u32)> = (1..=players).map(|id| (id, id)).collect();
    let mut history = History {
        rounds: Vec::new(),
        joined: HashMap::new(),
    };
    for r in 1..round {
        let field = history.field(r, rounds, Side::White, &numbers, &[]);
        let pairing = dutch::pair(&field).expect("the early rounds pair");
        let games = pairing
            .games
            .iter()
            .map(|&(white, black)| {
                let outcome = match rng.below(100) {
                    0..=39 => Outcome::WhiteWins,
                    40..=69 => Outcome::Draw,
                    70..=97 => Outcome::BlackWins,
                    _ => Outcome::WhiteByForfeit,
                };
                Game {
                    white,
                    black,
                    outcome: Some(outcome),
                }
            })
            .collect();
        history.rounds.push(Round {
            games,
            bye: pairing.bye,
        });
    }
    history.field(round, rounds, Side::White, &numbers, &[])
}

fn pairing(c: &mut Criterion) {
    let mut group = c.benchmark_group("swiss");
    group.sample_size(10);
    for round in [5, 9] {
        let field = field(201, round, 11);
        group.bench_function(format!("pair 201 players, round {round} of 11"), |b| {
            b.iter(|| dutch::pair(&field).expect("pairs"));
        });
    }
    group.finish();
}

criterion_group!(benches, pairing);
criterion_main!(benches);
