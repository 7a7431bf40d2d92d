//! The `tournament*` tables: tournaments, their players, rounds, games,
//! forbidden pairs and standings, typed where they are read. A row that does
//! not convert is an error naming its tournament.

use super::{backend_of_tx, Backend, Flag, Tx};
use crate::command::TimeControl;
use crate::contract::{Player, PlayerId};
use crate::tournament::{
    Entry, EntryStatus, Format, Side, TournamentId, TournamentRecord, TournamentStatus,
};
use sqlx::FromRow;
use voidmate_rules::GameKind;

const COLUMNS: &str = "id, channel, community, platform, creator, format, double_rr, variant, \
     time_control, rated, rounds, round_days, starts_ms, max_players, adjudicate, status, round, \
     round_deadline_ms, remind_ms, initial_colour, paused_ms, ended_reason, created_ms, finished_ms";

#[derive(Debug, Clone, FromRow)]
struct TournamentRow {
    id: i64,
    channel: String,
    community: Option<String>,
    platform: String,
    creator: String,
    format: String,
    #[sqlx(try_from = "Flag")]
    double_rr: bool,
    variant: String,
    time_control: String,
    #[sqlx(try_from = "Flag")]
    rated: bool,
    rounds: i64,
    round_days: Option<i64>,
    starts_ms: Option<i64>,
    max_players: i64,
    #[sqlx(try_from = "Flag")]
    adjudicate: bool,
    status: String,
    round: i64,
    round_deadline_ms: Option<i64>,
    remind_ms: Option<i64>,
    initial_colour: Option<String>,
    paused_ms: Option<i64>,
    ended_reason: Option<String>,
    created_ms: i64,
    finished_ms: Option<i64>,
}

pub(super) fn damaged(id: i64, why: impl Into<String>) -> sqlx::Error {
    sqlx::Error::Decode(
        crate::record::RecordError::Tournament {
            id,
            why: why.into(),
        }
        .into(),
    )
}

pub(super) fn count(id: i64, what: &str, n: i64) -> Result<u32, sqlx::Error> {
    u32::try_from(n).map_err(|_| damaged(id, format!("{what} {n}")))
}

impl TournamentRow {
    fn into_record(self) -> Result<TournamentRecord, sqlx::Error> {
        let id = self.id;
        let format = match (self.format.as_str(), self.double_rr) {
            ("swiss", _) => Format::Swiss,
            ("roundrobin", double) => Format::RoundRobin { double },
            (other, _) => return Err(damaged(id, format!("format {other:?}"))),
        };
        let kind = GameKind::from_name(&self.variant)
            .ok_or_else(|| damaged(id, format!("game {:?}", self.variant)))?;
        let time = TimeControl::parse(&self.time_control)
            .ok_or_else(|| damaged(id, format!("time control {:?}", self.time_control)))?;
        let status = TournamentStatus::from_code(&self.status)
            .ok_or_else(|| damaged(id, format!("status {:?}", self.status)))?;
        let initial = match self.initial_colour.as_deref() {
            None => None,
            Some("white") => Some(Side::White),
            Some("black") => Some(Side::Black),
            Some(other) => return Err(damaged(id, format!("initial colour {other:?}"))),
        };
        Ok(TournamentRecord {
            id: TournamentId(id),
            channel: self.channel,
            community: self.community,
            platform: self.platform,
            creator: PlayerId::from_stored(self.creator),
            format,
            kind,
            time,
            rated: self.rated,
            rounds: count(id, "rounds", self.rounds)?,
            round_days: self
                .round_days
                .map(|d| count(id, "round days", d))
                .transpose()?,
            starts_ms: self.starts_ms,
            max_players: count(id, "max players", self.max_players)?,
            adjudicate: self.adjudicate,
            status,
            round: count(id, "round", self.round)?,
            round_deadline_ms: self.round_deadline_ms,
            remind_ms: self.remind_ms,
            initial,
            paused_ms: self.paused_ms,
            ended_reason: self.ended_reason,
            created_ms: self.created_ms,
            finished_ms: self.finished_ms,
        })
    }
}

/// A tournament to create.
#[derive(Debug, Clone)]
pub struct NewTournament<'a> {
    pub channel: &'a str,
    pub community: Option<&'a str>,
    pub platform: &'a str,
    pub creator: &'a PlayerId,
    pub format: Format,
    pub kind: GameKind,
    pub time: &'a TimeControl,
    pub rated: bool,
    pub rounds: u32,
    pub round_days: Option<u32>,
    pub starts_ms: Option<i64>,
    pub max_players: u32,
    pub adjudicate: bool,
}

/// Stores a new, open tournament; its number.
pub async fn create_tournament(
    tx: &mut Tx,
    t: &NewTournament<'_>,
) -> Result<TournamentId, sqlx::Error> {
    let now = tx.now_ms();
    let id = sqlx::query_scalar::<_, i64>(
        "INSERT INTO tournaments (channel, community, platform, creator, format, double_rr, variant, \
         time_control, rated, rounds, round_days, starts_ms, max_players, adjudicate, status, created_ms) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 'open', $15) RETURNING id",
    )
    .bind(t.channel)
    .bind(t.community)
    .bind(t.platform)
    .bind(t.creator.as_str())
    .bind(t.format.code())
    .bind(i64::from(matches!(t.format, Format::RoundRobin { double: true })))
    .bind(t.kind.name())
    .bind(t.time.code())
    .bind(i64::from(t.rated))
    .bind(i64::from(t.rounds))
    .bind(t.round_days.map(i64::from))
    .bind(t.starts_ms)
    .bind(i64::from(t.max_players))
    .bind(i64::from(t.adjudicate))
    .bind(now)
    .fetch_one(&mut **tx)
    .await?;
    Ok(TournamentId(id))
}

/// Tournament `id`, if there is one.
pub async fn tournament(
    tx: &mut Tx,
    id: TournamentId,
) -> Result<Option<TournamentRecord>, sqlx::Error> {
    let row: Option<TournamentRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM tournaments WHERE id = $1"
    )))
    .bind(id.0)
    .fetch_optional(&mut **tx)
    .await?;
    row.map(TournamentRow::into_record).transpose()
}

/// Tournament `id` as it stands now, locked until the end of `tx` on
/// PostgreSQL (`FOR UPDATE`): a second process that reaches the same
/// round's deadline waits here and then sees the round paired. On SQLite
/// the write transaction holds the whole file.
pub async fn lock_tournament(
    tx: &mut Tx,
    id: TournamentId,
) -> Result<Option<TournamentRecord>, sqlx::Error> {
    let lock = match backend_of_tx(tx) {
        Backend::Postgres => " FOR UPDATE",
        Backend::Sqlite => "",
    };
    let row: Option<TournamentRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM tournaments WHERE id = $1{lock}"
    )))
    .bind(id.0)
    .fetch_optional(&mut **tx)
    .await?;
    row.map(TournamentRow::into_record).transpose()
}

/// The tournaments of a channel or (with `community`) of its community,
/// newest first; finished ones only with `all`.
pub async fn tournaments_here(
    tx: &mut Tx,
    channel: &str,
    community: Option<&str>,
    all: bool,
) -> Result<Vec<TournamentRecord>, sqlx::Error> {
    let live = if all {
        ""
    } else {
        " AND status IN ('open', 'running', 'paused')"
    };
    let rows: Vec<TournamentRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM tournaments WHERE (channel = $1 OR community = $2){live} \
         ORDER BY id DESC LIMIT 50"
    )))
    .bind(channel)
    .bind(community.unwrap_or(channel))
    .fetch_all(&mut **tx)
    .await?;
    rows.into_iter().map(TournamentRow::into_record).collect()
}

/// Every tournament (for `check-db`).
pub async fn all_tournaments(
    tx: &mut Tx,
) -> Result<Vec<Result<TournamentRecord, String>>, sqlx::Error> {
    let rows: Vec<TournamentRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM tournaments ORDER BY id"
    )))
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| r.into_record().map_err(|e| e.to_string()))
        .collect())
}

/// The tournaments with work due at `now_ms`: open ones whose start time
/// came; running ones whose round is over, whose deadline or reminder came,
/// or that have not paired a round yet.
pub async fn due_tournaments(tx: &mut Tx, now_ms: i64) -> Result<Vec<TournamentId>, sqlx::Error> {
    let ids: Vec<i64> = sqlx::query_scalar(
        "SELECT id FROM tournaments t WHERE \
         (status = 'open' AND starts_ms IS NOT NULL AND starts_ms <= $1) \
         OR (status = 'running' AND (round = 0 \
             OR (round_deadline_ms IS NOT NULL AND round_deadline_ms <= $1) \
             OR (remind_ms IS NOT NULL AND remind_ms <= $1) \
             OR NOT EXISTS (SELECT 1 FROM tournament_games g WHERE g.tournament_id = t.id \
                            AND g.round = t.round AND g.outcome IS NULL))) \
         ORDER BY id",
    )
    .bind(now_ms)
    .fetch_all(&mut **tx)
    .await?;
    Ok(ids.into_iter().map(TournamentId).collect())
}

/// Tournament `id` moves from channel `from` to `to` (its own thread).
/// `false` if it was not in `from`.
pub async fn move_tournament(
    tx: &mut Tx,
    id: TournamentId,
    from: &str,
    to: &str,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("UPDATE tournaments SET channel = $3 WHERE id = $1 AND channel = $2")
        .bind(id.0)
        .bind(from)
        .bind(to)
        .execute(&mut **tx)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Sets a tournament's status (and, finishing or cancelling it, when and why).
pub async fn set_tournament_status(
    tx: &mut Tx,
    id: TournamentId,
    status: TournamentStatus,
    reason: Option<&str>,
) -> Result<(), sqlx::Error> {
    let now = tx.now_ms();
    let over = matches!(
        status,
        TournamentStatus::Finished | TournamentStatus::Cancelled
    );
    sqlx::query(
        "UPDATE tournaments SET status = $2, ended_reason = COALESCE($3, ended_reason), \
         finished_ms = CASE WHEN $4 = 1 THEN $5 ELSE finished_ms END WHERE id = $1",
    )
    .bind(id.0)
    .bind(status.code())
    .bind(reason)
    .bind(i64::from(over))
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Pauses a tournament (noting when) or resumes it, moving its round's
/// deadline and reminder on by the time it was paused.
pub async fn pause_tournament(
    tx: &mut Tx,
    id: TournamentId,
    pause: bool,
) -> Result<(), sqlx::Error> {
    let now = tx.now_ms();
    if pause {
        sqlx::query("UPDATE tournaments SET status = 'paused', paused_ms = $2 WHERE id = $1")
            .bind(id.0)
            .bind(now)
            .execute(&mut **tx)
            .await?;
    } else {
        sqlx::query(
            "UPDATE tournaments SET status = 'running', \
             round_deadline_ms = round_deadline_ms + ($2 - COALESCE(paused_ms, $2)), \
             remind_ms = remind_ms + ($2 - COALESCE(paused_ms, $2)), paused_ms = NULL WHERE id = $1",
        )
        .bind(id.0)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// Starts a tournament: running, with its number of rounds and round 1's
/// lot.
pub async fn start_tournament(
    tx: &mut Tx,
    id: TournamentId,
    rounds: u32,
    initial: Side,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE tournaments SET status = 'running', rounds = $2, initial_colour = $3 WHERE id = $1",
    )
    .bind(id.0)
    .bind(i64::from(rounds))
    .bind(match initial {
        Side::White => "white",
        Side::Black => "black",
    })
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Notes that round `round` was paired, with its deadline and reminder.
pub async fn set_round(
    tx: &mut Tx,
    id: TournamentId,
    round: u32,
    deadline_ms: Option<i64>,
    remind_ms: Option<i64>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE tournaments SET round = $2, round_deadline_ms = $3, remind_ms = $4 WHERE id = $1",
    )
    .bind(id.0)
    .bind(i64::from(round))
    .bind(deadline_ms)
    .bind(remind_ms)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The round's deadline passed and it was closed: no deadline any more.
pub async fn clear_deadline(tx: &mut Tx, id: TournamentId) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE tournaments SET round_deadline_ms = NULL, remind_ms = NULL WHERE id = $1")
        .bind(id.0)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// The reminders of the current round were sent.
pub async fn clear_reminder(tx: &mut Tx, id: TournamentId) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE tournaments SET remind_ms = NULL WHERE id = $1")
        .bind(id.0)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

#[derive(Debug, Clone, FromRow)]
struct EntryRow {
    player: String,
    name: String,
    rating: i64,
    joined_round: i64,
    joined_ms: i64,
    status: String,
    here_round: Option<i64>,
}

/// A tournament's players, in the order they joined.
pub async fn entries(tx: &mut Tx, id: TournamentId) -> Result<Vec<Entry>, sqlx::Error> {
    let rows: Vec<EntryRow> = sqlx::query_as(
        "SELECT player, name, rating, joined_round, joined_ms, status, here_round \
         FROM tournament_players WHERE tournament_id = $1 ORDER BY joined_ms, player",
    )
    .bind(id.0)
    .fetch_all(&mut **tx)
    .await?;
    rows.into_iter()
        .map(|r| {
            let status = EntryStatus::from_code(&r.status)
                .ok_or_else(|| damaged(id.0, format!("player status {:?}", r.status)))?;
            Ok(Entry {
                player: Player::new(PlayerId::from_stored(r.player), r.name),
                rating: r.rating,
                joined_round: count(id.0, "joined round", r.joined_round)?,
                joined_ms: r.joined_ms,
                status,
                here_round: r
                    .here_round
                    .map(|h| count(id.0, "here round", h))
                    .transpose()?,
            })
        })
        .collect()
}

/// Adds a player (joining from round `joined_round`, ordered by `rating`).
pub async fn add_entry(
    tx: &mut Tx,
    id: TournamentId,
    who: &Player,
    rating: i64,
    joined_round: u32,
) -> Result<(), sqlx::Error> {
    let now = tx.now_ms();
    sqlx::query(
        "INSERT INTO tournament_players (tournament_id, player, name, rating, joined_round, joined_ms) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(id.0)
    .bind(who.id.as_str())
    .bind(&who.name)
    .bind(rating)
    .bind(i64::from(joined_round))
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Removes a player who leaves before the start.
pub async fn remove_entry(
    tx: &mut Tx,
    id: TournamentId,
    who: &PlayerId,
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM tournament_players WHERE tournament_id = $1 AND player = $2")
        .bind(id.0)
        .bind(who.as_str())
        .execute(&mut **tx)
        .await?;
    Ok(())
}

pub async fn set_entry_status(
    tx: &mut Tx,
    id: TournamentId,
    who: &PlayerId,
    status: EntryStatus,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE tournament_players SET status = $3 WHERE tournament_id = $1 AND player = $2",
    )
    .bind(id.0)
    .bind(who.as_str())
    .bind(status.code())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Notes that a player said they are here in round `round`.
pub async fn set_here(
    tx: &mut Tx,
    id: TournamentId,
    who: &PlayerId,
    round: u32,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE tournament_players SET here_round = $3 WHERE tournament_id = $1 AND player = $2",
    )
    .bind(id.0)
    .bind(who.as_str())
    .bind(i64::from(round))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Sets the rating a player is paired by (at the start).
pub async fn set_entry_rating(
    tx: &mut Tx,
    id: TournamentId,
    who: &PlayerId,
    rating: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE tournament_players SET rating = $3 WHERE tournament_id = $1 AND player = $2",
    )
    .bind(id.0)
    .bind(who.as_str())
    .bind(rating)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
