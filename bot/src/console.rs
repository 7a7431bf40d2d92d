//! The console adapter: play in a terminal. Each line is a message in one
//! channel (`console`); `as NAME` changes who is speaking. Board images are
//! written to a folder and their paths printed.

use crate::game::{Core, Incoming};
use anyhow::{Context, Result};
use std::io::Write;
use std::path::PathBuf;
use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// The bot's name in console mode.
pub const BOT_NAME: &str = "voidmate";

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
        self.core.add_bot_name(BOT_NAME);
        std::fs::create_dir_all(&self.image_dir).with_context(|| {
            format!(
                "cannot create the image folder {}",
                self.image_dir.display()
            )
        })?;
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
            let Some(line) = lines.next_line().await? else {
                break;
            };
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            if line == "quit" || line == "exit" {
                break;
            }
            if let Some(name) = line.strip_prefix("as ") {
                let name = name.trim().trim_start_matches('@');
                if name.is_empty() || name.contains(char::is_whitespace) {
                    writeln!(out, "`as` needs one name, like `as bob`.")?;
                } else {
                    self.speaker = name.to_string();
                    writeln!(out, "(now speaking as {name})")?;
                }
                continue;
            }
            n += 1;
            // `dm TEXT` says TEXT to the bot privately (a direct message):
            // how Super Chess programs are sent.
            let (channel, text, private) = match line.strip_prefix("dm ") {
                Some(rest) => (format!("dm:{}", self.speaker), rest.trim(), true),
                None => ("console".to_string(), line, false),
            };
            let ev = Incoming {
                event_id: format!("console-{session}-{n}"),
                channel,
                author: self.speaker.clone(),
                text: text.to_string(),
                addressed: true,
                private,
            };
            let reply = self.core.handle(&ev).await;
            // What the bot says unprompted (a game that begins once both
            // programs are in, a loss on time) comes after the answer.
            let notices = self.core.tick().await;
            let Some(reply) = reply else {
                self.print_notices(&mut out, notices).await?;
                continue;
            };
            if private {
                write!(out, "(privately to {}) ", self.speaker)?;
            }
            writeln!(out, "{}", reply.text)?;
            if let Some(image) = reply.image {
                let path = self.image_dir.join(format!("board-{session}-{n}.png"));
                std::fs::write(&path, &image.png)
                    .with_context(|| format!("cannot write {}", path.display()))?;
                writeln!(out, "image: {} ({})", path.display(), image.alt)?;
            }
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
            self.core.delivered(notice.id).await;
        }
        Ok(())
    }
}
