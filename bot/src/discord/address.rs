//! Whether a Discord message is for the bot, and the command text it
//! carries: a pure decision over what Discord says about the message.
//!
//! Without the message-content intent Discord shows a guild message's text
//! only when it mentions the bot or replies to one of its messages, and
//! every direct message (`topics/gateway#message-content-intent`). The bot
//! is mentioned as a user (`<@id>`, or `<@!id>` from older clients) or as
//! its managed role, which Discord's member list offers under the bot's
//! name (`<@&role>`).

/// What Discord says about a message, as far as addressing goes.
#[derive(Debug, Clone)]
pub struct Message<'a> {
    /// The text as Discord sends it, mentions as `<@id>`.
    pub content: &'a str,
    /// The users the message mentions.
    pub mentions: &'a [u64],
    /// The roles the message mentions.
    pub mention_roles: &'a [u64],
    /// Whether it replies to one of the bot's messages.
    pub replies_to_bot: bool,
    /// Whether it was sent in a direct message (no guild).
    pub direct: bool,
    /// Whether the author is a bot (the bot itself included).
    pub from_a_bot: bool,
}

/// Who the bot is, and what it may read.
#[derive(Debug, Clone, Copy)]
pub struct Bot {
    pub id: u64,
    /// Its managed role in the message's guild, if known.
    pub role: Option<u64>,
    /// Whether it has the message-content intent.
    pub reads_all: bool,
}

/// What the message is for the bot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Addressed {
    /// The command text: a leading mention of the bot dropped, spaces
    /// collapsed.
    pub text: String,
    /// Said to the bot (mentioned, or in a direct message). A reply without
    /// a mention is only taken as a move: "nice one!" under a board is not
    /// a command.
    pub addressed: bool,
    /// Only the author and the bot see it.
    pub private: bool,
    /// The bot was named through its role (`challenge @Voidmate` picked as
    /// the role): that mention means the bot.
    pub role_mention: Option<String>,
}

/// How the bot reads `msg`; `None`: not for the bot at all.
pub fn read(msg: &Message<'_>, bot: Bot) -> Option<Addressed> {
    if msg.from_a_bot {
        return None;
    }
    let role = bot.role.filter(|r| msg.mention_roles.contains(r));
    let tags: Vec<String> = [format!("<@{}>", bot.id), format!("<@!{}>", bot.id)]
        .into_iter()
        .chain(role.map(|r| format!("<@&{r}>")))
        .collect();
    let mentioned = (msg.mentions.contains(&bot.id) || role.is_some())
        && tags.iter().any(|t| msg.content.contains(t.as_str()));
    if !mentioned && !msg.replies_to_bot && !msg.direct && !bot.reads_all {
        return None;
    }
    // A leading mention of the bot only addresses it; any other mention of
    // it names it (`@Voidmate challenge @Voidmate`, or `challenge @Voidmate`).
    let content = msg.content.trim_start();
    let text = tags
        .iter()
        .find_map(|t| content.strip_prefix(t.as_str()))
        .unwrap_or(content);
    Some(Addressed {
        text: text.split_whitespace().collect::<Vec<_>>().join(" "),
        addressed: mentioned || msg.direct,
        private: msg.direct,
        role_mention: role.map(|r| format!("<@&{r}>")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOT: Bot = Bot {
        id: 10,
        role: Some(77),
        reads_all: false,
    };

    fn msg<'a>(content: &'a str, mentions: &'a [u64], roles: &'a [u64]) -> Message<'a> {
        Message {
            content,
            mentions,
            mention_roles: roles,
            replies_to_bot: false,
            direct: false,
            from_a_bot: false,
        }
    }

    #[test]
    fn a_leading_mention_addresses_and_is_dropped() {
        for content in ["<@10> e4", "<@!10>   e4", "  <@10>e4"] {
            let a = read(&msg(content, &[10], &[]), BOT).unwrap();
            assert_eq!(a.text, "e4", "{content}");
            assert!(a.addressed && !a.private);
        }
        // Elsewhere in the line the mention names the bot, and stays.
        let a = read(&msg("challenge <@10> void", &[10], &[]), BOT).unwrap();
        assert_eq!(a.text, "challenge <@10> void");
        assert!(a.addressed);
    }

    #[test]
    fn the_bots_role_counts_as_the_bot() {
        let a = read(&msg("<@&77> challenge <@&77>", &[], &[77]), BOT).unwrap();
        assert_eq!(a.text, "challenge <@&77>");
        assert_eq!(a.role_mention.as_deref(), Some("<@&77>"));
        // Another role is not the bot.
        assert_eq!(read(&msg("<@&78> e4", &[], &[78]), BOT), None);
        // Without the role known, a role mention addresses nothing.
        let unknown = Bot { role: None, ..BOT };
        assert_eq!(read(&msg("<@&77> e4", &[], &[77]), unknown), None);
    }

    /// Discord lists a user in `mentions` for a reply's ping too, without
    /// the tag in the text: that is a reply, not an address.
    #[test]
    fn a_listed_mention_without_its_tag_does_not_address() {
        assert_eq!(read(&msg("e4", &[10], &[]), BOT), None);
        let reply = Message {
            replies_to_bot: true,
            ..msg("e4", &[10], &[])
        };
        let a = read(&reply, BOT).unwrap();
        assert_eq!((a.text.as_str(), a.addressed), ("e4", false));
    }

    #[test]
    fn direct_messages_are_private_and_addressed() {
        let dm = Message {
            direct: true,
            ..msg("board", &[], &[])
        };
        let a = read(&dm, BOT).unwrap();
        assert!(a.addressed && a.private);
    }

    #[test]
    fn chatter_reaches_the_core_only_with_the_intent() {
        assert_eq!(read(&msg("e4", &[], &[]), BOT), None);
        let reads = Bot {
            reads_all: true,
            ..BOT
        };
        let a = read(&msg("  e4   #2 ", &[], &[]), reads).unwrap();
        assert_eq!(a.text, "e4 #2");
        assert!(!a.addressed);
    }

    /// Any text: multi-byte, empty, oversized, a mention cut short.
    #[test]
    fn odd_text_is_read_without_panic() {
        let long = format!("<@10> {}", "é🎉 ".repeat(10_000));
        for content in ["", "<@", "<@10", "<@10>", "  <@!10>日本", long.as_str()] {
            let _ = read(&msg(content, &[10], &[]), BOT);
        }
        assert_eq!(read(&msg("<@10>", &[10], &[]), BOT).unwrap().text, "");
        let a = read(&msg("  <@!10>日本  語", &[10], &[]), BOT).unwrap();
        assert_eq!(a.text, "日本 語");
        let a = read(&msg(&long, &[10], &[]), BOT).unwrap();
        assert_eq!(a.text.chars().count(), 3 * 10_000 - 1);
    }

    #[test]
    fn bots_are_never_answered() {
        let from_bot = Message {
            from_a_bot: true,
            direct: true,
            ..msg("<@10> e4", &[10], &[])
        };
        assert_eq!(read(&from_bot, BOT), None);
    }
}
