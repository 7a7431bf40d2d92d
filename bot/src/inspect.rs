//! Inspection commands: plain text about positions, for people and scripts.

use anyhow::{bail, Context, Result};
use clap::Args;
use voidmate_rules::{variant, Position, Square};

#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// Variant name (standard, void).
    #[arg(long, default_value = "standard")]
    pub variant: String,
    /// Start from this FEN instead of the variant's start position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves to play first, SAN or coordinates, separated by spaces.
    #[arg(long, default_value = "")]
    pub moves: String,
}

#[derive(Args, Debug)]
pub struct MovesArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Only the moves of the piece on this square.
    #[arg(long)]
    pub square: Option<String>,
}

#[derive(Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    #[arg(long)]
    pub depth: u32,
    /// Print the count below each first move, then the total.
    #[arg(long)]
    pub divide: bool,
}

/// The position the arguments describe; a bad move says which and why.
pub fn position(args: &PositionArgs) -> Result<Position> {
    let rules = variant(&args.variant)?;
    let mut pos = match &args.fen {
        Some(fen) => Position::from_fen(rules, fen).with_context(|| format!("FEN '{fen}'"))?,
        None => Position::new(rules),
    };
    for (i, text) in args.moves.split_whitespace().enumerate() {
        // Move numbers such as "1." or "12..." are skipped.
        if text
            .trim_end_matches('.')
            .chars()
            .all(|c| c.is_ascii_digit())
        {
            continue;
        }
        if let Some(outcome) = pos.outcome() {
            bail!(
                "move {} ({text}): the game is already over: {outcome}",
                i + 1
            );
        }
        pos.play_text(text)
            .with_context(|| format!("move {} of --moves", i + 1))?;
    }
    Ok(pos)
}

pub fn moves(args: &MovesArgs) -> Result<String> {
    let pos = position(&args.position)?;
    let square = match &args.square {
        Some(s) => {
            let sq = Square::parse(s)
                .filter(|&sq| pos.rules().size().contains(sq))
                .with_context(|| {
                    format!(
                        "'{s}' is not a square of this board ({})",
                        pos.rules().size().describe()
                    )
                })?;
            Some(sq)
        }
        None => None,
    };
    let mut out = String::new();
    for mv in pos
        .legal_moves()
        .iter()
        .filter(|m| square.is_none_or(|s| m.from == s))
    {
        out.push_str(&pos.san(mv));
        out.push('\n');
    }
    Ok(out)
}

pub fn perft(args: &PerftArgs) -> Result<String> {
    let pos = position(&args.position)?;
    if args.depth > 12 {
        bail!(
            "depth {} would take far too long; use 12 or less",
            args.depth
        );
    }
    let mut out = String::new();
    if args.divide {
        let mut total = 0;
        for (san, n) in pos.divide(args.depth) {
            out.push_str(&format!("{san}: {n}\n"));
            total += n;
        }
        out.push_str(&format!("{total}\n"));
    } else {
        out.push_str(&format!("{}\n", pos.perft(args.depth)));
    }
    Ok(out)
}

pub fn fen(args: &PositionArgs) -> Result<String> {
    Ok(format!("{}\n", position(args)?.fen()))
}
