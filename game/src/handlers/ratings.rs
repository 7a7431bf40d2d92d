//! Ratings in a community: a player's standing, a rated game's end, and
//! the commands that show them (`rating`, `leaderboard`, `profile`).
//! The arithmetic is [`crate::ratings`]; the rows are `store::ratings`.

use crate::command::Someone;
use crate::contract::{Player, PlayerId};
use crate::ctx::Ctx;
use crate::done::Done;
use crate::error::{refuse, Failure};
use crate::game::Game;
use crate::ratings::{after_game, change_words, idle_days, Pool, Rating};
use crate::record::{GameResult, SideResult};
use crate::store;
use std::fmt::Write as _;
use voidmate_rules::{ByColor, Color, GameKind};

/// The leaderboard's bounds: at least this many rated games, a deviation of
/// at most this, a rated game in the last this many days.
const BOARD_GAMES: i64 = 2;
const BOARD_DEVIATION: f64 = 75.0;
const BOARD_DAYS: i64 = 30;
const BOARD_SIZE: i64 = 10;

/// A player's rating in a pool as it stands now.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Standing {
    /// As stored after their last rated game there (the start if none).
    pub stored: Rating,
    /// Days since that game (0 if none).
    pub idle_days: f64,
    /// As shown now: the deviation grown by the idleness.
    pub now: Rating,
    pub games: i64,
}

/// `player`'s standing in `community`, game `kind` and `pool`.
pub(crate) async fn standing(
    cx: &mut Ctx<'_>,
    community: &str,
    player: &PlayerId,
    kind: GameKind,
    pool: Pool,
) -> Result<Standing, Failure> {
    Ok(
        match store::rating(cx.tx, community, player, kind, pool).await? {
            None => Standing {
                stored: Rating::START,
                idle_days: 0.0,
                now: Rating::START,
                games: 0,
            },
            Some(row) => {
                let idle_days = idle_days(row.last_game_ms, cx.now_ms);
                Standing {
                    stored: row.rating,
                    idle_days,
                    now: row.rating.after_idle(idle_days),
                    games: row.games,
                }
            }
        },
    )
}

/// `alice 1500?, bob 1623`: both players' ratings now in `g`'s pool.
pub(crate) async fn both_now(
    cx: &mut Ctx<'_>,
    community: &str,
    players: ByColor<&Player>,
    kind: GameKind,
    pool: Pool,
) -> Result<String, Failure> {
    let mut out = Vec::new();
    for c in Color::ALL {
        let s = standing(cx, community, &players[c].id, kind, pool).await?;
        out.push(format!("{} {}", players[c], s.now));
    }
    Ok(out.join(", "))
}

/// Rates `g`, which has just ended with `result`, in the same transaction:
/// both players' ratings change once (a game rates only once, whatever
/// retries or races), and the words say how (` Ratings: alice 1500? ->
/// 1662? (+162), bob ...`). Nothing for a game that is not rated, or that
/// ended before both sides moved.
pub(crate) async fn rate(
    cx: &mut Ctx<'_>,
    g: &Game,
    result: GameResult,
) -> Result<String, Failure> {
    let (Some(community), Some(white_score)) = (g.rec.community.clone(), result.white_score())
    else {
        return Ok(String::new());
    };
    if !g.rec.rated {
        return Ok(String::new());
    }
    if g.ply() < 2 {
        return Ok(" Not rated: it ended before both sides had moved.".to_string());
    }
    let (kind, pool) = (g.kind(), Pool::of(&g.rec.clock));
    // Each rating is read, then written: two games of one player ending at
    // once (in two processes) take turns here, so neither change is lost,
    // also before the player's first rating row exists.
    let keys: Vec<String> = Color::ALL
        .into_iter()
        .map(|c| {
            format!(
                "rating {community} {} {} {}",
                g.rec.player(c).id.as_str(),
                kind.name(),
                pool.name()
            )
        })
        .collect();
    store::lock_keys(cx.tx, &keys).await?;
    let mut now = Vec::new();
    for c in Color::ALL {
        now.push(standing(cx, &community, &g.rec.player(c).id, kind, pool).await?);
    }
    let (w, b) = (now[0], now[1]);
    let after = ByColor {
        white: after_game(w.stored, w.idle_days, b.now, white_score),
        black: after_game(b.stored, b.idle_days, w.now, 1.0 - white_score),
    };
    let mut words = Vec::new();
    for (c, s) in Color::ALL.into_iter().zip([w, b]) {
        let player = g.rec.player(c);
        let change = store::Change {
            game: g.id(),
            community: &community,
            player: &player.id,
            kind,
            pool,
            before: s.stored,
            after: after[c],
            at_ms: cx.now_ms,
        };
        if !store::apply(cx.tx, change).await? {
            // Rated before (an event handled twice): nothing changes again.
            return Ok(String::new());
        }
        words.push(change_words(&player.name, s.now, after[c]));
    }
    Ok(format!(" Ratings: {}.", words.join(", ")))
}

/// Ratings belong to a community: a direct conversation has none.
fn community_of(cx: &Ctx<'_>) -> Result<String, Failure> {
    match cx.community() {
        Some(c) => Ok(c.to_string()),
        None => {
            refuse("Ratings belong to a server or a room: there are none in a direct conversation.")
        }
    }
}

/// `rating [@player] [game]`.
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
    let rows: Vec<_> = store::ratings_of(cx.tx, &community, &player.id)
        .await?
        .into_iter()
        .filter(|r| game.is_none_or(|k| k == r.kind))
        .collect();
    if rows.is_empty() {
        let what = game.map_or(String::new(), |k| format!(" in {}", k.title()));
        return Ok(Done::text(format!(
            "{player} has no rating here{what} yet: ratings come with rated games (`help rating`)."
        )));
    }
    let mut text = format!("Ratings of {player} here:");
    for row in rows {
        let now = row
            .rating
            .after_idle(idle_days(row.last_game_ms, cx.now_ms));
        let _ = write!(
            text,
            "\n  {}, {}  {now} (deviation {}, {} rated game{})",
            row.kind.title(),
            row.pool.name(),
            now.deviation.round() as i64,
            row.games,
            if row.games == 1 { "" } else { "s" }
        );
    }
    Ok(Done::text(text))
}

/// `leaderboard [game] [pool]`: the top ten, and the asker's own place.
pub(crate) async fn leaderboard(
    cx: &mut Ctx<'_>,
    game: Option<GameKind>,
    pool: Option<Pool>,
) -> Result<Done, Failure> {
    let community = community_of(cx)?;
    let kind = match game {
        Some(k) => k,
        None => store::most_played(cx.tx, cx.channel)
            .await?
            .first()
            .copied()
            .unwrap_or(GameKind::DEFAULT),
    };
    // The pool of the games usually played where the asker is (live on
    // Discord, correspondence in Matrix rooms), as the adapter says.
    let pool = pool.unwrap_or(cx.core.command_style(cx.platform()).default_pool);
    let board = store::Board {
        community: &community,
        kind,
        pool,
        min_games: BOARD_GAMES,
        since_ms: cx.now_ms - BOARD_DAYS * 86_400_000,
        max_deviation: BOARD_DEVIATION,
        now_ms: cx.now_ms,
    };
    let rows = store::leaderboard(cx.tx, board, BOARD_SIZE).await?;
    let mut text = format!("Leaderboard: {}, {}", kind.title(), pool.name());
    if rows.is_empty() {
        let _ = write!(
            text,
            ": nobody yet (a place takes {BOARD_GAMES} rated games, a deviation of at most {BOARD_DEVIATION}, and a rated game in the last {BOARD_DAYS} days)."
        );
    }
    let me = cx.author.id.clone();
    let mut listed = false;
    for (i, row) in rows.iter().enumerate() {
        let now = row
            .rating
            .after_idle(idle_days(row.last_game_ms, cx.now_ms));
        let name = &row.player;
        listed |= row.player.id == me;
        let _ = write!(
            text,
            "\n  {}. {name}  {now} ({} rated games)",
            i + 1,
            row.games
        );
    }
    if !listed {
        let mine = standing(cx, &community, &me, kind, pool).await?;
        let on_board = mine.games >= BOARD_GAMES
            && mine.now.deviation <= BOARD_DEVIATION
            && mine.idle_days <= BOARD_DAYS as f64;
        if on_board {
            let above = store::rank_above(cx.tx, board, mine.stored.rating).await?;
            let _ = write!(text, "\nYou: #{}, {}.", above + 1, mine.now);
        } else if mine.games > 0 {
            let _ = write!(
                text,
                "\nYou ({}, {} rated game{}) are not on the board yet: it takes {BOARD_GAMES} rated games, a deviation of at most {BOARD_DEVIATION} and a rated game in the last {BOARD_DAYS} days.",
                mine.now,
                mine.games,
                if mine.games == 1 { "" } else { "s" }
            );
        }
    }
    Ok(Done::text(text))
}

/// `1 game`, `4 games`.
fn games_word(n: usize) -> String {
    format!("{n} game{}", if n == 1 { "" } else { "s" })
}

/// `profile [@player]`: results per game, the streak, the best rating, the
/// last five games.
pub(crate) async fn profile(cx: &mut Ctx<'_>, who: Option<Someone>) -> Result<Done, Failure> {
    let community = community_of(cx)?;
    let player = match who {
        Some(w) => cx.resolve(&w).await?,
        None => cx.author.clone(),
    };
    let mut played = Vec::new();
    let finished = store::finished_games_of(cx.tx, &community, &player.id).await?;
    for rec in finished.into_iter().flatten() {
        let (Some(side), Some(ending)) = (rec.color_of(&player.id), rec.ending()) else {
            continue;
        };
        let outcome = ending.result.for_side(side);
        if outcome != SideResult::Aborted {
            played.push((rec, side, ending.result, outcome));
        }
    }
    let puzzles = crate::handlers::puzzle_ratings::profile_lines(cx, &community, &player).await?;
    if played.is_empty() {
        return Ok(Done::text(format!(
            "{player} has no finished games here yet.{puzzles}"
        )));
    }
    let count = |games: &[&(_, _, _, SideResult)], what: SideResult| {
        games.iter().filter(|g| g.3 == what).count()
    };
    let all: Vec<_> = played.iter().collect();
    let mut text = format!(
        "{player} here: {}, {} won, {} drawn, {} lost.",
        games_word(all.len()),
        count(&all, SideResult::Won),
        count(&all, SideResult::Drawn),
        count(&all, SideResult::Lost)
    );
    // The streak: the latest results alike.
    let latest = played[0].3;
    let streak = played.iter().take_while(|g| g.3 == latest).count();
    let (noun, plural) = match latest {
        SideResult::Won => ("win", "wins"),
        SideResult::Lost => ("loss", "losses"),
        SideResult::Drawn | SideResult::Aborted => ("draw", "draws"),
    };
    let _ = write!(
        text,
        " Streak: {streak} {}.",
        if streak == 1 { noun } else { plural }
    );
    if let Some((kind, pool, best)) = store::best_rating(cx.tx, &community, &player.id).await? {
        let _ = write!(
            text,
            " Best rating: {best} ({}, {}).",
            kind.title(),
            pool.name()
        );
    }
    for kind in GameKind::ALL {
        let games: Vec<_> = played.iter().filter(|g| g.0.kind == kind).collect();
        if games.is_empty() {
            continue;
        }
        let _ = write!(
            text,
            "\n  {}  {}: {} won, {} drawn, {} lost",
            kind.title(),
            games_word(games.len()),
            count(&games, SideResult::Won),
            count(&games, SideResult::Drawn),
            count(&games, SideResult::Lost)
        );
    }
    text.push_str("\nLast games:");
    for (rec, side, result, outcome) in played.iter().take(5) {
        let _ = write!(
            text,
            "\n  #{} vs {}  {} ({result}, {})",
            rec.id,
            rec.player(!*side),
            outcome.words(),
            rec.kind.title()
        );
    }
    let placings = store::placings_of(cx.tx, &player.id, Some(&community)).await?;
    if !placings.is_empty() {
        text.push_str("\nTournaments:");
        for p in placings.iter().take(5) {
            let _ = write!(
                text,
                "\n  {} ({}, {})  place {} of {}, {} points{}",
                p.tournament,
                p.format,
                p.kind.title(),
                p.rank,
                p.players,
                voidmate_tournament::Points(p.points),
                p.performance
                    .map_or(String::new(), |perf| format!(", performance {perf}"))
            );
        }
    }
    text.push_str(&puzzles);
    Ok(Done::text(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_read_for_either_side() {
        let read = |code: &str, side| GameResult::from_code(code).map(|r| r.for_side(side));
        assert_eq!(read("1-0", Color::White), Some(SideResult::Won));
        assert_eq!(read("1-0", Color::Black), Some(SideResult::Lost));
        assert_eq!(read("0-1", Color::Black), Some(SideResult::Won));
        assert_eq!(read("1/2-1/2", Color::Black), Some(SideResult::Drawn));
        assert_eq!(read("*", Color::White), Some(SideResult::Aborted));
        assert_eq!(read("", Color::White), None);
        assert_eq!(GameResult::Draw.white_score(), Some(0.5));
        assert_eq!(GameResult::NoResult.white_score(), None);
        assert_eq!(SideResult::Drawn.words(), "drawn");
    }
}
