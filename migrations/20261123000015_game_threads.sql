-- Games in threads of their own (Discord). A challenge may ask for one or
-- for none; NULL follows the channel's setting, off unless turned on.
ALTER TABLE challenges ADD COLUMN in_thread INTEGER;
ALTER TABLE channel_settings ADD COLUMN threads INTEGER NOT NULL DEFAULT 0;
