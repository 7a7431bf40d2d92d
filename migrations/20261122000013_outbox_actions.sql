-- An answer that asks a question (accept or decline a challenge, a draw, a
-- takeback) keeps it when it is posted from the outbox: one question a
-- line, `kind<TAB>game or challenger<TAB>challenger's name<TAB>who answers`.
ALTER TABLE outbox ADD COLUMN actions TEXT NOT NULL DEFAULT '';
