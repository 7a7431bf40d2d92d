//! The slash commands' choice lists, each converted into the core's own
//! type by an exhaustive `From`, never through text (poise's
//! `examples/feature_showcase/choice_parameter.rs`).

use crate::game::command::{Answer, ColorChoice, Flip, ProgramMode, TimeControl};
use crate::game::ratings::Pool;
use poise::ChoiceParameter;
use voidmate_render::{PieceColour, Theme};

/// The time controls offered (a chat line may name any other).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ChoiceParameter)]
pub enum TimeChoice {
    #[name = "No time limit"]
    None,
    #[name = "Bullet 1+0"]
    Bullet1,
    #[name = "Blitz 3+2"]
    Blitz3,
    #[name = "Blitz 5+0"]
    Blitz5,
    #[name = "Rapid 10+5"]
    Rapid10,
    #[name = "Rapid 15+10"]
    Rapid15,
    #[name = "Classical 30+30"]
    Classical30,
    #[name = "Correspondence: 1 day per move"]
    Day1,
    #[name = "Correspondence: 2 days per move"]
    Days2,
    #[name = "Correspondence: 3 days per move"]
    Days3,
    #[name = "Correspondence: 7 days per move"]
    Days7,
}

impl From<TimeChoice> for TimeControl {
    fn from(choice: TimeChoice) -> TimeControl {
        let clock = |minutes, increment| TimeControl::Clock { minutes, increment };
        match choice {
            TimeChoice::None => TimeControl::None,
            TimeChoice::Bullet1 => clock(1, 0),
            TimeChoice::Blitz3 => clock(3, 2),
            TimeChoice::Blitz5 => clock(5, 0),
            TimeChoice::Rapid10 => clock(10, 5),
            TimeChoice::Rapid15 => clock(15, 10),
            TimeChoice::Classical30 => clock(30, 30),
            TimeChoice::Day1 => TimeControl::Days(1),
            TimeChoice::Days2 => TimeControl::Days(2),
            TimeChoice::Days3 => TimeControl::Days(3),
            TimeChoice::Days7 => TimeControl::Days(7),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ChoiceParameter)]
pub enum ModeChoice {
    #[name = "Default: no reprogramming"]
    Default,
    #[name = "Symmetric: one roster for both sides"]
    Symmetric,
    #[name = "Private: each side programs in secret"]
    Private,
}

impl From<ModeChoice> for ProgramMode {
    fn from(choice: ModeChoice) -> ProgramMode {
        match choice {
            ModeChoice::Default => ProgramMode::Default,
            ModeChoice::Symmetric => ProgramMode::Symmetric,
            ModeChoice::Private => ProgramMode::Private,
        }
    }
}

/// Piece colours, as the renderer paints them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ChoiceParameter)]
pub enum PaintChoice {
    White,
    Black,
    Red,
    Blue,
    Green,
    Gold,
    Silver,
    Purple,
    Orange,
    Pink,
    Teal,
    Brown,
}

impl From<PaintChoice> for PieceColour {
    fn from(choice: PaintChoice) -> PieceColour {
        match choice {
            PaintChoice::White => PieceColour::White,
            PaintChoice::Black => PieceColour::Black,
            PaintChoice::Red => PieceColour::Red,
            PaintChoice::Blue => PieceColour::Blue,
            PaintChoice::Green => PieceColour::Green,
            PaintChoice::Gold => PieceColour::Gold,
            PaintChoice::Silver => PieceColour::Silver,
            PaintChoice::Purple => PieceColour::Purple,
            PaintChoice::Orange => PieceColour::Orange,
            PaintChoice::Pink => PieceColour::Pink,
            PaintChoice::Teal => PieceColour::Teal,
            PaintChoice::Brown => PieceColour::Brown,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ChoiceParameter)]
pub enum SideChoice {
    White,
    Black,
}

impl From<SideChoice> for ColorChoice {
    fn from(choice: SideChoice) -> ColorChoice {
        match choice {
            SideChoice::White => ColorChoice::White,
            SideChoice::Black => ColorChoice::Black,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ChoiceParameter)]
pub enum AnswerChoice {
    #[name = "Offer (or ask)"]
    Offer,
    Accept,
    Decline,
}

impl AnswerChoice {
    /// The answer an option gives; left empty, it asks (offers).
    pub fn answer(choice: Option<AnswerChoice>) -> Answer {
        match choice {
            None | Some(AnswerChoice::Offer) => Answer::Ask,
            Some(AnswerChoice::Accept) => Answer::Accept,
            Some(AnswerChoice::Decline) => Answer::Decline,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ChoiceParameter)]
pub enum ThemeChoice {
    Classic,
    #[name = "High contrast"]
    HighContrast,
}

impl From<ThemeChoice> for Theme {
    fn from(choice: ThemeChoice) -> Theme {
        match choice {
            ThemeChoice::Classic => Theme::Classic,
            ThemeChoice::HighContrast => Theme::HighContrast,
        }
    }
}

/// Which side a player's own boards are drawn from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ChoiceParameter)]
pub enum FlipChoice {
    #[name = "Auto: the side to move, or mine when I ask"]
    Auto,
    #[name = "Always White's side"]
    White,
    #[name = "Always Black's side"]
    Black,
}

impl From<FlipChoice> for Flip {
    fn from(choice: FlipChoice) -> Flip {
        match choice {
            FlipChoice::Auto => Flip::Auto,
            FlipChoice::White => Flip::White,
            FlipChoice::Black => Flip::Black,
        }
    }
}

/// A rating pool, as a slash-command choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ChoiceParameter)]
pub enum PoolChoice {
    #[name = "Live (on a clock)"]
    Live,
    #[name = "Correspondence (days per move, or no limit)"]
    Correspondence,
}

impl From<PoolChoice> for Pool {
    fn from(choice: PoolChoice) -> Pool {
        match choice {
            PoolChoice::Live => Pool::Live,
            PoolChoice::Correspondence => Pool::Correspondence,
        }
    }
}

/// Both ways exhaustive, as for the games: a new pool is offered or the
/// build fails.
impl From<Pool> for PoolChoice {
    fn from(pool: Pool) -> PoolChoice {
        match pool {
            Pool::Live => PoolChoice::Live,
            Pool::Correspondence => PoolChoice::Correspondence,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every choice of a list, in Discord's order.
    fn all<T: ChoiceParameter>() -> Vec<T> {
        (0..T::list().len())
            .map(|i| T::from_index(i).expect("each index is a choice"))
            .collect()
    }

    /// Every time control offered is one a chat line could name, written
    /// the same way the core writes it, and the names say what it is.
    #[test]
    fn time_choices_name_their_time_control() {
        for choice in all::<TimeChoice>() {
            let time = TimeControl::from(choice);
            assert_eq!(TimeControl::parse(&time.code()), Some(time.clone()));
            let name = choice.name();
            match time {
                TimeControl::None => assert_eq!(name, "No time limit"),
                TimeControl::Days(d) => {
                    assert!(name.starts_with(&format!("Correspondence: {d} day")))
                }
                TimeControl::Clock { .. } => assert!(name.ends_with(&time.code()), "{name}"),
            }
        }
    }

    /// Each pool is offered once, named by the word a chat line uses.
    #[test]
    fn every_pool_is_offered_by_its_word() {
        let offered: Vec<Pool> = all::<PoolChoice>().into_iter().map(Pool::from).collect();
        assert_eq!(offered, Pool::ALL.to_vec());
        for pool in Pool::ALL {
            let choice = PoolChoice::from(pool);
            assert_eq!(Pool::from(choice), pool);
            let word = choice.name().split_whitespace().next().unwrap();
            assert_eq!(Pool::from_name(word), Some(pool), "{}", choice.name());
        }
    }

    /// A paint is the colour of its name.
    #[test]
    fn paints_are_the_colours_they_name() {
        for choice in all::<PaintChoice>() {
            assert_eq!(
                PieceColour::from_name(choice.name()),
                Some(PieceColour::from(choice))
            );
        }
        assert_eq!(all::<PaintChoice>().len(), PieceColour::ALL.len());
    }
}
