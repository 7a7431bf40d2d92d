-- Whether a handled event changed anything (a move played, a challenge
-- made): an edit of such a command cannot undo it, while an edit of one that
-- was refused is handled as the new command.
ALTER TABLE handled_events ADD COLUMN acted INTEGER NOT NULL DEFAULT 0;
