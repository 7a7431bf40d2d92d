//! What an adapter hands the core: one event, from one identity, as a chat
//! line or an already typed command.

use crate::command::Command;
use crate::contract::{Mentioned, Player};

/// What an adapter hands in: a chat line for the core to read, or a
/// command already typed by a slash command or a button.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    Line(String),
    Command(Command),
}

/// A message that reached the bot.
#[derive(Debug, Clone)]
pub struct Incoming {
    /// The platform's id for this event; a second delivery is ignored.
    pub event_id: String,
    /// Room or channel id; games live in a channel.
    pub channel: String,
    /// Who wrote it: their platform identity and the name they show now.
    pub author: Player,
    /// A chat line, or a command the platform already typed.
    pub input: Input,
    /// The people the adapter found named in the line, resolved to
    /// identities (pills, `<@id>` mentions, a slash command's user option).
    pub mentions: Vec<Mentioned>,
    /// Whether the message was addressed to the bot (a command prefix, a
    /// mention, a reply, a slash command). An unaddressed message is only
    /// taken as a bare move; anything else in it is none of our business.
    pub addressed: bool,
    /// Whether only the author and the bot can read it (a direct message,
    /// a Discord command answered privately). Super Chess programs in
    /// private mode may only be sent so.
    pub private: bool,
    /// The community it belongs to, for ratings: a Discord server
    /// (`discord:guild:ID`), a Matrix room, the console; `None` in a direct
    /// conversation (games there are not rated).
    pub community: Option<String>,
    /// When the platform received it (Matrix's `origin_server_ts`), in
    /// milliseconds since the epoch, if it says: a correspondence move is
    /// judged by this time, not by when the bot got to it.
    pub sent_ms: Option<i64>,
    /// Whether the author moderates where it was said (Discord: may manage
    /// messages there; Matrix: may kick in the room; the console's user):
    /// moderators may run any tournament of their community.
    pub moderator: bool,
}

impl Incoming {
    /// A chat line from `author`, addressed or not, with nobody named.
    pub fn line(
        event_id: impl Into<String>,
        channel: impl Into<String>,
        author: Player,
        text: impl Into<String>,
        addressed: bool,
    ) -> Incoming {
        let channel = channel.into();
        Incoming {
            event_id: event_id.into(),
            community: Some(channel.clone()),
            channel,
            author,
            input: Input::Line(text.into()),
            mentions: Vec::new(),
            addressed,
            private: false,
            sent_ms: None,
            moderator: false,
        }
    }

    /// The chat line, or `""` for a typed command (for logs and limits).
    pub fn text(&self) -> &str {
        match &self.input {
            Input::Line(t) => t,
            Input::Command(_) => "",
        }
    }
}
