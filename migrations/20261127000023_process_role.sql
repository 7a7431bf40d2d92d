-- What a process stands for in the deployment (`run` with Discord shards
-- 0-3 of 8, an engine worker): a process started with the same kind and
-- role after another fell silent has replaced it, and `voidmate health`
-- says so instead of reporting the deployment unwell.
ALTER TABLE processes ADD COLUMN role TEXT NOT NULL DEFAULT '';
