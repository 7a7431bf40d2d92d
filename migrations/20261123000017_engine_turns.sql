-- The engine's turns as a queue in the database, so that in a deployment of
-- several processes exactly one searches each (issue 22):
-- `engine_wanted_ms`: since when the bot is to move in this game (NULL:
-- it is not); `engine_claimed_by`/`engine_claimed_until`: the process
-- searching now and when its lease ends unless renewed. A lease that ends
-- (its process died) lets another process take the turn.
ALTER TABLE games ADD COLUMN engine_wanted_ms INTEGER;
ALTER TABLE games ADD COLUMN engine_claimed_by TEXT;
ALTER TABLE games ADD COLUMN engine_claimed_until INTEGER;

CREATE INDEX games_engine_wanted ON games (engine_wanted_ms)
    WHERE status = 'active' AND engine_wanted_ms IS NOT NULL;
