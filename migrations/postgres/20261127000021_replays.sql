-- Replays and reviews (issue 39): a notice may carry, instead of a game's
-- board, its animated replay (1) or its review's evaluation graph (2),
-- drawn from the stored game when it is posted; and a channel may turn off
-- the replay posted after each finished game.
ALTER TABLE outbox ADD COLUMN board_kind BIGINT NOT NULL DEFAULT 0;
ALTER TABLE channel_settings ADD COLUMN replays BIGINT NOT NULL DEFAULT 1;
