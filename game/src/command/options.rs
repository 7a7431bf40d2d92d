//! The options a challenge takes (time controls, sides, Super Chess modes)
//! and the kinds of proposal a player may make.

use std::fmt;

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

    /// The mode as stored (its [`ProgramMode::code`]), nothing else.
    pub fn from_code(code: &str) -> Option<ProgramMode> {
        [
            ProgramMode::Default,
            ProgramMode::Symmetric,
            ProgramMode::Private,
        ]
        .into_iter()
        .find(|m| m.code() == code)
    }

    /// The mode a player names, in any of its words.
    pub fn parse(s: &str) -> Option<ProgramMode> {
        match s.to_ascii_lowercase().as_str() {
            "default" | "unprogrammed" => Some(ProgramMode::Default),
            "symmetric" | "shared" | "same" => Some(ProgramMode::Symmetric),
            "private" | "secret" | "hidden" => Some(ProgramMode::Private),
            _ => None,
        }
    }
}

/// A proposal that stands until the next move, made by one player and
/// answered by the other: both kinds share one mechanism.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OfferKind {
    /// A draw offer: accepted, the game is drawn.
    Draw,
    /// A takeback request: accepted, the requester's last move (and the
    /// reply to it, when asked on their own turn) is taken back.
    Takeback,
}

impl OfferKind {
    /// Its command word (`draw`, `undo`).
    pub fn word(self) -> &'static str {
        match self {
            OfferKind::Draw => "draw",
            OfferKind::Takeback => "undo",
        }
    }

    /// Its letter where questions are stored and in button ids (`d`, `u`).
    pub fn code(self) -> &'static str {
        match self {
            OfferKind::Draw => "d",
            OfferKind::Takeback => "u",
        }
    }

    pub fn from_code(code: &str) -> Option<OfferKind> {
        match code {
            "d" => Some(OfferKind::Draw),
            "u" => Some(OfferKind::Takeback),
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
                let m = if *minutes == 1 { "minute" } else { "minutes" };
                let s = if *increment == 1 { "second" } else { "seconds" };
                write!(f, "{minutes} {m} + {increment} {s} per move")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 43, point 6: one of a thing is singular.
    #[test]
    fn time_controls_read_in_the_singular_and_the_plural() {
        let words = |text: &str| TimeControl::parse(text).unwrap().to_string();
        assert_eq!(words("1+1"), "1 minute + 1 second per move");
        assert_eq!(words("1+0"), "1 minute + 0 seconds per move");
        assert_eq!(words("3+2"), "3 minutes + 2 seconds per move");
        assert_eq!(words("1d"), "1 day per move");
        assert_eq!(words("3d"), "3 days per move");
    }
}

/// Which ratings a game counts for: games on a clock, or correspondence
/// (days per move, or no limit).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Pool {
    Live,
    Correspondence,
}

impl Pool {
    pub const ALL: [Pool; 2] = [Pool::Live, Pool::Correspondence];

    /// As stored and written: `live`, `correspondence`.
    pub fn name(self) -> &'static str {
        match self {
            Pool::Live => "live",
            Pool::Correspondence => "correspondence",
        }
    }

    /// As stored (its [`Pool::name`]), nothing else.
    pub fn from_code(code: &str) -> Option<Pool> {
        Pool::ALL.into_iter().find(|p| p.name() == code)
    }

    /// As a player writes it: `live`, `blitz`, `correspondence`, `daily`...
    pub fn from_name(name: &str) -> Option<Pool> {
        match name.trim().to_ascii_lowercase().as_str() {
            "live" | "clock" | "blitz" | "rapid" | "bullet" => Some(Pool::Live),
            "correspondence" | "corr" | "daily" => Some(Pool::Correspondence),
            _ => None,
        }
    }
}

impl Pool {
    /// The pool of games with this time control.
    pub fn of(time: &TimeControl) -> Pool {
        match time {
            TimeControl::Clock { .. } => Pool::Live,
            TimeControl::Days(_) | TimeControl::None => Pool::Correspondence,
        }
    }
}
