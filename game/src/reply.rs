//! What the core answers: text with typed mentions, a board, questions to
//! answer with a button, who may see it, and the outbox entries it delivers.

use crate::command::{self, Command, OfferKind, Someone};
use crate::contract::{Player, PlayerId, Text};

/// What an image's bytes are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageFormat {
    Png,
    /// An animated replay.
    Gif,
}

impl ImageFormat {
    /// A file name for an upload.
    pub fn file_name(self) -> &'static str {
        match self {
            ImageFormat::Png => "board.png",
            ImageFormat::Gif => "replay.gif",
        }
    }

    pub fn mime(self) -> &'static str {
        match self {
            ImageFormat::Png => "image/png",
            ImageFormat::Gif => "image/gif",
        }
    }

    pub fn extension(self) -> &'static str {
        match self {
            ImageFormat::Png => "png",
            ImageFormat::Gif => "gif",
        }
    }
}

/// A picture to post with a reply: a PNG board, or a GIF replay.
#[derive(Debug, Clone)]
pub struct Image {
    /// The image's bytes (see `format`; the name is from when every image
    /// was a PNG).
    pub png: Vec<u8>,
    pub format: ImageFormat,
    /// A description for screen readers and platforms that need a body text.
    pub alt: String,
    /// The game it shows, for platforms that lay out a card beside the
    /// picture (a Discord embed). `None` for rules diagrams.
    pub board: Option<BoardCard>,
}

impl Image {
    /// Width and height, read from the image's header.
    pub fn size(&self) -> Option<(u32, u32)> {
        let b = &self.png;
        match self.format {
            ImageFormat::Png if b.len() >= 24 && &b[1..4] == b"PNG" => Some((
                u32::from_be_bytes([b[16], b[17], b[18], b[19]]),
                u32::from_be_bytes([b[20], b[21], b[22], b[23]]),
            )),
            ImageFormat::Gif if b.len() >= 10 && &b[..3] == b"GIF" => Some((
                u16::from_le_bytes([b[6], b[7]]) as u32,
                u16::from_le_bytes([b[8], b[9]]) as u32,
            )),
            _ => None,
        }
    }
}

/// The facts about a game that a board image shows, as data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardCard {
    pub game: i64,
    /// The variant's title: "Void Chess".
    pub variant: String,
    pub white: String,
    pub black: String,
    /// Whose move it is; `None` once the game is over.
    pub to_move: Option<String>,
    /// The last move in SAN.
    pub last_move: Option<String>,
    /// "1-0 (checkmate)" once the game is over.
    pub result: Option<String>,
    pub time_control: String,
    /// The side drawn at the bottom: the viewer's, or the side to move.
    pub bottom: voidmate_rules::Color,
}

/// A question in a reply that one user may answer with a button or a
/// reaction (the adapter decides how to show it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// `to` may accept or decline `challenger`'s challenge.
    AnswerChallenge { challenger: Player, to: PlayerId },
    /// `to` may accept or decline a draw offer or a takeback request in
    /// `game`.
    AnswerOffer {
        kind: OfferKind,
        game: i64,
        to: PlayerId,
    },
}

impl Action {
    /// The questions as stored with an outbox entry, one a line.
    pub fn stored(actions: &[Action]) -> String {
        actions
            .iter()
            .map(|a| match a {
                Action::AnswerChallenge { challenger, to } => {
                    format!("c\t{}\t{}\t{to}", challenger.id, challenger.name)
                }
                Action::AnswerOffer { kind, game, to } => {
                    format!("{}\t{game}\t\t{to}", kind.code())
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Questions read back from [`Action::stored`]; a damaged line is dropped.
    pub fn from_stored(lines: &str) -> Vec<Action> {
        lines
            .lines()
            .filter_map(|line| {
                let mut parts = line.splitn(4, '\t');
                let (kind, arg, name, to) =
                    (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
                let name = (!name.is_empty()).then(|| name.to_string());
                Action::from_parts(kind, arg, name, PlayerId::from_stored(to))
            })
            .collect()
    }

    /// A question from its parts, as stored or put in a button: `c` (a
    /// challenge: `arg` is the challenger's id), `d` or `u` (a draw offer
    /// or takeback: `arg` is the game); `to` answers. `None` if they do not
    /// make one.
    pub fn from_parts(kind: &str, arg: &str, name: Option<String>, to: PlayerId) -> Option<Action> {
        if kind == "c" {
            return Some(Action::AnswerChallenge {
                challenger: Player::stored(arg, name),
                to,
            });
        }
        Some(Action::AnswerOffer {
            kind: OfferKind::from_code(kind)?,
            game: arg.parse().ok()?,
            to,
        })
    }

    /// The only user who may answer.
    pub fn who(&self) -> &PlayerId {
        match self {
            Action::AnswerChallenge { to, .. } | Action::AnswerOffer { to, .. } => to,
        }
    }

    /// The command that answers it, yes or no, typed: no text to read again.
    pub fn answer(&self, accepted: bool) -> Command {
        let answer = if accepted {
            command::Answer::Accept
        } else {
            command::Answer::Decline
        };
        match self {
            Action::AnswerChallenge { challenger, .. } => {
                let challenger = Some(Someone::Known(challenger.clone()));
                if accepted {
                    Command::Accept { challenger }
                } else {
                    Command::Decline { other: challenger }
                }
            }
            Action::AnswerOffer { kind, game, .. } => Command::Offer {
                kind: *kind,
                answer,
                game: Some(*game),
            },
        }
    }
}

impl Reply {
    /// Words for everyone, nobody notified, no board and nothing owed.
    pub fn new(text: impl Into<Text>) -> Reply {
        Reply {
            text: text.into(),
            image: None,
            notify: Vec::new(),
            actions: Vec::new(),
            is_error: false,
            audience: Audience::Everyone,
            deliveries: Vec::new(),
            direct: None,
            thread: None,
            table: None,
            join: None,
            puzzle: None,
            before: Vec::new(),
        }
    }

    /// The idempotency key of this reply's post (a Matrix transaction id, a
    /// Discord nonce): the same for a direct post and for any retry of it
    /// from the outbox. `None` for replies that change nothing.
    pub fn key(&self) -> Option<String> {
        self.deliveries.first().map(|id| delivery_key(*id))
    }
}

/// The idempotency key of outbox entry `id`: at most 25 characters, as a
/// Discord nonce must be.
pub fn delivery_key(id: i64) -> String {
    format!("vm-{id}")
}

/// Who may see a reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Audience {
    /// Everyone in the channel.
    Everyone,
    /// Only the author of the command: a refusal, or the answer to a
    /// private command. Platforms that can (a Discord ephemeral message)
    /// show it so; elsewhere it goes where the command was said, which for
    /// private commands is a direct conversation.
    Author,
}

/// Something the bot owes a channel unprompted (see [`Core::tick`](crate::Core::tick)), or an
/// answer whose direct post was never confirmed.
#[derive(Debug, Clone)]
pub struct Notice {
    pub id: i64,
    pub channel: String,
    pub reply: Reply,
    /// The platform event it answers, if any.
    pub in_reply_to: Option<String>,
}

impl Notice {
    /// The idempotency key of its post (see [`Reply::key`]).
    pub fn key(&self) -> String {
        delivery_key(self.id)
    }
}

/// What the bot says back.
#[derive(Debug, Clone)]
pub struct Reply {
    /// The words, with typed mentions for the adapter to render.
    pub text: Text,
    pub image: Option<Image>,
    /// Who must be notified (the player to move, a challenged player),
    /// whether or not the text mentions them.
    pub notify: Vec<Player>,
    /// Questions someone may answer with a button or a reaction.
    pub actions: Vec<Action>,
    /// `true` when the reply reports a refusal or error.
    pub is_error: bool,
    /// Who may see it.
    pub audience: Audience,
    /// The outbox entries this reply delivers: confirm each with
    /// [`Core::delivered`](crate::Core::delivered) once posted. Unconfirmed, the periodic check
    /// posts them a little later (or right after a restart); post with an
    /// idempotency key made from the first one ([`Reply::key`]) so that a
    /// retry never shows twice.
    pub deliveries: Vec<i64>,
    /// A direct conversation the adapter opens (or finds) with someone,
    /// and what it says there first.
    pub direct: Option<Direct>,
    /// A game that has just begun and is to be played in a thread of its
    /// own: the adapter opens it, moves the game there
    /// ([`Core::move_game`](crate::Core::move_game)), posts this reply in it
    /// and leaves a pointer in the channel. Only platforms whose
    /// [`CommandStyle::threads`](crate::CommandStyle) is set get one.
    pub thread: Option<GameThread>,
    /// A table the text also shows (standings, pairings): an adapter may
    /// lay it out its own way (a Discord embed, a Matrix HTML table).
    pub table: Option<Table>,
    /// A tournament anyone may join or leave with a button (Discord).
    pub join: Option<i64>,
    /// Buttons for a puzzle being solved, or just solved (Discord).
    pub puzzle: Option<PuzzleButtons>,
    /// Answers owed in this channel to earlier events and not yet posted
    /// (their process died, or their post is late): post each of these
    /// first, in order, confirming each ([`Core::delivered`](crate::Core::delivered) or
    /// [`Core::failed`](crate::Core::failed)), then this reply, so the channel reads its answers
    /// in the order of the events (issue 40, point 4).
    pub before: Vec<Notice>,
}

/// The buttons under a puzzle's board: each acts for whoever presses it,
/// on their own puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PuzzleButtons {
    /// Puzzle `id` is open: Hint, Solution and Next (another of `game`).
    Open {
        id: i64,
        game: voidmate_rules::GameKind,
    },
    /// A puzzle just ended: Next (another of `game`).
    Ended { game: voidmate_rules::GameKind },
}

/// What a thread is opened for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Threaded {
    /// A game that begins.
    Game(i64),
    /// A tournament just created: its rounds, games and notices go there.
    Tournament(i64),
}

/// A thread to open for a game or a tournament.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameThread {
    pub subject: Threaded,
    /// The thread's name: the game's number, players and variant (or the
    /// tournament's), at most 100 characters (Discord's limit).
    pub name: String,
}

impl GameThread {
    pub fn new(game: i64, white: &str, black: &str, variant: &str) -> GameThread {
        let name = format!("#{game} {white} vs {black} · {variant}");
        GameThread {
            subject: Threaded::Game(game),
            name: name.chars().take(100).collect(),
        }
    }

    /// The thread of tournament `id`, named `name`.
    pub fn tournament(id: i64, name: &str) -> GameThread {
        GameThread {
            subject: Threaded::Tournament(id),
            name: name.chars().take(100).collect(),
        }
    }
}

/// A table in a reply: a title, then rows of cells, the first the header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    pub title: String,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    pub fn from_rows(title: String, rows: Vec<Vec<String>>) -> Table {
        Table { title, rows }
    }

    /// The table as text in columns (as the reply's text shows it).
    pub fn text(&self) -> String {
        format!("{}\n{}", self.title, self.columns())
    }

    /// The rows in columns, without the title: the part of the reply's
    /// text an adapter may lay out its own way.
    pub fn columns(&self) -> String {
        crate::words::table(&self.rows)
    }
}

/// A direct conversation to open: with whom, and its first words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Direct {
    pub with: Player,
    pub greeting: Text,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A thread's name fits Discord's 100 characters whatever the players
    /// are called: long, multi-byte or empty names included.
    #[test]
    fn thread_names_fit_whatever_the_names() {
        let t = GameThread::new(12, "alice", "bob", "Void Chess");
        assert_eq!(t.name, "#12 alice vs bob · Void Chess");
        let long = "Ünïcødé 🐉 ".repeat(40);
        let t = GameThread::new(7, &long, &long, "Super Chess 16x16");
        assert_eq!(t.name.chars().count(), 100);
        assert!(t.name.starts_with("#7 Ünïcødé 🐉"));
        let t = GameThread::new(3, "", "", "Chess 99");
        assert_eq!(t.name, "#3  vs  · Chess 99");
    }

    #[test]
    fn questions_survive_the_outbox() {
        let alice = Player::new(PlayerId::new("t", "1"), "Alice Liddell");
        let bob = PlayerId::new("t", "2");
        let all = vec![
            Action::AnswerChallenge {
                challenger: alice,
                to: bob.clone(),
            },
            Action::AnswerOffer {
                kind: OfferKind::Draw,
                game: 3,
                to: bob.clone(),
            },
            Action::AnswerOffer {
                kind: OfferKind::Takeback,
                game: 4,
                to: bob,
            },
        ];
        assert_eq!(Action::from_stored(&Action::stored(&all)), all);
        // The stored form is the one older versions wrote: `d` and `u`.
        assert_eq!(Action::stored(&all[1..]), "d\t3\t\tt:2\nu\t4\t\tt:2");
        assert!(Action::from_stored("x\t1\t\tt:2\nd\tnan\t\tt:2").is_empty());
    }
}
