-- Clock time controls (minutes + increment): each side's remaining time in
-- milliseconds, when the side to move started thinking, and whether it was
-- already warned of low time on this move.
ALTER TABLE games ADD COLUMN white_ms INTEGER;
ALTER TABLE games ADD COLUMN black_ms INTEGER;
ALTER TABLE games ADD COLUMN turn_started_ms INTEGER;
ALTER TABLE games ADD COLUMN low_time_warned INTEGER NOT NULL DEFAULT 0;
