-- Voidmate's storage. One row per game; its moves in order; challenges;
-- per-channel settings; and the ids of platform events already handled.

CREATE TABLE games (
    id              INTEGER PRIMARY KEY,
    channel         TEXT    NOT NULL,
    variant         TEXT    NOT NULL,
    white           TEXT    NOT NULL,
    black           TEXT    NOT NULL,
    start_fen       TEXT    NOT NULL,
    -- The position after the last move: a check on the replayed moves.
    fen             TEXT    NOT NULL,
    time_control    TEXT    NOT NULL DEFAULT 'none',
    status          TEXT    NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'finished')),
    result          TEXT,
    termination     TEXT,
    -- Bumped by every change, so two racing writers cannot both apply.
    version         INTEGER NOT NULL DEFAULT 0,
    -- A draw offer or takeback request stands only at the ply it was made.
    draw_offer_by   TEXT,
    draw_offer_ply  INTEGER,
    undo_by         TEXT,
    undo_ply        INTEGER,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL
);
CREATE INDEX games_by_channel ON games (channel, status);

CREATE TABLE moves (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply         INTEGER NOT NULL,
    san         TEXT    NOT NULL,
    coordinate  TEXT    NOT NULL,
    played_by   TEXT    NOT NULL,
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
);

CREATE TABLE challenges (
    id            INTEGER PRIMARY KEY,
    channel       TEXT    NOT NULL,
    challenger    TEXT    NOT NULL,
    challenged    TEXT    NOT NULL,
    variant       TEXT    NOT NULL,
    time_control  TEXT    NOT NULL DEFAULT 'none',
    challenger_color TEXT NOT NULL DEFAULT 'white',
    status        TEXT    NOT NULL DEFAULT 'pending'
                  CHECK (status IN ('pending', 'accepted', 'declined', 'withdrawn')),
    game_id       INTEGER REFERENCES games (id),
    created_at    INTEGER NOT NULL
);
CREATE INDEX challenges_pending ON challenges (channel, status);

CREATE TABLE channel_settings (
    channel     TEXT PRIMARY KEY,
    bare_moves  INTEGER NOT NULL DEFAULT 1,
    theme       TEXT    NOT NULL DEFAULT 'classic'
);

CREATE TABLE handled_events (
    event_id    TEXT PRIMARY KEY,
    handled_at  INTEGER NOT NULL
);
