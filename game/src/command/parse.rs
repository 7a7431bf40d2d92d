//! Chat text to a [`Command`]: the command word from the table in
//! [`super::words`], then its arguments.

use super::words::{self, Word};
use super::Pool;
use super::{
    Answer, ChallengeOptions, ColorChoice, Command, Flip, GameRef, OfferKind, Paint, ProgramMode,
    Setting, Someone, TimeControl,
};
use std::fmt;
use voidmate_render::Theme;
use voidmate_rules::GameKind;

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
    let Some(known) = words::lookup(first) else {
        return Ok(Command::Bare {
            text: words.join(" "),
            game,
        });
    };
    let cmd = match known.word {
        Word::Challenge => {
            let Some((opp, opts)) = rest.split_first() else {
                return err("challenge whom? For example: `challenge @bob void 3d`");
            };
            let mut options = ChallengeOptions::default();
            // The game, as written: read once every option is seen, so that
            // a second word nobody understands is named as such.
            let mut variant: Option<&str> = None;
            let mut promotion_wins = false;
            let mut after_level_word = false;
            // The words that gave a side and a time, to name a conflict.
            let (mut seen_color, mut seen_time): (Option<&str>, Option<&str>) = (None, None);
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
                    options.level = Some(n);
                    after_level_word = false;
                    continue;
                }
                after_level_word = false;
                if matches!(lower.as_str(), "promotion-wins" | "promotionwins" | "pw") {
                    promotion_wins = true;
                } else if let Some(rated) = match lower.as_str() {
                    "rated" | "ranked" => Some(true),
                    "casual" | "unrated" | "friendly" => Some(false),
                    _ => None,
                } {
                    if options.rated.is_some_and(|r| r != rated) {
                        return err("a game is `rated` or `casual`, not both");
                    }
                    options.rated = Some(rated);
                } else if matches!(lower.as_str(), "thread" | "in-thread") {
                    options.thread = Some(true);
                } else if matches!(lower.as_str(), "no-thread" | "nothread" | "here") {
                    options.thread = Some(false);
                } else if let Some(m) = ProgramMode::parse(&lower) {
                    options.mode = Some(m);
                } else if matches!(lower.as_str(), "white" | "black" | "first" | "second") {
                    // Super Chess's Player 1 is White: whoever moves first.
                    let color = if lower == "white" || lower == "first" {
                        ColorChoice::White
                    } else {
                        ColorChoice::Black
                    };
                    if options.color.is_some_and(|c| c != color) {
                        return err(format!(
                            "`{}` and `{}`? Choose one side",
                            short(seen_color.unwrap_or(o)),
                            short(o)
                        ));
                    }
                    seen_color = Some(o);
                    options.color = Some(color);
                } else if let Some(t) = TimeControl::parse(o) {
                    if let Some(first) = seen_time.filter(|_| options.time.as_ref() != Some(&t)) {
                        return err(format!(
                            "`{}` and `{}` are two time controls: give one (`{}` or `{}`)",
                            short(first),
                            short(o),
                            short(first),
                            short(o)
                        ));
                    }
                    seen_time = Some(o);
                    options.time = Some(t);
                } else if variant.is_none() {
                    variant = Some(o);
                } else if GameKind::from_name(o).is_some()
                    && variant.is_some_and(|v| GameKind::from_name(v).is_some())
                {
                    return err(format!(
                        "`{}` and `{}` are two games: challenge to one",
                        short(variant.unwrap_or_default()),
                        short(o)
                    ));
                } else {
                    return err(format!(
                        "I do not understand `{}` in that challenge: give a variant, a time control (`3d`, `10+5`) and optionally `white` or `black`",
                        short(o)
                    ));
                }
            }
            let kind = variant.map(|v| (v, GameKind::from_name(v)));
            options.variant = match kind {
                None => None,
                Some((_, Some(kind))) => Some(kind),
                // Named below, unless promotion-wins says more.
                Some((_, None)) => None,
            };
            if promotion_wins {
                // An option of Suicide Void Chess, which is its own variant inside.
                let base = match kind {
                    None => Some(GameKind::SuicideVoid),
                    Some((_, named)) => named,
                };
                match base.and_then(GameKind::with_promotion_wins) {
                    Some(game) => options.variant = Some(game),
                    None => return err("promotion-wins is an option of Suicide Void Chess: `challenge @bob suicide-void promotion-wins`"),
                }
            }
            if let Some((written, None)) = kind {
                let unknown = voidmate_rules::Error::UnknownVariant(written.to_string());
                return err(format!("{unknown}."));
            }
            Command::Challenge {
                opponent: name(opp),
                options,
            }
        }
        Word::Accept => Command::Accept {
            challenger: rest.first().map(|w| name(w)),
        },
        Word::Decline => Command::Decline {
            other: rest.first().map(|w| name(w)),
        },
        Word::Move => {
            if rest.is_empty() {
                return err("which move? For example: `move e4` or `move Nf3`");
            }
            Command::Move {
                text: rest.join(""),
                game,
            }
        }
        Word::Board => match rest.first().map(|w| w.to_ascii_lowercase()).as_deref() {
            Some("zoom") => match rest.get(1) {
                Some(square) => Command::Board {
                    game,
                    zoom: Some(square.to_string()),
                },
                None => return err("zoom on which square? For example: `board zoom e5`"),
            },
            _ => Command::Board { game, zoom: None },
        },
        Word::Moves => Command::Moves {
            square: rest.first().map(|s| s.to_string()),
            game,
        },
        Word::Resign => Command::Resign { game },
        Word::Draw => Command::Offer {
            kind: OfferKind::Draw,
            answer: answer(rest, "draw")?,
            game,
        },
        Word::Undo => Command::Offer {
            kind: OfferKind::Takeback,
            answer: answer(rest, "undo")?,
            game,
        },
        Word::Games => match rest.first().map(|w| w.to_ascii_lowercase()).as_deref() {
            None => Command::Games { finished: false },
            Some("finished" | "all" | "done" | "ended") if rest.len() == 1 => {
                Command::Games { finished: true }
            }
            Some(_) => return err(
                "`games` lists the games in progress here; `games finished` the last ones to end",
            ),
        },
        Word::Rating if is_puzzles(rest) => {
            let (who, game) = someone_and_game(&rest[1..], "rating puzzles")?;
            Command::Puzzle {
                action: super::puzzle::PuzzleAction::Rating { who, game },
            }
        }
        Word::Leaderboard if is_puzzles(rest) => {
            let game = match &rest[1..] {
                [] => None,
                [w] if GameKind::from_name(w).is_some() => GameKind::from_name(w),
                [w, ..] => {
                    return err(format!(
                    "`{}`? Say `leaderboard puzzles` or name one game: `leaderboard puzzles void`",
                    short(w)
                ))
                }
            };
            Command::Puzzle {
                action: super::puzzle::PuzzleAction::Leaderboard { game },
            }
        }
        Word::Rating => {
            let (who, game) = someone_and_game(rest, "rating")?;
            Command::Rating { who, game }
        }
        Word::Profile => {
            let (who, game) = someone_and_game(rest, "profile")?;
            if game.is_some() {
                return err(
                    "`profile` shows every game; for one game's ratings say `rating @someone GAME`",
                );
            }
            Command::Profile { who }
        }
        Word::Leaderboard => {
            let (mut game, mut pool) = (None, None);
            for w in rest {
                if let Some(p) = Pool::from_name(w) {
                    pool = Some(p);
                } else if let Some(k) = GameKind::from_name(w).filter(|_| game.is_none()) {
                    game = Some(k);
                } else {
                    return err(format!(
                        "`{}`? Say a game and a pool, like `leaderboard void live` (pools: live, correspondence)",
                        short(w)
                    ));
                }
            }
            Command::Leaderboard { game, pool }
        }
        Word::Rematch | Word::Abort => {
            let what = if known.word == Word::Rematch {
                "rematch"
            } else {
                "abort"
            };
            if let Some(w) = rest.first() {
                return err(format!(
                    "`{}`? `{what}` takes only a game's number, like `{what} #3`",
                    short(w)
                ));
            }
            if known.word == Word::Rematch {
                Command::Rematch { game }
            } else {
                Command::Abort { game }
            }
        }
        Word::Claim => Command::Claim {
            text: (!rest.is_empty()).then(|| rest.join("")),
            game,
        },
        Word::History => Command::History { game, pgn: false },
        Word::Pgn => Command::History { game, pgn: true },
        Word::Replay => Command::Replay { game },
        Word::Analysis => Command::Analysis { game },
        Word::Variants => Command::Variants,
        Word::Rules => Command::Rules {
            game: None,
            query: rest.join(" "),
        },
        Word::Direct => Command::Direct,
        Word::Help => Command::Help {
            topic: rest.first().map(|s| s.to_ascii_lowercase()),
        },
        Word::Program => {
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
        Word::Colour => Command::Colour {
            colour: rest.first().map(|s| Paint::read(s)),
            game,
        },
        Word::Settings => Command::Settings {
            changes: setting(rest)?.into_iter().collect(),
        },
        Word::Tournament => {
            let (id, action) = super::tournament::parse(rest)?;
            Command::Tournament { id, action }
        }
        Word::Puzzle => Command::Puzzle {
            action: super::puzzle::parse(rest)?,
        },
        Word::Standings => {
            let (id, action) = super::tournament::parse(&[&["standings"], rest].concat())?;
            Command::Tournament { id, action }
        }
    };
    Ok(cmd)
}

/// At most 40 characters of a word, for a reply that quotes it.
pub(super) fn short(word: &str) -> String {
    let mut out: String = word.chars().take(40).collect();
    if word.chars().count() > 40 {
        out.push('…');
    }
    out
}

/// A player (a mention or a name) and a game, in any order, each at most
/// once: `rating @bob void`.
fn someone_and_game(
    words: &[&str],
    command: &str,
) -> Result<(Option<Someone>, Option<GameKind>), CommandError> {
    let (mut who, mut game) = (None, None);
    for w in words {
        match GameKind::from_name(w) {
            Some(k) if game.is_none() && !w.starts_with('@') => game = Some(k),
            _ if who.is_none() => who = Some(Someone::named(w)),
            _ => {
                return err(format!(
                    "`{}`? Say at most one player and one game, like `{command} @bob void`",
                    short(w)
                ))
            }
        }
    }
    Ok((who, game))
}

/// The one change `settings KEY VALUE` asks for; `None` for `settings`
/// alone (show them).
fn setting(words: &[&str]) -> Result<Option<Setting>, CommandError> {
    let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
    let on_off = |v: Option<&String>| match v.map(String::as_str) {
        Some("on") => Some(true),
        Some("off") => Some(false),
        _ => None,
    };
    Ok(Some(
        match (lower.first().map(String::as_str), lower.get(1)) {
            (None, _) => return Ok(None),
            (Some("bare-moves"), v) => match on_off(v) {
                Some(b) => Setting::BareMoves(b),
                None => Setting::Unreadable,
            },
            (Some("threads"), v) => Setting::Threads(on_off(v)),
            (Some("daily-puzzle" | "daily-puzzles" | "daily"), v) => match v.map(String::as_str) {
                Some("off" | "none") => Setting::DailyPuzzle(None),
                Some(at) => match time_of_day(at) {
                    Some(minute) => Setting::DailyPuzzle(Some(minute)),
                    None => {
                        return err(format!(
                            "`{}` is no time of day: say `settings daily-puzzle 09:00` (UTC, 24 hours) or `settings daily-puzzle off`.",
                            short(at)
                        ))
                    }
                },
                None => {
                    return err(
                        "when? Say `settings daily-puzzle 09:00` (UTC, 24 hours) or `settings daily-puzzle off`.",
                    )
                }
            },
            (Some("replays" | "replay"), v) => match on_off(v) {
                Some(b) => Setting::Replays(b),
                None => Setting::Unreadable,
            },
            (Some("flip"), Some(_)) => match Flip::from_name(&lower[1..].join(" ")) {
                Some(f) => Setting::Flip(f),
                None => {
                    return err(format!(
                        "`{}` is not a way to turn your boards; use auto, white or black (player1 or player2 in Super Chess).",
                        short(&lower[1..].join(" "))
                    ))
                }
            },
            (Some("theme"), Some(t)) => match Theme::from_name(t) {
                Some(theme) => Setting::Theme(theme),
                None => {
                    return err(format!(
                        "`{t}` is not a theme; use classic or high-contrast."
                    ))
                }
            },
            _ => Setting::Unreadable,
        },
    ))
}

/// Whether a `rating` or `leaderboard` asks about puzzles.
fn is_puzzles(rest: &[&str]) -> bool {
    rest.first()
        .is_some_and(|w| matches!(w.to_ascii_lowercase().as_str(), "puzzle" | "puzzles"))
}

/// `09:00` (or `9:00`, `0900`, `9`) as minutes after midnight.
fn time_of_day(text: &str) -> Option<u16> {
    // Digits and a colon only: anything else (multi-byte text included,
    // where splitting by bytes could cut a character) is no time.
    if !text.is_ascii() {
        return None;
    }
    let text = text.trim_end_matches("utc");
    let (h, m) = match text.split_once(':') {
        Some((h, m)) => (h, m),
        None if text.len() == 4 => text.split_at(2),
        None => (text, "0"),
    };
    let (h, m): (u16, u16) = (h.parse().ok()?, m.parse().ok()?);
    (h < 24 && m < 60 && !text.is_empty()).then_some(h * 60 + m)
}

#[cfg(test)]
mod tests {
    /// A time of day reads as 24-hour UTC; odd text (multi-byte, empty,
    /// oversized) is no time, and never panics.
    #[test]
    fn a_daily_puzzles_time_is_read_or_refused() {
        assert_eq!(super::time_of_day("09:00"), Some(540));
        assert_eq!(super::time_of_day("0930"), Some(570));
        assert_eq!(super::time_of_day("9"), Some(540));
        assert_eq!(super::time_of_day("23:59utc"), Some(1439));
        for bad in [
            "",
            "24:00",
            "9:60",
            "€a",
            "жж",
            "時間",
            "ab:cd",
            &"9".repeat(5000),
        ] {
            assert_eq!(super::time_of_day(bad), None, "{bad}");
        }
        let e = super::parse("settings daily-puzzle €a").unwrap_err().0;
        assert!(e.contains("`€a` is no time of day"), "{e}");
    }

    use super::*;

    /// `thread` and `no-thread` ask for a game's own thread or none; said
    /// nothing, the channel's setting decides.
    #[test]
    fn a_challenge_may_ask_for_a_thread() {
        let thread = |text: &str| match parse(text).unwrap() {
            Command::Challenge { options, .. } => options.thread,
            other => panic!("{other:?}"),
        };
        assert_eq!(thread("challenge @bob void thread"), Some(true));
        assert_eq!(thread("challenge @bob THREAD 3d"), Some(true));
        assert_eq!(thread("challenge @bob no-thread standard"), Some(false));
        assert_eq!(thread("challenge @bob standard"), None);
    }

    #[test]
    fn commands_read_with_options_in_any_order() {
        assert_eq!(
            parse("/challenge @bob 3d void black").unwrap(),
            Command::Challenge {
                opponent: Someone::named("@bob"),
                options: ChallengeOptions {
                    variant: Some(GameKind::Void),
                    time: Some(TimeControl::Days(3)),
                    color: Some(ColorChoice::Black),
                    ..ChallengeOptions::default()
                },
            }
        );
        assert_eq!(
            parse("challenge @bob super16 private second").unwrap(),
            Command::Challenge {
                opponent: Someone::named("@bob"),
                options: ChallengeOptions {
                    variant: Some(GameKind::Super16),
                    color: Some(ColorChoice::Black),
                    mode: Some(ProgramMode::Private),
                    ..ChallengeOptions::default()
                },
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
            Command::Offer {
                kind: OfferKind::Draw,
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
                game: None,
                query: "can the minister cross a void?".into()
            }
        );
        assert_eq!(
            parse("undo no #3").unwrap(),
            Command::Offer {
                kind: OfferKind::Takeback,
                answer: Answer::Decline,
                game: Some(3)
            }
        );
    }

    /// The typed readers take any text: multi-byte, empty, oversized, and
    /// name what they could not read instead of panicking.
    #[test]
    fn odd_text_is_read_or_refused_never_panics() {
        let long = "é🎉".repeat(5_000);
        for text in [
            "colour 日本",
            "colour",
            "settings theme 🎉",
            "settings threads 日本",
            "settings ",
            "challenge @bob ヴォイド",
            "challenge @bob void ヴォイド",
            "challenge @ëve promotion-wins 🎉",
            "rules 🎉",
            "draw 🎉",
            "",
            long.as_str(),
        ] {
            let _ = parse(text);
        }
        assert_eq!(
            parse("colour 日本").unwrap(),
            Command::Colour {
                colour: Some(Paint::Unknown("日本".into())),
                game: None
            }
        );
        assert!(parse("challenge @bob ヴォイド")
            .unwrap_err()
            .0
            .starts_with("'ヴォイド' is not a variant I know"));
        assert_eq!(
            parse(&format!("settings theme {long}")).unwrap_err().0,
            format!("`{long}` is not a theme; use classic or high-contrast.")
        );
    }

    /// The words of the ratings commands, in any order; what is not
    /// understood is named (cut short when long).
    #[test]
    fn ratings_commands_read_their_words() {
        assert_eq!(
            parse("rating @bob void").unwrap(),
            Command::Rating {
                who: Some(Someone::named("@bob")),
                game: Some(GameKind::Void)
            }
        );
        assert_eq!(
            parse("elo chess99").unwrap(),
            Command::Rating {
                who: None,
                game: Some(GameKind::Chess99)
            }
        );
        assert_eq!(
            parse("top correspondence standard").unwrap(),
            Command::Leaderboard {
                game: Some(GameKind::Standard),
                pool: Some(Pool::Correspondence)
            }
        );
        assert_eq!(
            parse("leaderboard").unwrap(),
            Command::Leaderboard {
                game: None,
                pool: None
            }
        );
        assert_eq!(parse("stats").unwrap(), Command::Profile { who: None });
        assert_eq!(
            parse("games all").unwrap(),
            Command::Games { finished: true }
        );
        assert_eq!(
            parse("rematch #4").unwrap(),
            Command::Rematch { game: Some(4) }
        );
        assert_eq!(parse("abort").unwrap(), Command::Abort { game: None });
        let casual = match parse("challenge @bob void casual").unwrap() {
            Command::Challenge { options, .. } => options.rated,
            other => panic!("{other:?}"),
        };
        assert_eq!(casual, Some(false));
        // Words that would be silently dropped are refused instead.
        for (text, says) in [
            ("challenge @bob rated casual", "not both"),
            ("rematch #١", "`#١`? `rematch` takes only a game's number"),
            ("abort now", "`now`? `abort` takes only a game's number"),
            (
                "games finished today",
                "`games finished` the last ones to end",
            ),
            (
                "challenge @bob void 3+2 3d",
                "`3+2` and `3d` are two time controls: give one (`3+2` or `3d`)",
            ),
            (
                "challenge @bob white black",
                "`white` and `black`? Choose one side",
            ),
            (
                "challenge @bob void standard",
                "`void` and `standard` are two games",
            ),
        ] {
            let e = parse(text).unwrap_err().to_string();
            assert!(e.contains(says), "{text}: {e}");
        }
        // Odd words: named, multi-byte and long ones cut short, never a panic.
        let long = "ж".repeat(500);
        assert!(parse(&format!("leaderboard {long}"))
            .unwrap_err()
            .0
            .starts_with(&format!("`{}…`?", "ж".repeat(40))));
        assert!(parse("leaderboard void 日本")
            .unwrap_err()
            .0
            .starts_with("`日本`?"));
        assert!(parse("rating @a @b").unwrap_err().0.starts_with("`@b`?"));
        assert!(parse("profile void").is_err());
        assert!(parse("games 🎉").is_err());
        assert_eq!(
            parse("rating 日本").unwrap(),
            Command::Rating {
                who: Some(Someone::named("日本")),
                game: None
            }
        );
    }

    /// A colour and a setting are read once, into the renderer's own types;
    /// a word that names neither is kept for the reply to name.
    #[test]
    fn colours_and_settings_are_typed_when_read() {
        assert_eq!(
            parse("colour Gold #2").unwrap(),
            Command::Colour {
                colour: Some(Paint::Known(voidmate_render::PieceColour::Gold)),
                game: Some(2)
            }
        );
        assert_eq!(
            parse("colour plaid").unwrap(),
            Command::Colour {
                colour: Some(Paint::Unknown("plaid".into())),
                game: None
            }
        );
        let changes = |text: &str| match parse(text).unwrap() {
            Command::Settings { changes } => changes,
            other => panic!("{other:?}"),
        };
        assert_eq!(changes("settings"), vec![]);
        assert_eq!(
            changes("settings theme HC"),
            vec![Setting::Theme(Theme::HighContrast)]
        );
        assert_eq!(
            changes("settings bare-moves OFF"),
            vec![Setting::BareMoves(false)]
        );
        assert_eq!(
            changes("settings threads maybe"),
            vec![Setting::Threads(None)]
        );
        assert_eq!(changes("settings bare-moves"), vec![Setting::Unreadable]);
        assert_eq!(changes("settings colour red"), vec![Setting::Unreadable]);
        assert_eq!(
            parse("settings theme plaid").unwrap_err().0,
            "`plaid` is not a theme; use classic or high-contrast."
        );
        assert_eq!(
            changes("settings flip White"),
            vec![Setting::Flip(Flip::White)]
        );
        assert_eq!(
            changes("settings flip auto"),
            vec![Setting::Flip(Flip::Auto)]
        );
        assert_eq!(changes("settings flip"), vec![Setting::Unreadable]);
        // Super Chess's sides by its own names.
        assert_eq!(
            changes("settings flip player 2"),
            vec![Setting::Flip(Flip::Black)]
        );
        assert_eq!(
            changes("settings flip Player1"),
            vec![Setting::Flip(Flip::White)]
        );
        assert_eq!(
            changes("settings flip p2"),
            vec![Setting::Flip(Flip::Black)]
        );
        assert!(parse("settings flip player 3")
            .unwrap_err()
            .0
            .contains("player1 or player2"));
        assert_eq!(
            changes("settings replays OFF"),
            vec![Setting::Replays(false)]
        );
        for odd in [
            "settings replays",
            "settings replays 🎉",
            "settings replays \u{200B}",
        ] {
            assert_eq!(changes(odd), vec![Setting::Unreadable], "{odd}");
        }
        let long = format!("settings replays {}", "é".repeat(5000));
        assert_eq!(changes(&long), vec![Setting::Unreadable]);
        assert_eq!(
            parse("settings flip upside-down").unwrap_err().0,
            "`upside-down` is not a way to turn your boards; use auto, white or black (player1 or player2 in Super Chess)."
        );
        let board = |text: &str| match parse(text).unwrap() {
            Command::Board { zoom, game } => (zoom, game),
            other => panic!("{other:?}"),
        };
        assert_eq!(board("board"), (None, None));
        assert_eq!(board("board zoom h9"), (Some("h9".into()), None));
        assert_eq!(board("board #3 ZOOM h9"), (Some("h9".into()), Some(3)));
        assert_eq!(
            parse("board zoom").unwrap_err().0,
            "zoom on which square? For example: `board zoom e5`"
        );
    }

    #[test]
    fn promotion_wins_picks_its_variant_and_nothing_else() {
        for text in [
            "challenge @bob suicide-void promotion-wins",
            "challenge @bob promotion-wins",
            "challenge @bob pw suicide-void 2d",
        ] {
            let Command::Challenge { options, .. } = parse(text).unwrap() else {
                panic!("{text}")
            };
            assert_eq!(
                options.variant,
                Some(GameKind::SuicideVoidPromotionWins),
                "{text}"
            );
        }
        for text in [
            "challenge @bob void promotion-wins",
            "challenge @bob xiangqi promotion-wins",
        ] {
            assert!(
                parse(text)
                    .unwrap_err()
                    .0
                    .starts_with("promotion-wins is an option of Suicide Void Chess"),
                "{text}"
            );
        }
    }

    #[test]
    fn a_level_reads_in_several_spellings() {
        for text in [
            "challenge @voidmate void 4",
            "challenge @voidmate level 4 void",
            "challenge @voidmate L4",
            "challenge @voidmate level=4",
        ] {
            let Command::Challenge { options, .. } = parse(text).unwrap() else {
                panic!("{text}")
            };
            assert_eq!(options.level, Some(4), "{text}");
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
        // A game nobody knows is named, with the ones there are; a second
        // unknown word is what is not understood.
        assert!(parse("challenge bob xiangqi 3d")
            .unwrap_err()
            .0
            .starts_with("'xiangqi' is not a variant I know; try one of: standard, void"));
        assert!(parse("challenge bob xiangqi shogi")
            .unwrap_err()
            .0
            .contains("I do not understand `shogi`"));
    }
}
