//! Opening sets for engine matches: `voidmate openings` writes one, and
//! `engine-match --openings` reads it.
//!
//! A match from the start position alone would replay the same few games;
//! purely random first plies give lopsided ones (a queen left hanging). An
//! opening here is a few plies each picked at random among the moves a short
//! search finds near the best, kept only if a longer search then calls the
//! position level. Engine testers' books are built the same way.

use anyhow::{bail, Context as _, Result};
use clap::Args;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use voidmate_engine::{search, Features, Limits, Table};
use voidmate_rules::{variant, Position, Rules};

/// The most openings a file may hold, and the longest line read.
const MAX_OPENINGS: usize = 100_000;
const MAX_LINE: usize = 4_096;

#[derive(Args, Debug)]
pub struct OpeningsArgs {
    #[arg(long, default_value = "standard")]
    pub variant: String,
    /// How many openings to write.
    #[arg(long, default_value_t = 100)]
    pub count: usize,
    /// Plies each opening plays from the start.
    #[arg(long, default_value_t = 8)]
    pub plies: u32,
    /// Nodes of the short search that picks each ply.
    #[arg(long, default_value_t = 2_000)]
    pub nodes: u64,
    /// Keep an opening only if a search of ten times those nodes scores it
    /// within this many centipawns of level.
    #[arg(long, default_value_t = 80)]
    pub balance: i32,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write here instead of standard output.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// `voidmate openings`.
pub fn openings(args: &OpeningsArgs) -> Result<String> {
    let rules = variant(&args.variant)?;
    if args.count == 0 || args.count > MAX_OPENINGS {
        bail!("--count must be 1 to {MAX_OPENINGS}, not {}", args.count);
    }
    let features = Features::for_game(rules.kind());
    let mut table = Table::new(1 << 18);
    let mut seen = HashSet::new();
    let mut fens = Vec::new();
    let mut tries = 0u64;
    // A game whose openings keep being lopsided or alike is given up on
    // rather than searched for ever.
    let most_tries = 50 * args.count as u64 + 100;
    while fens.len() < args.count && tries < most_tries {
        tries += 1;
        let mut pos = Position::new(rules);
        for ply in 0..args.plies {
            if pos.outcome().is_some() {
                break;
            }
            let limits = Limits {
                features,
                // Each root move's score moves by up to this much: a pick
                // among the moves near the best.
                noise: 30,
                seed: args.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ tries << 8 ^ ply as u64,
                ..Limits::nodes(args.nodes)
            };
            let Some(r) = search(&pos, &limits, &mut table) else {
                break;
            };
            pos.play_unchecked(&r.best);
        }
        if pos.outcome().is_some() {
            continue;
        }
        let fen = pos.fen();
        if seen.contains(&fen) {
            continue;
        }
        let judge = Limits {
            features,
            ..Limits::nodes(args.nodes * 10)
        };
        let level = search(&pos, &judge, &mut table).is_some_and(|r| r.score.abs() <= args.balance);
        seen.insert(fen.clone());
        if level {
            fens.push(fen);
        }
    }
    let mut text = format!(
        "# {}: {} openings, {} plies each picked among the moves a {}-node search finds near \
         the best, each within {} centipawns of level by a {}-node search\n\
         # voidmate openings --variant {} --count {} --plies {} --nodes {} --balance {} --seed {}\n",
        rules.name(),
        fens.len(),
        args.plies,
        args.nodes,
        args.balance,
        args.nodes * 10,
        args.variant,
        args.count,
        args.plies,
        args.nodes,
        args.balance,
        args.seed,
    );
    for f in &fens {
        let _ = writeln!(text, "{f}");
    }
    let short = if fens.len() < args.count {
        format!(
            " (asked for {}: the rest came out lopsided or alike after {tries} tries)",
            args.count
        )
    } else {
        String::new()
    };
    match &args.out {
        Some(path) => {
            std::fs::write(path, &text)
                .with_context(|| format!("cannot write {}", path.display()))?;
            Ok(format!(
                "{}: {} openings in {}{short}\n",
                rules.name(),
                fens.len(),
                path.display()
            ))
        }
        None => Ok(text),
    }
}

/// An opening set read from a file: positions as FEN, each checked.
pub struct Openings {
    fens: Vec<String>,
}

impl Openings {
    /// The `i`-th opening, counting round the set.
    pub fn position(&self, rules: &'static Rules, i: usize) -> Result<Position> {
        let fen = &self.fens[i % self.fens.len()];
        Ok(Position::from_fen(rules, fen)?)
    }
}

/// Reads an opening set of `rules`' game from `path`: one FEN a line,
/// blank lines and `#` comments skipped. Every line must be a position of
/// that game with a game still to play; the first that is not is named.
pub fn opening_fens(path: &Path, rules: &'static Rules) -> Result<Openings> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read openings from {}", path.display()))?;
    let mut fens = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = || format!("{} line {}", path.display(), n + 1);
        if line.len() > MAX_LINE {
            bail!("{}: longer than {MAX_LINE} bytes", at());
        }
        if fens.len() == MAX_OPENINGS {
            bail!("{}: more than {MAX_OPENINGS} openings", at());
        }
        let pos = Position::from_fen(rules, line)
            .map_err(|e| anyhow::anyhow!("{}: not a {} position: {e}", at(), rules.name()))?;
        if pos.outcome().is_some() {
            bail!("{}: the game is already over there", at());
        }
        fens.push(line.to_string());
    }
    if fens.is_empty() {
        bail!("{} holds no openings", path.display());
    }
    Ok(Openings { fens })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> tempfile::NamedTempFile {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        std::io::Write::write_all(&mut f, text.as_bytes()).unwrap();
        f
    }

    #[test]
    fn a_written_set_reads_back_level_and_distinct() {
        let rules = variant("standard").unwrap();
        let out = tempfile::NamedTempFile::new().unwrap();
        let args = OpeningsArgs {
            variant: "standard".into(),
            count: 6,
            plies: 6,
            nodes: 300,
            balance: 80,
            seed: 3,
            out: Some(out.path().to_path_buf()),
        };
        openings(&args).unwrap();
        let set = opening_fens(out.path(), rules).unwrap();
        assert_eq!(set.fens.len(), 6);
        let distinct: HashSet<_> = set.fens.iter().collect();
        assert_eq!(distinct.len(), 6);
        for (i, f) in set.fens.iter().enumerate() {
            let pos = set.position(rules, i).unwrap();
            assert_eq!(&pos.fen(), f);
            // Six plies from the start: White to move at move 4.
            assert_eq!(pos.board().fullmove_number(), 4, "{f}");
        }
        // The same seed writes the same set.
        let again = tempfile::NamedTempFile::new().unwrap();
        openings(&OpeningsArgs {
            out: Some(again.path().to_path_buf()),
            ..args
        })
        .unwrap();
        assert_eq!(
            std::fs::read_to_string(out.path()).unwrap(),
            std::fs::read_to_string(again.path()).unwrap()
        );
    }

    #[test]
    fn a_bad_line_is_named_by_its_number() {
        let rules = variant("standard").unwrap();
        let f = file(
            "# a comment\n\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nnot a fen\n",
        );
        let e = opening_fens(f.path(), rules).err().unwrap().to_string();
        assert!(
            e.contains("line 4") && e.contains("not a standard position"),
            "{e}"
        );
        let over = file("7k/5KQ1/8/8/8/8/8/8 b - - 0 1\n");
        let e = opening_fens(over.path(), rules).err().unwrap().to_string();
        assert!(e.contains("already over"), "{e}");
        let empty = file("# nothing\n");
        let e = opening_fens(empty.path(), rules).err().unwrap().to_string();
        assert!(e.contains("no openings"), "{e}");
        let multi_byte = file("♛♛♛/日本 w - - 0 1\n");
        let e = opening_fens(multi_byte.path(), rules)
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.contains("line 1") && e.contains("not a standard position"),
            "{e}"
        );
        let long = file(&"x".repeat(MAX_LINE + 1));
        let e = opening_fens(long.path(), rules).err().unwrap().to_string();
        assert!(e.contains("longer than"), "{e}");
    }

    #[test]
    fn every_stored_set_is_read_whole() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine/tests/data/openings");
        let mut seen = 0;
        for rules in voidmate_rules::variants::all() {
            let path = dir.join(format!("{}.txt", rules.name()));
            if !path.exists() {
                continue;
            }
            let set = opening_fens(&path, rules).unwrap();
            assert!(
                set.fens.len() >= 50,
                "{}: {}",
                path.display(),
                set.fens.len()
            );
            seen += 1;
        }
        assert!(
            seen >= 7,
            "a stored set for each of our seven games, found {seen}"
        );
    }
}
