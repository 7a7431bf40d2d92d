//! Answering an interaction: directly when the core is quick, otherwise
//! deferred first and then completed.

use super::outgoing::Outgoing;
use super::send::discord_code;
use super::{community, player, Ctx, Data, Error};
use crate::game::command::Command;
use crate::game::{Incoming, Input, Reply};
use poise::serenity_prelude as serenity;
use serenity::builder::Builder as _;
use serenity::{
    ChannelId, CreateInteractionResponse, CreateInteractionResponseMessage, InteractionId,
};

/// Answers one interaction: directly when the core is quick, otherwise
/// deferred first and then completed.
///
/// Discord takes one response per interaction, and notifies the people a
/// message mentions only when the message is created, never when it is
/// edited (`topics/interactions`, `resources/message`). So a deferred
/// answer that must reach someone replaces the "thinking" placeholder with
/// a new follow-up message instead of editing it in. An interaction the core
/// has handled before (the same one delivered to two processes during a
/// deploy) gets no answer at all from the duplicate: the first handler's
/// answer must not lose its single response to "handled already".
pub struct Responder<'a> {
    pub http: &'a serenity::Http,
    pub id: InteractionId,
    pub token: &'a str,
    /// Where the interaction happened.
    pub channel: ChannelId,
    /// Whether that is a direct conversation (only the author reads it).
    pub direct: bool,
}

/// Discord's answer when an interaction already has its response (error
/// 40060, "Interaction has already been acknowledged").
fn already_acknowledged(e: &serenity::Error) -> bool {
    discord_code(e) == Some(40060)
}

/// Discord's answer to a message that is not there (10008 Unknown
/// Message): a placeholder already gone needs no deleting.
fn unknown_message(e: &serenity::Error) -> bool {
    discord_code(e) == Some(10008)
}

/// Discord's answers to a call with an interaction's token that is no
/// longer good: 401 Invalid Webhook Token (50027), or the interaction or its
/// webhook unknown (10062, 10015).
fn token_gone(e: &serenity::Error) -> bool {
    let status = match e {
        serenity::Error::Http(http) => http.status_code().map(|s| s.as_u16()),
        _ => None,
    };
    status == Some(401) || matches!(discord_code(e), Some(50027 | 10062 | 10015))
}

/// What became of the interaction's one response.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    /// Ours: the "thinking" placeholder, to edit or replace.
    Placeholder,
    /// Another process answered first (40060): its answer stands.
    Taken,
    /// Missed: the response could not be made within Discord's 3 seconds
    /// (a 429 that outlasted them, or 10062 Unknown Interaction). The
    /// answer goes to the channel as a message instead.
    Missed,
}

impl Responder<'_> {
    pub async fn answer(&self, data: &Data, incoming: Incoming) -> Result<(), Error> {
        // A private command (a DM, `/program`) is answered to its author alone.
        let private = incoming.private;
        let core = data.core.clone();
        let mut work = tokio::spawn(async move { core.handle(&incoming).await });
        let quick = if data.cfg.defer_after.is_zero() {
            // Zero means: always defer.
            Err(())
        } else {
            tokio::time::timeout(data.cfg.defer_after, &mut work)
                .await
                .map_err(|_| ())
        };
        let (reply, slot) = match quick {
            Ok(done) => {
                let Some(reply) = done? else {
                    return Ok(());
                };
                if reply.thread.is_some() || !reply.before.is_empty() {
                    // Opening a thread and posting in it, or posting the
                    // answers owed before this one, may take longer than
                    // Discord waits for the first response.
                    (Some(reply), self.defer(private).await)
                } else {
                    return self.respond_now(data, reply).await;
                }
            }
            Err(_) => {
                let slot = self.defer(private).await;
                (work.await?, slot)
            }
        };
        let placeholder = slot == Slot::Placeholder;
        // The answer carries no nonce: while it is being sent, no other
        // process may take it over for being slow.
        let _posting = reply
            .as_ref()
            .map(|r| data.core.keep_posting(&r.deliveries));
        let Some(reply) = reply else {
            // Handled elsewhere: that handler answers with a follow-up;
            // our placeholder must not stay "thinking" beside it.
            if placeholder {
                self.delete_placeholder().await?;
            }
            return Ok(());
        };
        let reply = data.place(self.http, self.channel, reply).await;
        let out = Outgoing::new(reply);
        if slot == Slot::Missed {
            return self.post_instead(data, out).await;
        }
        let entries = out.deliveries.clone();
        // Edited into the placeholder only when that loses nothing: the
        // audience matches (a private placeholder takes anything, a public
        // one only a public answer) and nobody needs a notification.
        let fits = private || !out.ephemeral;
        let pings = !out.ephemeral && !out.mentions.is_empty();
        let sent = if placeholder && fits && !pings {
            out.clone()
                .edit()
                .execute(self.http, self.token)
                .await
                .map(|_| ())
        } else {
            if placeholder {
                self.delete_placeholder().await?;
            }
            out.clone()
                .followup()
                .execute(self.http, (None, self.token))
                .await
                .map(|_| ())
        };
        match sent {
            Ok(()) => {}
            // The interaction's token no longer works (it lives 15 minutes):
            // the answer goes to the channel instead.
            Err(e) if token_gone(&e) => {
                tracing::warn!("an interaction's token no longer works: {e}");
                return self.post_instead(data, out).await;
            }
            Err(e) => return Err(e.into()),
        }
        data.confirm(&entries).await;
        Ok(())
    }

    /// The answer as the interaction's one response, at once.
    async fn respond_now(&self, data: &Data, reply: Reply) -> Result<(), Error> {
        let _posting = data.core.keep_posting(&reply.deliveries);
        let out = Outgoing::new(reply);
        let entries = out.deliveries.clone();
        let again = out.clone();
        match CreateInteractionResponse::Message(out.response())
            .execute(self.http, (self.id, self.token))
            .await
        {
            Ok(()) => {}
            // Another process took the response (it deferred): this
            // answer goes as a follow-up, a message of its own.
            Err(e) if already_acknowledged(&e) => {
                again
                    .followup()
                    .execute(self.http, (None, self.token))
                    .await?;
            }
            Err(e) => {
                tracing::warn!("cannot answer an interaction in time: {e}");
                return self.post_instead(data, again).await;
            }
        }
        data.confirm(&entries).await;
        Ok(())
    }

    /// The "thinking" placeholder goes (one already gone is fine).
    async fn delete_placeholder(&self) -> Result<(), Error> {
        match self
            .http
            .delete_original_interaction_response(self.token)
            .await
        {
            Err(e) if !unknown_message(&e) => Err(e.into()),
            _ => Ok(()),
        }
    }

    /// The interaction's response was missed: the answer goes to the
    /// channel as a message, when everyone there may see it (an answer for
    /// the author alone is not posted where others read; its outbox entry,
    /// if any, is confirmed only by a post).
    async fn post_instead(&self, data: &Data, out: Outgoing) -> Result<(), Error> {
        if out.ephemeral && !self.direct {
            tracing::warn!(channel = %self.channel, "an answer for its author alone could not be given");
            return Ok(());
        }
        data.post(self.http, self.channel, &out, |m| m).await?;
        Ok(())
    }

    /// Defers the response ("thinking"), and says whose the response is.
    async fn defer(&self, private: bool) -> Slot {
        let deferred = CreateInteractionResponse::Defer(
            CreateInteractionResponseMessage::new().ephemeral(private),
        )
        .execute(self.http, (self.id, self.token))
        .await;
        match deferred {
            Ok(()) => Slot::Placeholder,
            Err(e) if already_acknowledged(&e) => Slot::Taken,
            Err(e) => {
                tracing::warn!("cannot defer an interaction in time: {e}");
                Slot::Missed
            }
        }
    }
}

/// Runs one slash command, typed: the core reads no text again.
pub async fn run(ctx: Ctx<'_>, cmd: Command) -> Result<(), Error> {
    run_as(ctx, cmd, false).await
}

/// Runs one slash command; `private`: answered to its author alone (so is
/// everything used in a direct message with the bot).
pub async fn run_as(ctx: Ctx<'_>, cmd: Command, private: bool) -> Result<(), Error> {
    let poise::Context::Application(app) = ctx else {
        return Ok(());
    };
    let data = ctx.data();
    let interaction = app.interaction;
    let incoming = Incoming {
        event_id: format!("discord:{}", interaction.id),
        channel: interaction.channel_id.to_string(),
        author: player(&interaction.user),
        input: Input::Command(cmd),
        mentions: Vec::new(),
        addressed: true,
        private: private || interaction.guild_id.is_none(),
        community: interaction.guild_id.map(community),
        sent_ms: None,
        moderator: super::events::moderates(
            interaction.member.as_ref().and_then(|m| m.permissions),
        ),
    };
    Responder {
        http: &ctx.serenity_context().http,
        id: interaction.id,
        token: &interaction.token,
        channel: interaction.channel_id,
        direct: interaction.guild_id.is_none(),
    }
    .answer(data, incoming)
    .await
}
