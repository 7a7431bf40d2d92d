//! `puzzle`: a player solving the community's puzzles. Each step is one
//! compare-and-set on the attempt's row, so two answers never both count
//! and a kill leaves the puzzle where it was. A rated attempt is settled
//! once: when it ends, or at a hint (as failed).

use crate::command::{Level, PuzzleAction};
use crate::ctx::Ctx;
use crate::done::Done;
use crate::error::{refuse, Failure};
use crate::handlers::daily;
use crate::picture::Picture;
use crate::ratings::{self, idle_days, Rating};
use crate::reply::PuzzleButtons;
use crate::solving::{to_move, Judgement, Line};
use crate::store::{self, Attempt, AttemptEnd, PuzzleRecord, PuzzleResult};
use std::fmt::Write as _;
use voidmate_rules::{GameKind, MoveErrorKind};

/// How far from the rating aimed at a puzzle may be before the reply says
/// none was left nearer.
const WINDOW: f64 = 300.0;

/// `puzzle ...`.
pub(crate) async fn puzzle(cx: &mut Ctx<'_>, action: PuzzleAction) -> Result<Done, Failure> {
    match action {
        PuzzleAction::Start { game, level } => match open(cx).await? {
            Some(a) => show(cx, &a, "You have this puzzle open here: answer with a move, or `puzzle hint`, `puzzle solution`, `puzzle skip`.").await,
            None => start(cx, game, level, String::new()).await,
        },
        PuzzleAction::Next { game, level } => match open(cx).await? {
            Some(a) => {
                let game = game.or(Some(a.puzzle.kind));
                let words = give_up(cx, &a, AttemptEnd::Skipped).await?;
                let before = format!("{} skipped. {words} ", a.puzzle.label());
                start(cx, game, level, before).await
            }
            None => start(cx, game, level, String::new()).await,
        },
        PuzzleAction::Move(text) => match open(cx).await? {
            Some(a) => answer(cx, a, &text).await,
            None => match daily::answer(cx, &text).await? {
                Some(done) => Ok(done),
                None => refuse("You have no puzzle open here: `puzzle` gives you one."),
            },
        },
        PuzzleAction::Hint { puzzle } => {
            let a = open_or_refuse(cx, puzzle).await?;
            hint(cx, a).await
        }
        PuzzleAction::Solution { puzzle } => {
            let a = open_or_refuse(cx, puzzle).await?;
            let words = give_up(cx, &a, AttemptEnd::Failed).await?;
            let line = line_of(&a.puzzle)?;
            let theme = cx.theme().await?;
            let (moves, picture) = solution(&line, &a, theme);
            Ok(Done::board(
                format!(
                    "The solution of {}: {moves}. {words} `puzzle` for another.",
                    a.puzzle.label()
                ),
                picture,
            )
            .puzzle_buttons(ended(&a)))
        }
        PuzzleAction::Skip => {
            let a = open_or_refuse(cx, None).await?;
            let words = give_up(cx, &a, AttemptEnd::Skipped).await?;
            Ok(Done::text(format!(
                "{} skipped. {words} `puzzle` for another.",
                a.puzzle.label()
            ))
            .puzzle_buttons(ended(&a)))
        }
        PuzzleAction::Daily => daily::show(cx).await,
        PuzzleAction::Rating { who, game } => crate::handlers::puzzle_ratings::rating(cx, who, game).await,
        PuzzleAction::Leaderboard { game } => {
            crate::handlers::puzzle_ratings::leaderboard(cx, game).await
        }
    }
}

/// A bare move from a player with no game to move in here: their open
/// puzzle's, else the channel's daily puzzle's; `None` if neither takes it
/// (chatter, or no puzzle).
pub(crate) async fn bare_answer(cx: &mut Ctx<'_>, text: &str) -> Result<Option<Done>, Failure> {
    if let Some(a) = open(cx).await? {
        let line = line_of(&a.puzzle)?;
        if let Err(e) = line.positions[a.progress].parse_move(text) {
            if matches!(e.kind, MoveErrorKind::Malformed | MoveErrorKind::TooLong) {
                return Ok(None);
            }
        }
        return answer(cx, a, text).await.map(Some);
    }
    daily::answer(cx, text).await
}

/// The community a puzzle command belongs to.
pub(crate) fn community_of(cx: &Ctx<'_>) -> Result<String, Failure> {
    match cx.community() {
        Some(c) => Ok(c.to_string()),
        None => refuse(
            "Puzzles come from a server's or a room's own games: ask for one there, not in a direct conversation.",
        ),
    }
}

/// The author's open attempt here.
async fn open(cx: &mut Ctx<'_>) -> Result<Option<Attempt>, Failure> {
    let me = cx.author.id.clone();
    Ok(store::open_attempt(cx.tx, &me, cx.channel).await?)
}

/// The author's open attempt here; with `only`, it must be that puzzle's
/// (a button under an older puzzle does nothing).
async fn open_or_refuse(cx: &mut Ctx<'_>, only: Option<i64>) -> Result<Attempt, Failure> {
    match (open(cx).await?, only) {
        (Some(a), Some(id)) if a.puzzle.id != id => refuse(format!(
            "That button is for P{id}, which you are not solving here (yours is {}): `puzzle` shows it.",
            a.puzzle.label()
        )),
        (Some(a), _) => Ok(a),
        (None, Some(id)) => refuse(format!(
            "That button is for P{id}, which you are not solving here: `puzzle` gives you a puzzle."
        )),
        (None, None) => refuse("You have no puzzle open here: `puzzle` gives you one."),
    }
}

/// The buttons of an open attempt.
fn open_buttons(a: &Attempt) -> PuzzleButtons {
    PuzzleButtons::Open {
        id: a.puzzle.id,
        game: a.puzzle.kind,
    }
}

/// The buttons once an attempt is over.
fn ended(a: &Attempt) -> PuzzleButtons {
    PuzzleButtons::Ended {
        game: a.puzzle.kind,
    }
}

/// A stored puzzle's line, or a refusal naming it.
pub(crate) fn line_of(p: &PuzzleRecord) -> Result<Line, Failure> {
    Line::of(p).map_err(|why| {
        Failure::Refused(format!(
            "Puzzle {} is damaged ({why}); `puzzle skip` leaves it.",
            p.label()
        ))
    })
}

/// The author's puzzle rating in `kind` here, as of now.
async fn own_rating(
    cx: &mut Ctx<'_>,
    community: &str,
    kind: GameKind,
) -> Result<(Rating, f64), Failure> {
    let me = cx.author.id.clone();
    let row = store::puzzle_ratings_of(cx.tx, community, &me)
        .await?
        .into_iter()
        .find(|r| r.kind == kind);
    Ok(match row {
        Some(r) => (r.rating, idle_days(r.last_ms, cx.now_ms)),
        None => (Rating::START, 0.0),
    })
}

/// A new puzzle for the author, `before` said first.
async fn start(
    cx: &mut Ctx<'_>,
    game: Option<GameKind>,
    level: Option<Level>,
    before: String,
) -> Result<Done, Failure> {
    let community = community_of(cx)?;
    let games = store::puzzle_games(cx.tx, &community).await?;
    let kind = match game {
        Some(k) if games.iter().any(|(g, _)| *g == k) => k,
        Some(k) => {
            return nothing(
                before,
                format!(
                    "No puzzles for {} here yet: they come from this server's finished games, searched by the engine after each one.",
                    k.title()
                ),
            )
        }
        None => {
            let played = store::most_played(cx.tx, cx.channel).await?;
            match played
                .into_iter()
                .find(|k| games.iter().any(|(g, _)| g == k))
                .or(games.first().map(|(g, _)| *g))
            {
                Some(k) => k,
                None => {
                    return nothing(
                        before,
                        "No puzzles here yet: they come from this server's finished games, searched by the engine after each one.".into(),
                    )
                }
            }
        }
    };
    let (own, idle) = own_rating(cx, &community, kind).await?;
    let level = level.unwrap_or(Level::Normal);
    let target = level.target(own.after_idle(idle).rating);
    let me = cx.author.id.clone();
    let Some(p) = store::nearest_puzzle(cx.tx, &community, kind, &me, target).await? else {
        return nothing(
            before,
            format!(
                "You have tried every {} puzzle here: new ones come with new games.",
                kind.title()
            ),
        );
    };
    let rated = !store::attempted(cx.tx, p.id, &me).await?;
    let started =
        store::start_attempt(cx.tx, p.id, &me, cx.channel, &community, rated, cx.now_ms).await?;
    let Some(id) = started else {
        return refuse(
            "You have a puzzle open here already (another command came first): `puzzle` shows it.",
        );
    };
    let mut intro = before;
    if (p.rating.rating - target).abs() > WINDOW {
        let _ = write!(
            intro,
            "No {} puzzle you have not seen is left within {} of {} ({}): here is the nearest. ",
            kind.title(),
            WINDOW as i64,
            target.round() as i64,
            level.name()
        );
    }
    let a = Attempt {
        id,
        puzzle: p,
        progress: 1,
        rated,
        settled: false,
        hinted: false,
    };
    show(cx, &a, &intro).await
}

/// No puzzle to give: refused, unless a puzzle was just given up (`before`
/// says so), which stands.
fn nothing(before: String, why: String) -> Result<Done, Failure> {
    if before.is_empty() {
        refuse(why)
    } else {
        Ok(Done::text(format!("{before}{why}")))
    }
}

/// The attempt's board as it stands, `intro` said first.
async fn show(cx: &mut Ctx<'_>, a: &Attempt, intro: &str) -> Result<Done, Failure> {
    let line = line_of(&a.puzzle)?;
    let theme = cx.theme().await?;
    let solver = line.solver();
    let status = to_move(solver);
    let picture = line.picture(&a.puzzle, a.progress, theme, status.clone(), None);
    let left = (line.moves.len() - a.progress).div_ceil(2);
    let what = if line.positions[line.moves.len()].outcome().is_some() {
        "mate"
    } else {
        "win"
    };
    let after = &line.sans[a.progress - 1];
    let rated = if a.rated && !a.settled {
        format!("rated {}", a.puzzle.rating)
    } else {
        "not rated for you".to_string()
    };
    Ok(Done::board(
        format!(
            "{intro}Puzzle {} ({}, {rated}, from game #{}): after {after}, {status}: find the move that {what}s{}. Answer with your move, like `{}`.",
            a.puzzle.label(),
            a.puzzle.kind.title(),
            a.puzzle.game_id,
            if left > 1 {
                format!(" ({left} moves of yours)")
            } else {
                String::new()
            },
            example(&line, a.progress),
        ),
        picture,
    )
    .puzzle_buttons(open_buttons(a)))
}

/// A legal move's SAN in the position, not the solution's (an example of
/// how to write a move that gives nothing away).
fn example(line: &Line, progress: usize) -> String {
    let pos = &line.positions[progress];
    pos.legal_moves()
        .iter()
        .find(|m| **m != line.moves[progress])
        .map(|m| pos.san(m))
        .unwrap_or_else(|| line.sans[progress].clone())
}

/// The author's move `text` in their open attempt `a`.
async fn answer(cx: &mut Ctx<'_>, a: Attempt, text: &str) -> Result<Done, Failure> {
    let line = line_of(&a.puzzle)?;
    let judged = line.judge(a.progress, text).map_err(|e| {
        Failure::Refused(format!(
            "{e}. Puzzle {} waits for your move.",
            a.puzzle.label()
        ))
    })?;
    let theme = cx.theme().await?;
    let changed = || {
        Failure::Refused(format!(
            "Puzzle {} changed while I read your move (another answer came first): `puzzle` shows it.",
            a.puzzle.label()
        ))
    };
    match judged {
        Judgement::Right { san, solved: false } => {
            let next = a.progress + 2;
            if !store::advance_attempt(cx.tx, a.id, a.progress, next).await? {
                return Err(changed());
            }
            let reply = &line.sans[a.progress + 1];
            let status = to_move(line.solver());
            let picture = line.picture(&a.puzzle, next, theme, status.clone(), None);
            Ok(Done::board(
                format!("{san}: right! The answer is {reply}. {status}: keep going."),
                picture,
            )
            .puzzle_buttons(open_buttons(&a)))
        }
        Judgement::Right { san, solved: true } => {
            if !store::end_attempt(cx.tx, a.id, a.progress, AttemptEnd::Solved, cx.now_ms).await? {
                return Err(changed());
            }
            let words = settle(cx, &a, true, false).await?;
            let end = a.progress + 1;
            let picture = if san == line.sans[a.progress] {
                line.picture(&a.puzzle, end, theme, "solved".into(), None)
            } else {
                // Another mate: the board as the solver left it.
                line.picture(&a.puzzle, a.progress, theme, "solved".into(), None)
            };
            Ok(Done::board(
                format!(
                    "{san}: solved! {}{words} `puzzle` for another.",
                    if san == line.sans[a.progress] {
                        String::new()
                    } else {
                        format!(
                            "(The line was {}; any mate will do.) ",
                            line.sans[a.progress]
                        )
                    }
                ),
                picture,
            )
            .puzzle_buttons(ended(&a)))
        }
        Judgement::Wrong { san } => {
            if !store::end_attempt(cx.tx, a.id, a.progress, AttemptEnd::Failed, cx.now_ms).await? {
                return Err(changed());
            }
            let words = settle(cx, &a, false, false).await?;
            let (moves, picture) = solution(&line, &a, theme);
            Ok(Done::board(
                format!(
                    "{san} is not it: puzzle failed. The solution: {moves}. {words} `puzzle` for another."
                ),
                picture,
            )
            .puzzle_buttons(ended(&a)))
        }
    }
}

/// The rest of `a`'s solution in SAN, and the board with its next move as
/// an arrow.
fn solution(line: &Line, a: &Attempt, theme: voidmate_render::Theme) -> (String, Picture) {
    let picture = line.picture(
        &a.puzzle,
        a.progress,
        theme,
        "the solution".into(),
        Some(a.progress),
    );
    (line.sans[a.progress..].join(" "), picture)
}

/// `puzzle hint`: the piece to move. A rated attempt is settled as failed.
async fn hint(cx: &mut Ctx<'_>, a: Attempt) -> Result<Done, Failure> {
    let line = line_of(&a.puzzle)?;
    let mv = &line.moves[a.progress];
    let pos = &line.positions[a.progress];
    let piece = pos
        .piece_at(mv.from)
        .map(|p| p.role.name().to_ascii_lowercase())
        .unwrap_or_else(|| "piece".into());
    let words = if a.rated && !a.settled {
        let w = settle(cx, &a, false, true).await?;
        format!(" The puzzle now counts as failed for your rating: {w}")
    } else {
        store::note_hint(cx.tx, a.id).await?;
        String::new()
    };
    Ok(Done::text(format!(
        "Hint for {}: move your {piece} on {}.{words}",
        a.puzzle.label(),
        mv.from
    ))
    .puzzle_buttons(open_buttons(&a)))
}

/// Ends `a` as `end` (skipped or given up), settled as failed if rated.
async fn give_up(cx: &mut Ctx<'_>, a: &Attempt, end: AttemptEnd) -> Result<String, Failure> {
    if !store::end_attempt(cx.tx, a.id, a.progress, end, cx.now_ms).await? {
        return refuse(format!(
            "Puzzle {} changed while I read that (another answer came first): `puzzle` shows it.",
            a.puzzle.label()
        ));
    }
    settle(cx, a, false, false).await
}

/// Writes a rated attempt's result once; the words that say it.
async fn settle(
    cx: &mut Ctx<'_>,
    a: &Attempt,
    solved: bool,
    hint: bool,
) -> Result<String, Failure> {
    if !a.rated || a.settled {
        return Ok(if a.rated {
            "Your rating was settled at the hint.".into()
        } else {
            "Not rated: you had seen it before.".into()
        });
    }
    let Some(community) = cx.community().map(str::to_string) else {
        return Ok(String::new());
    };
    if !store::settle_attempt(cx.tx, a.id, hint).await? {
        return Ok(String::new());
    }
    let kind = a.puzzle.kind;
    let (own, idle) = own_rating(cx, &community, kind).await?;
    let (solver, puzzle) = ratings::puzzle_attempt(own, idle, a.puzzle.rating, solved);
    let me = cx.author.id.clone();
    store::save_puzzle_result(
        cx.tx,
        &PuzzleResult {
            community: &community,
            kind,
            player: &me,
            solver,
            puzzle: a.puzzle.id,
            puzzle_rating: puzzle,
            solved,
            now_ms: cx.now_ms,
        },
    )
    .await?;
    Ok(format!(
        "{}.",
        ratings::change_words(
            &format!("Your {} puzzle rating", kind.title()),
            own.after_idle(idle),
            solver
        )
    ))
}
