//! Words the core writes: durations, outcomes, history and PGN, and the
//! replies for failures.

use super::*;

/// "2 days", "5 hours", "40 minutes" in units of the configured day.
pub(super) fn human_duration(seconds: i64, day: i64) -> String {
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

/// "alice", "alice and bob", "alice, bob and carol".
pub(super) fn and_list(players: &[Player]) -> String {
    let names: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

pub(super) fn history_text(g: &Game) -> String {
    if g.moves.is_empty() {
        return format!("{}: no moves yet.", g.title());
    }
    format!("{}: {}", g.title(), numbered(g))
}

pub(super) fn numbered(g: &Game) -> String {
    let start = Position::from_fen(g.pos.shared_rules().clone(), &g.row.start_fen)
        .expect("replayed before");
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

pub(super) fn pgn_text(g: &Game, channel: &str) -> String {
    let result = g.row.result.clone().unwrap_or_else(|| "*".into());
    let mut s = String::new();
    let _ = writeln!(s, "[Event \"Voidmate game #{}\"]", g.row.id);
    let _ = writeln!(s, "[Site \"{channel}\"]");
    let _ = writeln!(s, "[White \"{}\"]", g.name(Color::White));
    let _ = writeln!(s, "[Black \"{}\"]", g.name(Color::Black));
    let _ = writeln!(s, "[Result \"{result}\"]");
    let _ = writeln!(s, "[Variant \"{}\"]", g.pos.rules().title());
    let _ = writeln!(s, "[TimeControl \"{}\"]", g.row.time_control);
    if let Some(t) = &g.row.termination {
        let _ = writeln!(s, "[Termination \"{t}\"]");
    }
    if g.row.start_fen != g.pos.rules().definition().start_fen {
        let _ = writeln!(s, "[SetUp \"1\"]");
        let _ = writeln!(s, "[FEN \"{}\"]", g.row.start_fen);
    }
    s.push('\n');
    if !g.moves.is_empty() {
        s.push_str(&numbered(g));
        s.push(' ');
    }
    s.push_str(&result);
    s
}

/// A stored game that does not hold together, in words.
pub(super) fn damaged(id: i64, why: String) -> Failure {
    Failure::User(format!(
        "The stored record of game #{id} is damaged ({why}), so I cannot go on with it. Nothing was changed."
    ))
}

pub(super) fn error_reply(text: String) -> Reply {
    Reply {
        text: text.into(),
        image: None,
        notify: vec![],
        actions: Vec::new(),
        is_error: true,
        audience: Audience::Author,
        deliveries: Vec::new(),
    }
}

/// A storage failure in words: a locked database is "busy", anything else
/// "went wrong"; either way nothing was changed.
pub(super) fn db_failure(e: sqlx::Error) -> Reply {
    let busy = match &e {
        sqlx::Error::Database(d) => {
            let m = d.message().to_ascii_lowercase();
            m.contains("locked") || m.contains("busy")
        }
        sqlx::Error::PoolTimedOut => true,
        _ => false,
    };
    if busy {
        error_reply("The game database is busy right now, so nothing was changed. Please try again in a moment.".into())
    } else {
        tracing::error!("storage error: {e}");
        error_reply(
            "Something went wrong while storing that, so nothing was changed. Please try again."
                .into(),
        )
    }
}

pub(super) async fn finish_reply(done: Done) -> Reply {
    let image = match done.picture {
        None => None,
        Some(p) => {
            // Rendering is CPU work: keep it off the async workers.
            let png =
                tokio::task::spawn_blocking(move || Renderer::shared().render(&p.pos, &p.opts))
                    .await
                    .ok();
            png.map(|png| Image {
                png,
                alt: p.alt,
                board: p.board,
            })
        }
    };
    Reply {
        text: done.text,
        image,
        notify: done.notify,
        actions: done.actions,
        is_error: false,
        audience: Audience::Everyone,
        deliveries: done.deliveries,
    }
}
