//! How games end other than on the board: resignation, time, claims and
//! agreed draws.

use crate::command::GameRef;
use crate::contract::{Player, Text};
use crate::ctx::Ctx;
use crate::done::Done;
use crate::error::{refuse, Failure};
use crate::game::Game;
use crate::handlers::play::play;
use crate::store;
use voidmate_rules::{Color, DrawReason, GameKind};

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
        | GameKind::BlackHoles => None,
    }
}

/// The score when `loser` loses.
fn loss_of(loser: Color) -> &'static str {
    match loser {
        Color::White => "0-1",
        Color::Black => "1-0",
    }
}

pub(crate) async fn resign(cx: &mut Ctx<'_>, game: GameRef) -> Result<Done, Failure> {
    let me = cx.author;
    let (g, color) = cx.pick_mine(game).await?;
    let id = g.id();
    let result = loss_of(color);
    store::finish(cx.tx, id, result, "resignation").await?;
    let text = format!(
        "{me} resigns game #{id}. {} wins ({result}).",
        g.name(!color)
    );
    Ok(cx
        .final_board(id, text)
        .await?
        .notifying(vec![g.player(!color)]))
}

/// The side to move ran out of time: the other side wins (even when the
/// flag is only noticed as a late move arrives).
pub(crate) async fn flag_fell(cx: &mut Ctx<'_>, g: Game) -> Result<Done, Failure> {
    let loser = g.pos.turn();
    let result = loss_of(loser);
    let id = g.id();
    store::finish(cx.tx, id, result, "time forfeit").await?;
    store::set_deadline(cx.tx, id, None).await?;
    let mut clocks = g.rec.seats.clone();
    clocks[loser].clock_ms = Some(0);
    let w = clocks.white.clock_ms.unwrap_or(0);
    let b = clocks.black.clock_ms.unwrap_or(0);
    store::set_clocks(cx.tx, id, w, b, None).await?;
    let text = format!(
        "Game #{id}: {}'s time ran out. {} wins on time ({result}).",
        g.name(loser),
        g.name(!loser)
    );
    Ok(Done::text(text).notifying(vec![g.player(loser), g.player(!loser)]))
}

/// Ends a correspondence game whose player to move let the deadline pass:
/// the words, and who hears them.
pub(crate) async fn lost_on_time(
    cx: &mut Ctx<'_>,
    g: &Game,
) -> Result<(Text, Vec<Player>), sqlx::Error> {
    let mover = g.pos.turn();
    let (to_move, other) = (g.player(mover), g.player(!mover));
    let result = loss_of(mover);
    store::finish(cx.tx, g.id(), result, "time forfeit").await?;
    store::set_deadline(cx.tx, g.id(), None).await?;
    let text = format!(
        "Game #{}: {to_move} did not move in time. {other} wins on time ({result}).",
        g.id()
    );
    Ok((text.into(), vec![to_move, other]))
}

/// Both agree: the game ends drawn, with its final board, and the one who
/// offered hears of it.
pub(crate) async fn agree_draw(
    cx: &mut Ctx<'_>,
    id: i64,
    opponent: Player,
) -> Result<Done, Failure> {
    store::finish(cx.tx, id, "1/2-1/2", "agreement").await?;
    let text = format!("Game #{id} is drawn by agreement (1/2-1/2).");
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
            store::finish(cx.tx, id, "1/2-1/2", "both kings attacked (claimed)").await?;
            Ok(Done::text(format!(
                "{me} claims a draw in game #{id}: both kings are attacked. Drawn (1/2-1/2)."
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
                let result = "1/2-1/2 99-move rule (claimed)";
                store::finish(cx.tx, id, "1/2-1/2", "99-move rule (claimed)").await?;
                done.text = format!(
                    "#{id}: {me} played {san} and claims the 99-move draw. Drawn (1/2-1/2)."
                )
                .into();
                done.notify.clear();
                if let Some(p) = done.picture.as_mut() {
                    if let Some(c) = p.opts.caption.as_mut() {
                        c.status = result.into();
                    }
                    if let Some(card) = p.board.as_mut() {
                        card.to_move = None;
                        card.result = Some(result.into());
                    }
                }
            }
            Ok(done)
        }
        Some(reason) => {
            // What the game's own words are for it: "claimed under the 100-move rule".
            let words = reason.words();
            store::finish(cx.tx, id, "1/2-1/2", words).await?;
            Ok(Done::text(format!(
                "{me} claims a draw in game #{id}: {words}. Drawn (1/2-1/2)."
            )))
        }
    }
}
