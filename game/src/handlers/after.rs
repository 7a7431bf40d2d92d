//! Around a game: calling it off before it has begun (`abort`, and the
//! bot's own abort of a clock game whose first moves do not come), playing
//! it again (`rematch`), and the games that ended here (`games finished`).

use crate::command::{ChallengeOptions, ColorChoice, GameRef, ProgramMode};
use crate::contract::{Player, Text};
use crate::ctx::Ctx;
use crate::done::Done;
use crate::error::{refuse, Failure};
use crate::game::Game;
use crate::handlers::challenge::{challenge, pending};
use crate::record::{GameResult, Termination};
use crate::store;
use std::fmt::Write as _;
use voidmate_rules::Color;

/// `abort [#N]`: before both sides have moved, either player calls the game
/// off.
pub(crate) async fn abort(cx: &mut Ctx<'_>, game: GameRef) -> Result<Done, Failure> {
    let me = cx.author;
    let (g, side) = cx.pick_mine(game).await?;
    let id = g.id();
    if g.ply() >= 2 {
        return refuse(format!(
            "Game #{id} has begun: both sides have moved, so it can no longer be aborted. `resign` ends it."
        ));
    }
    if let Some((t, _)) = store::round_game_of(cx.tx, id).await? {
        return refuse(format!(
            "Game #{id} is a game of tournament {t}: it cannot be aborted. Play it, or `resign` it; a first move that does not come in time loses it by forfeit."
        ));
    }
    if !store::abort(cx.tx, id, Termination::Aborted, cx.now_ms).await? {
        return refuse(format!("Game #{id} has already ended."));
    }
    let text = format!("{me} aborts game #{id}: no result, not rated.");
    Ok(Done::text(text).notifying(vec![g.player(!side)]))
}

/// Ends `g`, whose player to move never made a first move in time: no
/// result, not rated. The words for its channel.
pub(crate) async fn called_off(
    tx: &mut store::Tx,
    g: &Game,
    now_ms: i64,
) -> Result<Text, sqlx::Error> {
    if let Some(words) = crate::handlers::rounds::no_show(tx, g, now_ms).await? {
        return Ok(words);
    }
    let mover = g.player(g.pos.turn());
    store::abort(tx, g.id(), Termination::NoFirstMove, now_ms).await?;
    Ok(Text::from(format!(
        "Game #{} is aborted: {mover} did not make a first move in time. No result, not rated.",
        g.id()
    )))
}

/// `rematch [#N]`: the same game against the same opponent, sides swapped;
/// the opponent accepts as usual (the bot at once).
pub(crate) async fn rematch(cx: &mut Ctx<'_>, game: GameRef) -> Result<Done, Failure> {
    let me = cx.author.clone();
    let rec = match game {
        Some(id) => store::game(cx.tx, cx.channel, id).await?,
        None => store::latest_game(cx.tx, cx.channel, &me.id).await?,
    };
    let Some(rec) = rec else {
        return refuse(match game {
            Some(id) => format!("There is no game #{id} in this channel."),
            None => "You have played no game here to have a rematch of.".to_string(),
        });
    };
    let g = cx.load(rec).await?;
    let id = g.id();
    let side = g.side_of(&me.id)?;
    if g.rec.is_active() {
        return refuse(format!(
            "Game #{id} is still going: a rematch comes after it ends."
        ));
    }
    let opponent = g.player(!side);
    // An abort clears a game's rating; the players' wish stands.
    let rated = g.rec.rated || store::unrated_by_ending(cx.tx, id).await?;
    let options = ChallengeOptions {
        variant: Some(g.kind()),
        time: Some(g.rec.clock.clone()),
        // Sides swapped.
        color: Some(match side {
            Color::White => ColorChoice::Black,
            Color::Black => ColorChoice::White,
        }),
        level: g.rec.engine_level,
        mode: Some(g.rec.mode),
        thread: None,
        rated: Some(rated),
    };
    let mut done = challenge(cx, &opponent, options).await?;
    if g.rec.mode == ProgramMode::Symmetric {
        // The same roster as before, proposed again.
        let roster = g.rec.seats.white.program.clone();
        if let (Some(roster), Some(c)) = (roster, mine_to(cx, &opponent).await?) {
            store::set_challenge_program(cx.tx, c, &roster).await?;
        }
    }
    let mut text = Text::from(format!("Rematch of game #{id}: "));
    text.push_text(&done.text);
    if !rated && cx.community().is_some() {
        text.push_str(&format!(" Casual, as game #{id} was."));
    }
    done.text = text;
    Ok(done)
}

/// The author's pending challenge to `opponent` here, if any.
async fn mine_to(cx: &mut Ctx<'_>, opponent: &Player) -> Result<Option<i64>, Failure> {
    let me = cx.author.id.clone();
    Ok(pending(cx)
        .await?
        .into_iter()
        .find(|c| c.challenger.id == me && c.challenged == *opponent)
        .map(|c| c.id))
}

/// The last games to end here, with their results.
const FINISHED_SHOWN: i64 = 10;

/// `games finished`: the last ten games to end in this channel.
pub(crate) async fn finished(cx: &mut Ctx<'_>) -> Result<Done, Failure> {
    let rows = store::finished_games(cx.tx, cx.channel, FINISHED_SHOWN).await?;
    if rows.is_empty() {
        return Ok(Done::text("No game has ended here yet."));
    }
    let mut text = String::from("The last games to end here:");
    for rec in rows.into_iter().filter_map(Result::ok) {
        let Some(ending) = rec.ending() else { continue };
        let kind = match (ending.result, rec.rated) {
            (GameResult::NoResult, _) => "",
            (_, true) => ", rated",
            (_, false) => ", casual",
        };
        let _ = write!(
            text,
            "\n  #{} {} vs {}  {} ({}): {ending}{kind}",
            rec.id,
            rec.seats.white.player,
            rec.seats.black.player,
            rec.kind.title(),
            rec.clock
        );
    }
    Ok(Done::text(text))
}
