//! The platform-neutral core: commands, games, storage. Adapters hand it an
//! [`Incoming`] event and post the [`Reply`] it returns; nothing here knows
//! which chat platform is in use.
//!
//! The modules stand in layers, each using only those below it
//! (`docs/architecture.md` draws them, and a test keeps them so):
//! - leaves: [`config`], [`contract`] (identities, mentions), [`command`]
//!   (chat text to typed commands), [`record`] (a game and a challenge,
//!   typed), [`ratings`] (Glicko-2), [`review`], [`pgn`], `time` (the one
//!   clock);
//! - [`store`]: the tables, typed rows in and out, named transitions;
//!   [`lease`]: work a process holds, renewed by one task;
//! - `core`: the shared state; `game` and `load`: a stored game replayed;
//! - `ctx`, `pick`, `view`: one request, the game it means, its board;
//! - `handlers`: one function per command; `dispatch`, `engine_turns`;
//! - `delivery`, `events` ([`Core::handle`]), `periodic` ([`Core::tick`]),
//!   `startup` ([`Core::open`]).

pub mod command;
pub mod config;
pub mod contract;
pub mod engine;
pub mod help;
pub mod isolate;
pub mod lease;
pub mod pgn;
pub mod ratings;
pub mod record;
pub mod review;
pub mod store;
pub mod tournament;

mod audit;
mod core;
mod ctx;
mod delivery;
mod dispatch;
mod done;
mod draw;
mod engine_turns;
mod error;
mod events;
mod floor;
mod game;
mod handlers;
mod health;
mod history;
mod incoming;
mod load;
mod migrate;
mod periodic;
mod pick;
mod picture;
mod process;
mod puzzle_flow;
mod reply;
mod resolve;
mod review_flow;
mod solving;
mod spoken;
mod startup;
pub mod suggest;
mod time;
mod tournament_state;
mod view;
mod words;

#[cfg(test)]
mod tests;

pub use crate::core::{CommandStyle, Core, CoreSettings};
pub use audit::{PuzzleCheck, RatingCheck, TournamentCheck};
pub use contract::{Mentioned, Player, PlayerId, Segment, Text};
pub use delivery::{Posting, Refusal, ORDER_WAIT_MS, PARK_AFTER};
pub use health::{Health, ProcessHealth, SILENT_AFTER_MS};
pub use incoming::{Incoming, Input};
pub use lease::{Held, Leases, ENGINE_LEASE_MS, NOTICE_LEASE_MS};
pub use migrate::Migration;
pub use reply::{
    delivery_key, Action, Audience, BoardCard, Direct, GameThread, Image, ImageFormat, Notice,
    PuzzleButtons, Reply, Table, Threaded,
};
pub use time::Clock;
