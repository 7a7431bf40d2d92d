//! Voidmate, the chat bot: a platform-neutral core ([`game`]) and its
//! adapters: `console` (a terminal), `discord` and `matrix`.

pub mod config;
pub mod console;
pub mod discord;
pub mod game;
pub mod matrix;
pub mod secret;
