//! What a handler did: the words, a board to draw, whom to notify, the
//! questions asked, and what the dispatcher does after the commit (the
//! engine's move, a conversation or thread for the adapter to open).

use crate::contract::{Player, Text};
use crate::picture::Picture;
use crate::reply::{Action, Audience, Direct, GameThread, PuzzleButtons, Reply};

pub(crate) struct Done {
    pub text: Text,
    pub picture: Option<Picture>,
    pub notify: Vec<Player>,
    pub actions: Vec<Action>,
    /// The bot moves next in this game (answered after the commit).
    pub engine: Option<i64>,
    /// The outbox entries the reply delivers.
    pub deliveries: Vec<i64>,
    /// A direct conversation for the adapter to open.
    pub direct: Option<Direct>,
    /// A thread for the game that begins (see [`Reply::thread`]).
    pub thread: Option<GameThread>,
    pub table: Option<crate::reply::Table>,
    /// A tournament to offer Join and Leave buttons for.
    pub join: Option<i64>,
    /// A puzzle's buttons.
    pub puzzle: Option<PuzzleButtons>,
}

impl Done {
    /// Words only: nobody to notify, nothing to ask.
    pub fn text(text: impl Into<Text>) -> Done {
        Done {
            text: text.into(),
            picture: None,
            notify: Vec::new(),
            actions: Vec::new(),
            engine: None,
            deliveries: Vec::new(),
            direct: None,
            thread: None,
            table: None,
            join: None,
            puzzle: None,
        }
    }

    /// Offers a puzzle's buttons.
    pub fn puzzle_buttons(self, buttons: PuzzleButtons) -> Done {
        Done {
            puzzle: Some(buttons),
            ..self
        }
    }

    pub fn with_table(self, table: crate::reply::Table) -> Done {
        Done {
            table: Some(table),
            ..self
        }
    }

    /// Offers buttons to join or leave tournament `id`.
    pub fn joining(self, id: i64) -> Done {
        Done {
            join: Some(id),
            ..self
        }
    }

    /// Words and a board.
    pub fn board(text: impl Into<Text>, picture: Picture) -> Done {
        Done::text(text).with_picture(Some(picture))
    }

    pub fn with_picture(self, picture: Option<Picture>) -> Done {
        Done { picture, ..self }
    }

    pub fn notifying(self, notify: Vec<Player>) -> Done {
        Done { notify, ..self }
    }

    pub fn asking(self, actions: Vec<Action>) -> Done {
        Done { actions, ..self }
    }

    pub fn in_thread(self, thread: Option<crate::reply::GameThread>) -> Done {
        Done { thread, ..self }
    }

    /// The bot is to move next in game `id`.
    pub fn engine_moves(self, id: i64) -> Done {
        Done {
            engine: Some(id),
            ..self
        }
    }

    /// The reply, with a board drawn already (or none).
    pub fn reply_with(self, image: Option<crate::reply::Image>) -> Reply {
        Reply {
            text: self.text,
            image,
            notify: self.notify,
            actions: self.actions,
            is_error: false,
            audience: Audience::Everyone,
            deliveries: self.deliveries,
            direct: self.direct,
            thread: self.thread,
            table: self.table,
            join: self.join,
            puzzle: self.puzzle,
            before: Vec::new(),
        }
    }
}
