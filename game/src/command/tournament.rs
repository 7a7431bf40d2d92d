//! `tournament ...`: the words of a tournament command, read into a
//! [`TournamentAction`]. Everything a player can get wrong is named here,
//! before anything is looked up.

use super::parse::{short, CommandError};
use super::{Someone, TimeControl};
use std::fmt;
use voidmate_rules::GameKind;

/// The most rounds a Swiss may have, and the fewest.
pub const SWISS_ROUNDS: std::ops::RangeInclusive<u32> = 3..=30;
/// Rounds of a Swiss when the organiser does not say.
pub const DEFAULT_ROUNDS: u32 = 7;
/// Players of a round robin.
pub const ROUND_ROBIN_PLAYERS: std::ops::RangeInclusive<u32> = 3..=20;
/// The most players a Swiss may take, and how many when not said.
pub const MAX_SWISS_PLAYERS: u32 = 1000;
pub const DEFAULT_MAX_PLAYERS: u32 = 64;
/// A correspondence round's length: days, and the default.
pub const ROUND_DAYS: std::ops::RangeInclusive<u32> = 1..=60;
pub const DEFAULT_ROUND_DAYS: u32 = 7;

/// A tournament's number, as players write it: `T3`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TournamentId(pub i64);

impl fmt::Display for TournamentId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "T{}", self.0)
    }
}

impl TournamentId {
    /// `T3`, `t3` or `3`.
    pub fn parse(word: &str) -> Option<TournamentId> {
        let digits = word
            .strip_prefix('T')
            .or_else(|| word.strip_prefix('t'))
            .unwrap_or(word);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 12 {
            return None;
        }
        digits.parse().ok().map(TournamentId)
    }
}

/// How a tournament is paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// FIDE's Dutch system.
    Swiss,
    /// Berger tables; `double`: everyone meets twice, colours reversed.
    RoundRobin { double: bool },
}

impl Format {
    pub fn code(self) -> &'static str {
        match self {
            Format::Swiss => "swiss",
            Format::RoundRobin { .. } => "roundrobin",
        }
    }

    /// As a player writes it.
    pub fn parse(word: &str) -> Option<Format> {
        match word.to_ascii_lowercase().as_str() {
            "swiss" => Some(Format::Swiss),
            "roundrobin" | "round-robin" | "rr" | "berger" => {
                Some(Format::RoundRobin { double: false })
            }
            _ => None,
        }
    }

    pub fn standings(self) -> voidmate_tournament::standings::Format {
        match self {
            Format::Swiss => voidmate_tournament::standings::Format::Swiss,
            Format::RoundRobin { .. } => voidmate_tournament::standings::Format::RoundRobin,
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Swiss => "Swiss",
            Format::RoundRobin { double: false } => "round robin",
            Format::RoundRobin { double: true } => "double round robin",
        })
    }
}

/// A tournament as `tournament create` describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentSpec {
    pub format: Format,
    pub kind: GameKind,
    pub time: TimeControl,
    /// Swiss: the rounds (default 7); round robin: none (the players decide).
    pub rounds: Option<u32>,
    /// Correspondence: days per round.
    pub round_days: Option<u32>,
    /// When it starts by itself.
    pub starts: Option<Start>,
    pub rated: bool,
    pub max_players: Option<u32>,
    pub adjudicate: bool,
}

/// When a tournament starts by itself: a time (ms since the epoch, UTC),
/// or words that give none (a slash command's option, refused with how to
/// write one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Start {
    At(i64),
    Unreadable(String),
}

impl Start {
    /// `2026-12-01 18:00 UTC` and the like.
    pub fn read(text: &str) -> Start {
        let words: Vec<&str> = text.split_whitespace().collect();
        match when(&words) {
            Ok((at, used)) if used == words.len() => Start::At(at),
            _ => Start::Unreadable(text.to_string()),
        }
    }
}

/// What a tournament command asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TournamentAction {
    Create(TournamentSpec),
    Start,
    Cancel,
    Pause,
    Resume,
    Kick(Someone),
    Forbid(Someone, Someone),
    /// Close the round (every game of it over) and pair the next.
    NextRound,
    Join,
    Leave,
    Withdraw,
    Rejoin,
    /// A player tells the arbiter they are here this round.
    Here,
    Info,
    List,
    Pairings(Option<u32>),
    Standings,
    Games,
    History(Option<Someone>),
}

impl TournamentAction {
    /// Whether the action only reads.
    pub fn is_read_only(&self) -> bool {
        matches!(
            self,
            TournamentAction::Info
                | TournamentAction::List
                | TournamentAction::Pairings(_)
                | TournamentAction::Standings
                | TournamentAction::Games
                | TournamentAction::History(_)
        )
    }
}

fn err<T>(msg: impl Into<String>) -> Result<T, CommandError> {
    Err(CommandError(msg.into()))
}

/// Reads `tournament [T3] ACTION ...` (the words after `tournament`).
pub fn parse(words: &[&str]) -> Result<(Option<TournamentId>, TournamentAction), CommandError> {
    let mut id = None;
    let mut rest: Vec<&str> = Vec::new();
    for w in words {
        let looks_like_id = w.len() > 1
            && (w.starts_with('T') || w.starts_with('t'))
            && w[1..].bytes().all(|b| b.is_ascii_digit());
        if looks_like_id {
            let Some(t) = TournamentId::parse(w) else {
                return err(format!("`{}` is not a tournament's number", short(w)));
            };
            if id.is_some_and(|i| i != t) {
                return err("name one tournament, like `T3`");
            }
            id = Some(t);
        } else {
            rest.push(w);
        }
    }
    let lower: Vec<String> = rest.iter().map(|w| w.to_ascii_lowercase()).collect();
    let first = lower.first().map(String::as_str);
    let extra = |n: usize, usage: &str| -> Result<(), CommandError> {
        match rest.get(n) {
            Some(w) => err(format!("`{}`? Say `{usage}`", short(w))),
            None => Ok(()),
        }
    };
    let action = match first {
        None | Some("info" | "show") => {
            extra(1, "tournament info [T3]")?;
            TournamentAction::Info
        }
        Some("create" | "new") => TournamentAction::Create(spec(&rest[1..])?),
        Some("start") => {
            extra(1, "tournament start [T3]")?;
            TournamentAction::Start
        }
        Some("cancel") => {
            extra(1, "tournament cancel [T3]")?;
            TournamentAction::Cancel
        }
        Some("pause") => {
            extra(1, "tournament pause [T3]")?;
            TournamentAction::Pause
        }
        Some("resume") => {
            extra(1, "tournament resume [T3]")?;
            TournamentAction::Resume
        }
        Some("kick") => match &rest[1..] {
            [who] => TournamentAction::Kick(Someone::named(who)),
            _ => return err("kick whom? `tournament kick @name`"),
        },
        Some("forbid") => match &rest[1..] {
            [a, b] => TournamentAction::Forbid(Someone::named(a), Someone::named(b)),
            _ => {
                return err("forbid which two players? `tournament forbid @alice @bob`: they will never be paired together")
            }
        },
        Some("round") => match lower.get(1).map(String::as_str) {
            Some("next") if rest.len() == 2 => TournamentAction::NextRound,
            _ => return err("`tournament round next` closes a round whose games are all over and pairs the next"),
        },
        Some("next") => {
            extra(1, "tournament round next")?;
            TournamentAction::NextRound
        }
        Some("join") => {
            extra(1, "tournament join [T3]")?;
            TournamentAction::Join
        }
        Some("leave") => {
            extra(1, "tournament leave [T3]")?;
            TournamentAction::Leave
        }
        Some("withdraw") => {
            extra(1, "tournament withdraw [T3]")?;
            TournamentAction::Withdraw
        }
        Some("rejoin") => {
            extra(1, "tournament rejoin [T3]")?;
            TournamentAction::Rejoin
        }
        Some("here" | "present") => {
            extra(1, "tournament here")?;
            TournamentAction::Here
        }
        Some("list") => {
            extra(1, "tournament list")?;
            TournamentAction::List
        }
        Some("pairings" | "pairing") => match rest.get(1) {
            None => TournamentAction::Pairings(None),
            Some(w) => match w.parse::<u32>() {
                Ok(n) if n >= 1 && rest.len() == 2 => TournamentAction::Pairings(Some(n)),
                _ => return err(format!("`{}`? Say a round's number: `tournament pairings 2`", short(w))),
            },
        },
        Some("standings" | "standing" | "table") => {
            extra(1, "tournament standings [T3]")?;
            TournamentAction::Standings
        }
        Some("games") => {
            extra(1, "tournament games [T3]")?;
            TournamentAction::Games
        }
        Some("history") => match &rest[1..] {
            [] => TournamentAction::History(None),
            [who] => TournamentAction::History(Some(Someone::named(who))),
            _ => return err("whose history? `tournament history @name`"),
        },
        Some(_) => {
            return err(format!(
                "`tournament {}`? Say `tournament create`, `join`, `leave`, `withdraw`, `rejoin`, `here`, `info`, `list`, `pairings`, `standings`, `games`, `history`; organisers: `start`, `pause`, `resume`, `cancel`, `kick`, `forbid`, `round next` (`help tournament`)",
                short(rest[0])
            ))
        }
    };
    Ok((id, action))
}

/// `create swiss void 3d rounds 7 round-days 4 starts 2026-12-01 18:00 UTC
/// casual max 64`.
fn spec(words: &[&str]) -> Result<TournamentSpec, CommandError> {
    const USAGE: &str = "`tournament create swiss void 3d rounds 7 round-days 4` or `tournament create roundrobin standard 10+5 [double]`";
    let Some((format_word, words)) = words.split_first() else {
        return err(format!("create which tournament? {USAGE}"));
    };
    let Some(mut format) = Format::parse(format_word) else {
        return err(format!(
            "`{}` is not a tournament format: `swiss` or `roundrobin`. {USAGE}",
            short(format_word)
        ));
    };
    let mut kind = None;
    let mut time = None;
    let mut rounds = None;
    let mut round_days = None;
    let mut starts = None;
    let mut rated = None;
    let mut max_players = None;
    let mut adjudicate = false;
    let mut i = 0;
    let number = |i: usize, what: &str| -> Result<u32, CommandError> {
        let Some(w) = words.get(i) else {
            return err(format!("`{what}` needs a number, like `{what} 7`"));
        };
        w.parse::<u32>().map_err(|_| {
            CommandError(format!(
                "`{what} {}`? Say a whole number, like `{what} 7`",
                short(w)
            ))
        })
    };
    while i < words.len() {
        let w = words[i];
        let lower = w.to_ascii_lowercase();
        match lower.as_str() {
            "rounds" | "round" => {
                rounds = Some(number(i + 1, "rounds")?);
                i += 2;
                continue;
            }
            "round-days" | "rounddays" | "days-per-round" => {
                round_days = Some(number(i + 1, "round-days")?);
                i += 2;
                continue;
            }
            "max" | "max-players" => {
                max_players = Some(number(i + 1, "max")?);
                i += 2;
                continue;
            }
            "starts" | "start" | "at" => {
                let (at, used) = when(&words[i + 1..])?;
                starts = Some(Start::At(at));
                i += 1 + used;
                continue;
            }
            "rated" | "casual" | "unrated" => {
                let r = lower == "rated";
                if rated.is_some_and(|x| x != r) {
                    return err("a tournament is `rated` or `casual`, not both");
                }
                rated = Some(r);
            }
            "double" => match format {
                Format::RoundRobin { .. } => format = Format::RoundRobin { double: true },
                Format::Swiss => {
                    return err(
                        "`double` is for a round robin: everyone meets twice, colours reversed",
                    )
                }
            },
            "adjudicate" => adjudicate = true,
            _ => {
                if let Some(t) = TimeControl::parse(w) {
                    if time.is_some() {
                        return err(format!("`{}`: give one time control", short(w)));
                    }
                    time = Some(t);
                } else if let Some(k) = GameKind::from_name(w) {
                    if kind.is_some() {
                        return err(format!("`{}`: a tournament plays one game", short(w)));
                    }
                    kind = Some(k);
                } else {
                    return err(format!(
                        "I do not understand `{}` in that tournament. {USAGE} (`variants` lists the games)",
                        short(w)
                    ));
                }
            }
        }
        i += 1;
    }
    let Some(kind) = kind else {
        return err(format!(
            "which game? Name one, like `void` or `standard`. {USAGE}"
        ));
    };
    let Some(time) = time else {
        return err(format!(
            "a tournament needs a clock (`3+2`, `10+5`) or days per move (`3d`). {USAGE}"
        ));
    };
    TournamentSpec {
        format,
        kind,
        rounds,
        round_days,
        starts,
        rated: rated.unwrap_or(true),
        max_players,
        adjudicate,
        time,
    }
    .check()
}

impl TournamentSpec {
    /// The spec if every option fits its format and time control, else
    /// what does not.
    pub fn check(self) -> Result<TournamentSpec, CommandError> {
        let (format, time) = (self.format, &self.time);
        if *time == TimeControl::None {
            return err("a tournament needs a clock (`3+2`, `10+5`) or days per move (`3d`)");
        }
        if let Some(Start::Unreadable(w)) = &self.starts {
            return err(format!(
                "`{}`? Say when as `2026-12-01 18:00` (the date, then the time in UTC)",
                short(w)
            ));
        }
        match format {
            Format::Swiss => {
                if let Some(r) = self.rounds.filter(|r| !SWISS_ROUNDS.contains(r)) {
                    return err(format!(
                        "a Swiss has {} to {} rounds, not {r}",
                        SWISS_ROUNDS.start(),
                        SWISS_ROUNDS.end()
                    ));
                }
                if let Some(m) = self
                    .max_players
                    .filter(|m| !(2..=MAX_SWISS_PLAYERS).contains(m))
                {
                    return err(format!(
                        "`max {m}`? A Swiss takes 2 to {MAX_SWISS_PLAYERS} players"
                    ));
                }
            }
            Format::RoundRobin { .. } => {
                if self.rounds.is_some() {
                    return err("a round robin's rounds follow from its players (everyone meets everyone): leave `rounds` out");
                }
                if let Some(m) = self
                    .max_players
                    .filter(|m| !ROUND_ROBIN_PLAYERS.contains(m))
                {
                    return err(format!(
                        "`max {m}`? A round robin takes {} to {} players",
                        ROUND_ROBIN_PLAYERS.start(),
                        ROUND_ROBIN_PLAYERS.end()
                    ));
                }
            }
        }
        match (time, self.round_days) {
            (TimeControl::Clock { .. }, Some(_)) => {
                return err("`round-days` is for correspondence (`3d`): on a clock, a round ends when its games do")
            }
            (_, Some(d)) if !ROUND_DAYS.contains(&d) => {
                return err(format!(
                    "a round lasts {} to {} days, not {d}",
                    ROUND_DAYS.start(),
                    ROUND_DAYS.end()
                ))
            }
            _ => {}
        }
        if self.adjudicate && matches!(time, TimeControl::Clock { .. }) {
            return err("`adjudicate` is for correspondence rounds, which end at a deadline; on a clock every game is played out");
        }
        Ok(self)
    }
}

/// `2026-12-01 18:00 UTC`, `2026-12-01T18:00Z`, `2026-12-01` (midnight):
/// the time in ms since the epoch, and how many words it took.
fn when(words: &[&str]) -> Result<(i64, usize), CommandError> {
    const HOW: &str = "say when as `starts 2026-12-01 18:00 UTC` (the date, then the time in UTC)";
    let Some(first) = words.first() else {
        return err(HOW);
    };
    let (date, mut time) = match first.split_once(['T', 't']) {
        Some((d, t)) => (d, Some(t.trim_end_matches(['Z', 'z']))),
        None => (*first, None),
    };
    let mut used = 1;
    if time.is_none() {
        if let Some(t) = words.get(1).filter(|t| t.contains(':')) {
            time = Some(t.trim_end_matches(['Z', 'z']));
            used = 2;
        }
    }
    if words
        .get(used)
        .is_some_and(|w| w.eq_ignore_ascii_case("utc") || w.eq_ignore_ascii_case("gmt"))
    {
        used += 1;
    }
    let parts: Vec<&str> = date.split('-').collect();
    let [y, m, d] = parts.as_slice() else {
        return err(format!("`{}`? {HOW}", short(first)));
    };
    let (Ok(y), Ok(m), Ok(d)) = (y.parse::<i64>(), m.parse::<u32>(), d.parse::<u32>()) else {
        return err(format!("`{}`? {HOW}", short(first)));
    };
    let days_in = |y: i64, m: u32| match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        _ => 28,
    };
    if !(2000..=2999).contains(&y) || !(1..=12).contains(&m) || d == 0 || d > days_in(y, m) {
        return err(format!("`{}` is not a date. {HOW}", short(date)));
    }
    let (hh, mm) = match time {
        None => (0, 0),
        Some(t) => {
            let (h, mi) = t.split_once(':').unwrap_or((t, "0"));
            match (h.parse::<u32>(), mi.parse::<u32>()) {
                (Ok(h), Ok(mi)) if h < 24 && mi < 60 => (h, mi),
                _ => return err(format!("`{}` is not a time of day. {HOW}", short(t))),
            }
        }
    };
    Ok((
        (days_from_civil(y, m, d) * 86_400 + i64::from(hh) * 3600 + i64::from(mm) * 60) * 1000,
        used,
    ))
}

/// Days since 1970-01-01 of a date in the Gregorian calendar (Howard
/// Hinnant's algorithm).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    fn action(text: &str) -> Result<(Option<TournamentId>, TournamentAction), CommandError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        parse(&words)
    }

    #[test]
    fn a_swiss_is_created_with_its_options() {
        let (_, a) = action(
            "create swiss void 3d rounds 7 round-days 4 starts 2026-12-01 18:00 UTC casual max 64",
        )
        .unwrap();
        let TournamentAction::Create(s) = a else {
            panic!("{a:?}")
        };
        assert_eq!(s.format, Format::Swiss);
        assert_eq!(s.kind, GameKind::Void);
        assert_eq!(s.time, TimeControl::Days(3));
        assert_eq!(
            (s.rounds, s.round_days, s.max_players),
            (Some(7), Some(4), Some(64))
        );
        assert!(!s.rated);
        // 2026-12-01 18:00 UTC.
        assert_eq!(s.starts, Some(Start::At(1_796_148_000_000)));
    }

    #[test]
    fn a_double_round_robin_is_created() {
        let (_, a) = action("create roundrobin standard 10+5 double").unwrap();
        let TournamentAction::Create(s) = a else {
            panic!("{a:?}")
        };
        assert_eq!(s.format, Format::RoundRobin { double: true });
        assert!(s.rated);
    }

    #[test]
    fn bad_tournaments_are_named() {
        for (text, says) in [
            ("create knockout void 3d", "not a tournament format"),
            (
                "create swiss quantumchess 3d",
                "do not understand `quantumchess`",
            ),
            ("create swiss void 3d rounds 0", "3 to 30 rounds, not 0"),
            ("create swiss void 3d rounds 101", "3 to 30 rounds, not 101"),
            (
                "create swiss void 3d rounds 99999999999999999999",
                "whole number",
            ),
            ("create roundrobin void 3d max 2", "3 to 20 players"),
            ("create roundrobin void 3d max 21", "3 to 20 players"),
            ("create swiss void", "needs a clock"),
            ("create swiss void none", "needs a clock"),
            ("create swiss void 3+2 round-days 3", "for correspondence"),
            ("create swiss void 3d starts 2026-02-30", "not a date"),
            ("create swiss void 3d starts tomorrow", "say when"),
            ("create swiss void 3d double", "for a round robin"),
            ("dance", "`tournament dance`?"),
            ("join T3 T4", "name one tournament"),
        ] {
            let e = action(text).unwrap_err();
            assert!(e.0.contains(says), "{text}: {}", e.0);
        }
    }

    #[test]
    fn the_number_may_come_anywhere() {
        assert_eq!(
            action("join T3").unwrap(),
            (Some(TournamentId(3)), TournamentAction::Join)
        );
        assert_eq!(
            action("T3 standings").unwrap(),
            (Some(TournamentId(3)), TournamentAction::Standings)
        );
        assert_eq!(action("").unwrap(), (None, TournamentAction::Info));
        assert_eq!(
            action("pairings 2").unwrap(),
            (None, TournamentAction::Pairings(Some(2)))
        );
        assert_eq!(
            action("round next").unwrap(),
            (None, TournamentAction::NextRound)
        );
    }

    /// Odd text (multi-byte, empty, oversized, full-width digits) is read
    /// or refused with a short reply naming it, and never panics.
    #[test]
    fn odd_text_is_refused_by_name_and_never_panics() {
        let long = "é".repeat(5_000);
        let odd = [
            String::new(),
            " ".to_string(),
            "Té".to_string(),
            "T".to_string(),
            "T99999999999999999999".to_string(),
            "create swiss 名前 3d".to_string(),
            "create swiss void 3d rounds ７".to_string(),
            "create swiss void 3d starts 2026-12-01T１８:００".to_string(),
            "create swiss void 3d starts é-é-é".to_string(),
            "create swiss void 3d starts 2026-12-01 25:99".to_string(),
            "create swiss void 3d starts".to_string(),
            "history @🔥🔥 @x".to_string(),
            format!("create swiss void 3d {long}"),
            format!("kick {long}"),
            long.clone(),
        ];
        for text in &odd {
            if let Err(e) = action(text) {
                assert!(e.0.chars().count() < 400, "{text:.40}: {}", e.0.len());
            }
        }
        for when in [
            "",
            "é",
            &long,
            "2026-12-01T１８:００",
            "2026-13-01",
            "0-0-0",
        ] {
            assert!(
                matches!(Start::read(when), Start::Unreadable(_)),
                "{when:.40}"
            );
        }
        assert_eq!(
            Start::read("2026-12-01 18:00 UTC"),
            Start::At(days_from_civil(2026, 12, 1) * 86_400_000 + 18 * 3_600_000)
        );
    }

    #[test]
    fn dates_count_days_as_the_calendar_does() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        assert_eq!(days_from_civil(2026, 11, 28), 20_785);
    }
}
