-- Tournaments (issue 48): Swiss (FIDE Dutch) and round robins, played over
-- days in a channel (a Discord thread, a Matrix room). A round is paired
-- once, in one transaction with its games, its announcement (an outbox
-- notice) and the standings after the round before: the row
-- `tournament_rounds (tournament_id, round)` can exist once, and the
-- tournament's row is locked (PostgreSQL) or the database is (SQLite) while
-- it is paired.
CREATE TABLE tournaments (
    id                INTEGER PRIMARY KEY,
    -- Where it is played and announced; the community its games are rated in.
    channel           TEXT    NOT NULL,
    community         TEXT,
    platform          TEXT    NOT NULL,
    creator           TEXT    NOT NULL,
    -- 'swiss' or 'roundrobin' (double: played twice, colours reversed).
    format            TEXT    NOT NULL,
    double_rr         INTEGER NOT NULL DEFAULT 0,
    variant           TEXT    NOT NULL,
    time_control      TEXT    NOT NULL,
    rated             INTEGER NOT NULL,
    -- Swiss: as asked; round robin: set when it starts.
    rounds            INTEGER NOT NULL,
    -- A correspondence round's length, in days (NULL on a clock: a round
    -- ends when its games do).
    round_days        INTEGER,
    -- When it starts by itself (NULL: when its organiser says `start`).
    starts_ms         INTEGER,
    max_players       INTEGER NOT NULL,
    adjudicate        INTEGER NOT NULL DEFAULT 0,
    -- 'open', 'running', 'paused', 'finished', 'cancelled'.
    status            TEXT    NOT NULL,
    -- The round paired last (0 before the first).
    round             INTEGER NOT NULL DEFAULT 0,
    round_deadline_ms INTEGER,
    -- When the current round's reminders are due (NULL: sent, or none).
    remind_ms         INTEGER,
    -- Round 1's colours, drawn by lot once: the colour of the first player.
    initial_colour    TEXT,
    paused_ms         INTEGER,
    -- Why it ended early, in a player's words.
    ended_reason      TEXT,
    created_ms        INTEGER NOT NULL,
    finished_ms       INTEGER
);
CREATE INDEX tournaments_by_channel ON tournaments (channel);
CREATE INDEX tournaments_live ON tournaments (status) WHERE status IN ('open', 'running');

CREATE TABLE tournament_players (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    player         TEXT    NOT NULL,
    name           TEXT    NOT NULL,
    -- The rating the pairing orders by: the player's rating in the
    -- tournament's game and pool when it started (or when they joined late).
    rating         INTEGER NOT NULL,
    -- The first round they could be paired in.
    joined_round   INTEGER NOT NULL DEFAULT 1,
    joined_ms      INTEGER NOT NULL,
    -- 'active', 'absent' (forfeited: not paired until they rejoin),
    -- 'withdrawn', 'kicked'.
    status         TEXT    NOT NULL DEFAULT 'active',
    -- The round in which they said they are here (a Black player waiting
    -- for White's first move is then not counted absent).
    here_round     INTEGER,
    PRIMARY KEY (tournament_id, player)
);
CREATE INDEX tournament_players_by_player ON tournament_players (player);

CREATE TABLE tournament_rounds (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round          INTEGER NOT NULL,
    paired_ms      INTEGER NOT NULL,
    deadline_ms    INTEGER,
    -- The player with the pairing-allocated bye.
    bye            TEXT,
    PRIMARY KEY (tournament_id, round)
);

-- A round's games. `outcome`: NULL while played; '1-0', '0-1', '1/2'; a
-- forfeit '+-' (White wins), '-+' (Black wins), '--' (both lose).
CREATE TABLE tournament_games (
    tournament_id  INTEGER NOT NULL,
    round          INTEGER NOT NULL,
    board          INTEGER NOT NULL,
    white          TEXT    NOT NULL,
    black          TEXT    NOT NULL,
    game_id        INTEGER REFERENCES games (id),
    outcome        TEXT,
    PRIMARY KEY (tournament_id, round, board),
    FOREIGN KEY (tournament_id, round) REFERENCES tournament_rounds (tournament_id, round) ON DELETE CASCADE
);
CREATE UNIQUE INDEX tournament_games_by_game ON tournament_games (game_id);

-- Pairs that never meet, from a round on.
CREATE TABLE tournament_forbidden (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    a              TEXT    NOT NULL,
    b              TEXT    NOT NULL,
    since_round    INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, a, b)
);

-- The standings after a round (written with the next round's pairing, and
-- at the end): points in half points, the three tie-breaks of the format.
CREATE TABLE tournament_standings (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    after_round    INTEGER NOT NULL,
    player         TEXT    NOT NULL,
    rank           INTEGER NOT NULL,
    points         INTEGER NOT NULL,
    tb1            REAL    NOT NULL,
    tb2            REAL    NOT NULL,
    tb3            REAL    NOT NULL,
    performance    INTEGER,
    PRIMARY KEY (tournament_id, after_round, player)
);
