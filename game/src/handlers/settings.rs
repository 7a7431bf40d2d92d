//! A channel's settings (bare moves, the board theme, games in threads),
//! and the author's own (which side their boards are drawn from).

use crate::command::{Flip, Setting};
use crate::ctx::Ctx;
use crate::done::Done;
use crate::error::{refuse, Failure};
use crate::store::{self, Settings};
use std::fmt::Write as _;
use voidmate_rules::{Color, GameKind};

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
            replays: true,
        });
    let style = core.command_style(cx.platform());
    let threads_here = style.threads;
    let mut flip = store::flip_of(cx.tx, &cx.author.id).await?;
    let flip_was = flip;
    for change in changes {
        match (change, threads_here) {
            (Setting::DailyPuzzle(minute), _) => {
                crate::handlers::daily::set(cx, *minute).await?;
            }
            (Setting::Flip(f), _) => flip = *f,
            (Setting::Replays(on), _) => s.replays = *on,
            (Setting::BareMoves(on), _) => s.bare_moves = *on,
            (Setting::Theme(theme), _) => s.theme = theme.name().to_string(),
            (Setting::Threads(_), false) => {
                return refuse("Games in threads of their own are for Discord; here every game is played in the room.")
            }
            (Setting::Threads(Some(on)), true) => s.threads = *on,
            (Setting::Threads(None), true) | (Setting::Unreadable, _) => {
                return refuse(if threads_here {
                    "Settings: `settings bare-moves on|off`, `settings theme classic|high-contrast`, `settings threads on|off`, `settings replays on|off`, `settings daily-puzzle 09:00|off`, or for your own boards `settings flip auto|white|black`."
                } else {
                    "Settings: `settings bare-moves on|off`, `settings theme classic|high-contrast`, `settings replays on|off`, `settings daily-puzzle 09:00|off`, or for your own boards `settings flip auto|white|black`."
                })
            }
        }
    }
    if changes
        .iter()
        .any(|c| !matches!(c, Setting::Flip(_) | Setting::DailyPuzzle(_)))
    {
        store::save_settings(cx.tx, cx.channel, &s).await?;
        cx.view = None;
    }
    if flip != flip_was {
        store::set_flip(cx.tx, cx.author, flip).await?;
        cx.view = None;
    }
    let on = |b: bool| if b { "on" } else { "off" };
    let mut text = format!(
        "Settings here: bare moves {}, theme {}, a replay after each game {}",
        on(s.bare_moves),
        s.theme,
        on(s.replays)
    );
    if threads_here {
        let _ = write!(text, ", new games in their own thread {}", on(s.threads));
    }
    text.push_str(&crate::handlers::daily::describe(cx).await?);
    // Super Chess calls its sides Player 1 and Player 2: said so where
    // the author plays it here.
    let numbered = store::active_games(cx.tx, cx.channel)
        .await?
        .into_iter()
        .flatten()
        .any(|g| {
            g.kind.has_numbered_players()
                && [g.player(Color::White), g.player(Color::Black)]
                    .iter()
                    .any(|p| p.id == cx.author.id)
        });
    let side = |c: Color| match numbered {
        true => format!(
            "always from {}'s side ({}'s in other games)",
            GameKind::Super16.side_name(c),
            c.name()
        ),
        false => format!("always from {}'s side", c.name()),
    };
    let _ = write!(
        text,
        ". Your boards: {}.",
        match flip {
            Flip::Auto => "from the side to move, or your side when you ask (auto)".to_string(),
            Flip::White => side(Color::White),
            Flip::Black => side(Color::Black),
        }
    );
    if s.bare_moves && !style.reads_chat {
        text.push_str(
            " Bare moves need the message-content intent, which this bot does not ask for (`message_content = true` in its configuration): until then play with `/move`, a mention, or a reply to the board with the ping on.",
        );
    }
    Ok(Done::text(text))
}
