-- Engine reviews of finished games (issue 39), queued as engine work: a
-- process claims a review under a lease it renews while it searches (as
-- the engine's turns), and each position's evaluation is kept as it is
-- found, so a review cut short by a crash goes on where it stopped. The
-- review is posted (an outbox notice, in the transaction that finishes it)
-- once.
CREATE TABLE reviews (
    game_id        BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    channel        TEXT    NOT NULL,
    platform       TEXT    NOT NULL,
    requested_ms   BIGINT NOT NULL,
    -- The engine's effort per position, in nodes.
    nodes          BIGINT NOT NULL,
    claimed_by     TEXT,
    claimed_until  BIGINT,
    done_ms        BIGINT
);
CREATE INDEX reviews_waiting ON reviews (requested_ms) WHERE done_ms IS NULL;

-- One position of a reviewed game (ply 0: the start), for the side to move:
-- `kind` 'cp' (centipawns), 'mate' (plies, negative: mated) or 'over' (1 won,
-- 0 drawn, -1 lost); `best` the engine's choice, in SAN.
CREATE TABLE review_positions (
    game_id  BIGINT NOT NULL REFERENCES reviews (game_id) ON DELETE CASCADE,
    ply      BIGINT NOT NULL,
    kind     TEXT    NOT NULL,
    value    BIGINT NOT NULL,
    best     TEXT,
    PRIMARY KEY (game_id, ply)
);

-- A clock game's PGN writes each mover's clock after the move (`[%clk]`):
-- the time left, increment added, in milliseconds (NULL without a clock,
-- and for moves stored before this).
ALTER TABLE moves ADD COLUMN clock_ms BIGINT;
