//! The `players` table: the name each platform identity was last seen
//! with. Seats hold ids; names are only for what replies show.

use super::Tx;
use crate::command::Flip;
use crate::contract::{Player, PlayerId};

/// Records `who`'s current display name (a rename shows from now on).
///
/// A name already stored as it is writes nothing and locks nothing (an
/// `ON CONFLICT DO UPDATE` locks the row even when its `WHERE` leaves it
/// unchanged, which would make every command of one player, in all their
/// games at once, wait for each other on PostgreSQL).
pub async fn see_player(tx: &mut Tx, who: &Player) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO players (id, name, seen_at) SELECT $1, $2, $3 \
         WHERE NOT EXISTS (SELECT 1 FROM players WHERE id = $1 AND name = $2) \
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, seen_at = excluded.seen_at \
         WHERE players.name IS DISTINCT FROM excluded.name",
    )
    .bind(who.id.as_str())
    .bind(&who.name)
    .bind(tx.now_secs())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// What a board drawn in `channel` for `who` needs: the channel's theme
/// (if it chose one) and how `who` wants boards turned. One query for both
/// (a round trip fewer on every move).
pub async fn view_of(
    tx: &mut Tx,
    channel: &str,
    who: &PlayerId,
) -> Result<(Option<String>, Flip), sqlx::Error> {
    let (theme, flip): (Option<String>, Option<String>) = sqlx::query_as(
        "SELECT (SELECT theme FROM channel_settings WHERE channel = $1), \
         (SELECT flip FROM players WHERE id = $2)",
    )
    .bind(channel)
    .bind(who.as_str())
    .fetch_one(&mut **tx)
    .await?;
    let flip = flip.and_then(|f| Flip::from_name(&f)).unwrap_or(Flip::Auto);
    Ok((theme, flip))
}

/// How `who` wants their boards turned (`auto` when they never said).
pub async fn flip_of(tx: &mut Tx, who: &PlayerId) -> Result<Flip, sqlx::Error> {
    let row: Option<(String,)> = sqlx::query_as("SELECT flip FROM players WHERE id = $1")
        .bind(who.as_str())
        .fetch_optional(&mut **tx)
        .await?;
    Ok(row
        .and_then(|(f,)| Flip::from_name(&f))
        .unwrap_or(Flip::Auto))
}

/// Sets how `who` wants their boards turned.
pub async fn set_flip(tx: &mut Tx, who: &Player, flip: Flip) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO players (id, name, seen_at, flip) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (id) DO UPDATE SET flip = excluded.flip",
    )
    .bind(who.id.as_str())
    .bind(&who.name)
    .bind(tx.now_secs())
    .bind(flip.name())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Players of `platform` who go by `name` (case ignored), or whose id's
/// local part is `name`: how a name typed without a mention is found.
pub async fn players_named(
    tx: &mut Tx,
    platform: &str,
    name: &str,
) -> Result<Vec<Player>, sqlx::Error> {
    let rows: Vec<(String, String)> = sqlx::query_as(
        "SELECT id, name FROM players \
         WHERE substr(id, 1, length($1) + 1) = $2 || ':' \
           AND (lower(name) = lower($3) OR id = $4 || ':' || $5) ORDER BY id",
    )
    .bind(platform)
    .bind(platform)
    .bind(name)
    .bind(platform)
    .bind(name)
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(id, name)| Player::stored(&id, Some(name)))
        .collect())
}

/// Gives everything held by `old` to `new` (seats, moves, offers,
/// challenges): a legacy seat claimed by the identity it belonged to.
pub async fn rename_player(tx: &mut Tx, old: &PlayerId, new: &PlayerId) -> Result<(), sqlx::Error> {
    for sql in [
        "UPDATE games SET white = $2 WHERE white = $1",
        "UPDATE games SET black = $2 WHERE black = $1",
        "UPDATE games SET draw_offer_by = $2 WHERE draw_offer_by = $1",
        "UPDATE games SET undo_by = $2 WHERE undo_by = $1",
        "UPDATE moves SET played_by = $2 WHERE played_by = $1",
        "UPDATE challenges SET challenger = $2 WHERE challenger = $1",
        "UPDATE challenges SET challenged = $2 WHERE challenged = $1",
    ] {
        sqlx::query(sql)
            .bind(old.as_str())
            .bind(new.as_str())
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlx::Row;

    /// A database from before identities (seats held names) is migrated:
    /// each seat, move, offer, challenge and pending notice gets the id of
    /// its platform, the names are kept for display, and the bot's own
    /// Discord seat, whose id was never recorded, is claimed when the
    /// adapter says who the bot is.
    #[tokio::test]
    async fn names_from_before_identities_become_ids() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.db");
        let options = sqlx::sqlite::SqliteConnectOptions::new()
            .filename(&path)
            .create_if_missing(true);
        let pool = sqlx::SqlitePool::connect_with(options).await.unwrap();
        sqlx::migrate!("../migrations")
            .run_to(20261122000010, &pool)
            .await
            .unwrap();
        let fen = "8/8/8/8/8/8/8/8 w - - 0 1";
        for sql in [
            "INSERT INTO adapter_state VALUES ('discord.user.alice', '11')",
            "INSERT INTO adapter_state VALUES ('discord.user.bob', '22')",
            "INSERT INTO games (id, channel, variant, white, black, start_fen, fen, created_at, updated_at, draw_offer_by) \
             VALUES (1, '3000', 'standard', 'alice', 'Voidmate', $1, $1, 0, 0, 'alice')",
            "INSERT INTO games (id, channel, variant, white, black, start_fen, fen, created_at, updated_at) \
             VALUES (2, '!room:hs', 'void', 'alice:hs', 'bob:hs', $1, $1, 0, 0)",
            "INSERT INTO games (id, channel, variant, white, black, start_fen, fen, created_at, updated_at, undo_by) \
             VALUES (3, 'console', 'void', 'alice', 'bob', $1, $1, 0, 0, 'bob')",
            "INSERT INTO moves VALUES (2, 1, 'e4', 'e2e4', 'alice:hs', 0)",
            "INSERT INTO moves VALUES (1, 1, 'e4', 'e2e4', 'alice', 0)",
            "INSERT INTO challenges (channel, challenger, challenged, variant, created_at) \
             VALUES ('3000', 'bob', 'alice', 'void', 0)",
            "INSERT INTO outbox (channel, text, mentions, created_at) VALUES ('console', 'hi', 'alice\nbob', 0)",
            "INSERT INTO outbox (channel, text, mentions, created_at) VALUES ('3000', 'hi', '', 0)",
        ] {
            sqlx::query(sql).bind(fen).execute(&pool).await.unwrap();
        }
        pool.close().await;

        let mut cfg = crate::config::CoreConfig::default();
        cfg.database.path = path.clone();
        let core = crate::Core::open(&cfg).await.unwrap();
        let pool = core.store().pool().clone();
        let seats = |sql: &'static str| {
            let pool = pool.clone();
            async move {
                sqlx::query(sql)
                    .fetch_all(&pool)
                    .await
                    .unwrap()
                    .iter()
                    .map(|r| {
                        (0..r.len())
                            .map(|i| r.get::<Option<String>, _>(i).unwrap_or_default())
                            .collect::<Vec<_>>()
                            .join(" ")
                    })
                    .collect::<Vec<_>>()
            }
        };
        assert_eq!(
            seats("SELECT white, black, draw_offer_by, undo_by FROM games ORDER BY id").await,
            [
                "discord:11 discord:?Voidmate discord:11 ",
                "matrix:@alice:hs matrix:@bob:hs  ",
                "console:alice console:bob  console:bob",
            ]
        );
        assert_eq!(
            seats("SELECT played_by FROM moves ORDER BY game_id").await,
            ["discord:11", "matrix:@alice:hs"]
        );
        assert_eq!(
            seats("SELECT challenger, challenged FROM challenges").await,
            ["discord:22 discord:11"]
        );
        assert_eq!(
            seats("SELECT mentions FROM outbox ORDER BY id").await,
            ["console:alice\nconsole:bob", ""]
        );
        assert_eq!(
            seats("SELECT id, name FROM players ORDER BY id").await,
            [
                "console:alice alice",
                "console:bob bob",
                "discord:11 alice",
                "discord:22 bob",
                "matrix:@alice:hs alice",
                "matrix:@bob:hs bob",
            ]
        );

        // The Discord adapter connects as the bot, id 1000: the old seat is its.
        let bot = Player::new(PlayerId::new("discord", "1000"), "Voidmate");
        core.add_bot(bot).await.unwrap();
        assert_eq!(
            seats("SELECT black FROM games WHERE id = 1").await,
            ["discord:1000"]
        );
    }
}
