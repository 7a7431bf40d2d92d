//! Playing moves: named or bare, clocks and the news a move brings.

use crate::command::{GameRef, TimeControl};
use crate::ctx::Ctx;
use crate::done::Done;
use crate::error::{refuse, Failure};
use crate::game::Game;
use crate::handlers::challenge::pending;
use crate::handlers::ending::{self, conclude};
use crate::load::seats;
use crate::record::{Ending, Status};
use crate::store::{self, MoveRow};
use crate::words::{and_list, human_duration};
use std::fmt::Write as _;
use voidmate_rules::{GameKind, MoveErrorKind, Position};

/// `move TEXT`: the author's move in the game named or their only one here.
pub(crate) async fn named_move(
    cx: &mut Ctx<'_>,
    text: &str,
    game: GameRef,
) -> Result<Done, Failure> {
    let g = cx.pick(game, true).await?;
    play(cx, g, text).await
}

/// Plays `text` as the author's move in `g`. The time the platform received
/// the move, if it says ([`crate::Incoming::sent_ms`]), decides a
/// correspondence deadline.
pub(crate) async fn play(cx: &mut Ctx<'_>, mut g: Game, text: &str) -> Result<Done, Failure> {
    let me = cx.author;
    let id = g.id();
    let color = g.side_of(&me.id)?;
    let waiting = g.awaiting_programs();
    if !waiting.is_empty() {
        return refuse(format!(
            "Game #{id} has not begun: I am waiting for the program of {}, sent to me privately (`program #{id} ...` in a direct message).",
            and_list(&waiting),
        ));
    }
    if g.pos.turn() != color {
        return refuse(format!(
            "It is not your turn in game #{id}: {} is to move.",
            g.name(g.pos.turn())
        ));
    }
    // A correspondence move counts if it was sent before the deadline,
    // even when the bot reads it later (it was down); one sent after the
    // deadline loses on time, whatever the periodic check did yet.
    if let (Some(deadline), TimeControl::Days(_)) = (g.rec.deadline_at, &g.rec.clock) {
        let at = cx.sent_ms().unwrap_or(cx.now_ms).div_euclid(1000);
        if at >= deadline {
            let (text, notify) = ending::lost_on_time(cx, &g).await?;
            return Ok(Done::text(text).notifying(notify));
        }
    }
    // A move said in words (`knight to f3`, `e7 e5`) is read against the
    // position: the one legal move the words describe.
    let said = match crate::spoken::notation(&g.pos, text) {
        Ok(notation) => notation,
        Err(_) if g.rec.mode == crate::command::ProgramMode::Private => {
            return refuse(format!(
                "That is not a legal move in game #{id}. In a game of private programs I do not say why in public: `moves #{id}` in a direct message to me lists yours."
            ));
        }
        Err(why) => return refuse(why),
    };
    let text: &str = &said;
    let mv = g.pos.parse_move(text).map_err(|e| {
        if g.rec.mode == crate::command::ProgramMode::Private {
            // Why a move is refused could tell what the pieces can do.
            Failure::Refused(format!(
                "That is not a legal move in game #{id}. In a game of private programs I do not say why in public: `moves #{id}` in a direct message to me lists yours."
            ))
        } else {
            Failure::Refused(format!("{e}."))
        }
    })?;
    // A clock game: the mover's time must not have run out already.
    let increment = g.increment_ms();
    let left = increment.and(g.clock_left(color));
    if left.is_some_and(|l| l <= 0) {
        return ending::flag_fell(cx, g).await;
    }
    let san = g.pos.san(&mv);
    let coordinate = g.pos.coordinate(&mv);
    // Where a move may take one's own piece (Black Holes), say so.
    let own_taken = g
        .pos
        .piece_at(mv.to)
        .filter(|p| p.color == color && mv.from != mv.to)
        .map(|p| p.role);
    // What the floor did is told with the move (games whose floor breaks).
    let before = g.kind().has_unstable_tiles().then(|| g.pos.clone());
    let through = g.pos.holes_passed(&mv);
    g.pos.play_unchecked(&mv);
    let ply = g.ply() + 1;
    let fen = g.pos.fen();
    let over = g.pos.outcome();
    let next = g.pos.turn();
    // Everything the move changes is stored with it, in one statement:
    // none of it once the game is over (its end clears what is left).
    let deadline = match over {
        Some(_) => None,
        None => cx.core.deadline(&g.rec.clock, cx.now_ms),
    };
    // A clock game: the mover's clock stops with the increment added, the
    // other's starts.
    let clocks = match (increment, left) {
        (Some(inc), Some(left)) => {
            let mut seats = g.rec.seats.clone();
            // A first move is not timed, so it earns no increment.
            let inc = if ply <= 2 { 0 } else { inc };
            seats[color].clock_ms = Some(left + inc);
            Some(store::Clocks {
                white_ms: seats.white.clock_ms.unwrap_or(0),
                black_ms: seats.black.clock_ms.unwrap_or(0),
                mover_ms: left + inc,
                // A side's clock runs from its first move on (as on
                // lichess): none before both sides have moved, so a player
                // accepted while away loses no time (the first move's
                // window, `abort_at_ms`, covers the wait).
                started_ms: (over.is_none() && ply >= 2).then_some(g.now_ms),
            })
        }
        _ => None,
    };
    // A clock game before both sides have moved: the second side's first
    // move is due in its window too; after it, nothing is.
    let abort_at_ms = (over.is_none() && g.rec.abort_at_ms.is_some() && ply < 2)
        .then(|| cx.now_ms + abort_window_ms(&g.rec.clock));
    let bot_next = over.is_none() && cx.core.is_bot(&g.rec.player(next).id);
    // Queued, and taken at once if this process searches.
    let claim = cx.core.searches_here().then(|| cx.core.engine_claim());
    let advance = store::Advance {
        ply,
        san: &san,
        coordinate: &coordinate,
        by: &me.id,
        fen: &fen,
        deadline,
        clocks,
        abort_at_ms,
        engine: bot_next.then_some((g.now_ms, claim)),
    };
    if !store::advance(cx.tx, &g.rec, &advance).await? {
        return refuse(format!(
            "Game #{id} changed while I read your move (another command came first). Look at the `board` and try again."
        ));
    }
    g.moves.push(MoveRow {
        ply,
        san: san.clone(),
        coordinate,
        clock_ms: clocks.map(|c| c.mover_ms),
    });
    g.last = Some((mv.from, mv.to));
    g.through = through;
    let mut text = match own_taken {
        Some(role) => format!("#{id}: {me} played {san}, taking their own {role}."),
        None => format!("#{id}: {me} played {san}."),
    };
    if let Some(before) = &before {
        text.push_str(&g.floor_news(before, &mv));
    }
    let mut notify = Vec::new();
    let mut engine = None;
    // The board drawn below shows the game as it now stands.
    if let Some(c) = clocks {
        g.rec.seats.white.clock_ms = Some(c.white_ms);
        g.rec.seats.black.clock_ms = Some(c.black_ms);
        g.rec.turn_started_ms = c.started_ms;
        g.rec.low_time_warned = false;
    }
    g.rec.abort_at_ms = abort_at_ms;
    if let Some(outcome) = over {
        let ending = Ending::of_outcome(&outcome);
        let rated = conclude(cx, &g, ending).await?;
        g.rec.status = Status::Finished(ending);
        let _ = write!(text, " {outcome}. Result: {}.{rated}", ending.result);
    } else {
        g.rec.deadline_at = deadline.map(|d| d.at);
        g.rec.reminded = false;
        if bot_next {
            engine = Some(id);
        } else {
            let _ = write!(text, " {}, your move.", g.name(next));
            notify.push(g.player(next));
        }
        if let Some(c) = g.clocks_text() {
            let _ = write!(text, " {}{}.", c[..1].to_uppercase(), &c[1..]);
        }
        if let Some(d) = deadline {
            let left = d.at - cx.now_ms.div_euclid(1000);
            let _ = write!(
                text,
                " Time for this move: {}.",
                human_duration(left, cx.core.settings.day_seconds)
            );
        }
    }
    let picture = cx.picture(&g, &g.player(next).id, None).await?;
    let done = Done::board(text, picture).notifying(notify);
    Ok(match engine {
        Some(id) => done.engine_moves(id),
        None => done,
    })
}

/// How play begins now under `time`: the first move's deadline
/// (correspondence), or the clocks, White's running, and the window for the
/// first move (a clock game).
pub(crate) fn opening(cx: &Ctx<'_>, time: &TimeControl) -> store::Opening {
    let clocks = match time {
        TimeControl::Clock { minutes, .. } => Some(store::StartClocks {
            base_ms: *minutes as i64 * 60_000,
            first_move_by_ms: cx.now_ms + abort_window_ms(time),
        }),
        TimeControl::None | TimeControl::Days(_) => None,
    };
    store::Opening {
        deadline: cx.core.deadline(time, cx.now_ms),
        clocks,
    }
}

/// How long a clock game's first mover (and then the other side, for its
/// first move) has before the bot aborts the game, as on lichess: a tenth
/// of the base time, at least 30 seconds (0 without a clock).
pub(crate) fn abort_window_ms(time: &TimeControl) -> i64 {
    match time {
        TimeControl::Clock { minutes, .. } => (*minutes as i64 * 6_000).max(30_000),
        TimeControl::None | TimeControl::Days(_) => 0,
    }
}

/// A line that may be a bare move (`e4`, `e4 #2`), said to the bot or not
/// (see [`crate::Incoming::addressed`]).
pub(crate) async fn bare(cx: &mut Ctx<'_>, text: &str, game: GameRef) -> Result<Done, Failure> {
    // A question said to the bot (`how does the minister move?`) is a
    // rules question, as if it began with `rules`.
    // A greeting, a thank-you, "what can you do?": where to start.
    if cx.addressed() && crate::help::first_contact(text) {
        return Ok(Done::text(crate::help::INTRO));
    }
    if cx.addressed() && crate::help::is_question(text) {
        return crate::handlers::info::rules(cx, None, text).await;
    }
    let me = cx.author;
    let unknown =
        || Failure::NotACommand(text.split_whitespace().next().unwrap_or(text).to_string());
    // Words with no letter or digit (`e4 ♟️ 🙂`) only decorate the move.
    let words: Vec<&str> = text
        .split_whitespace()
        .filter(|w| w.chars().any(|c| c.is_ascii_alphanumeric()))
        .collect();
    // Words that say a move (`pawn to d6`, `e7 e5`) are read by the game
    // they are for; only when said to the bot, as chatter may look alike.
    let spoken = cx.addressed() && crate::spoken::form(text).is_some();
    let mut two_moves = None;
    let text = match words.as_slice() {
        [one] => *one,
        _ if spoken => text,
        [first, second, ..]
            if cx.addressed() && looks_like_a_move(first) && looks_like_a_move(second) =>
        {
            two_moves = Some((*first, *second));
            text
        }
        _ => text,
    };
    let bare_on = store::settings(cx.tx, cx.channel)
        .await?
        .map(|s| s.bare_moves)
        .unwrap_or(cx.core.settings.bare_moves);
    if !bare_on {
        if cx.addressed() && (spoken || looks_like_a_move(text)) {
            return refuse(format!(
                "Moves alone are not read here: say `move {text}` (or turn them on with `settings bare-moves on`)."
            ));
        }
        return Err(unknown());
    }
    if let Some(id) = game {
        // `e4 #2` or `#2 e4`: that game, as `move e4 #2` would.
        let g = cx.pick(Some(id), true).await?;
        return play_if_move(cx, g, text).await;
    }
    // The author's games here: known from the event's intake, or looked up.
    let known = cx.own_active.take();
    let mine = match cx.known_games(known).await? {
        Some(games) => games,
        None => {
            let own: Vec<_> = store::active_games(cx.tx, cx.channel)
                .await?
                .into_iter()
                .filter(|g| seats(g).iter().any(|p| p.id == me.id))
                .collect();
            let mut games = Vec::with_capacity(own.len());
            for g in own {
                games.push(cx.load(g?).await?);
            }
            games
        }
    };
    let mut to_move = Vec::new();
    let mut waiting = Vec::new();
    for g in mine {
        if g.player_color(&me.id) == Some(g.pos.turn()) {
            to_move.push(g);
        } else {
            waiting.push(g);
        }
    }
    if let Some((first, second)) = two_moves {
        if let ([], [g, ..]) = (to_move.as_slice(), waiting.as_slice()) {
            return refuse(format!(
                "It is not your turn in game #{}: {} is to move.",
                g.id(),
                g.name(g.pos.turn())
            ));
        }
        return refuse(format!(
            "One move at a time: play {first} now, and {second} on your next turn."
        ));
    }
    let looks_like_move = |g: &Game| {
        spoken
            || !matches!(
                g.pos.parse_move(text).map_err(|e| e.kind),
                Err(MoveErrorKind::Malformed | MoveErrorKind::TooLong)
            )
    };
    if to_move.is_empty() {
        // No game to move in here: a move is for the author's puzzle, or
        // the channel's daily puzzle.
        if let Some(done) = crate::handlers::puzzles::bare_answer(cx, text).await? {
            return Ok(done);
        }
    }
    match to_move.len() {
        0 => match waiting.as_slice() {
            [g] if looks_like_move(g) => refuse(format!(
                "It is not your turn in game #{}: {} is to move.",
                g.id(),
                g.name(g.pos.turn())
            )),
            // Someone who speaks to the bot with a move and has no game
            // here is told what to do next (chatter stays unanswered).
            [] if cx.addressed() && (spoken || looks_like_a_move(text)) => {
                let waiting = pending(cx).await?;
                if let Some(c) = waiting.iter().find(|c| &c.challenged == me) {
                    refuse(format!(
                        "{} challenged you to {}: say `accept` to begin, then play {text}.",
                        c.challenger,
                        c.kind.title()
                    ))
                } else if let Some(c) = waiting.iter().find(|c| &c.challenger == me) {
                    refuse(format!(
                        "Your challenge to {} waits for their `accept`; play {text} once the game begins.",
                        c.challenged
                    ))
                } else {
                    refuse(format!(
                        "You have no game here to play {text} in. Start one with `challenge @someone` (Void Chess on a 9x9 board unless you name another game; `variants` lists them)."
                    ))
                }
            }
            _ => Err(unknown()),
        },
        1 => {
            let g = to_move.pop().expect("one");
            play_if_move(cx, g, text).await
        }
        _ => {
            // Legal in one of them only: name it, rather than ask which;
            // legal in none: say why in each.
            let tried: Vec<(&Game, Result<(), String>)> =
                to_move.iter().map(|g| (g, legal_in(g, text))).collect();
            let legal: Vec<&Game> = tried
                .iter()
                .filter(|(_, r)| r.is_ok())
                .map(|(g, _)| *g)
                .collect();
            if let [g] = legal.as_slice() {
                return refuse(format!(
                    "{text} is legal only in #{id}: `move {text} #{id}`.",
                    id = g.id()
                ));
            }
            if legal.is_empty() {
                let why: Vec<String> = tried
                    .iter()
                    .filter_map(|(g, r)| r.as_ref().err().map(|e| format!("#{}: {e}", g.id())))
                    .collect();
                return refuse(format!(
                    "{text} is legal in none of your games here. {}",
                    why.join(" ")
                ));
            }
            let ids: Vec<String> = to_move.iter().map(|g| format!("#{}", g.id())).collect();
            refuse(format!(
                "It is your move in several games here ({}); say which, like `move {text} {}`.",
                ids.join(", "),
                ids[0]
            ))
        }
    }
}

/// A bare move in `g`: text that is no move at all is no command either;
/// anything else is played, or refused with its reason.
async fn play_if_move(cx: &mut Ctx<'_>, g: Game, text: &str) -> Result<Done, Failure> {
    if cx.addressed() && crate::spoken::form(text).is_some() {
        return play(cx, g, text).await;
    }
    match g.pos.parse_move(text) {
        Err(e) if matches!(e.kind, MoveErrorKind::Malformed | MoveErrorKind::TooLong) => Err(
            Failure::NotACommand(text.split_whitespace().next().unwrap_or(text).to_string()),
        ),
        _ => play(cx, g, text).await,
    }
}

/// Whether `text` (in notation or in words) is a legal move in `g`, or
/// why not. A game of private programs says nothing of why.
fn legal_in(g: &Game, text: &str) -> Result<(), String> {
    let found = crate::spoken::notation(&g.pos, text).and_then(|t| {
        g.pos
            .parse_move(&t)
            .map(|_| ())
            .map_err(|e| format!("{e}."))
    });
    match found {
        Err(_) if g.rec.mode == crate::command::ProgramMode::Private => {
            Err("not legal (a game of private programs says no more).".to_string())
        }
        found => found,
    }
}

/// Whether `text` reads as a move in some game (a hint for someone with no
/// game to play it in): the reader finds a move in it at the start of one
/// of them. Suicide Void Chess opens with the void's placement, where any
/// text is refused as the wrong kind of move, so it tells nothing here.
fn looks_like_a_move(text: &str) -> bool {
    use voidmate_rules::variant::Voids;
    GameKind::ALL.iter().any(|kind| {
        kind.rules().variant().voids() != Voids::Placed
            && !matches!(
                Position::new(kind.rules())
                    .parse_move(text)
                    .map_err(|e| e.kind),
                Err(MoveErrorKind::Malformed | MoveErrorKind::TooLong)
            )
    })
}
