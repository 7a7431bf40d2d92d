-- Super Chess 16x16: how pieces may be reprogrammed ('default', 'symmetric'
-- or 'private'), the programs themselves (canonical text; NULL: not sent yet
-- in a private game, or the default pieces), and each player's cosmetic
-- piece colour (NULL: the variant's default). A symmetric challenge carries
-- the roster its challenger proposes.
ALTER TABLE challenges ADD COLUMN mode TEXT NOT NULL DEFAULT 'default';
ALTER TABLE challenges ADD COLUMN program TEXT;
ALTER TABLE games ADD COLUMN mode TEXT NOT NULL DEFAULT 'default';
ALTER TABLE games ADD COLUMN program_white TEXT;
ALTER TABLE games ADD COLUMN program_black TEXT;
ALTER TABLE games ADD COLUMN colour_white TEXT;
ALTER TABLE games ADD COLUMN colour_black TEXT;
