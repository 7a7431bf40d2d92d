//! How games end other than on the board: resignation, time, claims and
//! agreed draws.

use crate::command::GameRef;
use crate::contract::{Player, Text};
use crate::ctx::Ctx;
use crate::done::Done;
use crate::error::{refuse, Failure};
use crate::game::Game;
use crate::handlers::after::called_off;
use crate::handlers::play::play;
use crate::handlers::ratings::rate;
use crate::record::{Ending, Termination};
use crate::store;
use voidmate_rules::{ByColor, Color, DrawReason, GameKind};

/// When a player of `kind` may claim a draw, for a claim made too soon;
/// `None` where draws are never claimed (they come by themselves).
fn claim_rule(kind: GameKind) -> Option<&'static str> {
    match kind {
        GameKind::Super16 => Some(
            "in Super Chess 16x16 you may claim once 100 moves each have passed without a capture or pawn move.",
        ),
        GameKind::Chess99 => Some(
            "in Chess 99 you may claim when both kings are attacked, or once your opponent has made 99 moves.",
        ),
        GameKind::Standard
        | GameKind::Void
        | GameKind::Antichess
        | GameKind::SuicideVoid
        | GameKind::SuicideVoidPromotionWins
        | GameKind::BlackHoles
        | GameKind::Defined(_) => None,
    }
}

/// Ends `g` as `ending` says, rating it if it counts (see [`rate`]): the
/// words of the rating change, or nothing.
pub(crate) async fn conclude(
    cx: &mut Ctx<'_>,
    g: &Game,
    ending: Ending,
) -> Result<String, Failure> {
    conclude_with(cx, g, ending, None).await
}

/// [`conclude`], the clocks stopped at `clocks` (a flag fell).
async fn conclude_with(
    cx: &mut Ctx<'_>,
    g: &Game,
    ending: Ending,
    clocks: Option<ByColor<i64>>,
) -> Result<String, Failure> {
    let end = store::Finish {
        ending,
        clocks,
        // Too short to count (see `abort`).
        unrated: g.ply() < 2,
    };
    if !store::finish(cx.tx, g.id(), &end, cx.now_ms).await? {
        // Ended a moment ago by someone else (a race): it ends once.
        return refuse(format!("Game #{} has already ended.", g.id()));
    }
    // A tournament game's result counts in its tournament at once.
    crate::handlers::rounds::record_result(cx.tx, g.id(), ending.result).await?;
    queue_replay(cx, g).await?;
    rate(cx, g, ending.result).await
}

/// How long after the result the replay is due: the result is posted
/// directly by then, and the replay follows it.
const REPLAY_AFTER_MS: i64 = 3_000;

/// Games shorter than this get no replay of their own at the end.
pub(crate) const REPLAY_MIN_PLIES: i64 = 4;

/// The animated replay of `g`, just ended, as a notice after the result
/// (unless the channel turned replays off, or the game is too short): due a
/// little after the result is posted, so it follows it, and drawn from the
/// stored game when it is posted.
async fn queue_replay(cx: &mut Ctx<'_>, g: &Game) -> Result<(), Failure> {
    if g.ply() < REPLAY_MIN_PLIES {
        return Ok(());
    }
    let on = store::settings(cx.tx, &g.rec.channel)
        .await?
        .is_none_or(|s| s.replays);
    if !on {
        return Ok(());
    }
    let text = format!(
        "Replay of {}: {}. `settings replays off` turns these off.",
        g.title(),
        crate::words::moves_and_plies(g.ply())
    );
    store::queue_board_notice(
        cx.tx,
        g.rec.player(Color::White).id.platform(),
        &g.rec.channel,
        &crate::contract::Text::from(text),
        store::BoardRef {
            game: g.id(),
            ply: g.ply(),
            kind: store::BoardKind::Replay,
        },
        cx.now_ms + REPLAY_AFTER_MS,
    )
    .await?;
    Ok(())
}

pub(crate) async fn resign(cx: &mut Ctx<'_>, game: GameRef) -> Result<Done, Failure> {
    let me = cx.author;
    let (g, color) = cx.pick_mine(game).await?;
    let id = g.id();
    let ending = Ending::loss(color, Termination::Resignation);
    let rated = conclude(cx, &g, ending).await?;
    let text = format!(
        "{me} resigns game #{id}. {} wins ({}).{rated}",
        g.name(!color),
        ending.result
    );
    Ok(cx
        .final_board(id, text)
        .await?
        .notifying(vec![g.player(!color)]))
}

/// The side to move ran out of time: the other side wins (even when the
/// flag is only noticed as a late move arrives).
pub(crate) async fn flag_fell(cx: &mut Ctx<'_>, g: Game) -> Result<Done, Failure> {
    if g.ply() < 2 {
        // The first move never came: called off, not lost (see `abort`).
        let text = called_off(cx.tx, &g, cx.now_ms).await?;
        return Ok(Done::text(text).notifying(vec![g.player(Color::White), g.player(Color::Black)]));
    }
    let loser = g.pos.turn();
    let ending = Ending::loss(loser, Termination::TimeForfeit);
    let id = g.id();
    let mut clocks = g.rec.seats.clone().map(|s| s.clock_ms.unwrap_or(0));
    clocks[loser] = 0;
    let rated = conclude_with(cx, &g, ending, Some(clocks)).await?;
    let text = format!(
        "Game #{id}: {}'s time ran out. {} wins on time ({}).{rated}",
        g.name(loser),
        g.name(!loser),
        ending.result
    );
    Ok(Done::text(text).notifying(vec![g.player(loser), g.player(!loser)]))
}

/// Ends a correspondence game whose player to move let the deadline pass:
/// the words, and who hears them.
pub(crate) async fn lost_on_time(
    cx: &mut Ctx<'_>,
    g: &Game,
) -> Result<(Text, Vec<Player>), Failure> {
    let mover = g.pos.turn();
    let (to_move, other) = (g.player(mover), g.player(!mover));
    if g.ply() < 2 {
        // A tournament game never started: a forfeit, not a loss on time.
        if let Some(words) = crate::handlers::rounds::no_show(cx.tx, g, cx.now_ms).await? {
            return Ok((words, vec![to_move, other]));
        }
    }
    let ending = Ending::loss(mover, Termination::TimeForfeit);
    let rated = conclude(cx, g, ending).await?;
    let text = format!(
        "Game #{}: {to_move} did not move in time. {other} wins on time ({}).{rated}",
        g.id(),
        ending.result
    );
    Ok((text.into(), vec![to_move, other]))
}

/// Both agree: the game ends drawn, with its final board, and the one who
/// offered hears of it.
pub(crate) async fn agree_draw(
    cx: &mut Ctx<'_>,
    g: &Game,
    opponent: Player,
) -> Result<Done, Failure> {
    let id = g.id();
    let rated = conclude(cx, g, Ending::draw(Termination::Agreement)).await?;
    let text = format!("Game #{id} is drawn by agreement (1/2-1/2).{rated}");
    Ok(cx.final_board(id, text).await?.notifying(vec![opponent]))
}

/// A draw claimed under the rules of the game (Chess 99, Super Chess).
pub(crate) async fn claim(
    cx: &mut Ctx<'_>,
    text: Option<String>,
    game: GameRef,
) -> Result<Done, Failure> {
    let me = cx.author;
    let (g, color) = cx.pick_mine(game).await?;
    let id = g.id();
    if g.pos.turn() != color {
        return refuse(format!(
            "It is not your turn in game #{id}: a draw is claimed by the player to move."
        ));
    }
    match g.pos.claimable_draw() {
        None => refuse(match claim_rule(g.kind()) {
            Some(rule) => format!("There is no draw to claim in game #{id}: {rule}"),
            None => format!(
                "There is nothing to claim in game #{id}: draws by repetition and the 50-move rule come by themselves here. To propose a draw, say `draw`."
            ),
        }),
        Some(DrawReason::BothKingsAttacked) => {
            let ending = Ending::draw(Termination::Drawn(DrawReason::BothKingsAttacked));
            let rated = conclude(cx, &g, ending).await?;
            Ok(Done::text(format!(
                "{me} claims a draw in game #{id}: both kings are attacked. Drawn (1/2-1/2).{rated}"
            )))
        }
        Some(DrawReason::NinetyNineMoves) => {
            let Some(text) = text else {
                return refuse(
                    "Claim the 99-move draw together with your move, like `claim Ke2`: the draw stands if that move leaves your king safe."
                );
            };
            let mv = g
                .pos
                .parse_move(&text)
                .map_err(|e| Failure::Refused(format!("{e}.")))?;
            let after = g.pos.after(&mv);
            let exposed = after
                .board()
                .king(color)
                .is_some_and(|k| after.is_attacked(k, !color));
            if exposed {
                return refuse(format!(
                    "{} leaves your king attacked, so the 99-move draw cannot be claimed with it. Nothing was played.",
                    g.pos.san(&mv)
                ));
            }
            let san = g.pos.san(&mv);
            let mut done = play(cx, g, &text).await?;
            if after.outcome().is_none() {
                let ending = Ending::draw(Termination::Drawn(DrawReason::NinetyNineMoves));
                let result = ending.to_string();
                // Rated as it stands after the move that went with the claim.
                let Some(played) = cx.reload(id).await? else {
                    return refuse(format!("Game #{id} is gone."));
                };
                let rated = conclude(cx, &played, ending).await?;
                done.text = format!(
                    "#{id}: {me} played {san} and claims the 99-move draw. Drawn (1/2-1/2).{rated}"
                )
                .into();
                done.notify.clear();
                if let Some(p) = done.picture.as_mut() {
                    if let Some(c) = p.opts.caption.as_mut() {
                        c.status.clone_from(&result);
                    }
                    if let Some(card) = p.board.as_mut() {
                        card.to_move = None;
                        card.result = Some(result);
                    }
                }
            }
            Ok(done)
        }
        Some(reason) => {
            // What the game's own words are for it: "claimed under the 100-move rule".
            let words = reason.words();
            let rated = conclude(cx, &g, Ending::draw(Termination::Drawn(reason))).await?;
            Ok(Done::text(format!(
                "{me} claims a draw in game #{id}: {words}. Drawn (1/2-1/2).{rated}"
            )))
        }
    }
}
