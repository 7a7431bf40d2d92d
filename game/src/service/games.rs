//! Finding and loading games: the rules of a stored game, the stored
//! position for reads, the full replay for writes, `check-db`, and the board
//! picture.

use super::*;

impl Core {
    /// The rules a stored game is played by (its programs included).
    pub(super) fn rules_of(row: &GameRow) -> Result<voidmate_rules::SharedRules, Failure> {
        let base = variants::by_name(&row.variant)
            .ok_or_else(|| damaged(row.id, format!("unknown variant '{}'", row.variant)))?;
        let programs = stored_program(base, &row.program_white)
            .and_then(|w| Ok((w, stored_program(base, &row.program_black)?)))
            .map_err(|e| damaged(row.id, format!("a program does not read: {e}")))?;
        variants::programmed(base, &programs.0, &programs.1)
            .map_err(|e| damaged(row.id, format!("its programs do not fit the game: {e}")))
    }

    /// The stored position after the last move, trusted without a replay:
    /// for reads that need only the position (suggestions, whose move it
    /// is). Every write replays the game in [`Core::load`], and `voidmate
    /// check-db` replays them all.
    pub(super) fn stored_position(row: &GameRow) -> Result<Position, Failure> {
        Position::from_fen(Self::rules_of(row)?, &row.fen)
            .map_err(|e| damaged(row.id, format!("its position does not read: {e}")))
    }

    /// Replays every stored game, finished ones too, and says which do not
    /// hold together: (game id, channel, why).
    pub async fn check_db(&self) -> anyhow::Result<(usize, Vec<(i64, String, String)>)> {
        let mut read = self.store.pool().begin().await?;
        let rows = store::all_games(&mut read).await?;
        let total = rows.len();
        let mut bad = Vec::new();
        for row in rows {
            let (id, channel) = (row.id, row.channel.clone());
            match self.load(&mut read, row).await {
                Ok(_) => {}
                Err(Failure::User(why)) | Err(Failure::Unknown(why)) => {
                    bad.push((id, channel, why))
                }
                Err(Failure::Db(e)) => return Err(e.into()),
            }
        }
        Ok((total, bad))
    }

    pub(super) async fn load(&self, tx: &mut Tx, row: GameRow) -> Result<Game, Failure> {
        let id = row.id;
        let damaged = |why: String| damaged(id, why);
        let rules = Self::rules_of(&row)?;
        let mut pos = Position::from_fen(rules, &row.start_fen)
            .map_err(|e| damaged(format!("its start position does not read: {e}")))?;
        let moves = store::moves(tx, row.id).await?;
        let mut last = None;
        for (i, m) in moves.iter().enumerate() {
            if m.ply != i as i64 + 1 {
                return Err(damaged(format!("move {} is missing", i + 1)));
            }
            let mv = pos
                .parse_move(&m.coordinate)
                .map_err(|e| damaged(format!("move {} does not replay: {e}", m.ply)))?;
            pos.play_unchecked(&mv);
            last = Some((mv.from, mv.to));
        }
        if pos.fen() != row.fen {
            return Err(damaged("its position does not match its moves".into()));
        }
        Ok(Game {
            row,
            pos,
            moves,
            last,
            now_ms: self.time.now_ms(),
            day_seconds: self.settings.day_seconds,
        })
    }

    /// The game a command is about. `mine`: the author must play in it (and
    /// it must be in progress).
    pub(super) async fn pick(
        &self,
        tx: &mut Tx,
        ch: &str,
        me: &Player,
        game: GameRef,
        mine: bool,
    ) -> Result<Game, Failure> {
        if let Some(id) = game {
            let Some(row) = store::game(tx, ch, id).await? else {
                return refuse(format!("There is no game #{id} in this channel."));
            };
            let me = me.id.as_str();
            if mine && row.white != me && row.black != me {
                return refuse(format!("You are not playing in game #{id}."));
            }
            if mine && row.status != "active" {
                return refuse(format!(
                    "Game #{id} is over ({}).",
                    row.result.as_deref().unwrap_or("*")
                ));
            }
            return self.load(tx, row).await;
        }
        let active = store::active_games(tx, ch).await?;
        let own: Vec<GameRow> = active
            .iter()
            .filter(|g| g.white == me.id.as_str() || g.black == me.id.as_str())
            .cloned()
            .collect();
        let candidates = if mine || !own.is_empty() { own } else { active };
        match candidates.len() {
            0 if mine => {
                refuse("You have no game in progress here. Start one with `challenge @someone`.")
            }
            0 => refuse("There is no game in progress here. Start one with `challenge @someone`."),
            1 => self.load(tx, candidates.into_iter().next().unwrap()).await,
            n => {
                let list: Vec<String> = candidates
                    .iter()
                    .map(|g| {
                        let white = Player::stored(&g.white, g.white_name.clone());
                        let black = Player::stored(&g.black, g.black_name.clone());
                        format!("#{} {white} vs {black} ({})", g.id, g.variant)
                    })
                    .collect();
                refuse(format!(
                    "There are {n} games here: {}. Add the game number, like `board #{}`.",
                    list.join(", "),
                    candidates[0].id
                ))
            }
        }
    }

    /// A game to look at: named, in progress, or the author's latest.
    pub(super) async fn pick_any(
        &self,
        tx: &mut Tx,
        ch: &str,
        me: &Player,
        game: GameRef,
    ) -> Result<Game, Failure> {
        match self.pick(tx, ch, me, game, false).await {
            Err(Failure::User(msg)) if game.is_none() => {
                match store::latest_game(tx, ch, me.id.as_str()).await? {
                    Some(row) => self.load(tx, row).await,
                    None => Err(Failure::User(msg)),
                }
            }
            other => other,
        }
    }

    pub(super) async fn theme(&self, tx: &mut Tx, ch: &str) -> Result<Theme, Failure> {
        Ok(store::settings(tx, ch)
            .await?
            .and_then(|s| Theme::from_name(&s.theme))
            .unwrap_or(self.settings.theme))
    }

    /// `text` with the board of game `id` as it ended (read again after the
    /// result is stored), seen from `viewer`'s side.
    pub(super) async fn final_board(
        &self,
        tx: &mut Tx,
        ch: &str,
        id: i64,
        viewer: &Player,
        text: String,
    ) -> Result<Done, Failure> {
        let Some(row) = store::game(tx, ch, id).await? else {
            return Ok(Done::text(text));
        };
        let g = self.load(tx, row).await?;
        let picture = self.picture(tx, ch, &g, &viewer.id, None).await?;
        Ok(Done::board(text, picture))
    }

    pub(super) async fn picture(
        &self,
        tx: &mut Tx,
        ch: &str,
        g: &Game,
        viewer: &PlayerId,
        select: Option<Square>,
    ) -> Result<Picture, Failure> {
        let orientation = g.player_color(viewer).unwrap_or_else(|| g.pos.turn());
        let status = g.status();
        let alt = match (&g.moves.last(), g.row.status.as_str()) {
            (_, "finished") => format!("Game #{}: final position, {status}", g.row.id),
            (Some(m), _) => format!("Game #{} after {}: {status}", g.row.id, m.san),
            (None, _) => format!("Game #{}: starting position, {status}", g.row.id),
        };
        let finished = g.row.status == "finished";
        let board = BoardCard {
            game: g.row.id,
            variant: g.pos.rules().title().to_string(),
            white: g.name(Color::White),
            black: g.name(Color::Black),
            to_move: (!finished).then(|| g.name(g.pos.turn())),
            last_move: g.moves.last().map(|m| m.san.clone()),
            result: finished.then(|| g.status()),
            time_control: TimeControl::parse(&g.row.time_control)
                .map(|t| t.to_string())
                .unwrap_or_else(|| g.row.time_control.clone()),
        };
        Ok(Picture {
            at: Some((g.row.id, g.ply())),
            board: Some(board),
            pos: g.pos.clone(),
            opts: RenderOptions {
                orientation,
                theme: self.theme(tx, ch).await?,
                last_move: g.last,
                select,
                arrows: Vec::new(),
                caption: Some(Caption {
                    white: g.name(Color::White),
                    black: g.name(Color::Black),
                    status,
                    sides: (g.kind() == GameKind::Super16)
                        .then(|| [g.side(Color::White).into(), g.side(Color::Black).into()]),
                }),
                colours: g.colours(),
            },
            alt,
        })
    }
}
