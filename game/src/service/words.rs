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

/// "a or b", "a, b or c".
pub(super) fn or_list(items: &[String]) -> String {
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
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

/// The game as PGN (see [`crate::pgn`]): tags readers know, the start when
/// it is not the usual one, the roster of a symmetric Super Chess game, and
/// the moves.
pub(super) fn pgn_text(g: &Game, channel: &str) -> String {
    let result = g.row.result.clone().unwrap_or_else(|| "*".into());
    let mut tags: Vec<(&str, String)> = vec![
        ("Event", format!("Voidmate game #{}", g.row.id)),
        ("Site", channel.to_string()),
        ("White", g.name(Color::White)),
        ("Black", g.name(Color::Black)),
        ("Result", result.clone()),
        ("Variant", crate::pgn::variant_tag(g.kind()).to_string()),
        ("TimeControl", g.row.time_control.clone()),
    ];
    if let Some(t) = &g.row.termination {
        tags.push(("Termination", t.clone()));
    }
    if g.row.start_fen != g.pos.rules().definition().start_fen {
        tags.push(("SetUp", "1".into()));
        tags.push(("FEN", g.row.start_fen.clone()));
    }
    // Private programs stay private, even after the game
    // (docs/rules/super16.md); such a game's PGN does not replay.
    if g.row.mode != "private" {
        for (tag, program) in [
            ("WhiteProgram", &g.row.program_white),
            ("BlackProgram", &g.row.program_black),
        ] {
            if let Some(p) = program.as_deref().filter(|p| *p != "default") {
                tags.push((tag, p.to_string()));
            }
        }
    }
    let start = Position::from_fen(g.pos.shared_rules().clone(), &g.row.start_fen)
        .expect("replayed before");
    let sans: Vec<String> = g.moves.iter().map(|m| m.san.clone()).collect();
    crate::pgn::write(&tags, &crate::pgn::movetext(&start, &sans, &result))
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
        direct: None,
        thread: None,
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

/// A board being drawn on a blocking thread (rendering is CPU work: it
/// stays off the async workers, and may overlap a commit's sync).
pub(super) struct Drawing(tokio::task::JoinHandle<Image>);

impl Drawing {
    pub(super) fn start(p: Picture) -> Drawing {
        Drawing(tokio::task::spawn_blocking(move || Image {
            png: Renderer::shared().render(&p.pos, &p.opts),
            alt: p.alt,
            board: p.board,
        }))
    }

    pub(super) async fn image(self) -> Option<Image> {
        self.0.await.ok()
    }
}

pub(super) async fn finish_reply(done: Done) -> Reply {
    let image = match done.picture {
        None => None,
        Some(p) => Drawing::start(p).image().await,
    };
    Reply {
        text: done.text,
        image,
        notify: done.notify,
        actions: done.actions,
        is_error: false,
        audience: Audience::Everyone,
        deliveries: done.deliveries,
        direct: done.direct,
        thread: done.thread,
    }
}
