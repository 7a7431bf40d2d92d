//! The Swiss pairing of FIDE's Dutch system (C.04.3, in force from
//! 1 February 2026).
//!
//! A round is paired from a [`Field`]: the players present, each with the
//! score, colours, floats and past opponents the tournament gave them. The
//! Dutch system pairs score bracket by score bracket, from the top, and
//! chooses among the pairings the absolute criteria allow (no rematch, no
//! forbidden pair, at most one bye, absolute colour preferences) the one
//! that is best by its quality criteria, in their order. Searching those
//! pairings one by one, as the text describes, takes exponential time; the
//! FIDE-endorsed program bbpPairings instead encodes every criterion in the
//! weight of an edge between two players, so that a maximum-weight matching
//! of the whole field is the best pairing, and settles one bracket at a time
//! by adjusting weights and matching again. This module does the same
//! ([`brackets`]), with the criteria as one lexicographic weight
//! ([`weight`]) and colours allocated by the rules of article 5
//! ([`colour`]).
//!
//! The pairing is a pure function of the field: the same tournament state
//! gives the same pairing, which is what lets a tournament be checked
//! against an independent program (tests/reference.rs) and re-paired after
//! a crash with the same result.

mod brackets;
mod colour;
mod weight;

use std::collections::HashSet;
use std::fmt;

use crate::{Points, Side};

pub use colour::{Preference, Strength};

/// The most players one round may pair: far above any chat server's
/// tournament, and where the weights stay within their fields.
pub const MAX_PLAYERS: usize = 1000;

/// Which way a player floated in a round (C.04.3 A.4): down to a lower score
/// bracket, up to a higher one, or neither. A round a player did not play
/// (a bye, a forfeit, an absence) counts as a downfloat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Float {
    Down,
    Up,
    None,
}

/// One player as the pairing of a round sees them.
#[derive(Clone, Debug)]
pub struct Entrant {
    /// The caller's id for the player, handed back in the [`Pairing`].
    pub id: u32,
    /// The pairing number: 1 for the first of the initial order (the highest
    /// rated; equal ratings by name).
    pub number: u32,
    pub score: Points,
    /// The colours of the games played, oldest first (forfeits and byes are
    /// not games played).
    pub colours: Vec<Side>,
    /// One entry per round so far, oldest first.
    pub floats: Vec<Float>,
    /// Games actually played.
    pub played: u32,
    /// Had a bye or a win without playing: may not get the bye again.
    pub unplayed_win: bool,
    /// Ids this player may not meet: past opponents and forbidden pairs.
    pub avoid: HashSet<u32>,
}

/// A round to pair.
#[derive(Clone, Debug)]
pub struct Field {
    /// The round being paired, from 1.
    pub round: u32,
    /// The number of rounds of the tournament (the last round relaxes the
    /// colour rules for the leaders).
    pub rounds: u32,
    /// The colour the first player of the initial order gets in round 1
    /// (drawn by lot once and stored: C.04.3 5.2.5).
    pub initial: Side,
    pub entrants: Vec<Entrant>,
}

/// A round's pairing: games as (white, black) ids, and the player with the
/// pairing-allocated bye, if the field is odd.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub games: Vec<(u32, u32)>,
    pub bye: Option<u32>,
}

/// Why a round cannot be paired under the absolute criteria: the tournament
/// must end (or the organiser change who plays).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoPairing {
    /// Fewer than two players are present.
    TooFew,
    /// More players than [`MAX_PLAYERS`].
    TooMany(usize),
    /// The field is odd and every player present already had a bye or a win
    /// without playing.
    NoByeTaker,
    /// No pairing of everybody avoids rematches, forbidden pairs and absolute
    /// colour preferences: this many would be left without an opponent.
    Exhausted { unpaired: usize },
    /// A score bracket gathered players from more score groups than the
    /// weights can tell apart (far beyond anything seen in practice).
    Tangled,
}

impl fmt::Display for NoPairing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoPairing::TooFew => f.write_str("fewer than two players are left to pair"),
            NoPairing::TooMany(n) => {
                write!(f, "{n} players are more than one round can pair (at most {MAX_PLAYERS})")
            }
            NoPairing::NoByeTaker => f.write_str(
                "the number of players is odd and everyone has already had a bye or a win without playing",
            ),
            NoPairing::Exhausted { unpaired } => write!(
                f,
                "no pairing avoids rematches, forbidden pairs and three games in a row with one colour: {unpaired} players would be left without an opponent"
            ),
            NoPairing::Tangled => f.write_str(
                "the players left to pair come from too many score groups for the pairing program",
            ),
        }
    }
}

impl std::error::Error for NoPairing {}

/// Pairs a round by the Dutch system.
pub fn pair(field: &Field) -> Result<Pairing, NoPairing> {
    let n = field.entrants.len();
    if n < 2 {
        return Err(NoPairing::TooFew);
    }
    if n > MAX_PLAYERS {
        return Err(NoPairing::TooMany(n));
    }
    if field.round <= 1 {
        if let Some(pairing) = first_round(field) {
            return Ok(pairing);
        }
    }
    brackets::pair(field)
}

/// Round 1: the field in pairing-number order, the last player out with the
/// bye if it is odd, the top half against the bottom half in order, colours
/// by lot (C.04.3 article 5.2.5). `None` where that would pair a forbidden
/// pair: the round is then paired like any other.
fn first_round(field: &Field) -> Option<Pairing> {
    let mut order: Vec<&Entrant> = field.entrants.iter().collect();
    if order.windows(2).any(|w| w[0].score != w[1].score) {
        return None;
    }
    order.sort_by_key(|e| e.number);
    let bye = if order.len() % 2 == 1 {
        let last = order.pop()?;
        if last.unplayed_win {
            return None;
        }
        Some(last.id)
    } else {
        None
    };
    let half = order.len() / 2;
    let mut games = Vec::with_capacity(half);
    for (top, bottom) in order[..half].iter().zip(&order[half..]) {
        if top.avoid.contains(&bottom.id) {
            return None;
        }
        let (white, black) = colour::allocate(top, bottom, field.initial);
        games.push((white.id, black.id));
    }
    Some(Pairing { games, bye })
}
