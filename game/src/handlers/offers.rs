//! Proposals between players, one mechanism for both kinds: a draw offer
//! and a takeback request are made by one player, stand until the next
//! move, and are accepted (a second `draw` counts), declined, or left.
//! What differs is in [`Words`] and in what acceptance does.

use crate::command::{Answer, GameRef, OfferKind};
use crate::contract::Player;
use crate::ctx::Ctx;
use crate::done::Done;
use crate::error::{damaged, refuse, Failure};
use crate::game::{replay, Game, Replayed};
use crate::handlers::ending::agree_draw;
use crate::reply::Action;
use crate::store;
use voidmate_rules::{Color, Position};

/// What each kind of proposal is called and says.
struct Words {
    /// "draw offer", "takeback request".
    name: &'static str,
    /// What the bot says in game N to an answer (accept, decline) when it
    /// made no proposal: it answers proposals at once, never makes one.
    to_the_bot: fn(i64) -> String,
    /// A second proposal while one stands.
    already: &'static str,
    /// "the draw", "the takeback", as declined.
    declined: &'static str,
}

fn words(kind: OfferKind) -> Words {
    match kind {
        OfferKind::Draw => Words {
            name: "draw offer",
            to_the_bot: |id| {
                format!("I have offered no draw in game #{id}: offer one with `draw`, and I will judge it.")
            },
            already: "You have already offered a draw; it stands until the next move.",
            declined: "the draw",
        },
        OfferKind::Takeback => Words {
            name: "takeback request",
            to_the_bot: |id| {
                format!("I have asked for no takeback in game #{id}: ask for one with `undo` on your turn.")
            },
            already: "You have already asked to take back the last move; wait for an answer.",
            declined: "the takeback",
        },
    }
}

/// `draw` or `undo`, with its answer: make, accept or decline a proposal.
pub(crate) async fn offer(
    cx: &mut Ctx<'_>,
    kind: OfferKind,
    answer: Answer,
    game: GameRef,
) -> Result<Done, Failure> {
    let me = cx.author;
    let (g, color) = cx.pick_mine(game).await?;
    let id = g.id();
    let opponent = g.player(!color);
    let w = words(kind);
    if cx.core.is_bot(&opponent.id) {
        return the_bot_answers(cx, kind, answer, g, color).await;
    }
    let standing = g.standing(kind).map(|o| o.by);
    match (answer, standing) {
        (Answer::Ask | Answer::Accept, Some(by)) if by == !color => {
            accept(cx, kind, g, color, opponent).await
        }
        (Answer::Ask, Some(_)) => refuse(w.already),
        (Answer::Ask, None) => {
            let what = match kind {
                OfferKind::Draw => "a draw".to_string(),
                OfferKind::Takeback => {
                    let n = takeback_plies(&g, color);
                    if n == 0 {
                        return refuse(format!("You have no move to take back in game #{id} yet."));
                    }
                    let what = match taken_back(&g, n).as_slice() {
                        [mine] => mine.clone(),
                        [mine, reply] => format!("{mine} and {opponent}'s reply {reply}"),
                        _ => "the last moves".to_string(),
                    };
                    format!("to take back {what}")
                }
            };
            store::set_offer(cx.tx, id, kind, Some(&me.id), g.ply()).await?;
            let verb = match kind {
                OfferKind::Draw => "offers",
                OfferKind::Takeback => "asks",
            };
            let how = cx.core.how_to_answer(
                opponent.id.platform(),
                &format!("{} accept", kind.word()),
                &format!("{} decline", kind.word()),
            );
            let text = format!("{me} {verb} {what} in game #{id}. {opponent}: {how}.");
            Ok(Done::text(text)
                .asking(vec![Action::AnswerOffer {
                    kind,
                    game: id,
                    to: opponent.id.clone(),
                }])
                .notifying(vec![opponent]))
        }
        (Answer::Decline, Some(by)) if by == !color => {
            store::set_offer(cx.tx, id, kind, None, g.ply()).await?;
            Ok(
                Done::text(format!("{me} declines {} in game #{id}.", w.declined))
                    .notifying(vec![opponent]),
            )
        }
        _ => refuse(format!(
            "There is no {} from {opponent} to answer in game #{id}.",
            w.name
        )),
    }
}

/// Nodes the bot searches to judge a draw offer: a few hundredths of a
/// second, enough to see a piece hanging.
const DRAW_JUDGEMENT_NODES: u64 = 20_000;

/// The bot answers a proposal in its own game at once. A takeback is
/// granted (games against the bot are casual), on the player's own turn
/// (while the bot thinks, the move is already being answered). A draw is
/// accepted when the engine finds the bot worse by half a pawn or more, or
/// level (within 0.2) after move 30; else declined, with its score.
async fn the_bot_answers(
    cx: &mut Ctx<'_>,
    kind: OfferKind,
    answer: Answer,
    g: Game,
    color: Color,
) -> Result<Done, Failure> {
    let id = g.id();
    if answer != Answer::Ask {
        return refuse((words(kind).to_the_bot)(id));
    }
    if g.pos.turn() != color {
        // While the bot thinks, the player's move is already being answered.
        return refuse(match kind {
            OfferKind::Takeback => {
                format!("I am answering your move in game #{id}; ask again when it is your turn.")
            }
            OfferKind::Draw => {
                format!("I am thinking about my move in game #{id}; offer the draw on your turn.")
            }
        });
    }
    match kind {
        OfferKind::Takeback => {
            if takeback_plies(&g, color) == 0 {
                return refuse(format!("You have no move to take back in game #{id} yet."));
            }
            take_back(cx, g, color).await
        }
        OfferKind::Draw if bot_moves(&g, !color) == 0 => refuse(format!(
            "I have not made my first move in game #{id} yet: offer a draw once the game has begun, or `abort` it."
        )),
        OfferKind::Draw => {
            // The score for the side to move (the player), searched on the
            // engine's threads: the bot's is its opposite.
            let level = voidmate_engine::Level::new(5).expect("level 5 exists");
            let score = cx
                .core
                .engine
                .score(g.pos.clone(), level, DRAW_JUDGEMENT_NODES)
                .await;
            let Some(score) = score else {
                return refuse(format!("Game #{id} is over."));
            };
            let mine = -score;
            let late = g.ply() >= 60;
            if mine <= -50 || (late && mine.abs() <= 20) {
                let why = if mine <= -50 {
                    "I think I stand worse"
                } else {
                    "the game is level and long enough"
                };
                let mut done = agree_draw(cx, &g, cx.author.clone()).await?;
                let mut text = crate::contract::Text::from(format!(
                    "I accept the draw in game #{id}: {why} ({:+.1} for me). ",
                    f64::from(mine) / 100.0
                ));
                text.push_text(&done.text);
                done.text = text;
                Ok(done)
            } else {
                refuse(format!(
                    "I decline the draw in game #{id}: I think {} ({:+.1} for me). Play on, or `resign`.",
                    if mine > 20 { "I stand better" } else { "there is still a game to play" },
                    f64::from(mine) / 100.0
                ))
            }
        }
    }
}

/// How many moves `side` has made in `g` (the side to move now is the
/// other one): the sides alternate from the start.
fn bot_moves(g: &Game, side: Color) -> usize {
    let ply = g.ply() as usize;
    let first = if ply.is_multiple_of(2) { !side } else { side };
    if first == side {
        ply.div_ceil(2)
    } else {
        ply / 2
    }
}

/// The author accepts the opponent's standing proposal.
async fn accept(
    cx: &mut Ctx<'_>,
    kind: OfferKind,
    g: Game,
    color: Color,
    opponent: Player,
) -> Result<Done, Failure> {
    match kind {
        OfferKind::Draw => agree_draw(cx, &g, opponent).await,
        OfferKind::Takeback => take_back(cx, g, !color).await,
    }
}

/// Rebuilds the position without `requester`'s last move (and the reply to
/// it, if the request came on their turn).
async fn take_back(cx: &mut Ctx<'_>, mut g: Game, requester: Color) -> Result<Done, Failure> {
    let id = g.id();
    let n = takeback_plies(&g, requester);
    let gone = taken_back(&g, n);
    if gone.is_empty() {
        return refuse(format!("There is no move to take back in game #{id}."));
    }
    g.moves.truncate(g.moves.len() - gone.len());
    // Replayed as it was loaded (it replayed then: anything else is damage).
    let start = Position::from_fen(g.pos.shared_rules().clone(), &g.rec.start_fen)
        .map_err(|e| damaged(id, e))?;
    let Replayed { pos, last, through } =
        replay(start, &g.moves, |_| {}).map_err(|e| damaged(id, e))?;
    if !store::take_back_to(cx.tx, &g.rec, g.moves.len() as i64, &pos.fen()).await? {
        return refuse(format!(
            "Game #{id} changed meanwhile; look at the `board` and try again."
        ));
    }
    g.pos = pos;
    g.last = last;
    g.through = through;
    let next = g.player(g.pos.turn());
    let viewer = cx.author.id.clone();
    let picture = cx.picture(&g, &viewer, None).await?;
    let text = format!(
        "{} {} taken back in game #{id}. {next}, your move.",
        gone.join(" and "),
        if gone.len() == 1 { "is" } else { "are" }
    );
    Ok(Done::board(text, picture).notifying(vec![next]))
}

/// How many plies a takeback asked by `requester` removes: their last move,
/// and the opponent's reply when the request comes on their own turn (what
/// players mean by "take back my move"). 0 when they have not moved yet.
fn takeback_plies(g: &Game, requester: Color) -> usize {
    let n = if g.pos.turn() == requester { 2 } else { 1 };
    if g.moves.len() >= n {
        n
    } else {
        0
    }
}

/// The last `n` moves, oldest first.
fn taken_back(g: &Game, n: usize) -> Vec<String> {
    g.moves[g.moves.len() - n.min(g.moves.len())..]
        .iter()
        .map(|m| m.san.clone())
        .collect()
}
