//! Playing moves: named or bare, clocks, flags, the move list and suggestions.

use super::*;

impl Core {
    /// Plays `text` as `me`'s move in `g`. `sent_ms` is when the platform
    /// received the move, if it says (see [`Incoming::sent_ms`]).
    pub(super) async fn play(
        &self,
        tx: &mut Tx,
        ch: &str,
        me: &Player,
        mut g: Game,
        text: &str,
        sent_ms: Option<i64>,
    ) -> Result<Done, Failure> {
        let color = g.player_color(&me.id).expect("own game");
        let waiting = g.awaiting_programs();
        if !waiting.is_empty() {
            return refuse(format!(
                "Game #{} has not begun: I am waiting for the program of {}, sent to me privately (`program #{} ...` in a direct message).",
                g.row.id,
                and_list(&waiting),
                g.row.id
            ));
        }
        if g.pos.turn() != color {
            return refuse(format!(
                "It is not your turn in game #{}: {} is to move.",
                g.row.id,
                g.name(g.pos.turn())
            ));
        }
        // A correspondence move counts if it was sent before the deadline,
        // even when the bot reads it later (it was down); one sent after
        // the deadline loses on time, whatever the periodic check did yet.
        if let (Some(deadline), Some(TimeControl::Days(_))) =
            (g.row.deadline_at, TimeControl::parse(&g.row.time_control))
        {
            let at = sent_ms
                .unwrap_or_else(|| self.time.now_ms())
                .div_euclid(1000);
            if at >= deadline {
                let (text, notify) = self.lost_on_time(tx, &g).await?;
                return Ok(Done {
                    notify,
                    ..Done::text(text)
                });
            }
        }
        let mv = g.pos.parse_move(text).map_err(|e| {
            if g.row.mode == "private" {
                // Why a move is refused could tell what the pieces can do.
                Failure::User(format!(
                    "That is not a legal move in game #{}. In a game of private programs I do not say why in public: `moves #{}` in a direct message to me lists yours.",
                    g.row.id, g.row.id
                ))
            } else {
                Failure::User(format!("{e}."))
            }
        })?;
        // A clock game: the mover's time must not have run out already.
        let increment = match TimeControl::parse(&g.row.time_control) {
            Some(TimeControl::Clock { increment, .. }) => Some(increment as i64 * 1000),
            _ => None,
        };
        let left = increment.and(g.clock_left(color));
        if left.is_some_and(|l| l <= 0) {
            return self.flag_fell(tx, g).await;
        }
        let san = g.pos.san(&mv);
        let coordinate = g.pos.coordinate(&mv);
        // What the floor did is told with the move (Void Chess only).
        let before = (g.kind() == GameKind::Void).then(|| g.pos.clone());
        g.pos.play_unchecked(&mv);
        let ply = g.ply() + 1;
        if !store::append_move(
            tx,
            &g.row,
            ply,
            &san,
            &coordinate,
            me.id.as_str(),
            &g.pos.fen(),
        )
        .await?
        {
            return refuse(format!(
                "Game #{} changed while I read your move (another command came first). Look at the `board` and try again.",
                g.row.id
            ));
        }
        g.moves.push(MoveRow {
            ply,
            san: san.clone(),
            coordinate,
        });
        g.last = Some((mv.from, mv.to));
        let next = g.pos.turn();
        let mut text = format!("#{}: {me} played {san}.", g.row.id);
        if let Some(before) = &before {
            text.push_str(&g.floor_news(before, &mv));
        }
        let mut notify = Vec::new();
        let mut engine = None;
        let over = g.pos.outcome();
        if let (Some(inc), Some(left)) = (increment, left) {
            // Stop the mover's clock, add the increment, start the other's.
            let mine = left + inc;
            let (w, b) = match color {
                Color::White => (mine, g.row.black_ms.unwrap_or(0)),
                Color::Black => (g.row.white_ms.unwrap_or(0), mine),
            };
            let started = over.is_none().then_some(g.now_ms);
            store::set_clocks(tx, g.row.id, w, b, started).await?;
            g.row.white_ms = Some(w);
            g.row.black_ms = Some(b);
            g.row.turn_started_ms = started;
            g.row.low_time_warned = false;
        }
        if let Some(outcome) = over {
            let (result, termination) = (outcome.score(), outcome.termination().to_string());
            store::finish(tx, g.row.id, result, &termination).await?;
            g.row.status = "finished".into();
            g.row.result = Some(result.into());
            g.row.termination = Some(termination.clone());
            let _ = write!(text, " {outcome}. Result: {result}.");
            store::set_deadline(tx, g.row.id, None).await?;
        } else {
            let deadline = self.deadline(&g.row.time_control);
            store::set_deadline(tx, g.row.id, deadline).await?;
            // The board drawn below shows the new move's time.
            g.row.deadline_at = deadline.map(|d| d.at);
            g.row.reminded = false;
            if self.is_bot(&g.row.seat(next)) {
                engine = Some(g.row.id);
                // Queued, and taken at once if this process searches.
                let lease = self.searches_here().then(|| self.engine_lease());
                store::set_engine_turn(tx, g.row.id, Some(g.now_ms), lease).await?;
            } else {
                if g.row.engine_wanted_ms.is_some() {
                    // The engine's move: its turn is over.
                    store::set_engine_turn(tx, g.row.id, None, None).await?;
                }
                let _ = write!(text, " {}, your move.", g.name(next));
                notify.push(g.player(next));
            }
            if let Some(c) = g.clocks_text() {
                let _ = write!(text, " {}{}.", c[..1].to_uppercase(), &c[1..]);
            }
            if let Some(d) = deadline {
                let left = d.at - self.time.now_ms().div_euclid(1000);
                let _ = write!(
                    text,
                    " Time for this move: {}.",
                    human_duration(left, self.settings.day_seconds)
                );
            }
        }
        let picture = self.picture(tx, ch, &g, &g.player(next).id, None).await?;
        Ok(Done {
            engine,
            deliveries: Vec::new(),
            direct: None,
            thread: None,
            text: text.into(),
            picture: Some(picture),
            notify,
            actions: Vec::new(),
        })
    }

    /// The side to move ran out of time: the other side wins (even when
    /// the flag is only noticed as a late move arrives).
    pub(super) async fn flag_fell(&self, tx: &mut Tx, g: Game) -> Result<Done, Failure> {
        let loser = g.pos.turn();
        let result = if loser == Color::White { "0-1" } else { "1-0" };
        store::finish(tx, g.row.id, result, "time forfeit").await?;
        store::set_deadline(tx, g.row.id, None).await?;
        let (w, b) = match loser {
            Color::White => (0, g.row.black_ms.unwrap_or(0)),
            Color::Black => (g.row.white_ms.unwrap_or(0), 0),
        };
        store::set_clocks(tx, g.row.id, w, b, None).await?;
        Ok(Done {
            engine: None,
            deliveries: Vec::new(),
            direct: None,
            thread: None,
            text: format!(
                "Game #{}: {}'s time ran out. {} wins on time ({result}).",
                g.row.id,
                g.name(loser),
                g.name(!loser)
            )
            .into(),
            picture: None,
            notify: vec![g.player(loser), g.player(!loser)],
            actions: Vec::new(),
        })
    }

    /// Starts the clocks of a new game with a clock time control.
    pub(super) async fn start_clocks(
        &self,
        tx: &mut Tx,
        id: i64,
        time_control: &str,
    ) -> Result<(), Failure> {
        if let Some(TimeControl::Clock { minutes, .. }) = TimeControl::parse(time_control) {
            let base = minutes as i64 * 60_000;
            store::set_clocks(tx, id, base, base, Some(self.time.now_ms())).await?;
        }
        Ok(())
    }

    /// A line that may be a bare move (`e4`, `e4 #2`), said to the bot or
    /// not (see [`Incoming::addressed`]).
    pub(super) async fn bare(
        &self,
        tx: &mut Tx,
        ev: &Incoming,
        text: &str,
        game: GameRef,
    ) -> Result<Done, Failure> {
        let (ch, me, addressed, sent_ms) =
            (ev.channel.as_str(), &ev.author, ev.addressed, ev.sent_ms);
        let unknown =
            || Failure::Unknown(text.split_whitespace().next().unwrap_or(text).to_string());
        let bare_on = store::settings(tx, ch)
            .await?
            .map(|s| s.bare_moves)
            .unwrap_or(self.settings.bare_moves);
        if !bare_on {
            return Err(unknown());
        }
        if let Some(id) = game {
            // `e4 #2` or `#2 e4`: that game, as `move e4 #2` would.
            let g = self.pick(tx, ch, me, Some(id), true).await?;
            return self.play_if_move(tx, ch, me, g, text, sent_ms).await;
        }
        let mine: Vec<GameRow> = store::active_games(tx, ch)
            .await?
            .into_iter()
            .filter(|g| g.white == me || g.black == me)
            .collect();
        let mut to_move = Vec::new();
        let mut waiting = Vec::new();
        for row in mine {
            let g = self.load(tx, row).await?;
            if g.player_color(&me.id) == Some(g.pos.turn()) {
                to_move.push(g);
            } else {
                waiting.push(g);
            }
        }
        let looks_like_move = |g: &Game| {
            !matches!(
                g.pos.parse_move(text).map_err(|e| e.kind),
                Err(MoveErrorKind::Malformed | MoveErrorKind::TooLong)
            )
        };
        match to_move.len() {
            0 => match waiting.as_slice() {
                [g] if looks_like_move(g) => refuse(format!(
                    "It is not your turn in game #{}: {} is to move.",
                    g.row.id,
                    g.name(g.pos.turn())
                )),
                // Someone who speaks to the bot with a move and has no game
                // here is told what to do next (chatter stays unanswered).
                [] if addressed && looks_like_a_move(text) => {
                    let waiting = store::pending_challenges(tx, ch).await?;
                    if let Some(c) = waiting.iter().find(|c| c.challenged == me) {
                        refuse(format!(
                            "{} challenged you to {}: say `accept` to begin, then play {text}.",
                            c.challenger(),
                            variants::by_name(&c.variant)
                                .map(|r| r.title())
                                .unwrap_or("a game")
                        ))
                    } else if let Some(c) = waiting.iter().find(|c| c.challenger == me) {
                        refuse(format!(
                            "Your challenge to {} waits for their `accept`; play {text} once the game begins.",
                            c.challenged()
                        ))
                    } else {
                        refuse(format!(
                            "You have no game here to play {text} in. Start one with `challenge @someone` (Void Chess on a 9x9 board unless you name another game; `variants` lists them)."
                        ))
                    }
                }
                _ => Err(unknown()),
            },
            1 => {
                let g = to_move.pop().unwrap();
                self.play_if_move(tx, ch, me, g, text, sent_ms).await
            }
            _ => {
                let ids: Vec<String> = to_move.iter().map(|g| format!("#{}", g.row.id)).collect();
                refuse(format!(
                    "It is your move in several games here ({}); say which, like `move {text} {}`.",
                    ids.join(", "),
                    ids[0]
                ))
            }
        }
    }

    /// A bare move in `g`: text that is no move at all is no command
    /// either; anything else is played, or refused with its reason.
    async fn play_if_move(
        &self,
        tx: &mut Tx,
        ch: &str,
        me: &Player,
        g: Game,
        text: &str,
        sent_ms: Option<i64>,
    ) -> Result<Done, Failure> {
        match g.pos.parse_move(text) {
            Err(e) if matches!(e.kind, MoveErrorKind::Malformed | MoveErrorKind::TooLong) => Err(
                Failure::Unknown(text.split_whitespace().next().unwrap_or(text).to_string()),
            ),
            _ => self.play(tx, ch, me, g, text, sent_ms).await,
        }
    }

    pub(super) async fn moves(
        &self,
        tx: &mut Tx,
        ch: &str,
        me: &Player,
        private: bool,
        square: Option<String>,
        game: GameRef,
    ) -> Result<Done, Failure> {
        let g = match (private, game) {
            (true, Some(id)) => self.private_game(tx, me, id).await?,
            _ => self.pick_any(tx, ch, me, game).await?,
        };
        if g.row.mode == "private" && g.row.status == "active" {
            // The legal moves show what the pieces can do: only the player
            // to move may see them, and only privately.
            if !private {
                return refuse(format!(
                    "The moves of game #{} would show a private program: ask me in a direct message, `moves #{}` (say `dm` and I will open one).",
                    g.row.id, g.row.id
                ));
            }
            if g.player_color(&me.id) != Some(g.pos.turn()) || !g.awaiting_programs().is_empty() {
                return refuse(format!(
                    "I list the moves of game #{} only to the player to move, on their turn.",
                    g.row.id
                ));
            }
        }
        let size = g.pos.rules().size();
        let select =
            match square {
                None => None,
                Some(s) => Some(Square::parse(&s).filter(|&q| size.contains(q)).ok_or_else(
                    || {
                        Failure::User(format!(
                            "`{s}` is not a square of this board ({}).",
                            size.describe()
                        ))
                    },
                )?),
            };
        let legal = g.pos.legal_moves();
        let mut chosen: Vec<String> = legal
            .iter()
            .filter(|m| select.is_none_or(|s| m.from == s))
            .map(|m| g.pos.san(m))
            .collect();
        // A capture that moves the void comes once per square: list it once.
        // (Black Holes' moves through holes name a second square too, but
        // each is a move of its own.)
        let relocating = g.pos.rules().variant().voids() == voidmate_rules::variant::Voids::Placed
            && legal.iter().any(|m| m.via.is_some());
        if relocating {
            chosen = chosen
                .iter()
                .map(|s| match s.split_once('@') {
                    Some((main, _)) => format!("{main}@…"),
                    None => s.clone(),
                })
                .collect();
            chosen.dedup();
        }
        let text = match (select, chosen.is_empty()) {
            (_, _) if g.row.status == "finished" => {
                format!("Game #{} is over: no moves.", g.row.id)
            }
            (Some(s), true) => match g.pos.piece_at(s) {
                Some(p) if p.color == g.pos.turn() => {
                    format!("The {} on {s} has no legal move.", p.role)
                }
                _ => format!("There is no piece of the side to move on {s}."),
            },
            (None, true) => "There are no legal moves.".to_string(),
            (_, false) => format!("{} to move: {}", g.name(g.pos.turn()), chosen.join(" ")),
        };
        let text = if relocating && !chosen.is_empty() {
            format!(
                "{text}\nA capture moves the void too: add an empty square, like {}.",
                g.pos.san(&legal[0])
            )
        } else {
            text
        };
        let picture = self.picture(tx, ch, &g, &me.id, select).await?;
        Ok(Done::board(text, picture))
    }

    /// Legal moves, in SAN, of `author`'s game in `channel` where it is
    /// their move, keeping those that start with `typed` (ignoring case; a
    /// coordinate prefix such as `g1` works too), at most `limit`. For
    /// autocompletion: a hint only, every move is checked again when played.
    pub async fn suggest_moves(
        &self,
        channel: &str,
        author: &PlayerId,
        typed: &str,
        limit: usize,
    ) -> Vec<String> {
        isolate::isolated(self.suggestions(channel, author, typed, limit))
            .await
            .unwrap_or_else(|why| {
                tracing::error!(channel, author = %author, typed, "move suggestions panicked: {why}");
                Vec::new()
            })
    }

    pub(super) async fn suggestions(
        &self,
        channel: &str,
        author: &PlayerId,
        typed: &str,
        limit: usize,
    ) -> Vec<String> {
        let Ok(mut tx) = self.store.pool().begin().await else {
            return Vec::new();
        };
        let Ok(games) = store::active_games(&mut tx, channel).await else {
            return Vec::new();
        };
        let typed = typed.trim().to_ascii_lowercase();
        // Complete moves only: a pick is played as it is. Moves that differ
        // only in where the void goes (`exd5@e2`, `exd5@e3`) share a group,
        // and the groups take turns, so every capture shows within `limit`.
        let mut groups: Vec<(String, Vec<String>)> = Vec::new();
        // Every keystroke asks: read the stored position, never a replay.
        for row in games
            .into_iter()
            .filter(|g| g.white == author.as_str() || g.black == author.as_str())
        {
            let Ok(pos) = Self::stored_position(&row) else {
                continue;
            };
            let mover = match pos.turn() {
                Color::White => &row.white,
                Color::Black => &row.black,
            };
            if mover != author.as_str() {
                continue;
            }
            for mv in pos.legal_moves().iter() {
                let san = pos.san(mv);
                if !(san.to_ascii_lowercase().starts_with(&typed)
                    || pos.coordinate(mv).starts_with(&typed))
                {
                    continue;
                }
                let group = match san.find('@').filter(|&i| i > 0) {
                    Some(at) => san[..at].to_string(),
                    None => san.clone(),
                };
                match groups.iter_mut().find(|(g, _)| *g == group) {
                    Some((_, moves)) if !moves.contains(&san) => moves.push(san),
                    Some(_) => {}
                    None => groups.push((group, vec![san])),
                }
            }
        }
        let mut out = Vec::new();
        let mut round = 0;
        while out.len() < limit {
            let mut any = false;
            for (_, moves) in &groups {
                if let Some(m) = moves.get(round) {
                    any = true;
                    if out.len() < limit {
                        out.push(m.clone());
                    }
                }
            }
            if !any {
                break;
            }
            round += 1;
        }
        out
    }
}

/// Whether `text` reads as a move in some game (a hint for someone with no
/// game to play it in): the reader finds a move in it at the start of one
/// of them. Suicide Void Chess opens with the void's placement, where any
/// text is refused as the wrong kind of move, so it tells nothing here.
fn looks_like_a_move(text: &str) -> bool {
    use voidmate_rules::variant::Voids;
    voidmate_rules::GameKind::ALL.iter().any(|kind| {
        kind.rules().variant().voids() != Voids::Placed
            && !matches!(
                Position::new(kind.rules())
                    .parse_move(text)
                    .map_err(|e| e.kind),
                Err(MoveErrorKind::Malformed | MoveErrorKind::TooLong)
            )
    })
}
