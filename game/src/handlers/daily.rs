//! A channel's daily puzzle: anyone answers; each right move is credited to
//! whoever found it first (one compare-and-set on the day's row), a wrong
//! one is answered to its author alone. Not rated: many solve it together.

use crate::ctx::Ctx;
use crate::done::Done;
use crate::error::{refuse, Failure};
use crate::handlers::puzzles::{community_of, line_of};
use crate::solving::{to_move, Judgement};
use crate::store::{self, DailyPost, DailyRow};
use voidmate_rules::MoveErrorKind;

/// A day's number (days since 1970-01-01, UTC) at `ms`.
pub(crate) fn day_of(ms: i64) -> i64 {
    ms.div_euclid(86_400_000)
}

/// When a daily puzzle at `minute` after midnight comes next after `now_ms`.
pub(crate) fn next_at(minute: u16, now_ms: i64) -> i64 {
    let at = day_of(now_ms) * 86_400_000 + i64::from(minute) * 60_000;
    if at > now_ms {
        at
    } else {
        at + 86_400_000
    }
}

/// `09:00`.
pub(crate) fn clock(minute: i64) -> String {
    format!("{:02}:{:02}", minute / 60, minute % 60)
}

/// `settings daily-puzzle HH:MM|off`, for a moderator: the words to add to
/// the settings' reply.
pub(crate) async fn set(cx: &mut Ctx<'_>, minute: Option<u16>) -> Result<String, Failure> {
    if !cx.moderator() {
        return refuse("Only the moderators here may set the daily puzzle.");
    }
    let Some(minute) = minute else {
        store::clear_daily(cx.tx, cx.channel).await?;
        return Ok(String::new());
    };
    let community = community_of(cx)?;
    let row = DailyRow {
        channel: cx.channel.to_string(),
        platform: cx.platform().to_string(),
        community,
        minute: i64::from(minute),
        next_ms: next_at(minute, cx.now_ms),
    };
    store::set_daily(cx.tx, &row).await?;
    Ok(String::new())
}

/// The settings' words for the daily puzzle here.
pub(crate) async fn describe(cx: &mut Ctx<'_>) -> Result<String, Failure> {
    Ok(match store::daily_of(cx.tx, cx.channel).await? {
        Some(d) => format!(", a daily puzzle at {} UTC", clock(d.minute)),
        None => ", no daily puzzle".to_string(),
    })
}

/// `puzzle daily`: the channel's puzzle of the day as it stands.
pub(crate) async fn show(cx: &mut Ctx<'_>) -> Result<Done, Failure> {
    let Some(post) = store::latest_daily(cx.tx, cx.channel).await? else {
        return refuse(match store::daily_of(cx.tx, cx.channel).await? {
            Some(d) => format!(
                "The first daily puzzle here comes at {} UTC (once this server's games have given puzzles).",
                clock(d.minute)
            ),
            None => "No daily puzzle here: a moderator can have one posted every day with `settings daily-puzzle 09:00` (UTC).".to_string(),
        });
    };
    let credits = credits_words(cx, &post).await?;
    let line = line_of(&post.puzzle)?;
    let theme = cx.theme().await?;
    let status = if post.solved {
        "solved".to_string()
    } else {
        to_move(line.solver())
    };
    let picture = line.picture(&post.puzzle, post.progress, theme, status.clone(), None);
    let text = if post.solved {
        format!(
            "The daily puzzle {} ({}) is solved: {}.{credits}",
            post.puzzle.label(),
            post.puzzle.kind.title(),
            line.sans[1..].join(" ")
        )
    } else {
        format!(
            "The daily puzzle {} ({}): after {}, {status}. Anyone may answer with a move; the first to find each one is credited.{credits}",
            post.puzzle.label(),
            post.puzzle.kind.title(),
            line.sans[post.progress - 1]
        )
    };
    Ok(Done::board(text, picture))
}

/// Who found moves of the day's puzzle, as words.
async fn credits_words(cx: &mut Ctx<'_>, post: &DailyPost) -> Result<String, Failure> {
    let credits = store::daily_credits(cx.tx, cx.channel, post.day).await?;
    if credits.is_empty() {
        return Ok(String::new());
    }
    let names: Vec<String> = credits.iter().map(|(p, n)| format!("{p} ({n})")).collect();
    Ok(format!(" Found first: {}.", names.join(", ")))
}

/// The author's move `text` for the channel's daily puzzle, if one is
/// open and the text reads as a move (`None`: not the daily's).
pub(crate) async fn answer(cx: &mut Ctx<'_>, text: &str) -> Result<Option<Done>, Failure> {
    let Some(post) = store::latest_daily(cx.tx, cx.channel).await? else {
        return Ok(None);
    };
    if post.solved {
        return Ok(None);
    }
    let line = line_of(&post.puzzle)?;
    let judged = match line.judge(post.progress, text) {
        Ok(j) => j,
        Err(e) if matches!(e.kind, MoveErrorKind::Malformed | MoveErrorKind::TooLong) => {
            return Ok(None)
        }
        Err(e) => {
            return refuse(format!(
                "{e}. (The daily puzzle {} waits for a move.)",
                post.puzzle.label()
            ))
        }
    };
    let theme = cx.theme().await?;
    let me = cx.author.id.clone();
    let label = post.puzzle.label();
    let late = || {
        Failure::Refused(format!(
            "Someone found that move of {label} a moment before you: `puzzle daily` shows where it stands."
        ))
    };
    match judged {
        Judgement::Wrong { san } => refuse(format!(
            "{san} is not the move in the daily puzzle {label}; keep looking (only you see this)."
        )),
        Judgement::Right { san, solved: false } => {
            let next = post.progress + 2;
            if !store::advance_daily(cx.tx, cx.channel, post.day, post.progress, next, None).await?
            {
                return Err(late());
            }
            store::credit_daily(cx.tx, cx.channel, post.day, &me).await?;
            let status = to_move(line.solver());
            let picture = line.picture(&post.puzzle, next, theme, status.clone(), None);
            Ok(Some(Done::board(
                format!(
                    "{} found {san} first! The answer is {}. {status}: who finds the next move?",
                    cx.author,
                    line.sans[post.progress + 1]
                ),
                picture,
            )))
        }
        Judgement::Right { san, solved: true } => {
            let end = post.progress + 1;
            if !store::advance_daily(
                cx.tx,
                cx.channel,
                post.day,
                post.progress,
                end,
                Some(cx.now_ms),
            )
            .await?
            {
                return Err(late());
            }
            store::credit_daily(cx.tx, cx.channel, post.day, &me).await?;
            let credits = credits_words(cx, &post).await?;
            let picture = line.picture(&post.puzzle, end, theme, "solved".into(), None);
            Ok(Some(Done::board(
                format!(
                    "{} found {san}: the daily puzzle {label} is solved!{credits} The next comes tomorrow.",
                    cx.author
                ),
                picture,
            )))
        }
    }
}
