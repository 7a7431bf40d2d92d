//! Inspection commands: plain text about positions, for people and scripts.

use anyhow::{bail, Context, Result};
use clap::Args;
use voidmate_render::{Caption, RenderOptions, Renderer, Theme};
use voidmate_rules::{variant, Color, Move, Position, Square};

/// `--variant`'s help: every game, written from the list of games so that
/// a new game is named there too (the shipped variants files' games too).
fn variant_help() -> String {
    let names: Vec<&str> = voidmate_rules::GameKind::ALL
        .iter()
        .map(|k| k.name())
        .chain(voidmate_rules::defined::all().into_iter().map(|r| r.name()))
        .collect();
    format!(
        "The game: {}, or one from a file (`--variants-file`)",
        names.join(", ")
    )
}

#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    #[arg(long, default_value = "standard", help = variant_help())]
    pub variant: String,
    /// Start from this FEN instead of the variant's start position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves to play first, SAN or coordinates, separated by spaces.
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Variants files whose games `--variant` may name (docs/variants.md).
    #[arg(long = "variants-file")]
    pub variants_file: Vec<std::path::PathBuf>,
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

#[derive(Args, Debug)]
pub struct RenderArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Mark the legal moves of the piece on this square (a piece of the
    /// side not to move: its moves on its next turn).
    #[arg(long)]
    pub select: Option<String>,
    /// Draw only an 8x8 window of the board around this square, full size.
    #[arg(long)]
    pub zoom: Option<String>,
    /// Show the board from Black's side.
    #[arg(long)]
    pub flip: bool,
    /// classic or high-contrast.
    #[arg(long, default_value = "classic")]
    pub theme: String,
    /// Arrows, as from-to square pairs: "e2e4,g1f3".
    #[arg(long)]
    pub arrows: Option<String>,
    /// Add a caption strip with these player names: "alice,bob".
    #[arg(long)]
    pub players: Option<String>,
    /// Piece colours for White and Black: "red,blue" (white, black, red,
    /// blue, green, gold, silver, purple, orange, pink, teal, brown).
    #[arg(long)]
    pub colours: Option<String>,
    /// Where to write the PNG.
    #[arg(long)]
    pub out: std::path::PathBuf,
}

/// The position the arguments describe; a bad move says which and why.
pub fn position(args: &PositionArgs) -> Result<Position> {
    Ok(replay(args)?.0)
}

/// The position and the last move played to reach it, if any.
/// The holes a relativistic move of Black Holes passed through.
type Through = Option<(Square, Square)>;

/// The position after the moves, the last move, and the holes it passed
/// through if it was a relativistic move of Black Holes.
pub fn replay(args: &PositionArgs) -> Result<(Position, Option<Move>, Through)> {
    voidmate::variants::load_files(&args.variants_file)?;
    let rules = variant(&args.variant)?;
    let mut pos = match &args.fen {
        Some(fen) => Position::from_fen(rules, fen).with_context(|| format!("FEN '{fen}'"))?,
        None => Position::new(rules),
    };
    let (mut last, mut through) = (None, None);
    // Move numbers, apart ("1. e4") or joined ("1.e4"), are skipped.
    for (i, text) in voidmate_rules::san::movetext(&args.moves).enumerate() {
        if let Some(outcome) = pos.outcome() {
            bail!(
                "move {} ({text}): the game is already over: {outcome}",
                i + 1
            );
        }
        let before = pos.clone();
        let (mv, _) = pos
            .play_text(text)
            .with_context(|| format!("move {} of --moves", i + 1))?;
        through = before.holes_passed(&mv);
        last = Some(mv);
    }
    Ok((pos, last, through))
}

fn board_square(pos: &Position, s: &str) -> Result<Square> {
    Square::parse(s)
        .filter(|&sq| pos.rules().size().contains(sq))
        .with_context(|| {
            format!(
                "'{s}' is not a square of this board ({})",
                pos.rules().size().describe()
            )
        })
}

pub fn render(args: &RenderArgs) -> Result<String> {
    let (pos, last, through) = replay(&args.position)?;
    let theme = Theme::from_name(&args.theme).with_context(|| {
        format!(
            "'{}' is not a theme; use classic or high-contrast",
            args.theme
        )
    })?;
    let select = args
        .select
        .as_deref()
        .map(|s| board_square(&pos, s))
        .transpose()?;
    let zoom = args
        .zoom
        .as_deref()
        .map(|s| board_square(&pos, s))
        .transpose()?;
    let mut arrows = Vec::new();
    for pair in args.arrows.iter().flat_map(|a| a.split(',')) {
        let pair = pair.trim();
        if pair.is_empty() {
            bail!("--arrows has an empty item: give squares in pairs, like e2e4,g1f3");
        }
        // The second square starts at the first letter after the first.
        let split = pair
            .char_indices()
            .skip(1)
            .find(|(_, c)| c.is_ascii_alphabetic())
            .map(|(i, _)| i);
        let Some(split) = split else {
            bail!("arrow '{pair}' should be two squares, like e2e4");
        };
        arrows.push((
            board_square(&pos, &pair[..split])?,
            board_square(&pos, &pair[split..])?,
        ));
    }
    let caption = args.players.as_deref().map(|p| {
        let mut names = p.splitn(2, ',');
        let white = names.next().unwrap_or("").trim().to_string();
        let black = names.next().unwrap_or("").trim().to_string();
        let status = match pos.outcome() {
            Some(o) => format!("{} {}", o.score(), o),
            None => format!("{} to move", pos.turn()),
        };
        Caption {
            white,
            black,
            status,
            sides: None,
        }
    });
    let colours = match args.colours.as_deref() {
        None => None,
        Some(text) => {
            let mut paints = Vec::new();
            for name in text.split(',') {
                paints.push(voidmate_render::PieceColour::from_name(name).with_context(|| {
                    format!("'{}' is not a piece colour; try red, blue, green, gold, silver, purple, orange, pink, teal, brown, white or black", name.trim())
                })?);
            }
            match paints.as_slice() {
                [w, b] => Some([*w, *b]),
                _ => bail!("--colours takes two colours, White's and Black's: red,blue"),
            }
        }
    };
    let opts = RenderOptions {
        orientation: if args.flip {
            Color::Black
        } else {
            Color::White
        },
        theme,
        last_move: last.map(|m| (m.from, m.to)),
        select,
        arrows,
        caption,
        colours,
        through,
        zoom,
    };
    let png = Renderer::shared().render(&pos, &opts);
    std::fs::write(&args.out, &png)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    Ok(format!("{} ({} bytes)\n", args.out.display(), png.len()))
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
