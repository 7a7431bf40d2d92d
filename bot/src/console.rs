//! The console adapter: play in a terminal. Each line is a message in one
//! channel (`console`); `as NAME` changes who is speaking. Board images are
//! written to a folder and their paths printed.

use crate::game::{contract, Core, Incoming, Input, Player, PlayerId};
use anyhow::{Context, Result};
use std::io::Write;
use std::path::PathBuf;
use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// The bot's name in console mode.
pub const BOT_NAME: &str = "voidmate";

/// How often the console runs the periodic check while waiting for a line.
const TICK: std::time::Duration = std::time::Duration::from_secs(1);

/// Board images older than this are removed when a console session starts:
/// each move writes one, and nothing else ever clears the folder.
pub const KEEP_IMAGES: std::time::Duration = std::time::Duration::from_secs(7 * 24 * 3600);

/// Removes the console's board images (`board-*.png`, `notice-*.png`) in `dir` last written
/// more than `max_age` ago; other files are left alone. Returns how many.
pub fn prune_images(dir: &std::path::Path, max_age: std::time::Duration) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let now = std::time::SystemTime::now();
    entries
        .flatten()
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            (name.starts_with("board-") || name.starts_with("notice-"))
                && (name.ends_with(".png") || name.ends_with(".gif"))
        })
        .filter(|e| {
            e.metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| now.duration_since(t).ok())
                .is_some_and(|age| age > max_age)
        })
        .filter(|e| std::fs::remove_file(e.path()).is_ok())
        .count()
}

/// The console's namespace of identities.
pub const PLATFORM: &str = "console";

/// Someone in the terminal, whose name is their identity: ignoring case
/// (`@Bob` is `@bob`, as a chat platform's handle is one person however it
/// is written) and with any spaces as `_` (`"عبد الله"` is `عبد_الله`).
pub fn console_player(name: &str) -> Player {
    Player::new(console_id(name), name)
}

fn console_id(name: &str) -> PlayerId {
    let words: Vec<String> = name.split_whitespace().map(str::to_lowercase).collect();
    PlayerId::new(PLATFORM, &words.join("_"))
}

/// The longest name `as` takes, in characters.
const MAX_NAME_CHARS: usize = 64;

/// The name in `as NAME`: `bob`, `@Bob`, `"عبد الله"` (quotes for a name
/// with spaces; a name with spaces without them is taken whole too).
fn speaker_name(rest: &str) -> Result<String, String> {
    let name = rest.trim().trim_start_matches('@');
    let name = unquoted(name).unwrap_or(name).trim();
    if name.is_empty() {
        return Err("`as` needs a name, like `as bob` or `as \"Mary Ann\"`.".into());
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(format!(
            "That name is too long: at most {MAX_NAME_CHARS} characters."
        ));
    }
    if name.contains(['@', '#', '"']) || name.chars().any(char::is_control) {
        return Err("A name cannot hold `@`, `#` or quotes.".into());
    }
    Ok(name.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// The text inside straight or curly double quotes, if `s` is quoted.
fn unquoted(s: &str) -> Option<&str> {
    let s = s.strip_prefix(['"', '“'])?;
    s.strip_suffix(['"', '”'])
}

/// A line as the core reads it and who it mentions: `@"Mary Ann"` (a name
/// with spaces, quoted) becomes the handle `@mary_ann`, and every handle
/// names the console identity of its name, whatever its case.
fn with_mentions(line: &str) -> (String, Vec<contract::Mentioned>) {
    let mut text = String::with_capacity(line.len());
    let mut spoken: Vec<(String, String)> = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("@\"").or_else(|| rest.find("@“")) {
        let open = at + 1 + rest[at + 1..].chars().next().map_or(1, char::len_utf8);
        let Some(len) = rest[open..].find(['"', '”']) else {
            break;
        };
        let name: String = rest[open..open + len]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let close = open + len + rest[open + len..].chars().next().map_or(1, char::len_utf8);
        text.push_str(&rest[..at]);
        if name.is_empty() {
            text.push_str(&rest[at..close]);
        } else {
            let handle = format!("@{}", console_id(&name).local());
            text.push_str(&handle);
            spoken.push((handle, name));
        }
        rest = &rest[close..];
    }
    text.push_str(rest);
    let mentions = contract::handles(&text, PLATFORM)
        .into_iter()
        .map(|m| {
            let name = spoken
                .iter()
                .find(|(handle, _)| *handle == m.written)
                .map_or(m.who.name.clone(), |(_, name)| name.clone());
            contract::Mentioned {
                written: m.written,
                who: console_player(&name),
            }
        })
        .collect();
    (text, mentions)
}

pub struct Console {
    pub core: Core,
    pub image_dir: PathBuf,
    pub speaker: String,
}

impl Console {
    pub async fn run(
        mut self,
        input: impl AsyncBufRead + Unpin,
        mut out: impl Write,
    ) -> Result<()> {
        // In the terminal the bot is "voidmate": `challenge @voidmate` plays it.
        self.core
            .add_bot(console_player(BOT_NAME))
            .await
            .context("cannot record the bot's identity")?;
        std::fs::create_dir_all(&self.image_dir).with_context(|| {
            format!(
                "cannot create the image folder {}",
                self.image_dir.display()
            )
        })?;
        prune_images(&self.image_dir, KEEP_IMAGES);
        // Event ids must not repeat across sessions, or a new session's
        // commands would look like redeliveries of the last one's.
        let session = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let interactive = std::io::IsTerminal::is_terminal(&std::io::stdin());
        writeln!(out, "Voidmate console. You are {}; `as NAME` to speak as someone else, `help` for commands, `quit` to leave.", self.speaker)?;
        let mut lines = input.lines();
        let mut n = 0u64;
        loop {
            if interactive {
                write!(out, "{}> ", self.speaker)?;
                out.flush()?;
            }
            // While nobody types, the periodic check runs as in the chat
            // adapters: flags fall, reminders and losses on time are said by
            // themselves. (`next_line` is cancel-safe: a line half-read when
            // the timer fires is kept for the next call.)
            let line = loop {
                tokio::select! {
                    line = lines.next_line() => break line?,
                    _ = tokio::time::sleep(TICK) => {
                        let notices = self.core.tick().await;
                        if !notices.is_empty() {
                            self.print_notices(&mut out, notices).await?;
                            if interactive {
                                write!(out, "{}> ", self.speaker)?;
                            }
                            out.flush()?;
                        }
                    }
                }
            };
            let Some(line) = line else {
                break;
            };
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            if line == "quit" || line == "exit" {
                break;
            }
            if let Some(rest) = line.strip_prefix("as ").or((line == "as").then_some("")) {
                match speaker_name(rest) {
                    Ok(name) => {
                        writeln!(out, "(now speaking as {name})")?;
                        self.speaker = name;
                    }
                    Err(why) => writeln!(out, "{why}")?,
                }
                continue;
            }
            n += 1;
            // `dm TEXT` says TEXT to the bot privately (a direct message):
            // how Super Chess programs are sent.
            let (channel, text, private) = match line.strip_prefix("dm ") {
                Some(rest) => (
                    format!("dm:{}", console_id(&self.speaker).local()),
                    rest.trim(),
                    true,
                ),
                None => ("console".to_string(), line, false),
            };
            // In the terminal a name is an identity: `@bob` is console:bob.
            let (text, mentions) = with_mentions(text);
            let text = text.as_str();
            let ev = Incoming {
                // The person at the terminal runs the whole place.
                moderator: true,
                event_id: format!("console-{session}-{n}"),
                channel,
                author: console_player(&self.speaker),
                input: Input::Line(text.to_string()),
                mentions,
                addressed: true,
                private,
                // The terminal is one community; its direct messages none.
                community: (!private).then(|| "console".to_string()),
                sent_ms: None,
            };
            if let Some(mut reply) = self.core.handle(&ev).await {
                // Answers owed from before (the last run stopped before
                // printing them) come first, in order.
                let owed = std::mem::take(&mut reply.before);
                self.print_notices(&mut out, owed).await?;
                if private {
                    write!(out, "(privately to {}) ", self.speaker)?;
                }
                writeln!(out, "{}", reply.text)?;
                if let Some(image) = reply.image {
                    let path = self
                        .image_dir
                        .join(format!("board-{session}-{n}.{}", image.format.extension()));
                    std::fs::write(&path, &image.png)
                        .with_context(|| format!("cannot write {}", path.display()))?;
                    writeln!(out, "image: {} ({})", path.display(), image.alt)?;
                }
                // The terminal's direct conversation is a line starting `dm `.
                if let Some(direct) = &reply.direct {
                    writeln!(
                        out,
                        "(privately to {}, lines starting `dm `) {}",
                        direct.with.name, direct.greeting
                    )?;
                }
                // The answer is out before the periodic check, which may
                // wait on a busy database again.
                out.flush()?;
                for entry in &reply.deliveries {
                    self.core.delivered(*entry).await;
                }
            }
            // What the bot says unprompted (a game that begins once both
            // programs are in, a loss on time) comes after the answer.
            let notices = self.core.tick().await;
            self.print_notices(&mut out, notices).await?;
            out.flush()?;
        }
        Ok(())
    }

    async fn print_notices(
        &self,
        out: &mut impl Write,
        notices: Vec<crate::game::Notice>,
    ) -> Result<()> {
        for notice in notices {
            writeln!(out, "{}", notice.reply.text)?;
            if let Some(image) = notice.reply.image {
                let path = self.image_dir.join(format!(
                    "notice-{}.{}",
                    notice.id,
                    image.format.extension()
                ));
                std::fs::write(&path, &image.png)
                    .with_context(|| format!("cannot write {}", path.display()))?;
                writeln!(out, "image: {} ({})", path.display(), image.alt)?;
            }
            self.core.delivered(notice.id).await;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_ignore_case_and_may_hold_spaces() {
        assert_eq!(console_player("Bob").id, console_player("bob").id);
        assert_eq!(console_player("Bob").name, "Bob");
        assert_eq!(speaker_name(" \"عبد الله\" "), Ok("عبد الله".to_string()));
        assert_eq!(speaker_name("@Mary  Ann"), Ok("Mary Ann".to_string()));
        assert_eq!(console_player("عبد الله").id.local(), "عبد_الله");
        for bad in ["", "@", "\"\"", "a#b", &"ж".repeat(65)] {
            assert!(speaker_name(bad).is_err(), "{bad}");
        }
        let (text, mentions) = with_mentions("challenge @\"عبد الله\" void, or @Bob");
        assert_eq!(text, "challenge @عبد_الله void, or @Bob");
        assert_eq!(mentions.len(), 2);
        assert_eq!(mentions[0].written, "@عبد_الله");
        assert_eq!(mentions[0].who, console_player("عبد الله"));
        assert_eq!(mentions[0].who.name, "عبد الله");
        assert_eq!(mentions[1].who.id, console_player("bob").id);
        // Oversized and odd text is read without a panic.
        let (text, mentions) = with_mentions(&format!("@\"{}\" @", "ж".repeat(10_000)));
        assert_eq!(mentions.len(), 1);
        assert!(text.starts_with('@'));
        let _ = with_mentions("@\"\" @“” @\"");
        // An unclosed quote is left as written.
        assert_eq!(with_mentions("say @\"bob").0, "say @\"bob");
    }
    use std::time::{Duration, SystemTime};

    #[test]
    fn old_board_images_are_pruned_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let old = SystemTime::now() - Duration::from_secs(8 * 24 * 3600);
        let write = |name: &str, modified: Option<SystemTime>| {
            let path = dir.path().join(name);
            let file = std::fs::File::create(&path).unwrap();
            if let Some(t) = modified {
                file.set_modified(t).unwrap();
            }
            path
        };
        let stale = write("board-1-1.png", Some(old));
        let fresh = write("board-2-1.png", None);
        let other = write("notes.txt", Some(old));
        assert_eq!(prune_images(dir.path(), KEEP_IMAGES), 1);
        assert!(!stale.exists());
        assert!(fresh.exists() && other.exists());
    }
}
