//! A game's board as the one who asks sees it: the channel's theme, their
//! side (`settings flip`), and the board of a game that just ended.

use crate::contract::PlayerId;
use crate::ctx::Ctx;
use crate::done::Done;
use crate::error::Failure;
use crate::game::Game;
use crate::picture::{game_picture, Picture};
use crate::store;
use voidmate_render::Theme;
use voidmate_rules::Square;

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
