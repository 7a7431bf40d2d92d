//! Our Dutch pairing against an independent one: caissify-pairings, a Swiss
//! pairing package from PyPI whose Dutch engine implements FIDE C.04.3 as in
//! force from 1 February 2026 (its authors check it against bbpPairings, the
//! FIDE-endorsed program).
//!
//! `scripts/swiss-reference.sh` plays random tournaments through that
//! package (8 to 60 players, 5 to 11 rounds, random results with draws,
//! forfeits, byes, withdrawals, late joiners and forbidden pairs) and stores
//! each with the reference's pairing of every round. This test replays each
//! tournament through our own history (tournament::history) and pairing,
//! round by round from the reference's pairings and results, and asks that
//! ours be identical (the same games, the same colours, the same bye) in at
//! least 98% of rounds, and that ours never break the absolute rules: no
//! rematch or forbidden pair, at most one bye and never a second one (or
//! after a win without playing), no absolute colour preference broken
//! outside the last round's leaders.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use serde_json::Value;
use voidmate_tournament::dutch::{self, Pairing, Preference};
use voidmate_tournament::history::{Game, History, Outcome, Round};
use voidmate_tournament::{Points, Side};

fn corpus() -> PathBuf {
    if let Some(path) = std::env::var_os("VOIDMATE_SWISS_CORPUS") {
        return PathBuf::from(path);
    }
    let cache = std::env::var_os("VOIDMATE_CACHE").map_or_else(
        || PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache/voidmate"),
        PathBuf::from,
    );
    cache.join("swiss-reference/corpus.jsonl")
}

#[derive(Default)]
struct Tally {
    rounds: usize,
    identical: usize,
    both_impossible: usize,
    differences: Vec<String>,
    broken: Vec<String>,
}

fn outcome(code: &str) -> Outcome {
    Outcome::from_code(code).unwrap_or_else(|| panic!("unknown result {code}"))
}

fn ids(v: &Value) -> Vec<u32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as u32)
        .collect()
}

/// Checks the absolute rules on one of our pairings.
fn check_rules(field: &dutch::Field, pairing: &Pairing) -> Vec<String> {
    let by_id: HashMap<u32, &dutch::Entrant> = field.entrants.iter().map(|e| (e.id, e)).collect();
    let mut broken = Vec::new();
    let mut seen = HashSet::new();
    let leaders = Points(field.round - 1);
    let last = field.round >= field.rounds;
    for &(w, b) in &pairing.games {
        let (ew, eb) = (by_id[&w], by_id[&b]);
        if !seen.insert(w) || !seen.insert(b) {
            broken.push(format!("{w} or {b} paired twice"));
        }
        if ew.avoid.contains(&b) {
            broken.push(format!("{w}-{b} met before or are forbidden"));
        }
        if !(last && (ew.score > leaders || eb.score > leaders)) {
            if Preference::of(&ew.colours).forbids(Side::White) {
                broken.push(format!("{w} cannot have white again"));
            }
            if Preference::of(&eb.colours).forbids(Side::Black) {
                broken.push(format!("{b} cannot have black again"));
            }
        }
    }
    if let Some(bye) = pairing.bye {
        if by_id[&bye].unplayed_win {
            broken.push(format!("{bye} already had a bye or a win without playing"));
        }
        seen.insert(bye);
    }
    if seen.len() != field.entrants.len() {
        broken.push(format!(
            "{} of {} players placed",
            seen.len(),
            field.entrants.len()
        ));
    }
    broken
}

fn replay(line: &str, tally: &mut Tally) {
    let t: Value = serde_json::from_str(line).expect("a corpus line is JSON");
    let seed = t["seed"].as_u64().unwrap();
    let rounds = t["rounds"].as_u64().unwrap() as u32;
    let initial = if t["initial"] == "white" {
        Side::White
    } else {
        Side::Black
    };
    struct P {
        id: u32,
        name: String,
        rating: i64,
        joins: u32,
    }
    let players: Vec<P> = t["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| P {
            id: p["id"].as_u64().unwrap() as u32,
            name: p["name"].as_str().unwrap().to_owned(),
            rating: p["rating"].as_i64().unwrap(),
            joins: p["joins"].as_u64().unwrap() as u32,
        })
        .collect();
    let forbidden: Vec<(u32, u32, u32)> = t["forbidden"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let f = ids(f);
            (f[0], f[1], f[2])
        })
        .collect();
    let mut history = History {
        rounds: Vec::new(),
        joined: players.iter().map(|p| (p.id, p.joins)).collect(),
    };
    let mut gone = HashSet::new();
    let mut absent = HashSet::new();
    for event in t["events"].as_array().unwrap() {
        let r = event["round"].as_u64().unwrap() as u32;
        for id in ids(&event["withdraw"]) {
            gone.insert(id);
        }
        for id in ids(&event["rejoin"]) {
            absent.remove(&id);
        }
        let mut order: Vec<&P> = players.iter().filter(|p| p.joins <= r).collect();
        order.sort_by(|a, b| b.rating.cmp(&a.rating).then_with(|| a.name.cmp(&b.name)));
        let number: HashMap<u32, u32> = order
            .iter()
            .enumerate()
            .map(|(k, p)| (p.id, k as u32 + 1))
            .collect();
        let present: Vec<(u32, u32)> = players
            .iter()
            .filter(|p| p.joins <= r && !gone.contains(&p.id) && !absent.contains(&p.id))
            .map(|p| (p.id, number[&p.id]))
            .collect();
        let never: Vec<(u32, u32)> = forbidden
            .iter()
            .filter(|f| f.2 <= r)
            .map(|f| (f.0, f.1))
            .collect();
        let field = history.field(r, rounds, initial, &present, &never);
        let ours = dutch::pair(&field);
        let valid = event["valid"].as_bool().unwrap();
        tally.rounds += 1;
        let reference_games: Vec<(u32, u32)> = event["pairing"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| {
                let g = ids(g);
                (g[0], g[1])
            })
            .collect();
        let reference_bye = event["bye"].as_u64().map(|b| b as u32);
        match (&ours, valid) {
            (Ok(pairing), _) => {
                for b in check_rules(&field, pairing) {
                    tally.broken.push(format!("seed {seed} round {r}: {b}"));
                }
                let mine: HashSet<(u32, u32)> = pairing.games.iter().copied().collect();
                let theirs: HashSet<(u32, u32)> = reference_games.iter().copied().collect();
                if valid && mine == theirs && pairing.bye == reference_bye {
                    tally.identical += 1;
                } else {
                    let only_ours: Vec<_> = mine.difference(&theirs).collect();
                    let only_theirs: Vec<_> = theirs.difference(&mine).collect();
                    tally.differences.push(format!(
                        "seed {seed} round {r} ({} players{}): ours only {only_ours:?} bye {:?}; reference only {only_theirs:?} bye {reference_bye:?}",
                        field.entrants.len(),
                        if valid { "" } else { ", reference found no valid pairing" },
                        pairing.bye,
                    ));
                }
            }
            (Err(_), false) => {
                tally.identical += 1;
                tally.both_impossible += 1;
            }
            (Err(e), true) => tally.differences.push(format!(
                "seed {seed} round {r} ({} players): ours found none ({e}); the reference paired it",
                field.entrants.len()
            )),
        }
        if !valid {
            break;
        }
        // Go on from the reference's pairing and results.
        let mut round = Round {
            games: Vec::new(),
            bye: reference_bye,
        };
        for res in event["results"].as_array().unwrap() {
            let (w, b) = (
                res[0].as_u64().unwrap() as u32,
                res[1].as_u64().unwrap() as u32,
            );
            let o = outcome(res[2].as_str().unwrap());
            match o {
                Outcome::WhiteByForfeit => {
                    absent.insert(b);
                }
                Outcome::BlackByForfeit => {
                    absent.insert(w);
                }
                Outcome::BothForfeited => {
                    absent.insert(w);
                    absent.insert(b);
                }
                _ => {}
            }
            round.games.push(Game {
                white: w,
                black: b,
                outcome: Some(o),
            });
        }
        history.rounds.push(round);
    }
}

#[test]
#[cfg_attr(
    not(voidmate_swiss_reference),
    ignore = "no reference corpus here: `bash scripts/swiss-reference.sh corpus` makes it (scripts/test.sh does)"
)]
fn our_swiss_pairings_match_an_independent_dutch_implementation() {
    let path = corpus();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "no reference corpus at {} ({e}): `bash scripts/swiss-reference.sh corpus` makes it",
            path.display()
        )
    });
    let mut tally = Tally::default();
    let mut tournaments = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        replay(line, &mut tally);
        tournaments += 1;
    }
    let rate = tally.identical as f64 / tally.rounds as f64;
    eprintln!(
        "{tournaments} tournaments, {} rounds: {} identical ({:.2}%), {} where neither found a valid pairing",
        tally.rounds,
        tally.identical,
        100.0 * rate,
        tally.both_impossible
    );
    for d in tally.differences.iter().take(40) {
        eprintln!("  {d}");
    }
    assert!(
        tally.broken.is_empty(),
        "absolute rules broken: {:#?}",
        tally.broken
    );
    assert!(
        tournaments >= 1000 || std::env::var_os("VOIDMATE_SWISS_CORPUS").is_some(),
        "only {tournaments} tournaments in the corpus"
    );
    assert!(rate >= 0.98, "identical in {:.2}% of rounds", 100.0 * rate);
}
