//! What a tournament shows: the list of a channel's tournaments, a
//! tournament's card, its pairings, standings (with a round robin's
//! crosstable), games, and a player's rounds.

use crate::command::Someone;
use crate::ctx::Ctx;
use crate::done::Done;
use crate::error::{refuse, Failure};
use crate::handlers::rounds::{self, standings_text, utc, Loaded};
use crate::reply::Table;
use crate::store;
use crate::tournament::{outcome_shown, EntryStatus, Format, TournamentStatus};
use voidmate_tournament::Points;

pub(super) async fn list(cx: &mut Ctx<'_>) -> Result<Done, Failure> {
    let all = store::tournaments_here(cx.tx, cx.channel, cx.community(), true).await?;
    if all.is_empty() {
        return Ok(Done::text(
            "No tournaments here yet. Create one: `tournament create swiss void 3d rounds 7 round-days 4` (`help tournament`).",
        ));
    }
    let mut text = String::from("Tournaments here:");
    for t in all.iter().take(15) {
        let state = match t.status {
            TournamentStatus::Open => "open for players".to_string(),
            TournamentStatus::Running => format!("round {} of {}", t.round, t.rounds),
            TournamentStatus::Paused => format!("paused in round {}", t.round),
            TournamentStatus::Finished => "finished".to_string(),
            TournamentStatus::Cancelled => "cancelled".to_string(),
        };
        text.push_str(&format!("\n{}: {state}", t.title()));
    }
    Ok(Done::text(text))
}

pub(super) fn info(l: &Loaded) -> Done {
    let t = &l.t;
    let mut text = format!("{}: ", t.title());
    text.push_str(&match t.status {
        TournamentStatus::Open => format!(
            "open for players{}.",
            t.starts_ms
                .map_or(String::new(), |s| format!(", starts {}", utc(s)))
        ),
        TournamentStatus::Running => format!(
            "round {} of {}{}.",
            t.round,
            t.rounds,
            t.round_deadline_ms
                .map_or(String::new(), |d| format!(", until {}", utc(d)))
        ),
        TournamentStatus::Paused => format!("paused in round {} of {}.", t.round, t.rounds),
        TournamentStatus::Finished => format!(
            "finished after {} rounds{}.",
            t.round,
            t.ended_reason
                .as_ref()
                .map_or(String::new(), |r| format!(" ({r})"))
        ),
        TournamentStatus::Cancelled => format!(
            "cancelled{}.",
            t.ended_reason
                .as_ref()
                .map_or(String::new(), |r| format!(" ({r})"))
        ),
    });
    text.push_str(&format!(
        " {}, {}.",
        if t.rated { "Rated" } else { "Casual" },
        match t.round_days {
            Some(d) => format!("rounds of {d} days"),
            None => "a round starts when the last is over".to_string(),
        }
    ));
    let names: Vec<String> = l
        .entries
        .iter()
        .map(|e| match e.status {
            EntryStatus::Active => format!("{} ({})", e.player.name, e.rating),
            other => format!("{} ({}, {})", e.player.name, e.rating, other.code()),
        })
        .collect();
    text.push_str(&format!(
        "\nPlayers ({} of at most {}): {}.",
        l.entries.len(),
        t.max_players,
        if names.is_empty() {
            "none yet".to_string()
        } else {
            names.join(", ")
        }
    ));
    let done = Done::text(text);
    if t.status == TournamentStatus::Open {
        done.joining(t.id.0)
    } else {
        done
    }
}

pub(super) async fn pairings(
    cx: &mut Ctx<'_>,
    l: &Loaded,
    round: Option<u32>,
) -> Result<Done, Failure> {
    let id = l.t.id;
    let round = round.unwrap_or(l.t.round);
    if round == 0 {
        return refuse(format!("{id} has not paired a round yet."));
    }
    let Some(r) = l.rounds.iter().find(|r| r.round == round) else {
        return refuse(format!(
            "{id} has paired {} round{} so far.",
            l.t.round,
            if l.t.round == 1 { "" } else { "s" }
        ));
    };
    let name = |p: &crate::contract::PlayerId| {
        l.entry_of(p)
            .map_or_else(|| p.fallback_name(), |e| e.player.name.clone())
    };
    let mut rows = vec![vec![
        "Board".to_string(),
        "Game".to_string(),
        "White".to_string(),
        "Black".to_string(),
        "Result".to_string(),
    ]];
    for g in l.games.iter().filter(|g| g.round == round) {
        rows.push(vec![
            g.board.to_string(),
            g.game_id.map_or("-".to_string(), |n| format!("#{n}")),
            name(&g.white),
            name(&g.black),
            outcome_shown(g.outcome).to_string(),
        ]);
    }
    let mut text = format!(
        "{} round {round} of {}{}:\n{}",
        l.t.title(),
        l.t.rounds,
        r.deadline_ms
            .map_or(String::new(), |d| format!(", until {}", utc(d))),
        crate::words::table(&rows)
    );
    if let Some(b) = &r.bye {
        text.push_str(&format!("\nBye: {}", name(b)));
    }
    let _ = cx;
    Ok(Done::text(text).with_table(Table::from_rows(format!("{} round {round}", l.t.id), rows)))
}

pub(super) fn standings(l: &Loaded, theme: voidmate_render::Theme) -> Done {
    let lines = l.standings();
    if lines.is_empty() {
        return Done::text(format!("{} has no players yet.", l.t.id));
    }
    let text = standings_text(l, &lines);
    let rows = rounds::standings_rows(l, &lines);
    let mut done = Done::text(text).with_table(Table::from_rows(
        format!("{} standings after round {}", l.t.id, l.t.round),
        rows,
    ));
    if matches!(l.t.format, Format::RoundRobin { .. }) && l.t.round > 0 {
        done = done.with_picture(Some(crate::picture::Picture::crosstable(
            crosstable(l, &lines),
            theme,
        )));
    }
    done
}

/// A round robin's crosstable, in standings order.
pub(super) fn crosstable(
    l: &Loaded,
    lines: &[(
        crate::tournament::Entry,
        voidmate_tournament::standings::Line,
    )],
) -> voidmate_render::Crosstable {
    let order: Vec<&crate::contract::PlayerId> = lines.iter().map(|(e, _)| &e.player.id).collect();
    let breaks = l.t.format.standings().tie_breaks();
    let rows = lines
        .iter()
        .map(|(e, line)| {
            let cells = order
                .iter()
                .map(|&other| {
                    let mut cell = String::new();
                    for g in &l.games {
                        let (mine, theirs) = if g.white == e.player.id && &g.black == other {
                            (true, true)
                        } else if g.black == e.player.id && &g.white == other {
                            (false, true)
                        } else {
                            (false, false)
                        };
                        if !theirs {
                            continue;
                        }
                        let Some(o) = g.outcome else { continue };
                        let (w, b) = o.points();
                        let p = if mine { w } else { b };
                        let forfeit = !o.played();
                        cell.push_str(&match (p.halves(), forfeit) {
                            (2, false) => "1".to_string(),
                            (1, _) => "½".to_string(),
                            (0, false) => "0".to_string(),
                            (2, true) => "+".to_string(),
                            _ => "-".to_string(),
                        });
                    }
                    cell
                })
                .collect();
            voidmate_render::CrossRow {
                rank: line.rank.to_string(),
                name: e.player.name.clone(),
                cells,
                points: line.points.to_string(),
                tie_breaks: breaks
                    .iter()
                    .zip(line.tie_breaks)
                    .map(|(b, v)| b.shown(v))
                    .collect(),
            }
        })
        .collect();
    voidmate_render::Crosstable {
        title: format!("{} after round {}", l.t.title(), l.t.round),
        tie_breaks: breaks.iter().map(|b| b.short().to_string()).collect(),
        rows,
    }
}

pub(super) fn games(l: &Loaded) -> Result<Done, Failure> {
    let open: Vec<String> = l
        .games
        .iter()
        .filter(|g| g.outcome.is_none())
        .map(|g| {
            let name = |p: &crate::contract::PlayerId| {
                l.entry_of(p)
                    .map_or_else(|| p.fallback_name(), |e| e.player.name.clone())
            };
            format!(
                "#{} (round {}, board {}): {} vs {}",
                g.game_id.unwrap_or_default(),
                g.round,
                g.board,
                name(&g.white),
                name(&g.black)
            )
        })
        .collect();
    if open.is_empty() {
        return Ok(Done::text(format!(
            "No game of {} is being played now.",
            l.t.id
        )));
    }
    Ok(Done::text(format!(
        "Games of {} being played:\n{}",
        l.t.id,
        open.join("\n")
    )))
}

pub(super) async fn history(
    cx: &mut Ctx<'_>,
    l: &Loaded,
    who: Option<Someone>,
) -> Result<Done, Failure> {
    let p = match who {
        Some(w) => cx.resolve(&w).await?,
        None => cx.author.clone(),
    };
    let id = l.t.id;
    let Some(index) = l.index(&p.id) else {
        return refuse(format!("{p} is not in {id}."));
    };
    let h = l.history();
    let mut lines = Vec::new();
    for r in 1..=l.t.round {
        use voidmate_tournament::history::Part;
        let part = h.part(index, r);
        let line = match part {
            Part::Game {
                opponent,
                side,
                outcome,
            } => {
                let opp = l.entry(opponent).player.name.clone();
                let colour = match side {
                    voidmate_tournament::Side::White => "White",
                    voidmate_tournament::Side::Black => "Black",
                };
                let game = l
                    .games
                    .iter()
                    .find(|g| g.round == r && (g.white == p.id || g.black == p.id))
                    .and_then(|g| g.game_id)
                    .map_or(String::new(), |n| format!(" #{n}"));
                match outcome {
                    None => format!("Round {r}: {colour} against {opp}{game}, being played"),
                    Some(_) => format!(
                        "Round {r}: {colour} against {opp}{game}, {}{}",
                        part.points(),
                        if part.played() { "" } else { " (forfeit)" }
                    ),
                }
            }
            Part::Bye => format!("Round {r}: bye, 1"),
            Part::Out if r == 1 && h.joined(index) > 1 => {
                format!("Round {r}: not yet joined, ½ (a late joiner's half point)")
            }
            Part::Out if r < h.joined(index) => format!("Round {r}: not yet joined, 0"),
            Part::Out => format!("Round {r}: not paired, 0"),
        };
        lines.push(line);
    }
    let score = h.score_before(index, l.t.round + 1);
    if lines.is_empty() {
        return Ok(Done::text(format!("{p} has played no round of {id} yet.")));
    }
    Ok(Done::text(format!(
        "{p} in {}: {score} point{}.\n{}",
        l.t.title(),
        if score == Points::ONE || score == Points::HALF {
            ""
        } else {
            "s"
        },
        lines.join("\n")
    )))
}
