//! Words the core writes everywhere: durations, clock faces, lists of
//! names. (A game's move list and PGN are `history`'s.)

use crate::contract::Player;

/// "2 days 23 hours", "5 hours 20 minutes", "40 minutes" in units of the
/// configured day, to the nearest hour (past a day) or minute: a deadline
/// three days off, seconds after a move, is "3 days", never "2 days".
pub(crate) fn human_duration(seconds: i64, day: i64) -> String {
    let (seconds, day) = (seconds.max(0), day.max(1));
    let unit = |n: i64, one: &str| format!("{n} {one}{}", if n == 1 { "" } else { "s" });
    let both = |n: i64, big: &str, m: i64, small: &str| match (n, m) {
        (0, m) => unit(m, small),
        (n, 0) => unit(n, big),
        (n, m) => format!("{} {}", unit(n, big), unit(m, small)),
    };
    // Units of a day, rounded to the nearest.
    let rounded = |per_day: i64| (seconds.saturating_mul(per_day * 2) + day) / (2 * day);
    let hours = rounded(24);
    if hours >= 24 {
        return both(hours / 24, "day", hours % 24, "hour");
    }
    let minutes = rounded(24 * 60).max(1);
    both(minutes / 60, "hour", minutes % 60, "minute")
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
/// A game's length, counted one way everywhere: "1 move (1 ply)", "2 moves
/// (4 plies)" (a move is a full move, White's and Black's plies).
pub(crate) fn moves_and_plies(plies: i64) -> String {
    let moves = (plies + 1) / 2;
    format!(
        "{moves} move{} ({plies} pl{})",
        if moves == 1 { "" } else { "s" },
        if plies == 1 { "y" } else { "ies" }
    )
}

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

/// Rows laid out in columns, each column as wide as its widest cell, two
/// spaces apart; the first row is the header, underlined. No line begins
/// with spaces (so the chat adapters do not read it as a command list).
pub(crate) fn table(rows: &[Vec<String>]) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let width = |c: usize| {
        rows.iter()
            .filter_map(|r| r.get(c))
            .map(|s| s.chars().count())
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..columns).map(width).collect();
    let mut out = String::new();
    for (i, row) in rows.iter().enumerate() {
        let mut line = String::new();
        for (c, cell) in row.iter().enumerate() {
            if c > 0 {
                line.push_str("  ");
            }
            line.push_str(cell);
            if c + 1 < row.len() {
                line.push_str(&" ".repeat(widths[c].saturating_sub(cell.chars().count())));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
        if i == 0 {
            let total: usize = widths.iter().sum::<usize>() + 2 * widths.len().saturating_sub(1);
            out.push_str(&"-".repeat(total));
            out.push('\n');
        }
    }
    out.pop();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_left_is_said_in_days_and_hours() {
        const DAY: i64 = 86_400;
        assert_eq!(human_duration(3 * DAY, DAY), "3 days");
        assert_eq!(human_duration(3 * DAY - 5, DAY), "3 days");
        assert_eq!(human_duration(3 * DAY - 3600, DAY), "2 days 23 hours");
        assert_eq!(human_duration(DAY + 3 * 3600 + 1000, DAY), "1 day 3 hours");
        assert_eq!(human_duration(DAY - 10, DAY), "1 day");
        assert_eq!(
            human_duration(5 * 3600 + 20 * 60, DAY),
            "5 hours 20 minutes"
        );
        assert_eq!(human_duration(3600, DAY), "1 hour");
        assert_eq!(human_duration(40 * 60, DAY), "40 minutes");
        assert_eq!(human_duration(3, DAY), "1 minute");
        assert_eq!(human_duration(-7, DAY), "1 minute");
        // A test day of 100 seconds: 150 seconds are a day and a half.
        assert_eq!(human_duration(150, 100), "1 day 12 hours");
    }

    #[test]
    fn a_games_length_is_counted_in_moves_and_plies() {
        assert_eq!(moves_and_plies(1), "1 move (1 ply)");
        assert_eq!(moves_and_plies(2), "1 move (2 plies)");
        assert_eq!(moves_and_plies(3), "2 moves (3 plies)");
        assert_eq!(moves_and_plies(0), "0 moves (0 plies)");
    }
}
