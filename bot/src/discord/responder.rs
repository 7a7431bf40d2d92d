//! Answering an interaction: directly when the core is quick, otherwise
//! deferred first and then completed.

use super::outgoing::Outgoing;
use super::{player, Ctx, Data, Error};
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
}

/// Discord's answer when an interaction already has its response (error
/// 40060, "Interaction has already been acknowledged").
fn already_acknowledged(e: &serenity::Error) -> bool {
    matches!(e, serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r))
        if r.error.code == 40060)
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
        let (reply, placeholder) = match quick {
            Ok(done) => {
                let Some(reply) = done? else {
                    return Ok(());
                };
                if reply.thread.is_some() {
                    // Opening a thread and posting in it may take longer
                    // than Discord waits for the first response.
                    (Some(reply), self.defer(private).await?)
                } else {
                    return self.respond_now(data, reply).await;
                }
            }
            Err(_) => {
                let placeholder = self.defer(private).await?;
                (work.await?, placeholder)
            }
        };
        let Some(reply) = reply else {
            // Handled elsewhere: that handler answers with a follow-up;
            // our placeholder must not stay "thinking" beside it.
            if placeholder {
                self.http
                    .delete_original_interaction_response(self.token)
                    .await?;
            }
            return Ok(());
        };
        let reply = data.place(self.http, self.channel, reply).await;
        let out = Outgoing::new(reply);
        let entries = out.deliveries.clone();
        // Edited into the placeholder only when that loses nothing: the
        // audience matches (a private placeholder takes anything, a public
        // one only a public answer) and nobody needs a notification.
        let fits = private || !out.ephemeral;
        let pings = !out.ephemeral && !out.mentions.is_empty();
        if placeholder && fits && !pings {
            out.edit().execute(self.http, self.token).await?;
        } else {
            if placeholder {
                self.http
                    .delete_original_interaction_response(self.token)
                    .await?;
            }
            out.followup()
                .execute(self.http, (None, self.token))
                .await?;
        }
        data.confirm(&entries).await;
        Ok(())
    }

    /// The answer as the interaction's one response, at once.
    async fn respond_now(&self, data: &Data, reply: Reply) -> Result<(), Error> {
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
            Err(e) => return Err(e.into()),
        }
        data.confirm(&entries).await;
        Ok(())
    }

    /// Defers the response ("thinking"); `true` if this placeholder is
    /// ours, `false` if another process answered the interaction first.
    async fn defer(&self, private: bool) -> Result<bool, Error> {
        let deferred = CreateInteractionResponse::Defer(
            CreateInteractionResponseMessage::new().ephemeral(private),
        )
        .execute(self.http, (self.id, self.token))
        .await;
        match deferred {
            Ok(()) => Ok(true),
            Err(e) if already_acknowledged(&e) => Ok(false),
            Err(e) => Err(e.into()),
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
        sent_ms: None,
    };
    Responder {
        http: &ctx.serenity_context().http,
        id: interaction.id,
        token: &interaction.token,
        channel: interaction.channel_id,
    }
    .answer(data, incoming)
    .await
}
