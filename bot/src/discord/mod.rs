//! The Discord adapter: slash commands, buttons and autocomplete in, embeds
//! with board images out.
//!
//! It only translates. Every slash command becomes the core's typed command
//! (`commands`, with its choice lists converted in `choices`), a button the
//! answer its question asks for (`buttons`), a message said to the bot the
//! chat line it carries (`address` decides whether it is), and the core's
//! [`Reply`] one message (`outgoing`): the text with the players to notify,
//! an embed card for a board, the PNG, and Accept/Decline buttons for a
//! question. `responder` answers interactions within Discord's 3 seconds;
//! `send` posts to channels; `gateway` and `patience` make up for what
//! serenity 0.12 does not do as Discord documents (resuming, rate limits).
//!
//! The bot asks for no privileged intent unless configured to. Without the
//! message-content intent Discord still shows it messages that mention it
//! and replies to its own messages, so `@Voidmate e4` and a reply `e4` to a
//! board both play.
//!
//! Players are known by their Discord user id, which a rename keeps; the
//! name they go by now is what images and texts show.

mod address;
mod buttons;
mod choices;
mod commands;
mod config;
mod events;
mod gateway;
mod outgoing;
mod patience;
mod puzzle;
mod responder;
mod send;
mod tournament;

pub use config::{DiscordConfig, DiscordSection, Shards};

use crate::adapter::{self, AbortOnDrop};
use crate::game::{Core, Player, PlayerId, Refusal, Reply, Threaded};
use anyhow::{Context as _, Result};
use outgoing::Outgoing;
use poise::serenity_prelude as serenity;
use send::{refusal, send_patiently};
use serenity::{ChannelId, CreateThread, GatewayIntents, GuildId, RoleId, User, UserId};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

type Error = Box<dyn std::error::Error + Send + Sync>;
type Ctx<'a> = poise::Context<'a, Data, Error>;

/// What every handler shares (cheap to clone).
#[derive(Clone)]
pub struct Data {
    pub core: Core,
    pub cfg: DiscordConfig,
    /// The bot's own id, from the ready event.
    pub me: Arc<OnceLock<UserId>>,
    /// The bot as a player (challenging it plays the engine).
    pub bot: Arc<OnceLock<Player>>,
    /// The bot's managed role in each guild (the role Discord creates for a
    /// bot, `tags.bot_id` naming it), from the guild's create event: the
    /// member list offers it under the bot's name, so `@Voidmate` often
    /// arrives as a mention of this role.
    /// `None` for a guild known to have none (a bot invited without
    /// permissions gets no role).
    pub roles: Arc<Mutex<HashMap<GuildId, Option<RoleId>>>>,
    /// This process's shards and whether each is connected now, for the
    /// health report (`voidmate health`).
    shards: Arc<Mutex<std::collections::BTreeMap<u32, bool>>>,
}

/// The Discord namespace of player ids: `discord:80351110224678912`.
pub const PLATFORM: &str = "discord";

/// A Discord user as a player: their id, which a rename keeps, and the
/// name Discord shows for them now (the global display name, else the
/// username).
pub fn player(user: &User) -> Player {
    let name = user
        .global_name
        .clone()
        .unwrap_or_else(|| user.name.clone());
    Player::new(PlayerId::new(PLATFORM, &user.id.to_string()), name)
}

/// A server as a community, for ratings: `discord:guild:81384788765712384`.
/// Direct messages have none (their games are not rated).
pub fn community(guild: GuildId) -> String {
    format!("{PLATFORM}:guild:{guild}")
}

/// The Discord user behind a player of this platform.
pub fn user_id(p: &Player) -> Option<UserId> {
    if p.id.platform() != PLATFORM {
        return None;
    }
    p.id.local()
        .parse::<u64>()
        .ok()
        .filter(|&n| n != 0)
        .map(UserId::new)
}

impl Data {
    /// Notes that `shard` is connected or not, for the health report.
    pub fn see_shard(&self, shard: u32, connected: bool) {
        self.shards
            .lock()
            .expect("not poisoned")
            .insert(shard, connected);
        self.report_shards();
    }

    fn report_shards(&self) {
        let shards = self.shards.lock().expect("not poisoned");
        let up = shards.values().filter(|c| **c).count();
        let ids: Vec<String> = shards.keys().map(u32::to_string).collect();
        let total = match self.cfg.shards {
            Shards::Range { total, .. } => format!(" of {total}"),
            _ => String::new(),
        };
        self.core.report(
            PLATFORM,
            !shards.is_empty() && up == shards.len(),
            format!(
                "shards [{}]{total}, {up} of {} connected",
                ids.join(", "),
                shards.len()
            ),
        );
    }

    /// Remembers `role` if it is the bot's managed role in `guild`.
    pub fn see_role(&self, guild: GuildId, role: &serenity::Role) {
        let Some(&me) = self.me.get() else { return };
        if role.tags.bot_id == Some(me) {
            let mut roles = self.roles.lock().expect("not poisoned");
            roles.insert(guild, Some(role.id));
        }
    }

    /// The bot's managed role in `guild`. Known from the guild's create
    /// event; a message handled before that event (serenity handles events
    /// concurrently) asks Discord once.
    pub async fn role(&self, http: &serenity::Http, guild: Option<GuildId>) -> Option<RoleId> {
        let guild = guild?;
        if let Some(known) = self.roles.lock().expect("not poisoned").get(&guild) {
            return *known;
        }
        let me = *self.me.get()?;
        let found = match guild.roles(http).await {
            Ok(roles) => roles
                .values()
                .find(|r| r.tags.bot_id == Some(me))
                .map(|r| r.id),
            Err(e) => {
                tracing::warn!(%guild, "cannot read the guild's roles: {e}");
                return None;
            }
        };
        let mut roles = self.roles.lock().expect("not poisoned");
        *roles.entry(guild).or_insert(found)
    }

    /// Posts `out` to `channel` (shaped by `shape`, a reply reference say),
    /// then tells the core: its outbox entries are delivered, or failed
    /// (tried again later, with the same nonce).
    pub async fn post(
        &self,
        http: &serenity::Http,
        channel: ChannelId,
        out: &Outgoing,
        shape: impl Fn(serenity::CreateMessage) -> serenity::CreateMessage,
    ) -> Result<(), serenity::Error> {
        let sent = send_patiently(http, channel, || shape(out.clone().message())).await;
        match sent {
            Ok(_) => self.confirm(&out.deliveries).await,
            Err(e) => {
                for entry in &out.deliveries {
                    self.core.failed(*entry, refusal(&e)).await;
                }
                return Err(e);
            }
        }
        Ok(())
    }

    /// The answers owed in the channel before `reply` ([`Reply::before`]:
    /// earlier events' answers a process died before posting), posted first
    /// and in order, each confirmed or failed as a notice is.
    async fn post_before(&self, http: &serenity::Http, reply: &mut Reply) {
        for notice in std::mem::take(&mut reply.before) {
            let id = notice.id;
            let Ok(channel) = notice.channel.parse::<u64>() else {
                self.core.failed(id, Refusal::Permanent).await;
                continue;
            };
            let out = Outgoing::new(notice.reply);
            match send_patiently(http, ChannelId::new(channel), || out.clone().message()).await {
                Ok(_) => self.core.delivered(id).await,
                Err(e) => {
                    tracing::warn!(%channel, "cannot post an owed answer: {e}");
                    self.core.failed(id, refusal(&e)).await;
                }
            }
        }
    }

    /// The reply's outbox entries are posted: the core sends them no more.
    /// (An interaction answered directly cannot carry a nonce; confirming
    /// right after the answer keeps the window for a double post small.)
    pub async fn confirm(&self, entries: &[i64]) {
        for entry in entries {
            self.core.delivered(*entry).await;
        }
    }

    /// Where a reply goes: a game that begins in a thread of its own
    /// ([`Reply::thread`]) gets the thread here, opened in `channel`; the
    /// game moves there, its first words, board and pings are posted there,
    /// and what is left to say in `channel` is a pointer to it. If the
    /// thread cannot be opened (no permission, or `channel` is itself a
    /// thread) the game is played in `channel`, and the reply says so.
    pub async fn place(
        &self,
        http: &serenity::Http,
        channel: ChannelId,
        mut reply: Reply,
    ) -> Reply {
        self.post_before(http, &mut reply).await;
        let Some(thread) = reply.thread.take() else {
            return reply;
        };
        let opened = channel
            .create_thread(
                http,
                CreateThread::new(thread.name.as_str())
                    .kind(serenity::ChannelType::PublicThread)
                    .auto_archive_duration(serenity::AutoArchiveDuration::OneWeek),
            )
            .await;
        let what = match thread.subject {
            Threaded::Game(_) => "game",
            Threaded::Tournament(_) => "tournament",
        };
        let here = |mut reply: Reply| {
            reply.text.push_str(&format!(
                " (I could not open a thread for this {what}, so it is played here.)"
            ));
            reply
        };
        let opened = match opened {
            Ok(t) => t.id,
            Err(e) => {
                tracing::warn!(%channel, "cannot open a thread for a {what}: {e}");
                return here(reply);
            }
        };
        let (from, to) = (channel.to_string(), opened.to_string());
        let moved = match thread.subject {
            Threaded::Game(id) => self.core.move_game(id, &from, &to, &reply.deliveries).await,
            Threaded::Tournament(id) => {
                self.core
                    .move_tournament(id, &from, &to, &reply.deliveries)
                    .await
            }
        };
        match moved {
            Ok(true) => {}
            Ok(false) => return here(reply),
            Err(e) => {
                tracing::error!(subject = ?thread.subject, "cannot move to its thread: {e}");
                return here(reply);
            }
        }
        // If it fails, it is owed in the thread now: the outbox posts it there.
        let out = Outgoing::new(reply);
        let _ = self.post(http, opened, &out, |m| m).await;
        Reply::new(match thread.subject {
            Threaded::Game(id) => format!("Game #{id} is played in its own thread: <#{opened}>."),
            Threaded::Tournament(id) => {
                format!("Tournament T{id} is run in its own thread: <#{opened}>.")
            }
        })
    }
}

/// Posts the core's notices (reminders, time forfeits) as they fall due.
fn post_notices(http: Arc<serenity::Http>, data: Data) -> AbortOnDrop {
    let (core, tick) = (data.core.clone(), data.cfg.tick);
    adapter::deliver(core, tick, move |notice| {
        let http = http.clone();
        async move {
            let Ok(channel) = notice.channel.parse::<u64>() else {
                return Err(Refusal::Permanent);
            };
            let out = Outgoing::new(notice.reply);
            let channel = ChannelId::new(channel);
            match send_patiently(&http, channel, || out.clone().message()).await {
                Ok(_) => Ok(()),
                Err(e) => {
                    tracing::warn!(%channel, "cannot post to a Discord channel: {e}");
                    Err(refusal(&e))
                }
            }
        }
    })
}

/// Connects to Discord and answers until the connection ends for good.
pub async fn run_bot(core: Core, cfg: DiscordConfig) -> Result<()> {
    let mut http = serenity::HttpBuilder::new(&cfg.token);
    // With `api_url`, serenity's limiter must be off (it ignores a proxy),
    // and this forwarder waits out the rate limits instead (see
    // `patience`). Without it, serenity's limiter waits them out itself.
    let _patience = match &cfg.api_url {
        Some(url) => {
            let patience = patience::Patience::start(url)
                .await
                .context("cannot start the rate-limit forwarder")?;
            http = http.proxy(patience.url.as_str()).ratelimiter_disabled(true);
            Some(patience)
        }
        None => None,
    };
    let http = http.build();
    core.set_command_style(
        PLATFORM,
        crate::game::CommandStyle {
            prefix: "/".into(),
            reactions: false,
            buttons: true,
            reads_chat: cfg.message_content,
            threads: true,
            // Games in a server are mostly played at once.
            default_pool: crate::game::ratings::Pool::Live,
        },
    );
    let data = Data {
        core,
        cfg: cfg.clone(),
        me: Arc::default(),
        bot: Arc::default(),
        roles: Arc::default(),
        shards: Arc::new(Mutex::new(
            cfg.shards.ids().into_iter().map(|id| (id, false)).collect(),
        )),
    };
    data.report_shards();
    let ticker: Arc<Mutex<Option<AbortOnDrop>>> = Arc::new(Mutex::new(None));
    let framework = {
        let data = data.clone();
        let ticker = ticker.clone();
        poise::Framework::builder()
            .options(poise::FrameworkOptions {
                commands: commands::commands(),
                event_handler: |ctx, event| {
                    Box::pin(events::on_event(ctx.serenity_context, event, ctx.user_data))
                },
                on_error: |e| Box::pin(on_error(e)),
                // Messages that mention the bot are ours (`on_message`): poise
                // must not read them as prefix commands it does not have.
                prefix_options: poise::PrefixFrameworkOptions {
                    mention_as_prefix: false,
                    ..Default::default()
                },
                ..Default::default()
            })
            .setup(move |ctx, ready, framework| {
                Box::pin(async move {
                    let _ = data.me.set(ready.user.id);
                    // Challenging the bot itself plays its engine.
                    let bot = Player::new(
                        PlayerId::new(PLATFORM, &ready.user.id.to_string()),
                        ready.user.name.clone(),
                    );
                    let _ = data.bot.set(bot.clone());
                    data.core.add_bot(bot).await?;
                    let commands = &framework.options().commands;
                    match data.cfg.guild {
                        Some(guild) => {
                            poise::builtins::register_in_guild(ctx, commands, guild).await?
                        }
                        None => poise::builtins::register_globally(ctx, commands).await?,
                    }
                    let task = post_notices(ctx.http.clone(), data.clone());
                    *ticker.lock().expect("not poisoned") = Some(task);
                    tracing::info!(
                        "connected to Discord as {}; {} commands registered {}",
                        ready.user.name,
                        commands.len(),
                        match data.cfg.guild {
                            Some(g) => format!("in guild {g}"),
                            None => "globally".into(),
                        }
                    );
                    Ok(data)
                })
            })
            // Owners are for owner-only commands, which we do not have;
            // asking Discord for them costs a request at every start.
            .initialize_owners(false)
            .build()
    };
    let mut intents =
        GatewayIntents::GUILDS | GatewayIntents::GUILD_MESSAGES | GatewayIntents::DIRECT_MESSAGES;
    if cfg.message_content {
        intents |= GatewayIntents::MESSAGE_CONTENT;
    }
    let mut client = serenity::ClientBuilder::new_with_http(http, intents)
        .framework(framework)
        .await
        .context("cannot set up the Discord client")?;
    // Every shard connects through the relay (see `gateway`), which sends
    // resumes to their session's own address.
    let upstream = client.ws_url.lock().await.clone();
    let relay = gateway::Relay::start(upstream)
        .await
        .context("cannot start the gateway relay")?;
    *client.ws_url.lock().await = relay.url.clone();
    let started = match cfg.shards {
        Shards::Auto => client.start_autosharded().await,
        Shards::Count(n) => client.start_shards(n).await,
        // serenity reads the range's end as the last shard, inclusive.
        Shards::Range { first, last, total } => client.start_shard_range(first..last, total).await,
    };
    drop(ticker);
    drop(relay);
    started.map_err(|e| match e {
        serenity::Error::Gateway(serenity::GatewayError::DisallowedGatewayIntents) => anyhow::anyhow!(
            "Discord refused the message-content intent (close code 4014): enable it for the bot in the Developer Portal (Bot, Privileged Gateway Intents), or set message_content = false in [discord]"
        ),
        other => anyhow::Error::new(other).context("the Discord connection ended"),
    })
}

async fn on_error(error: poise::FrameworkError<'_, Data, Error>) {
    match error {
        poise::FrameworkError::ArgumentParse { ctx, input, .. } => {
            let what = input.unwrap_or_default();
            let _ = ctx
                .send(
                    poise::CreateReply::default()
                        .ephemeral(true)
                        .content(format!(
                        "I could not read the option `{what}`; pick one of the offered choices."
                    )),
                )
                .await;
        }
        poise::FrameworkError::UnknownInteraction { interaction, .. } => {
            tracing::warn!(command = %interaction.data.name, "a command I do not have");
        }
        other => {
            tracing::error!("a Discord handler failed: {other}");
        }
    }
}
