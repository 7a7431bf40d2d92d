//! `voidmate analyse` and `voidmate selfplay`: the engine from the command
//! line.

use crate::inspect::{position, PositionArgs};
use anyhow::{bail, Result};
use clap::Args;
use std::fmt::Write as _;
use std::time::{Duration, Instant};
use voidmate_engine::{choose, greedy, search, Level, Limits, Table};
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
}

pub fn analyse(args: &AnalyseArgs) -> Result<String> {
    let pos = position(&args.position)?;
    let limits = match args.depth {
        Some(d) => Limits::depth(d),
        None => Limits::time(Duration::from_millis(args.time_ms)),
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
                choose(pos, l, Limits::time(time), *seed)
                    .expect("a move")
                    .best
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
        while pos.outcome().is_none() && plies < args.max_plies {
            let player = if pos.turn() == a_color { a } else { b };
            let mv = player.pick(&pos, time, &mut seed);
            pos.play(&mv).map_err(|e| anyhow::anyhow!("{e}"))?;
            plies += 1;
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
    /// check-extension, see, killers, history).
    #[arg(long, default_value = "all")]
    pub a: String,
    /// The second engine's, likewise.
    #[arg(long, default_value = "none")]
    pub b: String,
    /// Nodes per move for both: equal effort, whatever each part costs in time.
    #[arg(long, default_value_t = 20_000)]
    pub nodes: u64,
    /// Games; each opening is played twice, colours swapped.
    #[arg(long, default_value_t = 40)]
    pub games: u32,
    /// Random plies that open each pair of games, so that games differ.
    #[arg(long = "opening-plies", default_value_t = 4)]
    pub opening_plies: u32,
    /// Games longer than this many plies are scored as draws.
    #[arg(long = "max-plies", default_value_t = 300)]
    pub max_plies: u32,
    /// Games played at once.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// One game of a match: `a`'s result (1, ½, 0) with `a` as `a_color`.
fn match_game(
    rules: &'static voidmate_rules::Rules,
    args: &MatchArgs,
    (a, b): (voidmate_engine::Features, voidmate_engine::Features),
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
    while pos.outcome().is_none() && plies < args.max_plies {
        let (features, table) = if pos.turn() == a_color {
            (a, &mut ta)
        } else {
            (b, &mut tb)
        };
        let limits = Limits {
            features,
            ..Limits::nodes(args.nodes)
        };
        let Some(r) = search(&pos, &limits, table) else {
            break;
        };
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
    let parse = |s: &str| voidmate_engine::Features::parse(s).map_err(|e| anyhow::anyhow!(e));
    let (a, b) = (parse(&args.a)?, parse(&args.b)?);
    let games = args.games.max(2) / 2 * 2;
    let start = Instant::now();
    let next = std::sync::atomic::AtomicU32::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..args.threads.max(1) {
            scope.spawn(|| loop {
                let g = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                if g >= games {
                    return;
                }
                let color = if g.is_multiple_of(2) {
                    Color::White
                } else {
                    Color::Black
                };
                let points = match_game(rules, args, (a, b), g / 2, color);
                results.lock().unwrap().push(points);
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
    let elo = |s: f64| {
        let s = s.clamp(0.001, 0.999);
        -400.0 * (1.0 / s - 1.0).log10()
    };
    Ok(format!(
        "{}: {} vs {}, {} nodes a move, {games} games in {:.0} s: +{wins} ={draws} -{losses}, \
         score {:.1}% ± {:.1}%, Elo {:+.0} [{:+.0}, {:+.0}]\n",
        rules.name(),
        args.a,
        args.b,
        args.nodes,
        start.elapsed().as_secs_f64(),
        100.0 * score,
        100.0 * margin,
        elo(score),
        elo(score - margin),
        elo(score + margin),
    ))
}
