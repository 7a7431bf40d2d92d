//! Board pictures: what a game's board shows (orientation, last move,
//! caption, colours, the card beside it), or a replay, or a review's graph.
//! A description only: `draw` draws it, after the transaction, on a
//! blocking thread.

use crate::command::Flip;
use crate::contract::PlayerId;
use crate::game::Game;
use crate::reply::BoardCard;
use crate::review::{Mark, Review};
use voidmate_render::{Caption, GraphMark, RenderOptions, ReplayFrame, Severity, Theme};
use voidmate_rules::{Color, Position, Square};

/// A board to draw after the transaction.
pub(crate) struct Picture {
    pub pos: Position,
    pub opts: RenderOptions,
    pub alt: String,
    pub board: Option<BoardCard>,
    /// The game and ply it shows, when it is a game's board (a retried
    /// answer draws it again from the stored game).
    pub at: Option<(i64, i64)>,
    /// An animated replay of these positions instead of the one board.
    pub replay: Option<Vec<ReplayFrame>>,
    /// A review's evaluation graph instead of the board.
    pub graph: Option<Graph>,
    /// A round robin's crosstable instead of the board.
    pub crosstable: Option<voidmate_render::Crosstable>,
}

impl Picture {
    /// A round robin's crosstable, in `theme`.
    pub fn crosstable(table: voidmate_render::Crosstable, theme: Theme) -> Picture {
        let alt = format!("Crosstable: {}", table.title);
        Picture {
            pos: Position::new(voidmate_rules::variants::standard()),
            opts: RenderOptions {
                theme,
                ..RenderOptions::default()
            },
            alt,
            board: None,
            at: None,
            replay: None,
            graph: None,
            crosstable: Some(table),
        }
    }
}

/// A review's evaluation graph: White's winning chances (the start, then
/// after each move), the marked moves with their words, the move numbers.
pub(crate) type Graph = voidmate_render::EvalGraph;

/// The evaluation graph of `g`'s review, in `theme`: drawn as boards are
/// (off the async workers, by `draw`), whether `analysis` shows it or its
/// notice is posted.
pub(crate) fn graph_picture(g: &Game, review: &Review, theme: Theme) -> Picture {
    let mut picture = game_picture(g, theme, &PlayerId::from_stored(""), None, Flip::Auto);
    picture.at = None;
    picture.board = None;
    picture.graph = Some(eval_graph(g, review));
    picture.alt = format!(
        "Evaluation graph of game #{}: White's winning chances above the centre line, Black's below, move numbers along the bottom, marked moves as dots with their moves written beside them",
        g.id()
    );
    picture
}

/// What `g`'s graph shows: its review's chances, each marked move with its
/// words as a game score writes them (`12. Nxe5??`), and move numbers along
/// the bottom, at most a dozen (every move, or every 2, 5, 10... moves).
fn eval_graph(g: &Game, r: &Review) -> Graph {
    let steps = g.steps().unwrap_or_default();
    // The position before the move that led to index `i`.
    let before = |i: usize| i.checked_sub(1).and_then(|b| steps.get(b)).map(|s| &s.pos);
    let marks = r
        .moves
        .iter()
        .filter_map(|m| {
            let (severity, sign) = match m.mark? {
                Mark::Inaccuracy => (Severity::Inaccuracy, "?!"),
                Mark::Mistake => (Severity::Mistake, "?"),
                Mark::Blunder => (Severity::Blunder, "??"),
            };
            let san = format!("{}{sign}", m.san.trim_end_matches(['?', '!']));
            let label = match before(m.ply) {
                Some(pos) => numbered(pos, &san),
                None => san,
            };
            Some(GraphMark {
                index: m.ply,
                severity,
                label,
            })
        })
        .collect();
    // Where each White move starts a new move number.
    let starts: Vec<(usize, u16)> = (1..r.white_chances.len())
        .filter_map(|i| {
            let pos = before(i)?;
            (pos.turn() == Color::White).then(|| (i, pos.board().fullmove_number()))
        })
        .collect();
    let every = [1u16, 2, 5, 10, 20, 50, 100, 200, 500]
        .into_iter()
        .find(|k| starts.len() / usize::from(*k) <= 12)
        .unwrap_or(1000);
    let ticks = starts
        .into_iter()
        .filter(|(_, n)| n % every == 0)
        .map(|(i, n)| (i, n.to_string()))
        .collect();
    Graph {
        chances: r.white_chances.clone(),
        marks,
        ticks,
    }
}

/// The picture of `g` as `viewer` sees it: from the side they chose
/// (`settings flip`), else from their side if they play, else from the side
/// to move.
pub(crate) fn game_picture(
    g: &Game,
    theme: Theme,
    viewer: &PlayerId,
    select: Option<Square>,
    flip: Flip,
) -> Picture {
    let orientation = match flip {
        Flip::White => Color::White,
        Flip::Black => Color::Black,
        Flip::Auto => g.player_color(viewer).unwrap_or_else(|| g.pos.turn()),
    };
    let status = g.status();
    let finished = !g.rec.is_active();
    let alt = match (g.moves.last(), finished) {
        (_, true) => format!("Game #{}: final position, {status}", g.id()),
        (Some(m), false) => format!("Game #{} after {}: {status}", g.id(), m.san),
        (None, false) => format!("Game #{}: starting position, {status}", g.id()),
    };
    let board = BoardCard {
        game: g.id(),
        variant: g.kind().title().to_string(),
        white: g.name(Color::White),
        black: g.name(Color::Black),
        to_move: (!finished).then(|| g.name(g.pos.turn())),
        last_move: g.moves.last().map(|m| m.san.clone()),
        result: finished.then(|| g.status()),
        time_control: g.rec.clock.to_string(),
        bottom: orientation,
    };
    Picture {
        replay: None,
        graph: None,
        crosstable: None,
        at: Some((g.id(), g.ply())),
        board: Some(board),
        pos: g.pos.clone(),
        opts: RenderOptions {
            orientation,
            theme,
            last_move: g.last,
            select,
            arrows: Vec::new(),
            caption: Some(Caption {
                white: g.name(Color::White),
                black: g.name(Color::Black),
                status,
                sides: g
                    .kind()
                    .has_numbered_players()
                    .then(|| [g.side(Color::White).into(), g.side(Color::Black).into()]),
            }),
            colours: g.colours(),
            through: g.through,
            zoom: None,
        },
        alt,
    }
}

/// Every position of `g` from its start, drawn as `opts` draws its board
/// (theme, side, caption), each with the move that led to it.
pub(crate) fn replay_frames(g: &Game, opts: &RenderOptions) -> Option<Vec<ReplayFrame>> {
    let plain = RenderOptions {
        last_move: None,
        through: None,
        select: None,
        arrows: Vec::new(),
        zoom: None,
        ..opts.clone()
    };
    let steps = g.steps()?;
    let last = steps.len().saturating_sub(1);
    let end = plain
        .caption
        .as_ref()
        .map(|c| c.status.clone())
        .unwrap_or_default();
    // Each frame says where it is: the start, then each move numbered as in
    // a game score (`12. Nf3`, `12... Nf6`); the last one holds the result
    // too (what the board's own caption said of the game).
    let frames = steps
        .iter()
        .enumerate()
        .map(|(i, step)| {
            let label = match (&step.by, i.checked_sub(1)) {
                (Some(played), Some(before)) => numbered(&steps[before].pos, &played.san),
                _ => "Starting position".to_string(),
            };
            let status = if i == last && !end.is_empty() {
                format!("{label}; {end}")
            } else {
                label
            };
            let caption = plain
                .caption
                .clone()
                .map(|c| voidmate_render::Caption { status, ..c });
            let opts = match &step.by {
                Some(played) => RenderOptions {
                    last_move: Some((played.mv.from, played.mv.to)),
                    through: played.through,
                    caption,
                    ..plain.clone()
                },
                None => RenderOptions {
                    caption,
                    ..plain.clone()
                },
            };
            ReplayFrame {
                opts,
                pos: step.pos.clone(),
            }
        })
        .collect();
    Some(frames)
}

/// `san` as a game score numbers it, from the position it was played in:
/// `12. Nf3` for White, `12... Nf6` for Black.
fn numbered(before: &voidmate_rules::Position, san: &str) -> String {
    let n = before.board().fullmove_number();
    match before.turn() {
        Color::White => format!("{n}. {san}"),
        Color::Black => format!("{n}... {san}"),
    }
}
