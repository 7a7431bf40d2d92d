//! The slash commands: each converts its options into the core's typed
//! [`Command`] and runs it; none reads or writes text the core would parse
//! again.

use super::choices::{
    AnswerChoice, FlipChoice, ModeChoice, PaintChoice, PoolChoice, SideChoice, ThemeChoice,
    TimeChoice,
};
use super::responder::{run, run_as};
use super::{player, Ctx, Data, Error};
use crate::game::command::{
    ChallengeOptions, ColorChoice, Command, Flip, OfferKind, Paint, ProgramMode, PuzzleAction,
    Setting, Someone, TimeControl,
};
use crate::game::help;
use crate::game::ratings::Pool;
use poise::serenity_prelude as serenity;
use serenity::{CreateAutocompleteResponse, User};
use voidmate_render::{PieceColour, Theme};
use voidmate_rules::GameKind;

/// Discord shows at most this many autocomplete suggestions.
const MAX_SUGGESTIONS: usize = 25;

async fn complete_move(ctx: Ctx<'_>, partial: &str) -> CreateAutocompleteResponse {
    let data = ctx.data();
    let me = player(ctx.author());
    let moves = data
        .core
        .suggest_moves(
            &ctx.channel_id().to_string(),
            &me.id,
            partial,
            MAX_SUGGESTIONS,
        )
        .await;
    move_choices(moves)
}

/// Moves offered as an autocomplete's choices, each its own value.
pub(super) fn move_choices(moves: Vec<String>) -> CreateAutocompleteResponse {
    CreateAutocompleteResponse::new().set_choices(
        moves
            .into_iter()
            .map(serenity::AutocompleteChoice::from)
            .collect(),
    )
}

/// The author's games here, newest first, for `rematch` and `abort`:
/// `#12 vs Bob (Void Chess), ended` with the number as the value.
async fn complete_game(ctx: Ctx<'_>, partial: &str) -> CreateAutocompleteResponse {
    let me = player(ctx.author());
    let channel = ctx.channel_id().to_string();
    let games = ctx
        .data()
        .core
        .suggest_games(&channel, &me.id, partial, MAX_SUGGESTIONS)
        .await;
    CreateAutocompleteResponse::new().set_choices(
        games
            .into_iter()
            .map(|(label, id)| serenity::AutocompleteChoice::new(label, id))
            .collect(),
    )
}

/// The games played here whose name or title holds what was typed (a
/// server's own games from files among them), each with its name as the
/// value: an autocomplete rather than a fixed list, so that a game added in
/// a file appears without registering the commands again.
pub(super) async fn complete_game_name(ctx: Ctx<'_>, partial: &str) -> CreateAutocompleteResponse {
    let community = ctx.guild_id().map(super::community);
    let games = crate::game::suggest::game_names(community.as_deref(), partial, MAX_SUGGESTIONS);
    CreateAutocompleteResponse::new().set_choices(
        games
            .into_iter()
            .map(|(label, name)| serenity::AutocompleteChoice::new(label, name))
            .collect(),
    )
}

/// The game a slash command's `variant` option names, or the command that
/// says it names none of ours (the option is typed freely, past the
/// autocomplete's offer).
pub(super) fn game_named(name: Option<String>) -> Result<Option<GameKind>, Command> {
    match name {
        None => Ok(None),
        Some(name) => GameKind::from_name(&name)
            .map(Some)
            .ok_or(Command::UnknownGame { name }),
    }
}

async fn complete_topic(_ctx: Ctx<'_>, partial: &str) -> CreateAutocompleteResponse {
    let partial = partial.to_ascii_lowercase();
    let keys = help::all_topics()
        .map(|t| t.key)
        .filter(|k| k.contains(partial.as_str()))
        .take(MAX_SUGGESTIONS)
        .map(serenity::AutocompleteChoice::from)
        .collect();
    CreateAutocompleteResponse::new().set_choices(keys)
}

/// Challenge someone to a game in this channel.
// A slash command's options are its arguments.
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command)]
async fn challenge(
    ctx: Ctx<'_>,
    #[description = "Who to play"] user: User,
    #[description = "Which game (Void Chess if not given)"]
    #[autocomplete = "complete_game_name"]
    variant: Option<String>,
    #[description = "Time control (none if not given)"] time: Option<TimeChoice>,
    #[description = "Your side (White, who moves first, if not given)"] color: Option<SideChoice>,
    #[description = "When you challenge me: my level, 1 (beginner) to 5 (full strength)"]
    #[min = 1]
    #[max = 5]
    level: Option<u8>,
    #[description = "Super Chess 16x16: reprogrammed pieces (default: none)"] programs: Option<
        ModeChoice,
    >,
    #[description = "Play the game in a thread of its own (default: this channel's setting)"]
    thread: Option<bool>,
    #[description = "Rated (the default in a server) or casual"] rated: Option<bool>,
) -> Result<(), Error> {
    let variant = match game_named(variant) {
        Ok(v) => v,
        Err(refusal) => return run(ctx, refusal).await,
    };
    let cmd = Command::Challenge {
        opponent: Someone::Known(player(&user)),
        options: ChallengeOptions {
            variant,
            time: time.map(TimeControl::from),
            color: color.map(ColorChoice::from),
            level,
            mode: programs.map(ProgramMode::from),
            thread,
            rated,
        },
    };
    run(ctx, cmd).await
}

/// Super Chess: send or see your private program (only you see the answer).
#[poise::command(slash_command)]
async fn program(
    ctx: Ctx<'_>,
    #[description = "Like `N: jump 2,1 1,2; R: slide 1,0` or `default`; empty shows yours"]
    program: Option<String>,
    #[description = "Game number, when you have several waiting"] game: Option<i64>,
) -> Result<(), Error> {
    // Never in the channel: the answer goes to the author alone.
    run_as(ctx, Command::program(program.as_deref(), game), true).await
}

/// Super Chess: write (or show) the roster of your symmetric challenge here.
#[poise::command(slash_command)]
async fn roster(
    ctx: Ctx<'_>,
    #[description = "Like `N: jump 2,1 1,2; R: slide 1,0`; empty shows the current one"]
    program: Option<String>,
) -> Result<(), Error> {
    run(ctx, Command::program(program.as_deref(), None)).await
}

/// Choose the colour of your pieces in your game here.
#[poise::command(slash_command)]
async fn colour(
    ctx: Ctx<'_>,
    #[description = "The colour"] colour: Option<PaintChoice>,
    #[description = "Game number"] game: Option<i64>,
) -> Result<(), Error> {
    let colour = colour.map(|c| Paint::Known(PieceColour::from(c)));
    run(ctx, Command::Colour { colour, game }).await
}

/// Accept a challenge waiting for you here.
#[poise::command(slash_command)]
async fn accept(
    ctx: Ctx<'_>,
    #[description = "Whose challenge (if several)"] user: Option<User>,
) -> Result<(), Error> {
    let challenger = user.map(|u| Someone::Known(player(&u)));
    run(ctx, Command::Accept { challenger }).await
}

/// Decline a challenge, or withdraw your own.
#[poise::command(slash_command)]
async fn decline(
    ctx: Ctx<'_>,
    #[description = "Whose challenge (if several)"] user: Option<User>,
) -> Result<(), Error> {
    let other = user.map(|u| Someone::Known(player(&u)));
    run(ctx, Command::Decline { other }).await
}

/// Play a move in your game here.
#[poise::command(slash_command, rename = "move")]
async fn play(
    ctx: Ctx<'_>,
    #[description = "The move, like e4, Nf3, O-O or e2e4"]
    #[rename = "move"]
    #[autocomplete = "complete_move"]
    mv: String,
    #[description = "Game number, when you play several here"] game: Option<i64>,
) -> Result<(), Error> {
    run(ctx, Command::play(&mv, game)).await
}

/// Show the board of the game here.
#[poise::command(slash_command)]
async fn board(
    ctx: Ctx<'_>,
    #[description = "Game number"] game: Option<i64>,
    #[description = "Look closer: an 8x8 window around a square, like h9"] zoom: Option<String>,
) -> Result<(), Error> {
    let zoom = zoom.map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
    run(ctx, Command::Board { game, zoom }).await
}

/// List the legal moves, or those of the piece on one square.
#[poise::command(slash_command)]
async fn moves(
    ctx: Ctx<'_>,
    #[description = "A square, like e2"] square: Option<String>,
    #[description = "Game number"] game: Option<i64>,
) -> Result<(), Error> {
    let square = square
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty());
    run(ctx, Command::Moves { square, game }).await
}

/// Resign your game here.
#[poise::command(slash_command)]
async fn resign(
    ctx: Ctx<'_>,
    #[description = "Game number"] game: Option<i64>,
) -> Result<(), Error> {
    run(ctx, Command::Resign { game }).await
}

/// Offer a draw, or answer an offer.
#[poise::command(slash_command)]
async fn draw(
    ctx: Ctx<'_>,
    #[description = "Offer, accept or decline"] answer: Option<AnswerChoice>,
    #[description = "Game number"] game: Option<i64>,
) -> Result<(), Error> {
    let answer = AnswerChoice::answer(answer);
    let kind = OfferKind::Draw;
    run(ctx, Command::Offer { kind, answer, game }).await
}

/// Ask to take back your last move, or answer such a request.
#[poise::command(slash_command)]
async fn undo(
    ctx: Ctx<'_>,
    #[description = "Ask, accept or decline"] answer: Option<AnswerChoice>,
    #[description = "Game number"] game: Option<i64>,
) -> Result<(), Error> {
    let answer = AnswerChoice::answer(answer);
    let kind = OfferKind::Takeback;
    run(ctx, Command::Offer { kind, answer, game }).await
}

/// Claim a Chess 99 draw: both kings attacked, or the 99-move rule with your move.
#[poise::command(slash_command)]
async fn claim(
    ctx: Ctx<'_>,
    #[description = "Your move, for a 99-move claim"]
    #[rename = "move"]
    #[autocomplete = "complete_move"]
    mv: Option<String>,
    #[description = "Game number"] game: Option<i64>,
) -> Result<(), Error> {
    run(ctx, Command::claim(mv.as_deref(), game)).await
}

/// The games and challenges in this channel, or the last games to end here.
#[poise::command(slash_command)]
async fn games(
    ctx: Ctx<'_>,
    #[description = "The last 10 games to end here, with results"] finished: Option<bool>,
) -> Result<(), Error> {
    let finished = finished == Some(true);
    run(ctx, Command::Games { finished }).await
}

/// A player's ratings in this server.
#[poise::command(slash_command)]
async fn rating(
    ctx: Ctx<'_>,
    #[description = "Whose (yours if not given)"] user: Option<User>,
    #[description = "Which game (all you have played if not given)"]
    #[autocomplete = "complete_game_name"]
    variant: Option<String>,
    #[description = "Puzzle ratings instead of game ratings"] puzzles: Option<bool>,
) -> Result<(), Error> {
    let who = user.map(|u| Someone::Known(player(&u)));
    let game = match game_named(variant) {
        Ok(g) => g,
        Err(refusal) => return run(ctx, refusal).await,
    };
    if puzzles == Some(true) {
        let action = PuzzleAction::Rating { who, game };
        return run(ctx, Command::Puzzle { action }).await;
    }
    run(ctx, Command::Rating { who, game }).await
}

/// The best players in this server, in a game and pool.
#[poise::command(slash_command)]
async fn leaderboard(
    ctx: Ctx<'_>,
    #[description = "Which game (the most played here if not given)"]
    #[autocomplete = "complete_game_name"]
    variant: Option<String>,
    #[description = "Which pool (live if not given)"] pool: Option<PoolChoice>,
    #[description = "The best puzzle solvers instead"] puzzles: Option<bool>,
) -> Result<(), Error> {
    let game = match game_named(variant) {
        Ok(g) => g,
        Err(refusal) => return run(ctx, refusal).await,
    };
    if puzzles == Some(true) {
        let action = PuzzleAction::Leaderboard { game };
        return run(ctx, Command::Puzzle { action }).await;
    }
    let pool = pool.map(Pool::from);
    run(ctx, Command::Leaderboard { game, pool }).await
}

/// A player's games, results, streak and best rating in this server.
#[poise::command(slash_command)]
async fn profile(
    ctx: Ctx<'_>,
    #[description = "Whose (yours if not given)"] user: Option<User>,
) -> Result<(), Error> {
    let who = user.map(|u| Someone::Known(player(&u)));
    run(ctx, Command::Profile { who }).await
}

/// Challenge your last opponent here to the same game again, sides swapped.
#[poise::command(slash_command)]
async fn rematch(
    ctx: Ctx<'_>,
    #[description = "Which game (your last here if not given)"]
    #[autocomplete = "complete_game"]
    game: Option<i64>,
) -> Result<(), Error> {
    run(ctx, Command::Rematch { game }).await
}

/// Call off your game before both sides have moved: no result, not rated.
#[poise::command(slash_command)]
async fn abort(
    ctx: Ctx<'_>,
    #[description = "Which game"]
    #[autocomplete = "complete_game"]
    game: Option<i64>,
) -> Result<(), Error> {
    run(ctx, Command::Abort { game }).await
}

/// The engine's review of a finished game.
#[poise::command(slash_command)]
async fn analysis(
    ctx: Ctx<'_>,
    #[description = "Game number"] game: Option<i64>,
) -> Result<(), Error> {
    run(ctx, Command::Analysis { game }).await
}

/// An animated replay of a game, finished or not.
#[poise::command(slash_command)]
async fn replay(
    ctx: Ctx<'_>,
    #[description = "Game number"] game: Option<i64>,
) -> Result<(), Error> {
    run(ctx, Command::Replay { game }).await
}

/// The moves of a game so far.
#[poise::command(slash_command)]
async fn history(
    ctx: Ctx<'_>,
    #[description = "Game number"] game: Option<i64>,
    #[description = "As PGN"] pgn: Option<bool>,
) -> Result<(), Error> {
    let pgn = pgn == Some(true);
    run(ctx, Command::History { game, pgn }).await
}

/// The games I play.
#[poise::command(slash_command)]
async fn variants(ctx: Ctx<'_>) -> Result<(), Error> {
    run(ctx, Command::Variants).await
}

/// The rules of a game, or an answer to a question about them.
#[poise::command(slash_command)]
async fn rules(
    ctx: Ctx<'_>,
    #[description = "Which game"]
    #[autocomplete = "complete_game_name"]
    variant: Option<String>,
    #[description = "A topic or a question, like minister or \"can a pawn cross a void?\""]
    #[autocomplete = "complete_topic"]
    topic: Option<String>,
) -> Result<(), Error> {
    let game = match game_named(variant) {
        Ok(g) => g,
        Err(refusal) => return run(ctx, refusal).await,
    };
    let query = topic.unwrap_or_default();
    run(ctx, Command::Rules { game, query }).await
}

/// How to use me.
#[poise::command(slash_command)]
async fn help(
    ctx: Ctx<'_>,
    #[description = "A command, like challenge"] command: Option<String>,
) -> Result<(), Error> {
    let topic = command
        .map(|c| c.trim().trim_start_matches('/').to_ascii_lowercase())
        .filter(|c| !c.is_empty());
    run(ctx, Command::Help { topic }).await
}

/// This channel's settings (board theme, bare moves, threads), and your own
/// boards' side.
#[poise::command(slash_command)]
async fn settings(
    ctx: Ctx<'_>,
    #[description = "Board colours"] theme: Option<ThemeChoice>,
    #[description = "Take a message that is only a move (like e4) as a move"] bare_moves: Option<
        bool,
    >,
    #[description = "Play each new game here in a thread of its own"] threads: Option<bool>,
    #[description = "Post an animated replay after each finished game here"] replays: Option<bool>,
    #[description = "Your own boards: which side they are drawn from"] flip: Option<FlipChoice>,
) -> Result<(), Error> {
    // In the order the options are listed; none: show the settings.
    let changes = [
        theme.map(|t| Setting::Theme(Theme::from(t))),
        bare_moves.map(Setting::BareMoves),
        threads.map(|on| Setting::Threads(Some(on))),
        replays.map(Setting::Replays),
        flip.map(|f| Setting::Flip(Flip::from(f))),
    ];
    let changes = changes.into_iter().flatten().collect();
    run(ctx, Command::Settings { changes }).await
}

/// Every slash command, as registered.
pub fn commands() -> Vec<poise::Command<Data, Error>> {
    vec![
        challenge(),
        accept(),
        decline(),
        play(),
        board(),
        moves(),
        resign(),
        draw(),
        undo(),
        claim(),
        games(),
        rating(),
        leaderboard(),
        profile(),
        rematch(),
        abort(),
        history(),
        replay(),
        analysis(),
        variants(),
        rules(),
        help(),
        settings(),
        program(),
        roster(),
        colour(),
        super::tournament::tournament(),
        super::puzzle::puzzle(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The slash commands are the table of command words' (`slash`), no
    /// more and no fewer, so help and Discord name the same commands.
    #[test]
    fn slash_commands_follow_the_table_of_command_words() {
        let mut registered: Vec<String> = commands().iter().map(|c| c.name.to_string()).collect();
        let mut table: Vec<String> = crate::game::command::words::WORDS
            .iter()
            .flat_map(|c| c.slash.iter().map(|s| s.to_string()))
            .collect();
        registered.sort();
        table.sort();
        assert_eq!(registered, table);
    }
}
