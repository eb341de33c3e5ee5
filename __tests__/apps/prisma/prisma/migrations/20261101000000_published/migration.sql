-- the PR's migration
ALTER TABLE posts ADD COLUMN published boolean NOT NULL DEFAULT false;
