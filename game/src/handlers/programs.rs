//! Super Chess programs (symmetric rosters, private programs sent in
//! direct messages) and the players' piece colours.

use crate::command::{GameRef, Paint, ProgramMode};
use crate::contract::Text;
use crate::ctx::Ctx;
use crate::done::Done;
use crate::error::{refuse, Failure};
use crate::handlers::challenge::pending;
use crate::handlers::play::opening;
use crate::reply::Action;
use crate::store;
use voidmate_render::PieceColour;
use voidmate_rules::{variants, Program};

/// A program as a player wrote it, read for Super Chess.
fn read(text: &str) -> Result<Program, Failure> {
    Program::parse(variants::super16(), text).map_err(|e| {
        Failure::Refused(format!(
            "I cannot use that program: {e}. See `help program`."
        ))
    })
}

/// `program`: write the roster of a symmetric challenge, send one's private
/// program, or look at either.
pub(crate) async fn program(
    cx: &mut Ctx<'_>,
    text: Option<String>,
    game: GameRef,
) -> Result<Done, Failure> {
    let me = cx.author;
    if cx.private() {
        return private_program(cx, text, game).await;
    }
    if game.is_none() {
        for c in pending(cx).await? {
            if &c.challenger != me && &c.challenged != me {
                continue;
            }
            match (c.mode, &text) {
                (ProgramMode::Symmetric, None) => {
                    return Ok(Done::text(format!(
                        "{}'s challenge to {} proposes for both sides: {}.",
                        c.challenger,
                        c.challenged,
                        c.program.as_deref().unwrap_or("default")
                    )))
                }
                (ProgramMode::Symmetric, Some(t)) if &c.challenger == me => {
                    let roster = read(t)?.to_string();
                    store::set_challenge_program(cx.tx, c.id, &roster).await?;
                    let text = Text::from(format!(
                        "{me} proposes one roster for both sides: {roster}. "
                    ))
                    .mention(&c.challenged)
                    .say(", `accept` to play with it, or `decline`.");
                    return Ok(Done::text(text)
                        .notifying(vec![c.challenged.clone()])
                        .asking(vec![Action::AnswerChallenge {
                            challenger: me.clone(),
                            to: c.challenged.id.clone(),
                        }]));
                }
                (ProgramMode::Symmetric, Some(_)) => {
                    return refuse(format!(
                        "{} writes the roster of this challenge. If you want another, ask for it, or decline and challenge with yours.",
                        c.challenger
                    ))
                }
                (ProgramMode::Private, Some(_)) => {
                    return refuse(
                        "Private programs are sent once the challenge is accepted, and only in a direct message to me (say `dm` and I will open one). I did not keep this one; as it was shown here, you may want another.",
                    )
                }
                (ProgramMode::Private, None) | (ProgramMode::Default, _) => {}
            }
        }
    }
    let g = match cx.pick_any(game).await {
        Ok(g) => g,
        Err(Failure::Refused(_)) => {
            return refuse(
                "You have no Super Chess challenge or game here that takes a program. Start one with `challenge @someone super16 symmetric` or `challenge @someone super16 private`.",
            )
        }
        Err(e) => return Err(e),
    };
    let id = g.id();
    match (g.rec.mode, text) {
        (ProgramMode::Private, Some(_)) => refuse(format!(
            "Programs in game #{id} are private: send yours to me in a direct message, `program #{id} ...` (say `dm` and I will open one). I did not keep this one; as it was shown here, you may want another."
        )),
        (ProgramMode::Private, None) => refuse(format!(
            "Programs in game #{id} are private: ask me in a direct message, `program #{id}` (say `dm` and I will open one)."
        )),
        (ProgramMode::Symmetric, None) => Ok(Done::text(format!(
            "Game #{id}: both sides play with {}.",
            g.rec.seats.white.program.as_deref().unwrap_or("default")
        ))),
        (ProgramMode::Symmetric, Some(_)) => refuse(format!(
            "The roster of game #{id} was agreed at the challenge and stays for the game."
        )),
        (ProgramMode::Default, _) => refuse(format!(
            "Game #{id} is played with every piece as it is: programs belong to Super Chess challenges in the symmetric or private mode."
        )),
    }
}

/// A program sent privately for a game of private programs.
async fn private_program(
    cx: &mut Ctx<'_>,
    text: Option<String>,
    game: GameRef,
) -> Result<Done, Failure> {
    let me = cx.author;
    let mut g = match game {
        Some(id) => cx.private_game(id).await?,
        None => {
            let mut rows = Vec::new();
            for rec in store::private_games_of(cx.tx, &me.id).await? {
                let rec = rec?;
                let color = rec.color_of(&me.id);
                // Sending: only games still waiting for this player's program.
                let waits = color.is_some_and(|c| rec.seats[c].program.is_none());
                if text.is_none() || waits {
                    rows.push(rec);
                }
            }
            match rows.len() {
                0 => {
                    return refuse(
                        "You have no game of private programs waiting for yours. Challenge with `challenge @someone super16 private` in a channel.",
                    )
                }
                1 => match rows.pop() {
                    Some(rec) => cx.load(rec).await?,
                    None => return refuse("Your game is gone."),
                },
                _ => {
                    let ids: Vec<String> = rows.iter().map(|r| format!("#{}", r.id)).collect();
                    return refuse(format!(
                        "You have several such games ({}); name one, like `program {} ...`.",
                        ids.join(", "),
                        ids[0]
                    ));
                }
            }
        }
    };
    let id = g.id();
    let color = g.side_of(&me.id)?;
    if g.rec.mode != ProgramMode::Private {
        return refuse(format!(
            "Game #{id} does not use private programs; `program #{id}` in its channel shows its roster."
        ));
    }
    let Some(text) = text else {
        return Ok(Done::text(match &g.rec.seats[color].program {
            Some(p) => format!("Your program for game #{id}: {p}."),
            None => format!("You have not sent your program for game #{id} yet."),
        }));
    };
    if g.awaiting_programs().is_empty() {
        return refuse(format!(
            "Game #{id} has begun: programs are fixed for the whole game."
        ));
    }
    let program = read(&text)?.to_string();
    g.rec.seats[color].program = Some(program.clone());
    store::set_programs(
        cx.tx,
        id,
        ProgramMode::Private,
        g.rec.seats.white.program.as_deref(),
        g.rec.seats.black.program.as_deref(),
    )
    .await?;
    let waiting: Vec<String> = g
        .awaiting_programs()
        .iter()
        .map(|s| s.to_string())
        .collect();
    if !waiting.is_empty() {
        return Ok(Done::text(format!(
            "Your program for game #{id} is in: {program}. Waiting for {}'s; until then you may send a new one.",
            waiting.join(" and ")
        )));
    }
    // Both are in: the game begins, announced in its own channel.
    store::begin(cx.tx, id, &opening(cx, &g.rec.clock)).await?;
    let first = g.player(g.pos.turn());
    let news = format!(
        "Both programs are in: game #{id} begins. {first} ({}), your move.",
        g.side(g.pos.turn())
    );
    store::queue_notice(
        cx.tx,
        &g.rec.channel,
        &news.into(),
        std::slice::from_ref(&first),
    )
    .await?;
    Ok(Done::text(format!(
        "Your program for game #{id} is in: {program}. Both programs are in: the game begins in its channel."
    )))
}

/// `colour`: show or choose one's piece colour in a game.
pub(crate) async fn colour(
    cx: &mut Ctx<'_>,
    colour: Option<Paint>,
    game: GameRef,
) -> Result<Done, Failure> {
    let me = cx.author;
    let names: Vec<&str> = PieceColour::ALL.iter().map(|c| c.name()).collect();
    let (mut g, side) = cx.pick_mine(game).await?;
    let id = g.id();
    let chosen = match colour {
        None => {
            return Ok(Done::text(format!(
            "In game #{id} your pieces are {} and {}'s are {}. Choose with `colour <name>`: {}.",
            g.colour_of(side),
            g.name(!side),
            g.colour_of(!side),
            names.join(", ")
        )))
        }
        Some(Paint::Unknown(word)) => {
            return refuse(format!(
                "`{word}` is not a colour I paint; choose one of {}.",
                names.join(", ")
            ))
        }
        Some(Paint::Known(chosen)) => chosen,
    };
    if g.colour_of(!side) == chosen {
        return refuse(format!(
            "{}'s pieces are already {chosen} in game #{id}: pick another, so the sides can be told apart.",
            g.name(!side),
        ));
    }
    store::set_colour(cx.tx, id, side, chosen).await?;
    g.rec.seats[side].colour = Some(chosen);
    let picture = cx.picture(&g, &me.id, None).await?;
    Ok(Done::board(
        format!("{me}'s pieces are {chosen} now in game #{id}."),
        picture,
    ))
}
