//! Super Chess programs: symmetric rosters, private programs sent in direct
//! messages, and piece colours.

use super::*;

impl Core {
    /// A game named by number from a private conversation, in whichever
    /// channel it is played; only its players may ask.
    pub(super) async fn private_game(
        &self,
        tx: &mut Tx,
        me: &Player,
        id: i64,
    ) -> Result<Game, Failure> {
        match store::game_anywhere(tx, id).await? {
            Some(row) if row.white == me || row.black == me => self.load(tx, row).await,
            Some(_) => refuse(format!("You are not playing in game #{id}.")),
            None => refuse(format!("There is no game #{id}.")),
        }
    }

    /// `program`: write the roster of a symmetric challenge, send one's
    /// private program, or look at either.
    pub(super) async fn program(
        &self,
        tx: &mut Tx,
        ch: &str,
        me: &Player,
        private: bool,
        text: Option<String>,
        game: GameRef,
    ) -> Result<Done, Failure> {
        let base = variants::super16();
        let read = |t: &str| {
            Program::parse(base, t).map_err(|e| {
                Failure::User(format!(
                    "I cannot use that program: {e}. See `help program`."
                ))
            })
        };
        if private {
            return self.private_program(tx, me, text, game, read).await;
        }
        if game.is_none() {
            for c in store::pending_challenges(tx, ch).await? {
                if c.challenger != me && c.challenged != me {
                    continue;
                }
                match (c.mode.as_str(), &text) {
                    ("symmetric", None) => {
                        return Ok(Done::text(format!(
                            "{}'s challenge to {} proposes for both sides: {}.",
                            c.challenger(),
                            c.challenged(),
                            c.program.as_deref().unwrap_or("default")
                        )))
                    }
                    ("symmetric", Some(t)) if c.challenger == me => {
                        let roster = read(t)?.to_string();
                        store::set_challenge_program(tx, c.id, &roster).await?;
                        return Ok(Done {
                            engine: None,
                            deliveries: Vec::new(),
                            direct: None,
                            thread: None,
                            text: Text::from(format!(
                                "{me} proposes one roster for both sides: {roster}. "
                            ))
                            .mention(&c.challenged())
                            .say(", `accept` to play with it, or `decline`."),
                            picture: None,
                            notify: vec![c.challenged()],
                            actions: vec![Action::AnswerChallenge {
                                challenger: me.clone(),
                                to: c.challenged().id,
                            }],
                        });
                    }
                    ("symmetric", Some(_)) => {
                        return refuse(format!(
                            "{} writes the roster of this challenge. If you want another, ask for it, or decline and challenge with yours.",
                            c.challenger()
                        ))
                    }
                    ("private", Some(_)) => {
                        return refuse(
                            "Private programs are sent once the challenge is accepted, and only in a direct message to me (say `dm` and I will open one). I did not keep this one; as it was shown here, you may want another.",
                        )
                    }
                    _ => {}
                }
            }
        }
        let g = match self.pick_any(tx, ch, me, game).await {
            Ok(g) => g,
            Err(Failure::User(_)) => {
                return refuse(
                    "You have no Super Chess challenge or game here that takes a program. Start one with `challenge @someone super16 symmetric` or `challenge @someone super16 private`.",
                )
            }
            Err(e) => return Err(e),
        };
        let id = g.row.id;
        match (g.row.mode.as_str(), text) {
            ("private", Some(_)) => refuse(format!(
                "Programs in game #{id} are private: send yours to me in a direct message, `program #{id} ...` (say `dm` and I will open one). I did not keep this one; as it was shown here, you may want another."
            )),
            ("private", None) => refuse(format!(
                "Programs in game #{id} are private: ask me in a direct message, `program #{id}` (say `dm` and I will open one)."
            )),
            ("symmetric", None) => Ok(Done::text(format!(
                "Game #{id}: both sides play with {}.",
                g.row.program_white.as_deref().unwrap_or("default")
            ))),
            ("symmetric", Some(_)) => refuse(format!(
                "The roster of game #{id} was agreed at the challenge and stays for the game."
            )),
            _ => refuse(format!(
                "Game #{id} is played with every piece as it is: programs belong to Super Chess challenges in the symmetric or private mode."
            )),
        }
    }

    /// A program sent privately for a game of private programs.
    pub(super) async fn private_program(
        &self,
        tx: &mut Tx,
        me: &Player,
        text: Option<String>,
        game: GameRef,
        read: impl Fn(&str) -> Result<Program, Failure>,
    ) -> Result<Done, Failure> {
        let mut g = match game {
            Some(id) => self.private_game(tx, me, id).await?,
            None => {
                let mut rows = store::private_games_of(tx, me.id.as_str()).await?;
                if text.is_some() {
                    rows.retain(|r| {
                        (r.white == me && r.program_white.is_none())
                            || (r.black == me && r.program_black.is_none())
                    });
                }
                match rows.len() {
                    0 => {
                        return refuse(
                            "You have no game of private programs waiting for yours. Challenge with `challenge @someone super16 private` in a channel.",
                        )
                    }
                    1 => self.load(tx, rows.pop().expect("one")).await?,
                    _ => {
                        let ids: Vec<String> = rows.iter().map(|r| format!("#{}", r.id)).collect();
                        return refuse(format!(
                            "You have several such games ({}); name one, like `program {} ...`.",
                            ids.join(", "),
                            ids[0]
                        ));
                    }
                }
            }
        };
        let id = g.row.id;
        let color = g.player_color(&me.id).expect("a player of the game");
        if g.row.mode != "private" {
            return refuse(format!(
                "Game #{id} does not use private programs; `program #{id}` in its channel shows its roster."
            ));
        }
        let mine = match color {
            Color::White => &g.row.program_white,
            Color::Black => &g.row.program_black,
        };
        let Some(text) = text else {
            return Ok(Done::text(match mine {
                Some(p) => format!("Your program for game #{id}: {p}."),
                None => format!("You have not sent your program for game #{id} yet."),
            }));
        };
        if g.awaiting_programs().is_empty() {
            return refuse(format!(
                "Game #{id} has begun: programs are fixed for the whole game."
            ));
        }
        let program = read(&text)?.to_string();
        match color {
            Color::White => g.row.program_white = Some(program.clone()),
            Color::Black => g.row.program_black = Some(program.clone()),
        }
        store::set_programs(
            tx,
            id,
            "private",
            g.row.program_white.as_deref(),
            g.row.program_black.as_deref(),
        )
        .await?;
        let waiting: Vec<String> = g
            .awaiting_programs()
            .iter()
            .map(|s| s.to_string())
            .collect();
        if !waiting.is_empty() {
            return Ok(Done::text(format!(
                "Your program for game #{id} is in: {program}. Waiting for {}'s; until then you may send a new one.",
                waiting.join(" and ")
            )));
        }
        // Both are in: the game begins, announced in its own channel.
        store::set_deadline(tx, id, self.deadline(&g.row.time_control)).await?;
        self.start_clocks(tx, id, &g.row.time_control).await?;
        let first = g.player(g.pos.turn());
        store::queue_notice(
            tx,
            &g.row.channel,
            &format!(
                "Both programs are in: game #{id} begins. {first} ({}), your move.",
                g.side(g.pos.turn())
            )
            .into(),
            std::slice::from_ref(&first),
        )
        .await?;
        Ok(Done::text(format!(
            "Your program for game #{id} is in: {program}. Both programs are in: the game begins in its channel."
        )))
    }

    /// `colour`: show or choose one's piece colour in a game.
    pub(super) async fn colour(
        &self,
        tx: &mut Tx,
        ch: &str,
        me: &Player,
        colour: Option<String>,
        game: GameRef,
    ) -> Result<Done, Failure> {
        let names: Vec<&str> = PieceColour::ALL.iter().map(|c| c.name()).collect();
        let mut g = self.pick(tx, ch, me, game, true).await?;
        let side = g.player_color(&me.id).expect("own game");
        let Some(word) = colour else {
            return Ok(Done::text(format!(
                "In game #{} your pieces are {} and {}'s are {}. Choose with `colour <name>`: {}.",
                g.row.id,
                g.colour_of(side),
                g.name(!side),
                g.colour_of(!side),
                names.join(", ")
            )));
        };
        let Some(chosen) = PieceColour::from_name(&word) else {
            return refuse(format!(
                "`{word}` is not a colour I paint; choose one of {}.",
                names.join(", ")
            ));
        };
        if g.colour_of(!side) == chosen {
            return refuse(format!(
                "{}'s pieces are already {chosen} in game #{}: pick another, so the sides can be told apart.",
                g.name(!side),
                g.row.id
            ));
        }
        store::set_colour(tx, g.row.id, side == Color::White, chosen.name()).await?;
        match side {
            Color::White => g.row.colour_white = Some(chosen.name().into()),
            Color::Black => g.row.colour_black = Some(chosen.name().into()),
        }
        let picture = self.picture(tx, ch, &g, &me.id, None).await?;
        Ok(Done {
            engine: None,
            deliveries: Vec::new(),
            direct: None,
            thread: None,
            text: format!("{me}'s pieces are {chosen} now in game #{}.", g.row.id).into(),
            picture: Some(picture),
            notify: vec![],
            actions: Vec::new(),
        })
    }
}
