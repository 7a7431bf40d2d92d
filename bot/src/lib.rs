//! Voidmate, the chat bot: a platform-neutral core ([`game`]) and its
//! adapters: `console` (a terminal), `discord` and `matrix`.

pub mod adapter;
pub mod columns;
pub mod config;
pub mod console;
pub mod discord;
/// The core, its own crate (`voidmate-game`), under its old path.
pub use voidmate_game as game;
pub mod matrix;
pub mod secret;
