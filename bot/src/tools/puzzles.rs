//! `voidmate puzzles measure`: how many puzzles our games give and what
//! finding them costs, on stored games (one file per game, one game a
//! line, its moves in coordinates: `game/tests/data/games/`), against the
//! cost of reviewing the same games. The figures of `docs/performance.md`.

use anyhow::{bail, Context as _, Result};
use clap::Args;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use voidmate_engine::puzzle::{self, Thresholds};
use voidmate_engine::{Features, Limits, Table};
use voidmate_rules::{GameKind, Position};

#[derive(Args, Debug)]
pub struct MeasureArgs {
    /// The folder of stored games: `<game>.txt` for each game measured.
    #[arg(long, default_value = "game/tests/data/games")]
    pub games: PathBuf,
    /// The effort of each search of a puzzle's line, in nodes (the scan
    /// for candidates takes a quarter): `[engine] puzzle_nodes`.
    #[arg(long, default_value_t = 150_000)]
    pub nodes: u64,
    /// The effort per position of a review: `[engine] review_nodes`.
    #[arg(long = "review-nodes", default_value_t = 150_000)]
    pub review_nodes: u64,
    /// How many games of each game are also reviewed, for the comparison.
    #[arg(long = "review-games", default_value_t = 3)]
    pub review_games: usize,
    /// Only this game (its name, as `variants` lists it).
    #[arg(long)]
    pub variant: Option<String>,
}

/// A stored game's positions from the start, each carrying its history.
pub fn replay(kind: GameKind, line: &str) -> Result<Vec<Position>> {
    let mut pos = Position::new(kind.rules());
    let mut out = vec![pos.clone()];
    for (i, text) in line.split_whitespace().enumerate() {
        let mv = pos
            .parse_move(text)
            .map_err(|e| anyhow::anyhow!("move {} `{text}`: {e}", i + 1))?;
        pos = pos.after(&mv);
        out.push(pos.clone());
    }
    Ok(out)
}

/// Every stored game of `kind` under `dir`.
pub fn stored_games(dir: &Path, kind: GameKind) -> Result<Vec<Vec<Position>>> {
    let path = dir.join(format!("{}.txt", kind.name()));
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| replay(kind, l).with_context(|| format!("{} game {}", path.display(), i + 1)))
        .collect()
}

/// What one game's measurement found.
#[derive(Default)]
struct Tally {
    games: usize,
    plies: usize,
    puzzles: usize,
    themes: BTreeMap<String, usize>,
    search: Duration,
    reviewed_plies: usize,
    review: Duration,
}

pub fn measure(args: &MeasureArgs) -> Result<String> {
    let kinds: Vec<GameKind> = match &args.variant {
        Some(name) => match GameKind::from_name(name) {
            Some(k) => vec![k],
            None => bail!("`{name}` is not a game I play (`voidmate variants` lists them)"),
        },
        None => GameKind::ALL
            .into_iter()
            .filter(|k| args.games.join(format!("{}.txt", k.name())).exists())
            .collect(),
    };
    if kinds.is_empty() {
        bail!(
            "no stored games under {} (`<game>.txt`, a game a line)",
            args.games.display()
        );
    }
    let mut out = String::from(
        "| game | games | plies a game | puzzles | per 100 games | themes of our games | search a game | a 60-ply game: search / review |\n|---|---|---|---|---|---|---|---|\n",
    );
    for kind in kinds {
        let games = stored_games(&args.games, kind)?;
        let t = Thresholds::for_curve(voidmate::game::review::coefficient(kind));
        let limits = |nodes: u64| Limits {
            features: Features::for_puzzles(Some(kind)),
            nodes: Some(nodes.max(1)),
            time: None,
            ..Limits::default()
        };
        let mut tally = Tally::default();
        let mut table = Table::new(1 << 20);
        for (i, positions) in games.iter().enumerate() {
            // As the bot does without a stored review: a scan at a quarter
            // of the effort, then each candidate solved, from a clear table.
            let started = Instant::now();
            table.clear();
            let scores = puzzle::scan(positions, &limits(args.nodes / 4), &mut table);
            let found = puzzle::find(positions, &scores, &limits(args.nodes), &mut table, &t);
            tally.search += started.elapsed();
            tally.games += 1;
            tally.plies += positions.len() - 1;
            tally.puzzles += found.len();
            for p in &found {
                for theme in &p.themes {
                    *tally.themes.entry(theme.name()).or_default() += 1;
                }
            }
            if i < args.review_games {
                let started = Instant::now();
                table.clear();
                let _ = puzzle::scan(positions, &limits(args.review_nodes), &mut table);
                tally.review += started.elapsed();
                tally.reviewed_plies += positions.len() - 1;
            }
            eprintln!(
                "{}: game {}/{}, {} puzzles so far",
                kind.name(),
                i + 1,
                games.len(),
                tally.puzzles
            );
        }
        let per_60 = |d: Duration, plies: usize| d.as_secs_f64() * 60.0 / plies.max(1) as f64;
        let ours: Vec<String> = tally
            .themes
            .iter()
            .filter(|(name, _)| {
                matches!(
                    puzzle::Theme::from_name(name),
                    Some(
                        puzzle::Theme::VoidCollapse
                            | puzzle::Theme::HoleTransport
                            | puzzle::Theme::VoidShift
                    )
                )
            })
            .map(|(name, n)| format!("{name} {n}"))
            .collect();
        let _ = writeln!(
            out,
            "| {} | {} | {:.0} | {} | {:.0} | {} | {:.2} s | {:.2} s / {:.2} s |",
            kind.title(),
            tally.games,
            tally.plies as f64 / tally.games.max(1) as f64,
            tally.puzzles,
            100.0 * tally.puzzles as f64 / tally.games.max(1) as f64,
            if ours.is_empty() {
                "-".to_string()
            } else {
                ours.join(", ")
            },
            tally.search.as_secs_f64() / tally.games.max(1) as f64,
            per_60(tally.search, tally.plies),
            per_60(tally.review, tally.reviewed_plies),
        );
    }
    Ok(out)
}
