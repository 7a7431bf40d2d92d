//! Finding and loading games: the rules of a stored game, the stored
//! position for reads, the full replay for writes, `check-db`, and the game
//! a command is about.

use crate::command::GameRef;
use crate::contract::Player;
use crate::core::Core;
use crate::ctx::Ctx;
use crate::error::{damaged, refuse, Failure};
use crate::game::Game;
use crate::record::GameRecord;
use crate::store::{self, Tx};
use voidmate_rules::{variants, Color, Position, Program, SharedRules};

/// A stored program text, read again.
fn stored_program(
    rules: &voidmate_rules::Rules,
    text: &Option<String>,
) -> Result<Program, voidmate_rules::ProgramError> {
    match text {
        None => Ok(Program::none()),
        Some(t) => Program::parse(rules, t),
    }
}

/// The rules a stored game is played by (its programs included).
pub(crate) fn rules_of(rec: &GameRecord) -> Result<SharedRules, Failure> {
    let base = rec.kind.rules();
    let [white, black] = [&rec.seats.white.program, &rec.seats.black.program];
    let programs = stored_program(base, white)
        .and_then(|w| Ok((w, stored_program(base, black)?)))
        .map_err(|e| damaged(rec.id, format!("a program does not read: {e}")))?;
    variants::programmed(base, &programs.0, &programs.1)
        .map_err(|e| damaged(rec.id, format!("its programs do not fit the game: {e}")))
}

/// The stored position after the last move, trusted without a replay: for
/// reads that need only the position (suggestions, whose move it is). Every
/// write replays the game in [`Core::load`], and `voidmate check-db`
/// replays them all.
pub(crate) fn stored_position(rec: &GameRecord) -> Result<Position, Failure> {
    Position::from_fen(rules_of(rec)?, &rec.fen)
        .map_err(|e| damaged(rec.id, format!("its position does not read: {e}")))
}

impl Core {
    /// Replays every stored game, finished ones too, and says which do not
    /// hold together (a row that does not convert to a game, a move that
    /// does not replay): (game id, channel, why).
    pub async fn check_db(&self) -> anyhow::Result<(usize, Vec<(i64, String, String)>)> {
        let mut read = self.store.read().await?;
        let games = store::all_games(&mut read).await?;
        let total = games.len();
        let mut bad = Vec::new();
        for game in games {
            let rec = match game {
                Ok(rec) => rec,
                Err(damaged) => {
                    bad.push((damaged.id, damaged.channel, damaged.why));
                    continue;
                }
            };
            let (id, channel) = (rec.id, rec.channel.clone());
            match self.load_unlocked(&mut read, rec).await {
                Ok(_) => {}
                Err(Failure::Refused(why)) | Err(Failure::NotACommand(why)) => {
                    bad.push((id, channel, why))
                }
                Err(Failure::Storage(e)) => return Err(e.into()),
            }
        }
        Ok((total, bad))
    }

    /// A stored game, typed and replayed move by move, for a command that
    /// may change it: on PostgreSQL its row is locked first and read again
    /// ([`store::lock_game`]), so that a second command on the same game
    /// waits for the first and then sees what it did, while commands on
    /// other games go on. A game that ended in that wait is not touched.
    pub(crate) async fn load(&self, tx: &mut Tx, rec: GameRecord) -> Result<Game, Failure> {
        match self.store.backend() {
            store::Backend::Sqlite => self.load_unlocked(tx, rec).await,
            store::Backend::Postgres => {
                let id = rec.id;
                let Some(locked) = store::lock_game_with_moves(tx, id).await? else {
                    return refuse(format!("Game #{id} is gone."));
                };
                if rec.is_active() && !locked.game.is_active() {
                    return refuse(format!("Game #{id} has already ended."));
                }
                self.replay_locked(tx, locked).await
            }
        }
    }

    /// Game `id` of `channel`, locked and replayed as [`Core::load`] does,
    /// if it is still in progress there (PostgreSQL): for a game whose id
    /// came with the event, so that no lookup comes before the lock.
    /// `None`: it is not (any more), and the caller looks as usual.
    async fn load_active(
        &self,
        tx: &mut Tx,
        channel: &str,
        id: i64,
    ) -> Result<Option<Game>, Failure> {
        match store::lock_game_with_moves(tx, id).await? {
            Some(locked) if locked.game.channel == channel && locked.game.is_active() => {
                Ok(Some(self.replay_locked(tx, locked).await?))
            }
            _ => Ok(None),
        }
    }

    /// The game of a row read with its lock. After a wait for the lock the
    /// row is the one committed meanwhile, but the moves were read as the
    /// statement began: if they do not lead to the row's position, they
    /// are read again, after the lock.
    async fn replay_locked(&self, tx: &mut Tx, locked: store::Locked) -> Result<Game, Failure> {
        let id = locked.game.id;
        let mut g = match self.replay(locked.game.clone(), locked.moves) {
            Ok(g) => g,
            Err(_) => {
                let moves = store::moves(tx, id).await?;
                self.replay(locked.game, moves)?
            }
        };
        g.flips = Some(locked.flips);
        Ok(g)
    }

    /// [`Core::load`] without the lock: for reads that change nothing (a
    /// board drawn, a search started, `check-db`), which must not hold up
    /// the game's writers.
    pub(crate) async fn load_unlocked(
        &self,
        tx: &mut Tx,
        rec: GameRecord,
    ) -> Result<Game, Failure> {
        let moves = store::moves(tx, rec.id).await?;
        self.replay(rec, moves)
    }

    /// The game of `rec`, its `moves` replayed from the start.
    fn replay(&self, rec: GameRecord, moves: Vec<store::MoveRow>) -> Result<Game, Failure> {
        let id = rec.id;
        let rules = rules_of(&rec)?;
        let mut pos = Position::from_fen(rules, &rec.start_fen)
            .map_err(|e| damaged(id, format!("its start position does not read: {e}")))?;
        let (mut last, mut through) = (None, None);
        for (i, m) in moves.iter().enumerate() {
            if m.ply != i as i64 + 1 {
                return Err(damaged(id, format!("move {} is missing", i + 1)));
            }
            let mv = pos
                .parse_move(&m.coordinate)
                .map_err(|e| damaged(id, format!("move {} does not replay: {e}", m.ply)))?;
            through = pos.holes_passed(&mv);
            pos.play_unchecked(&mv);
            last = Some((mv.from, mv.to));
        }
        if pos.fen() != rec.fen {
            return Err(damaged(id, "its position does not match its moves"));
        }
        Ok(Game {
            rec,
            pos,
            moves,
            last,
            through,
            now_ms: self.time.now_ms(),
            day_seconds: self.settings.day_seconds,
            flips: None,
        })
    }
}

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

/// Who plays a game as read, damaged or not.
pub(crate) fn seats(game: &store::Read<GameRecord>) -> [&Player; 2] {
    match game {
        Ok(rec) => [rec.player(Color::White), rec.player(Color::Black)],
        Err(damaged) => [&damaged.white, &damaged.black],
    }
}
