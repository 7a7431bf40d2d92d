//! `voidmate tune-data` and `voidmate tune`: the evaluation's weights tuned
//! on positions from the engine's own games (Texel's method; the maths is
//! in `voidmate_engine::tune`, the procedure in `engine/tuning/README.md`).

use anyhow::{bail, Context, Result};
use clap::Args;
use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Write as _};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;
use std::time::Instant;
use voidmate_engine::eval::Term;
use voidmate_engine::tune::{blend, table_lines, tune, Options, Sample};
use voidmate_engine::{eval, is_capture, search, Eval, Limits, Table};
use voidmate_rules::{Color, GameKind, Position};

#[derive(Args, Debug)]
pub struct DataArgs {
    /// The game: standard, void, antichess, suicide-void, suicide-void-pw,
    /// chess99, black-holes, super16.
    #[arg(long)]
    pub variant: String,
    /// Games to play.
    #[arg(long, default_value_t = 1000)]
    pub games: u32,
    /// Nodes per move: the games' strength.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Random plies that open each game, so that games differ; positions
    /// are recorded after them.
    #[arg(long = "opening-plies", default_value_t = 8)]
    pub opening_plies: u32,
    /// Games are stopped after this many plies (after the opening) and, as
    /// their result is unknown, left out of the data.
    #[arg(long = "max-plies", default_value_t = 300)]
    pub max_plies: u32,
    /// Keep the games stopped at `--max-plies`, scored as draws (what runs
    /// made before 2026-11-24 did).
    #[arg(long = "keep-unfinished")]
    pub keep_unfinished: bool,
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The evaluation the games are played with: tuned (the engine as it
    /// plays), untuned (the terms' starting weights: a first tuning) or
    /// classic.
    #[arg(long, default_value = "tuned")]
    pub eval: String,
    /// Where to write the positions (one a line: White's result, then FEN).
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Args, Debug)]
pub struct TuneArgs {
    #[arg(long)]
    pub variant: String,
    /// Files written by `voidmate tune-data` (repeat for several).
    #[arg(long, required = true)]
    pub data: Vec<PathBuf>,
    /// Full passes of gradient descent.
    #[arg(long, default_value_t = 1000)]
    pub iterations: u32,
    /// The cost of moving a weight from its start, per (100 centipawns)²,
    /// against the error: higher keeps weights nearer their start.
    #[arg(long, default_value_t = 1e-4)]
    pub l2: f64,
    /// Terms to leave at their starting weights, by name (`material.rook`)
    /// or by group, ending in a dot (`material.`, `mobility.`, `pawn.`);
    /// repeat for several.
    #[arg(long)]
    pub hold: Vec<String>,
    /// How much of each position's target is its game's result; the rest
    /// is the score its search gave it, read as an expected result (1:
    /// results only; positions without a score always take their result).
    #[arg(long, default_value_t = 1.0)]
    pub lambda: f64,
    /// Write the tuned weights into this `weights.rs` (the other games'
    /// tables are kept); without it, only report.
    #[arg(long)]
    pub write: Option<PathBuf>,
}

pub(crate) fn kind_named(name: &str) -> Result<GameKind> {
    GameKind::from_name(name).with_context(|| {
        let names: Vec<&str> = GameKind::ALL.iter().map(|k| k.name()).collect();
        format!("'{name}' is not a game; the games: {}", names.join(", "))
    })
}

fn next(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

/// One self-play game: the quiet positions it passed through, each with
/// its search's score for White, and White's result, `None` if the game
/// was stopped at the ply limit unfinished.
///
/// An unfinished game has no result to teach: scored as a draw, a side far
/// ahead when the limit struck reads as a side that could not win. Such
/// games are common where the engine at a few thousand nodes cannot finish
/// a won game (about a quarter of Void Chess's games and a fifth of Super
/// Chess's, against 1% in standard chess), and they pull the tuned piece
/// values towards nothing.
fn data_game(
    kind: GameKind,
    args: &DataArgs,
    eval: Eval,
    game: u32,
) -> (Vec<(String, i32)>, Option<f64>) {
    let mut pos = Position::new(kind.rules());
    let mut seed =
        args.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ ((game as u64 + 1) * 0x2545_f491);
    for _ in 0..args.opening_plies {
        if pos.outcome().is_some() {
            break;
        }
        let legal = pos.legal_moves();
        pos.play_unchecked(&legal[(next(&mut seed) % legal.len() as u64) as usize]);
    }
    let mut table = Table::new(1 << 16);
    let mut quiet = Vec::new();
    let mut plies = 0;
    while pos.outcome().is_none() && plies < args.max_plies {
        let limits = Limits {
            eval,
            ..Limits::nodes(args.nodes)
        };
        let Some(r) = search(&pos, &limits, &mut table) else {
            break;
        };
        // Texel's method wants positions whose score needs no search: not
        // in check, and the move found not a capture or promotion.
        if !pos.is_check() && !is_capture(&pos, &r.best) && r.best.promotion.is_none() {
            // A mate's score is a count of plies, not of centipawns: held
            // to a score that reads as a sure result.
            let score = r.score.clamp(-MATE_SCORE, MATE_SCORE);
            let white = if pos.turn() == Color::White {
                score
            } else {
                -score
            };
            quiet.push((pos.fen(), white));
        }
        pos.play_unchecked(&r.best);
        plies += 1;
    }
    let result = match pos.outcome() {
        None if !args.keep_unfinished => None,
        outcome => Some(match outcome.and_then(|o| o.winner()) {
            Some(Color::White) => 1.0,
            Some(Color::Black) => 0.0,
            None => 0.5,
        }),
    };
    (quiet, result)
}

/// The largest score written for a position: a mate found, in centipawns.
const MATE_SCORE: i32 = 3000;

/// `voidmate tune-data`: self-play games at a fixed number of nodes, every
/// quiet position written with its game's result and, after ` ; `, the
/// score the game's search gave it (White's, centipawns).
pub fn tune_data(args: &DataArgs) -> Result<String> {
    let kind = kind_named(&args.variant)?;
    let eval = Eval::parse(&args.eval).map_err(|e| anyhow::anyhow!(e))?;
    let file = std::fs::File::create(&args.out)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    let out = Mutex::new(std::io::BufWriter::new(file));
    writeln!(
        out.lock().unwrap(),
        "# voidmate {} tune-data --variant {} --eval {} --games {} --nodes {} --opening-plies {} \
         --max-plies {}{} --seed {}",
        env!("CARGO_PKG_VERSION"),
        kind.name(),
        args.eval,
        args.games,
        args.nodes,
        args.opening_plies,
        args.max_plies,
        if args.keep_unfinished {
            " --keep-unfinished"
        } else {
            ""
        },
        args.seed
    )?;
    let start = Instant::now();
    let next_game = AtomicU32::new(0);
    let done = AtomicU32::new(0);
    // Positions written; games lost, drawn and won by White, and unfinished.
    let tally = Mutex::new((0usize, [0u32; 4]));
    std::thread::scope(|scope| {
        for _ in 0..args.threads.max(1) {
            scope.spawn(|| loop {
                let g = next_game.fetch_add(1, Ordering::SeqCst);
                if g >= args.games {
                    return;
                }
                let (positions, result) = data_game(kind, args, eval, g);
                {
                    let mut t = tally.lock().unwrap();
                    if let Some(result) = result {
                        t.0 += positions.len();
                        t.1[(result * 2.0) as usize] += 1;
                        let mut o = out.lock().unwrap();
                        for (fen, score) in &positions {
                            let _ = writeln!(o, "{result} {fen} ; {score}");
                        }
                    } else {
                        t.1[3] += 1;
                    }
                }
                let n = done.fetch_add(1, Ordering::SeqCst) + 1;
                if n.is_multiple_of(50) || n == args.games {
                    eprintln!(
                        "{n}/{} games, {:.0} s",
                        args.games,
                        start.elapsed().as_secs_f64()
                    );
                }
            });
        }
    });
    out.into_inner().unwrap().flush()?;
    let (positions, [black, draws, white, unfinished]) = *tally.lock().unwrap();
    let left_out = if unfinished > 0 {
        format!(
            ", {unfinished} stopped unfinished at {} plies and left out",
            args.max_plies
        )
    } else {
        String::new()
    };
    Ok(format!(
        "{}: {} games in {:.0} s (White +{white} ={draws} -{black}{left_out}), {positions} positions in {}\n",
        kind.name(),
        args.games,
        start.elapsed().as_secs_f64(),
        args.out.display()
    ))
}

/// Reads positions written by `tune-data`: lines of White's result, a FEN
/// and, after ` ; `, the search's score (files written before 2026-11-24
/// have none).
pub(crate) fn read_samples(kind: GameKind, paths: &[PathBuf]) -> Result<Vec<Sample>> {
    let mut samples = Vec::new();
    for path in paths {
        let file =
            std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
        for (i, line) in BufReader::new(file).lines().enumerate() {
            let line = line?;
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let at = || format!("{} line {}", path.display(), i + 1);
            let (line, score) = match line.split_once(" ; ") {
                Some((line, score)) => {
                    let score: i32 = score.trim().parse().ok().with_context(|| {
                        format!("{}: '{score}' is not a score in centipawns", at())
                    })?;
                    (line, Some(score))
                }
                None => (line.as_str(), None),
            };
            let (result, fen) = line
                .split_once(' ')
                .with_context(|| format!("{}: expected a result and a FEN", at()))?;
            let result: f64 = match result {
                "1" => 1.0,
                "0.5" => 0.5,
                "0" => 0.0,
                r => bail!("{}: '{r}' is not a result (1, 0.5 or 0)", at()),
            };
            let pos = Position::from_fen(kind.rules(), fen)
                .map_err(|e| anyhow::anyhow!("{}: {e}", at()))?;
            samples.push(match score {
                Some(score) => Sample::with_score(&pos, result, score),
                None => Sample::new(&pos, result),
            });
        }
    }
    if samples.is_empty() {
        bail!("no positions in {}", paths.len());
    }
    Ok(samples)
}

/// The rows of each game's table in the text of a `weights.rs`, by the
/// constant's name (`STANDARD`): what the file holds now, whatever the
/// running binary was built with.
fn tables_in(text: &str) -> std::collections::HashMap<String, Vec<String>> {
    let mut tables = std::collections::HashMap::new();
    let mut current: Option<(String, Vec<String>)> = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("const ") {
            if let Some((name, _)) = rest.split_once(':') {
                current = Some((name.trim().to_string(), Vec::new()));
            }
        } else if line.starts_with("];") {
            if let Some((name, rows)) = current.take() {
                tables.insert(name, rows);
            }
        } else if let Some((_, rows)) = current.as_mut() {
            rows.push(line.trim().to_string());
        }
    }
    tables
}

/// The text of `weights.rs` with `kind`'s table replaced by `lines`, the
/// other games' tables as `old` (the file's text before) has them.
fn weights_file(kind: GameKind, lines: &[String], old: &str) -> String {
    let mut kept = tables_in(old);
    let mut out = String::from(
        "//! Each game's tuned weights, by term name: written by `voidmate tune`\n\
         //! (how, and from which games: `engine/tuning/README.md`). A game or term\n\
         //! missing here plays with its starting weight.\n\n\
         use voidmate_rules::GameKind;\n\n\
         type Table = &'static [(&'static str, i32, i32)];\n\n\
         /// The tuned `(term, middlegame, endgame)` weights of `kind`.\n\
         pub(super) fn table(kind: Option<GameKind>) -> Table {\n    match kind {\n",
    );
    let mut tables = String::new();
    for k in GameKind::ALL {
        let name = k.name().to_uppercase().replace('-', "_");
        let rows: Vec<String> = if k == kind {
            lines.to_vec()
        } else {
            kept.remove(&name).unwrap_or_default()
        };
        // Every game has its arm, so a new game does not compile until the
        // file says what its weights are (none tuned: `&[]`).
        if rows.is_empty() {
            let _ = writeln!(out, "        Some(GameKind::{k:?}) => &[],");
            continue;
        }
        let _ = writeln!(out, "        Some(GameKind::{k:?}) => {name},");
        let _ = writeln!(tables, "\nconst {name}: Table = &[");
        for r in rows {
            let _ = writeln!(tables, "    {r}");
        }
        tables.push_str("];\n");
    }
    // A game defined in a file has no games of its own to tune on.
    out.push_str("        Some(GameKind::Defined(_)) | None => &[],\n    }\n}\n");
    out.push_str(&tables);
    out
}

/// The terms `--hold` names: each a term's name, or a group's (its names'
/// part before the dot, with the dot).
fn terms_named(names: &[String]) -> Result<Vec<Term>> {
    let mut terms = Vec::new();
    for name in names {
        let found: Vec<Term> = if name.ends_with('.') {
            Term::all()
                .filter(|t| t.name().starts_with(name.as_str()))
                .collect()
        } else {
            Term::named(name).into_iter().collect()
        };
        if found.is_empty() {
            let groups: std::collections::BTreeSet<String> = Term::all()
                .filter_map(|t| Some(t.name().split_once('.')?.0.to_string() + "."))
                .collect();
            bail!(
                "--hold {name}: no such term or group (groups: {}; a term is named as `voidmate tune` reports it, such as material.rook)",
                groups.into_iter().collect::<Vec<_>>().join(" ")
            );
        }
        terms.extend(found);
    }
    Ok(terms)
}

#[derive(Args, Debug)]
pub struct WinCurveArgs {
    #[arg(long)]
    pub variant: String,
    /// Files written by `voidmate tune-data` (repeat for several).
    #[arg(long, required = true)]
    pub data: Vec<PathBuf>,
}

/// `voidmate win-curve`: how often a side with a given search score went on
/// to win, as the coefficient `c` of lichess's curve `2 / (1 + e^(−c·cp)) −
/// 1`: the least-squares logistic fit of each position's search score to
/// its game's result (`voidmate_engine::tune::score_scale`), whose
/// `1 / (1 + 10^(−k·cp/400))` is the same curve with `c = k · ln 10 / 400`.
pub fn win_curve(args: &WinCurveArgs) -> Result<String> {
    let kind = kind_named(&args.variant)?;
    let samples = read_samples(kind, &args.data)?;
    let Some((k, scored)) = voidmate_engine::tune::score_scale(&samples) else {
        bail!("no position in the data has a search score (files from tune-data after 2026-11-24 have them)");
    };
    let c = k * std::f64::consts::LN_10 / 400.0;
    Ok(format!(
        "{}: {scored} positions with a score; k {k:.4}, c {c:.6} (lichess's standard chess: 0.003682)\n",
        args.variant
    ))
}

/// `voidmate tune`: tunes a game's weights on `tune-data` positions.
pub fn tune_weights(args: &TuneArgs) -> Result<String> {
    let kind = kind_named(&args.variant)?;
    let start = Instant::now();
    if !(0.0..=1.0).contains(&args.lambda) {
        bail!(
            "--lambda {}: the result's share of the target is from 0 to 1",
            args.lambda
        );
    }
    // Asked before the data is read, which can take a while.
    let hold = terms_named(&args.hold)?;
    let mut samples = read_samples(kind, &args.data)?;
    let blended = if args.lambda < 1.0 {
        blend(&mut samples, args.lambda)
    } else {
        None
    };
    eprintln!(
        "{} positions read in {:.0} s",
        samples.len(),
        start.elapsed().as_secs_f64()
    );
    let from = eval::Weights::untuned(Some(kind));
    let options = Options {
        iterations: args.iterations,
        l2: args.l2,
        hold,
    };
    let tuned = tune(&samples, from, options, |it, e| {
        eprintln!("pass {it}/{}: error {e:.6}", args.iterations)
    });
    let mut out = format!(
        "{}: {} positions, k {:.3}, error {:.6} -> {:.6} ({} passes, {:.0} s)\n",
        kind.name(),
        samples.len(),
        tuned.k,
        tuned.error_before,
        tuned.error_after,
        args.iterations,
        start.elapsed().as_secs_f64()
    );
    if args.lambda < 1.0 {
        let _ = match blended {
            Some(k) => writeln!(
                out,
                "  targets: {:.2} result, {:.2} search score (scores read with k {k:.3})",
                args.lambda,
                1.0 - args.lambda
            ),
            None => writeln!(
                out,
                "  targets: results only (no position in the data has a search score)"
            ),
        };
    }
    for t in eval::Term::all() {
        let (i, w) = (t.index(), &tuned.weights);
        if (w.mg[i], w.eg[i]) != (from.mg[i], from.eg[i]) {
            let _ = writeln!(
                out,
                "  {:<28} {:>5} {:>5}  (from {} {})",
                t.name(),
                w.mg[i],
                w.eg[i],
                from.mg[i],
                from.eg[i]
            );
        }
    }
    // Terms of roles and tiles this game does not have are never counted;
    // name only the game's own terms that had a weight to keep.
    let kept: Vec<String> = tuned
        .unseen
        .iter()
        .filter(|t| t.role().is_none() && (from.mg[t.index()] != 0 || from.eg[t.index()] != 0))
        .map(|t| t.name())
        .collect();
    let _ = writeln!(
        out,
        "  {} terms never counted (pieces and tiles this game lacks); of this game's own, kept as they were: {}",
        tuned.unseen.len(),
        if kept.is_empty() {
            "none".to_string()
        } else {
            kept.join(", ")
        }
    );
    let (asked, always): (Vec<Term>, Vec<Term>) = tuned
        .held
        .iter()
        .copied()
        .partition(|t| !voidmate_engine::tune::HELD.contains(t));
    for (held, why) in [(always, "the results cannot teach them"), (asked, "--hold")] {
        if !held.is_empty() {
            let names: Vec<String> = held.iter().map(|t| t.name()).collect();
            let _ = writeln!(
                out,
                "  held at their starting weights ({why}): {}",
                names.join(", ")
            );
        }
    }
    if let Some(path) = &args.write {
        let lines = table_lines(kind, &tuned.weights);
        let old = std::fs::read_to_string(path).unwrap_or_default();
        std::fs::write(path, weights_file(kind, &lines, &old))
            .with_context(|| format!("cannot write {}", path.display()))?;
        let _ = writeln!(out, "written to {}", path.display());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writing_one_games_weights_keeps_the_others() {
        let standard = vec!["(\"material.pawn\", 90, 110),".to_string()];
        let first = weights_file(GameKind::Standard, &standard, "");
        assert!(first.contains("Some(GameKind::Standard) => STANDARD,"));
        let void = vec!["(\"void.king-voids\", -20, -10),".to_string()];
        let second = weights_file(GameKind::Void, &void, &first);
        let tables = tables_in(&second);
        assert_eq!(tables["STANDARD"], standard);
        assert_eq!(tables["VOID"], void);
        assert!(second.contains("Some(GameKind::Void) => VOID,"));
        // A game tuned to no change drops its table.
        let third = weights_file(GameKind::Standard, &[], &second);
        assert!(!tables_in(&third).contains_key("STANDARD"));
        assert!(third.contains("Some(GameKind::Standard) => &[],"));
        assert!(third.contains("Some(GameKind::Defined(_)) | None => &[],"));
        assert!(!third.contains("_ =>"));
    }

    /// Regression: the writer once left out the arm of the games defined in
    /// a file, and the file it wrote did not compile. Rewriting the weights
    /// the engine plays with, each game with its own table, changes nothing.
    #[test]
    fn rewriting_the_engines_weights_with_their_own_tables_changes_nothing() {
        let current = include_str!("../../../engine/src/eval/weights.rs");
        let tables = tables_in(current);
        assert!(tables.len() >= 7, "{:?}", tables.keys());
        for kind in GameKind::ALL {
            let name = kind.name().to_uppercase().replace('-', "_");
            let rows = tables.get(&name).cloned().unwrap_or_default();
            assert_eq!(weights_file(kind, &rows, current), current, "{name}");
        }
    }
}
