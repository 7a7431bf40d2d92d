//! A tournament's rounds, whether a command or the periodic check
//! (`periodic::tournaments`) moves it on: starting, pairing each round
//! (once: under the tournament's row lock on PostgreSQL, the write lock on
//! SQLite, and a round row that can exist once), no-shows' forfeits,
//! results as games end, the end.
//!
//! Every change to a tournament happens in one transaction with what it
//! announces (outbox notices) and, when a round is paired, with its games
//! and the standings after the round before.

use std::collections::HashMap;

use crate::command::TimeControl;
use crate::contract::{Player, Text};
use crate::core::Core;
use crate::error::Failure;
use crate::game::Game;
use crate::handlers::play::abort_window_ms;
use crate::record::{Ending, GameResult, Termination};
use crate::store::{self, Tx};
use crate::tournament::{
    outcome_shown, Entry, EntryStatus, Format, Outcome, RoundGame, Side, StandingRow,
    TournamentRecord, TournamentStatus,
};
pub(crate) use crate::tournament_state::{rating_for, utc, Loaded};
use voidmate_rules::{ByColor, Color, Position};
use voidmate_tournament::{berger, dutch, standings};

/// Starts an open tournament (at its time, or `by` its organiser): the
/// ratings it pairs by, the lot for round 1's colours, round 1. Too few
/// players at the start time cancels it; told to start with too few, it
/// refuses. Returns the words for the organiser.
pub(crate) async fn start(
    core: &Core,
    tx: &mut Tx,
    l: &mut Loaded,
    by: Option<&Player>,
) -> Result<String, Failure> {
    let id = l.t.id;
    let n = l.entries.len() as u32;
    let fewest = match l.t.format {
        Format::Swiss => 2,
        Format::RoundRobin { .. } => *crate::command::tournament::ROUND_ROBIN_PLAYERS.start(),
    };
    if n < fewest {
        let why = format!(
            "{id} cannot start with {n} player{}: a {} needs at least {fewest}",
            if n == 1 { "" } else { "s" },
            l.t.format
        );
        if by.is_some() {
            return Err(Failure::Refused(format!(
                "{why}. `tournament join {id}` to play."
            )));
        }
        store::set_tournament_status(tx, id, TournamentStatus::Cancelled, Some(&why)).await?;
        let players: Vec<Player> = l.entries.iter().map(|e| e.player.clone()).collect();
        store::queue_notice(
            tx,
            &l.t.channel,
            &Text::from(format!("{why}, so it is cancelled.")),
            &players,
        )
        .await?;
        return Ok(why);
    }
    for e in &mut l.entries {
        e.rating = rating_for(tx, &l.t, &e.player.id).await?;
        store::set_entry_rating(tx, id, &e.player.id, e.rating).await?;
    }
    let rounds = match l.t.format {
        Format::Swiss => l.t.rounds,
        Format::RoundRobin { double } => berger::rounds(n, double),
    };
    // The lot, drawn once and stored: the pairing stays a function of the
    // stored tournament.
    let initial = if (now_noise(tx.now_ms()) ^ id.0 as u64) & 1 == 0 {
        Side::White
    } else {
        Side::Black
    };
    store::start_tournament(tx, id, rounds, initial).await?;
    l.t.status = TournamentStatus::Running;
    l.t.rounds = rounds;
    l.t.initial = Some(initial);
    let words = pair_next(core, tx, l).await?;
    Ok(words)
}

/// Bits that differ from one start to the next, for the lot.
fn now_noise(ms: i64) -> u64 {
    let mut x = ms as u64 ^ 0x9e37_79b9_7f4a_7c15;
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x
}

/// Pairs the next round, or ends the tournament when there is none; the
/// words for whoever asked. Under the lock of [`Loaded::read`].
pub(crate) async fn pair_next(core: &Core, tx: &mut Tx, l: &mut Loaded) -> Result<String, Failure> {
    let id = l.t.id;
    let round = l.t.round + 1;
    let now = tx.now_ms();
    if round > l.t.rounds {
        if l.busy().is_empty() {
            return finish(tx, l, None).await;
        }
        return Ok(format!(
            "The last round of {id} is over but for games still being played."
        ));
    }
    // Standings after the round before, stored with this round.
    let table: Vec<StandingRow> = l
        .standings()
        .into_iter()
        .map(|(e, line)| StandingRow {
            player: e.player.id,
            rank: line.rank,
            points: line.points.halves(),
            tie_breaks: line.tie_breaks,
            performance: line.performance,
        })
        .collect();
    store::save_standings(tx, id, round - 1, &table).await?;
    let deadline =
        l.t.round_days
            .map(|d| now + i64::from(d) * core.settings.day_seconds * 1000);
    let busy = l.busy();
    let (games, bye, forfeits) = match l.t.format {
        Format::Swiss => {
            let numbers = l.numbers(round);
            let present: Vec<(u32, u32)> = l
                .entries
                .iter()
                .enumerate()
                .filter(|(_, e)| {
                    e.status == EntryStatus::Active
                        && e.joined_round <= round
                        && !busy.contains(&e.player.id)
                })
                .map(|(i, _)| (i as u32 + 1, numbers[&(i as u32 + 1)]))
                .collect();
            let forbidden: Vec<(u32, u32)> = l
                .forbidden
                .iter()
                .filter(|f| f.2 <= round)
                .filter_map(|(a, b, _)| Some((l.index(a)?, l.index(b)?)))
                .collect();
            let field = l.history().field(
                round,
                l.t.rounds,
                l.t.initial.unwrap_or(Side::White),
                &present,
                &forbidden,
            );
            match dutch::pair(&field) {
                Ok(p) => (p.games, p.bye, Vec::new()),
                Err(why) if l.busy().is_empty() => {
                    let reason = format!("no valid pairing for round {round}: {why}");
                    return finish(tx, l, Some(&reason)).await;
                }
                Err(why) => {
                    // Perhaps once the games still being played are over.
                    tracing::info!(tournament = %id, "round {round} waits: {why}");
                    return Ok(format!(
                        "Round {round} of {id} cannot be paired yet: {why}."
                    ));
                }
            }
        }
        Format::RoundRobin { double } => {
            // The schedule's numbers: the order by rating at the start.
            let numbers = l.numbers(1);
            let by_number: HashMap<u32, u32> = numbers.iter().map(|(&i, &n)| (n, i)).collect();
            let Some(schedule) = berger::round(l.entries.len() as u32, double, round) else {
                return finish(tx, l, None).await;
            };
            let mut games = Vec::new();
            let mut forfeits = Vec::new();
            for (w, b) in schedule.games {
                let (w, b) = (by_number[&w], by_number[&b]);
                let plays = |i: u32| {
                    let e = l.entry(i);
                    e.status == EntryStatus::Active && !busy.contains(&e.player.id)
                };
                match (plays(w), plays(b)) {
                    (true, true) => games.push((w, b)),
                    (true, false) => forfeits.push((w, b, Outcome::WhiteByForfeit)),
                    (false, true) => forfeits.push((w, b, Outcome::BlackByForfeit)),
                    (false, false) => forfeits.push((w, b, Outcome::BothForfeited)),
                }
            }
            (games, schedule.bye.map(|n| by_number[&n]), forfeits)
        }
    };
    let bye_id = bye.map(|b| l.entry(b).player.id.clone());
    if !store::insert_round(tx, id, round, deadline, bye_id.as_ref()).await? {
        // Paired already (by another process, a moment ago).
        return Ok(format!("Round {round} of {id} is already paired."));
    }
    store::set_round(
        tx,
        id,
        round,
        deadline,
        // A day before the deadline (the core's day: shorter in tests).
        deadline
            .map(|d| d - core.settings.day_seconds * 1000)
            .filter(|&r| r > now),
    )
    .await?;
    let mut text = Text::new().say(format!(
        "{} round {round} of {}{}:",
        l.t.title(),
        l.t.rounds,
        match deadline {
            Some(d) => format!(", until {}", utc(d)),
            None => String::new(),
        }
    ));
    let mut pinged = Vec::new();
    let mut board = 0;
    for (w, b) in games {
        board += 1;
        let (white, black) = (l.entry(w).player.clone(), l.entry(b).player.clone());
        let game_id = new_round_game(core, tx, &l.t, &white, &black, deadline).await?;
        store::insert_round_game(
            tx,
            id,
            &RoundGame {
                round,
                board,
                white: white.id.clone(),
                black: black.id.clone(),
                game_id: Some(game_id),
                outcome: None,
            },
        )
        .await?;
        text.push_str(&format!("\nBoard {board}: game #{game_id}, "));
        text.push_mention(&white);
        text.push_str(" (White) vs ");
        text.push_mention(&black);
        text.push_str(" (Black)");
        pinged.push(white);
        pinged.push(black);
    }
    for (w, b, outcome) in forfeits {
        board += 1;
        let (white, black) = (l.entry(w).player.clone(), l.entry(b).player.clone());
        store::insert_round_game(
            tx,
            id,
            &RoundGame {
                round,
                board,
                white: white.id.clone(),
                black: black.id.clone(),
                game_id: None,
                outcome: Some(outcome),
            },
        )
        .await?;
        text.push_str(&format!(
            "\nBoard {board}: {white} vs {black}: {}, not played (withdrawn or absent)",
            outcome_shown(Some(outcome))
        ));
    }
    if let Some(b) = bye {
        let p = l.entry(b).player.clone();
        text.push_str("\nBye: ");
        text.push_mention(&p);
        text.push_str(match l.t.format {
            Format::Swiss => " (1 point)",
            Format::RoundRobin { .. } => " (a round off)",
        });
        pinged.push(p);
    }
    let out: Vec<String> =
        l.entries
            .iter()
            .filter(|e| e.joined_round <= round && e.status != EntryStatus::Kicked)
            .filter(|e| {
                !pinged.contains(&e.player)
                    && !l.games.iter().any(|g| {
                        g.round == round && (g.white == e.player.id || g.black == e.player.id)
                    })
            })
            .map(|e| {
                let why = match e.status {
                    EntryStatus::Absent => "absent: `tournament rejoin` to play again",
                    EntryStatus::Withdrawn => "withdrawn",
                    _ if busy.contains(&e.player.id) => "still playing an earlier round",
                    _ => "not paired",
                };
                format!("{} ({why})", e.player.name)
            })
            .collect();
    if !out.is_empty() && l.t.format == Format::Swiss {
        text.push_str(&format!("\nNot paired: {}.", out.join(", ")));
    }
    text.push_str(match l.t.time {
        TimeControl::Days(_) => "\nPlay any time before the deadline; White moves first. A game not started by then is lost by forfeit.",
        _ => "\nWhite moves first; a game whose first move does not come in time is lost by forfeit.",
    });
    store::queue_notice(tx, &l.t.channel, &text, &pinged).await?;
    if let Some(fresh) = Loaded::read(tx, id, false).await? {
        *l = fresh;
    }
    Ok(format!("Round {round} of {id} is paired."))
}

/// Creates a tournament game: rated as the tournament is (within its
/// community), exempt from the daily limit between two players; on a clock
/// its first move is due as any game's; by correspondence White may start
/// any time before the round's deadline.
async fn new_round_game(
    core: &Core,
    tx: &mut Tx,
    t: &TournamentRecord,
    white: &Player,
    black: &Player,
    deadline: Option<i64>,
) -> Result<i64, sqlx::Error> {
    let now = tx.now_ms();
    let fen = Position::new(t.kind.rules()).fen();
    let clocks = match &t.time {
        TimeControl::Clock { minutes, .. } => Some(store::StartClocks {
            base_ms: i64::from(*minutes) * 60_000,
            first_move_by_ms: now + abort_window_ms(&t.time),
        }),
        _ => None,
    };
    let first_deadline = match (&t.time, deadline) {
        (TimeControl::Days(_), Some(d)) => Some(store::Deadline {
            at: d.div_euclid(1000),
            remind_at: d.div_euclid(1000),
        }),
        _ => core.deadline(&t.time, now),
    };
    let game = store::NewGame {
        venue: store::Venue {
            at_ms: now,
            channel: &t.channel,
            community: t.community.as_deref(),
            rated: t.rated && t.community.is_some(),
        },
        kind: t.kind,
        seats: ByColor {
            white: &white.id,
            black: &black.id,
        },
        start_fen: &fen,
        time: &t.time,
        engine_level: None,
        mode: crate::command::ProgramMode::Default,
        programs: ByColor::default(),
        opening: Some(store::Opening {
            deadline: first_deadline,
            clocks,
        }),
        engine: None,
    };
    store::start_game(tx, &game).await
}

/// Ends a tournament: the final standings stored and posted, the winners
/// named. `early`: why it ends before its last round.
pub(crate) async fn finish(
    tx: &mut Tx,
    l: &mut Loaded,
    early: Option<&str>,
) -> Result<String, Failure> {
    let id = l.t.id;
    let lines = l.standings();
    let last = l.t.round;
    let table: Vec<StandingRow> = lines
        .iter()
        .map(|(e, line)| StandingRow {
            player: e.player.id.clone(),
            rank: line.rank,
            points: line.points.halves(),
            tie_breaks: line.tie_breaks,
            performance: line.performance,
        })
        .collect();
    store::save_standings(tx, id, last, &table).await?;
    store::set_tournament_status(tx, id, TournamentStatus::Finished, early).await?;
    l.t.status = TournamentStatus::Finished;
    let winners: Vec<Player> = lines
        .iter()
        .filter(|(_, line)| line.rank == 1)
        .map(|(e, _)| e.player.clone())
        .collect();
    let mut text = Text::new().say(format!("{} is over", l.t.title()));
    if let Some(why) = early {
        text.push_str(&format!(" after round {last}: {why}"));
    }
    text.push_str(". ");
    match winners.as_slice() {
        [] => text.push_str("Nobody played."),
        [one] => {
            text.push_mention(one);
            text.push_str(" wins! Congratulations.");
        }
        many => {
            for (i, w) in many.iter().enumerate() {
                if i > 0 {
                    text.push_str(if i + 1 == many.len() { " and " } else { ", " });
                }
                text.push_mention(w);
            }
            text.push_str(" share first place! Congratulations.");
        }
    }
    text.push_str("\n");
    text.push_str(&standings_text(l, &lines));
    let everyone: Vec<Player> = l.entries.iter().map(|e| e.player.clone()).collect();
    store::queue_notice(tx, &l.t.channel, &text, &everyone).await?;
    Ok(format!("{id} is over."))
}

/// The standings as text: a header naming the tie-breaks, then a line a
/// player, the columns apart (the console shows it as it is, the chat
/// adapters as a table).
pub(crate) fn standings_text(l: &Loaded, lines: &[(Entry, standings::Line)]) -> String {
    let breaks = l.t.format.standings().tie_breaks();
    let legend: Vec<String> = breaks
        .iter()
        .map(|b| format!("{} = {}", b.short(), b.name()))
        .collect();
    format!(
        "Standings of {} after round {} ({}):\n{}",
        l.t.id,
        l.t.round,
        legend.join(", "),
        crate::words::table(&standings_rows(l, lines))
    )
}

/// The standings as rows of cells, the header first: rank, player, points
/// and the format's tie-breaks.
pub(crate) fn standings_rows(l: &Loaded, lines: &[(Entry, standings::Line)]) -> Vec<Vec<String>> {
    let breaks = l.t.format.standings().tie_breaks();
    let mut rows = vec![{
        let mut h = vec!["#".to_string(), "Player".to_string(), "Pts".to_string()];
        h.extend(breaks.iter().map(|b| b.short().to_string()));
        h
    }];
    for (e, line) in lines {
        let mut r = vec![
            line.rank.to_string(),
            e.player.name.clone(),
            line.points.to_string(),
        ];
        for (b, v) in breaks.iter().zip(line.tie_breaks) {
            r.push(match b {
                standings::TieBreak::Performance => line
                    .performance
                    .map_or_else(|| "-".to_string(), |p| p.to_string()),
                _ => b.shown(v),
            });
        }
        rows.push(r);
    }
    rows
}

/// Records a finished game's result in its tournament, if it is a
/// tournament game.
pub(crate) async fn record_result(
    tx: &mut Tx,
    game_id: i64,
    result: GameResult,
) -> Result<(), sqlx::Error> {
    let Some((id, g)) = store::round_game_of(tx, game_id).await? else {
        return Ok(());
    };
    let outcome = match result {
        GameResult::Draw => Outcome::Draw,
        GameResult::Win(Color::White) => Outcome::WhiteWins,
        GameResult::Win(Color::Black) => Outcome::BlackWins,
        GameResult::NoResult => return Ok(()),
    };
    store::set_outcome(tx, id, g.round, g.board, outcome).await?;
    Ok(())
}

/// A tournament game whose player to move did not make their first move
/// in time (a clock's first-move window, a correspondence deadline, the
/// round's deadline): lost by forfeit by that player, who is marked absent;
/// White's no-show with Black silent too (no move, no `tournament here`)
/// is a double forfeit. Not rated. `None` if `g` is no tournament game (it
/// is called off as any game is).
pub(crate) async fn no_show(
    tx: &mut Tx,
    g: &Game,
    now_ms: i64,
) -> Result<Option<Text>, sqlx::Error> {
    let Some((id, rg)) = store::round_game_of(tx, g.id()).await? else {
        return Ok(None);
    };
    if rg.outcome.is_some() {
        return Ok(None);
    }
    let absent = g.pos.turn();
    let black_here = store::entries(tx, id)
        .await?
        .into_iter()
        .find(|e| e.player.id == rg.black)
        .is_some_and(|e| e.here_round == Some(rg.round));
    let outcome = match (absent, g.ply()) {
        (Color::White, 0) if !black_here => Outcome::BothForfeited,
        (Color::White, _) => Outcome::BlackByForfeit,
        (Color::Black, _) => Outcome::WhiteByForfeit,
    };
    let (white, black) = (g.player(Color::White), g.player(Color::Black));
    let (words, result) = match outcome {
        Outcome::BothForfeited => {
            store::abort(tx, g.id(), Termination::Forfeit, now_ms).await?;
            store::set_entry_status(tx, id, &white.id, EntryStatus::Absent).await?;
            store::set_entry_status(tx, id, &black.id, EntryStatus::Absent).await?;
            (
                format!(
                    "Game #{} ({id} round {}): neither {white} nor {black} showed up in time. Both lose by forfeit (0-0), are marked absent and are not paired again until they say `tournament rejoin {id}`.",
                    g.id(),
                    rg.round
                ),
                None,
            )
        }
        _ => {
            let loser = absent;
            let ending = Ending::loss(loser, Termination::Forfeit);
            let end = store::Finish {
                ending,
                clocks: None,
                unrated: true,
            };
            store::finish(tx, g.id(), &end, now_ms).await?;
            store::set_entry_status(tx, id, &g.player(loser).id, EntryStatus::Absent).await?;
            (
                format!(
                    "Game #{} ({id} round {}): {} did not make a first move in time and loses by forfeit ({}; not rated); {} is marked absent and is not paired again until they say `tournament rejoin {id}`.",
                    g.id(),
                    rg.round,
                    g.name(loser),
                    outcome_shown(Some(outcome)),
                    g.name(loser)
                ),
                Some(ending.result),
            )
        }
    };
    let _ = result;
    store::set_outcome(tx, id, rg.round, rg.board, outcome).await?;
    Ok(Some(Text::from(words)))
}
