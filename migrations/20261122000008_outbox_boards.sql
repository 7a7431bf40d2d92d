-- A notice may carry the board of a game after a given ply (an engine move
-- found by the periodic check rather than inside a reply): the image is
-- drawn when the notice is delivered, from the stored game, and only if
-- the game still stands at that ply.
ALTER TABLE outbox ADD COLUMN board_game INTEGER;
ALTER TABLE outbox ADD COLUMN board_ply INTEGER;
