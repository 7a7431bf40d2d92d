//! The `challenges` table: invitations waiting for an answer.

use super::games::damaged;
use super::rows::ChallengeRow;
use super::Tx;
use crate::command::{ProgramMode, TimeControl};
use crate::contract::PlayerId;
use crate::record::{ChallengeRecord, ChallengeStatus};
use voidmate_rules::{Color, GameKind};

/// The challenges waiting for an answer in `channel`, oldest first. One
/// that does not read is an error that names it: a channel's challenges
/// are settled together, so none is settled past a damaged one.
pub async fn pending_challenges(
    tx: &mut Tx,
    channel: &str,
) -> Result<Vec<ChallengeRecord>, sqlx::Error> {
    let rows: Vec<ChallengeRow> = sqlx::query_as(
        "SELECT id, challenger, challenged, variant, time_control, challenger_color, mode, program, in_thread, \
         community, rated, \
         (SELECT name FROM players WHERE players.id = challenger) AS challenger_name, \
         (SELECT name FROM players WHERE players.id = challenged) AS challenged_name FROM challenges \
         WHERE channel = $1 AND status = 'pending' ORDER BY id",
    )
    .bind(channel)
    .fetch_all(&mut **tx)
    .await?;
    rows.into_iter()
        .map(|r| r.into_record().map_err(damaged))
        .collect()
}

/// Stores a challenge of `challenger`, who takes `challenger_color`; its id.
#[allow(clippy::too_many_arguments)]
pub async fn insert_challenge(
    tx: &mut Tx,
    channel: &str,
    challenger: &PlayerId,
    challenged: &PlayerId,
    kind: GameKind,
    time: &TimeControl,
    challenger_color: Color,
    mode: ProgramMode,
) -> Result<i64, sqlx::Error> {
    super::definitions::keep(tx, kind).await?;
    let id = sqlx::query_scalar::<_, i64>(
        "INSERT INTO challenges (channel, challenger, challenged, variant, time_control, challenger_color, mode, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
    )
    .bind(channel)
    .bind(challenger.as_str())
    .bind(challenged.as_str())
    .bind(kind.storage_key())
    .bind(time.code())
    .bind(match challenger_color {
        Color::White => "white",
        Color::Black => "black",
    })
    .bind(mode.code())
    .bind(tx.now_secs())
    .fetch_one(&mut **tx)
    .await?;
    Ok(id)
}

/// Records challenge `id`'s community and whether its game is rated.
pub async fn set_challenge_rating(
    tx: &mut Tx,
    id: i64,
    community: Option<&str>,
    rated: bool,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE challenges SET community = $1, rated = $2 WHERE id = $3")
        .bind(community)
        .bind(i64::from(rated))
        .bind(id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Records whether challenge `id` asked for a thread of its own.
pub async fn set_challenge_thread(
    tx: &mut Tx,
    id: i64,
    thread: Option<bool>,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE challenges SET in_thread = $1 WHERE id = $2")
        .bind(thread.map(i64::from))
        .bind(id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Settles pending challenge `id` as `status` (with the game it began).
pub async fn close_challenge(
    tx: &mut Tx,
    id: i64,
    status: ChallengeStatus,
    game_id: Option<i64>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE challenges SET status = $1, game_id = $2 WHERE id = $3 AND status = 'pending'",
    )
    .bind(status.code())
    .bind(game_id)
    .bind(id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Sets the roster a pending symmetric challenge proposes.
pub async fn set_challenge_program(tx: &mut Tx, id: i64, program: &str) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE challenges SET program = $1 WHERE id = $2 AND status = 'pending'")
        .bind(program)
        .bind(id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}
