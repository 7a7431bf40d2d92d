//! Tournaments' periodic work: starts at their time, reminders a day
//! before a round's deadline, the deadline itself (no-shows forfeited,
//! unfinished games adjudicated where the organiser asked), and the next
//! round once the last is over. Each tournament in a transaction of its
//! own, its row locked.

use crate::contract::Text;
use crate::core::Core;
use crate::error::Failure;
use crate::game::Game;
use crate::handlers::rounds::{no_show, pair_next, record_result, start};
use crate::record::{Ending, GameResult, Termination};
use crate::store::{self, Tx};
use crate::tournament::{RoundGame, TournamentId, TournamentStatus};
use crate::tournament_state::{utc, Loaded};
use voidmate_rules::Color;

/// The engine's effort for adjudicating a game at a round's deadline.
const ADJUDICATION_NODES: u64 = 300_000;
/// The engine's margin for a win when it adjudicates (centipawns).
const ADJUDICATION_MARGIN: i32 = 300;
impl Core {
    /// The tournament work that has come due: starts, reminders,
    /// deadlines, rounds to pair, ends. Each tournament in a transaction of
    /// its own, its row locked: two processes never pair one round twice.
    pub(crate) async fn decide_tournaments(&self) -> Result<(), sqlx::Error> {
        let due = {
            let mut tx = self.store.read().await?;
            let due = store::due_tournaments(&mut tx, self.time.now_ms()).await?;
            tx.rollback().await?;
            due
        };
        for id in due {
            let mut tx = self.store.begin().await?;
            match advance(self, &mut tx, id).await {
                Ok(()) => tx.commit().await?,
                Err(Failure::Storage(e)) => {
                    tracing::error!(tournament = %id, "cannot advance a tournament: {e}");
                    let _ = tx.rollback().await;
                }
                Err(why) => {
                    // A damaged tournament is left as it is (`check-db` names it).
                    tracing::warn!(tournament = %id, "tournament left as it is: {why:?}");
                    let _ = tx.rollback().await;
                }
            }
        }
        Ok(())
    }
}

/// Does what has come due in tournament `id`, in `tx`, with its row locked.
pub(crate) async fn advance(core: &Core, tx: &mut Tx, id: TournamentId) -> Result<(), Failure> {
    let Some(mut l) = Loaded::read(tx, id, true).await? else {
        return Ok(());
    };
    let now = tx.now_ms();
    match l.t.status {
        TournamentStatus::Open => {
            if l.t.starts_ms.is_some_and(|s| s <= now) {
                start(core, tx, &mut l, None).await?;
            }
        }
        TournamentStatus::Running => {
            if l.t.round == 0 {
                pair_next(core, tx, &mut l).await?;
                return Ok(());
            }
            if l.t.remind_ms.is_some_and(|r| r <= now) {
                remind(core, tx, &l).await?;
            }
            if l.t.round_deadline_ms.is_some_and(|d| d <= now) {
                close_round(core, tx, &mut l).await?;
            }
            let closed = l.t.round_deadline_ms.is_none() && l.t.round_days.is_some();
            if l.open_games().next().is_none() || closed {
                pair_next(core, tx, &mut l).await?;
            }
        }
        TournamentStatus::Paused | TournamentStatus::Finished | TournamentStatus::Cancelled => {}
    }
    Ok(())
}

/// Reminds each player whose game of the round has not started that the
/// deadline is a day away.
async fn remind(core: &Core, tx: &mut Tx, l: &Loaded) -> Result<(), Failure> {
    store::clear_reminder(tx, l.t.id).await?;
    let Some(deadline) = l.t.round_deadline_ms else {
        return Ok(());
    };
    for g in l.open_games() {
        let Some(game_id) = g.game_id else { continue };
        let Some(rec) = store::game_anywhere(tx, game_id).await? else {
            continue;
        };
        let Ok(game) = core.load(tx, rec).await else {
            continue;
        };
        if game.ply() > 0 || game.rec.ending().is_some() {
            continue;
        }
        let (white, black) = (
            l.entry_of(&g.white).map(|e| e.player.clone()),
            l.entry_of(&g.black).map(|e| e.player.clone()),
        );
        let (Some(white), Some(black)) = (white, black) else {
            continue;
        };
        let text = Text::new().mention(&white).say(format!(
            ", your game #{game_id} of {} round {} against {black} has not started: you have White, so make your first move before {} or lose it by forfeit. ",
            l.t.id,
            l.t.round,
            utc(deadline)
        )).mention(&black).say(", if White has not moved, say `tournament here` so that a no-show is White's alone.");
        store::queue_notice(tx, &l.t.channel, &text, &[white, black]).await?;
    }
    Ok(())
}

/// A round's deadline passed: games not started are lost by forfeit; games
/// in progress are adjudicated by the engine if the tournament says so, or
/// go on (their players are paired again once they finish).
async fn close_round(core: &Core, tx: &mut Tx, l: &mut Loaded) -> Result<(), Failure> {
    store::clear_deadline(tx, l.t.id).await?;
    l.t.round_deadline_ms = None;
    let open: Vec<RoundGame> = l.open_games().cloned().collect();
    for g in open {
        let Some(game_id) = g.game_id else { continue };
        let Some(rec) = store::lock_game(tx, game_id).await? else {
            continue;
        };
        let Ok(game) = core.load(tx, rec).await else {
            continue;
        };
        if !game.rec.is_active() {
            continue;
        }
        if game.ply() < 2 {
            no_show(tx, &game, tx.now_ms()).await?;
        } else if l.t.adjudicate {
            adjudicate(core, tx, l, &game).await?;
        }
    }
    // Read again: the outcomes just written count.
    if let Some(fresh) = Loaded::read(tx, l.t.id, false).await? {
        *l = fresh;
    }
    Ok(())
}

/// The engine's verdict on a game still in progress at the deadline: a
/// win for a side ahead by three pawns or more, else a draw.
async fn adjudicate(core: &Core, tx: &mut Tx, l: &Loaded, g: &Game) -> Result<(), Failure> {
    let score = core.engine.analyse(g.pos.clone(), ADJUDICATION_NODES).await;
    let mover = g.pos.turn();
    let result = match score {
        Some((cp, _)) if cp >= ADJUDICATION_MARGIN => GameResult::Win(mover),
        Some((cp, _)) if cp <= -ADJUDICATION_MARGIN => GameResult::Win(!mover),
        _ => GameResult::Draw,
    };
    let ending = Ending {
        result,
        termination: Termination::Adjudicated,
    };
    let end = store::Finish {
        ending,
        clocks: None,
        unrated: false,
    };
    if store::finish(tx, g.id(), &end, tx.now_ms()).await? {
        record_result(tx, g.id(), result).await?;
        let text = format!(
            "Game #{} ({} round {}) was still being played at the deadline: adjudicated by the engine, {} ({}).",
            g.id(),
            l.t.id,
            l.t.round,
            result.code(),
            match result {
                GameResult::Win(c) => format!("{} wins", g.name(c)),
                _ => "drawn".to_string(),
            }
        );
        let both = [g.player(Color::White), g.player(Color::Black)];
        store::queue_notice(tx, &l.t.channel, &Text::from(text), &both).await?;
    }
    Ok(())
}
