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
use crate::handlers::rounds::{self, rating_for, utc, Loaded};
use crate::handlers::tournament_views::{games, history, info, list, pairings, standings};
use crate::store;
use crate::tournament::{EntryStatus, Format, TournamentId, TournamentRecord, TournamentStatus};

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
    if !spec.kind.playable_in(cx.community()) {
        return crate::handlers::info::unknown_game(cx.community(), spec.kind.name());
    }
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
            " You join from round {joined_round}, with ½ point for the {} round{} you missed.",
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
