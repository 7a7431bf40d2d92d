-- Solving puzzles in chat (issue 49, points 2 and 3). An attempt is one
-- player's go at one puzzle in one channel: open while they solve it (one
-- open a player and channel), then solved, failed or skipped. Everything
-- an attempt has done is in its row, so a kill while a player solves
-- leaves it where it was. Only a player's first attempt at a puzzle is
-- rated (`rated`); `settled` once its rating change is written (a hint
-- settles it as failed at once).
CREATE TABLE puzzle_attempts (
    id          INTEGER PRIMARY KEY,
    puzzle_id   INTEGER NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
    player      TEXT    NOT NULL,
    channel     TEXT    NOT NULL,
    community   TEXT    NOT NULL,
    -- How many moves of the puzzle's line stand on the board (1: the mistake).
    progress    INTEGER NOT NULL DEFAULT 1,
    rated       INTEGER NOT NULL,
    settled     INTEGER NOT NULL DEFAULT 0,
    hinted      INTEGER NOT NULL DEFAULT 0,
    state       TEXT    NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'solved', 'failed', 'skipped')),
    started_ms  INTEGER NOT NULL,
    ended_ms    INTEGER
);
CREATE UNIQUE INDEX puzzle_attempts_open ON puzzle_attempts (player, channel) WHERE state = 'open';
CREATE INDEX puzzle_attempts_by_player ON puzzle_attempts (player, puzzle_id);

-- A solver's Glicko-2 puzzle rating in one community and game, with the
-- rated attempts they solved and failed.
CREATE TABLE puzzle_ratings (
    community   TEXT    NOT NULL,
    variant     TEXT    NOT NULL,
    player      TEXT    NOT NULL,
    rating      REAL    NOT NULL,
    deviation   REAL    NOT NULL,
    volatility  REAL    NOT NULL,
    solved      INTEGER NOT NULL DEFAULT 0,
    failed      INTEGER NOT NULL DEFAULT 0,
    last_ms     INTEGER NOT NULL,
    PRIMARY KEY (community, variant, player)
);
CREATE INDEX puzzle_ratings_board ON puzzle_ratings (community, variant, rating);

-- A channel's daily puzzle: posted each day at `minute` (after midnight,
-- UTC), next at `next_ms`.
CREATE TABLE daily_puzzles (
    channel     TEXT    PRIMARY KEY,
    platform    TEXT    NOT NULL,
    community   TEXT    NOT NULL,
    minute      INTEGER NOT NULL,
    next_ms     INTEGER NOT NULL
);
CREATE INDEX daily_puzzles_due ON daily_puzzles (next_ms);

-- Each day's puzzle in a channel (`day`: days since 1970-01-01, UTC),
-- never the same puzzle twice in a channel, and how far the channel got.
CREATE TABLE daily_posts (
    channel     TEXT    NOT NULL,
    day         INTEGER NOT NULL,
    puzzle_id   INTEGER NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
    progress    INTEGER NOT NULL DEFAULT 1,
    solved_ms   INTEGER,
    PRIMARY KEY (channel, day),
    UNIQUE (channel, puzzle_id)
);

-- Who found a daily puzzle's moves first: a player's moves of one day.
CREATE TABLE daily_credits (
    channel     TEXT    NOT NULL,
    day         INTEGER NOT NULL,
    player      TEXT    NOT NULL,
    moves       INTEGER NOT NULL,
    PRIMARY KEY (channel, day, player)
);
