//! A tournament as stored, read at once ([`Loaded`]): its players, rounds,
//! games and forbidden pairs, and what follows from them (the history the
//! pairing reads, the standings). Read by the tournament commands, the
//! rounds' pairing and `check-db`.

use std::collections::HashMap;

use crate::contract::PlayerId;
use crate::ratings::Pool;
use crate::store::{self, Tx};
use crate::tournament::{
    Entry, EntryStatus, RoundGame, RoundRecord, TournamentId, TournamentRecord,
};
use voidmate_tournament::{history, standings};

/// A rating for a player without one in the tournament's game and pool.
pub(crate) const UNRATED: i64 = 1500;

/// Everything stored about a tournament, read at once.
pub(crate) struct Loaded {
    pub t: TournamentRecord,
    pub entries: Vec<Entry>,
    pub rounds: Vec<RoundRecord>,
    pub games: Vec<RoundGame>,
    pub forbidden: Vec<(PlayerId, PlayerId, u32)>,
}

impl Loaded {
    /// Reads tournament `id`, locking it (see [`store::lock_tournament`])
    /// when `lock`.
    pub async fn read(
        tx: &mut Tx,
        id: TournamentId,
        lock: bool,
    ) -> Result<Option<Loaded>, sqlx::Error> {
        let t = if lock {
            store::lock_tournament(tx, id).await?
        } else {
            store::tournament(tx, id).await?
        };
        let Some(t) = t else {
            return Ok(None);
        };
        Ok(Some(Loaded {
            entries: store::entries(tx, id).await?,
            rounds: store::rounds(tx, id).await?,
            games: store::round_games(tx, id).await?,
            forbidden: store::forbidden(tx, id).await?,
            t,
        }))
    }

    /// The small number the pairing knows a player by: their place in the
    /// order of joining, from 1.
    pub fn index(&self, who: &PlayerId) -> Option<u32> {
        self.entries
            .iter()
            .position(|e| &e.player.id == who)
            .map(|i| i as u32 + 1)
    }

    pub fn entry(&self, index: u32) -> &Entry {
        &self.entries[index as usize - 1]
    }

    pub fn entry_of(&self, who: &PlayerId) -> Option<&Entry> {
        self.entries.iter().find(|e| &e.player.id == who)
    }

    /// The tournament so far, as the pairing and the standings see it.
    pub fn history(&self) -> history::History {
        let mut rounds = Vec::new();
        for r in &self.rounds {
            let games = self
                .games
                .iter()
                .filter(|g| g.round == r.round)
                .filter_map(|g| {
                    Some(history::Game {
                        white: self.index(&g.white)?,
                        black: self.index(&g.black)?,
                        outcome: g.outcome,
                    })
                })
                .collect();
            // A round robin's bye is a round off (the Berger table's empty
            // seat): no game and no point, unlike a Swiss's pairing bye.
            let bye = match self.t.format {
                crate::tournament::Format::Swiss => r.bye.as_ref().and_then(|b| self.index(b)),
                crate::tournament::Format::RoundRobin { .. } => None,
            };
            rounds.push(history::Round { games, bye });
        }
        let joined = self
            .entries
            .iter()
            .enumerate()
            .map(|(i, e)| (i as u32 + 1, e.joined_round))
            .collect();
        history::History { rounds, joined }
    }

    /// The standings now (counting the games finished so far).
    pub fn standings(&self) -> Vec<(Entry, standings::Line)> {
        let ratings: HashMap<u32, i64> = self
            .entries
            .iter()
            .enumerate()
            .filter(|(_, e)| e.status != EntryStatus::Kicked || self.played_any(&e.player.id))
            .map(|(i, e)| (i as u32 + 1, e.rating))
            .collect();
        standings::standings(&self.history(), &ratings, self.t.format.standings())
            .into_iter()
            .map(|l| (self.entry(l.player).clone(), l))
            .collect()
    }

    pub fn played_any(&self, who: &PlayerId) -> bool {
        self.games
            .iter()
            .any(|g| &g.white == who || &g.black == who)
    }

    /// The players whose games are still being played (in any round).
    pub fn busy(&self) -> Vec<PlayerId> {
        self.games
            .iter()
            .filter(|g| g.outcome.is_none())
            .flat_map(|g| [g.white.clone(), g.black.clone()])
            .collect()
    }

    /// The games of the current round not over yet.
    pub fn open_games(&self) -> impl Iterator<Item = &RoundGame> {
        let round = self.t.round;
        self.games
            .iter()
            .filter(move |g| g.round == round && g.outcome.is_none())
    }

    /// Pairing numbers for round `round`: everyone who had joined by then,
    /// by rating (highest first), equal ratings by name.
    pub fn numbers(&self, round: u32) -> HashMap<u32, u32> {
        let mut order: Vec<(u32, &Entry)> = self
            .entries
            .iter()
            .enumerate()
            .filter(|(_, e)| e.joined_round <= round)
            .map(|(i, e)| (i as u32 + 1, e))
            .collect();
        order.sort_by(|(_, a), (_, b)| {
            b.rating
                .cmp(&a.rating)
                .then_with(|| a.player.name.cmp(&b.player.name))
                .then_with(|| a.player.id.as_str().cmp(b.player.id.as_str()))
        });
        order
            .into_iter()
            .enumerate()
            .map(|(n, (i, _))| (i, n as u32 + 1))
            .collect()
    }
}

/// A player's rating in a tournament's game and pool (1500 without one).
pub(crate) async fn rating_for(
    tx: &mut Tx,
    t: &TournamentRecord,
    who: &PlayerId,
) -> Result<i64, sqlx::Error> {
    let Some(community) = &t.community else {
        return Ok(UNRATED);
    };
    let stored = store::rating(tx, community, who, t.kind, Pool::of(&t.time)).await?;
    Ok(stored.map_or(UNRATED, |s| s.rating.rating.round() as i64))
}

/// `2026-12-04 18:00 UTC`.
pub(crate) fn utc(ms: i64) -> String {
    let (y, m, d, of_day) = crate::time::civil(ms.div_euclid(1000));
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        of_day / 3600,
        (of_day % 3600) / 60
    )
}
