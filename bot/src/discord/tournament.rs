//! `/tournament`: one slash command with a subcommand for each thing a
//! player or an organiser does, each turned into the core's typed
//! [`TournamentAction`]; and the Join/Leave buttons under a tournament's
//! announcement.

use super::choices::TimeChoice;
use super::responder::run;
use super::{player, Ctx, Error};
use crate::game::command::{
    Command, Someone, Start, TimeControl, TournamentAction, TournamentSpec,
};
use crate::game::tournament::{Format, TournamentId};
use poise::serenity_prelude as serenity;
use poise::ChoiceParameter;
use serenity::{ButtonStyle, CreateActionRow, CreateButton, User};
use voidmate_rules::GameKind;

/// How a tournament is paired, as a slash-command choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ChoiceParameter)]
pub enum FormatChoice {
    #[name = "Swiss (FIDE Dutch system)"]
    Swiss,
    #[name = "Round robin: everyone meets once"]
    RoundRobin,
    #[name = "Double round robin: everyone meets twice"]
    DoubleRoundRobin,
}

impl From<FormatChoice> for Format {
    fn from(choice: FormatChoice) -> Format {
        match choice {
            FormatChoice::Swiss => Format::Swiss,
            FormatChoice::RoundRobin => Format::RoundRobin { double: false },
            FormatChoice::DoubleRoundRobin => Format::RoundRobin { double: true },
        }
    }
}

/// Runs one tournament action on the tournament named by its number (3
/// for `T3`; Discord checks it is a whole number of at least 1), or on the
/// channel's only one.
async fn act(ctx: Ctx<'_>, number: Option<i64>, action: TournamentAction) -> Result<(), Error> {
    let id = number.map(TournamentId);
    run(ctx, Command::Tournament { id, action }).await
}

/// Swiss and round-robin tournaments over days.
#[poise::command(
    slash_command,
    subcommands(
        "create",
        "join",
        "leave",
        "withdraw",
        "rejoin",
        "here",
        "info",
        "list",
        "pairings",
        "standings",
        "games",
        "history",
        "start",
        "pause",
        "resume",
        "cancel",
        "kick",
        "forbid",
        "next"
    ),
    subcommand_required
)]
pub async fn tournament(_ctx: Ctx<'_>) -> Result<(), Error> {
    Ok(())
}

/// Create a tournament in this channel (you organise it).
// A slash command's options are its arguments.
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command)]
async fn create(
    ctx: Ctx<'_>,
    #[description = "Swiss or round robin"] format: FormatChoice,
    #[description = "Which game"]
    #[autocomplete = "super::commands::complete_game_name"]
    variant: String,
    #[description = "A clock, or days per move"] time: TimeChoice,
    #[description = "Swiss: rounds (3 to 30, default 7)"]
    #[min = 3]
    #[max = 30]
    rounds: Option<u32>,
    #[description = "Correspondence: days per round (1 to 60, default 7)"]
    #[min = 1]
    #[max = 60]
    round_days: Option<u32>,
    #[description = "When it starts by itself, like 2026-12-01 18:00 (UTC)"] starts: Option<String>,
    #[description = "Rated (the default) or casual"] rated: Option<bool>,
    #[description = "The most players (Swiss default 64; round robin 3 to 20)"]
    #[min = 2]
    #[max = 1000]
    max_players: Option<u32>,
    #[description = "Correspondence: games unfinished at a round's deadline judged by the engine"]
    adjudicate: Option<bool>,
) -> Result<(), Error> {
    let kind = match super::commands::game_named(Some(variant)) {
        Ok(Some(kind)) => kind,
        Ok(None) => GameKind::DEFAULT,
        Err(refusal) => return super::responder::run(ctx, refusal).await,
    };
    let spec = TournamentSpec {
        format: Format::from(format),
        kind,
        time: TimeControl::from(time),
        rounds,
        round_days,
        starts: starts
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(Start::read),
        rated: rated.unwrap_or(true),
        max_players,
        adjudicate: adjudicate == Some(true),
    };
    // The core checks the options together (rounds against the format,
    // round days against the clock) and names what does not fit.
    act(ctx, None, TournamentAction::Create(spec)).await
}

/// Join a tournament before or during it.
#[poise::command(slash_command)]
async fn join(
    ctx: Ctx<'_>,
    #[description = "Tournament number, like 3 for T3 (this channel's only one if not given)"]
    #[min = 1]
    number: Option<i64>,
) -> Result<(), Error> {
    act(ctx, number, TournamentAction::Join).await
}

/// Leave a tournament that has not started.
#[poise::command(slash_command)]
async fn leave(
    ctx: Ctx<'_>,
    #[description = "Tournament number, like 3 for T3 (this channel's only one if not given)"]
    #[min = 1]
    number: Option<i64>,
) -> Result<(), Error> {
    act(ctx, number, TournamentAction::Leave).await
}

/// Stop playing in a tournament under way (games in progress go on).
#[poise::command(slash_command)]
async fn withdraw(
    ctx: Ctx<'_>,
    #[description = "Tournament number, like 3 for T3 (this channel's only one if not given)"]
    #[min = 1]
    number: Option<i64>,
) -> Result<(), Error> {
    act(ctx, number, TournamentAction::Withdraw).await
}

/// Come back to a tournament you withdrew from.
#[poise::command(slash_command)]
async fn rejoin(
    ctx: Ctx<'_>,
    #[description = "Tournament number, like 3 for T3 (this channel's only one if not given)"]
    #[min = 1]
    number: Option<i64>,
) -> Result<(), Error> {
    act(ctx, number, TournamentAction::Rejoin).await
}

/// Tell the arbiter you are here for this round's game.
#[poise::command(slash_command)]
async fn here(
    ctx: Ctx<'_>,
    #[description = "Tournament number, like 3 for T3 (this channel's only one if not given)"]
    #[min = 1]
    number: Option<i64>,
) -> Result<(), Error> {
    act(ctx, number, TournamentAction::Here).await
}

/// A tournament's format, game, round, deadline and players.
#[poise::command(slash_command)]
async fn info(
    ctx: Ctx<'_>,
    #[description = "Tournament number, like 3 for T3 (this channel's only one if not given)"]
    #[min = 1]
    number: Option<i64>,
) -> Result<(), Error> {
    act(ctx, number, TournamentAction::Info).await
}

/// The tournaments of this server.
#[poise::command(slash_command)]
async fn list(ctx: Ctx<'_>) -> Result<(), Error> {
    act(ctx, None, TournamentAction::List).await
}

/// A round's pairings and results.
#[poise::command(slash_command)]
async fn pairings(
    ctx: Ctx<'_>,
    #[description = "Which round (the current one if not given)"]
    #[min = 1]
    #[max = 60]
    round: Option<u32>,
    #[description = "Tournament number, like 3 for T3 (this channel's only one if not given)"]
    #[min = 1]
    number: Option<i64>,
) -> Result<(), Error> {
    act(ctx, number, TournamentAction::Pairings(round)).await
}

/// The standings, with tie-breaks.
#[poise::command(slash_command)]
async fn standings(
    ctx: Ctx<'_>,
    #[description = "Tournament number, like 3 for T3 (this channel's only one if not given)"]
    #[min = 1]
    number: Option<i64>,
) -> Result<(), Error> {
    act(ctx, number, TournamentAction::Standings).await
}

/// Every game of a tournament, round by round.
#[poise::command(slash_command)]
async fn games(
    ctx: Ctx<'_>,
    #[description = "Tournament number, like 3 for T3 (this channel's only one if not given)"]
    #[min = 1]
    number: Option<i64>,
) -> Result<(), Error> {
    act(ctx, number, TournamentAction::Games).await
}

/// A player's rounds: opponents, colours and results.
#[poise::command(slash_command)]
async fn history(
    ctx: Ctx<'_>,
    #[description = "Whose (yours if not given)"] user: Option<User>,
    #[description = "Tournament number, like 3 for T3 (this channel's only one if not given)"]
    #[min = 1]
    number: Option<i64>,
) -> Result<(), Error> {
    let who = user.map(|u| Someone::Known(player(&u)));
    act(ctx, number, TournamentAction::History(who)).await
}

/// Organisers: start now (pairs round 1).
#[poise::command(slash_command)]
async fn start(
    ctx: Ctx<'_>,
    #[description = "Tournament number, like 3 for T3 (this channel's only one if not given)"]
    #[min = 1]
    number: Option<i64>,
) -> Result<(), Error> {
    act(ctx, number, TournamentAction::Start).await
}

/// Organisers: pause (no new round is paired until resumed).
#[poise::command(slash_command)]
async fn pause(
    ctx: Ctx<'_>,
    #[description = "Tournament number, like 3 for T3 (this channel's only one if not given)"]
    #[min = 1]
    number: Option<i64>,
) -> Result<(), Error> {
    act(ctx, number, TournamentAction::Pause).await
}

/// Organisers: resume a paused tournament.
#[poise::command(slash_command)]
async fn resume(
    ctx: Ctx<'_>,
    #[description = "Tournament number, like 3 for T3 (this channel's only one if not given)"]
    #[min = 1]
    number: Option<i64>,
) -> Result<(), Error> {
    act(ctx, number, TournamentAction::Resume).await
}

/// Organisers: cancel a tournament (games in progress go on, unrated by it).
#[poise::command(slash_command)]
async fn cancel(
    ctx: Ctx<'_>,
    #[description = "Tournament number, like 3 for T3 (this channel's only one if not given)"]
    #[min = 1]
    number: Option<i64>,
) -> Result<(), Error> {
    act(ctx, number, TournamentAction::Cancel).await
}

/// Organisers: remove a player from the next rounds.
#[poise::command(slash_command)]
async fn kick(
    ctx: Ctx<'_>,
    #[description = "Who"] user: User,
    #[description = "Tournament number, like 3 for T3 (this channel's only one if not given)"]
    #[min = 1]
    number: Option<i64>,
) -> Result<(), Error> {
    let who = Someone::Known(player(&user));
    act(ctx, number, TournamentAction::Kick(who)).await
}

/// Organisers: two players who must never be paired together.
#[poise::command(slash_command)]
async fn forbid(
    ctx: Ctx<'_>,
    #[description = "One player"] first: User,
    #[description = "The other"] second: User,
    #[description = "Tournament number, like 3 for T3 (this channel's only one if not given)"]
    #[min = 1]
    number: Option<i64>,
) -> Result<(), Error> {
    let (a, b) = (
        Someone::Known(player(&first)),
        Someone::Known(player(&second)),
    );
    act(ctx, number, TournamentAction::Forbid(a, b)).await
}

/// Organisers: close a round whose games are all over, and pair the next.
#[poise::command(slash_command)]
async fn next(
    ctx: Ctx<'_>,
    #[description = "Tournament number, like 3 for T3 (this channel's only one if not given)"]
    #[min = 1]
    number: Option<i64>,
) -> Result<(), Error> {
    act(ctx, number, TournamentAction::NextRound).await
}

/// A Join/Leave button's id: `vm:t:join:3`. Anyone may press it, for
/// themselves, so it names no player.
fn button_id(join: bool, tournament: i64) -> String {
    let what = if join { "join" } else { "leave" };
    format!("vm:t:{what}:{tournament}")
}

/// The buttons under a tournament's announcement.
pub fn buttons(tournament: i64) -> CreateActionRow {
    CreateActionRow::Buttons(vec![
        CreateButton::new(button_id(true, tournament))
            .label("Join")
            .style(ButtonStyle::Success),
        CreateButton::new(button_id(false, tournament))
            .label("Leave")
            .style(ButtonStyle::Secondary),
    ])
}

/// What a pressed Join/Leave button asks; `None` for any other id.
pub fn parse_button(id: &str) -> Option<Command> {
    let rest = id.strip_prefix("vm:t:")?;
    let (what, number) = rest.split_once(':')?;
    let action = match what {
        "join" => TournamentAction::Join,
        "leave" => TournamentAction::Leave,
        _ => return None,
    };
    if number.is_empty() || number.len() > 18 || !number.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let id = TournamentId(number.parse().ok()?);
    Some(Command::Tournament {
        id: Some(id),
        action,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_buttons_round_trip_and_refuse_strangers() {
        for join in [true, false] {
            for n in [1, 42, 999_999_999_999_999_999] {
                let id = button_id(join, n);
                assert!(id.len() <= 100);
                let want = if join {
                    TournamentAction::Join
                } else {
                    TournamentAction::Leave
                };
                assert_eq!(
                    parse_button(&id),
                    Some(Command::Tournament {
                        id: Some(TournamentId(n)),
                        action: want
                    })
                );
            }
        }
        for bad in [
            "vm:t:join:",
            "vm:t:join:x",
            "vm:t:kick:3",
            "vm:t:join:3:4",
            "vm:y:c:1:2",
            "vm:t:join:99999999999999999999",
            "",
            "vm:t:join:é",
            "vm:t:é:3",
        ] {
            assert_eq!(parse_button(bad), None, "{bad}");
        }
        assert_eq!(
            parse_button(&format!("vm:t:join:{}", "9".repeat(5_000))),
            None
        );
    }

    #[test]
    fn every_subcommand_is_registered_within_discords_limit() {
        let cmd = tournament();
        let names: Vec<&str> = cmd.subcommands.iter().map(|c| &*c.name).collect();
        // Discord allows 25 subcommands (`interactions/application-commands`).
        assert!(names.len() <= 25);
        for n in [
            "create",
            "join",
            "leave",
            "standings",
            "next",
            "forbid",
            "kick",
        ] {
            assert!(names.contains(&n), "{n} missing from {names:?}");
        }
    }
}
