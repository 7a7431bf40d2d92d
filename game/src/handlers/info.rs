//! What only reads: a game's board and history, the games in a channel,
//! the games the bot plays, the rules help, the command help, and opening
//! a direct conversation.

use crate::command::GameRef;
use crate::contract::Text;
use crate::ctx::Ctx;
use crate::done::Done;
use crate::error::{refuse, Failure};
use crate::handlers::challenge::pending;
use crate::help;
use crate::history::history_text;
use crate::load::seats;
use crate::picture::Picture;
use crate::reply::Direct;
use crate::store;
use std::fmt::Write as _;
use voidmate_render::RenderOptions;
use voidmate_rules::{GameKind, Position, Square};

pub(crate) async fn board(
    cx: &mut Ctx<'_>,
    game: GameRef,
    zoom: Option<String>,
) -> Result<Done, Failure> {
    let g = cx.pick_any(game).await?;
    let size = g.pos.rules().size();
    let zoom = match zoom {
        None => None,
        Some(s) => Some(
            Square::parse(&s)
                .filter(|&q| size.contains(q))
                .ok_or_else(|| {
                    let shown: String = s.chars().take(12).collect();
                    Failure::Refused(format!(
                        "`{shown}` is not a square of this board ({}); zoom on one like {}.",
                        size.describe(),
                        Square::new(size.files() / 2, size.ranks() / 2)
                    ))
                })?,
        ),
    };
    let mut text = format!("{}: {}.", g.title(), g.status());
    if g.rec.is_active() {
        for side in [g.pos.turn(), !g.pos.turn()] {
            text.push_str(&g.standing_on_own_tile(side));
        }
    }
    let viewer = cx.author.id.clone();
    let mut picture = cx.picture(&g, &viewer, None).await?;
    if let Some(z) = zoom {
        picture.opts.zoom = Some(z);
        picture.alt = format!("{} (closer: around {z})", picture.alt);
        if size.files() <= voidmate_render::ZOOM && size.ranks() <= voidmate_render::ZOOM {
            text.push_str(" (The whole board fits already: zoom shows 8x8 squares.)");
        }
    }
    Ok(Done::board(text, picture))
}

/// `replay`: the game's animated replay, finished or not.
pub(crate) async fn replay(cx: &mut Ctx<'_>, game: GameRef) -> Result<Done, Failure> {
    let g = cx.pick_any(game).await?;
    if g.moves.is_empty() {
        let aborted = g
            .rec
            .ending()
            .is_some_and(|e| e.result == crate::record::GameResult::NoResult);
        return refuse(if aborted {
            format!(
                "Game #{} was aborted before any move: there is nothing to replay.",
                g.id()
            )
        } else {
            format!(
                "Game #{} has no moves yet: there is nothing to replay.",
                g.id()
            )
        });
    }
    let viewer = cx.author.id.clone();
    let mut picture = cx.picture(&g, &viewer, None).await?;
    picture.replay = crate::picture::replay_frames(&g, &picture.opts);
    if picture.replay.is_none() {
        return refuse(format!("Game #{} does not replay.", g.id()));
    }
    let length = crate::words::moves_and_plies(g.ply());
    picture.alt = format!(
        "Game #{}: an animated replay (GIF) of {length}, {}",
        g.id(),
        g.status()
    );
    let text = format!("Replay of {}: {length}, {}.", g.title(), g.status());
    Ok(Done::board(text, picture))
}

/// `analysis`: the engine's review of a finished game. Queued as engine
/// work the first time (and posted here when done); asked again once done,
/// shown at once.
pub(crate) async fn analysis(cx: &mut Ctx<'_>, game: GameRef) -> Result<Done, Failure> {
    let g = cx.pick_any(game).await?;
    let id = g.id();
    if g.rec.is_active() {
        return refuse(format!(
            "I review finished games: game #{id} is still being played. `replay #{id}` shows it so far."
        ));
    }
    if g.moves.is_empty() {
        return refuse(format!(
            "Game #{id} ended before any move: there is nothing to review."
        ));
    }
    match store::review_of(cx.tx, id).await? {
        Some(r) if r.done_ms.is_some() => {
            let Some(review) = cx.core.stored_review(&g).await else {
                return refuse(format!("Game #{id}'s review cannot be read back."));
            };
            let theme = cx.theme().await?;
            let picture = crate::picture::graph_picture(&g, &review, theme);
            Ok(Done::board(
                crate::review_flow::review_text(&g, &review),
                picture,
            ))
        }
        Some(_) => Ok(Done::text(format!(
            "Game #{id}'s review is under way; I post it here when it is done."
        ))),
        None => {
            let nodes = cx.core.review_nodes();
            store::queue_review(
                cx.tx,
                id,
                cx.channel,
                cx.author.id.platform(),
                nodes as i64,
                cx.now_ms,
            )
            .await?;
            let positions = g.moves.len() + 1;
            Ok(Done::text(format!(
                "Game #{id} is queued for the engine's review ({positions} positions, about {} s). I post it here when it is done.",
                (positions as u64 * nodes).div_ceil(1_000_000).max(1)
            )))
        }
    }
}

pub(crate) async fn history(cx: &mut Ctx<'_>, game: GameRef, pgn: bool) -> Result<Done, Failure> {
    let g = cx.pick_any(game).await?;
    Ok(Done::text(if pgn {
        // A reviewed game's PGN carries the review.
        let reviewed = match g.rec.status {
            crate::record::Status::Finished(_) => cx.core.stored_review(&g).await,
            _ => None,
        };
        crate::history::pgn_text_reviewed(&g, cx.channel, reviewed.as_ref())
    } else {
        history_text(&g)
    }))
}

pub(crate) async fn games(cx: &mut Ctx<'_>) -> Result<Done, Failure> {
    let games = store::active_games(cx.tx, cx.channel).await?;
    let challenges = pending(cx).await?;
    if games.is_empty() && challenges.is_empty() {
        return Ok(Done::text(
            "No games or challenges here. Start one with `challenge @someone`.",
        ));
    }
    let mut text = String::new();
    for game in games {
        let (id, [white, black]) = match &game {
            Ok(rec) => (rec.id, seats(&game).map(Clone::clone)),
            Err(damaged) => (damaged.id, seats(&game).map(Clone::clone)),
        };
        let loaded = match game {
            Ok(rec) => cx.load(rec).await,
            Err(e) => Err(e.into()),
        };
        match loaded {
            Ok(g) => {
                // The time control as every other reply names it ("3 days
                // per move", "no time limit").
                let _ = writeln!(
                    text,
                    "{}, {}: move {}, {}",
                    g.title(),
                    g.rec.clock,
                    g.pos.board().fullmove_number(),
                    g.status()
                );
            }
            Err(Failure::Storage(e)) => return Err(Failure::Storage(e)),
            Err(_) => {
                let _ = writeln!(text, "#{id} {white} vs {black}: damaged record");
            }
        }
    }
    for c in challenges {
        let _ = writeln!(
            text,
            "Challenge: {} invites {} to {}, {}, waiting",
            c.challenger,
            c.challenged,
            c.kind.title(),
            c.clock
        );
    }
    Ok(Done::text(text.trim_end()))
}

pub(crate) fn variants(community: Option<&str>) -> Done {
    let mut text = String::from("I play:");
    let mut defined = false;
    for kind in GameKind::every_in(community) {
        let r = kind.rules();
        let mark = if kind.is_defined() {
            defined = true;
            "*"
        } else {
            ""
        };
        let _ = write!(
            text,
            "\n  {}{mark} ({}, {} board)",
            r.name(),
            r.title(),
            r.size()
        );
    }
    if defined {
        text.push_str("\n* defined in a variants file");
    }
    text.push_str("\nChallenge with `challenge @someone <variant>`; learn with `rules <variant>`.");
    Done::text(text)
}

/// A game named that is none of those played here.
pub(crate) fn unknown_game(community: Option<&str>, name: &str) -> Result<Done, Failure> {
    let shown: String = name.trim().chars().take(40).collect();
    let names: Vec<&str> = GameKind::every_in(community)
        .into_iter()
        .map(GameKind::name)
        .collect();
    if shown.is_empty() {
        return refuse(format!("Which game? The games: {}.", names.join(", ")));
    }
    refuse(format!(
        "`{shown}` is not a game I play here; the games: {}.",
        names.join(", ")
    ))
}

pub(crate) fn help(topic: Option<&str>) -> Done {
    Done::text(match topic {
        None => help::commands().to_string(),
        Some(word) => help::command_help(word)
            .unwrap_or_else(|| format!("There is no command `{word}`.\n\n{}", help::commands())),
    })
}

/// The first sentence of `text` (all of it if it has one sentence), past a
/// list item's mark (`6. `, `- `).
fn first_sentence(text: &str) -> &str {
    let text = text.trim_start_matches("- ");
    let text = match text.split_once(". ") {
        Some((n, rest)) if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) => rest,
        _ => text,
    };
    match text.find(". ") {
        Some(i) => &text[..=i],
        None => text,
    }
}

/// `dm`: open a direct conversation with the author, greeting them there.
pub(crate) fn direct(cx: &Ctx<'_>) -> Done {
    let me = cx.author;
    if cx.private() {
        return Done::text(
            "We are talking privately already: programs and private moves go right here.",
        );
    }
    let mut done = Done::text(
        Text::new()
            .mention(me)
            .say(", I have started a direct conversation with you: look for my message there."),
    );
    done.direct = Some(Direct {
        with: me.clone(),
        greeting: Text::new().mention(me).say(
            ", this is our direct conversation: send Super Chess programs (`program #N ...`) and ask for the moves of private games (`moves #N`) here. Games themselves stay in their rooms.",
        ),
    });
    done
}

/// `rules`: a game's overview, or the topic a question is about, in the
/// game named (`game`, or in the words) or else the one being played here.
pub(crate) async fn rules(
    cx: &mut Ctx<'_>,
    game: Option<GameKind>,
    query: &str,
) -> Result<Done, Failure> {
    let q = query.trim();
    // The game named apart from the words, else the one being played here
    // (the author's, else the only one): its rules answer first.
    let context = match game {
        Some(kind) => Some(kind),
        None => match cx.pick(None, false).await {
            Ok(g) => Some(g.kind()),
            Err(Failure::Storage(e)) => return Err(Failure::Storage(e)),
            Err(_) => None,
        },
    };
    if q.is_empty() && context.is_none() {
        let names: Vec<&str> = GameKind::every_in(cx.community())
            .into_iter()
            .map(GameKind::name)
            .collect();
        return Ok(Done::text(format!(
            "Ask about a game or a rule: `rules void`, `rules minister`, `rules can the minister cross a void?`. Games: {}.",
            names.join(", ")
        )));
    }
    // A game read from a file named in the words (`rules capablanca
    // archbishop`) is answered from its file, as is one played here.
    let named = q.split_whitespace().enumerate().find_map(|(i, w)| {
        GameKind::from_name(w)
            .filter(|k| k.is_defined())
            .map(|k| (k, i))
    });
    if let Some((kind, i)) = named {
        let rest: Vec<&str> = q
            .split_whitespace()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .map(|(_, w)| w)
            .collect();
        return defined_rules(cx, kind, &rest.join(" ")).await;
    }
    if let Some(kind) = context.filter(|k| k.is_defined()) {
        return defined_rules(cx, kind, q).await;
    }
    let found = match (context, q.is_empty()) {
        // `rules` alone: the game named, or the one played here.
        (Some(kind), true) => help::Found::Game(kind),
        _ => help::answer(q, context),
    };
    let (text, topic) = match found {
        help::Found::Topic(t) => (format!("{}\n{}", t.title, t.text), Some(t)),
        help::Found::Passage(hit) => {
            let mut text = format!("{}\n{}", hit.best.title, hit.best.text);
            if let Some(also) = hit.also {
                let _ = write!(
                    text,
                    "\nAlso close: {}: {}",
                    also.title,
                    first_sentence(&also.text)
                );
            }
            (text, hit.best.diagram)
        }
        help::Found::Game(kind) => {
            let topics = help::topics_of(kind);
            let keys: Vec<&str> = topics.iter().map(|t| t.key).collect();
            let intro = topics.first().map(|t| t.text).unwrap_or("");
            return Ok(Done::text(format!(
                "{}: {intro}\nTopics: {}. Ask `rules {} <topic>`, or ask a question in your own words.",
                kind.title(),
                keys.join(", "),
                kind.name()
            )));
        }
        help::Found::Nothing(kind) => {
            let keys: Vec<&str> = help::topics_of(kind).iter().map(|t| t.key).collect();
            return refuse(format!(
                "I found nothing about that. {} topics: {}.",
                kind.title(),
                keys.join(", ")
            ));
        }
    };
    let picture = match topic.and_then(|t| t.diagram.as_ref().map(|d| (t, d))) {
        None => None,
        Some((topic, d)) => {
            let pos =
                Position::from_fen(topic.variant.rules(), d.fen).expect("diagram FENs are tested");
            Some(diagram(cx, pos, d.select.and_then(Square::parse), d.caption).await?)
        }
    };
    Ok(Done::text(text).with_picture(picture))
}

/// `rules` for a game read from a file: its overview, or the piece a
/// question names with a diagram of its moves.
async fn defined_rules(cx: &mut Ctx<'_>, kind: GameKind, q: &str) -> Result<Done, Failure> {
    let overview = help::defined::overview(kind).unwrap_or_default();
    if q.is_empty() {
        return Ok(Done::text(overview));
    }
    let Some((text, d)) = help::defined::piece(kind, q) else {
        return Ok(Done::text(format!(
            "Of {} I know what its file says; ask about one of its pieces.\n{overview}",
            kind.title()
        )));
    };
    let picture = match Position::from_fen(kind.rules(), &d.fen) {
        Ok(pos) => Some(diagram(cx, pos, Some(d.select), &d.caption).await?),
        Err(_) => None,
    };
    Ok(Done::text(text).with_picture(picture))
}

/// A help diagram: `pos` in the channel's theme, the moves of the piece on
/// `select` marked.
async fn diagram(
    cx: &mut Ctx<'_>,
    pos: Position,
    select: Option<Square>,
    caption: &str,
) -> Result<Picture, Failure> {
    Ok(Picture {
        at: None,
        replay: None,
        graph: None,
        crosstable: None,
        pos,
        opts: RenderOptions {
            theme: cx.theme().await?,
            select,
            ..Default::default()
        },
        alt: format!("Diagram: {caption}"),
        board: None,
    })
}

#[cfg(test)]
mod tests {
    use super::first_sentence;

    #[test]
    fn a_suggestion_quotes_a_whole_first_sentence() {
        assert_eq!(
            first_sentence("6. Draws come by agreement. Then more."),
            "Draws come by agreement."
        );
        assert_eq!(
            first_sentence("- Draws are automatic. More."),
            "Draws are automatic."
        );
        assert_eq!(first_sentence("One sentence"), "One sentence");
        assert_eq!(first_sentence(""), "");
    }
}
