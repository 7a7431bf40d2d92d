//! `voidmate analyse` and `voidmate selfplay`: the engine from the command
//! line.

use crate::tools::inspect::{position, PositionArgs};
use anyhow::{bail, Context as _, Result};
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
