-- Games against the bot's engine: the level it plays at (1-5); NULL when two
-- people play.
ALTER TABLE games ADD COLUMN engine_level INTEGER;
