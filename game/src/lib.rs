//! The platform-neutral core: commands, games, storage. Adapters hand it an
//! [`Incoming`] event and post the [`Reply`] it returns; nothing here knows
//! which chat platform is in use.
//!
//! The way an event goes, and where each step lives:
//! - [`incoming`](Incoming) and [`command`]: what an adapter hands in, read
//!   once into a typed [`command::Command`];
//! - `events`: the event's transaction, the record of handled events, and
//!   isolation from panics;
//! - `dispatch`: the command to its handler, over one request context
//!   (`ctx`);
//! - `handlers`: one module per area (challenges, play, offers, endings,
//!   programs, moves, information, settings);
//! - `record` and `game`: a game typed once from its row, and replayed;
//! - [`store`]: the tables, one module each;
//! - `delivery`, `deadlines`, `engine_turns`, `health`: what the periodic
//!   check and the engine workers do;
//! - [`reply`](Reply): what comes back, with typed mentions and questions.

pub mod command;
pub mod config;
pub mod contract;
pub mod engine;
pub mod help;
pub mod isolate;
pub mod lease;
pub mod passages;
pub mod pgn;
pub mod ratings;
pub mod record;
pub mod review;
pub mod store;

mod audit;
mod core;
mod ctx;
mod deadlines;
mod delivery;
mod dispatch;
mod done;
mod engine_turns;
mod error;
mod events;
mod floor;
mod game;
mod handlers;
mod health;
mod incoming;
mod load;
mod migrate;
mod picture;
mod reply;
mod resolve;
mod review_flow;
mod time;
mod words;

#[cfg(test)]
mod tests;

pub use crate::core::{CommandStyle, Core, CoreSettings};
pub use audit::RatingCheck;
pub use contract::{Mentioned, Player, PlayerId, Segment, Text};
pub use delivery::{Posting, Refusal, ORDER_WAIT_MS, PARK_AFTER};
pub use health::{Health, ProcessHealth, SILENT_AFTER_MS};
pub use incoming::{Incoming, Input};
pub use lease::{Held, Leases, ENGINE_LEASE_MS, NOTICE_LEASE_MS};
pub use migrate::Migration;
pub use reply::{
    delivery_key, Action, Audience, BoardCard, Direct, GameThread, Image, ImageFormat, Notice,
    Reply,
};
pub use time::Clock;
