-- Players are platform identities, not names. Every seat, move, challenge,
-- offer and pending notice now holds an id `platform:local`
-- (`discord:80351110224678912`, `matrix:@alice:example.org`,
-- `console:alice`); `players` keeps the name each was last seen with, for
-- replies and captions only.
CREATE TABLE players (
    id       TEXT    PRIMARY KEY,
    name     TEXT    NOT NULL,
    seen_at  INTEGER NOT NULL DEFAULT 0
);

-- Until now a seat held the name the adapter used: on Matrix the user id
-- without its `@`, on Discord the username (whose id the adapter kept in
-- `adapter_state` as `discord.user.NAME`), in the console the name. The
-- platform follows from the channel: Matrix room ids start with `!`,
-- Discord channel ids are numbers, anything else is the console's. A
-- Discord name without a known id (the bot's own) becomes `discord:?NAME`
-- until the adapter claims it (`Core::add_bot`).
CREATE TEMP TABLE seat_names (channel TEXT NOT NULL, name TEXT NOT NULL, id TEXT,
    PRIMARY KEY (channel, name));
INSERT OR IGNORE INTO seat_names (channel, name)
    SELECT channel, white FROM games UNION SELECT channel, black FROM games
    UNION SELECT channel, draw_offer_by FROM games WHERE draw_offer_by IS NOT NULL
    UNION SELECT channel, undo_by FROM games WHERE undo_by IS NOT NULL
    UNION SELECT g.channel, m.played_by FROM moves m JOIN games g ON g.id = m.game_id
    UNION SELECT channel, challenger FROM challenges UNION SELECT channel, challenged FROM challenges;
UPDATE seat_names SET id = CASE
    WHEN channel LIKE '!%' THEN 'matrix:@' || name
    WHEN channel <> '' AND channel NOT GLOB '*[^0-9]*' THEN 'discord:' || coalesce(
        (SELECT value FROM adapter_state WHERE key = 'discord.user.' || seat_names.name),
        '?' || name)
    ELSE 'console:' || name
END;

INSERT OR IGNORE INTO players (id, name)
    SELECT id, CASE WHEN channel LIKE '!%' AND instr(name, ':') > 0
        THEN substr(name, 1, instr(name, ':') - 1) ELSE name END
    FROM seat_names WHERE id NOT LIKE 'discord:?%';

UPDATE games SET
    white = (SELECT id FROM seat_names s WHERE s.channel = games.channel AND s.name = games.white),
    black = (SELECT id FROM seat_names s WHERE s.channel = games.channel AND s.name = games.black),
    draw_offer_by = (SELECT id FROM seat_names s
        WHERE s.channel = games.channel AND s.name = games.draw_offer_by),
    undo_by = (SELECT id FROM seat_names s WHERE s.channel = games.channel AND s.name = games.undo_by);
UPDATE moves SET played_by = (SELECT s.id FROM seat_names s JOIN games g ON g.channel = s.channel
    WHERE g.id = moves.game_id AND s.name = moves.played_by);
UPDATE challenges SET
    challenger = (SELECT id FROM seat_names s
        WHERE s.channel = challenges.channel AND s.name = challenges.challenger),
    challenged = (SELECT id FROM seat_names s
        WHERE s.channel = challenges.channel AND s.name = challenges.challenged);

-- Pending notices name whom to notify, one name a line; they become ids
-- too. `text_mentions` places the mentions written in a notice's text.
ALTER TABLE outbox ADD COLUMN text_mentions TEXT NOT NULL DEFAULT '';
UPDATE outbox SET mentions = coalesce((
    WITH RECURSIVE split(rest, one) AS (
        SELECT outbox.mentions || char(10), NULL
        UNION ALL
        SELECT substr(rest, instr(rest, char(10)) + 1), substr(rest, 1, instr(rest, char(10)) - 1)
        FROM split WHERE rest <> ''
    )
    SELECT group_concat(coalesce(s.id, 'console:' || split.one), char(10))
    FROM split LEFT JOIN seat_names s ON s.channel = outbox.channel AND s.name = split.one
    WHERE split.one IS NOT NULL AND split.one <> ''
), '');

DROP TABLE seat_names;

