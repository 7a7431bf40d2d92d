//! The rounds of a tournament as stored: each round paired (once), its
//! games and their outcomes, the pairs that may never meet, and the
//! standings after each round; typed where they are read.

use super::tournaments::{count, damaged};
use super::{Flag, Tx};
use crate::contract::PlayerId;
use crate::tournament::{
    Format, Outcome, Placing, RoundGame, RoundRecord, StandingRow, TournamentId,
};
use sqlx::FromRow;
use voidmate_rules::GameKind;

#[derive(Debug, Clone, FromRow)]
struct RoundRow {
    round: i64,
    paired_ms: i64,
    deadline_ms: Option<i64>,
    bye: Option<String>,
}

/// A tournament's paired rounds, in order.
pub async fn rounds(tx: &mut Tx, id: TournamentId) -> Result<Vec<RoundRecord>, sqlx::Error> {
    let rows: Vec<RoundRow> = sqlx::query_as(
        "SELECT round, paired_ms, deadline_ms, bye FROM tournament_rounds WHERE tournament_id = $1 ORDER BY round",
    )
    .bind(id.0)
    .fetch_all(&mut **tx)
    .await?;
    rows.into_iter()
        .map(|r| {
            Ok(RoundRecord {
                round: count(id.0, "round", r.round)?,
                paired_ms: r.paired_ms,
                deadline_ms: r.deadline_ms,
                bye: r.bye.map(PlayerId::from_stored),
            })
        })
        .collect()
}

/// Stores round `round` as paired. `false` if it already was (it is paired
/// once).
pub async fn insert_round(
    tx: &mut Tx,
    id: TournamentId,
    round: u32,
    deadline_ms: Option<i64>,
    bye: Option<&PlayerId>,
) -> Result<bool, sqlx::Error> {
    let now = tx.now_ms();
    let done = sqlx::query(
        "INSERT INTO tournament_rounds (tournament_id, round, paired_ms, deadline_ms, bye) \
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
    )
    .bind(id.0)
    .bind(i64::from(round))
    .bind(now)
    .bind(deadline_ms)
    .bind(bye.map(PlayerId::as_str))
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

#[derive(Debug, Clone, FromRow)]
struct GameRow {
    round: i64,
    board: i64,
    white: String,
    black: String,
    game_id: Option<i64>,
    outcome: Option<String>,
}

fn round_game(id: i64, r: GameRow) -> Result<RoundGame, sqlx::Error> {
    let outcome = r
        .outcome
        .as_deref()
        .map(|o| Outcome::from_code(o).ok_or_else(|| damaged(id, format!("outcome {o:?}"))))
        .transpose()?;
    Ok(RoundGame {
        round: count(id, "round", r.round)?,
        board: count(id, "board", r.board)?,
        white: PlayerId::from_stored(r.white),
        black: PlayerId::from_stored(r.black),
        game_id: r.game_id,
        outcome,
    })
}

/// A tournament's games, by round and board.
pub async fn round_games(tx: &mut Tx, id: TournamentId) -> Result<Vec<RoundGame>, sqlx::Error> {
    let rows: Vec<GameRow> = sqlx::query_as(
        "SELECT round, board, white, black, game_id, outcome FROM tournament_games \
         WHERE tournament_id = $1 ORDER BY round, board",
    )
    .bind(id.0)
    .fetch_all(&mut **tx)
    .await?;
    rows.into_iter().map(|r| round_game(id.0, r)).collect()
}

/// Stores one game of a round.
pub async fn insert_round_game(
    tx: &mut Tx,
    id: TournamentId,
    g: &RoundGame,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO tournament_games (tournament_id, round, board, white, black, game_id, outcome) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(id.0)
    .bind(i64::from(g.round))
    .bind(i64::from(g.board))
    .bind(g.white.as_str())
    .bind(g.black.as_str())
    .bind(g.game_id)
    .bind(g.outcome.map(Outcome::code))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The tournament game that game `game_id` is, if any.
pub async fn round_game_of(
    tx: &mut Tx,
    game_id: i64,
) -> Result<Option<(TournamentId, RoundGame)>, sqlx::Error> {
    #[derive(FromRow)]
    struct Row {
        tournament_id: i64,
        #[sqlx(flatten)]
        game: GameRow,
    }
    let row: Option<Row> = sqlx::query_as(
        "SELECT tournament_id, round, board, white, black, game_id, outcome FROM tournament_games \
         WHERE game_id = $1",
    )
    .bind(game_id)
    .fetch_optional(&mut **tx)
    .await?;
    row.map(|r| {
        Ok((
            TournamentId(r.tournament_id),
            round_game(r.tournament_id, r.game)?,
        ))
    })
    .transpose()
}

/// Records a round game's outcome (once: `false` if it had one).
pub async fn set_outcome(
    tx: &mut Tx,
    id: TournamentId,
    round: u32,
    board: u32,
    outcome: Outcome,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE tournament_games SET outcome = $4 WHERE tournament_id = $1 AND round = $2 AND board = $3 \
         AND outcome IS NULL",
    )
    .bind(id.0)
    .bind(i64::from(round))
    .bind(i64::from(board))
    .bind(outcome.code())
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The pairs that never meet, each from a round on.
pub async fn forbidden(
    tx: &mut Tx,
    id: TournamentId,
) -> Result<Vec<(PlayerId, PlayerId, u32)>, sqlx::Error> {
    let rows: Vec<(String, String, i64)> = sqlx::query_as(
        "SELECT a, b, since_round FROM tournament_forbidden WHERE tournament_id = $1 ORDER BY a, b",
    )
    .bind(id.0)
    .fetch_all(&mut **tx)
    .await?;
    rows.into_iter()
        .map(|(a, b, r)| {
            Ok((
                PlayerId::from_stored(a),
                PlayerId::from_stored(b),
                count(id.0, "forbidden since", r)?,
            ))
        })
        .collect()
}

/// Forbids a pair from round `since` on. `false` if it already was.
pub async fn add_forbidden(
    tx: &mut Tx,
    id: TournamentId,
    a: &PlayerId,
    b: &PlayerId,
    since: u32,
) -> Result<bool, sqlx::Error> {
    let (a, b) = if a.as_str() <= b.as_str() {
        (a, b)
    } else {
        (b, a)
    };
    let done = sqlx::query(
        "INSERT INTO tournament_forbidden (tournament_id, a, b, since_round) VALUES ($1, $2, $3, $4) \
         ON CONFLICT DO NOTHING",
    )
    .bind(id.0)
    .bind(a.as_str())
    .bind(b.as_str())
    .bind(i64::from(since))
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Stores the standings after round `after` (replacing any stored before).
pub async fn save_standings(
    tx: &mut Tx,
    id: TournamentId,
    after: u32,
    lines: &[StandingRow],
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM tournament_standings WHERE tournament_id = $1 AND after_round = $2")
        .bind(id.0)
        .bind(i64::from(after))
        .execute(&mut **tx)
        .await?;
    for l in lines {
        sqlx::query(
            "INSERT INTO tournament_standings (tournament_id, after_round, player, rank, points, tb1, tb2, tb3, performance) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(id.0)
        .bind(i64::from(after))
        .bind(l.player.as_str())
        .bind(i64::from(l.rank))
        .bind(i64::from(l.points))
        .bind(l.tie_breaks[0])
        .bind(l.tie_breaks[1])
        .bind(l.tie_breaks[2])
        .bind(l.performance)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// The standings stored after round `after`, best first.
pub async fn standings_after(
    tx: &mut Tx,
    id: TournamentId,
    after: u32,
) -> Result<Vec<StandingRow>, sqlx::Error> {
    type Row = (String, i64, i64, f64, f64, f64, Option<i64>);
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT player, rank, points, tb1, tb2, tb3, performance FROM tournament_standings \
         WHERE tournament_id = $1 AND after_round = $2 ORDER BY rank, player",
    )
    .bind(id.0)
    .bind(i64::from(after))
    .fetch_all(&mut **tx)
    .await?;
    rows.into_iter()
        .map(|(player, rank, points, a, b, c, performance)| {
            Ok(StandingRow {
                player: PlayerId::from_stored(player),
                rank: count(id.0, "rank", rank)?,
                points: count(id.0, "points", points)?,
                tie_breaks: [a, b, c],
                performance,
            })
        })
        .collect()
}

/// The finished tournaments `player` played in `community` (or anywhere),
/// newest first, with their place.
pub async fn placings_of(
    tx: &mut Tx,
    player: &PlayerId,
    community: Option<&str>,
) -> Result<Vec<Placing>, sqlx::Error> {
    #[derive(FromRow)]
    struct Row {
        id: i64,
        format: String,
        #[sqlx(try_from = "Flag")]
        double_rr: bool,
        variant: String,
        rank: i64,
        points: i64,
        performance: Option<i64>,
        players: i64,
    }
    let place = if community.is_some() {
        " AND t.community = $2"
    } else {
        ""
    };
    let rows: Vec<Row> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT t.id, t.format, t.double_rr, t.variant, s.rank, s.points, s.performance, \
         (SELECT COUNT(*) FROM tournament_standings o WHERE o.tournament_id = t.id AND o.after_round = t.round) AS players \
         FROM tournaments t JOIN tournament_standings s ON s.tournament_id = t.id AND s.after_round = t.round \
         WHERE t.status = 'finished' AND s.player = $1{place} ORDER BY t.id DESC LIMIT 20"
    )))
    .bind(player.as_str())
    .bind(community.unwrap_or(""))
    .fetch_all(&mut **tx)
    .await?;
    rows.into_iter()
        .map(|r| {
            let format = match r.format.as_str() {
                "swiss" => Format::Swiss,
                _ => Format::RoundRobin {
                    double: r.double_rr,
                },
            };
            let kind = GameKind::from_name(&r.variant)
                .ok_or_else(|| damaged(r.id, format!("game {:?}", r.variant)))?;
            Ok(Placing {
                tournament: TournamentId(r.id),
                format,
                kind,
                rank: count(r.id, "rank", r.rank)?,
                players: count(r.id, "players", r.players)?,
                points: count(r.id, "points", r.points)?,
                performance: r.performance,
            })
        })
        .collect()
}
