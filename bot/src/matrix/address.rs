//! Reading a room message as Element sends it: the command it carries, and
//! whether it was said to the bot.
//!
//! Element writes a mention as a pill: a link to `https://matrix.to/#/@user:server`
//! in `formatted_body`, with the user's display name (which may have spaces)
//! in both bodies, and the user in `m.mentions`. We read the formatted body
//! when there is one and put the user id where the pill was, so that
//! `challenge Bob Smith void` reaches the core as `challenge @bob:server void`.

/// The command text of a message: the formatted body with pills as user ids
/// and tags dropped, or else the plain body; reply fallbacks removed.
pub fn command_text(body: &str, html: Option<&str>) -> String {
    match html {
        Some(html) => html_to_text(html),
        None => strip_reply_fallback(body).to_string(),
    }
}

/// The body without a reply's quoted fallback (`> <@bob:x> e4`), which
/// older clients put before the reply itself.
pub fn strip_reply_fallback(body: &str) -> &str {
    let mut rest = body;
    while rest.starts_with("> ") {
        rest = rest.split_once('\n').map(|(_, r)| r).unwrap_or("");
    }
    rest.trim()
}

/// HTML to command text: a link to a Matrix user becomes the user id, a
/// reply fallback (`<mx-reply>`) goes, line breaks stay, other tags go and
/// entities are decoded.
fn html_to_text(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    // Inside a link to a user: its text is replaced by the user id.
    let mut in_pill = false;
    while let Some(lt) = rest.find('<') {
        if !in_pill {
            out.push_str(&decode(&rest[..lt]));
        }
        let Some(gt) = rest[lt..].find('>') else {
            rest = "";
            break;
        };
        let tag = &rest[lt + 1..lt + gt];
        rest = &rest[lt + gt + 1..];
        let name = tag
            .trim_start_matches('/')
            .split(|c: char| c.is_whitespace() || c == '/')
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        let closing = tag.starts_with('/');
        match name.as_str() {
            "mx-reply" if !closing => {
                rest = match rest.find("</mx-reply>") {
                    Some(end) => &rest[end + "</mx-reply>".len()..],
                    None => "",
                };
            }
            "a" if !closing => {
                if let Some(user) = pill_target(tag) {
                    out.push_str(&user);
                    in_pill = true;
                }
            }
            "a" => in_pill = false,
            "br" => out.push('\n'),
            "p" | "div" | "li" if !closing && !out.is_empty() => out.push('\n'),
            _ => {}
        }
    }
    if !in_pill {
        out.push_str(&decode(rest));
    }
    out.trim().to_string()
}

/// The user id a link points to, if it is a pill (`https://matrix.to/#/@u:s`
/// or a `matrix:u/u:s` URI).
fn pill_target(tag: &str) -> Option<String> {
    let start = tag.find("href=")? + "href=".len();
    let value = &tag[start..];
    let quote = value.chars().next()?;
    let value = if quote == '"' || quote == '\'' {
        let inner = &value[1..];
        &inner[..inner.find(quote)?]
    } else {
        value.split_whitespace().next()?
    };
    let value = decode(value);
    let id = if let Some(rest) = value.strip_prefix("https://matrix.to/#/") {
        percent_decode(rest.split('?').next()?)
    } else if let Some(rest) = value.strip_prefix("matrix:u/") {
        format!("@{}", percent_decode(rest.split('?').next()?))
    } else {
        return None;
    };
    (id.starts_with('@') && id.contains(':')).then_some(id)
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn decode(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&nbsp;", " ")
        .replace("&amp;", "&")
}

/// How a message reached the bot, before the core sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Addressed {
    /// Said to the bot (prefix, mention, reply to it, or a room of the
    /// bot and one person).
    pub to_bot: bool,
    /// The command, without the prefix or the mention that addressed it.
    pub command: String,
}

/// What is known about a message, for [`address`].
pub struct Facts<'a> {
    /// The command text ([`command_text`]).
    pub text: &'a str,
    pub prefix: &'a str,
    /// The bot's user id and the names it shows in this room.
    pub bot: &'a str,
    pub bot_names: &'a [String],
    /// The bot is in the message's intentional mentions.
    pub mentions_bot: bool,
    /// The message replies to one of the bot's messages.
    pub replies_to_bot: bool,
    /// Only the bot and one person are in the room.
    pub alone_with_bot: bool,
}

/// Whether a message is for the bot, and the command in it. In a shared
/// room only the prefix, a mention of the bot or a reply to it address the
/// bot; anything else is chatter (which the core takes only as a bare move
/// by the player to move).
pub fn address(f: &Facts) -> Addressed {
    let text = f.text.trim();
    if let Some(rest) = strip_word(text, f.prefix) {
        return Addressed {
            to_bot: true,
            command: rest.to_string(),
        };
    }
    // The bot named at the start (a pill, its id, or the name a client
    // wrote for the pill): the rest is the command.
    let names = std::iter::once(f.bot).chain(f.bot_names.iter().map(String::as_str));
    for name in names {
        let bare = name.trim_start_matches('@');
        let lead = text.strip_prefix('@').unwrap_or(text);
        if let Some(rest) = strip_word_ci(lead, bare) {
            if f.mentions_bot || name == f.bot {
                let rest = rest.trim_start_matches([':', ',']).trim();
                return Addressed {
                    to_bot: true,
                    command: rest.to_string(),
                };
            }
        }
    }
    Addressed {
        to_bot: f.mentions_bot || f.replies_to_bot || f.alone_with_bot,
        command: text.to_string(),
    }
}

/// `text` without a leading `word` that stands alone (followed by nothing,
/// a space, `:` or `,`).
fn strip_word<'t>(text: &'t str, word: &str) -> Option<&'t str> {
    let rest = text.strip_prefix(word)?;
    ends_word(rest).then(|| rest.trim_start_matches([':', ',']).trim())
}

fn strip_word_ci<'t>(text: &'t str, word: &str) -> Option<&'t str> {
    if word.is_empty() || text.len() < word.len() || !text.is_char_boundary(word.len()) {
        return None;
    }
    let (head, rest) = text.split_at(word.len());
    (head.eq_ignore_ascii_case(word) && ends_word(rest)).then_some(rest)
}

fn ends_word(rest: &str) -> bool {
    rest.is_empty() || rest.starts_with(|c: char| c.is_whitespace() || c == ':' || c == ',')
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOT: &str = "@voidmate:example.org";

    fn facts(text: &str) -> Facts<'_> {
        Facts {
            text,
            prefix: "!vm",
            bot: BOT,
            bot_names: &[],
            mentions_bot: false,
            replies_to_bot: false,
            alone_with_bot: false,
        }
    }

    #[test]
    fn pills_become_user_ids_and_tags_go() {
        let html = "<a href=\"https://matrix.to/#/@bob:example.org\">Bob Smith</a>: \
                    <code>challenge</code> <a href='https://matrix.to/#/%40carol%3Aexample.org'>Carol</a> &amp; more";
        assert_eq!(
            command_text("Bob Smith: challenge Carol & more", Some(html)),
            "@bob:example.org: challenge @carol:example.org & more"
        );
        let reply = "<mx-reply><blockquote>In reply to <a href=\"https://matrix.to/#/@voidmate:example.org\">Voidmate</a> e4</blockquote></mx-reply>e5";
        assert_eq!(
            command_text("> <@voidmate:example.org> e4\n\ne5", Some(reply)),
            "e5"
        );
        assert_eq!(
            command_text("> <@voidmate:example.org> e4\n> more\n\n!vm e5", None),
            "!vm e5"
        );
        assert_eq!(command_text("x", Some("a<br>b<br/>c")), "a\nb\nc");
        // A link that is no pill keeps its text.
        assert_eq!(
            command_text("x", Some("see <a href=\"https://example.org\">this</a>")),
            "see this"
        );
        // Broken HTML never panics.
        for odd in [
            "<a href=",
            "<",
            "<a href='https://matrix.to/#/@x",
            "é<b>ü",
            "%",
            "<a href=\"https://matrix.to/#/%4\">x</a>",
        ] {
            let _ = command_text(odd, Some(odd));
        }
    }

    /// Odd text never panics: empty, multi-byte at every boundary the
    /// readers cut at, broken markup, and oversized lines.
    #[test]
    fn odd_text_never_panics() {
        let big = "é🎉<a href=\"https://matrix.to/#/@x:y\">".repeat(20_000);
        let odd = [
            "",
            " ",
            "é",
            "!vmé",
            "!vm",
            "Vóidmate: board",
            "vóidmate",
            "🎉🎉",
            "<",
            "<a",
            "<a href='",
            "<mx-reply>",
            "&amp;&#39;&",
            "%",
            "%e",
            "%é9",
            big.as_str(),
        ];
        let names = vec!["Vóidmate".to_string(), "é".to_string(), String::new()];
        for text in odd {
            let line = command_text(text, Some(text));
            assert!(line.len() <= text.len() * 2 + 64);
            let _ = command_text(text, None);
            for mentions_bot in [false, true] {
                let mut f = facts(text);
                f.bot_names = &names;
                f.mentions_bot = mentions_bot;
                let a = address(&f);
                assert!(a.command.len() <= text.len());
            }
        }
        let mut f = facts("Vóidmate: board");
        f.bot_names = &names;
        f.mentions_bot = true;
        assert_eq!(address(&f).command, "board");
    }

    #[test]
    fn the_prefix_a_mention_or_a_reply_addresses_the_bot() {
        let a = address(&facts("!vm e4"));
        assert_eq!((a.to_bot, a.command.as_str()), (true, "e4"));
        // A word that only starts with the prefix is chatter.
        assert!(!address(&facts("!vmx e4")).to_bot);
        let chat = address(&facts("hello everyone, lunch?"));
        assert_eq!(
            (chat.to_bot, chat.command.as_str()),
            (false, "hello everyone, lunch?")
        );
        // A pill of the bot at the start, however the client wrote it.
        let names = vec!["Voidmate".to_string()];
        for text in [
            "@voidmate:example.org: board",
            "Voidmate: board",
            "voidmate board",
            "@Voidmate, board",
        ] {
            let mut f = facts(text);
            f.bot_names = &names;
            f.mentions_bot = true;
            let a = address(&f);
            assert_eq!((a.to_bot, a.command.as_str()), (true, "board"), "{text}");
        }
        // The name without a mention is chatter ("voidmate is fun").
        let mut f = facts("Voidmate is fun");
        f.bot_names = &names;
        assert!(!address(&f).to_bot);
        // A mention elsewhere in the line addresses the bot with the line.
        let mut f = facts("board please @voidmate:example.org");
        f.mentions_bot = true;
        assert!(address(&f).to_bot);
        let mut f = facts("e4");
        f.replies_to_bot = true;
        assert!(address(&f).to_bot);
        let mut f = facts("board");
        f.alone_with_bot = true;
        assert!(address(&f).to_bot);
    }
}
