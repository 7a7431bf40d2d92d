-- Each player's view of their boards (issue 42): `auto` (from the side to
-- move, or their own side when they ask), `white` or `black` (always from
-- that side).
ALTER TABLE players ADD COLUMN flip TEXT NOT NULL DEFAULT 'auto';
