//! Events other than slash commands: buttons pressed, messages said to
//! the bot, and what the gateway tells about guilds, roles and shards.

use super::address;
use super::buttons::parse_custom_id;
use super::outgoing::Outgoing;
use super::responder::Responder;
use super::send::discord_code;
use super::tournament;
use super::{community, player, Data, Error};
use crate::game::command::OfferKind;
use crate::game::{Action, Incoming, Input, Mentioned};
use poise::serenity_prelude as serenity;
use serenity::builder::Builder as _;
use serenity::{CreateInteractionResponse, EditMessage};

pub async fn on_event(
    ctx: &serenity::Context,
    event: &serenity::FullEvent,
    data: &Data,
) -> Result<(), Error> {
    match event {
        serenity::FullEvent::InteractionCreate {
            interaction: serenity::Interaction::Component(press),
        } => on_button(ctx, press, data).await,
        serenity::FullEvent::Message { new_message } => on_message(ctx, new_message, data).await,
        serenity::FullEvent::GuildCreate { guild, .. } => {
            for role in guild.roles.values() {
                data.see_role(guild.id, role);
            }
            // Known now: with no managed role, none is asked for later.
            let mut roles = data.roles.lock().expect("not poisoned");
            roles.entry(guild.id).or_insert(None);
            Ok(())
        }
        serenity::FullEvent::Ready { data_about_bot } => {
            let shard = data_about_bot.shard.map(|s| s.id.0).unwrap_or(0);
            data.see_shard(shard, true);
            Ok(())
        }
        serenity::FullEvent::ShardStageUpdate { event } => {
            let connected = event.new == serenity::ConnectionStage::Connected;
            data.see_shard(event.shard_id.0, connected);
            Ok(())
        }
        serenity::FullEvent::GuildRoleCreate { new } => {
            data.see_role(new.guild_id, new);
            Ok(())
        }
        serenity::FullEvent::GuildRoleUpdate { new, .. } => {
            data.see_role(new.guild_id, new);
            Ok(())
        }
        _ => Ok(()),
    }
}

async fn on_button(
    ctx: &serenity::Context,
    press: &serenity::ComponentInteraction,
    data: &Data,
) -> Result<(), Error> {
    let anyones = tournament::parse_button(&press.data.custom_id)
        .or_else(|| super::puzzle::parse_button(&press.data.custom_id));
    if let Some(cmd) = anyones {
        // Join/Leave, a puzzle's Hint/Solution/Next: anyone may press, for
        // themselves; the buttons stay for the next player.
        let respond = Responder {
            http: &ctx.http,
            id: press.id,
            token: &press.token,
            channel: press.channel_id,
            direct: press.guild_id.is_none(),
        };
        return respond.answer(data, pressed(press, cmd)).await;
    }
    let Some((action, accept)) = parse_custom_id(&press.data.custom_id) else {
        // A button from an older version of the bot, or one we never made:
        // every interaction gets an answer, this one to its presser alone.
        let out = Outgoing::error(
            "That button is no longer valid. Use the slash commands (`/games` lists what is open here).",
        );
        CreateInteractionResponse::Message(out.response())
            .execute(&ctx.http, (press.id, press.token.as_str()))
            .await?;
        return Ok(());
    };
    let who = player(&press.user);
    let respond = Responder {
        http: &ctx.http,
        id: press.id,
        token: &press.token,
        channel: press.channel_id,
        direct: press.guild_id.is_none(),
    };
    if &who.id != action.who() {
        let what = match action {
            Action::AnswerChallenge { .. } => "challenge",
            Action::AnswerOffer {
                kind: OfferKind::Draw,
                ..
            } => "draw offer",
            Action::AnswerOffer {
                kind: OfferKind::Takeback,
                ..
            } => "takeback request",
        };
        let out = Outgoing::error(format!(
            "This is not your game: only <@{}> can answer this {what}.",
            action.who().local()
        ));
        CreateInteractionResponse::Message(out.response())
            .execute(&ctx.http, (press.id, press.token.as_str()))
            .await?;
        return Ok(());
    }
    respond
        .answer(data, pressed(press, action.answer(accept)))
        .await?;
    // The question is answered: its buttons go (unless the message went
    // first: 10008 Unknown Message, `topics/opcodes-and-status-codes`).
    let edited = press
        .channel_id
        .edit_message(
            &ctx.http,
            press.message.id,
            EditMessage::new().components(Vec::new()),
        )
        .await;
    match edited {
        Err(e) if discord_code(&e) != Some(10008) => Err(e.into()),
        _ => Ok(()),
    }
}

/// A button press as the core reads it: its presser giving `cmd`.
fn pressed(press: &serenity::ComponentInteraction, cmd: crate::game::command::Command) -> Incoming {
    Incoming {
        event_id: format!("discord:{}", press.id),
        channel: press.channel_id.to_string(),
        author: player(&press.user),
        input: Input::Command(cmd),
        mentions: Vec::new(),
        addressed: true,
        private: false,
        community: press.guild_id.map(community),
        sent_ms: None,
        moderator: moderates(press.member.as_ref().and_then(|m| m.permissions)),
    }
}

/// Whether these permissions (the member's in the channel, overwrites
/// included, as Discord computes them for an interaction) make a moderator:
/// managing messages, or administering the server.
pub(super) fn moderates(permissions: Option<serenity::Permissions>) -> bool {
    permissions.is_some_and(|p| {
        p.contains(serenity::Permissions::MANAGE_MESSAGES)
            || p.contains(serenity::Permissions::ADMINISTRATOR)
    })
}

/// Whether the author of a message moderates its channel, from the cached
/// guild (its roles, the channel's overwrites; a thread's are its parent's);
/// not known (no cache yet): no.
fn message_moderator(ctx: &serenity::Context, msg: &serenity::Message) -> bool {
    let (Some(guild_id), Some(member)) = (msg.guild_id, msg.member.as_deref()) else {
        return false;
    };
    let Some(guild) = ctx.cache.guild(guild_id) else {
        return false;
    };
    let channel = guild.channels.get(&msg.channel_id).or_else(|| {
        let thread = guild.threads.iter().find(|t| t.id == msg.channel_id)?;
        guild.channels.get(&thread.parent_id?)
    });
    let Some(channel) = channel else {
        return false;
    };
    moderates(Some(guild.partial_member_permissions_in(
        channel,
        msg.author.id,
        member,
    )))
}

/// A message that mentions the bot, replies to one of its messages, or
/// (with the message-content intent) any line: read by [`address::read`].
async fn on_message(
    ctx: &serenity::Context,
    msg: &serenity::Message,
    data: &Data,
) -> Result<(), Error> {
    let Some(&me) = data.me.get() else {
        return Ok(());
    };
    // The bot's managed role matters only when a role is mentioned (and
    // may cost a request the first time in a guild).
    let role = match msg.mention_roles.is_empty() {
        true => None,
        false => data.role(&ctx.http, msg.guild_id).await,
    };
    let mentions: Vec<u64> = msg.mentions.iter().map(|u| u.id.get()).collect();
    let roles: Vec<u64> = msg.mention_roles.iter().map(|r| r.get()).collect();
    let seen = address::Message {
        content: &msg.content,
        mentions: &mentions,
        mention_roles: &roles,
        replies_to_bot: msg
            .referenced_message
            .as_ref()
            .is_some_and(|m| m.author.id == me),
        direct: msg.guild_id.is_none(),
        from_a_bot: msg.author.bot || msg.author.id == me,
    };
    let bot = address::Bot {
        id: me.get(),
        role: role.map(|r| r.get()),
        reads_all: data.cfg.message_content,
    };
    let Some(read) = address::read(&seen, bot) else {
        return Ok(());
    };
    // Everyone mentioned, as Discord resolved them: `<@id>` in the text is
    // that user, whatever their name.
    let mut named = Vec::new();
    for u in &msg.mentions {
        for written in [format!("<@{}>", u.id), format!("<@!{}>", u.id)] {
            named.push(Mentioned {
                written,
                who: player(u),
            });
        }
    }
    // The bot's role names the bot (`challenge @Voidmate` picked as the role).
    if let (Some(written), Some(bot)) = (read.role_mention, data.bot.get()) {
        named.push(Mentioned {
            written,
            who: bot.clone(),
        });
    }
    let incoming = Incoming {
        event_id: format!("discord:{}", msg.id),
        channel: msg.channel_id.to_string(),
        author: player(&msg.author),
        input: Input::Line(read.text),
        mentions: named,
        addressed: read.addressed,
        private: read.private,
        community: msg.guild_id.map(community),
        sent_ms: None,
        moderator: message_moderator(ctx, msg),
    };
    let Some(reply) = data.core.handle(&incoming).await else {
        return Ok(());
    };
    let reply = data.place(&ctx.http, msg.channel_id, reply).await;
    let out = Outgoing::new(reply);
    // The message answered may be gone by now (deleted by its author or a
    // moderator): Discord then posts the answer as a plain message instead
    // of refusing it (`fail_if_not_exists`, `resources/message`).
    let mut reference = serenity::MessageReference::from(msg);
    reference.fail_if_not_exists = Some(false);
    data.post(&ctx.http, msg.channel_id, &out, |m| {
        m.reference_message(reference.clone())
    })
    .await?;
    Ok(())
}
