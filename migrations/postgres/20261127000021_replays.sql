-- Replays (issue 39): a notice may carry a game's animated replay instead of
-- its board (drawn again from the stored game when it is posted), and a
-- channel may turn off the replay posted after each finished game.
ALTER TABLE outbox ADD COLUMN board_replay BIGINT NOT NULL DEFAULT 0;
ALTER TABLE channel_settings ADD COLUMN replays BIGINT NOT NULL DEFAULT 1;
