//! `/puzzle`: the community's puzzles, as the core's typed
//! [`PuzzleAction`]; the Hint, Solution and Next buttons under a puzzle's
//! board; and the legal moves of the asker's puzzle as they type.

use super::responder::run;
use super::{player, Ctx, Error};
use crate::game::command::{Command, Level, PuzzleAction};
use crate::game::PuzzleButtons;
use poise::serenity_prelude as serenity;
use poise::ChoiceParameter;
use serenity::{ButtonStyle, CreateActionRow, CreateAutocompleteResponse, CreateButton};
use voidmate_rules::GameKind;

/// How hard, as a slash-command choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ChoiceParameter)]
pub enum LevelChoice {
    #[name = "Easy (600 below your puzzle rating)"]
    Easy,
    #[name = "Normal (near your puzzle rating)"]
    Normal,
    #[name = "Hard (600 above your puzzle rating)"]
    Hard,
}

impl From<LevelChoice> for Level {
    fn from(choice: LevelChoice) -> Level {
        match choice {
            LevelChoice::Easy => Level::Easy,
            LevelChoice::Normal => Level::Normal,
            LevelChoice::Hard => Level::Hard,
        }
    }
}

/// What to do with the open puzzle, as a slash-command choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ChoiceParameter)]
pub enum PuzzleChoice {
    #[name = "Hint: the piece to move (counts as failed)"]
    Hint,
    #[name = "Solution"]
    Solution,
    #[name = "Skip (counts as failed)"]
    Skip,
    #[name = "Next: skip this one and get another"]
    Next,
    #[name = "This channel's daily puzzle"]
    Daily,
}

/// The legal moves of the asker's open puzzle here (or the daily one).
async fn complete_puzzle_move(ctx: Ctx<'_>, partial: &str) -> CreateAutocompleteResponse {
    let me = player(ctx.author());
    let moves = ctx
        .data()
        .core
        .suggest_puzzle_moves(&ctx.channel_id().to_string(), &me.id, partial, 25)
        .await;
    super::commands::move_choices(moves)
}

/// A puzzle from this server's own games, or your move in the one you solve.
#[poise::command(slash_command)]
pub async fn puzzle(
    ctx: Ctx<'_>,
    #[description = "Your move in the puzzle you solve here (or the daily one), like Nf3"]
    #[rename = "move"]
    #[autocomplete = "complete_puzzle_move"]
    mv: Option<String>,
    #[description = "Which game (the most played here if not given)"]
    #[autocomplete = "super::commands::complete_game_name"]
    variant: Option<String>,
    #[description = "How hard (near your puzzle rating if not given)"] level: Option<LevelChoice>,
    #[description = "Or a puzzle near this rating"]
    #[min = 400]
    #[max = 3500]
    rating: Option<u16>,
    #[description = "Hint, solution, skip, next, or the daily puzzle"] action: Option<PuzzleChoice>,
) -> Result<(), Error> {
    let game = match super::commands::game_named(variant) {
        Ok(g) => g,
        Err(refusal) => return run(ctx, refusal).await,
    };
    let level = rating.map(Level::Rating).or(level.map(Level::from));
    let mv = mv.map(|m| m.split_whitespace().collect::<String>());
    let action = match (action, mv) {
        (Some(PuzzleChoice::Hint), _) => PuzzleAction::Hint { puzzle: None },
        (Some(PuzzleChoice::Solution), _) => PuzzleAction::Solution { puzzle: None },
        (Some(PuzzleChoice::Skip), _) => PuzzleAction::Skip,
        (Some(PuzzleChoice::Next), _) => PuzzleAction::Next { game, level },
        (Some(PuzzleChoice::Daily), _) => PuzzleAction::Daily,
        (None, Some(mv)) if !mv.is_empty() => PuzzleAction::Move(mv),
        (None, _) => PuzzleAction::Start { game, level },
    };
    run(ctx, Command::Puzzle { action }).await
}

/// The buttons under a puzzle's board.
pub fn buttons(b: PuzzleButtons) -> CreateActionRow {
    let next = |game: GameKind| {
        CreateButton::new(format!("vm:p:next:{}", game.name()))
            .label("Next")
            .style(ButtonStyle::Primary)
    };
    CreateActionRow::Buttons(match b {
        PuzzleButtons::Open { id, game } => vec![
            CreateButton::new(format!("vm:p:hint:{id}"))
                .label("Hint")
                .style(ButtonStyle::Secondary),
            CreateButton::new(format!("vm:p:solution:{id}"))
                .label("Solution")
                .style(ButtonStyle::Secondary),
            next(game),
        ],
        PuzzleButtons::Ended { game } => vec![next(game)],
    })
}

/// What a pressed puzzle button asks (for whoever pressed it); `None` for
/// any other id.
pub fn parse_button(id: &str) -> Option<Command> {
    let rest = id.strip_prefix("vm:p:")?;
    let (what, arg) = rest.split_once(':')?;
    let number = || {
        (!arg.is_empty() && arg.len() <= 18 && arg.bytes().all(|b| b.is_ascii_digit()))
            .then(|| arg.parse::<i64>().ok())
            .flatten()
    };
    let action = match what {
        "hint" => PuzzleAction::Hint {
            puzzle: Some(number()?),
        },
        "solution" => PuzzleAction::Solution {
            puzzle: Some(number()?),
        },
        "next" => PuzzleAction::Next {
            game: Some(GameKind::from_name(arg).filter(|k| k.name() == arg)?),
            level: None,
        },
        _ => return None,
    };
    Some(Command::Puzzle { action })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(row: &CreateActionRow) -> Vec<String> {
        let json = serde_json::to_value(row).unwrap();
        json["components"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["custom_id"].as_str().unwrap().to_string())
            .collect()
    }

    #[test]
    fn puzzle_buttons_round_trip_and_refuse_strangers() {
        for game in GameKind::ALL {
            let open = buttons(PuzzleButtons::Open { id: 42, game });
            let got: Vec<Command> = ids(&open)
                .iter()
                .map(|id| {
                    assert!(id.len() <= 100, "{id}");
                    parse_button(id).expect(id)
                })
                .collect();
            assert_eq!(
                got,
                vec![
                    Command::Puzzle {
                        action: PuzzleAction::Hint { puzzle: Some(42) }
                    },
                    Command::Puzzle {
                        action: PuzzleAction::Solution { puzzle: Some(42) }
                    },
                    Command::Puzzle {
                        action: PuzzleAction::Next {
                            game: Some(game),
                            level: None
                        }
                    },
                ]
            );
            assert_eq!(ids(&buttons(PuzzleButtons::Ended { game })).len(), 1);
        }
        for bad in [
            "vm:p:hint:",
            "vm:p:hint:x",
            "vm:p:hint:1:2",
            "vm:p:kick:3",
            "vm:p:next:chess",
            "vm:p:next:",
            "vm:t:join:3",
            "vm:p:hint:99999999999999999999",
            "vm:p:é:1",
            "",
        ] {
            assert_eq!(parse_button(bad), None, "{bad}");
        }
        assert_eq!(
            parse_button(&format!("vm:p:hint:{}", "9".repeat(5_000))),
            None
        );
    }
}
