-- Which platform's adapter posts an outbox entry ('discord', 'matrix',
-- 'console'), so that in a deployment of several processes only one that
-- runs that adapter takes it; NULL: any process.
ALTER TABLE outbox ADD COLUMN platform TEXT;
