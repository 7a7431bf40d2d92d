//! A game's history as text: its move list (`history`) and its PGN, with a
//! review's evaluations and marks where there is one.

use crate::command::{ProgramMode, TimeControl};
use crate::game::Game;
use std::fmt::Write as _;
use voidmate_rules::{Color, GameKind, Position};

/// The game's moves, numbered, for `history`.
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
        // Placing the void (`@e5`) comes before move 1: it has no number.
        if white_to_move {
            let _ = write!(out, "{number}. ");
        } else if i == 0 && !m.san.starts_with('@') {
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
/// The PGN standard's `TimeControl`: the base time in seconds and the
/// increment (`60+0` for a minute), `-` for no clock (correspondence or no
/// limit; the standard has no form for days per move).
fn time_control_tag(clock: &TimeControl) -> String {
    match clock {
        TimeControl::Clock { minutes, increment } => format!("{}+{increment}", minutes * 60),
        TimeControl::None | TimeControl::Days(_) => "-".into(),
    }
}

/// `2026.11.27` and `14:05:09` for a time in seconds since 1970 (UTC).
fn utc_date_time(secs: i64) -> (String, String) {
    let (year, month, day, rem) = crate::time::civil(secs);
    (
        format!("{year:04}.{month:02}.{day:02}"),
        format!("{:02}:{:02}:{:02}", rem / 3600, rem / 60 % 60, rem % 60),
    )
}

/// A game's PGN, with a review's evaluations (`[%eval ...]`, White's view)
/// and marks on every move when there is one.
pub(crate) fn pgn_text_reviewed(
    g: &Game,
    channel: &str,
    review: Option<&crate::review::Review>,
) -> String {
    let ending = g.rec.ending();
    let result = ending.map_or("*", |e| e.result.code()).to_string();
    let (date, time) = utc_date_time(g.rec.created_at);
    // The seven tags every reader expects, in their order; then the rest.
    let mut tags: Vec<(&str, String)> = vec![
        ("Event", format!("Voidmate game #{}", g.id())),
        ("Site", channel.to_string()),
        ("Date", date.clone()),
        ("Round", "-".into()),
        ("White", g.name(Color::White)),
        ("Black", g.name(Color::Black)),
        ("Result", result.clone()),
        ("UTCDate", date),
        ("UTCTime", time),
        ("Variant", crate::pgn::variant_tag(g.kind()).to_string()),
        ("TimeControl", time_control_tag(&g.rec.clock)),
    ];
    if let Some(e) = ending {
        tags.push(("Termination", e.termination.to_string()));
    }
    // The start, wherever it is not chess's: a position set up, or a game
    // whose readers do not know its start (every game of ours but standard
    // chess and antichess; Suicide Void Chess's, with Black to place the
    // void, too).
    let chess_start = matches!(g.kind(), GameKind::Standard | GameKind::Antichess)
        && g.rec.start_fen == g.pos.rules().definition().start_fen;
    if !chess_start {
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
    // Each move's evaluation and mark from the review, and its clock.
    let notes: Vec<crate::pgn::Annotation> = g
        .moves
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let reviewed = review.and_then(|r| r.moves.get(i));
            let mut comment = Vec::new();
            if let Some(m) = reviewed {
                let white = if m.mover == Color::White {
                    m.after
                } else {
                    m.after.flip()
                };
                comment.push(format!("[%eval {}]", white.pgn()));
            }
            if let Some(ms) = row.clock_ms {
                let s = ms.max(0) / 1000;
                comment.push(format!(
                    "[%clk {}:{:02}:{:02}]",
                    s / 3600,
                    s / 60 % 60,
                    s % 60
                ));
            }
            crate::pgn::Annotation {
                mark: reviewed.and_then(|m| m.mark.map(crate::review::Mark::symbol)),
                comment: (!comment.is_empty()).then(|| comment.join(" ")),
            }
        })
        .collect();
    crate::pgn::write(
        &tags,
        &crate::pgn::movetext_annotated(&start(g), &sans, &result, &notes),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 43, point 7: dates in UTC, and the clock in seconds.
    #[test]
    fn pgn_dates_and_clocks_are_as_the_standard_writes_them() {
        assert_eq!(utc_date_time(0), ("1970.01.01".into(), "00:00:00".into()));
        assert_eq!(
            utc_date_time(1_795_791_909),
            ("2026.11.27".into(), "15:05:09".into())
        );
        assert_eq!(
            utc_date_time(951_825_600),
            ("2000.02.29".into(), "12:00:00".into())
        );
        let clock = |minutes, increment| TimeControl::Clock { minutes, increment };
        assert_eq!(time_control_tag(&clock(1, 0)), "60+0");
        assert_eq!(time_control_tag(&clock(10, 5)), "600+5");
        assert_eq!(time_control_tag(&TimeControl::Days(3)), "-");
        assert_eq!(time_control_tag(&TimeControl::None), "-");
    }
}
