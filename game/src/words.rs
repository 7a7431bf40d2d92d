//! Words the core writes everywhere: durations, clock faces, lists of
//! names. (A game's move list and PGN are `history`'s.)

use crate::contract::Player;

/// "2 days", "5 hours", "40 minutes" in units of the configured day.
pub(crate) fn human_duration(seconds: i64, day: i64) -> String {
    let hour = (day / 24).max(1);
    let (n, unit) = if seconds >= day {
        (seconds / day, "day")
    } else if seconds >= hour {
        (seconds / hour, "hour")
    } else {
        ((seconds * 60 / hour).max(1), "minute")
    };
    format!("{n} {unit}{}", if n == 1 { "" } else { "s" })
}

/// `4:05`, `0:09`, `1:02:03` (never negative).
pub(crate) fn clock_face(ms: i64) -> String {
    let s = ms.max(0) / 1000;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// "alice", "alice and bob", "alice, bob and carol".
pub(crate) fn and_list(players: &[Player]) -> String {
    let names: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// "a or b", "a, b or c".
pub(crate) fn or_list(items: &[String]) -> String {
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}
