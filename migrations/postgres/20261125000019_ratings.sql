-- Ratings (issue 38). A game remembers its community (a Discord server, a
-- Matrix room, the console; none in a direct conversation), whether it is
-- rated, when it ended, and until when its first moves may come before the
-- bot aborts it. A challenge carries its community and whether it is rated.
ALTER TABLE games ADD COLUMN community TEXT;
ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN finished_ms BIGINT;
ALTER TABLE games ADD COLUMN abort_at_ms BIGINT;
CREATE INDEX games_abort ON games (abort_at_ms) WHERE status = 'active' AND abort_at_ms IS NOT NULL;
CREATE INDEX games_finished ON games (community, finished_ms) WHERE status = 'finished';
CREATE INDEX games_by_white ON games (white);
CREATE INDEX games_by_black ON games (black);
ALTER TABLE challenges ADD COLUMN community TEXT;
ALTER TABLE challenges ADD COLUMN rated BIGINT NOT NULL DEFAULT 0;

-- A player's Glicko-2 rating in one community, game and pool, as it stands
-- after their last rated game there (`last_game_ms`); read, its deviation
-- grows with the time since.
CREATE TABLE ratings (
    community     TEXT    NOT NULL,
    player        TEXT    NOT NULL,
    variant       TEXT    NOT NULL,
    pool          TEXT    NOT NULL CHECK (pool IN ('live', 'correspondence')),
    rating        DOUBLE PRECISION NOT NULL,
    deviation     DOUBLE PRECISION NOT NULL,
    volatility    DOUBLE PRECISION NOT NULL,
    games         BIGINT  NOT NULL,
    best          DOUBLE PRECISION NOT NULL,
    last_game_ms  BIGINT  NOT NULL,
    PRIMARY KEY (community, player, variant, pool)
);
CREATE INDEX ratings_board ON ratings (community, variant, pool, rating);

-- What each rated game did to each of its players' ratings: written in the
-- game's last transaction, once (the key); `check-db` recomputes them.
CREATE TABLE rating_changes (
    game_id            BIGINT  NOT NULL REFERENCES games (id),
    player             TEXT    NOT NULL,
    before_rating      DOUBLE PRECISION NOT NULL,
    before_deviation   DOUBLE PRECISION NOT NULL,
    before_volatility  DOUBLE PRECISION NOT NULL,
    after_rating       DOUBLE PRECISION NOT NULL,
    after_deviation    DOUBLE PRECISION NOT NULL,
    after_volatility   DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, player)
);
