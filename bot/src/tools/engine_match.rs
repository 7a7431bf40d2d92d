//! `voidmate engine-match`: two engines play each other from the same
//! openings with colours swapped, and the score comes with a 95% interval,
//! the Elo difference it means and, if asked, a sequential test that stops
//! once the answer is clear.
//!
//! Each side is either this binary's search with its parts, evaluation and
//! level chosen, or any engine that speaks UCI (`--a-uci`, `--b-uci`): the
//! engine as it stood at an earlier commit (`scripts/versus.sh`), or another
//! program. This process is the arbiter either way: it holds the game, checks
//! every move against the rules and keeps the clocks.

use crate::tools::openings::{opening_fens, Openings};
use crate::tools::uci_client::UciEngine;
use anyhow::Result;
use clap::Args;
use std::fmt::Write as _;
use std::time::{Duration, Instant};
use voidmate_engine::{choose_with, is_capture, Clock, Level, Limits, Table};
use voidmate_rules::{variant, Color, Position, Square};

#[derive(Args, Debug)]
pub struct MatchArgs {
    #[arg(long, default_value = "standard")]
    pub variant: String,
    /// The first engine's search parts: `all`, `none`, `all-lmr`,
    /// `none+pvs+killers` (parts: pvs, aspiration, null-move, lmr,
    /// check-extension, see, killers, history, futility,
    /// late-move-pruning, improving, iir, history-malus, log-reductions,
    /// counter-moves, partial-iterations, swap-exchange, see-pruning,
    /// quiescence-table, singular, root-order, root-reductions,
    /// prune-unmade, razoring, continuation, memory, evasions,
    /// capture-history, null-margin).
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
    /// With `--openings`, the line the first pair plays (1 is the file's
    /// first): a stopped match goes on from where it stopped, and the two
    /// runs add up. Otherwise the seed of the random opening plies; it also
    /// seeds the lower levels' choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The first engine as a UCI program instead of this binary's search:
    /// its command line (`target/old/voidmate uci`). `--a`, `--a-eval` and
    /// `--a-level` then mean nothing.
    #[arg(long = "a-uci")]
    pub a_uci: Option<String>,
    /// The second engine as a UCI program, likewise.
    #[arg(long = "b-uci")]
    pub b_uci: Option<String>,
    /// Both sides on a clock instead of a time or nodes a move: seconds
    /// and increment, `60+0` or `180+2`. A side whose clock runs out loses.
    #[arg(long, value_parser = parse_clock, conflicts_with = "time_ms")]
    pub clock: Option<(Duration, Duration)>,
    /// The openings, one FEN a line (`#` starts a comment): pair `i` plays
    /// line `i`, both colours. Without it, `--opening-plies` random plies
    /// open each pair. `voidmate openings` writes such a file.
    #[arg(long)]
    pub openings: Option<std::path::PathBuf>,
}

/// `60+0`, `180+2`, `0.5+0.05`: a clock in seconds and its increment.
fn parse_clock(text: &str) -> std::result::Result<(Duration, Duration), String> {
    let bad = || format!("'{text}' is not a clock like 60+0 or 180+2 (seconds + increment)");
    let (base, inc) = text.split_once('+').ok_or_else(bad)?;
    let seconds = |t: &str| -> Option<Duration> {
        let s: f64 = t.trim().parse().ok()?;
        (s.is_finite() && (0.0..=86_400.0).contains(&s)).then(|| Duration::from_secs_f64(s))
    };
    let (base, inc) = (
        seconds(base).ok_or_else(bad)?,
        seconds(inc).ok_or_else(bad)?,
    );
    if base.is_zero() {
        return Err(format!("'{text}': the clock must start above zero"));
    }
    Ok((base, inc))
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

/// One side of a match played by this binary: its search parts,
/// evaluation and level.
#[derive(Debug, Clone, Copy)]
struct Side {
    features: voidmate_engine::Features,
    eval: voidmate_engine::Eval,
    level: Level,
}

/// Who plays one side.
#[derive(Debug, Clone)]
enum Player {
    Search(Side),
    Uci(String),
}

/// A player for one game: the search with its own table, or a running
/// UCI program.
enum Seat {
    Search(Side, Box<Table>),
    Uci(UciEngine),
}

impl Seat {
    fn open(player: &Player, game: &str) -> Result<Seat> {
        Ok(match player {
            Player::Search(side) => Seat::Search(*side, Box::new(Table::new(1 << 18))),
            Player::Uci(command) => Seat::Uci(UciEngine::start(command, game)?),
        })
    }
}

/// How long each move may take.
#[derive(Debug, Clone, Copy)]
enum Budget {
    Nodes(u64),
    Time(Duration),
    Clock(Duration),
}

/// What one side did with its clock in one game.
#[derive(Debug, Default, Clone)]
struct ClockLog {
    lost_on_time: u32,
    /// The lowest its clock stood after a move with more than ten of its
    /// moves still to come in the game.
    lowest: Option<Duration>,
    /// Milliseconds spent on each recapture (a capture on the square the
    /// opponent has just captured on), on each other move from move 10 to
    /// 40 (the middlegame), and on moves the search itself judged forced.
    recaptures: Vec<u64>,
    middlegame: Vec<u64>,
    forced: Vec<u64>,
}

impl ClockLog {
    fn merge(&mut self, other: &ClockLog) {
        self.lost_on_time += other.lost_on_time;
        self.lowest = match (self.lowest, other.lowest) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.recaptures.extend(&other.recaptures);
        self.middlegame.extend(&other.middlegame);
        self.forced.extend(&other.forced);
    }

    fn describe(&self) -> String {
        let mean = |v: &[u64]| {
            if v.is_empty() {
                "-".to_string()
            } else {
                format!(
                    "{} ms ({} moves)",
                    v.iter().sum::<u64>() / v.len() as u64,
                    v.len()
                )
            }
        };
        format!(
            "{} lost on time; lowest clock with more than 10 moves to go {}; mean time a move: \
             middlegame {}, recaptures {}, judged forced {}",
            self.lost_on_time,
            self.lowest
                .map_or("-".to_string(), |d| format!("{:.2} s", d.as_secs_f64())),
            mean(&self.middlegame),
            mean(&self.recaptures),
            mean(&self.forced),
        )
    }
}

/// One game's result: `a`'s points (1, ½, 0) and both clocks' logs.
#[derive(Debug, Clone)]
struct GameResult {
    points: f64,
    clocks: [ClockLog; 2],
    /// Why the game ended other than by the rules: an illegal move, an
    /// engine that stopped answering.
    fault: Option<String>,
}

/// One move made: by whom, how long it took, the clock after it.
struct Spent {
    seat: usize,
    ms: u64,
    clock_after: Option<Duration>,
    recapture: bool,
    middlegame: bool,
    forced: bool,
}

/// The seed of an opening's pair of games: its random plies and its
/// searches' noise.
fn pair_seed(args: &MatchArgs, pair: u32) -> u64 {
    args.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ ((pair as u64 + 1) * 0x2545_f491)
}

/// The opening of pair `pair`: a line of the openings file, or random plies.
fn opening(
    rules: &'static voidmate_rules::Rules,
    args: &MatchArgs,
    openings: Option<&Openings>,
    pair: u32,
) -> Result<Position> {
    if let Some(o) = openings {
        return o.position(rules, pair as usize + args.seed.saturating_sub(1) as usize);
    }
    let mut pos = Position::new(rules);
    // The same random plies for both games of the pair.
    let mut seed = pair_seed(args, pair);
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
    Ok(pos)
}

/// One game of a match with `a` as `a_color`.
fn match_game(
    rules: &'static voidmate_rules::Rules,
    args: &MatchArgs,
    players: &[Player; 2],
    (start, pair): (Position, u32),
    a_color: Color,
) -> GameResult {
    let mut result = GameResult {
        points: 0.5,
        clocks: Default::default(),
        fault: None,
    };
    let mut seats = Vec::new();
    for (i, p) in players.iter().enumerate() {
        match Seat::open(p, rules.name()) {
            Ok(s) => seats.push(s),
            Err(e) => {
                result.fault = Some(format!("{} did not start: {e:#}", ["a", "b"][i]));
                // A side that cannot play loses.
                result.points = if i == 0 { 0.0 } else { 1.0 };
                return result;
            }
        }
    }
    let mut pos = start;
    let fen = pos.fen();
    let mut moves: Vec<String> = Vec::new();
    let mut clocks = [args.clock.map(|c| c.0); 2];
    let increment = args.clock.map_or(Duration::ZERO, |c| c.1);
    let mut spent: Vec<Spent> = Vec::new();
    let mut last_capture: Option<Square> = None;
    let mut plies = 0;
    let mut resign = Resign::new(args.resign);
    let seed = pair_seed(args, pair);
    let seat_of = |c: Color| usize::from(c != a_color);
    let end = |winner: Color| if winner == a_color { 1.0 } else { 0.0 };
    while pos.outcome().is_none() && plies < args.max_plies {
        let me = seat_of(pos.turn());
        let budget = match (clocks[me], args.time_ms, args.b_time_ms) {
            (Some(left), _, _) => Budget::Clock(left),
            (None, Some(_), Some(b_ms)) if me == 1 => Budget::Time(Duration::from_millis(b_ms)),
            (None, Some(ms), _) => Budget::Time(Duration::from_millis(ms)),
            (None, None, _) => Budget::Nodes(args.nodes),
        };
        let began = Instant::now();
        let played = match &mut seats[me] {
            Seat::Search(side, table) => {
                let limits = match budget {
                    Budget::Nodes(n) => Limits::nodes(n),
                    Budget::Time(t) => Limits::time(t),
                    Budget::Clock(left) => Limits::clock(Clock::new(left, increment)),
                };
                let limits = Limits {
                    features: side.features,
                    eval: side.eval,
                    ..limits
                };
                let noise_seed = seed ^ (plies as u64).wrapping_mul(0x2545_f491_4f6c_dd1d);
                choose_with(&pos, side.level, limits, noise_seed, table)
                    .map(|r| (r.best, Some(r.score), r.forced))
                    .ok_or_else(|| "the search found no move".to_string())
            }
            Seat::Uci(engine) => {
                let go = match budget {
                    Budget::Nodes(n) => format!("go nodes {n}"),
                    Budget::Time(t) => format!("go movetime {}", t.as_millis()),
                    Budget::Clock(_) => {
                        let ms = |c: Color| clocks[seat_of(c)].unwrap_or_default().as_millis();
                        let inc = increment.as_millis();
                        format!(
                            "go wtime {} btime {} winc {inc} binc {inc}",
                            ms(Color::White),
                            ms(Color::Black)
                        )
                    }
                };
                let wait = match budget {
                    Budget::Clock(left) => left + Duration::from_secs(5),
                    Budget::Time(t) => t * 4 + Duration::from_secs(5),
                    Budget::Nodes(_) => Duration::from_secs(600),
                };
                engine
                    .best_move(&fen, &moves, &go, wait)
                    .map_err(|e| format!("{e:#}"))
                    .and_then(|(text, score)| {
                        pos.parse_move(&text)
                            .map(|m| (m, score, false))
                            .map_err(|e| {
                                format!("it played '{text}', which is not legal here: {e}")
                            })
                    })
            }
        };
        let took = began.elapsed();
        let (mv, score, forced) = match played {
            Ok(found) => found,
            Err(why) => {
                result.fault = Some(format!("{}: {why}", ["a", "b"][me]));
                result.points = end(!pos.turn());
                break;
            }
        };
        if let Some(left) = clocks[me] {
            if took > left {
                result.clocks[me].lost_on_time += 1;
                // A side that cannot be mated by anything left would draw on
                // the board; a match between engines scores it as a loss.
                result.points = end(!pos.turn());
                break;
            }
            clocks[me] = Some(left.saturating_sub(took) + increment);
        }
        let capture = is_capture(&pos, &mv);
        let fullmove = pos.board().fullmove_number();
        spent.push(Spent {
            seat: me,
            ms: took.as_millis() as u64,
            clock_after: clocks[me],
            recapture: capture && last_capture == Some(mv.to),
            middlegame: (10..=40).contains(&fullmove),
            forced,
        });
        last_capture = capture.then_some(mv.to);
        if let Some(winner) = score.and_then(|s| resign.record(pos.turn(), s)) {
            result.points = end(winner);
            break;
        }
        moves.push(pos.coordinate(&mv));
        pos.play_unchecked(&mv);
        plies += 1;
    }
    if result.fault.is_none() && result.clocks.iter().all(|c| c.lost_on_time == 0) {
        result.points = match pos.outcome().and_then(|o| o.winner()) {
            Some(w) => end(w),
            None => result.points,
        };
    }
    if args.clock.is_some() {
        let total = spent.len();
        for (i, s) in spent.iter().enumerate() {
            let log = &mut result.clocks[s.seat];
            // More than ten of this side's moves still to come.
            if total - i > 21 {
                if let Some(c) = s.clock_after {
                    log.lowest = Some(log.lowest.map_or(c, |l| l.min(c)));
                }
            }
            if s.recapture {
                log.recaptures.push(s.ms);
            } else if s.middlegame {
                log.middlegame.push(s.ms);
            }
            if s.forced {
                log.forced.push(s.ms);
            }
        }
    }
    result
}

/// `voidmate engine-match`.
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
    let player = |uci: &Option<String>, features: &str, eval: &str, level: u8| -> Result<Player> {
        Ok(match uci {
            Some(command) if command.split_whitespace().next().is_none() => {
                anyhow::bail!("a UCI engine's command line is empty")
            }
            Some(command) => Player::Uci(command.clone()),
            None => Player::Search(side(features, eval, level)?),
        })
    };
    let players = [
        player(&args.a_uci, &args.a, &args.a_eval, args.a_level)?,
        player(&args.b_uci, &args.b, &args.b_eval, args.b_level)?,
    ];
    let openings = match &args.openings {
        Some(path) => Some(opening_fens(path, rules)?),
        None => None,
    };
    let games = args.games.max(2) / 2 * 2;
    let start = Instant::now();
    let next = std::sync::atomic::AtomicU32::new(0);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let results = std::sync::Mutex::new(Vec::<GameResult>::new());
    let verdict = std::sync::Mutex::new(None);
    let failed = std::sync::Mutex::new(None);
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
                let pos = match opening(rules, args, openings.as_ref(), g / 2) {
                    Ok(p) => p,
                    Err(e) => {
                        *failed.lock().unwrap() = Some(e);
                        stop.store(true, std::sync::atomic::Ordering::SeqCst);
                        return;
                    }
                };
                let game = match_game(rules, args, &players, (pos, g / 2), color);
                if let Some(fault) = &game.fault {
                    eprintln!("game {}: {fault}", g + 1);
                }
                let mut results = results.lock().unwrap();
                results.push(game);
                let points: Vec<f64> = results.iter().map(|r| r.points).collect();
                // Progress on standard error, a line a game: a long match
                // can be read (or stopped) as it goes.
                eprintln!("{}", progress(&points, args.sprt));
                if let Some(bounds) = args.sprt {
                    let llr = llr(&points, bounds);
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
    if let Some(e) = failed.into_inner().unwrap() {
        return Err(e);
    }
    let games_played = results.into_inner().unwrap();
    let results: Vec<f64> = games_played.iter().map(|g| g.points).collect();
    let n = results.len() as f64;
    let wins = results.iter().filter(|p| **p == 1.0).count();
    let draws = results.iter().filter(|p| **p == 0.5).count();
    let losses = results.len() - wins - draws;
    let score = results.iter().sum::<f64>() / n;
    let var = results.iter().map(|p| (p - score).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let margin = 1.96 * (var / n).sqrt();
    let describe = |features: &str, player: &Player| match player {
        Player::Uci(command) => format!("uci '{command}'"),
        Player::Search(side) => {
            let mut d = features.to_string();
            if side.eval != voidmate_engine::Eval::Tuned {
                let _ = write!(d, "/{:?}", side.eval);
            }
            if side.level != Level::MAX {
                let _ = write!(d, "/level {}", side.level.get());
            }
            d
        }
    };
    let budget = match (args.clock, args.time_ms, args.b_time_ms) {
        (Some((base, inc)), _, _) => {
            format!("a clock of {}+{}", base.as_secs_f64(), inc.as_secs_f64())
        }
        (None, Some(ms), Some(b_ms)) => format!("{ms} ms (b {b_ms} ms) a move"),
        (None, Some(ms), None) => format!("{ms} ms a move"),
        (None, None, _) => format!("{} nodes a move", args.nodes),
    };
    let mut out = format!(
        "{}: {} vs {}, {budget}, {} games in {:.0} s: +{wins} ={draws} -{losses}, \
         score {:.1}% ± {:.1}%, Elo {:+.0} [{:+.0}, {:+.0}]\n",
        rules.name(),
        describe(&args.a, &players[0]),
        describe(&args.b, &players[1]),
        results.len(),
        start.elapsed().as_secs_f64(),
        100.0 * score,
        100.0 * margin,
        elo(score),
        elo(score - margin),
        elo(score + margin),
    );
    let faults = games_played.iter().filter(|g| g.fault.is_some()).count();
    if faults > 0 {
        let _ = writeln!(out, "{faults} games ended by a fault (each said above)");
    }
    if args.clock.is_some() {
        for (i, name) in ["a", "b"].iter().enumerate() {
            let mut log = ClockLog::default();
            for g in &games_played {
                log.merge(&g.clocks[i]);
            }
            let _ = writeln!(out, "{name}: {}", log.describe());
        }
    }
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

/// The match so far: games, record, score and Elo, and the LLR if asked.
fn progress(points: &[f64], sprt: Option<(f64, f64)>) -> String {
    let n = points.len();
    let count = |p: f64| points.iter().filter(|x| **x == p).count();
    let score = points.iter().sum::<f64>() / n.max(1) as f64;
    let mut line = format!(
        "after {n} games: +{} ={} -{}, score {:.1}%, Elo {:+.0}",
        count(1.0),
        count(0.5),
        count(0.0),
        100.0 * score,
        elo(score)
    );
    if let Some(bounds) = sprt {
        let _ = write!(line, ", LLR {:.2}", llr(points, bounds));
    }
    line
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
    fn with_openings_the_seed_names_the_first_line_played() {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            args: MatchArgs,
        }
        let rules = voidmate_rules::variants::standard();
        let after = |san: &str| {
            let mut pos = Position::new(rules);
            pos.play_text(san).unwrap();
            pos.fen()
        };
        let lines = [after("e4"), after("d4"), after("c4")];
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("openings.txt");
        std::fs::write(&path, format!("# three\n{}\n", lines.join("\n"))).unwrap();
        let set = opening_fens(&path, rules).unwrap();
        let played = |seed: &str, pair: u32| {
            let cli = <Cli as clap::Parser>::parse_from(["match", "--seed", seed]);
            opening(rules, &cli.args, Some(&set), pair).unwrap().fen()
        };
        assert_eq!(played("1", 0), lines[0]);
        assert_eq!(played("1", 2), lines[2]);
        // From the second line on, and round to the first again.
        assert_eq!(played("2", 0), lines[1]);
        assert_eq!(played("2", 1), lines[2]);
        assert_eq!(played("2", 2), lines[0]);
    }

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
        assert_eq!(
            progress(&[1.0, 0.5, 0.0, 1.0], None),
            "after 4 games: +2 =1 -1, score 62.5%, Elo +89"
        );
        assert!(progress(&[1.0; 3], Some((0.0, 10.0))).contains("LLR"));
    }

    #[test]
    fn a_clock_is_read_in_seconds_with_its_increment() {
        assert_eq!(
            parse_clock("60+0"),
            Ok((Duration::from_secs(60), Duration::ZERO))
        );
        assert_eq!(
            parse_clock("0.5+0.05"),
            Ok((Duration::from_millis(500), Duration::from_millis(50)))
        );
        for bad in ["60", "0+1", "-1+0", "a+b", "1e999+0", "NaN+0", "１+0"] {
            assert!(parse_clock(bad).is_err(), "{bad}");
        }
    }
}
