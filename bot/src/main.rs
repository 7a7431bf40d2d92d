//! `voidmate`: the chess-variant bot. For now, the rules inspection commands.

mod inspect;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "voidmate",
    version,
    about = "Voidmate, a chess-variant bot for Discord and Matrix"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the legal moves of a position, one SAN a line.
    Moves(inspect::MovesArgs),
    /// Count the leaf nodes of the legal move tree (the count is the last line).
    Perft(inspect::PerftArgs),
    /// Print the FEN after a sequence of moves.
    Fen(inspect::PositionArgs),
    /// Draw a position as a PNG board image.
    Render(inspect::RenderArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Moves(args) => inspect::moves(&args),
        Command::Perft(args) => inspect::perft(&args),
        Command::Fen(args) => inspect::fen(&args),
        Command::Render(args) => inspect::render(&args),
    };
    match result {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
