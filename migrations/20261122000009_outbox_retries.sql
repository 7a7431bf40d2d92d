-- Delivery of notices: a failed post is tried again later, each time
-- waiting longer; one the platform refuses for good (no permission, unknown
-- channel, not in the room) is parked after a few tries and tried again
-- only when the bot is seen in that channel again.
ALTER TABLE outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN next_attempt_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN parked INTEGER NOT NULL DEFAULT 0;
CREATE INDEX outbox_due ON outbox (parked, next_attempt_ms);
CREATE INDEX outbox_parked_by_channel ON outbox (channel) WHERE parked = 1;
