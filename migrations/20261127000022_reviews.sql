-- Engine reviews of finished games (issue 39), queued as engine work: a
-- process claims a review under a lease it renews while it searches (as
-- the engine's turns), and each position's evaluation is kept as it is
-- found, so a review cut short by a crash goes on where it stopped. The
-- review is posted (an outbox notice, in the transaction that finishes it)
-- once.
CREATE TABLE reviews (
    game_id        INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    channel        TEXT    NOT NULL,
    platform       TEXT    NOT NULL,
    requested_ms   INTEGER NOT NULL,
    -- The engine's effort per position, in nodes.
    nodes          INTEGER NOT NULL,
    claimed_by     TEXT,
    claimed_until  INTEGER,
    done_ms        INTEGER
);
CREATE INDEX reviews_waiting ON reviews (requested_ms) WHERE done_ms IS NULL;

-- One position of a reviewed game (ply 0: the start), for the side to move:
-- `kind` 'cp' (centipawns), 'mate' (plies, negative: mated) or 'over' (1 won,
-- 0 drawn, -1 lost); `best` the engine's choice, in SAN.
CREATE TABLE review_positions (
    game_id  INTEGER NOT NULL REFERENCES reviews (game_id) ON DELETE CASCADE,
    ply      INTEGER NOT NULL,
    kind     TEXT    NOT NULL,
    value    INTEGER NOT NULL,
    best     TEXT,
    PRIMARY KEY (game_id, ply)
);

-- A clock game's PGN writes each mover's clock after the move (`[%clk]`):
-- the time left, increment added, in milliseconds (NULL without a clock,
-- and for moves stored before this).
ALTER TABLE moves ADD COLUMN clock_ms INTEGER;
