//! Information: the games in a channel, the rules help, and channel settings.

use super::*;

impl Core {
    pub(super) async fn games(&self, tx: &mut Tx, ch: &str) -> Result<Done, Failure> {
        let games = store::active_games(tx, ch).await?;
        let challenges = store::pending_challenges(tx, ch).await?;
        if games.is_empty() && challenges.is_empty() {
            return Ok(Done::text(
                "No games or challenges here. Start one with `challenge @someone`.",
            ));
        }
        let mut text = String::new();
        for row in games {
            match self.load(tx, row.clone()).await {
                Ok(g) => {
                    let _ = writeln!(
                        text,
                        "{}: move {}, {}",
                        g.title(),
                        g.pos.board().fullmove_number(),
                        g.status()
                    );
                }
                Err(_) => {
                    let _ = writeln!(
                        text,
                        "#{} {} vs {}: damaged record",
                        row.id,
                        Player::stored(&row.white, row.white_name.clone()),
                        Player::stored(&row.black, row.black_name.clone())
                    );
                }
            }
        }
        for c in challenges {
            let _ = writeln!(
                text,
                "Challenge: {} invites {} to {} ({}), waiting",
                c.challenger(),
                c.challenged(),
                c.variant,
                c.time_control
            );
        }
        Ok(Done::text(text.trim_end()))
    }

    /// `rules`: a game's overview, or the topic a question is about, in the
    /// game named or else the one being played here.
    pub(super) async fn rules(
        &self,
        tx: &mut Tx,
        ch: &str,
        me: &Player,
        query: &str,
    ) -> Result<Done, Failure> {
        let q = query.trim();
        if q.is_empty() {
            let names: Vec<&str> = variants::all().map(|r| r.name()).collect();
            return Ok(Done::text(format!(
                "Ask about a game or a rule: `rules void`, `rules minister`, `rules can the minister cross a void?`. Games: {}.",
                names.join(", ")
            )));
        }
        // The game being played here, if one is (the author's, else the
        // only one): its rules answer first.
        let context = match self.pick(tx, ch, me, None, false).await {
            Ok(g) => Some(g.kind()),
            Err(Failure::Db(e)) => return Err(Failure::Db(e)),
            Err(_) => None,
        };
        let topic = match help::answer(q, context) {
            help::Found::Topic(t) => t,
            help::Found::Game(kind) => {
                let rules = kind.rules();
                let topics = help::topics_of(kind);
                let keys: Vec<&str> = topics.iter().map(|t| t.key).collect();
                let intro = topics.first().map(|t| t.text).unwrap_or("");
                return Ok(Done::text(format!(
                    "{}: {intro}\nTopics: {}. Ask `rules {} <topic>`.",
                    rules.title(),
                    keys.join(", "),
                    rules.name()
                )));
            }
            help::Found::Nothing(kind) => {
                let keys: Vec<&str> = help::topics_of(kind).iter().map(|t| t.key).collect();
                return refuse(format!(
                    "I found nothing about that. {} topics: {}.",
                    kind.title(),
                    keys.join(", ")
                ));
            }
        };
        let text = format!("{}\n{}", topic.title, topic.text);
        let picture = match &topic.diagram {
            None => None,
            Some(d) => {
                let rules = topic.variant.rules();
                let pos = Position::from_fen(rules, d.fen).expect("diagram FENs are tested");
                Some(Picture {
                    at: None,
                    pos,
                    opts: RenderOptions {
                        theme: self.theme(tx, ch).await?,
                        select: d.select.and_then(Square::parse),
                        ..Default::default()
                    },
                    alt: format!("Diagram: {}", d.caption),
                    board: None,
                })
            }
        };
        Ok(Done {
            engine: None,
            deliveries: Vec::new(),
            direct: None,
            thread: None,
            text: text.into(),
            picture,
            notify: vec![],
            actions: Vec::new(),
        })
    }

    pub(super) async fn settings(
        &self,
        tx: &mut Tx,
        ev: &Incoming,
        key: Option<String>,
        value: Option<String>,
    ) -> Result<Done, Failure> {
        let ch = ev.channel.as_str();
        let mut s = store::settings(tx, ch).await?.unwrap_or(Settings {
            bare_moves: self.settings.bare_moves,
            theme: self.settings.theme.name().to_string(),
            threads: false,
        });
        let threads_here = self.command_style(ev.author.id.platform()).threads;
        match (key.as_deref(), value.as_deref()) {
            (None, _) => {}
            (Some("bare-moves"), Some("on")) => s.bare_moves = true,
            (Some("bare-moves"), Some("off")) => s.bare_moves = false,
            (Some("threads"), Some(v @ ("on" | "off"))) if threads_here => s.threads = v == "on",
            (Some("threads"), _) if !threads_here => {
                return refuse("Games in threads of their own are for Discord; here every game is played in the room.")
            }
            (Some("theme"), Some(t)) => {
                let theme = Theme::from_name(t).ok_or_else(|| {
                    Failure::User(format!(
                        "`{t}` is not a theme; use classic or high-contrast."
                    ))
                })?;
                s.theme = theme.name().to_string();
            }
            _ => {
                return refuse(if threads_here {
                    "Settings: `settings bare-moves on|off`, `settings theme classic|high-contrast` or `settings threads on|off`."
                } else {
                    "Settings: `settings bare-moves on|off` or `settings theme classic|high-contrast`."
                })
            }
        }
        if key.is_some() {
            store::save_settings(tx, ch, &s).await?;
        }
        let on = |b: bool| if b { "on" } else { "off" };
        let mut text = format!(
            "Settings here: bare moves {}, theme {}",
            on(s.bare_moves),
            s.theme
        );
        if threads_here {
            let _ = write!(text, ", new games in their own thread {}", on(s.threads));
        }
        text.push('.');
        if s.bare_moves && !self.command_style(ev.author.id.platform()).reads_chat {
            text.push_str(
                " Bare moves need the message-content intent, which this bot does not ask for (`message_content = true` in its configuration): until then play with `/move`, a mention, or a reply to the board with the ping on.",
            );
        }
        Ok(Done::text(text))
    }
}
