//! Posting the core's replies to a room: who is pinged and how, mentions as
//! pills, the board image, the questions a reaction may answer, and direct
//! conversations the bot opens.
//!
//! Matrix's default push rules silence `m.notice` events before they look at
//! mentions (`.m.rule.suppress_notices` comes before
//! `.m.rule.is_user_mention`), so what must reach someone goes out as
//! `m.text` with intentional mentions; everything else stays a notice, the
//! kind bots send. Every event carries `m.mentions`, empty when it pings
//! nobody, which turns off the legacy rules that match display names in the
//! body: a board's caption never pings a second time.

use super::PLATFORM;
use crate::columns::{columns, Line};
use crate::game::{Core, Direct, ImageFormat, Refusal, Reply, Segment, Table};
use matrix_sdk::attachment::{AttachmentConfig, AttachmentInfo, BaseImageInfo};
use matrix_sdk::room::reply::{EnforceThread, Reply as ReplyTo};
use matrix_sdk::ruma::events::room::member::MembershipState;
use matrix_sdk::ruma::events::room::message::{
    AddMentions, MessageType, RoomMessageEventContentWithoutRelation, TextMessageEventContent,
};
use matrix_sdk::ruma::events::Mentions;
use matrix_sdk::ruma::{EventId, OwnedEventId, OwnedTransactionId, OwnedUserId, UInt, UserId};
use matrix_sdk::{Client, Room};

/// Posts a reply in answer to `to`, confirms (or fails) its outbox entries,
/// and opens the direct conversation it asks for.
pub(super) async fn deliver(
    core: &Core,
    client: &Client,
    room: &Room,
    to: Option<&EventId>,
    mut reply: Reply,
) {
    // Answers owed in the room before this one (their process died before
    // posting them) go first, in order.
    for notice in std::mem::take(&mut reply.before) {
        let id = notice.id;
        let answered = notice
            .in_reply_to
            .as_deref()
            .and_then(|e| EventId::parse(e).ok());
        match post(core, room, answered.as_deref(), notice.reply).await {
            Some(_) => core.delivered(id).await,
            None => {
                let again = Refusal::Temporary { retry_after: None };
                core.failed(id, again).await;
            }
        }
    }
    let entries = reply.deliveries.clone();
    let direct = reply.direct.clone();
    let posted = post(core, room, to, reply).await.is_some();
    for entry in entries {
        if posted {
            core.delivered(entry).await;
        } else {
            // Tried again soon (backing off), not only after the grace the
            // core gives a direct post (a rate limit, a server error).
            let again = Refusal::Temporary { retry_after: None };
            core.failed(entry, again).await;
        }
    }
    if let Some(d) = direct {
        open_direct(core, client, d).await;
    }
}

/// Finds the direct conversation with someone, or creates it (a room
/// marked direct, the person invited), and greets them there.
async fn open_direct(core: &Core, client: &Client, d: Direct) {
    if d.with.id.platform() != PLATFORM {
        return;
    }
    let Ok(user) = UserId::parse(d.with.id.local()) else {
        return;
    };
    let mut existing = None;
    for room in client.get_dm_rooms(&user) {
        let there = room.get_member_no_sync(&user).await.ok().flatten();
        if there.is_some_and(|m| {
            matches!(
                m.membership(),
                MembershipState::Join | MembershipState::Invite
            )
        }) {
            existing = Some(room);
            break;
        }
    }
    let room = match existing {
        Some(room) => room,
        None => match client.create_dm(&user).await {
            Ok(room) => room,
            Err(e) => {
                tracing::warn!(user = %user, "cannot open a direct conversation: {e}");
                return;
            }
        },
    };
    let mut greeting = Reply::new(d.greeting);
    greeting.notify = vec![d.with];
    post(core, &room, None, greeting).await;
}

/// Posts a reply (its text, then its board); the text's event id if it
/// went out.
pub(super) async fn post(
    core: &Core,
    room: &Room,
    to: Option<&EventId>,
    reply: Reply,
) -> Option<OwnedEventId> {
    let ping = reply.notify.iter().any(|p| p.id.platform() == PLATFORM);
    let plain = reply.text.to_string();
    let html = html_body(&reply);
    let msgtype = match (ping, html) {
        (true, Some(html)) => MessageType::text_html(plain, html),
        (true, None) => MessageType::text_plain(plain),
        (false, Some(html)) => MessageType::notice_html(plain, html),
        (false, None) => MessageType::notice_plain(plain),
    };
    let mentions = if ping {
        Mentions::with_user_ids(user_ids(&reply))
    } else {
        Mentions::new()
    };
    let content = RoomMessageEventContentWithoutRelation::new(msgtype).add_mentions(mentions);
    let content = match to {
        Some(id) => {
            let reply_to = ReplyTo {
                event_id: id.to_owned(),
                enforce_thread: EnforceThread::MaybeThreaded,
                add_mentions: AddMentions::No,
            };
            match room.make_reply_event(content.clone(), reply_to).await {
                Ok(c) => c,
                // The message answered is gone (redacted, or out of
                // reach): the answer still goes out, as a plain message.
                Err(e) => {
                    tracing::debug!(event = %id, "posting without the reply relation: {e}");
                    content.with_relation(None)
                }
            }
        }
        None => content.with_relation(None),
    };
    // The same transaction id for a direct post and any retry of it from
    // the outbox: the homeserver keeps one event per transaction id and
    // device, so an answer never shows twice.
    let key = reply.key();
    let mut send = room.send(content);
    if let Some(k) = &key {
        send = send.with_transaction_id(OwnedTransactionId::from(k.as_str()));
    }
    let posted = match send.await {
        Ok(sent) => sent.response.event_id,
        Err(e) => {
            tracing::warn!(room = %room.room_id(), "cannot send to a room: {e}");
            return None;
        }
    };
    if !reply.actions.is_empty() {
        // A ✅ or ❌ on this message answers its question.
        let asked = core.remember_question(PLATFORM, posted.as_str(), &reply.actions);
        if let Err(e) = asked.await {
            tracing::warn!("cannot remember a question for reactions: {e}");
        }
    }
    if let Some(image) = reply.image {
        let (w, h) = image.size().unwrap_or((0, 0));
        let animated = image.format == ImageFormat::Gif;
        let info = BaseImageInfo {
            width: Some(UInt::from(w)),
            height: Some(UInt::from(h)),
            size: UInt::new(image.png.len() as u64),
            blurhash: None,
            is_animated: Some(animated),
        };
        let config = |in_reply: bool| {
            let mut config = AttachmentConfig::new()
                .info(AttachmentInfo::Image(info.clone()))
                .caption(Some(TextMessageEventContent::plain(image.alt.clone())))
                .mentions(Some(Mentions::new()));
            if let Some(k) = &key {
                config = config.txn_id(OwnedTransactionId::from(format!("{k}-board")));
            }
            if let Some(id) = to.filter(|_| in_reply) {
                config.reply = Some(ReplyTo {
                    event_id: id.to_owned(),
                    enforce_thread: EnforceThread::MaybeThreaded,
                    add_mentions: AddMentions::No,
                });
            }
            config
        };
        let send = |in_reply: bool| {
            room.send_attachment(
                image.format.file_name(),
                if animated {
                    &mime::IMAGE_GIF
                } else {
                    &mime::IMAGE_PNG
                },
                image.png.clone(),
                config(in_reply),
            )
        };
        if let Err(e) = send(true).await {
            // Most likely the message it answers is gone: post it plainly.
            tracing::debug!(room = %room.room_id(), "board upload failed, once more without the reply: {e}");
            if let Err(e) = send(false).await {
                tracing::warn!(room = %room.room_id(), "cannot upload a board: {e}");
            }
        }
    }
    Some(posted)
}

/// The Matrix users a reply mentions or must notify.
pub(super) fn user_ids(reply: &Reply) -> Vec<OwnedUserId> {
    let mut out: Vec<OwnedUserId> = Vec::new();
    for p in reply.text.mentioned().chain(reply.notify.iter()) {
        if p.id.platform() != PLATFORM {
            continue;
        }
        if let Ok(u) = UserId::parse(p.id.local()) {
            if !out.contains(&u) {
                out.push(u);
            }
        }
    }
    out
}

/// The `formatted_body` of a reply, when plain text would lose something:
/// pills for mentions, `code`, the columns of a command list.
pub(super) fn html_body(reply: &Reply) -> Option<String> {
    if reply.text.mentioned().next().is_some() {
        return Some(html_with_pills(reply));
    }
    let plain = reply.text.to_string();
    if let Some(html) = reply.table.as_ref().and_then(|t| html_table(t, &plain)) {
        return Some(html);
    }
    if let Some(table) = html_columns(&plain) {
        return Some(table);
    }
    plain.contains('`').then(|| markdown_code(&plain))
}

/// A reply whose text shows a table in columns (standings, pairings): the
/// columns as an HTML table (the spec's `table`, `thead`, `tbody`, `tr`,
/// `th` and `td`, `client-server-api#mroommessage-msgtypes`), the header
/// row in `th`, the words around it as paragraphs. `None` when the text
/// does not hold the columns.
fn html_table(table: &Table, text: &str) -> Option<String> {
    let columns = table.columns();
    let at = text.find(&columns)?;
    let (before, after) = (text[..at].trim(), text[at + columns.len()..].trim());
    let mut html = String::new();
    if !before.is_empty() {
        html.push_str(&format!("<p>{}</p>", markdown_code(before)));
    }
    html.push_str("<table>");
    let mut rows = table.rows.iter();
    if let Some(header) = rows.next() {
        html.push_str("<thead><tr>");
        for cell in header {
            html.push_str(&format!("<th>{}</th>", escape_html(cell)));
        }
        html.push_str("</tr></thead>");
    }
    html.push_str("<tbody>");
    for row in rows {
        html.push_str("<tr>");
        for cell in row {
            html.push_str(&format!("<td>{}</td>", escape_html(cell)));
        }
        html.push_str("</tr>");
    }
    html.push_str("</tbody></table>");
    if !after.is_empty() {
        html.push_str(&format!("<p>{}</p>", markdown_code(after)));
    }
    Some(html)
}

/// A command list (see [`crate::columns`]) as HTML with its rows in a
/// table, so that the columns survive a proportional font; `None` for any
/// other text.
fn html_columns(text: &str) -> Option<String> {
    let lines = columns(text)?;
    let mut html = String::new();
    let mut in_table = false;
    for line in lines {
        match line {
            Line::Row(left, right) => {
                if !in_table {
                    html.push_str("<table>");
                    in_table = true;
                }
                html.push_str(&format!(
                    "<tr><td><code>{}</code></td><td>{}</td></tr>",
                    escape_html(left),
                    markdown_code(right)
                ));
            }
            Line::Plain(text) => {
                if in_table {
                    html.push_str("</table>");
                    in_table = false;
                }
                html.push_str(&format!("<p>{}</p>", markdown_code(text)));
            }
        }
    }
    if in_table {
        html.push_str("</table>");
    }
    Some(html)
}

/// A reply's text as HTML, each mention a pill (a link to the user), code
/// in `code` and line breaks kept.
pub(super) fn html_with_pills(reply: &Reply) -> String {
    let mut html = String::new();
    for seg in reply.text.segments() {
        match seg {
            Segment::Plain(t) => html.push_str(&markdown_code(t)),
            Segment::Mention(p) if p.id.platform() == PLATFORM => {
                html.push_str(&format!(
                    "<a href=\"https://matrix.to/#/{}\">{}</a>",
                    p.id.local(),
                    escape_html(&p.name)
                ));
            }
            Segment::Mention(p) => html.push_str(&escape_html(&format!("@{}", p.name))),
        }
    }
    html
}

/// Escaped text with `` `code` `` spans as `<code>` and newlines as `<br>`
/// (a lone backtick stays as it is).
fn markdown_code(t: &str) -> String {
    let plain = |s: &str| escape_html(s).replace('\n', "<br>");
    let mut out = String::new();
    let mut rest = t;
    while let Some(open) = rest.find('`') {
        let Some(len) = rest[open + 1..].find('`') else {
            break;
        };
        out.push_str(&plain(&rest[..open]));
        out.push_str("<code>");
        out.push_str(&escape_html(&rest[open + 1..open + 1 + len]));
        out.push_str("</code>");
        rest = &rest[open + len + 2..];
    }
    out.push_str(&plain(rest));
    out
}

fn escape_html(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Player, PlayerId, Text};

    /// Standings as an HTML table: a header of `th`, a row of `td` for
    /// each player, names escaped, the words around it kept.
    #[test]
    fn a_table_is_an_html_table() {
        let rows = vec![
            vec!["#".to_string(), "Player".to_string(), "Pts".to_string()],
            vec!["1".to_string(), "<b>Саша</b>".to_string(), "2½".to_string()],
            vec!["2".to_string(), "bob".to_string(), "1".to_string()],
        ];
        let table = Table::from_rows("T3 standings".to_string(), rows);
        let text = format!(
            "Standings of T3:\n{}\nSay `tournament pairings`.",
            table.columns()
        );
        let reply = Reply {
            table: Some(table),
            ..Reply::new(text)
        };
        let html = html_body(&reply).expect("HTML");
        assert_eq!(
            html,
            "<p>Standings of T3:</p><table><thead><tr><th>#</th><th>Player</th><th>Pts</th></tr></thead>\
             <tbody><tr><td>1</td><td>&lt;b&gt;Саша&lt;/b&gt;</td><td>2½</td></tr>\
             <tr><td>2</td><td>bob</td><td>1</td></tr></tbody></table>\
             <p>Say <code>tournament pairings</code>.</p>"
        );
    }

    #[test]
    fn html_has_pills_code_and_line_breaks() {
        let bob = Player::new(PlayerId::new(PLATFORM, "@bob:example.org"), "Bob <Smith>");
        let reply = Reply::new(
            Text::new()
                .mention(&bob)
                .say(", say `accept` & play.\nOr `decline"),
        );
        assert_eq!(
            html_with_pills(&reply),
            "<a href=\"https://matrix.to/#/@bob:example.org\">Bob &lt;Smith&gt;</a>, say \
             <code>accept</code> &amp; play.<br>Or `decline"
        );
    }

    /// Issue 38: the leaderboard (as the core writes it) is a table.
    #[test]
    fn a_leaderboard_is_a_table() {
        let text = "Leaderboard: Void Chess, correspondence\n  1. alice  1703 (12 rated games)\n  \
                    2. bob  1650 (9 rated games)\n  3. <Саша>  1602? (2 rated games)\nYou: #14, 1520.";
        let html = html_body(&Reply::new(text)).expect("HTML");
        assert_eq!(
            html,
            "<p>Leaderboard: Void Chess, correspondence</p><table>\
             <tr><td><code>1. alice</code></td><td>1703 (12 rated games)</td></tr>\
             <tr><td><code>2. bob</code></td><td>1650 (9 rated games)</td></tr>\
             <tr><td><code>3. &lt;Саша&gt;</code></td><td>1602? (2 rated games)</td></tr>\
             </table><p>You: #14, 1520.</p>"
        );
    }

    #[test]
    fn the_command_list_keeps_its_columns_and_plain_text_stays_plain() {
        let help = Reply::new(crate::game::help::commands().to_string());
        let html = html_body(&help).expect("HTML for the help");
        assert!(
            html.contains("<table><tr><td><code>challenge @user"),
            "{html}"
        );
        assert!(html.contains("<td>accept a challenge waiting for you here</td>"));
        assert!(html.starts_with("<p>Commands"), "{html}");
        assert_eq!(html_body(&Reply::new("#1: alice played e4.")), None);
        assert_eq!(
            html_body(&Reply::new("Say `help`.")).as_deref(),
            Some("Say <code>help</code>.")
        );
    }

    #[test]
    fn image_sizes_are_read_from_png_and_gif_headers() {
        let r = voidmate_render::Renderer::shared();
        let pos = voidmate_rules::Position::new(voidmate_rules::variants::void());
        let png = r.render(&pos, &Default::default());
        let image = |bytes: Vec<u8>, format| crate::game::Image {
            png: bytes,
            format,
            alt: String::new(),
            board: None,
        };
        assert_eq!(image(png, ImageFormat::Png).size(), Some((632, 632)));
        let frames = [voidmate_render::ReplayFrame {
            pos,
            opts: Default::default(),
        }];
        let gif = r.replay(&frames).unwrap().gif;
        assert_eq!(
            image(gif.clone(), ImageFormat::Gif).size(),
            Some((632, 632))
        );
        assert_eq!(image(gif, ImageFormat::Png).size(), None);
        assert_eq!(image(b"short".to_vec(), ImageFormat::Png).size(), None);
    }
}
