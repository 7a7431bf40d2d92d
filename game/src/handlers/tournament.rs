//! `tournament ...`: creating, joining and running tournaments, and what
//! players ask of them (info, pairings, standings, games, history).

use crate::command::tournament::{
    TournamentAction, TournamentSpec, DEFAULT_MAX_PLAYERS, DEFAULT_ROUNDS, DEFAULT_ROUND_DAYS,
    ROUND_ROBIN_PLAYERS,
};
use crate::command::{Someone, TimeControl};
use crate::ctx::Ctx;
use crate::done::Done;
use crate::error::{refuse, Failure};
use crate::handlers::rounds::{self, rating_for, standings_text, utc, Loaded};
use crate::reply::Table;
use crate::store;
use crate::tournament::{
    outcome_shown, EntryStatus, Format, TournamentId, TournamentRecord, TournamentStatus,
};
use voidmate_tournament::standings::TieBreak;
use voidmate_tournament::Points;

pub(crate) async fn tournament(
    cx: &mut Ctx<'_>,
    id: Option<TournamentId>,
    action: TournamentAction,
) -> Result<Done, Failure> {
    match action {
        TournamentAction::Create(spec) => create(cx, spec).await,
        TournamentAction::List => list(cx).await,
        action => {
            let live_only = matches!(
                action,
                TournamentAction::Join
                    | TournamentAction::Leave
                    | TournamentAction::Start
                    | TournamentAction::Pause
                    | TournamentAction::Resume
                    | TournamentAction::Cancel
                    | TournamentAction::Kick(_)
                    | TournamentAction::Forbid(..)
                    | TournamentAction::NextRound
                    | TournamentAction::Withdraw
                    | TournamentAction::Rejoin
                    | TournamentAction::Here
            );
            let mut l = which(cx, id, live_only).await?;
            match action {
                TournamentAction::Info => Ok(info(&l)),
                TournamentAction::Join => join(cx, &mut l).await,
                TournamentAction::Leave => leave(cx, &l).await,
                TournamentAction::Withdraw => withdraw(cx, &l).await,
                TournamentAction::Rejoin => rejoin(cx, &l).await,
                TournamentAction::Here => here(cx, &l).await,
                TournamentAction::Start => {
                    organiser(cx, &l)?;
                    if l.t.status != TournamentStatus::Open {
                        return refuse(format!("{} has already started.", l.t.id));
                    }
                    let by = cx.author.clone();
                    let words = rounds::start(cx.core, cx.tx, &mut l, Some(&by)).await?;
                    Ok(Done::text(format!("{} starts. {words}", l.t.id)))
                }
                TournamentAction::Cancel => {
                    organiser(cx, &l)?;
                    let why = format!("cancelled by {}", cx.author);
                    store::set_tournament_status(
                        cx.tx,
                        l.t.id,
                        TournamentStatus::Cancelled,
                        Some(&why),
                    )
                    .await?;
                    Ok(Done::text(format!(
                        "{} is cancelled. Games already begun go on as ordinary games.",
                        l.t.id
                    )))
                }
                TournamentAction::Pause => {
                    organiser(cx, &l)?;
                    if l.t.status != TournamentStatus::Running {
                        return refuse(format!(
                            "{} is not running, so there is nothing to pause.",
                            l.t.id
                        ));
                    }
                    store::pause_tournament(cx.tx, l.t.id, true).await?;
                    Ok(Done::text(format!(
                        "{} is paused: no round is paired and the round's deadline waits. Games go on. `tournament resume {}` goes on.",
                        l.t.id, l.t.id
                    )))
                }
                TournamentAction::Resume => {
                    organiser(cx, &l)?;
                    if l.t.status != TournamentStatus::Paused {
                        return refuse(format!("{} is not paused.", l.t.id));
                    }
                    store::pause_tournament(cx.tx, l.t.id, false).await?;
                    Ok(Done::text(format!(
                        "{} goes on; the round's deadline moved on by the time it was paused.",
                        l.t.id
                    )))
                }
                TournamentAction::Kick(who) => kick(cx, &l, who).await,
                TournamentAction::Forbid(a, b) => forbid(cx, &l, a, b).await,
                TournamentAction::NextRound => next_round(cx, &mut l).await,
                TournamentAction::Pairings(round) => pairings(cx, &l, round).await,
                TournamentAction::Standings => Ok(standings(&l, cx.core.settings.theme)),
                TournamentAction::Games => games(&l),
                TournamentAction::History(who) => history(cx, &l, who).await,
                TournamentAction::Create(_) | TournamentAction::List => {
                    unreachable!("handled above")
                }
            }
        }
    }
}

/// The tournament a command means: the one it names (played here), or the
/// only one running in this channel (else in this community).
async fn which(
    cx: &mut Ctx<'_>,
    id: Option<TournamentId>,
    live_only: bool,
) -> Result<Loaded, Failure> {
    let lock = !cx.reads_only;
    if let Some(id) = id {
        let Some(l) = Loaded::read(cx.tx, id, lock).await? else {
            return refuse(format!(
                "There is no tournament {id}. `tournament list` shows the ones here."
            ));
        };
        let here = l.t.channel == cx.channel
            || (l.t.community.is_some() && l.t.community.as_deref() == cx.community());
        if !here {
            return refuse(format!(
                "{id} is played elsewhere; `tournament list` shows the ones here."
            ));
        }
        return Ok(l);
    }
    let all = store::tournaments_here(cx.tx, cx.channel, cx.community(), !live_only).await?;
    let live: Vec<&TournamentRecord> = all.iter().filter(|t| t.status.is_live()).collect();
    let in_channel: Vec<&TournamentRecord> = live
        .iter()
        .copied()
        .filter(|t| t.channel == cx.channel)
        .collect();
    let candidates = if in_channel.is_empty() {
        live
    } else {
        in_channel
    };
    let pick = match candidates.as_slice() {
        [one] => one.id,
        [] => match all.iter().find(|t| t.channel == cx.channel).or(all.first()) {
            Some(t) if !live_only => t.id,
            _ => {
                return refuse(
                    "There is no tournament here. Create one: `tournament create swiss void 3d rounds 7 round-days 4` (`help tournament`).",
                )
            }
        },
        many => {
            let names: Vec<String> = many.iter().map(|t| t.id.to_string()).collect();
            return refuse(format!(
                "Several tournaments run here: {}. Say which, like `tournament join {}`.",
                names.join(", "),
                names[0]
            ));
        }
    };
    Loaded::read(cx.tx, pick, lock)
        .await?
        .ok_or_else(|| Failure::Refused(format!("{pick} is gone.")))
}

/// Refuses unless the author created the tournament or moderates here.
fn organiser(cx: &Ctx<'_>, l: &Loaded) -> Result<(), Failure> {
    if l.t.creator == cx.author.id || cx.moderator() {
        return Ok(());
    }
    refuse(format!(
        "Only {}'s organiser or a moderator here can do that.",
        l.t.id
    ))
}

async fn create(cx: &mut Ctx<'_>, spec: TournamentSpec) -> Result<Done, Failure> {
    if cx.private() || cx.community().is_none() {
        return refuse(
            "Tournaments are played in a server's channel or a room, not in a direct conversation.",
        );
    }
    let spec = spec
        .check()
        .map_err(|e| Failure::Refused(format!("{}.", e.0)))?;
    let starts_ms = match spec.starts {
        Some(crate::command::Start::At(at)) => Some(at),
        _ => None,
    };
    if let Some(at) = starts_ms.filter(|&at| at <= cx.now_ms) {
        return refuse(format!(
            "{} has passed: give a time to come, or leave `starts` out and say `tournament start` when everyone is in.",
            utc(at)
        ));
    }
    let round_days = match spec.time {
        TimeControl::Days(_) => Some(spec.round_days.unwrap_or(DEFAULT_ROUND_DAYS)),
        _ => None,
    };
    let (rounds, max) = match spec.format {
        Format::Swiss => (
            spec.rounds.unwrap_or(DEFAULT_ROUNDS),
            spec.max_players.unwrap_or(DEFAULT_MAX_PLAYERS),
        ),
        Format::RoundRobin { .. } => (0, spec.max_players.unwrap_or(*ROUND_ROBIN_PLAYERS.end())),
    };
    let community = cx.community().map(str::to_string);
    let platform = cx.platform().to_string();
    let id = store::create_tournament(
        cx.tx,
        &store::NewTournament {
            channel: cx.channel,
            community: community.as_deref(),
            platform: &platform,
            creator: &cx.author.id,
            format: spec.format,
            kind: spec.kind,
            time: &spec.time,
            rated: spec.rated,
            rounds,
            round_days,
            starts_ms,
            max_players: max,
            adjudicate: spec.adjudicate,
        },
    )
    .await?;
    let shape = match spec.format {
        Format::Swiss => format!("a Swiss of {rounds} rounds"),
        Format::RoundRobin { double: false } => "a round robin".to_string(),
        Format::RoundRobin { double: true } => "a double round robin".to_string(),
    };
    let rounds_of = match round_days {
        Some(d) => format!(", rounds of {d} day{}", if d == 1 { "" } else { "s" }),
        None => ", each round as soon as the last is over".to_string(),
    };
    let start = match starts_ms {
        Some(at) => format!(
            "It starts {} (or earlier, when its organiser says `tournament start {id}`).",
            utc(at)
        ),
        None => format!("It starts when its organiser says `tournament start {id}`."),
    };
    let text = format!(
        "{id} is open: {shape}, {}, {}{rounds_of}, {}, up to {max} players{}. {start} Join with `tournament join {id}`; `help tournament` explains the rest.",
        spec.kind.title(),
        spec.time,
        if spec.rated { "rated" } else { "casual" },
        if spec.adjudicate { ", games unfinished at a deadline adjudicated by the engine" } else { "" },
    );
    let thread = cx.core.command_style(cx.platform()).threads.then(|| {
        crate::reply::GameThread::tournament(
            id.0,
            &format!("{id} · {} · {}", spec.format, spec.kind.title()),
        )
    });
    Ok(Done::text(text).in_thread(thread).joining(id.0))
}

async fn list(cx: &mut Ctx<'_>) -> Result<Done, Failure> {
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

fn info(l: &Loaded) -> Done {
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

async fn join(cx: &mut Ctx<'_>, l: &mut Loaded) -> Result<Done, Failure> {
    let me = cx.author.clone();
    let id = l.t.id;
    if let Some(e) = l.entry_of(&me.id) {
        return refuse(match e.status {
            EntryStatus::Active => format!("You are already in {id}."),
            EntryStatus::Absent | EntryStatus::Withdrawn => {
                format!("You are already in {id}; `tournament rejoin {id}` to be paired again.")
            }
            EntryStatus::Kicked => format!("You were removed from {id} by its organiser."),
        });
    }
    if cx.core.is_bot(&me.id) {
        return refuse("I run tournaments; I do not play in them.");
    }
    let joined_round = match (l.t.status, l.t.format) {
        (TournamentStatus::Open, _) => 1,
        (TournamentStatus::Running | TournamentStatus::Paused, Format::Swiss) => {
            if l.t.round > l.t.rounds / 2 {
                return refuse(format!(
                    "{id} is in round {} of {}: late entries close after round {}.",
                    l.t.round,
                    l.t.rounds,
                    l.t.rounds / 2
                ));
            }
            l.t.round + 1
        }
        (TournamentStatus::Running | TournamentStatus::Paused, Format::RoundRobin { .. }) => {
            return refuse(format!(
                "{id} has started: a round robin's players are fixed at its start."
            ))
        }
        (TournamentStatus::Finished | TournamentStatus::Cancelled, _) => {
            return refuse(format!("{id} is over."))
        }
    };
    if l.entries.len() as u32 >= l.t.max_players {
        return refuse(format!("{id} is full ({} players).", l.t.max_players));
    }
    let rating = rating_for(cx.tx, &l.t, &me.id).await?;
    store::add_entry(cx.tx, id, &me, rating, joined_round).await?;
    let late = if joined_round > 1 {
        format!(
            " You join from round {joined_round}, with ½ point for each of the {} round{} you missed.",
            joined_round - 1,
            if joined_round == 2 { "" } else { "s" }
        )
    } else {
        String::new()
    };
    let players = l.entries.len() + 1;
    Ok(Done::text(format!(
        "{me} joins {} ({players} player{}).{late}",
        l.t.title(),
        if players == 1 { "" } else { "s" }
    )))
}

async fn leave(cx: &mut Ctx<'_>, l: &Loaded) -> Result<Done, Failure> {
    let id = l.t.id;
    if l.entry_of(&cx.author.id).is_none() {
        return refuse(format!("You are not in {id}."));
    }
    if l.t.status != TournamentStatus::Open {
        return refuse(format!(
            "{id} has started, so you cannot leave it: `tournament withdraw {id}` stops your pairings from the next round (your games in progress go on)."
        ));
    }
    store::remove_entry(cx.tx, id, &cx.author.id).await?;
    Ok(Done::text(format!("{} leaves {id}.", cx.author)))
}

async fn withdraw(cx: &mut Ctx<'_>, l: &Loaded) -> Result<Done, Failure> {
    let id = l.t.id;
    let Some(e) = l.entry_of(&cx.author.id) else {
        return refuse(format!("You are not in {id}."));
    };
    if l.t.status == TournamentStatus::Open {
        return refuse(format!(
            "{id} has not started: `tournament leave {id}` takes you out."
        ));
    }
    if e.status == EntryStatus::Withdrawn {
        return refuse(format!(
            "You have already withdrawn from {id}; `tournament rejoin {id}` to come back."
        ));
    }
    store::set_entry_status(cx.tx, id, &cx.author.id, EntryStatus::Withdrawn).await?;
    Ok(Done::text(format!(
        "{} withdraws from {id}: not paired from the next round on; games in progress go on. `tournament rejoin {id}` comes back.",
        cx.author
    )))
}

async fn rejoin(cx: &mut Ctx<'_>, l: &Loaded) -> Result<Done, Failure> {
    let id = l.t.id;
    let Some(e) = l.entry_of(&cx.author.id) else {
        return refuse(format!("You are not in {id}: `tournament join {id}`."));
    };
    match e.status {
        EntryStatus::Active => return refuse(format!("You are playing in {id} already.")),
        EntryStatus::Kicked => {
            return refuse(format!("You were removed from {id} by its organiser."))
        }
        EntryStatus::Absent | EntryStatus::Withdrawn => {}
    }
    if matches!(l.t.format, Format::RoundRobin { .. }) && l.t.status != TournamentStatus::Open {
        // A round robin's schedule is fixed: the player's games from the
        // next round on are played again.
    }
    store::set_entry_status(cx.tx, id, &cx.author.id, EntryStatus::Active).await?;
    Ok(Done::text(format!(
        "{} is back in {id} and is paired from the next round.",
        cx.author
    )))
}

async fn here(cx: &mut Ctx<'_>, l: &Loaded) -> Result<Done, Failure> {
    let id = l.t.id;
    if l.entry_of(&cx.author.id).is_none() {
        return refuse(format!("You are not in {id}."));
    }
    if l.t.round == 0 {
        return refuse(format!("{id} has not paired a round yet."));
    }
    store::set_here(cx.tx, id, &cx.author.id, l.t.round).await?;
    Ok(Done::text(format!(
        "Noted: {} is here for round {} of {id}.",
        cx.author, l.t.round
    )))
}

async fn kick(cx: &mut Ctx<'_>, l: &Loaded, who: Someone) -> Result<Done, Failure> {
    organiser(cx, l)?;
    let p = cx.resolve(&who).await?;
    let id = l.t.id;
    let Some(e) = l.entry_of(&p.id) else {
        return refuse(format!("{p} is not in {id}."));
    };
    if e.status == EntryStatus::Kicked {
        return refuse(format!("{p} was already removed from {id}."));
    }
    if l.t.status == TournamentStatus::Open {
        store::remove_entry(cx.tx, id, &p.id).await?;
    } else {
        store::set_entry_status(cx.tx, id, &p.id, EntryStatus::Kicked).await?;
    }
    Ok(Done::text(format!(
        "{p} is removed from {id} by {}: not paired again (a game in progress goes on).",
        cx.author
    ))
    .notifying(vec![p]))
}

async fn forbid(cx: &mut Ctx<'_>, l: &Loaded, a: Someone, b: Someone) -> Result<Done, Failure> {
    organiser(cx, l)?;
    let (a, b) = (cx.resolve(&a).await?, cx.resolve(&b).await?);
    let id = l.t.id;
    if a.id == b.id {
        return refuse(format!(
            "{a} and {b} are one player: name two players who must never meet."
        ));
    }
    for p in [&a, &b] {
        if l.entry_of(&p.id).is_none() {
            return refuse(format!("{p} is not in {id}."));
        }
    }
    if matches!(l.t.format, Format::RoundRobin { .. }) {
        return refuse("In a round robin everyone meets everyone: there is no pair to forbid.");
    }
    if !store::add_forbidden(cx.tx, id, &a.id, &b.id, l.t.round + 1).await? {
        return refuse(format!("{a} and {b} are already kept apart in {id}."));
    }
    Ok(Done::text(format!(
        "{a} and {b} will never be paired together in {id}."
    )))
}

async fn next_round(cx: &mut Ctx<'_>, l: &mut Loaded) -> Result<Done, Failure> {
    organiser(cx, l)?;
    let id = l.t.id;
    if l.t.status != TournamentStatus::Running {
        return refuse(format!("{id} is not running."));
    }
    let open: Vec<String> = l
        .open_games()
        .filter_map(|g| g.game_id.map(|n| format!("#{n}")))
        .collect();
    if !open.is_empty() {
        return refuse(format!(
            "Round {} of {id} still has games being played ({}): the round closes when they are over, or at its deadline.",
            l.t.round,
            open.join(", ")
        ));
    }
    let words = rounds::pair_next(cx.core, cx.tx, l).await?;
    Ok(Done::text(words))
}

async fn pairings(cx: &mut Ctx<'_>, l: &Loaded, round: Option<u32>) -> Result<Done, Failure> {
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

fn standings(l: &Loaded, theme: voidmate_render::Theme) -> Done {
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
fn crosstable(
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
                    .map(|(b, v)| match b {
                        TieBreak::Wins => format!("{v}"),
                        _ => Points((v * 2.0).round() as u32).to_string(),
                    })
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

fn games(l: &Loaded) -> Result<Done, Failure> {
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

async fn history(cx: &mut Ctx<'_>, l: &Loaded, who: Option<Someone>) -> Result<Done, Failure> {
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
            Part::Out if r < h.joined(index) => format!("Round {r}: not yet joined, ½"),
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
        if score == Points::ONE { "" } else { "s" },
        lines.join("\n")
    )))
}
