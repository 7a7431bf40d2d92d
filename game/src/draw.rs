//! Drawing: a [`Picture`] becomes an image on a blocking thread (rendering
//! is CPU work: it stays off the async workers, and may overlap a commit's
//! sync); a reply's board is drawn this way, and a notice's board from the
//! stored game when the notice is posted.

use crate::command::Flip;
use crate::contract::PlayerId;
use crate::core::Core;
use crate::done::Done;
use crate::picture::{game_picture, graph_picture, replay_frames, Picture};
use crate::reply::{Image, ImageFormat, Reply};
use crate::store;
use voidmate_render::{Renderer, Theme};
use voidmate_rules::Color;

/// A board being drawn on a blocking thread (rendering is CPU work: it
/// stays off the async workers, and may overlap a commit's sync).
pub(crate) struct Drawing(tokio::task::JoinHandle<Image>);

impl Drawing {
    pub fn start(p: Picture) -> Drawing {
        Drawing(tokio::task::spawn_blocking(move || {
            let r = Renderer::shared();
            if let Some(table) = &p.crosstable {
                if let Ok(png) = r.crosstable(table, p.opts.theme) {
                    return Image {
                        png,
                        format: ImageFormat::Png,
                        alt: p.alt,
                        board: None,
                    };
                }
            }
            let (bytes, format) = match (&p.graph, p.replay.as_deref().and_then(|f| r.replay(f))) {
                (Some(graph), _) => (r.eval_graph(graph, p.opts.theme), ImageFormat::Png),
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

impl Done {
    /// The reply for the adapter, its board drawn (off the async workers).
    pub async fn finish(mut self) -> Reply {
        let image = match self.picture.take() {
            None => None,
            Some(p) => Drawing::start(p).image().await,
        };
        self.reply_with(image)
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
        if kind == store::BoardKind::Puzzle {
            return self.puzzle_board(read, ch, id, ply).await;
        }
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
                picture = graph_picture(&g, &review, theme);
            }
            store::BoardKind::Puzzle => return None,
        }
        Drawing::start(picture).image().await
    }

    /// Puzzle `id`'s board with `progress` moves of its line played, from
    /// the solver's side, in `ch`'s theme.
    async fn puzzle_board(
        &self,
        mut read: store::Tx,
        ch: &str,
        id: i64,
        progress: i64,
    ) -> Option<Image> {
        let p = store::puzzle(&mut read, id).await.ok()??;
        let theme = store::settings(&mut read, ch)
            .await
            .ok()?
            .and_then(|s| Theme::from_name(&s.theme))
            .unwrap_or(self.settings.theme);
        drop(read);
        let line = crate::solving::Line::of(&p).ok()?;
        let progress = usize::try_from(progress).ok()?.clamp(1, line.moves.len());
        let status = crate::solving::to_move(line.positions[progress].turn());
        let picture = line.picture(&p, progress, theme, status, None);
        Drawing::start(picture).image().await
    }
}
