//! Words the core writes: durations, clock faces, lists of names, a game's
//! move list and its PGN.

use crate::command::ProgramMode;
use crate::contract::Player;
use crate::game::Game;
use std::fmt::Write as _;
use voidmate_rules::{Color, Position};

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

pub(crate) fn history_text(g: &Game) -> String {
    if g.moves.is_empty() {
        return format!("{}: no moves yet.", g.title());
    }
    format!("{}: {}", g.title(), numbered(g))
}

/// The position the game started from (read when the game was loaded).
fn start(g: &Game) -> Position {
    Position::from_fen(g.pos.shared_rules().clone(), &g.rec.start_fen).expect("replayed before")
}

pub(crate) fn numbered(g: &Game) -> String {
    let start = start(g);
    let mut number = start.board().fullmove_number();
    let mut white_to_move = start.turn() == Color::White;
    let mut out = String::new();
    for (i, m) in g.moves.iter().enumerate() {
        if white_to_move {
            let _ = write!(out, "{number}. ");
        } else if i == 0 {
            let _ = write!(out, "{number}... ");
        }
        out.push_str(&m.san);
        out.push(' ');
        // Placing the void (`@e5`) comes before move 1 and does not count.
        if !white_to_move && !m.san.starts_with('@') {
            number += 1;
        }
        white_to_move = !white_to_move;
    }
    out.trim_end().to_string()
}

/// The game as PGN (see [`crate::pgn`]): tags readers know, the start when
/// it is not the usual one, the roster of a symmetric Super Chess game, and
/// the moves.
pub(crate) fn pgn_text(g: &Game, channel: &str) -> String {
    let result = g.rec.result.clone().unwrap_or_else(|| "*".into());
    let mut tags: Vec<(&str, String)> = vec![
        ("Event", format!("Voidmate game #{}", g.id())),
        ("Site", channel.to_string()),
        ("White", g.name(Color::White)),
        ("Black", g.name(Color::Black)),
        ("Result", result.clone()),
        ("Variant", crate::pgn::variant_tag(g.kind()).to_string()),
        ("TimeControl", g.rec.clock.code()),
    ];
    if let Some(t) = &g.rec.termination {
        tags.push(("Termination", t.clone()));
    }
    if g.rec.start_fen != g.pos.rules().definition().start_fen {
        tags.push(("SetUp", "1".into()));
        tags.push(("FEN", g.rec.start_fen.clone()));
    }
    // Private programs stay private, even after the game
    // (docs/rules/super16.md); such a game's PGN does not replay.
    if g.rec.mode != ProgramMode::Private {
        for (tag, color) in [
            ("WhiteProgram", Color::White),
            ("BlackProgram", Color::Black),
        ] {
            if let Some(p) = g.rec.seats[color]
                .program
                .as_deref()
                .filter(|p| *p != "default")
            {
                tags.push((tag, p.to_string()));
            }
        }
    }
    let sans: Vec<String> = g.moves.iter().map(|m| m.san.clone()).collect();
    crate::pgn::write(&tags, &crate::pgn::movetext(&start(g), &sans, &result))
}
