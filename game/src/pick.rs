//! The game a command is about: named by number, the author's only one in
//! the channel, or their latest; loaded (and locked, on PostgreSQL) in the
//! request's transaction.

use crate::command::GameRef;
use crate::contract::Player;
use crate::ctx::Ctx;
use crate::error::{refuse, Failure};
use crate::game::Game;
use crate::load::seats;
use crate::record::GameRecord;
use crate::store;
use voidmate_rules::Color;

impl Ctx<'_> {
    pub async fn load(&mut self, rec: GameRecord) -> Result<Game, Failure> {
        if self.reads_only {
            self.core.load_unlocked(self.tx, rec).await
        } else {
            self.core.load(self.tx, rec).await
        }
    }

    /// Game `id` of this channel, read again (after a change).
    pub async fn reload(&mut self, id: i64) -> Result<Option<Game>, Failure> {
        match store::game(self.tx, self.channel, id).await? {
            Some(rec) => Ok(Some(self.load(rec).await?)),
            None => Ok(None),
        }
    }

    /// The game a command is about. `mine`: the author must play in it (and
    /// it must be in progress).
    pub async fn pick(&mut self, game: GameRef, mine: bool) -> Result<Game, Failure> {
        let me = self.author.id.clone();
        let known = self.own_active.take();
        if let Some(id) = game {
            let Some(rec) = store::game(self.tx, self.channel, id).await? else {
                return refuse(format!("There is no game #{id} in this channel."));
            };
            if mine && !rec.plays(&me) {
                return refuse(format!("You are not playing in game #{id}."));
            }
            if let (true, Some(ending)) = (mine, rec.ending()) {
                return refuse(format!("Game #{id} is over ({}).", ending.result));
            }
            return self.load(rec).await;
        }
        // The author's one game here, known from the event's intake: locked
        // at once. Anything else (none, several, or it ended meanwhile) is
        // looked up below, for the full answer.
        if let Some(mut games) = self.known_games(known.filter(|k| k.len() == 1)).await? {
            if let Some(g) = games.pop() {
                return Ok(g);
            }
        }
        // Chosen among the games as read, damaged ones too: a damaged game
        // elsewhere in the channel does not stand in the way of the one
        // meant, and one of the author's own is named, not passed over.
        let active = store::active_games(self.tx, self.channel).await?;
        let own: Vec<store::Read<GameRecord>> = active
            .iter()
            .filter(|g| seats(g).iter().any(|p| p.id == me))
            .cloned()
            .collect();
        let candidates = if mine || !own.is_empty() { own } else { active };
        match candidates.len() {
            0 if mine => {
                refuse("You have no game in progress here. Start one with `challenge @someone`.")
            }
            0 => refuse("There is no game in progress here. Start one with `challenge @someone`."),
            1 => {
                let game = candidates.into_iter().next().expect("one");
                self.load(game?).await
            }
            n => {
                let list: Vec<String> = candidates
                    .iter()
                    .map(|g| {
                        let [white, black] = seats(g);
                        match g {
                            Ok(rec) => {
                                format!("#{} {white} vs {black} ({})", rec.id, rec.kind.title())
                            }
                            Err(e) => format!("#{} {white} vs {black} (damaged)", e.id),
                        }
                    })
                    .collect();
                refuse(format!(
                    "There are {n} games here: {}. Add the game number, like `board #{}`.",
                    list.join(", "),
                    candidates[0].as_ref().map_or_else(|e| e.id, |rec| rec.id)
                ))
            }
        }
    }

    /// The author's games in progress here, taken from `known` (the ids
    /// the event's intake read, [`Ctx::own_active`]) and each locked and
    /// replayed: `None` if there were none known, the request only reads,
    /// or one of them is no longer in progress here (then the caller looks
    /// them up as usual).
    pub async fn known_games(
        &mut self,
        known: Option<Vec<i64>>,
    ) -> Result<Option<Vec<Game>>, Failure> {
        let Some(ids) = known.filter(|_| !self.reads_only) else {
            return Ok(None);
        };
        let mut games = Vec::with_capacity(ids.len());
        for id in ids {
            match self.core.load_active(self.tx, self.channel, id).await? {
                Some(g) => games.push(g),
                None => return Ok(None),
            }
        }
        Ok(Some(games))
    }

    /// The author's game in progress that a command is about, and their
    /// side in it.
    pub async fn pick_mine(&mut self, game: GameRef) -> Result<(Game, Color), Failure> {
        let g = self.pick(game, true).await?;
        let side = g.side_of(&self.author.id)?;
        Ok((g, side))
    }

    /// A game to look at: named, in progress, or the author's latest.
    pub async fn pick_any(&mut self, game: GameRef) -> Result<Game, Failure> {
        match self.pick(game, false).await {
            Err(Failure::Refused(msg)) if game.is_none() => {
                match store::latest_game(self.tx, self.channel, &self.author.id).await? {
                    Some(rec) => self.load(rec).await,
                    None => Err(Failure::Refused(msg)),
                }
            }
            other => other,
        }
    }

    /// A game named by number from a private conversation, in whichever
    /// channel it is played; only its players may ask.
    pub async fn private_game(&mut self, id: i64) -> Result<Game, Failure> {
        let me: &Player = self.author;
        match store::game_anywhere(self.tx, id).await? {
            Some(rec) => {
                if rec.plays(&me.id) {
                    self.load(rec).await
                } else {
                    refuse(format!("You are not playing in game #{id}."))
                }
            }
            None => refuse(format!("There is no game #{id}.")),
        }
    }
}
