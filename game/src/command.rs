//! Chat text to commands: the same words on every platform.

use crate::contract::Player;
use std::fmt;

/// A game named in a command: `#12`.
pub type GameRef = Option<i64>;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    Ask,
    Accept,
    Decline,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Challenge {
        opponent: Someone,
        variant: Option<String>,
        time: Option<TimeControl>,
        color: Option<ColorChoice>,
        /// The engine's level, for a challenge to the bot.
        level: Option<u8>,
        /// Super Chess reprogramming.
        mode: Option<ProgramMode>,
    },
    Accept {
        challenger: Option<Someone>,
    },
    Decline {
        other: Option<Someone>,
    },
    Move {
        text: String,
        game: GameRef,
    },
    Board {
        game: GameRef,
    },
    Moves {
        square: Option<String>,
        game: GameRef,
    },
    Resign {
        game: GameRef,
    },
    Draw {
        answer: Answer,
        game: GameRef,
    },
    Undo {
        answer: Answer,
        game: GameRef,
    },
    Games,
    History {
        game: GameRef,
        pgn: bool,
    },
    Variants,
    Rules {
        query: String,
    },
    Help {
        topic: Option<String>,
    },
    Settings {
        key: Option<String>,
        value: Option<String>,
    },
    /// Claim a draw the rules allow (Chess 99), with the move that goes with
    /// a 99-move claim.
    Claim {
        text: Option<String>,
        game: GameRef,
    },
    /// Show or send a Super Chess program (`None`: show).
    Program {
        text: Option<String>,
        game: GameRef,
    },
    /// Show or choose one's piece colour in a game.
    Colour {
        colour: Option<String>,
        game: GameRef,
    },
    /// Text that is no command word: perhaps a bare move (`e4`, `e4 #2`,
    /// `#2 e4`); the game's number is kept apart from the text.
    Bare {
        text: String,
        game: GameRef,
    },
}

impl Command {
    /// A move as typed anywhere: spaces inside it do not count (`e7e8 =Q`).
    pub fn play(text: &str, game: GameRef) -> Command {
        Command::Move {
            text: text.split_whitespace().collect(),
            game,
        }
    }

    /// A draw claim, with the move of a 99-move claim.
    pub fn claim(text: Option<&str>, game: GameRef) -> Command {
        let text: Option<String> = text.map(|t| t.split_whitespace().collect());
        Command::Claim {
            text: text.filter(|t| !t.is_empty()),
            game,
        }
    }

    /// A Super Chess program, shown (`None`) or sent.
    pub fn program(text: Option<&str>, game: GameRef) -> Command {
        let text = text.map(str::trim).filter(|t| !t.is_empty());
        Command::Program {
            text: text.map(str::to_string),
            game,
        }
    }

    /// Commands that only read: they run without SQLite's write lock, so a
    /// busy database never holds them up.
    pub fn is_read_only(&self) -> bool {
        matches!(
            self,
            Command::Board { .. }
                | Command::Moves { .. }
                | Command::Games
                | Command::History { .. }
                | Command::Variants
                | Command::Rules { .. }
                | Command::Help { .. }
        )
    }
}

/// A person named in a command: as written in a chat line (`@bob`,
/// `<@80351110224678912>`), for the core to resolve against the mentions
/// the adapter found, or already known (a slash command's user option, a
/// button's question).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Someone {
    Named(String),
    Known(Player),
}

impl Someone {
    /// A word from a chat line.
    pub fn named(word: &str) -> Someone {
        Someone::Named(word.to_string())
    }
}

impl fmt::Display for Someone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Someone::Named(w) => f.write_str(w.trim_start_matches('@')),
            Someone::Known(p) => write!(f, "{p}"),
        }
    }
}

/// How Super Chess pieces may be reprogrammed, chosen at the challenge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProgramMode {
    /// No reprogramming.
    Default,
    /// One roster, written by the challenger and accepted by the opponent,
    /// for both sides.
    Symmetric,
    /// Each side programs its own pieces, privately.
    Private,
}

impl ProgramMode {
    pub fn code(self) -> &'static str {
        match self {
            ProgramMode::Default => "default",
            ProgramMode::Symmetric => "symmetric",
            ProgramMode::Private => "private",
        }
    }

    pub fn parse(s: &str) -> Option<ProgramMode> {
        match s.to_ascii_lowercase().as_str() {
            "default" | "unprogrammed" => Some(ProgramMode::Default),
            "symmetric" | "shared" | "same" => Some(ProgramMode::Symmetric),
            "private" | "secret" | "hidden" => Some(ProgramMode::Private),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColorChoice {
    White,
    Black,
}

/// A time control as chosen at the challenge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TimeControl {
    None,
    /// Correspondence: days per move.
    Days(u32),
    /// Minutes for the game and seconds added per move.
    Clock {
        minutes: u32,
        increment: u32,
    },
}

impl TimeControl {
    /// `none`, `3d`, `3 days`, `10+5`, `10m`, `10min`.
    pub fn parse(s: &str) -> Option<TimeControl> {
        let s = s.trim().to_ascii_lowercase();
        if s == "none" || s == "-" || s == "unlimited" {
            return Some(TimeControl::None);
        }
        let num = |t: &str| t.trim().parse::<u32>().ok().filter(|&n| n > 0);
        if let Some((m, i)) = s.split_once('+') {
            return Some(TimeControl::Clock {
                minutes: num(m)?,
                increment: t_num(i)?,
            });
        }
        for suffix in ["days", "day", "d"] {
            if let Some(n) = s.strip_suffix(suffix) {
                return num(n).filter(|&d| d <= 30).map(TimeControl::Days);
            }
        }
        for suffix in ["min", "m"] {
            if let Some(n) = s.strip_suffix(suffix) {
                return Some(TimeControl::Clock {
                    minutes: num(n)?,
                    increment: 0,
                });
            }
        }
        None
    }

    /// The form we store and show: `none`, `3d`, `10+5`.
    pub fn code(&self) -> String {
        match self {
            TimeControl::None => "none".into(),
            TimeControl::Days(d) => format!("{d}d"),
            TimeControl::Clock { minutes, increment } => format!("{minutes}+{increment}"),
        }
    }
}

fn t_num(t: &str) -> Option<u32> {
    t.trim().parse().ok()
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::None => write!(f, "no time limit"),
            TimeControl::Days(1) => write!(f, "1 day per move"),
            TimeControl::Days(d) => write!(f, "{d} days per move"),
            TimeControl::Clock { minutes, increment } => {
                write!(f, "{minutes} minutes + {increment} seconds per move")
            }
        }
    }
}

/// Why a command could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandError(pub String);

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn err<T>(msg: impl Into<String>) -> Result<T, CommandError> {
    Err(CommandError(msg.into()))
}

/// Reads a command. A leading `/` or `!` is allowed; a `#N` token anywhere
/// names a game.
pub fn parse(text: &str) -> Result<Command, CommandError> {
    let text = text.trim();
    let text = text.strip_prefix(['/', '!']).unwrap_or(text);
    let mut game: GameRef = None;
    let mut words: Vec<&str> = Vec::new();
    for w in text.split_whitespace() {
        match w.strip_prefix('#').map(str::parse::<i64>) {
            Some(Ok(id)) if game.is_none() => game = Some(id),
            Some(Ok(_)) => return err("name only one game, like #3"),
            _ => words.push(w),
        }
    }
    let Some((&first, rest)) = words.split_first() else {
        return err("say something, like `help`");
    };
    let name = |w: &str| Someone::named(w);
    let answer = |rest: &[&str], what: &str| -> Result<Answer, CommandError> {
        match rest.first().map(|w| w.to_ascii_lowercase()).as_deref() {
            None | Some("offer") | Some("request") | Some("ask") => Ok(Answer::Ask),
            Some("accept") | Some("yes") => Ok(Answer::Accept),
            Some("decline") | Some("no") => Ok(Answer::Decline),
            Some(other) => err(format!(
                "`{what} {other}`? Use `{what}`, `{what} accept` or `{what} decline`"
            )),
        }
    };
    let cmd = match first.to_ascii_lowercase().as_str() {
        "challenge" | "play" => {
            let Some((opp, opts)) = rest.split_first() else {
                return err("challenge whom? For example: `challenge @bob void 3d`");
            };
            let (mut variant, mut time, mut color) = (None, None, None);
            let mut promotion_wins = false;
            let mut level = None;
            let mut mode = None;
            let mut after_level_word = false;
            for o in opts {
                let lower = o.to_ascii_lowercase();
                let number = lower
                    .strip_prefix("level")
                    .or_else(|| lower.strip_prefix("lvl"))
                    .or_else(|| lower.strip_prefix('l'))
                    .unwrap_or(&lower)
                    .trim_start_matches(['=', ':']);
                let as_level = number.parse::<u8>().ok();
                if lower == "level" || lower == "lvl" {
                    after_level_word = true;
                    continue;
                }
                if let Some(n) = as_level
                    .filter(|_| after_level_word || number != lower.as_str() || lower.len() == 1)
                {
                    if !(1..=5).contains(&n) {
                        return err(format!(
                            "level {n}? Levels go from 1 (beginner) to 5 (full strength)"
                        ));
                    }
                    level = Some(n);
                    after_level_word = false;
                    continue;
                }
                after_level_word = false;
                if matches!(lower.as_str(), "promotion-wins" | "promotionwins" | "pw") {
                    promotion_wins = true;
                } else if let Some(m) = ProgramMode::parse(&lower) {
                    mode = Some(m);
                } else if matches!(lower.as_str(), "white" | "black" | "first" | "second") {
                    // Super Chess's Player 1 is White: whoever moves first.
                    color = Some(if lower == "white" || lower == "first" {
                        ColorChoice::White
                    } else {
                        ColorChoice::Black
                    });
                } else if let Some(t) = TimeControl::parse(o) {
                    time = Some(t);
                } else if variant.is_none() {
                    variant = Some(o.to_string());
                } else {
                    return err(format!(
                        "I do not understand `{o}` in that challenge: give a variant, a time control (`3d`, `10+5`) and optionally `white` or `black`"
                    ));
                }
            }
            if promotion_wins {
                // An option of Suicide Void Chess, which is its own variant inside.
                use voidmate_rules::GameKind;
                let base = variant.as_deref().map(GameKind::from_name);
                match base {
                    None
                    | Some(Some(GameKind::SuicideVoid | GameKind::SuicideVoidPromotionWins)) => {
                        variant = Some(GameKind::SuicideVoidPromotionWins.name().to_string());
                    }
                    _ => return err("promotion-wins is an option of Suicide Void Chess: `challenge @bob suicide-void promotion-wins`"),
                }
            }
            Command::Challenge {
                opponent: name(opp),
                variant,
                time,
                color,
                level,
                mode,
            }
        }
        "accept" => Command::Accept {
            challenger: rest.first().map(|w| name(w)),
        },
        "decline" | "cancel" | "withdraw" => Command::Decline {
            other: rest.first().map(|w| name(w)),
        },
        "move" | "m" => {
            if rest.is_empty() {
                return err("which move? For example: `move e4` or `move Nf3`");
            }
            Command::Move {
                text: rest.join(""),
                game,
            }
        }
        "board" | "show" => Command::Board { game },
        "moves" => Command::Moves {
            square: rest.first().map(|s| s.to_string()),
            game,
        },
        "resign" => Command::Resign { game },
        "draw" => Command::Draw {
            answer: answer(rest, "draw")?,
            game,
        },
        "undo" | "takeback" => Command::Undo {
            answer: answer(rest, "undo")?,
            game,
        },
        "games" => Command::Games,
        "claim" => Command::Claim {
            text: (!rest.is_empty()).then(|| rest.join("")),
            game,
        },
        "history" => Command::History { game, pgn: false },
        "pgn" => Command::History { game, pgn: true },
        "variants" => Command::Variants,
        "rules" => Command::Rules {
            query: rest.join(" "),
        },
        "help" => Command::Help {
            topic: rest.first().map(|s| s.to_ascii_lowercase()),
        },
        "program" | "programme" | "reprogram" => {
            // The program keeps its lines: each may name a piece.
            let body: Vec<String> = text
                .split_once(char::is_whitespace)
                .map(|(_, b)| b)
                .unwrap_or("")
                .lines()
                .map(|line| {
                    line.split_whitespace()
                        .filter(|w| {
                            w.strip_prefix('#')
                                .is_none_or(|n| n.parse::<i64>().is_err())
                        })
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .filter(|l| !l.is_empty())
                .collect();
            Command::Program {
                text: (!body.is_empty()).then(|| body.join("\n")),
                game,
            }
        }
        "colour" | "color" => Command::Colour {
            colour: rest.first().map(|s| s.to_ascii_lowercase()),
            game,
        },
        "settings" | "set" => Command::Settings {
            key: rest.first().map(|s| s.to_ascii_lowercase()),
            value: rest.get(1).map(|s| s.to_ascii_lowercase()),
        },
        _ => Command::Bare {
            text: words.join(" "),
            game,
        },
    };
    Ok(cmd)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_read_with_options_in_any_order() {
        assert_eq!(
            parse("/challenge @bob 3d void black").unwrap(),
            Command::Challenge {
                opponent: Someone::named("@bob"),
                variant: Some("void".into()),
                time: Some(TimeControl::Days(3)),
                color: Some(ColorChoice::Black),
                level: None,
                mode: None,
            }
        );
        assert_eq!(
            parse("challenge @bob super16 private second").unwrap(),
            Command::Challenge {
                opponent: Someone::named("@bob"),
                variant: Some("super16".into()),
                time: None,
                color: Some(ColorChoice::Black),
                level: None,
                mode: Some(ProgramMode::Private),
            }
        );
        // A program keeps its lines and loses the game number.
        assert_eq!(
            parse("program #7 N: jump 2,1\n  R:  slide 1,0").unwrap(),
            Command::Program {
                text: Some("N: jump 2,1\nR: slide 1,0".into()),
                game: Some(7)
            }
        );
        assert_eq!(
            parse("program").unwrap(),
            Command::Program {
                text: None,
                game: None
            }
        );
        assert_eq!(
            parse("move Nf3 #4").unwrap(),
            Command::Move {
                text: "Nf3".into(),
                game: Some(4)
            }
        );
        assert_eq!(
            parse("!draw accept").unwrap(),
            Command::Draw {
                answer: Answer::Accept,
                game: None
            }
        );
        assert_eq!(
            parse("e4").unwrap(),
            Command::Bare {
                text: "e4".into(),
                game: None
            }
        );
        // Issue 20, point 8: the game's number anywhere, apart from the move.
        for text in ["e4 #2", "#2 e4", "  #2   e4 "] {
            assert_eq!(
                parse(text).unwrap(),
                Command::Bare {
                    text: "e4".into(),
                    game: Some(2)
                },
                "{text}"
            );
        }
        for text in ["move e4 #2", "move #2 e4", "#2 move e4"] {
            assert_eq!(
                parse(text).unwrap(),
                Command::Move {
                    text: "e4".into(),
                    game: Some(2)
                },
                "{text}"
            );
        }
        assert!(parse("e4 #2 #3").is_err());
        assert_eq!(
            parse("rules can the minister cross a void?").unwrap(),
            Command::Rules {
                query: "can the minister cross a void?".into()
            }
        );
    }

    #[test]
    fn promotion_wins_picks_its_variant_and_nothing_else() {
        for text in [
            "challenge @bob suicide-void promotion-wins",
            "challenge @bob promotion-wins",
            "challenge @bob pw suicide-void 2d",
        ] {
            let Command::Challenge { variant, .. } = parse(text).unwrap() else {
                panic!("{text}")
            };
            assert_eq!(variant.as_deref(), Some("suicide-void-pw"), "{text}");
        }
        assert!(parse("challenge @bob void promotion-wins")
            .unwrap_err()
            .0
            .starts_with("promotion-wins is an option of Suicide Void Chess"));
    }

    #[test]
    fn a_level_reads_in_several_spellings() {
        for text in [
            "challenge @voidmate void 4",
            "challenge @voidmate level 4 void",
            "challenge @voidmate L4",
            "challenge @voidmate level=4",
        ] {
            let Command::Challenge { level, .. } = parse(text).unwrap() else {
                panic!("{text}")
            };
            assert_eq!(level, Some(4), "{text}");
        }
        assert_eq!(
            parse("challenge @voidmate level 9").unwrap_err().0,
            "level 9? Levels go from 1 (beginner) to 5 (full strength)"
        );
    }

    #[test]
    fn time_controls_parse_and_print() {
        assert_eq!(
            TimeControl::parse("10+5"),
            Some(TimeControl::Clock {
                minutes: 10,
                increment: 5
            })
        );
        assert_eq!(TimeControl::parse("2days"), Some(TimeControl::Days(2)));
        assert_eq!(
            TimeControl::parse("5m").map(|t| t.code()),
            Some("5+0".into())
        );
        assert_eq!(TimeControl::parse("void"), None);
        assert_eq!(TimeControl::parse("99d"), None);
        assert_eq!(TimeControl::Days(3).to_string(), "3 days per move");
    }

    #[test]
    fn bad_commands_say_what_to_write() {
        assert_eq!(
            parse("challenge").unwrap_err().0,
            "challenge whom? For example: `challenge @bob void 3d`"
        );
        assert_eq!(
            parse("move").unwrap_err().0,
            "which move? For example: `move e4` or `move Nf3`"
        );
        assert_eq!(
            parse("draw maybe").unwrap_err().0,
            "`draw maybe`? Use `draw`, `draw accept` or `draw decline`"
        );
        assert_eq!(
            parse("board #1 #2").unwrap_err().0,
            "name only one game, like #3"
        );
        assert!(parse("challenge bob void chess99x 3d")
            .unwrap_err()
            .0
            .contains("I do not understand `chess99x`"));
    }
}
