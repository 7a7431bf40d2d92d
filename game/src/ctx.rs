//! One request's context: the transaction it works in, where it was said,
//! who said it, the event (none for the engine's own moves and the periodic
//! check) and the time it is handled at. Every handler is a function over
//! it, and the helpers that find and draw games are its methods.

use crate::contract::Player;
use crate::core::Core;
use crate::incoming::Incoming;
use crate::store::Tx;

pub(crate) struct Ctx<'a> {
    /// The core's settings and services.
    pub core: &'a Core,
    pub tx: &'a mut Tx,
    /// The channel (room, thread) the request is about.
    pub channel: &'a str,
    /// Who acts: the author of the event, or the bot playing its move.
    pub author: &'a Player,
    /// The event being handled, if the request is one.
    pub event: Option<&'a Incoming>,
    /// Now, on the core's clock (ms).
    pub now_ms: i64,
    /// Whether the request only reads: its games are loaded without a lock
    /// ([`Core::load_unlocked`]), so a read never waits for a writer.
    pub reads_only: bool,
    /// The channel's theme and the author's board turn, if already read
    /// with the event ([`crate::store::intake`]); cleared by a command
    /// that changes either.
    pub view: Option<(Option<String>, crate::command::Flip)>,
    /// The ids of the author's games in progress in this channel, if read
    /// with the event ([`crate::store::intake`]): the first [`Ctx::pick`]
    /// uses them instead of a lookup, and takes them (a later pick, after
    /// a change, looks again).
    pub own_active: Option<Vec<i64>>,
}

impl<'a> Ctx<'a> {
    /// The context of `ev`, in `tx`.
    pub fn of_event(core: &'a Core, tx: &'a mut Tx, ev: &'a Incoming) -> Ctx<'a> {
        Ctx {
            core,
            tx,
            channel: &ev.channel,
            author: &ev.author,
            event: Some(ev),
            now_ms: core.time.now_ms(),
            reads_only: false,
            view: None,
            own_active: None,
        }
    }

    /// The context of work the bot does by itself in `channel`, as `actor`.
    pub fn of_bot(core: &'a Core, tx: &'a mut Tx, channel: &'a str, actor: &'a Player) -> Ctx<'a> {
        Ctx {
            core,
            tx,
            channel,
            author: actor,
            event: None,
            now_ms: core.time.now_ms(),
            reads_only: false,
            view: None,
            own_active: None,
        }
    }

    /// Whether only the author and the bot see this conversation.
    pub fn private(&self) -> bool {
        self.event.is_some_and(|e| e.private)
    }

    /// Whether the author moderates here (see [`Incoming::moderator`]).
    pub fn moderator(&self) -> bool {
        self.event.is_some_and(|e| e.moderator)
    }

    /// When the platform received the event, if it says.
    pub fn sent_ms(&self) -> Option<i64> {
        self.event.and_then(|e| e.sent_ms)
    }

    /// Whether the author spoke to the bot.
    pub fn addressed(&self) -> bool {
        self.event.is_some_and(|e| e.addressed)
    }

    /// The community the request belongs to, for ratings: a Discord
    /// server, a Matrix room, the console; `None` in a direct conversation
    /// or for the bot's own work.
    pub fn community(&self) -> Option<&'a str> {
        self.event?.community.as_deref()
    }

    /// The author's platform (`discord`, `matrix`, ...).
    pub fn platform(&self) -> &str {
        self.author.id.platform()
    }
}
