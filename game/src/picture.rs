//! Board pictures: what a game's board shows (orientation, last move,
//! caption, colours, the card beside it), or a replay, or a review's graph.
//! A description only: `draw` draws it, after the transaction, on a
//! blocking thread.

use crate::command::Flip;
use crate::contract::PlayerId;
use crate::game::Game;
use crate::reply::BoardCard;
use crate::review::{Mark, Review};
use voidmate_render::{Caption, RenderOptions, ReplayFrame, Severity, Theme};
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
/// after each move) and the marked moves.
pub(crate) type Graph = (Vec<f64>, Vec<(usize, voidmate_render::Severity)>);

/// The evaluation graph of `g`'s review, in `theme`: drawn as boards are
/// (off the async workers, by `draw`), whether `analysis` shows it or its
/// notice is posted.
pub(crate) fn graph_picture(g: &Game, review: &Review, theme: Theme) -> Picture {
    let mut picture = game_picture(g, theme, &PlayerId::from_stored(""), None, Flip::Auto);
    picture.at = None;
    picture.board = None;
    picture.graph = Some((review.white_chances.clone(), graph_marks(review)));
    picture.alt = format!(
        "Evaluation graph of game #{}: White's winning chances above the middle, Black's below, marked moves as dots",
        g.id()
    );
    picture
}

/// The marked moves for the graph: (position after the move, severity).
fn graph_marks(r: &Review) -> Vec<(usize, Severity)> {
    r.moves
        .iter()
        .filter_map(|m| {
            let s = match m.mark? {
                Mark::Inaccuracy => Severity::Inaccuracy,
                Mark::Mistake => Severity::Mistake,
                Mark::Blunder => Severity::Blunder,
            };
            Some((m.ply, s))
        })
        .collect()
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
    let frames = g
        .steps()?
        .into_iter()
        .map(|step| ReplayFrame {
            opts: match &step.by {
                Some(played) => RenderOptions {
                    last_move: Some((played.mv.from, played.mv.to)),
                    through: played.through,
                    ..plain.clone()
                },
                None => plain.clone(),
            },
            pos: step.pos,
        })
        .collect();
    Some(frames)
}
