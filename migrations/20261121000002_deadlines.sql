-- Correspondence time control: when the player to move must have moved, and
-- whether they were reminded. Plus a small key-value table for adapters
-- (sync tokens, when the bot joined a room).

ALTER TABLE games ADD COLUMN deadline_at INTEGER;
ALTER TABLE games ADD COLUMN reminded INTEGER NOT NULL DEFAULT 0;
CREATE INDEX games_by_deadline ON games (status, deadline_at);

CREATE TABLE adapter_state (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);
