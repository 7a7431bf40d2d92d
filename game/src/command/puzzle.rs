//! `puzzle ...`: solving the community's puzzles, typed.

use super::parse::short;
use super::CommandError;
use voidmate_rules::GameKind;

/// How hard a puzzle is asked for: around the solver's own puzzle rating
/// (easy 600 below it, hard 600 above), or near a rating named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Easy,
    Normal,
    Hard,
    Rating(u16),
}

impl Level {
    /// The lowest and highest rating that may be named.
    pub const RATINGS: std::ops::RangeInclusive<u16> = 400..=3500;

    pub fn read(word: &str) -> Option<Level> {
        match word.to_ascii_lowercase().as_str() {
            "easy" | "easier" => Some(Level::Easy),
            "normal" | "medium" => Some(Level::Normal),
            "hard" | "harder" => Some(Level::Hard),
            w => w
                .parse::<u16>()
                .ok()
                .filter(|r| Level::RATINGS.contains(r))
                .map(Level::Rating),
        }
    }

    /// The rating aimed at, for a solver rated `own`.
    pub fn target(self, own: f64) -> f64 {
        match self {
            Level::Easy => own - 600.0,
            Level::Normal => own,
            Level::Hard => own + 600.0,
            Level::Rating(r) => f64::from(r),
        }
    }

    pub fn name(self) -> String {
        match self {
            Level::Easy => "easy".into(),
            Level::Normal => "normal".into(),
            Level::Hard => "hard".into(),
            Level::Rating(r) => r.to_string(),
        }
    }
}

/// What a `puzzle` command asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PuzzleAction {
    /// A puzzle the asker has not seen (the open one, if they have one
    /// open here: shown again).
    Start {
        game: Option<GameKind>,
        level: Option<Level>,
    },
    /// The open puzzle given up (as `skip`), then a new one as `Start`.
    Next {
        game: Option<GameKind>,
        level: Option<Level>,
    },
    /// A move for the open puzzle (or the channel's daily puzzle).
    Move(String),
    /// The piece to move; a rated attempt then counts as failed. A button
    /// names its puzzle (`puzzle`): pressed under an older puzzle, it does
    /// nothing.
    Hint { puzzle: Option<i64> },
    /// The solution; the attempt is failed.
    Solution { puzzle: Option<i64> },
    /// Gives the puzzle up without seeing the solution (failed, if rated).
    Skip,
    /// The channel's daily puzzle as it stands.
    Daily,
    /// `rating puzzles [@player] [game]`: puzzle ratings here.
    Rating {
        who: Option<super::Someone>,
        game: Option<GameKind>,
    },
    /// `leaderboard puzzles [game]`: the best solvers here.
    Leaderboard { game: Option<GameKind> },
}

impl PuzzleAction {
    /// Whether it only reads.
    pub fn is_read_only(&self) -> bool {
        matches!(
            self,
            PuzzleAction::Daily | PuzzleAction::Rating { .. } | PuzzleAction::Leaderboard { .. }
        )
    }
}

/// Reads the words after `puzzle`.
pub fn parse(rest: &[&str]) -> Result<PuzzleAction, CommandError> {
    let lower: Vec<String> = rest.iter().map(|w| w.to_ascii_lowercase()).collect();
    let only = |action: PuzzleAction, word: &str| {
        if rest.len() > 1 {
            Err(CommandError(format!(
                "`puzzle {word}` takes nothing more: `{}`?",
                short(rest[1])
            )))
        } else {
            Ok(action)
        }
    };
    match lower.first().map(String::as_str) {
        Some("hint") => return only(PuzzleAction::Hint { puzzle: None }, "hint"),
        Some("solution" | "answer" | "solve" | "show") => {
            return only(PuzzleAction::Solution { puzzle: None }, "solution")
        }
        Some("skip" | "giveup" | "give-up") => return only(PuzzleAction::Skip, "skip"),
        Some("daily" | "today") => return only(PuzzleAction::Daily, "daily"),
        Some("move" | "play") if rest.len() > 1 => {
            return Ok(PuzzleAction::Move(rest[1..].concat()))
        }
        _ => {}
    }
    let next = lower.first().is_some_and(|w| w == "next");
    let words = if next { &rest[1..] } else { rest };
    let (mut game, mut level) = (None, None);
    let mut unknown = None;
    for w in words {
        if let Some(k) = GameKind::from_name(w).filter(|_| game.is_none()) {
            game = Some(k);
        } else if let Some(l) = Level::read(w).filter(|_| level.is_none()) {
            level = Some(l);
        } else {
            unknown = Some(*w);
            break;
        }
    }
    match unknown {
        None if next => Ok(PuzzleAction::Next { game, level }),
        None => Ok(PuzzleAction::Start { game, level }),
        Some(w) if w.parse::<i64>().is_ok() => Err(CommandError(format!(
            "a puzzle rated {}? Name a rating from {} to {}, or `easy`, `normal` or `hard`.",
            short(w),
            Level::RATINGS.start(),
            Level::RATINGS.end()
        ))),
        // Anything else short is an answer: `puzzle Nf3`, `puzzle e2 e4`.
        Some(_) if !next && words.len() <= 2 => Ok(PuzzleAction::Move(words.concat())),
        Some(w) => Err(CommandError(format!(
            "`{}`? Say `puzzle [game] [easy|normal|hard|RATING]`, `puzzle hint`, `puzzle solution`, `puzzle skip`, `puzzle next` or `puzzle daily`; answer with a move (`puzzle Nf3`).",
            short(w)
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<PuzzleAction, CommandError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        parse(&words)
    }

    #[test]
    fn puzzle_words_are_read() {
        assert_eq!(
            read("").unwrap(),
            PuzzleAction::Start {
                game: None,
                level: None
            }
        );
        assert_eq!(
            read("void hard").unwrap(),
            PuzzleAction::Start {
                game: Some(GameKind::Void),
                level: Some(Level::Hard)
            }
        );
        assert_eq!(
            read("1800 standard").unwrap(),
            PuzzleAction::Start {
                game: Some(GameKind::Standard),
                level: Some(Level::Rating(1800))
            }
        );
        assert_eq!(
            read("next easy").unwrap(),
            PuzzleAction::Next {
                game: None,
                level: Some(Level::Easy)
            }
        );
        assert_eq!(read("HINT").unwrap(), PuzzleAction::Hint { puzzle: None });
        assert_eq!(
            read("solution").unwrap(),
            PuzzleAction::Solution { puzzle: None }
        );
        assert_eq!(read("skip").unwrap(), PuzzleAction::Skip);
        assert_eq!(read("daily").unwrap(), PuzzleAction::Daily);
        assert_eq!(read("Nf3").unwrap(), PuzzleAction::Move("Nf3".into()));
        assert_eq!(read("e2 e4").unwrap(), PuzzleAction::Move("e2e4".into()));
        assert_eq!(
            read("move Qh4#").unwrap(),
            PuzzleAction::Move("Qh4#".into())
        );
    }

    #[test]
    fn odd_puzzle_words_are_refused_by_name() {
        assert!(read("hint now").unwrap_err().0.contains("`now`"));
        assert!(read("99999").unwrap_err().0.contains("from 400 to 3500"));
        assert!(read("next banana").unwrap_err().0.contains("`banana`"));
        let long = "ж".repeat(500);
        let e = read(&format!("a b {long}")).unwrap_err().0;
        assert!(e.chars().count() < 400, "quoted short: {e}");
    }
}
