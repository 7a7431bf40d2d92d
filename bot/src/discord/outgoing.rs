//! A core reply as one Discord message, ready for whichever endpoint sends
//! it: an interaction's response, the edit of a deferred one, a follow-up,
//! or a channel message. One builder fills all four ([`Parts`]).

use super::buttons::custom_id;
use super::user_id;
use crate::game::{Audience, BoardCard, Reply, Segment, Table};
use poise::serenity_prelude as serenity;
use serenity::{
    ButtonStyle, CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateButton,
    CreateEmbed, CreateEmbedFooter, CreateInteractionResponseFollowup,
    CreateInteractionResponseMessage, CreateMessage, EditInteractionResponse, UserId,
};

/// Discord refuses message contents longer than this.
pub const MAX_CONTENT: usize = 2000;

/// One message's parts.
#[derive(Clone)]
pub struct Outgoing {
    pub content: String,
    pub embed: Option<CreateEmbed>,
    pub files: Vec<CreateAttachment>,
    pub components: Vec<CreateActionRow>,
    /// The users it pings, and nobody else.
    pub mentions: Vec<UserId>,
    pub ephemeral: bool,
    /// The idempotency key of a channel message (the reply's outbox key).
    pub nonce: Option<String>,
    /// The outbox entries to confirm once posted.
    pub deliveries: Vec<i64>,
}

/// What every message builder takes, so that one function fills them all.
pub trait Parts: Sized {
    fn with_content(self, content: String) -> Self;
    fn with_mentions(self, allowed: CreateAllowedMentions) -> Self;
    fn with_file(self, file: CreateAttachment) -> Self;
    fn with_rows(self, rows: Vec<CreateActionRow>) -> Self;
    fn with_embed(self, embed: CreateEmbed) -> Self;
}

/// serenity's builders share these methods by name, not by trait.
macro_rules! parts {
    ($builder:ty, $file:ident) => {
        impl Parts for $builder {
            fn with_content(self, content: String) -> Self {
                self.content(content)
            }
            fn with_mentions(self, allowed: CreateAllowedMentions) -> Self {
                self.allowed_mentions(allowed)
            }
            fn with_file(self, file: CreateAttachment) -> Self {
                self.$file(file)
            }
            fn with_rows(self, rows: Vec<CreateActionRow>) -> Self {
                self.components(rows)
            }
            fn with_embed(self, embed: CreateEmbed) -> Self {
                self.embed(embed)
            }
        }
    };
}

parts!(CreateInteractionResponseMessage, add_file);
parts!(EditInteractionResponse, new_attachment);
parts!(CreateInteractionResponseFollowup, add_file);
parts!(CreateMessage, add_file);

impl Outgoing {
    /// The text's mentions become Discord mentions where they stand;
    /// anyone else to notify is named up front. Only they are pinged.
    pub fn new(reply: Reply) -> Outgoing {
        let nonce = reply.key();
        let mut text = String::new();
        let mut mentions: Vec<UserId> = Vec::new();
        for seg in reply.text.segments() {
            match seg {
                Segment::Plain(t) => text.push_str(t),
                Segment::Mention(p) => match user_id(p) {
                    Some(id) => {
                        text.push_str(&format!("<@{id}>"));
                        if !mentions.contains(&id) {
                            mentions.push(id);
                        }
                    }
                    None => text.push_str(&format!("@{}", p.name)),
                },
            }
        }
        let mut content = String::new();
        for id in reply.notify.iter().filter_map(user_id) {
            if !mentions.contains(&id) {
                content.push_str(&format!("<@{id}> "));
                mentions.push(id);
            }
        }
        let mut files = Vec::new();
        let mut embed = None;
        // No board card beside the picture (or no picture): text in two
        // columns becomes an embed's fields.
        let plain_picture = reply.image.as_ref().is_none_or(|i| i.board.is_none());
        let table = reply
            .table
            .as_ref()
            .filter(|_| plain_picture)
            .and_then(|t| table_embed(t, &text));
        if let Some((card, rest)) = table {
            // Standings, pairings: the rows in a block of fixed width, the
            // words around them as the message (a crosstable as the image);
            // too many rows for an embed: the whole table as a file.
            match card {
                Some(card) => {
                    embed = Some(match &reply.image {
                        Some(image) => {
                            card.image(format!("attachment://{}", image.format.file_name()))
                        }
                        None => card,
                    });
                    content.push_str(&rest);
                }
                None => {
                    let table = reply.table.as_ref().expect("a table");
                    content.push_str(&format!(
                        "{rest}\n({} is attached: too long to show here.)",
                        table.title
                    ));
                    files.push(CreateAttachment::bytes(
                        table.text().into_bytes(),
                        "table.txt",
                    ));
                }
            }
        } else if let Some(card) = plain_picture.then(|| columns_embed(&text)).flatten() {
            // The command list, a review: a field per row, not a file to open.
            embed = Some(match &reply.image {
                Some(image) => card.image(format!("attachment://{}", image.format.file_name())),
                None => card,
            });
        } else if content.len() + text.len() > MAX_CONTENT {
            // A long history or PGN: the whole text as a file, nothing cut.
            let first = text.lines().next().unwrap_or("");
            let first: String = first.chars().take(MAX_CONTENT - 200).collect();
            content.push_str(&format!("{first}\n(The full text is attached.)"));
            files.push(CreateAttachment::bytes(
                reply.text.to_string().into_bytes(),
                "voidmate.txt",
            ));
        } else {
            content.push_str(&text);
        }
        if let Some(image) = reply.image {
            let name = image.format.file_name();
            if let Some(card) = image.board.as_ref() {
                embed = Some(board_embed(card, name));
            }
            files.push(CreateAttachment::bytes(image.png, name).description(image.alt));
        }
        let join = reply.join.map(super::tournament::buttons);
        let puzzle = reply.puzzle.map(super::puzzle::buttons);
        let components = reply
            .actions
            .iter()
            .map(|a| {
                CreateActionRow::Buttons(vec![
                    CreateButton::new(custom_id(a, true))
                        .label("Accept")
                        .style(ButtonStyle::Success),
                    CreateButton::new(custom_id(a, false))
                        .label("Decline")
                        .style(ButtonStyle::Danger),
                ])
            })
            .chain(join)
            .chain(puzzle)
            .collect();
        Outgoing {
            content,
            embed,
            files,
            components,
            mentions,
            ephemeral: reply.audience == Audience::Author,
            nonce,
            deliveries: reply.deliveries,
        }
    }

    /// Words for the presser of a button alone.
    pub fn error(text: impl Into<String>) -> Outgoing {
        Outgoing {
            content: text.into(),
            embed: None,
            files: Vec::new(),
            components: Vec::new(),
            mentions: Vec::new(),
            ephemeral: true,
            nonce: None,
            deliveries: Vec::new(),
        }
    }

    /// Fills any of the four builders.
    fn fill<B: Parts>(self, builder: B) -> B {
        let allowed = CreateAllowedMentions::new().users(self.mentions);
        let mut b = builder
            .with_content(self.content)
            .with_mentions(allowed)
            .with_rows(self.components);
        for f in self.files {
            b = b.with_file(f);
        }
        match self.embed {
            Some(e) => b.with_embed(e),
            None => b,
        }
    }

    /// The interaction's one response.
    pub fn response(self) -> CreateInteractionResponseMessage {
        let ephemeral = self.ephemeral;
        self.fill(CreateInteractionResponseMessage::new().ephemeral(ephemeral))
    }

    /// The edit of a deferred response (its audience was set when deferred).
    pub fn edit(self) -> EditInteractionResponse {
        self.fill(EditInteractionResponse::new())
    }

    pub fn followup(self) -> CreateInteractionResponseFollowup {
        let ephemeral = self.ephemeral;
        self.fill(CreateInteractionResponseFollowup::new().ephemeral(ephemeral))
    }

    /// A channel message. With a nonce Discord keeps one message per nonce
    /// for a few minutes (`enforce_nonce`, `resources/message#create-message`):
    /// a retried post of the same answer returns the first instead of
    /// showing twice.
    pub fn message(self) -> CreateMessage {
        let nonce = self.nonce.clone();
        let m = self.fill(CreateMessage::new());
        match nonce {
            Some(n) => m.nonce(serenity::Nonce::String(n)).enforce_nonce(true),
            None => m,
        }
    }
}

/// A two-column text (the help's command list, see [`crate::columns`]) as
/// an embed: its first line the title, other lines the description, a
/// field per row (past 25 rows the last field takes the rest). `None` if
/// it does not fit Discord's other embed limits (256 characters a title or
/// name, 1024 a value, 6000 in all).
fn columns_embed(text: &str) -> Option<CreateEmbed> {
    use crate::columns::{columns, Line};
    let lines = columns(text)?;
    let (mut title, mut description, mut fields) = (None, Vec::new(), Vec::new());
    for line in lines {
        match line {
            Line::Plain(t) if title.is_none() => title = Some(t),
            Line::Plain(t) => description.push(t),
            Line::Row(name, value) => fields.push((format!("`{name}`"), value.to_string())),
        }
    }
    // An embed holds 25 fields: the rows past the 24th share the last one,
    // a line each.
    if fields.len() > 25 {
        let rest: Vec<String> = fields
            .drain(24..)
            .map(|(n, v)| format!("{n} {v}"))
            .collect();
        fields.push(("More".to_string(), rest.join("\n")));
    }
    let total: usize = title.map_or(0, str::len)
        + description.iter().map(|d| d.len()).sum::<usize>()
        + fields.iter().map(|(n, v)| n.len() + v.len()).sum::<usize>();
    let fits = title.is_none_or(|t| t.len() <= 256)
        && fields
            .iter()
            .all(|(n, v)| n.len() <= 256 && v.len() <= 1024)
        && total <= 6000;
    if !fits {
        return None;
    }
    let mut embed = CreateEmbed::new().fields(fields.into_iter().map(|(n, v)| (n, v, false)));
    if let Some(t) = title {
        embed = embed.title(t);
    }
    if !description.is_empty() {
        embed = embed.description(description.join("\n"));
    }
    Some(embed)
}

/// Discord's limits on an embed's title and description.
const MAX_EMBED_TITLE: usize = 256;
const MAX_EMBED_DESCRIPTION: usize = 4096;

/// A table the text shows in columns, as an embed: its title, and the
/// columns in a code block so that they line up (`Some(None)` when they do
/// not fit an embed: the caller attaches the table as a file); with the
/// text around the columns (what the message says besides). `None` when
/// the text does not hold the columns, or the words around them are too
/// long for a message (the text then goes out as any other).
fn table_embed(table: &Table, text: &str) -> Option<(Option<CreateEmbed>, String)> {
    let columns = table.columns();
    if !text.contains(&columns) {
        return None;
    }
    let rest = text.replacen(&columns, "", 1);
    let rest: Vec<&str> = rest.lines().filter(|l| !l.trim().is_empty()).collect();
    let rest = rest.join("\n");
    if rest.chars().count() + table.title.chars().count() > MAX_CONTENT - 100 {
        return None;
    }
    // A name's backquote would end the block early.
    let block = format!("```\n{}\n```", columns.replace('`', "'"));
    let fits = block.chars().count() <= MAX_EMBED_DESCRIPTION
        && table.title.chars().count() <= MAX_EMBED_TITLE;
    let embed = fits.then(|| {
        CreateEmbed::new()
            .title(&table.title)
            .description(block)
            .colour(0x5b3e8c)
    });
    Some((embed, rest))
}

/// The card beside a board; `file` is the attached image's name (a board's
/// PNG, or a replay's GIF, which Discord animates in the embed).
fn board_embed(card: &BoardCard, file: &str) -> CreateEmbed {
    let mut e = CreateEmbed::new()
        .title(format!("Game #{}: {}", card.game, card.variant))
        .field("White", &card.white, true)
        .field("Black", &card.black, true)
        .image(format!("attachment://{file}"))
        .footer(CreateEmbedFooter::new(&card.time_control))
        .colour(0x5b3e8c);
    match (&card.result, &card.to_move) {
        (Some(result), _) => e = e.field("Result", result, true),
        (None, Some(who)) => e = e.field("To move", who, true),
        (None, None) => {}
    }
    if let Some(m) = &card.last_move {
        e = e.field("Last move", m, true);
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discord::PLATFORM;
    use crate::game::{Player, PlayerId, Text};

    /// Mentions are rendered where the core put them, by id: a name with
    /// spaces, or one that is also a word in the text, changes nothing.
    #[test]
    fn mentions_render_by_id_and_ping_only_those_named() {
        let bob = Player::new(PlayerId::new(PLATFORM, "42"), "Bob Smith");
        let carol = Player::new(PlayerId::new(PLATFORM, "43"), "carol");
        let console = Player::new(PlayerId::new("console", "dave"), "dave");
        let text = Text::new()
            .mention(&bob)
            .say(", carol challenges you; Bob Smith is not pinged twice. ")
            .mention(&console);
        let reply = Reply {
            notify: vec![bob.clone(), carol.clone()],
            ..Reply::new(text)
        };
        let out = Outgoing::new(reply);
        assert_eq!(
            out.content,
            "<@43> <@42>, carol challenges you; Bob Smith is not pinged twice. @dave"
        );
        assert_eq!(out.mentions, vec![UserId::new(42), UserId::new(43)]);
    }

    /// Issue 38: the leaderboard (as the core writes it) is an embed, a
    /// field per place, the asker's own rank below.
    #[test]
    fn a_leaderboard_is_an_embed_with_a_field_per_place() {
        let text = "Leaderboard: Void Chess, live\n  1. alice  1703 (12 rated games)\n  \
                    2. bob  1650 (9 rated games)\n  3. Саша🔥  1602? (2 rated games)\nYou: #14, 1520.";
        let out = Outgoing::new(Reply::new(text));
        let embed = serde_json::to_value(out.embed.expect("an embed")).unwrap();
        assert_eq!(embed["title"], "Leaderboard: Void Chess, live");
        assert_eq!(embed["fields"][2]["name"], "`3. Саша🔥`");
        assert_eq!(embed["fields"][2]["value"], "1602? (2 rated games)");
        assert_eq!(embed["description"], "You: #14, 1520.");
        assert_eq!(out.content, "");
    }

    /// Standings go out as an embed whose rows line up in a code block;
    /// the words around them stay the message.
    #[test]
    fn a_table_is_an_embed_in_fixed_width() {
        let rows = vec![
            vec!["#".to_string(), "Player".to_string(), "Pts".to_string()],
            vec!["1".to_string(), "Саша🔥".to_string(), "2½".to_string()],
            vec!["2".to_string(), "bob".to_string(), "1".to_string()],
        ];
        let table = Table::from_rows("T3 standings after round 3".to_string(), rows);
        let text = format!(
            "Standings of T3 after round 3:\n{}\nNext round soon.",
            table.columns()
        );
        let reply = Reply {
            table: Some(table.clone()),
            join: Some(3),
            ..Reply::new(text)
        };
        let out = Outgoing::new(reply);
        let embed = serde_json::to_value(out.embed.clone().expect("an embed")).unwrap();
        assert_eq!(embed["title"], "T3 standings after round 3");
        let description = embed["description"].as_str().unwrap();
        assert!(description.starts_with("```\n#"), "{description}");
        assert!(description.contains("Саша🔥"));
        assert_eq!(
            out.content,
            "Standings of T3 after round 3:\nNext round soon."
        );
        // The Join/Leave buttons, a row of their own.
        let message = serde_json::to_value(out.message()).unwrap();
        let buttons = &message["components"][0]["components"];
        assert_eq!(buttons[0]["custom_id"], "vm:t:join:3");
        assert_eq!(buttons[1]["custom_id"], "vm:t:leave:3");
        // Too long for an embed: the whole table as a file, the words
        // around it as the message.
        let big: Vec<Vec<String>> = (0..300)
            .map(|i| vec![i.to_string(), "x".repeat(20)])
            .collect();
        let table = Table::from_rows("T9 standings after round 7".to_string(), big);
        let reply = Reply {
            table: Some(table.clone()),
            ..Reply::new(format!("Standings of T9:\n{}", table.columns()))
        };
        let out = Outgoing::new(reply);
        assert!(out.embed.is_none());
        assert!(out.content.len() <= MAX_CONTENT);
        assert_eq!(
            out.content,
            "Standings of T9:\n(T9 standings after round 7 is attached: too long to show here.)"
        );
        assert_eq!(out.files.len(), 1);
        let file = serde_json::to_value(&out.files[0]).unwrap();
        assert_eq!(file["filename"], "table.txt", "{file}");
    }

    #[test]
    fn a_long_text_goes_out_whole_as_a_file() {
        let text = "1. e4 e5 ".repeat(400);
        let bob = Player::new(PlayerId::new(PLATFORM, "42"), "bob");
        let reply = Reply {
            notify: vec![bob],
            ..Reply::new(text.clone())
        };
        let out = Outgoing::new(reply);
        assert!(out.content.len() <= MAX_CONTENT);
        assert!(out.content.starts_with("<@42> "));
        assert_eq!(out.files.len(), 1);
    }

    /// The four endpoints carry the same message: the same words, pings,
    /// buttons and files, whichever builder sends it.
    #[test]
    fn every_endpoint_gets_the_same_message() {
        let bob = Player::new(PlayerId::new(PLATFORM, "42"), "bob");
        let reply = Reply {
            notify: vec![bob.clone()],
            actions: vec![crate::game::Action::AnswerChallenge {
                challenger: bob.clone(),
                to: bob.id.clone(),
            }],
            deliveries: vec![7],
            ..Reply::new("hello")
        };
        let out = Outgoing::new(reply);
        let json = |v: serde_json::Value| {
            (
                v["content"].clone(),
                v["allowed_mentions"].clone(),
                v["components"].clone(),
            )
        };
        let want = json(serde_json::to_value(out.clone().message()).unwrap());
        assert_eq!(want.0, "<@42> hello");
        assert_eq!(want.1["users"], serde_json::json!(["42"]));
        assert_eq!(want.2.as_array().map(Vec::len), Some(1));
        for got in [
            serde_json::to_value(out.clone().response()).unwrap(),
            serde_json::to_value(out.clone().edit()).unwrap(),
            serde_json::to_value(out.clone().followup()).unwrap(),
        ] {
            assert_eq!(json(got), want);
        }
        let message = serde_json::to_value(out.message()).unwrap();
        assert_eq!(message["nonce"], "vm-7");
        assert_eq!(message["enforce_nonce"], true);
    }
}
