-- Whether a game that was to be rated lost its rating by how it ended (an
-- abort, a resignation before both sides moved): `rated` is then cleared,
-- and this keeps the players' wish, so that a rematch is rated again.
ALTER TABLE games ADD COLUMN unrated_by_ending BIGINT NOT NULL DEFAULT 0;
