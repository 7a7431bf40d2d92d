//! Board pictures: what a game's board shows (orientation, last move,
//! caption, colours, the card beside it), drawn after the transaction on a
//! blocking thread.

use crate::command::Flip;
use crate::contract::PlayerId;
use crate::core::Core;
use crate::ctx::Ctx;
use crate::done::Done;
use crate::error::Failure;
use crate::game::Game;
use crate::reply::{BoardCard, Image, ImageFormat};
use crate::store;
use voidmate_render::{Caption, RenderOptions, Renderer, ReplayFrame, Theme};
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
}

/// A review's evaluation graph: White's winning chances (the start, then
/// after each move) and the marked moves.
pub(crate) type Graph = (Vec<f64>, Vec<(usize, voidmate_render::Severity)>);

/// A board being drawn on a blocking thread (rendering is CPU work: it
/// stays off the async workers, and may overlap a commit's sync).
pub(crate) struct Drawing(tokio::task::JoinHandle<Image>);

impl Drawing {
    pub fn start(p: Picture) -> Drawing {
        Drawing(tokio::task::spawn_blocking(move || {
            let r = Renderer::shared();
            let (bytes, format) = match (&p.graph, p.replay.as_deref().and_then(|f| r.replay(f))) {
                (Some((chances, marks)), _) => (
                    voidmate_render::eval_graph(chances, marks, p.opts.theme),
                    ImageFormat::Png,
                ),
                (None, Some(replay)) => (replay.gif, ImageFormat::Gif),
                (None, None) => (r.render(&p.pos, &p.opts), ImageFormat::Png),
            };
            Image {
                png: bytes,
                format,
                alt: p.alt,
                board: p.board,
            }
        }))
    }

    pub async fn image(self) -> Option<Image> {
        self.0.await.ok()
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

impl Ctx<'_> {
    /// The channel's board theme.
    pub async fn theme(&mut self) -> Result<Theme, Failure> {
        Ok(store::settings(self.tx, self.channel)
            .await?
            .and_then(|s| Theme::from_name(&s.theme))
            .unwrap_or(self.core.settings.theme))
    }

    /// `g`'s board as `viewer` sees it, in this channel's theme.
    pub async fn picture(
        &mut self,
        g: &Game,
        viewer: &PlayerId,
        select: Option<Square>,
    ) -> Result<Picture, Failure> {
        // Read with the event and the game where they could be (PostgreSQL):
        // the theme with the event, the viewer's turn with the game.
        let known = match (&self.view, g.flip_of(viewer)) {
            (Some((theme, _)), Some(flip)) => Some((theme.clone(), flip)),
            (Some(view), None) if viewer == &self.author.id => Some(view.clone()),
            _ => None,
        };
        let (theme, flip) = match known {
            Some(view) => view,
            None => store::view_of(self.tx, self.channel, viewer).await?,
        };
        let theme = theme
            .and_then(|t| Theme::from_name(&t))
            .unwrap_or(self.core.settings.theme);
        Ok(game_picture(g, theme, viewer, select, flip))
    }

    /// `text` with the board of game `id` as it ended (read again after the
    /// result is stored), seen from the author's side.
    pub async fn final_board(&mut self, id: i64, text: String) -> Result<Done, Failure> {
        let Some(g) = self.reload(id).await? else {
            return Ok(Done::text(text));
        };
        let viewer = self.author.id.clone();
        let picture = self.picture(&g, &viewer, None).await?;
        Ok(Done::board(text, picture))
    }
}

impl Core {
    /// The board image of game `id` if it still stands after `ply` plies
    /// (a later move makes an old notice go out without a stale board).
    pub(crate) async fn board_after(
        &self,
        ch: &str,
        id: i64,
        ply: i64,
        kind: store::BoardKind,
    ) -> Option<Image> {
        let mut read = self.store.read().await.ok()?;
        let row = store::game(&mut read, ch, id).await.ok()??;
        let g = self.load_unlocked(&mut read, row).await.ok()?;
        if g.moves.len() as i64 != ply {
            return None;
        }
        let theme = store::settings(&mut read, ch)
            .await
            .ok()?
            .and_then(|s| Theme::from_name(&s.theme))
            .unwrap_or(self.settings.theme);
        drop(read);
        let mut picture = game_picture(&g, theme, &PlayerId::from_stored(""), None, Flip::Auto);
        match kind {
            store::BoardKind::Board => {}
            store::BoardKind::Replay => {
                // From White's side, as lichess shows a replay to all.
                picture.opts.orientation = Color::White;
                picture.replay = replay_frames(&g, &picture.opts);
            }
            store::BoardKind::ReviewGraph => {
                let review = self.stored_review(&g).await?;
                return Some(crate::review_flow::graph_image(&g, &review, theme));
            }
        }
        Drawing::start(picture).image().await
    }
}
