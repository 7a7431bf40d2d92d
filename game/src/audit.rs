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
