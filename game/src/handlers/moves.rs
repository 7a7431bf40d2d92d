//! The legal moves: listed on request (`moves`), and suggested as a player
//! types (autocomplete).

use crate::command::{GameRef, ProgramMode};
use crate::ctx::Ctx;
use crate::done::Done;
use crate::error::{refuse, Failure};
use voidmate_rules::variant::Voids;
use voidmate_rules::{Position, Square};

pub(crate) async fn moves(
    cx: &mut Ctx<'_>,
    square: Option<String>,
    game: GameRef,
) -> Result<Done, Failure> {
    let me = cx.author;
    let private = cx.private();
    let g = match (private, game) {
        (true, Some(id)) => cx.private_game(id).await?,
        _ => cx.pick_any(game).await?,
    };
    let id = g.id();
    if g.rec.mode == ProgramMode::Private && g.rec.is_active() {
        // The legal moves show what the pieces can do: only the player to
        // move may see them, and only privately.
        if !private {
            return refuse(format!(
                "The moves of game #{id} would show a private program: ask me in a direct message, `moves #{id}` (say `dm` and I will open one)."
            ));
        }
        if g.player_color(&me.id) != Some(g.pos.turn()) || !g.awaiting_programs().is_empty() {
            return refuse(format!(
                "I list the moves of game #{id} only to the player to move, on their turn."
            ));
        }
    }
    let size = g.pos.rules().size();
    let select = match square {
        None => None,
        Some(s) => Some(
            Square::parse(&s)
                .filter(|&q| size.contains(q))
                .ok_or_else(|| {
                    Failure::Refused(format!(
                        "`{s}` is not a square of this board ({}).",
                        size.describe()
                    ))
                })?,
        ),
    };
    let legal = g.pos.legal_moves();
    let mut chosen: Vec<String> = legal
        .iter()
        .filter(|m| select.is_none_or(|s| m.from == s))
        .map(|m| g.pos.san(m))
        .collect();
    // A capture that moves the void comes once per square: list it once.
    // (Black Holes' moves through holes name a second square too, but each
    // is a move of its own.)
    let relocating =
        g.pos.rules().variant().voids() == Voids::Placed && legal.iter().any(|m| m.via.is_some());
    if relocating {
        chosen = chosen
            .iter()
            .map(|s| match s.split_once('@') {
                Some((main, _)) => format!("{main}@…"),
                None => s.clone(),
            })
            .collect();
        chosen.dedup();
    }
    let text = match (select, chosen.is_empty()) {
        (_, _) if !g.rec.is_active() => format!("Game #{id} is over: no moves."),
        (Some(s), true) => match g.pos.piece_at(s) {
            Some(p) if p.color == g.pos.turn() => {
                format!("The {} on {s} has no legal move.", p.role)
            }
            // A piece of the side that waits: its moves on its next turn,
            // as the board stands now.
            Some(p) => match next_turn_moves(&g.pos, s) {
                Some(next) if !next.is_empty() => format!(
                    "{} to move; on {}'s next turn, as the board stands now, the {} on {s} could play: {}",
                    g.name(g.pos.turn()),
                    g.name(p.color),
                    p.role,
                    next.join(" ")
                ),
                _ => format!(
                    "The {} on {s} would have no move on {}'s next turn, as the board stands now.",
                    p.role,
                    g.name(p.color)
                ),
            },
            None => format!("There is no piece on {s}."),
        },
        (None, true) => "There are no legal moves.".to_string(),
        (_, false) => format!("{} to move: {}", g.name(g.pos.turn()), chosen.join(" ")),
    };
    let text = if relocating && !chosen.is_empty() {
        format!(
            "{text}\nA capture moves the void too: add an empty square, like {}.",
            g.pos.san(&legal[0])
        )
    } else {
        text
    };
    let picture = cx.picture(&g, &me.id, select).await?;
    Ok(Done::board(text, picture))
}

/// The moves the piece on `square` (of the side not to move) would have if
/// its side were to move now: the position with the turn passed, and no
/// en-passant right. `None` where that position is not one (the side to
/// move is in check, so passing would leave a king attacked).
fn next_turn_moves(pos: &Position, square: Square) -> Option<Vec<String>> {
    let passed = pos.passed_turn()?;
    Some(
        passed
            .legal_moves()
            .iter()
            .filter(|m| m.from == square)
            .map(|m| passed.san(m))
            .collect(),
    )
}
