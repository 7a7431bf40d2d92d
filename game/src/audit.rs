//! `check-db`'s second half: every rating recomputed from the rated games,
//! in the order they ended, and compared with what is stored (each game's
//! change and each player's rating now). A rating that differs names the
//! game or the player.

use crate::contract::PlayerId;
use crate::core::Core;
use crate::ratings::{after_game, Pool, Rating};
use crate::store;
use std::collections::{BTreeMap, HashMap};
use voidmate_rules::{ByColor, Color, GameKind};

/// How far a stored figure may be from the recomputed one: the same
/// arithmetic on the same inputs gives the same bits, so only a changed
/// row (or a changed formula) goes past this.
const TOLERANCE: f64 = 1e-6;

/// Whose rating: community, player, game, pool.
type Key = (String, PlayerId, GameKind, Pool);

/// A rating as recomputed so far.
#[derive(Debug, Clone, Copy)]
struct Standing {
    rating: Rating,
    last_ms: i64,
    games: i64,
}

/// What `check-db` found in the ratings.
#[derive(Debug, Default)]
pub struct RatingCheck {
    /// Rated games replayed.
    pub games: usize,
    /// Ratings compared.
    pub ratings: usize,
    /// Each difference, in words.
    pub problems: Vec<String>,
}

fn differs(a: Rating, b: Rating) -> bool {
    (a.rating - b.rating).abs() > TOLERANCE
        || (a.deviation - b.deviation).abs() > TOLERANCE
        || (a.volatility - b.volatility).abs() > TOLERANCE
}

fn figures(r: Rating) -> String {
    format!(
        "{:.2}, deviation {:.2}, volatility {:.6}",
        r.rating, r.deviation, r.volatility
    )
}

impl Core {
    /// Recomputes every rating from the rated games in the order they
    /// ended and names each stored figure that differs.
    pub async fn check_ratings(&self) -> anyhow::Result<RatingCheck> {
        let pool = self.store.pool();
        let mut tx = self.store.read().await?;
        let games = store::rated_games(&mut tx).await?;
        tx.commit().await?;
        let mut changes: HashMap<(i64, PlayerId), store::RecordedChange> = HashMap::new();
        for c in store::all_changes(pool).await? {
            changes.insert((c.game_id, c.player.clone()), c);
        }
        let mut now: BTreeMap<Key, Standing> = BTreeMap::new();
        let mut check = RatingCheck::default();
        for game in games {
            let rec = match game {
                Ok(rec) => rec,
                Err(damaged) => {
                    check.problems.push(format!(
                        "game #{} does not read: {}",
                        damaged.id, damaged.why
                    ));
                    continue;
                }
            };
            let id = rec.id;
            let (Some(community), Some(ended)) = (rec.community.clone(), rec.finished_ms) else {
                check.problems.push(format!(
                    "game #{id} is rated but has no community or end time"
                ));
                continue;
            };
            let result = rec.ending().map(|e| e.result);
            let Some(white_score) = result.and_then(|r| r.white_score()) else {
                let result = result.map_or("none", |r| r.code());
                check
                    .problems
                    .push(format!("game #{id} is rated but its result is {result}"));
                continue;
            };
            check.games += 1;
            let pool = Pool::of(&rec.clock);
            let key =
                |c: Color| -> Key { (community.clone(), rec.player(c).id.clone(), rec.kind, pool) };
            let before = ByColor::new_with(|c| {
                now.get(&key(c)).copied().unwrap_or(Standing {
                    rating: Rating::START,
                    last_ms: ended,
                    games: 0,
                })
            });
            let idle = |s: Standing| crate::ratings::idle_days(s.last_ms, ended);
            let read_now = |s: Standing| s.rating.after_idle(idle(s));
            let after = ByColor {
                white: after_game(
                    before.white.rating,
                    idle(before.white),
                    read_now(before.black),
                    white_score,
                ),
                black: after_game(
                    before.black.rating,
                    idle(before.black),
                    read_now(before.white),
                    1.0 - white_score,
                ),
            };
            for c in Color::ALL {
                let player = rec.player(c).id.clone();
                match changes.remove(&(id, player.clone())) {
                    None => check.problems.push(format!(
                        "game #{id} is rated but changed no rating of {player}"
                    )),
                    Some(stored) => {
                        let (was, became) = (stored.before, stored.after);
                        if differs(was, before[c].rating) || differs(became, after[c]) {
                            check.problems.push(format!(
                                "game #{id}: {player}'s rating went {} -> {} as stored, {} -> {} recomputed",
                                figures(was),
                                figures(became),
                                figures(before[c].rating),
                                figures(after[c])
                            ));
                        }
                    }
                }
                now.insert(
                    key(c),
                    Standing {
                        rating: after[c],
                        last_ms: ended,
                        games: before[c].games + 1,
                    },
                );
            }
        }
        for ((game, player), _) in changes {
            check.problems.push(format!(
                "game #{game} changed {player}'s rating but is not a rated game that ended"
            ));
        }
        for stored in store::all_ratings(pool).await? {
            check.ratings += 1;
            let stored = match stored {
                Ok(stored) => stored,
                Err(e) => {
                    check.problems.push(format!("{e}"));
                    continue;
                }
            };
            let (games, player, kind, pool) = (
                stored.games,
                stored.player.id.clone(),
                stored.kind,
                stored.pool,
            );
            let community = stored.community.clone();
            let stored = stored.rating;
            let key = (community.clone(), player.clone(), kind, pool);
            let whose = format!(
                "{player}'s {} {} rating in {community}",
                kind.name(),
                pool.name()
            );
            match now.remove(&key) {
                None => check
                    .problems
                    .push(format!("{whose} comes from no rated game")),
                Some(s) if differs(stored, s.rating) || s.games != games => {
                    check.problems.push(format!(
                        "{whose} is {} after {games} games as stored, {} after {} recomputed",
                        figures(stored),
                        figures(s.rating),
                        s.games
                    ))
                }
                Some(_) => {}
            }
        }
        for ((community, player, kind, pool), _) in now {
            check.problems.push(format!(
                "{player}'s {} {} rating in {community} is missing",
                kind.name(),
                pool.name()
            ));
        }
        Ok(check)
    }
}

/// What `check-db` found in the tournaments.
#[derive(Debug, Default)]
pub struct TournamentCheck {
    /// Tournaments checked.
    pub tournaments: usize,
    /// Each problem, naming its tournament.
    pub problems: Vec<String>,
}

impl Core {
    /// Checks every tournament's stored pairings against the absolute rules
    /// (no rematch or forbidden pair, one bye a player at most and never
    /// after a win without playing, no absolute colour preference broken
    /// outside the last round's leaders) and its results against its games.
    pub async fn check_tournaments(&self) -> anyhow::Result<TournamentCheck> {
        use crate::tournament::Format;
        use voidmate_tournament::dutch::Preference;
        use voidmate_tournament::history::Part;
        let mut tx = self.store.read().await?;
        let mut check = TournamentCheck::default();
        for t in store::all_tournaments(&mut tx).await? {
            check.tournaments += 1;
            let t = match t {
                Ok(t) => t,
                Err(why) => {
                    check.problems.push(why);
                    continue;
                }
            };
            let id = t.id;
            let l = match crate::tournament_state::Loaded::read(&mut tx, id, false).await {
                Ok(Some(l)) => l,
                Ok(None) => continue,
                Err(e) => {
                    check.problems.push(format!("{id}: {e}"));
                    continue;
                }
            };
            let mut say = |why: String| check.problems.push(format!("{id}: {why}"));
            let h = l.history();
            let name = |i: u32| l.entry(i).player.name.clone();
            let mut met = std::collections::HashSet::new();
            for r in 1..=h.rounds.len() as u32 {
                let round = &h.rounds[r as usize - 1];
                for g in &round.games {
                    let played = g.outcome.is_some_and(|o| o.played());
                    let key = (g.white.min(g.black), g.white.max(g.black));
                    let double = matches!(t.format, Format::RoundRobin { double: true });
                    if played && !met.insert((key, double && r > t.rounds / 2)) {
                        say(format!(
                            "round {r}: {} and {} meet again",
                            name(g.white),
                            name(g.black)
                        ));
                    }
                    let forbidden = l.forbidden.iter().any(|(a, b, since)| {
                        *since <= r
                            && [a, b].contains(&&l.entry(g.white).player.id)
                            && [a, b].contains(&&l.entry(g.black).player.id)
                    });
                    if forbidden {
                        say(format!(
                            "round {r}: {} and {} are a forbidden pair",
                            name(g.white),
                            name(g.black)
                        ));
                    }
                    if t.format == Format::Swiss {
                        let leaders = voidmate_tournament::Points(r - 1);
                        let last = r >= t.rounds;
                        for (player, side) in [
                            (g.white, voidmate_tournament::Side::White),
                            (g.black, voidmate_tournament::Side::Black),
                        ] {
                            let colours: Vec<_> = (1..r)
                                .filter_map(|k| match h.part(player, k) {
                                    p @ Part::Game { side, .. } if p.played() => Some(side),
                                    _ => None,
                                })
                                .collect();
                            let exempt = last
                                && (h.score_before(g.white, r) > leaders
                                    || h.score_before(g.black, r) > leaders);
                            if !exempt && Preference::of(&colours).forbids(side) {
                                say(format!(
                                    "round {r}: {} gets a colour their history forbids",
                                    name(player)
                                ));
                            }
                        }
                    }
                }
                if let (Some(b), Format::Swiss) = (round.bye, t.format) {
                    if (1..r).any(|k| h.part(b, k).unplayed_win()) {
                        say(format!(
                            "round {r}: {} gets a second bye or win without playing",
                            name(b)
                        ));
                    }
                }
            }
            // Results as the games ended.
            for g in &l.games {
                let Some(game_id) = g.game_id else { continue };
                let Some(rec) = store::game_anywhere(&mut tx, game_id).await.ok().flatten() else {
                    say(format!("round {}: game #{game_id} is missing", g.round));
                    continue;
                };
                let expected = rec.ending().map(|e| e.result.code());
                let consistent = match (g.outcome, expected) {
                    (None, None) => true,
                    (Some(o), Some(code)) => match o {
                        crate::tournament::Outcome::WhiteWins => code == "1-0",
                        crate::tournament::Outcome::BlackWins => code == "0-1",
                        crate::tournament::Outcome::Draw => code == "1/2-1/2",
                        crate::tournament::Outcome::WhiteByForfeit => code == "1-0",
                        crate::tournament::Outcome::BlackByForfeit => code == "0-1",
                        crate::tournament::Outcome::BothForfeited => code == "*",
                    },
                    _ => false,
                };
                if !consistent {
                    say(format!(
                        "round {} board {}: the result {} does not match game #{game_id} ({})",
                        g.round,
                        g.board,
                        crate::tournament::outcome_shown(g.outcome),
                        expected.unwrap_or("still being played")
                    ));
                }
            }
            // The final standings against the results (standings stored
            // while games were still being played counted what had ended).
            if l.t.status == crate::tournament::TournamentStatus::Finished {
                let last = l.t.round;
                let stored = store::standings_after(&mut tx, id, last)
                    .await
                    .unwrap_or_default();
                for s in stored {
                    let Some(index) = l.index(&s.player) else {
                        continue;
                    };
                    let points = h.score_before(index, last + 1).halves();
                    if points != s.points {
                        say(format!(
                            "the standings after round {last} give {} {} points, their games {}",
                            name(index),
                            voidmate_tournament::Points(s.points),
                            voidmate_tournament::Points(points)
                        ));
                    }
                }
            }
        }
        tx.commit().await?;
        Ok(check)
    }
}

/// What `check-db` found in the puzzles.
#[derive(Debug, Default)]
pub struct PuzzleCheck {
    /// Puzzles checked.
    pub puzzles: usize,
    /// Each problem, naming its puzzle.
    pub problems: Vec<String>,
}

impl Core {
    /// Checks that every stored puzzle's moves (the mistake, then the
    /// solution) are legal, one after the other, from its position.
    pub async fn check_puzzles(&self) -> anyhow::Result<PuzzleCheck> {
        let mut tx = self.store.read().await?;
        let mut check = PuzzleCheck::default();
        let puzzles = match store::all_puzzles(&mut tx).await {
            Ok(p) => p,
            Err(e) => {
                check.problems.push(e.to_string());
                return Ok(check);
            }
        };
        for p in puzzles {
            check.puzzles += 1;
            if let Err(why) = puzzle_replays(&p) {
                check.problems.push(format!(
                    "puzzle {} (game #{}, ply {}): {why}",
                    p.id, p.game_id, p.ply
                ));
            }
        }
        Ok(check)
    }
}

/// Whether a puzzle's moves are legal from its position, in turn.
fn puzzle_replays(p: &store::PuzzleRecord) -> Result<(), String> {
    let mut pos = voidmate_rules::Position::from_fen(p.kind.rules(), &p.fen)
        .map_err(|e| format!("its position does not read: {e}"))?;
    if p.moves.len() < 2 {
        return Err("it has no solution".to_string());
    }
    for (i, san) in p.moves.iter().enumerate() {
        let mv = pos
            .parse_move(san)
            .map_err(|e| format!("move {} `{san}` is not legal: {e}", i + 1))?;
        pos = pos.after(&mv);
    }
    Ok(())
}
