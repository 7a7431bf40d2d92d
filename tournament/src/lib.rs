//! Tournaments for Voidmate, as pure functions: who plays whom in a round,
//! and how the players stand after it.
//!
//! - [`dutch`]: the Swiss pairing of FIDE's Dutch system (C.04.3 as in force
//!   from February 2026), by weighted matching as the FIDE-endorsed program
//!   bbpPairings does it.
//! - [`berger`]: round-robin schedules from FIDE's Berger tables (C.05,
//!   annex 1), single or double.
//! - [`Points`] count in half points, so that a draw is exact.
//!
//! Nothing here knows about games, chat or storage: the caller (the bot's
//! core) hands in what happened and stores what comes out.

pub mod berger;
pub mod dutch;
pub mod history;
mod points;
mod side;
pub mod standings;

pub use points::Points;
pub use side::Side;
