-- Who holds an outbox notice (posting it now, or about to): the process
-- whose lease it is until `next_attempt_ms`. A renewal only moves a hold
-- that is still its renewer's, so a notice taken over once its holder went
-- silent is not renewed by a holder that wakes up late. NULL: nobody holds
-- it (it is due, or waiting for its time after a failed post or a game).
ALTER TABLE outbox ADD COLUMN held_by TEXT;
