-- Puzzles from the community's own games (issue 49). Every finished game is
-- queued for a puzzle search (in the transaction that finishes it), taken
-- as engine work under a lease as reviews are; each puzzle found is stored
-- once (a game's position can hold one), even when two processes or a kill
-- race over the game.
CREATE TABLE puzzle_searches (
    game_id        INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    requested_ms   INTEGER NOT NULL,
    claimed_by     TEXT,
    claimed_until  INTEGER,
    done_ms        INTEGER,
    -- How many puzzles the search found.
    found          INTEGER
);
CREATE INDEX puzzle_searches_waiting ON puzzle_searches (requested_ms) WHERE done_ms IS NULL;

-- A puzzle: the position before the opponent's mistake (`fen`, with the
-- game's tile field), then `moves`: the mistake and the solution, in SAN,
-- the solver's moves first after the mistake; `score` the solver's score
-- after the line (the engine's, centipawns or a mate); `themes` space
-- separated (`mateIn2 short`). Rated per community and game (Glicko-2).
CREATE TABLE puzzles (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply         INTEGER NOT NULL,
    community   TEXT,
    platform    TEXT    NOT NULL,
    variant     TEXT    NOT NULL,
    fen         TEXT    NOT NULL,
    moves       TEXT    NOT NULL,
    score       INTEGER NOT NULL,
    themes      TEXT    NOT NULL,
    rating      REAL    NOT NULL DEFAULT 1500,
    deviation   REAL    NOT NULL DEFAULT 500,
    volatility  REAL    NOT NULL DEFAULT 0.09,
    plays       INTEGER NOT NULL DEFAULT 0,
    created_ms  INTEGER NOT NULL,
    UNIQUE (game_id, ply)
);
CREATE INDEX puzzles_by_community ON puzzles (community, variant, rating);
