//! Copying a whole deployment's data from one database to another
//! (`voidmate migrate-db`): every table a running bot keeps, row by row,
//! each value read as the destination's column type.

use super::{backend_of, begin_write, Backend};
use sqlx::AnyPool;
use sqlx::Row as _;

/// The tables copied, parents before children. `processes` is left out:
/// it describes the processes of the old deployment.
pub const COPIED_TABLES: &[&str] = &[
    "games",
    "moves",
    "challenges",
    "ratings",
    "rating_changes",
    "channel_settings",
    "players",
    "outbox",
    "handled_events",
    "adapter_state",
    "reviews",
    "review_positions",
    "puzzle_searches",
    "puzzles",
    "puzzle_attempts",
    "puzzle_ratings",
    "daily_puzzles",
    "daily_posts",
    "daily_credits",
    "tournaments",
    "tournament_players",
    "tournament_rounds",
    "tournament_games",
    "tournament_forbidden",
    "tournament_standings",
];

/// Tables whose `id` the database hands out: the destination's counter
/// continues after the copied ids.
const IDENTITY_TABLES: &[&str] = &[
    "games",
    "challenges",
    "outbox",
    "tournaments",
    "puzzles",
    "puzzle_attempts",
];

/// A column's kind, as the destination declares it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Integer,
    Text,
    Real,
    Blob,
}

impl Kind {
    fn of(declared: &str) -> Kind {
        let t = declared.to_ascii_lowercase();
        if t.contains("int") {
            Kind::Integer
        } else if t.contains("char") || t.contains("text") || t.contains("clob") {
            Kind::Text
        } else if t.contains("real") || t.contains("floa") || t.contains("doub") {
            Kind::Real
        } else if t.contains("blob") || t.contains("bytea") {
            Kind::Blob
        } else {
            Kind::Text
        }
    }
}

/// The columns of `table` in the database behind `pool`, with their kinds.
async fn columns(pool: &AnyPool, table: &str) -> Result<Vec<(String, Kind)>, sqlx::Error> {
    let rows: Vec<(String, String)> = match backend_of(pool) {
        Backend::Sqlite => {
            sqlx::query_as("SELECT name, type FROM pragma_table_info($1) ORDER BY cid")
                .bind(table)
                .fetch_all(pool)
                .await?
        }
        Backend::Postgres => {
            sqlx::query_as(
                "SELECT column_name::text, data_type::text FROM information_schema.columns \
                 WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
            )
            .bind(table)
            .fetch_all(pool)
            .await?
        }
    };
    Ok(rows
        .into_iter()
        .map(|(name, declared)| (name, Kind::of(&declared)))
        .collect())
}

/// Rows in `table`.
pub async fn count_rows(pool: &AnyPool, table: &str) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM {table}")))
        .fetch_one(pool)
        .await
}

/// Copies every row of [`COPIED_TABLES`] from `from` to `to` in one
/// transaction of the destination, reading the source in one transaction
/// too (a consistent picture even if something writes meanwhile). Columns
/// the destination lacks are refused; columns the source lacks keep their
/// defaults. Returns the rows copied per table.
pub async fn copy_database(
    from: &AnyPool,
    to: &AnyPool,
    mut progress: impl FnMut(&str, usize),
) -> Result<Vec<(&'static str, usize)>, sqlx::Error> {
    let mut read = from.begin().await?;
    let mut write = begin_write(to, backend_of(to)).await?;
    let mut copied = Vec::new();
    for &table in COPIED_TABLES {
        let source: Vec<String> = columns(from, table)
            .await?
            .into_iter()
            .map(|(name, _)| name)
            .collect();
        let target = columns(to, table).await?;
        let mut chosen = Vec::new();
        for name in &source {
            match target.iter().find(|(n, _)| n == name) {
                Some((_, kind)) => chosen.push((name.clone(), *kind)),
                None => {
                    return Err(sqlx::Error::Protocol(format!(
                        "the destination's table {table} has no column {name}: is it at the same version?"
                    )))
                }
            }
        }
        let names: Vec<&str> = chosen.iter().map(|(n, _)| n.as_str()).collect();
        let select = format!("SELECT {} FROM {table}", names.join(", "));
        let insert = format!(
            "INSERT INTO {table} ({}) VALUES ({})",
            names.join(", "),
            (1..=names.len())
                .map(|i| format!("${i}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(select))
            .fetch_all(&mut *read)
            .await?;
        for (n, row) in rows.iter().enumerate() {
            let mut query = sqlx::query(sqlx::AssertSqlSafe(insert.clone()));
            for (i, (_, kind)) in chosen.iter().enumerate() {
                query = match kind {
                    Kind::Integer => query.bind(row.try_get::<Option<i64>, _>(i)?),
                    Kind::Text => query.bind(row.try_get::<Option<String>, _>(i)?),
                    Kind::Real => query.bind(row.try_get::<Option<f64>, _>(i)?),
                    Kind::Blob => query.bind(row.try_get::<Option<Vec<u8>>, _>(i)?),
                };
            }
            query.execute(&mut *write).await?;
            if (n + 1) % 1000 == 0 {
                progress(table, n + 1);
            }
        }
        progress(table, rows.len());
        copied.push((table, rows.len()));
    }
    if backend_of(to) == Backend::Postgres {
        for table in IDENTITY_TABLES {
            sqlx::query(sqlx::AssertSqlSafe(format!(
                "SELECT setval(pg_get_serial_sequence('{table}', 'id'), \
                 COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
            )))
            .execute(&mut *write)
            .await?;
        }
    }
    write.commit().await?;
    Ok(copied)
}
