//! `voidmate analyse` and `voidmate selfplay`: the engine from the command
//! line.

use crate::tools::inspect::{position, PositionArgs};
use anyhow::{bail, Context as _, Result};
use clap::Args;
use std::fmt::Write as _;
use std::time::{Duration, Instant};
use voidmate_engine::{choose, choose_with, greedy, search, Level, Limits, Table};
use voidmate_rules::{variant, Color, Move, Outcome, Position};

#[derive(Args, Debug)]
pub struct AnalyseArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Time to think, in milliseconds.
    #[arg(long = "time-ms", default_value_t = 2000)]
    pub time_ms: u64,
    /// Search this deep instead (full-width plies).
    #[arg(long)]
    pub depth: Option<u32>,
}

#[derive(Args, Debug)]
pub struct SelfplayArgs {
    #[arg(long, default_value = "void")]
    pub variant: String,
    /// The first player: a level 1-5, `greedy` (one ply) or `random`.
    #[arg(long)]
    pub a: String,
    /// The second player, likewise.
    #[arg(long)]
    pub b: String,
    #[arg(long, default_value_t = 10)]
    pub games: u32,
    /// Thinking time per move of the levels, in milliseconds.
    #[arg(long = "time-ms", default_value_t = 100)]
    pub time_ms: u64,
    /// Games longer than this many plies are scored as draws.
    #[arg(long = "max-plies", default_value_t = 300)]
    pub max_plies: u32,
    /// The first plies of each game chosen at random (varied openings).
    #[arg(long = "random-plies", default_value_t = 0)]
    pub random_plies: u32,
    /// Appends each game to this file: one line a game, its moves in
    /// coordinates (the stored games the puzzle measurements read).
    #[arg(long)]
    pub save: Option<std::path::PathBuf>,
}

pub fn analyse(args: &AnalyseArgs) -> Result<String> {
    let pos = position(&args.position)?;
    let budget = match args.depth {
        Some(d) => Limits::depth(d),
        None => Limits::time(Duration::from_millis(args.time_ms)),
    };
    // The search the bot plays with in this game.
    let limits = Limits {
        features: voidmate_engine::Features::for_game(pos.rules().kind()),
        ..budget
    };
    let Some(r) = search(&pos, &limits, &mut Table::new(1 << 20)) else {
        bail!(
            "the game is over: {}",
            pos.outcome().map(|o| o.to_string()).unwrap_or_default()
        );
    };
    let score = match r.mate_in() {
        Some(n) if n > 0 => format!("mate in {n}"),
        Some(n) => format!("mated in {}", -n),
        None => format!("{:+.2}", r.score as f64 / 100.0),
    };
    let nps = r.nodes as f64 / r.elapsed.as_secs_f64().max(1e-6);
    Ok(format!(
        "depth {} nodes {} time {} ms nps {:.0}\nscore {score}\nbest {} ({})\n",
        r.depth,
        r.nodes,
        r.elapsed.as_millis(),
        nps,
        pos.san(&r.best),
        pos.coordinate(&r.best)
    ))
}

/// A player in a match.
#[derive(Debug, Clone, Copy)]
enum Player {
    Level(Level),
    Greedy,
    Random,
}

impl Player {
    fn parse(s: &str) -> Result<Player> {
        Ok(match s {
            "greedy" => Player::Greedy,
            "random" => Player::Random,
            n => match n.parse().ok().and_then(Level::new) {
                Some(l) => Player::Level(l),
                None => bail!("'{n}' is not a player: give a level 1-5, greedy or random"),
            },
        })
    }

    fn pick(self, pos: &Position, time: Duration, seed: &mut u64) -> Move {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        match self {
            Player::Level(l) => {
                let limits = Limits {
                    features: voidmate_engine::Features::for_game(pos.rules().kind()),
                    ..Limits::time(time)
                };
                choose(pos, l, limits, *seed).expect("a move").best
            }
            Player::Greedy => greedy(pos).expect("a move"),
            Player::Random => {
                let legal = pos.legal_moves();
                legal[(*seed % legal.len() as u64) as usize]
            }
        }
    }
}

pub fn selfplay(args: &SelfplayArgs) -> Result<String> {
    let rules = variant(&args.variant)?;
    let (a, b) = (Player::parse(&args.a)?, Player::parse(&args.b)?);
    let time = Duration::from_millis(args.time_ms);
    let (mut a_points, mut wins, mut draws, mut losses) = (0.0, 0, 0, 0);
    let mut out = String::new();
    let start = Instant::now();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for game in 0..args.games {
        // Colours alternate; `a` is White in even games.
        let a_color = if game % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let mut pos = Position::new(rules);
        let mut plies = 0;
        let mut moves = Vec::new();
        while pos.outcome().is_none() && plies < args.max_plies {
            let player = if plies < args.random_plies {
                Player::Random
            } else if pos.turn() == a_color {
                a
            } else {
                b
            };
            let mv = player.pick(&pos, time, &mut seed);
            moves.push(pos.coordinate(&mv));
            pos.play(&mv).map_err(|e| anyhow::anyhow!("{e}"))?;
            plies += 1;
        }
        if let Some(path) = &args.save {
            use std::io::Write as _;
            let mut file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| format!("cannot write {}", path.display()))?;
            writeln!(file, "{}", moves.join(" "))?;
        }
        let outcome = pos.outcome();
        let result = match outcome.and_then(|o: Outcome| o.winner()) {
            Some(w) if w == a_color => {
                wins += 1;
                a_points += 1.0;
                "a wins"
            }
            Some(_) => {
                losses += 1;
                "b wins"
            }
            None => {
                draws += 1;
                a_points += 0.5;
                "draw"
            }
        };
        let why = outcome
            .map(|o| o.to_string())
            .unwrap_or_else(|| format!("stopped after {plies} plies"));
        let _ = writeln!(out, "game {}: {result} ({why})", game + 1);
    }
    let n = args.games.max(1) as f64;
    let _ = writeln!(
        out,
        "{}: {} vs {}, {} games in {:.0} s: +{wins} ={draws} -{losses}, score {:.1}%",
        rules.name(),
        args.a,
        args.b,
        args.games,
        start.elapsed().as_secs_f64(),
        100.0 * a_points / n
    );
    Ok(out)
}

#[derive(Args, Debug)]
pub struct MatchArgs {
    #[arg(long, default_value = "standard")]
    pub variant: String,
    /// The first engine's search parts: `all`, `none`, `all-lmr`,
    /// `none+pvs+killers` (parts: pvs, aspiration, null-move, lmr,
    /// check-extension, see, killers, history, futility,
    /// late-move-pruning, improving, iir, history-malus, log-reductions,
    /// counter-moves, partial-iterations, swap-exchange, see-pruning,
    /// quiescence-table, singular).
    #[arg(long, default_value = "all")]
    pub a: String,
    /// The second engine's, likewise.
    #[arg(long, default_value = "none")]
    pub b: String,
    /// The first engine's evaluation: tuned, untuned (the terms' starting
    /// weights) or classic (the hand-set evaluation from before).
    #[arg(long = "a-eval", default_value = "tuned")]
    pub a_eval: String,
    /// The second engine's, likewise.
    #[arg(long = "b-eval", default_value = "tuned")]
    pub b_eval: String,
    /// The first engine's level (1-5; 5 is full strength).
    #[arg(long = "a-level", default_value_t = 5)]
    pub a_level: u8,
    /// The second engine's, likewise.
    #[arg(long = "b-level", default_value_t = 5)]
    pub b_level: u8,
    /// Nodes per move for both: equal effort, whatever each part costs in time.
    #[arg(long, default_value_t = 20_000)]
    pub nodes: u64,
    /// Milliseconds per move for both instead of nodes: what each costs in
    /// time counts too.
    #[arg(long = "time-ms")]
    pub time_ms: Option<u64>,
    /// Milliseconds per move for b alone, with `--time-ms` for a: a level
    /// against itself at another time (level 5 at 2 s against 200 ms).
    #[arg(long = "b-time-ms", requires = "time_ms")]
    pub b_time_ms: Option<u64>,
    /// Stop early by a sequential probability ratio test between these two
    /// Elo differences (`0,10`: is a better by at least 10, or not better?),
    /// at 5% error each way; `--games` is then the most played.
    #[arg(long, value_parser = parse_sprt)]
    pub sprt: Option<(f64, f64)>,
    /// Games; each opening is played twice, colours swapped.
    #[arg(long, default_value_t = 40)]
    pub games: u32,
    /// Random plies that open each pair of games, so that games differ.
    #[arg(long = "opening-plies", default_value_t = 4)]
    pub opening_plies: u32,
    /// Games longer than this many plies are scored as draws.
    #[arg(long = "max-plies", default_value_t = 300)]
    pub max_plies: u32,
    /// Score a game as won once both engines have agreed, for
    /// `RESIGN_PLIES` plies in a row, that one side leads by at least this
    /// many centipawns (or mates): what a match manager's resign rule does,
    /// so that long time matches do not play out decided games. 0: never.
    #[arg(long, default_value_t = 0)]
    pub resign: i32,
    /// Games played at once.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

fn parse_sprt(text: &str) -> std::result::Result<(f64, f64), String> {
    let bad = || format!("'{text}' is not two Elo differences like 0,10");
    let (a, b) = text.split_once(',').ok_or_else(bad)?;
    let (a, b): (f64, f64) = (
        a.trim().parse().map_err(|_| bad())?,
        b.trim().parse().map_err(|_| bad())?,
    );
    if a >= b {
        return Err(format!("'{text}': the first Elo must be below the second"));
    }
    Ok((a, b))
}

/// One side of a match: its search parts, evaluation and level.
#[derive(Debug, Clone, Copy)]
struct Side {
    features: voidmate_engine::Features,
    eval: voidmate_engine::Eval,
    level: Level,
}

/// One game of a match: `a`'s result (1, ½, 0) with `a` as `a_color`.
fn match_game(
    rules: &'static voidmate_rules::Rules,
    args: &MatchArgs,
    (a, b): (Side, Side),
    pair: u32,
    a_color: Color,
) -> f64 {
    let mut pos = Position::new(rules);
    // The pair's opening: the same random plies for both games of the pair.
    let mut seed =
        args.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ ((pair as u64 + 1) * 0x2545_f491);
    for _ in 0..args.opening_plies {
        if pos.outcome().is_some() {
            break;
        }
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let legal = pos.legal_moves();
        pos.play_unchecked(&legal[(seed % legal.len() as u64) as usize]);
    }
    let (mut ta, mut tb) = (Table::new(1 << 18), Table::new(1 << 18));
    let mut plies = 0;
    let mut resign = Resign::new(args.resign);
    while pos.outcome().is_none() && plies < args.max_plies {
        let (side, table) = if pos.turn() == a_color {
            (a, &mut ta)
        } else {
            (b, &mut tb)
        };
        let ms = match args.b_time_ms {
            Some(b_ms) if pos.turn() != a_color => Some(b_ms),
            _ => args.time_ms,
        };
        let budget = match ms {
            Some(ms) => Limits::time(Duration::from_millis(ms)),
            None => Limits::nodes(args.nodes),
        };
        let limits = Limits {
            features: side.features,
            eval: side.eval,
            ..budget
        };
        let noise_seed = seed ^ (plies as u64).wrapping_mul(0x2545_f491_4f6c_dd1d);
        let Some(r) = choose_with(&pos, side.level, limits, noise_seed, table) else {
            break;
        };
        if let Some(winner) = resign.record(pos.turn(), r.score) {
            return if winner == a_color { 1.0 } else { 0.0 };
        }
        pos.play_unchecked(&r.best);
        plies += 1;
    }
    match pos.outcome().and_then(|o| o.winner()) {
        Some(w) if w == a_color => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}

/// `voidmate engine-match`: two settings of the search at equal nodes per
/// move, colours swapped over each opening; the score with a 95% interval
/// and the Elo difference it means.
pub fn engine_match(args: &MatchArgs) -> Result<String> {
    let rules = variant(&args.variant)?;
    let side = |features: &str, eval: &str, level: u8| -> Result<Side> {
        Ok(Side {
            features: voidmate_engine::Features::parse(features).map_err(|e| anyhow::anyhow!(e))?,
            eval: voidmate_engine::Eval::parse(eval).map_err(|e| anyhow::anyhow!(e))?,
            level: Level::new(level)
                .ok_or_else(|| anyhow::anyhow!("'{level}' is not a level: give 1 to 5"))?,
        })
    };
    let a = side(&args.a, &args.a_eval, args.a_level)?;
    let b = side(&args.b, &args.b_eval, args.b_level)?;
    let games = args.games.max(2) / 2 * 2;
    let start = Instant::now();
    let next = std::sync::atomic::AtomicU32::new(0);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let results = std::sync::Mutex::new(Vec::new());
    let verdict = std::sync::Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..args.threads.max(1) {
            scope.spawn(|| loop {
                let g = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                if g >= games || stop.load(std::sync::atomic::Ordering::SeqCst) {
                    return;
                }
                let color = if g.is_multiple_of(2) {
                    Color::White
                } else {
                    Color::Black
                };
                let points = match_game(rules, args, (a, b), g / 2, color);
                let mut results = results.lock().unwrap();
                results.push(points);
                if let Some(bounds) = args.sprt {
                    let llr = llr(&results, bounds);
                    let decided = if llr >= SPRT_BOUND {
                        Some("H1 accepted: a is better by the second Elo or more")
                    } else if llr <= -SPRT_BOUND {
                        Some("H0 accepted: a is not better by the second Elo")
                    } else {
                        None
                    };
                    if decided.is_some() && results.len() >= 20 {
                        *verdict.lock().unwrap() = decided.map(|d| (d, llr));
                        stop.store(true, std::sync::atomic::Ordering::SeqCst);
                    }
                }
            });
        }
    });
    let results = results.into_inner().unwrap();
    let n = results.len() as f64;
    let wins = results.iter().filter(|p| **p == 1.0).count();
    let draws = results.iter().filter(|p| **p == 0.5).count();
    let losses = results.len() - wins - draws;
    let score = results.iter().sum::<f64>() / n;
    let var = results.iter().map(|p| (p - score).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let margin = 1.96 * (var / n).sqrt();
    let describe = |features: &str, side: &Side| {
        let mut d = features.to_string();
        if side.eval != voidmate_engine::Eval::Tuned {
            let _ = write!(d, "/{:?}", side.eval);
        }
        if side.level != Level::MAX {
            let _ = write!(d, "/level {}", side.level.get());
        }
        d
    };
    let budget = match (args.time_ms, args.b_time_ms) {
        (Some(ms), Some(b_ms)) => format!("{ms} ms (b {b_ms} ms)"),
        (Some(ms), None) => format!("{ms} ms"),
        (None, _) => format!("{} nodes", args.nodes),
    };
    let mut out = format!(
        "{}: {} vs {}, {budget} a move, {} games in {:.0} s: +{wins} ={draws} -{losses}, \
         score {:.1}% ± {:.1}%, Elo {:+.0} [{:+.0}, {:+.0}]\n",
        rules.name(),
        describe(&args.a, &a),
        describe(&args.b, &b),
        results.len(),
        start.elapsed().as_secs_f64(),
        100.0 * score,
        100.0 * margin,
        elo(score),
        elo(score - margin),
        elo(score + margin),
    );
    if let Some((e0, e1)) = args.sprt {
        match verdict.into_inner().unwrap() {
            Some((what, llr)) => {
                let _ = writeln!(out, "SPRT [{e0}, {e1}]: {what} (LLR {llr:.2})");
            }
            None => {
                let _ = writeln!(
                    out,
                    "SPRT [{e0}, {e1}]: undecided after {} games (LLR {:.2}, bounds ±{SPRT_BOUND:.2})",
                    results.len(),
                    llr(&results, (e0, e1))
                );
            }
        }
    }
    Ok(out)
}

/// Plies in a row (both engines' moves) that must agree on a winner before
/// a match adjudicates the game.
const RESIGN_PLIES: u32 = 6;

/// A match's resign rule: the side both engines have judged winning by at
/// least `margin`, ply after ply.
struct Resign {
    margin: i32,
    leader: Option<Color>,
    streak: u32,
}

impl Resign {
    fn new(margin: i32) -> Resign {
        Resign {
            margin,
            leader: None,
            streak: 0,
        }
    }

    /// One search's verdict, `score` for `mover`; the winner once the rule
    /// holds.
    fn record(&mut self, mover: Color, score: i32) -> Option<Color> {
        if self.margin <= 0 {
            return None;
        }
        let leader = if score >= self.margin {
            Some(mover)
        } else if score <= -self.margin {
            Some(!mover)
        } else {
            None
        };
        self.streak = match leader {
            Some(_) if leader == self.leader => self.streak + 1,
            Some(_) => 1,
            None => 0,
        };
        self.leader = leader;
        (self.streak >= RESIGN_PLIES).then_some(leader).flatten()
    }
}

/// An SPRT's bounds on the log-likelihood ratio for 5% errors each way:
/// ln(0.95 / 0.05).
const SPRT_BOUND: f64 = 2.944;

/// The Elo difference a score (0..1) means.
fn elo(score: f64) -> f64 {
    let s = score.clamp(0.001, 0.999);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The log-likelihood ratio of "a is better by `elo1`" over "by `elo0`"
/// given the games' points, by the normal approximation Fishtest uses for
/// game results: n (s1 - s0) (2 mean - s0 - s1) / (2 variance). Games that
/// all ended alike (every one won, say) have no variance for that formula
/// to divide by; they are weighed as independent trials instead, each
/// scoring x with likelihood s^x (1 - s)^(1 - x): a clean sweep is the
/// strongest evidence there is, not none.
fn llr(points: &[f64], (elo0, elo1): (f64, f64)) -> f64 {
    let n = points.len() as f64;
    if n < 2.0 {
        return 0.0;
    }
    let mean = points.iter().sum::<f64>() / n;
    let var = points.iter().map(|p| (p - mean).powi(2)).sum::<f64>() / n;
    let expected = |e: f64| 1.0 / (1.0 + 10f64.powf(-e / 400.0));
    let (s0, s1) = (expected(elo0), expected(elo1));
    if var <= 0.0 {
        return n * (mean * (s1 / s0).ln() + (1.0 - mean) * ((1.0 - s1) / (1.0 - s0)).ln());
    }
    n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_adjudicated_only_when_both_sides_agree_ply_after_ply() {
        let mut off = Resign::new(0);
        assert!((0..20).all(|i| off
            .record(
                if i % 2 == 0 {
                    Color::White
                } else {
                    Color::Black
                },
                5000
            )
            .is_none()));
        let mut rule = Resign::new(900);
        // White thinks it leads, Black agrees it trails: five plies, not yet.
        for ply in 0..RESIGN_PLIES - 1 {
            let (mover, score) = if ply % 2 == 0 {
                (Color::White, 1000)
            } else {
                (Color::Black, -1200)
            };
            assert_eq!(rule.record(mover, score), None, "ply {ply}");
        }
        // Black sees a defence: the streak starts again.
        assert_eq!(rule.record(Color::Black, -300), None);
        for ply in 0..RESIGN_PLIES - 1 {
            let mover = if ply % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            let score = if mover == Color::White { -950 } else { 950 };
            assert_eq!(rule.record(mover, score), None);
        }
        assert_eq!(rule.record(Color::Black, 2000), Some(Color::Black));
    }

    #[test]
    fn the_sprt_leans_the_way_the_results_do() {
        let winning: Vec<f64> = (0..200).map(|i| [1.0, 0.5, 1.0, 0.0][i % 4]).collect();
        let even: Vec<f64> = (0..200).map(|i| [1.0, 0.5, 0.0, 0.5][i % 4]).collect();
        assert!(llr(&winning, (0.0, 20.0)) > SPRT_BOUND);
        assert!(llr(&even, (0.0, 50.0)) < -SPRT_BOUND);
        // Results all alike: a sweep of 20 settles "at least +200" (a Black
        // Holes match at 2 s won all 40 and was called undecided, LLR 0,
        // before this was weighed); 20 losses reject it; two draws say
        // next to nothing.
        assert!(llr(&[1.0; 20], (100.0, 200.0)) > SPRT_BOUND);
        assert!(llr(&[1.0; 16], (100.0, 200.0)) < SPRT_BOUND);
        assert!(llr(&[0.0; 20], (100.0, 200.0)) < -SPRT_BOUND);
        assert!(llr(&[0.5, 0.5], (0.0, 10.0)).abs() < 0.01);
        assert!((elo(0.5)).abs() < 1e-9 && elo(0.76) > 190.0 && elo(0.76) < 210.0);
        assert_eq!(parse_sprt("0, 10"), Ok((0.0, 10.0)));
        assert!(parse_sprt("10,0").is_err() && parse_sprt("ten").is_err());
    }
}
