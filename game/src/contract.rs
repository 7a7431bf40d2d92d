//! Who speaks and who is named: the identities an adapter hands the core, and
//! reply text whose mentions are typed, so that each adapter renders them its
//! own way (a Discord `<@id>`, a Matrix pill, `@name` in the console) without
//! looking for names in words.

use std::fmt;
use std::ops::{Deref, Range};

/// A person as their platform knows them, by an id that never changes when
/// they rename: `discord:80351110224678912`, `matrix:@alice:example.org`,
/// `console:alice`. The part before the first colon is the platform (the
/// adapter's namespace); the core compares ids and never reads them.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlayerId(String);

impl PlayerId {
    /// The id `local` has on `platform` (`"discord"`, `"matrix"`, ...).
    pub fn new(platform: &str, local: &str) -> PlayerId {
        PlayerId(format!("{platform}:{local}"))
    }

    /// An id as stored (`platform:local`).
    pub fn from_stored(s: impl Into<String>) -> PlayerId {
        PlayerId(s.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The platform's namespace: `discord`, `matrix`, `console`.
    pub fn platform(&self) -> &str {
        self.0.split_once(':').map_or("", |(p, _)| p)
    }

    /// The platform's own id: a Discord snowflake, a Matrix user id.
    pub fn local(&self) -> &str {
        self.0.split_once(':').map_or(self.0.as_str(), |(_, l)| l)
    }

    /// A name to show when no display name was ever seen: the local part,
    /// without a Matrix id's `@` and server.
    pub fn fallback_name(&self) -> String {
        let local = self.local().trim_start_matches('@');
        match local.split_once(':') {
            Some((user, _)) if self.local().starts_with('@') => user.to_string(),
            _ => local.to_string(),
        }
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A person: the identity that decides what they may do, and the name they
/// go by now, which only decides what replies show.
#[derive(Debug, Clone, Eq)]
pub struct Player {
    pub id: PlayerId,
    pub name: String,
}

impl Player {
    pub fn new(id: PlayerId, name: impl Into<String>) -> Player {
        let name = name.into();
        let name = if name.trim().is_empty() {
            id.fallback_name()
        } else {
            name
        };
        Player { id, name }
    }

    /// A player read from storage: the display name last seen, if any.
    pub fn stored(id: &str, name: Option<String>) -> Player {
        let id = PlayerId::from_stored(id);
        match name {
            Some(n) => Player::new(id, n),
            None => {
                let name = id.fallback_name();
                Player { id, name }
            }
        }
    }
}

/// Two players are the same person when their ids are: a display name
/// never decides who someone is.
impl PartialEq for Player {
    fn eq(&self, other: &Player) -> bool {
        self.id == other.id
    }
}

/// A stored seat (an id, as games and challenges hold them) is this player.
impl PartialEq<Player> for String {
    fn eq(&self, other: &Player) -> bool {
        self.as_str() == other.id.as_str()
    }
}

impl PartialEq<&Player> for String {
    fn eq(&self, other: &&Player) -> bool {
        self.as_str() == other.id.as_str()
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

/// Someone the adapter found named in a chat line, already resolved: the
/// words as written (`<@80351110224678912>`, `@bob:example.org`, a pill's
/// label) and who they are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mentioned {
    pub written: String,
    pub who: Player,
}

/// Reply text with typed mentions: the plain text shows each mentioned
/// player as `@name`, and [`Text::segments`] tells an adapter where they are,
/// so it can render a real mention instead.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Text {
    plain: String,
    mentions: Vec<(Range<usize>, Player)>,
}

/// A piece of [`Text`]: words, or a mention of a player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Segment<'a> {
    Plain(&'a str),
    Mention(&'a Player),
}

impl Text {
    pub fn new() -> Text {
        Text::default()
    }

    /// Appends words.
    pub fn say(mut self, words: impl AsRef<str>) -> Text {
        self.push_str(words.as_ref());
        self
    }

    /// Appends a mention of `who`.
    pub fn mention(mut self, who: &Player) -> Text {
        self.push_mention(who);
        self
    }

    pub fn push_str(&mut self, words: &str) {
        self.plain.push_str(words);
    }

    pub fn push_mention(&mut self, who: &Player) {
        let start = self.plain.len();
        self.plain.push('@');
        self.plain.push_str(&who.name);
        self.mentions.push((start..self.plain.len(), who.clone()));
    }

    /// Appends another text, its mentions kept.
    pub fn push_text(&mut self, other: &Text) {
        let shift = self.plain.len();
        self.plain.push_str(&other.plain);
        self.mentions.extend(
            other
                .mentions
                .iter()
                .map(|(r, p)| (r.start + shift..r.end + shift, p.clone())),
        );
    }

    /// The text from byte `from` on (a char boundary), the mentions there
    /// kept; one cut by `from` is dropped.
    pub fn tail(&self, from: usize) -> Text {
        let from = from.min(self.plain.len());
        Text {
            plain: self.plain[from..].to_string(),
            mentions: self
                .mentions
                .iter()
                .filter(|(r, _)| r.start >= from)
                .map(|(r, p)| (r.start - from..r.end - from, p.clone()))
                .collect(),
        }
    }

    /// The text as plain words, mentions as `@name`.
    pub fn as_str(&self) -> &str {
        &self.plain
    }

    /// The players mentioned, in order.
    pub fn mentioned(&self) -> impl Iterator<Item = &Player> {
        self.mentions.iter().map(|(_, p)| p)
    }

    /// Words and mentions in order, for an adapter to render.
    pub fn segments(&self) -> Vec<Segment<'_>> {
        let mut out = Vec::new();
        let mut at = 0;
        for (range, who) in &self.mentions {
            if range.start > at {
                out.push(Segment::Plain(&self.plain[at..range.start]));
            }
            out.push(Segment::Mention(who));
            at = range.end;
        }
        if at < self.plain.len() {
            out.push(Segment::Plain(&self.plain[at..]));
        }
        out
    }

    /// The mentions as stored with an outbox entry: one line per mention,
    /// `start end id name`, tab-separated.
    pub fn mentions_stored(&self) -> String {
        self.mentions
            .iter()
            .map(|(r, p)| format!("{}\t{}\t{}\t{}", r.start, r.end, p.id, p.name))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// A text read back from storage; mentions that do not fit the text
    /// (a damaged row) are dropped, the words kept.
    pub fn from_stored(plain: String, mentions: &str) -> Text {
        let mut text = Text {
            plain,
            mentions: Vec::new(),
        };
        let mut at = 0;
        for line in mentions.lines() {
            let mut parts = line.splitn(4, '\t');
            let (Some(s), Some(e), Some(id), name) =
                (parts.next(), parts.next(), parts.next(), parts.next())
            else {
                continue;
            };
            let (Ok(s), Ok(e)) = (s.parse::<usize>(), e.parse::<usize>()) else {
                continue;
            };
            let fits = s >= at
                && s < e
                && e <= text.plain.len()
                && text.plain.is_char_boundary(s)
                && text.plain.is_char_boundary(e);
            if fits {
                let who = Player::stored(id, name.map(str::to_string));
                text.mentions.push((s..e, who));
                at = e;
            }
        }
        text
    }
}

impl From<String> for Text {
    fn from(plain: String) -> Text {
        Text {
            plain,
            mentions: Vec::new(),
        }
    }
}

impl From<&str> for Text {
    fn from(plain: &str) -> Text {
        Text::from(plain.to_string())
    }
}

/// A text equals the words it shows (mentions as `@name`).
impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.plain == *other
    }
}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.plain == other
    }
}

impl PartialEq<String> for Text {
    fn eq(&self, other: &String) -> bool {
        &self.plain == other
    }
}

impl Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        &self.plain
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.plain)
    }
}

/// Players stored one a line as `id` or `id<TAB>name` (whom a notice
/// notifies).
pub fn players_stored(players: &[Player]) -> String {
    players
        .iter()
        .map(|p| format!("{}\t{}", p.id, p.name))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Players read back from [`players_stored`].
pub fn players_from_stored(lines: &str) -> Vec<Player> {
    lines
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| match l.split_once('\t') {
            Some((id, name)) => Player::stored(id, Some(name.to_string())),
            None => Player::stored(l, None),
        })
        .collect()
}

/// The `@name` handles in a chat line, as the console and tests name
/// people: each becomes a player of `platform` with that name as id.
pub fn handles(line: &str, platform: &str) -> Vec<Mentioned> {
    let mut out: Vec<Mentioned> = Vec::new();
    for word in line.split_whitespace() {
        let Some(name) = word.strip_prefix('@') else {
            continue;
        };
        let name = name.trim_end_matches([',', '.', '!', '?', ':', ';']);
        if name.is_empty() || out.iter().any(|m| m.written == word) {
            continue;
        }
        out.push(Mentioned {
            written: word.to_string(),
            who: Player::new(PlayerId::new(platform, name), name),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(id: &str, name: &str) -> Player {
        Player::new(PlayerId::new("t", id), name)
    }

    #[test]
    fn a_renamed_player_is_the_same_player() {
        assert_eq!(p("1", "alice"), p("1", "Alice Liddell"));
        assert_ne!(p("1", "alice"), p("2", "alice"));
    }

    #[test]
    fn segments_put_mentions_where_they_were_written() {
        let bob = p("2", "Bob Smith");
        let t = Text::new()
            .mention(&bob)
            .say(", your move against ")
            .say("alice.");
        assert_eq!(t.as_str(), "@Bob Smith, your move against alice.");
        assert_eq!(
            t.segments(),
            vec![
                Segment::Mention(&bob),
                Segment::Plain(", your move against alice.")
            ]
        );
        let mut outer = Text::from("Game #1: ");
        outer.push_text(&t);
        assert_eq!(outer.segments()[1], Segment::Mention(&bob));
        assert_eq!(outer.mentioned().count(), 1);
        let tail = outer.tail("Game #1: ".len());
        assert_eq!(tail, t);
        assert_eq!(outer.tail(2).mentioned().count(), 1);
        assert_eq!(outer.tail(12).mentioned().count(), 0);
    }

    #[test]
    fn stored_mentions_read_back_and_damage_is_dropped() {
        let bob = p("2", "Bob Smith");
        let t = Text::from("Hi ").mention(&bob).say(" é!");
        let back = Text::from_stored(t.as_str().to_string(), &t.mentions_stored());
        assert_eq!(back, t);
        let cut = Text::from_stored("Hi".into(), &t.mentions_stored());
        assert_eq!(cut.as_str(), "Hi");
        assert_eq!(cut.mentioned().count(), 0);
        let junk = Text::from_stored("Hi @x".into(), "a\tb\tc\n3\t5");
        assert_eq!(junk.mentioned().count(), 0);
    }

    #[test]
    fn fallback_names_are_readable() {
        assert_eq!(
            PlayerId::new("matrix", "@alice:example.org").fallback_name(),
            "alice"
        );
        assert_eq!(PlayerId::new("discord", "123").fallback_name(), "123");
        assert_eq!(PlayerId::new("console", "bob").fallback_name(), "bob");
    }

    #[test]
    fn odd_handles_never_panic() {
        let long = "@x".repeat(10000);
        for line in ["", "@", "@@ @, @日本 é@é", long.as_str()] {
            let _ = handles(line, "console");
        }
        assert_eq!(handles("@日本", "console")[0].who.name, "日本");
        assert!(handles("@ @,", "console").is_empty());
    }

    #[test]
    fn handles_resolve_at_words() {
        let m = handles("challenge @bob, and @bob again @bob", "console");
        assert_eq!(m.len(), 2, "{m:?}");
        assert!(m
            .iter()
            .all(|m| m.who.id == PlayerId::new("console", "bob")));
    }
}
