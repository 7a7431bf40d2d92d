//! Puzzle ratings in a community: `rating puzzles`, `leaderboard puzzles`,
//! and the puzzle lines of `profile` (ratings, solved and failed, the
//! channel's daily streak).

use crate::command::Someone;
use crate::contract::Player;
use crate::ctx::Ctx;
use crate::done::Done;
use crate::error::Failure;
use crate::handlers::puzzles::community_of;
use crate::ratings::idle_days;
use crate::store;
use std::fmt::Write as _;
use voidmate_rules::GameKind;

/// A place on the puzzle leaderboard takes this many rated attempts.
const BOARD_ATTEMPTS: i64 = 5;
const BOARD_SIZE: i64 = 10;

/// `rating puzzles [@player] [game]`.
pub(crate) async fn rating(
    cx: &mut Ctx<'_>,
    who: Option<Someone>,
    game: Option<GameKind>,
) -> Result<Done, Failure> {
    let community = community_of(cx)?;
    let player = match who {
        Some(w) => cx.resolve(&w).await?,
        None => cx.author.clone(),
    };
    let rows: Vec<_> = store::puzzle_ratings_of(cx.tx, &community, &player.id)
        .await?
        .into_iter()
        .filter(|r| game.is_none_or(|k| k == r.kind))
        .collect();
    if rows.is_empty() {
        let what = game.map_or(String::new(), |k| format!(" in {}", k.title()));
        return Ok(Done::text(format!(
            "{player} has no puzzle rating here{what} yet: `puzzle` gives you one to solve."
        )));
    }
    let mut text = format!("Puzzle ratings of {player} here:");
    for r in rows {
        let now = r.rating.after_idle(idle_days(r.last_ms, cx.now_ms));
        let _ = write!(
            text,
            "\n  {}  {now} (deviation {}, {} solved, {} failed)",
            r.kind.title(),
            now.deviation.round() as i64,
            r.solved,
            r.failed
        );
    }
    Ok(Done::text(text))
}

/// `leaderboard puzzles [game]`: the best solvers here.
pub(crate) async fn leaderboard(cx: &mut Ctx<'_>, game: Option<GameKind>) -> Result<Done, Failure> {
    let community = community_of(cx)?;
    let kind = match game {
        Some(k) => k,
        None => store::puzzle_games(cx.tx, &community)
            .await?
            .first()
            .map_or(GameKind::DEFAULT, |(k, _)| *k),
    };
    let rows =
        store::puzzle_leaderboard(cx.tx, &community, kind, BOARD_ATTEMPTS, BOARD_SIZE).await?;
    let mut text = format!("Puzzle leaderboard: {}", kind.title());
    if rows.is_empty() {
        let _ = write!(
            text,
            ": nobody yet (a place takes {BOARD_ATTEMPTS} rated puzzles)."
        );
    }
    for (i, r) in rows.iter().enumerate() {
        let now = r.rating.after_idle(idle_days(r.last_ms, cx.now_ms));
        let _ = write!(
            text,
            "\n  {}. {}  {now} ({} solved, {} failed)",
            i + 1,
            r.player,
            r.solved,
            r.failed
        );
    }
    Ok(Done::text(text))
}

/// The puzzle part of `player`'s profile here (empty if they never tried
/// one): ratings, solved and failed, this channel's daily streak.
pub(crate) async fn profile_lines(
    cx: &mut Ctx<'_>,
    community: &str,
    player: &Player,
) -> Result<String, Failure> {
    let mut text = String::new();
    let rows = store::puzzle_ratings_of(cx.tx, community, &player.id).await?;
    if !rows.is_empty() {
        text.push_str("\nPuzzles:");
        for r in rows {
            let now = r.rating.after_idle(idle_days(r.last_ms, cx.now_ms));
            let _ = write!(
                text,
                "\n  {}  {now}: {} solved, {} failed",
                r.kind.title(),
                r.solved,
                r.failed
            );
        }
    }
    let days = store::credited_days(cx.tx, cx.channel, &player.id).await?;
    if !days.is_empty() {
        let today = cx.now_ms.div_euclid(86_400_000);
        let (current, best) = streaks(&days, today);
        let _ = write!(
            text,
            "\nDaily puzzle here: a move found first on {} day{}; streak {current} day{} (best {best}).",
            days.len(),
            if days.len() == 1 { "" } else { "s" },
            if current == 1 { "" } else { "s" },
        );
    }
    Ok(text)
}

/// The current streak (consecutive days ending today or yesterday) and
/// the best, from the days credited, newest first.
pub(crate) fn streaks(days: &[i64], today: i64) -> (usize, usize) {
    let mut best = 0;
    let mut run = 0;
    let mut prev: Option<i64> = None;
    for &d in days {
        run = match prev {
            Some(p) if p - d == 1 => run + 1,
            Some(p) if p == d => run,
            _ => 1,
        };
        best = best.max(run);
        prev = Some(d);
    }
    let current = match days.first() {
        Some(&last) if today - last <= 1 => {
            days.windows(2).take_while(|w| w[0] - w[1] == 1).count() + 1
        }
        _ => 0,
    };
    (current, best)
}

#[cfg(test)]
mod tests {
    use super::streaks;

    #[test]
    fn a_streak_counts_days_in_a_row_up_to_yesterday() {
        assert_eq!(streaks(&[10, 9, 8, 5], 10), (3, 3));
        assert_eq!(streaks(&[9, 8, 5], 10), (2, 2), "yesterday still counts");
        assert_eq!(streaks(&[8, 7], 10), (0, 2), "a missed day ends it");
        assert_eq!(streaks(&[10, 6, 5, 4, 3], 10), (1, 4));
        assert_eq!(streaks(&[], 10), (0, 0));
    }
}
