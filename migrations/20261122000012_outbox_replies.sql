-- Every answer the bot decides goes through the outbox, written in the
-- transaction of the change it reports, and is removed when the adapter
-- confirms the post. `in_reply_to` is the platform event it answers (a
-- retried answer still replies to the message that asked). An answer owed
-- to a waiting command is written with `next_attempt_ms` a little ahead:
-- the adapter posts it directly, and the periodic check only takes it if
-- nobody confirmed it by then, or after a restart.
ALTER TABLE outbox ADD COLUMN in_reply_to TEXT;
