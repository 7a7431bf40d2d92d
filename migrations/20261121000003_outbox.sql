-- Notices the bot owes a channel (deadline reminders, losses on time),
-- written in the same transaction that decides them and deleted only once
-- an adapter has posted them: a failed post is retried, nothing is lost.
CREATE TABLE outbox (
    -- AUTOINCREMENT: an id is never reused, so a late confirmation cannot
    -- clear a newer notice.
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    channel     TEXT    NOT NULL,
    text        TEXT    NOT NULL,
    mentions    TEXT    NOT NULL DEFAULT '',
    created_at  INTEGER NOT NULL
);
