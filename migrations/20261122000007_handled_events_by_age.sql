-- Handled event ids are kept for a while to recognise redeliveries, then
-- pruned by age; the index keeps that pruning from scanning the table.
CREATE INDEX IF NOT EXISTS handled_events_by_age ON handled_events (handled_at);
