//! The dispatcher: each command to its handler. Nothing else happens here.

use crate::command::Command;
use crate::ctx::Ctx;
use crate::done::Done;
use crate::error::Failure;
use crate::handlers::{
    after, challenge, ending, info, moves, offers, play, programs, puzzles, ratings, settings,
    tournament,
};

pub(crate) async fn execute(cx: &mut Ctx<'_>, cmd: Command) -> Result<Done, Failure> {
    match cmd {
        Command::Challenge { opponent, options } => {
            let opponent = cx.resolve(&opponent).await?;
            challenge::challenge(cx, &opponent, options).await
        }
        Command::Accept { challenger } => {
            let unknown = |who: &_| format!("{who} has not challenged you here.");
            let from = cx.resolve_if_named(challenger, unknown).await?;
            challenge::accept(cx, from).await
        }
        Command::Decline { other } => {
            let unknown = |who: &_| format!("You have no challenge with {who} here.");
            let other = cx.resolve_if_named(other, unknown).await?;
            challenge::decline(cx, other).await
        }
        Command::Move { text, game } => play::named_move(cx, &text, game).await,
        Command::Bare { text, game } => play::bare(cx, &text, game).await,
        Command::Board { game, zoom } => info::board(cx, game, zoom).await,
        Command::Moves { square, game } => moves::moves(cx, square, game).await,
        Command::Resign { game } => ending::resign(cx, game).await,
        Command::Offer { kind, answer, game } => offers::offer(cx, kind, answer, game).await,
        Command::Claim { text, game } => ending::claim(cx, text, game).await,
        Command::Games { finished: false } => info::games(cx).await,
        Command::Games { finished: true } => after::finished(cx).await,
        Command::History { game, pgn } => info::history(cx, game, pgn).await,
        Command::Replay { game } => info::replay(cx, game).await,
        Command::Analysis { game } => info::analysis(cx, game).await,
        Command::Variants => Ok(info::variants(cx.community())),
        Command::UnknownGame { name } => info::unknown_game(cx.community(), &name),
        Command::Rules { game, query } => info::rules(cx, game, &query).await,
        Command::Help { topic } => Ok(info::help(topic.as_deref())),
        Command::Settings { changes } => settings::settings(cx, &changes).await,
        Command::Direct => Ok(info::direct(cx)),
        Command::Program { text, game } => programs::program(cx, text, game).await,
        Command::Colour { colour, game } => programs::colour(cx, colour, game).await,
        Command::Rating { who, game } => ratings::rating(cx, who, game).await,
        Command::Leaderboard { game, pool } => ratings::leaderboard(cx, game, pool).await,
        Command::Profile { who } => ratings::profile(cx, who).await,
        Command::Rematch { game } => after::rematch(cx, game).await,
        Command::Abort { game } => after::abort(cx, game).await,
        Command::Tournament { id, action } => tournament::tournament(cx, id, action).await,
        Command::Puzzle { action } => puzzles::puzzle(cx, action).await,
    }
}
