//! A channel's settings: bare moves, the board theme, games in threads.

use crate::command::Setting;
use crate::ctx::Ctx;
use crate::done::Done;
use crate::error::{refuse, Failure};
use crate::store::{self, Settings};
use std::fmt::Write as _;

/// `settings`: show them (no changes), or apply the changes in order and
/// show the result.
pub(crate) async fn settings(cx: &mut Ctx<'_>, changes: &[Setting]) -> Result<Done, Failure> {
    let core = cx.core;
    let mut s = store::settings(cx.tx, cx.channel)
        .await?
        .unwrap_or(Settings {
            bare_moves: core.settings.bare_moves,
            theme: core.settings.theme.name().to_string(),
            threads: false,
        });
    let style = core.command_style(cx.platform());
    let threads_here = style.threads;
    for change in changes {
        match (change, threads_here) {
            (Setting::BareMoves(on), _) => s.bare_moves = *on,
            (Setting::Theme(theme), _) => s.theme = theme.name().to_string(),
            (Setting::Threads(_), false) => {
                return refuse("Games in threads of their own are for Discord; here every game is played in the room.")
            }
            (Setting::Threads(Some(on)), true) => s.threads = *on,
            (Setting::Threads(None), true) | (Setting::Unreadable, _) => {
                return refuse(if threads_here {
                    "Settings: `settings bare-moves on|off`, `settings theme classic|high-contrast` or `settings threads on|off`."
                } else {
                    "Settings: `settings bare-moves on|off` or `settings theme classic|high-contrast`."
                })
            }
        }
    }
    if !changes.is_empty() {
        store::save_settings(cx.tx, cx.channel, &s).await?;
    }
    let on = |b: bool| if b { "on" } else { "off" };
    let mut text = format!(
        "Settings here: bare moves {}, theme {}",
        on(s.bare_moves),
        s.theme
    );
    if threads_here {
        let _ = write!(text, ", new games in their own thread {}", on(s.threads));
    }
    text.push('.');
    if s.bare_moves && !style.reads_chat {
        text.push_str(
            " Bare moves need the message-content intent, which this bot does not ask for (`message_content = true` in its configuration): until then play with `/move`, a mention, or a reply to the board with the ping on.",
        );
    }
    Ok(Done::text(text))
}
