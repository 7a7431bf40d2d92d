//! The platform-neutral core: commands, games, storage. Adapters hand it an
//! [`Incoming`] event and post the [`Reply`] it returns; nothing here knows
//! which chat platform is in use.

pub mod command;
pub mod config;
pub mod contract;
pub mod engine;
pub mod help;
mod incoming;
pub mod isolate;
pub mod pgn;
mod reply;
mod service;
pub mod store;

pub use contract::{Input, Mentioned, Player, PlayerId, Segment, Text};
pub use service::{
    delivery_key, Action, Audience, BoardCard, CommandStyle, Core, CoreSettings, Direct,
    GameThread, Health, Image, Incoming, Migration, Notice, ProcessHealth, Refusal, Reply,
    TimeSource, ENGINE_LEASE_MS, NOTICE_LEASE_MS, PARK_AFTER, SILENT_AFTER_MS,
};
