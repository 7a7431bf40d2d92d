//! Challenges: to a person or to the bot's engine, accepting and declining.

use super::*;

/// What a challenge asks for besides the opponent (see [`Command::Challenge`]).
pub(super) struct ChallengeOptions {
    pub variant: Option<String>,
    pub time: Option<TimeControl>,
    pub color: Option<ColorChoice>,
    pub level: Option<u8>,
    pub mode: Option<ProgramMode>,
    pub thread: Option<bool>,
}

impl Core {
    pub(super) async fn challenge(
        &self,
        tx: &mut Tx,
        ch: &str,
        me: &Player,
        opponent: &Player,
        options: ChallengeOptions,
    ) -> Result<Done, Failure> {
        let ChallengeOptions {
            variant,
            time,
            color,
            level,
            mode,
            thread,
        } = options;
        if thread == Some(true) && !self.command_style(me.id.platform()).threads {
            return refuse(
                "Games in threads of their own are for Discord; here every game is played in the room. Challenge without `thread`.",
            );
        }
        if opponent == me {
            return refuse(
                "You cannot challenge yourself. Challenge another player with `challenge @name`.",
            );
        }
        let picked = variant.is_none();
        let rules = match variant.as_deref() {
            None => variants::void(),
            Some(v) => voidmate_rules::variant(v).map_err(|e| Failure::User(format!("{e}.")))?,
        };
        let mode = mode.unwrap_or(ProgramMode::Default);
        if mode != ProgramMode::Default && !variants::programmable(rules) {
            return refuse(format!(
                "{} has no programmable pieces; `{}` is for Super Chess 16x16: `challenge @{opponent} super16 {}`.",
                rules.title(),
                mode.code(),
                mode.code()
            ));
        }
        if self.is_bot(opponent.id.as_str()) {
            if mode != ProgramMode::Default {
                return refuse(
                    "I play Super Chess 16x16 in the default mode only: the rules engine that judges the game would also know a private program, so I do not play programmed games.",
                );
            }
            return self
                .play_the_bot(tx, ch, me, opponent, rules, time, color, level, thread)
                .await;
        }
        if level.is_some() {
            return refuse(format!(
                "A level is for games against me: `challenge @{} {} 3`.",
                self.bots
                    .read()
                    .expect("not poisoned")
                    .iter()
                    .find(|b| b.id.platform() == me.id.platform())
                    .map(|b| b.name.clone())
                    .unwrap_or_else(|| "voidmate".into()),
                rules.name()
            ));
        }
        for c in store::pending_challenges(tx, ch).await? {
            if c.challenger == me {
                return refuse(format!(
                    "You already have a challenge waiting for {} here. Wait for an answer, or withdraw it with `decline @{}`.",
                    c.challenged(),
                    c.challenged()
                ));
            }
            if c.challenger == opponent && c.challenged == me {
                return refuse(format!(
                    "{opponent} has already challenged you here: say `accept` to play."
                ));
            }
        }
        let time = time.unwrap_or(TimeControl::None);
        let color = color.unwrap_or(ColorChoice::White);
        let color_name = if color == ColorChoice::White {
            "white"
        } else {
            "black"
        };
        let challenge = store::insert_challenge(
            tx,
            ch,
            me.id.as_str(),
            opponent.id.as_str(),
            rules.name(),
            &time.code(),
            color_name,
            mode.code(),
        )
        .await?;
        store::set_challenge_thread(tx, challenge, thread).await?;
        let my_side = if color == ColorChoice::White {
            Color::White
        } else {
            Color::Black
        };
        let kind = rules.kind().expect("a game of the registry");
        let side = match kind.side_name(my_side) {
            "Player 1" => "Player 1 and move first".to_string(),
            "Player 2" => "Player 2; you would move first".to_string(),
            other => other.to_string(),
        };
        let mut text = Text::new().mention(opponent).say(format!(
            ", {me} challenges you to {} ({time}{}{}); {me} would play {side}.",
            rules.title(),
            match mode {
                ProgramMode::Default => "",
                ProgramMode::Symmetric => ", one programmed roster for both",
                ProgramMode::Private => ", private programs",
            },
            match thread {
                Some(true) => ", in a thread of its own",
                _ => "",
            },
        ));
        match mode {
            ProgramMode::Default => {}
            ProgramMode::Symmetric => {
                text.push_str(&format!(
                    " Both sides would use one reprogrammed roster: {me}, write it with `program N: jump 2,1 ...` (`help program`); "
                ));
                text.push_mention(opponent);
                text.push_str(", your `accept` agrees to it.");
            }
            ProgramMode::Private => text.push_str(
                " Each side would program its own pieces, in secret, after the challenge is accepted.",
            ),
        }
        let how = if opponent.name.contains(char::is_whitespace) {
            "someone".to_string()
        } else {
            format!("@{}", opponent.name)
        };
        Ok(Done {
            engine: None,
            deliveries: Vec::new(),
            direct: None,
            thread: None,
            text: text.say(format!(
                "{} Answer with {}.",
                if picked {
                    format!(
                        " No game was named, so it is {}, our flagship, on a {} board (`variants` lists the others; `challenge {how} standard` for chess).",
                        rules.title(),
                        rules.size()
                    )
                } else {
                    String::new()
                },
                self.how_to_answer(opponent.id.platform(), "accept", "decline"),
            )),
            picture: None,
            actions: vec![Action::AnswerChallenge {
                challenger: me.clone(),
                to: opponent.id.clone(),
            }],
            notify: vec![opponent.clone()],
        })
    }

    /// A challenge to the bot: the game starts at once, and if the bot has
    /// the first move it plays it in the same reply.
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn play_the_bot(
        &self,
        tx: &mut Tx,
        ch: &str,
        me: &Player,
        bot: &Player,
        rules: &'static voidmate_rules::Rules,
        time: Option<TimeControl>,
        color: Option<ColorChoice>,
        level: Option<u8>,
        thread: Option<bool>,
    ) -> Result<Done, Failure> {
        let level = level.unwrap_or(self.engine_cfg.default_level).clamp(1, 5);
        let time = time.unwrap_or(TimeControl::None);
        let (white, black) = if color == Some(ColorChoice::Black) {
            (bot, me)
        } else {
            (me, bot)
        };
        let id = new_game(tx, ch, rules, white, black, &time.code()).await?;
        store::set_engine_level(tx, id, level as i64).await?;
        store::set_deadline(tx, id, self.deadline(&time.code())).await?;
        self.start_clocks(tx, id, &time.code()).await?;
        let row = store::game(tx, ch, id).await?.expect("just inserted");
        let g = self.load(tx, row).await?;
        let first = g.player(g.pos.turn());
        let picture = self.picture(tx, ch, &g, &me.id, None).await?;
        let thread = self
            .game_thread(tx, ch, me, thread, id, white, black, rules.title())
            .await?;
        let intro = format!(
            "Game #{id} begins: {}, {white} ({}) vs {black} ({}), {time}; I play at level {level}.",
            rules.title(),
            g.side(Color::White),
            g.side(Color::Black),
        );
        if &first == me {
            return Ok(Done {
                engine: None,
                deliveries: Vec::new(),
                direct: None,
                thread,
                text: format!("{intro} {me}, your move.").into(),
                picture: Some(picture),
                notify: vec![me.clone()],
                actions: Vec::new(),
            });
        }
        let lease = self.searches_here().then(|| self.engine_lease());
        store::set_engine_turn(tx, id, Some(self.time.now_ms()), lease).await?;
        Ok(Done {
            engine: Some(id),
            deliveries: Vec::new(),
            direct: None,
            thread,
            text: intro.into(),
            picture: Some(picture),
            notify: Vec::new(),
            actions: Vec::new(),
        })
    }

    pub(super) async fn accept(
        &self,
        tx: &mut Tx,
        ch: &str,
        me: &Player,
        from: Option<Player>,
    ) -> Result<Done, Failure> {
        let waiting: Vec<_> = store::pending_challenges(tx, ch)
            .await?
            .into_iter()
            .filter(|c| c.challenged == me && from.as_ref().is_none_or(|f| c.challenger == f))
            .collect();
        let c = match waiting.as_slice() {
            [] => {
                return refuse(match &from {
                    Some(f) => format!("{f} has not challenged you here."),
                    None => "No challenge is waiting for you here.".to_string(),
                })
            }
            [one] => one.clone(),
            many => {
                let names: Vec<String> = many.iter().map(|c| c.challenger().name).collect();
                return refuse(format!(
                    "Several players challenged you: {}. Say which, like `accept @{}`, or use the buttons.",
                    names.join(", "),
                    names[0]
                ));
            }
        };
        let rules =
            voidmate_rules::variant(&c.variant).map_err(|e| Failure::User(format!("{e}.")))?;
        let (white, black) = if c.challenger_color == "black" {
            (me.clone(), c.challenger())
        } else {
            (c.challenger(), me.clone())
        };
        let id = new_game(tx, ch, rules, &white, &black, &c.time_control).await?;
        store::close_challenge(tx, c.id, "accepted", Some(id)).await?;
        let mode = ProgramMode::parse(&c.mode).unwrap_or(ProgramMode::Default);
        let mut programs = String::new();
        match mode {
            ProgramMode::Default => {}
            ProgramMode::Symmetric => {
                // What the challenger proposed, or the default pieces if
                // nothing was written.
                let roster = c.program.clone().unwrap_or_else(|| "default".into());
                store::set_programs(tx, id, mode.code(), Some(&roster), Some(&roster)).await?;
                programs = format!(" Both sides play with this roster: {roster}.");
            }
            ProgramMode::Private => {
                store::set_programs(tx, id, mode.code(), None, None).await?;
            }
        }
        let row = store::game(tx, ch, id).await?.expect("just inserted");
        let g = self.load(tx, row).await?;
        let time = TimeControl::parse(&c.time_control).unwrap_or(TimeControl::None);
        let names = format!(
            "{white} ({}) vs {black} ({})",
            g.side(Color::White),
            g.side(Color::Black)
        );
        let picture = self.picture(tx, ch, &g, &white.id, None).await?;
        let asked = c.in_thread.map(|t| t != 0);
        let thread = self
            .game_thread(tx, ch, me, asked, id, &white, &black, rules.title())
            .await?;
        if mode == ProgramMode::Private {
            return Ok(Done {
                engine: None,
                deliveries: Vec::new(),
                direct: None,
                thread,
                text: format!(
                    "Game #{id} is set: {}, {names}, {time}, private programs. {white} and {black}: each send me your program privately, in a direct message to me (`dm` opens one; on Discord `/program` also answers only you): `program #{id} N: jump 2,1 ...`, or `program #{id} default` to keep your pieces. `help program` explains the vectors. The game begins when both are in; neither of you will see the other's.",
                    rules.title()
                ).into(),
                picture: Some(picture),
                notify: vec![white.clone(), black.clone()],
                actions: Vec::new(),
            });
        }
        store::set_deadline(tx, id, self.deadline(&c.time_control)).await?;
        self.start_clocks(tx, id, &c.time_control).await?;
        // Usually White; in Suicide Void Chess Black places the void first.
        let first = g.player(g.pos.turn());
        Ok(Done {
            engine: None,
            deliveries: Vec::new(),
            direct: None,
            thread,
            text: format!(
                "Game #{id} begins: {}, {names}, {time}.{programs} {first}, your move.",
                rules.title()
            )
            .into(),
            picture: Some(picture),
            notify: vec![first],
            actions: Vec::new(),
        })
    }

    /// The thread a game that begins is to get: where the platform has
    /// threads, and the challenge asked for one or (saying nothing) the
    /// channel's setting does.
    #[allow(clippy::too_many_arguments)]
    async fn game_thread(
        &self,
        tx: &mut Tx,
        ch: &str,
        me: &Player,
        asked: Option<bool>,
        game: i64,
        white: &Player,
        black: &Player,
        title: &str,
    ) -> Result<Option<GameThread>, Failure> {
        if !self.command_style(me.id.platform()).threads {
            return Ok(None);
        }
        let wanted = match asked {
            Some(wanted) => wanted,
            None => store::settings(tx, ch).await?.is_some_and(|s| s.threads),
        };
        Ok(wanted.then(|| GameThread::new(game, &white.name, &black.name, title)))
    }

    pub(super) async fn decline(
        &self,
        tx: &mut Tx,
        ch: &str,
        me: &Player,
        other: Option<Player>,
    ) -> Result<Done, Failure> {
        let mine: Vec<_> = store::pending_challenges(tx, ch)
            .await?
            .into_iter()
            .filter(|c| c.challenged == me || c.challenger == me)
            .filter(|c| {
                other
                    .as_ref()
                    .is_none_or(|o| c.challenger == o || c.challenged == o)
            })
            .collect();
        let c = match mine.as_slice() {
            [] => return refuse("There is no challenge here for you to decline or withdraw."),
            [one] => one.clone(),
            _ => {
                return refuse(
                    "You have several challenges here; name the player, like `decline @bob`.",
                )
            }
        };
        if c.challenger == me {
            store::close_challenge(tx, c.id, "withdrawn", None).await?;
            Ok(Done::text(format!(
                "{me} withdraws the challenge to {}.",
                c.challenged()
            )))
        } else {
            store::close_challenge(tx, c.id, "declined", None).await?;
            Ok(Done {
                engine: None,
                deliveries: Vec::new(),
                direct: None,
                thread: None,
                text: format!("{me} declines {}'s challenge.", c.challenger()).into(),
                picture: None,
                notify: vec![c.challenger()],
                actions: Vec::new(),
            })
        }
    }
}

/// Stores a new game of `rules` from its start; its id.
async fn new_game(
    tx: &mut Tx,
    ch: &str,
    rules: &'static voidmate_rules::Rules,
    white: &Player,
    black: &Player,
    time_control: &str,
) -> Result<i64, sqlx::Error> {
    let start = Position::new(rules).fen();
    let (w, b) = (white.id.as_str(), black.id.as_str());
    store::insert_game(tx, ch, rules.name(), w, b, &start, time_control).await
}
