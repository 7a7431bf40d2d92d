-- The processes working on this database, each with what it runs and how
-- that is going, written every few seconds: `voidmate health` reads them.
-- A process that stops writing is seen as silent, then forgotten.
CREATE TABLE processes (
    claimant    TEXT    PRIMARY KEY,
    kind        TEXT    NOT NULL,
    status      TEXT    NOT NULL,
    healthy     INTEGER NOT NULL,
    started_ms  INTEGER NOT NULL,
    seen_ms     INTEGER NOT NULL
);
