-- The periodic check reads only games that need it now: each active game
-- carries the earliest moment it may (`due_ms`): its deadline, its
-- reminder (a quarter of the move's time before the deadline, written by
-- the bot as `remind_at` since it depends on the configured day length),
-- the fall of the running flag, or the low-time warning. Triggers keep it
-- in step with every change of those columns; the partial index makes the
-- check's query touch due rows only.
ALTER TABLE games ADD COLUMN remind_at INTEGER;
ALTER TABLE games ADD COLUMN due_ms INTEGER;

CREATE INDEX games_due ON games (due_ms) WHERE status = 'active';

-- The side to move is the FEN's second field; the low-time warning comes
-- at a tenth of the base time, between 10 and 60 seconds (as the bot
-- computes it from `time_control`, "minutes+increment").
CREATE VIEW games_due_at AS
SELECT id,
    CASE WHEN status != 'active' THEN NULL ELSE NULLIF(min(
        coalesce(deadline_at * 1000, 9223372036854775807),
        coalesce(CASE WHEN reminded = 0 THEN remind_at * 1000 END, 9223372036854775807),
        coalesce(flag_ms, 9223372036854775807),
        coalesce(CASE WHEN low_time_warned = 0 THEN flag_ms - low_ms END, 9223372036854775807)
    ), 9223372036854775807) END AS due_ms
FROM (
    SELECT id, status, deadline_at, reminded, remind_at, low_time_warned,
        turn_started_ms + CASE substr(fen, instr(fen, ' ') + 1, 1)
            WHEN 'w' THEN white_ms ELSE black_ms END AS flag_ms,
        CASE WHEN instr(time_control, '+') > 0 THEN
            max(10000, min(60000, CAST(substr(time_control, 1, instr(time_control, '+') - 1) AS INTEGER) * 6000))
        END AS low_ms
    FROM games
);

CREATE TRIGGER games_due_on_insert AFTER INSERT ON games
BEGIN
    UPDATE games SET due_ms = (SELECT due_ms FROM games_due_at WHERE id = NEW.id) WHERE id = NEW.id;
END;

CREATE TRIGGER games_due_on_update
AFTER UPDATE OF status, fen, deadline_at, remind_at, reminded, white_ms, black_ms,
    turn_started_ms, low_time_warned, time_control ON games
BEGIN
    UPDATE games SET due_ms = (SELECT due_ms FROM games_due_at WHERE id = NEW.id) WHERE id = NEW.id;
END;

UPDATE games SET due_ms = (SELECT d.due_ms FROM games_due_at d WHERE d.id = games.id);

-- The engine's games in progress, for the check that resumes its turns.
CREATE INDEX games_engine_active ON games (id) WHERE status = 'active' AND engine_level IS NOT NULL;
