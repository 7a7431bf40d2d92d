//! `voidmate tune-reach`: the odds behind a defined game's piece values,
//! tuned on the engine's own games (Texel's method, over one parameter).
//!
//! A game read from a file values its pieces by what they reach with each
//! square on the way taken at some odds ([`mobility`]). Those odds are the
//! model's one free choice; this command scores each odds in a range by how
//! well the values it gives predict the results of self-play games
//! (`voidmate tune-data` at a fixed number of nodes), over every game given
//! at once, and names the best. The procedure and each run are in
//! `engine/tuning/README.md` and `runs.md`.

use super::tune::{kind_named, read_samples};
use anyhow::{bail, Context, Result};
use clap::Args;
use std::fmt::Write as _;
use std::path::PathBuf;
use voidmate_engine::eval::mobility;
use voidmate_engine::tune::{error, fit_k};

#[derive(Args, Debug)]
pub struct ReachArgs {
    /// A game and a file written by `voidmate tune-data` for it, as
    /// `GAME=FILE` (repeat for several games).
    #[arg(long, required = true)]
    pub data: Vec<String>,
    /// The least odds tried.
    #[arg(long, default_value_t = 0.05)]
    pub from: f64,
    /// The greatest odds tried.
    #[arg(long, default_value_t = 0.6)]
    pub to: f64,
    /// The step between odds tried.
    #[arg(long, default_value_t = 0.025)]
    pub step: f64,
}

/// `voidmate tune-reach`: each odds' error over every game's positions, and
/// the best odds with the piece values they give.
pub fn tune_reach(args: &ReachArgs) -> Result<String> {
    if !(0.0..1.0).contains(&args.from) || !(args.from..1.0).contains(&args.to) || args.step <= 0.0
    {
        bail!("odds run from 0 up to below 1, `--from` no more than `--to`, with a step above 0");
    }
    let mut games = Vec::new();
    for item in &args.data {
        let (name, file) = item
            .split_once('=')
            .with_context(|| format!("`{item}`: write GAME=FILE, like capablanca=capa.txt"))?;
        let kind = kind_named(name)?;
        if !kind.is_defined() {
            bail!("`{name}` is one of our own games: its weights are tuned by `voidmate tune`");
        }
        let samples = read_samples(kind, &[PathBuf::from(file)])?;
        // The curve's scale from the values first derived, then held: the
        // odds alone move.
        let k = fit_k(
            &samples,
            &mobility::weights_at(kind.rules(), mobility::UNTUNED_TAKEN),
        );
        games.push((kind, samples, k));
    }
    let mut out = String::new();
    writeln!(out, "odds  mean squared error (positions weighted alike)")?;
    let total: usize = games.iter().map(|g| g.1.len()).sum();
    let mut best = (f64::MAX, args.from);
    let steps = ((args.to - args.from) / args.step).round() as usize;
    for i in 0..=steps {
        let taken = args.from + i as f64 * args.step;
        let e: f64 = games
            .iter()
            .map(|(kind, samples, k)| {
                error(samples, &mobility::weights_at(kind.rules(), taken), *k)
                    * samples.len() as f64
            })
            .sum::<f64>()
            / total as f64;
        writeln!(out, "{taken:.3} {e:.6}")?;
        if e < best.0 {
            best = (e, taken);
        }
    }
    let (e, taken) = best;
    writeln!(
        out,
        "best: {taken:.3} (error {e:.6}; {total} positions from {} games)",
        games.len()
    )?;
    for (kind, _, _) in &games {
        let rules = kind.rules();
        let values: Vec<String> = mobility::values_at(rules, taken)
            .into_iter()
            .filter_map(|(role, v)| rules.letter(role).map(|l| format!("{l} {v}")))
            .collect();
        writeln!(out, "  {}: {}", kind.name(), values.join(", "))?;
    }
    Ok(out)
}
