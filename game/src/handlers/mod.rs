//! The handlers: one function per command (or per kind of command), each
//! over the request's [`Ctx`](crate::ctx::Ctx), returning what it did as a
//! [`Done`](crate::done::Done) or why it did nothing as a
//! [`Failure`](crate::error::Failure). They sit below the dispatcher and
//! above the store; none calls another area's handler except through the
//! shared helpers (`play::play` for a claim's move, `ending` for a game's end).

pub(crate) mod after;
pub(crate) mod challenge;
pub(crate) mod daily;
pub(crate) mod ending;
pub(crate) mod info;
pub(crate) mod moves;
pub(crate) mod offers;
pub(crate) mod play;
pub(crate) mod programs;
pub(crate) mod puzzle_ratings;
pub(crate) mod puzzles;
pub(crate) mod ratings;
pub(crate) mod rounds;
pub(crate) mod settings;
pub(crate) mod tournament;
mod tournament_views;
