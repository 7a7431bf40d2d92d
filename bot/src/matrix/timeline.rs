//! What a sync brought, handled in order and exactly once.
//!
//! Synapse sends at most a filter's `limit` of timeline events per room and
//! marks the rest `limited`; the events left out are fetched with
//! `/messages`, from the timeline's `prev_batch` back to the previous sync's
//! token, and handled before the ones the sync carried. Edits are read as
//! their newest text (only the sender's own edits count, as the spec says);
//! redacted events arrive without content and are never run. Reactions
//! count only on the bot's own questions.

use super::address::{self, Addressed, Facts};
use super::post::deliver;
use super::PLATFORM;
use super::{member, mentioned, Shared};
use crate::game::{Incoming, Input};
use matrix_sdk::deserialized_responses::TimelineEvent;
use matrix_sdk::room::MessagesOptions;
use matrix_sdk::ruma::api::client::filter::FilterDefinition;
use matrix_sdk::ruma::api::client::sync::sync_events::v3::Filter;
use matrix_sdk::ruma::events::reaction::OriginalSyncReactionEvent;
use matrix_sdk::ruma::events::room::join_rules::JoinRule;
use matrix_sdk::ruma::events::room::message::{
    MessageFormat, MessageType, OriginalSyncRoomMessageEvent, Relation,
};
use matrix_sdk::ruma::events::{
    AnySyncMessageLikeEvent, AnySyncTimelineEvent, Mentions, SyncMessageLikeEvent,
};
use matrix_sdk::ruma::{
    uint, EventId, MilliSecondsSinceUnixEpoch, OwnedEventId, OwnedUserId, RoomId, UserId,
};
use matrix_sdk::sync::SyncResponse;
use matrix_sdk::{Client, Room, RoomMemberships};
use std::collections::{HashMap, HashSet};

/// Timeline events per room in one sync; more are fetched page by page.
const TIMELINE_LIMIT: u32 = 50;
/// Pages of 100 events fetched for one gap at most.
const GAP_PAGES: usize = 50;

/// The sync filter: members lazy-loaded (so that the room summary carries
/// the real member counts) and a larger timeline.
pub(super) fn filter() -> Filter {
    let mut def = FilterDefinition::with_lazy_loading();
    def.room.timeline.limit = Some(TIMELINE_LIMIT.into());
    Filter::FilterDefinition(def)
}

/// Handles every joined room's new events; `since` is the token the sync
/// started from. `catching_up` is set for the first sync after a start:
/// its events may be old, so the deadlines that passed before each one are
/// settled first (see [`crate::game::Core::settle_deadlines`]).
pub(super) async fn handle_sync(
    client: &Client,
    shared: &Shared,
    response: &SyncResponse,
    since: Option<&str>,
    catching_up: bool,
) {
    for (room_id, update) in &response.rooms.joined {
        let Some(room) = client.get_room(room_id) else {
            continue;
        };
        let mut events = Vec::new();
        if update.timeline.limited {
            if let (Some(prev), Some(since)) = (&update.timeline.prev_batch, since) {
                events = gap(&room, prev, since).await;
                if !events.is_empty() {
                    tracing::info!(room = %room_id, events = events.len(), "fetched the events a limited sync left out");
                }
            }
        }
        events.extend(update.timeline.events.iter().cloned());
        tracing::debug!(
            room = %room_id,
            since,
            limited = update.timeline.limited,
            events = events.len(),
            catching_up,
            "handling a sync's events"
        );
        handle_room(client, shared, &room, &events, catching_up).await;
    }
}

/// Handles, in every joined room, the events between sync tokens `to` and
/// `from` (`to` older) that a sync has delivered to matrix-sdk but not to
/// the bot: a process killed between the two (see `MatrixBot::run`).
/// Events handled before are recognised by the core and not run twice.
pub(super) async fn handle_unseen(client: &Client, shared: &Shared, from: &str, to: &str) {
    for room in client.joined_rooms() {
        let events = gap(&room, from, to).await;
        if events.is_empty() {
            continue;
        }
        tracing::info!(room = %room.room_id(), events = events.len(), "handling events a killed process had received");
        handle_room(client, shared, &room, &events, true).await;
    }
}

/// The events between `since` and `prev_batch`, oldest first.
async fn gap(room: &Room, prev_batch: &str, since: &str) -> Vec<TimelineEvent> {
    let mut out = Vec::new();
    let mut from = prev_batch.to_string();
    for _ in 0..GAP_PAGES {
        let mut options = MessagesOptions::backward().from(from.as_str());
        options.to = Some(since.to_string());
        options.limit = uint!(100);
        match room.messages(options).await {
            Ok(page) => {
                let last = page.chunk.is_empty();
                out.extend(page.chunk);
                match page.end {
                    Some(end) if !last => from = end,
                    _ => break,
                }
            }
            Err(e) => {
                tracing::warn!(room = %room.room_id(), "cannot fetch the events a sync left out: {e}");
                break;
            }
        }
    }
    out.reverse();
    out
}

/// A message as the core should read it: its own, or its newest edit's.
struct Said<'a> {
    event: &'a OriginalSyncRoomMessageEvent,
    msgtype: &'a MessageType,
    mentions: Option<&'a Mentions>,
    /// When the homeserver received the text (the edit's time for an edit).
    at: MilliSecondsSinceUnixEpoch,
}

async fn handle_room(
    client: &Client,
    shared: &Shared,
    room: &Room,
    events: &[TimelineEvent],
    catching_up: bool,
) {
    let Some(me) = client.user_id().map(UserId::to_owned) else {
        return;
    };
    let mut seen = HashSet::new();
    let parsed: Vec<AnySyncTimelineEvent> = events
        .iter()
        .filter_map(|e| e.raw().deserialize().ok())
        .filter(|e: &AnySyncTimelineEvent| seen.insert(e.event_id().to_owned()))
        .collect();
    let senders: HashMap<&EventId, &UserId> =
        parsed.iter().map(|e| (e.event_id(), e.sender())).collect();
    // The newest edit of each message in this batch, by its own sender.
    let mut edits: HashMap<OwnedEventId, Said> = HashMap::new();
    for e in &parsed {
        if let Some(m) = room_message(e) {
            if let Some(Relation::Replacement(r)) = &m.content.relates_to {
                if senders.get(&*r.event_id).copied() == Some(&*m.sender) {
                    edits.insert(
                        r.event_id.clone(),
                        Said {
                            event: m,
                            msgtype: &r.new_content.msgtype,
                            mentions: r.new_content.mentions.as_ref(),
                            at: m.origin_server_ts,
                        },
                    );
                }
            }
        }
    }
    let mut room_kind = None;
    for e in &parsed {
        if e.sender() == me || before_join(shared, room.room_id(), e).await {
            continue;
        }
        if catching_up {
            shared
                .core
                .settle_deadlines(i64::from(e.origin_server_ts().get()))
                .await;
        }
        match e {
            AnySyncTimelineEvent::MessageLike(AnySyncMessageLikeEvent::RoomMessage(
                SyncMessageLikeEvent::Original(m),
            )) => {
                let kind = match room_kind {
                    Some(k) => k,
                    None => *room_kind.insert(conversation(room).await),
                };
                if let Some(Relation::Replacement(r)) = &m.content.relates_to {
                    if senders.contains_key(&*r.event_id) {
                        continue; // read with its original, above
                    }
                    // An edit of a message from an earlier sync: only its
                    // sender's edits count.
                    let original = room.load_or_fetch_event(&r.event_id, None).await;
                    if original.ok().and_then(|o| o.sender()).as_deref() != Some(&*m.sender) {
                        continue;
                    }
                    let said = Said {
                        event: m,
                        msgtype: &r.new_content.msgtype,
                        mentions: r.new_content.mentions.as_ref(),
                        at: m.origin_server_ts,
                    };
                    message(client, shared, room, kind, &me, said, Some(&r.event_id)).await;
                    continue;
                }
                let said = match edits.remove(&m.event_id) {
                    // The newest text, said by the original message.
                    Some(edit) => Said { event: m, ..edit },
                    None => Said {
                        event: m,
                        msgtype: &m.content.msgtype,
                        mentions: m.content.mentions.as_ref(),
                        at: m.origin_server_ts,
                    },
                };
                message(client, shared, room, kind, &me, said, None).await;
            }
            AnySyncTimelineEvent::MessageLike(AnySyncMessageLikeEvent::Reaction(
                SyncMessageLikeEvent::Original(r),
            )) => reaction(client, shared, room, r).await,
            _ => {}
        }
    }
}

fn room_message(e: &AnySyncTimelineEvent) -> Option<&OriginalSyncRoomMessageEvent> {
    match e {
        AnySyncTimelineEvent::MessageLike(AnySyncMessageLikeEvent::RoomMessage(
            SyncMessageLikeEvent::Original(m),
        )) => Some(m),
        _ => None,
    }
}

/// Whether an event was sent before the bot joined its room: history, not
/// a command.
async fn before_join(shared: &Shared, room: &RoomId, e: &AnySyncTimelineEvent) -> bool {
    let ts = i64::from(e.origin_server_ts().get());
    let joined = shared.core.adapter_value(&super::joined_key(room)).await;
    matches!(joined, Ok(Some(t)) if t.parse::<i64>().is_ok_and(|j| ts < j))
}

/// What kind of conversation a room is, from what Matrix says of it.
#[derive(Debug, Clone, Copy)]
struct Conversation {
    /// Only the bot and one person have joined (and the room is not
    /// public): everything said there is for the bot.
    alone: bool,
    /// A direct conversation (`is_direct` at the invite, `m.direct`) of
    /// the bot and one person: private commands are taken there.
    private: bool,
}

async fn conversation(room: &Room) -> Conversation {
    let public = matches!(room.join_rule(), Some(JoinRule::Public));
    // The summary's count (lazy-loaded members); without one, the members.
    let mut joined = room.joined_members_count();
    if joined == 0 {
        joined = match room.members(RoomMemberships::JOIN).await {
            Ok(m) => m.len() as u64,
            Err(e) => {
                tracing::warn!(room = %room.room_id(), "cannot count the members: {e}");
                u64::MAX
            }
        };
    }
    let alone = !public && joined <= 2;
    let direct = room.is_direct().await.unwrap_or(false);
    Conversation {
        alone,
        private: alone && direct,
    }
}

/// A text message: addressed to the bot or not, handed to the core, answered
/// in the room (in reply to the original message when it was edited).
async fn message(
    client: &Client,
    shared: &Shared,
    room: &Room,
    kind: Conversation,
    me: &UserId,
    said: Said<'_>,
    edit_of: Option<&EventId>,
) {
    // Notices are what bots send; answering them makes bots talk in circles.
    let MessageType::Text(text) = said.msgtype else {
        return;
    };
    let html = text
        .formatted
        .as_ref()
        .filter(|f| f.format == MessageFormat::Html)
        .map(|f| f.body.as_str());
    let line = address::command_text(&text.body, html);
    let mentions_bot = said.mentions.is_some_and(|m| m.user_ids.contains(me))
        || line
            .split_whitespace()
            .any(|w| w.trim_end_matches([':', ',']) == me.as_str());
    let bot_names = bot_names(room, me).await;
    let mut facts = Facts {
        text: &line,
        prefix: &shared.cfg.prefix,
        bot: me.as_str(),
        bot_names: &bot_names,
        mentions_bot,
        replies_to_bot: false,
        alone_with_bot: kind.alone,
    };
    let mut addressed: Addressed = address::address(&facts);
    if !addressed.to_bot && replies_to(room, said.event, me).await {
        facts.replies_to_bot = true;
        addressed = address::address(&facts);
    }
    let mentions = mentioned(room, client, said.mentions, &addressed.command).await;
    let incoming = Incoming {
        event_id: said.event.event_id.to_string(),
        channel: room.room_id().to_string(),
        author: member(room, &said.event.sender).await,
        input: Input::Line(addressed.command),
        mentions,
        addressed: addressed.to_bot,
        private: kind.private,
        // A room is a community, unless it is a direct conversation.
        community: (!kind.private).then(|| room.room_id().to_string()),
        moderator: super::moderates(room, &said.event.sender).await,
        sent_ms: Some(i64::from(said.at.get())),
    };
    let reply = match edit_of {
        Some(original) => shared.core.handle_edit(&incoming, original.as_str()).await,
        None => shared.core.handle(&incoming).await,
    };
    tracing::debug!(
        event = %said.event.event_id,
        addressed = incoming.addressed,
        answered = reply.is_some(),
        "a message"
    );
    if let Some(reply) = reply {
        let to = edit_of.unwrap_or(&said.event.event_id);
        deliver(&shared.core, client, room, Some(to), reply).await;
    }
}

/// The names the bot goes by in a room: its display name there, and its
/// localpart.
async fn bot_names(room: &Room, me: &UserId) -> Vec<String> {
    let mut names = vec![me.localpart().to_string()];
    if let Ok(Some(m)) = room.get_member_no_sync(me).await {
        let shown = m.name().to_string();
        if !names.contains(&shown) {
            names.push(shown);
        }
    }
    names
}

/// Whether a message replies to one of the bot's (a reply, or a reply in
/// a thread).
async fn replies_to(room: &Room, ev: &OriginalSyncRoomMessageEvent, me: &UserId) -> bool {
    let target: Option<&EventId> = match &ev.content.relates_to {
        Some(Relation::Reply(r)) => Some(&r.in_reply_to.event_id),
        Some(Relation::Thread(t)) if !t.is_falling_back => {
            t.in_reply_to.as_ref().map(|r| &*r.event_id)
        }
        _ => None,
    };
    let Some(target) = target else {
        return false;
    };
    let sender: Option<OwnedUserId> = match room.load_or_fetch_event(target, None).await {
        Ok(e) => e.sender(),
        Err(_) => None,
    };
    sender.as_deref() == Some(me)
}

/// A reaction: ✅ or 👍 accepts, ❌ or 👎 declines, but only on one of the
/// bot's questions (a challenge, a draw offer, a takeback request).
/// Reactions anywhere else are nobody's business.
async fn reaction(client: &Client, shared: &Shared, room: &Room, ev: &OriginalSyncReactionEvent) {
    let key = ev.content.relates_to.key.trim_end_matches('\u{fe0f}');
    let accepted = match key {
        "✅" | "✔" | "☑" | "👍" => true,
        "❌" | "✖" | "❎" | "👎" => false,
        _ => return,
    };
    let target = &ev.content.relates_to.event_id;
    let Ok(actions) = shared.core.question(PLATFORM, target.as_str()).await else {
        return;
    };
    if actions.is_empty() {
        return;
    }
    let author = member(room, &ev.sender).await;
    let Some(action) = actions
        .iter()
        .find(|a| *a.who() == author.id)
        .or(actions.first())
    else {
        return;
    };
    let incoming = Incoming {
        event_id: ev.event_id.to_string(),
        channel: room.room_id().to_string(),
        author,
        input: Input::Command(action.answer(accepted)),
        mentions: Vec::new(),
        addressed: true,
        private: false,
        // An answer to a challenge: the challenge says where it is rated.
        community: Some(room.room_id().to_string()),
        sent_ms: Some(i64::from(ev.origin_server_ts.get())),
        moderator: super::moderates(room, &ev.sender).await,
    };
    if let Some(reply) = shared.core.handle(&incoming).await {
        deliver(&shared.core, client, room, Some(target), reply).await;
    }
}
