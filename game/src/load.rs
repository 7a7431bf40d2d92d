//! Finding and loading games: the rules of a stored game, the stored
//! position for reads, the full replay for writes, `check-db`, and the game
//! a command is about.

use crate::contract::Player;
use crate::core::Core;
use crate::error::{damaged, refuse, Failure};
use crate::game::{replay, Game, Replayed};
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
    pub(crate) async fn load_active(
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
        let start = Position::from_fen(rules, &rec.start_fen)
            .map_err(|e| damaged(id, format!("its start position does not read: {e}")))?;
        let Replayed { pos, last, through } =
            replay(start, &moves, |_| {}).map_err(|e| damaged(id, e))?;
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

/// Who plays a game as read, damaged or not.
pub(crate) fn seats(game: &store::Read<GameRecord>) -> [&Player; 2] {
    match game {
        Ok(rec) => [rec.player(Color::White), rec.player(Color::Black)],
        Err(damaged) => [&damaged.white, &damaged.black],
    }
}
