//! Voidmate, the chat bot: a platform-neutral core ([`game`]) and its
//! adapters. The console adapter plays in a terminal; Discord and Matrix
//! adapters follow.

pub mod config;
pub mod console;
pub mod game;
pub mod matrix;
