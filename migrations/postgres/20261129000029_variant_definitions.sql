-- Issue 50: the definition of each game read from a file that a game or a
-- challenge was made in, by its hash (`GameKind::storage_key` is
-- `name@hash`), so that a game keeps the rules it started with when its
-- file changes or goes, and `check-db` replays it with them.
CREATE TABLE variant_definitions (
    hash TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    body TEXT NOT NULL,
    stored_at BIGINT NOT NULL
);
