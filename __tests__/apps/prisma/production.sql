CREATE TABLE _migrations (name text PRIMARY KEY);
INSERT INTO _migrations VALUES ('20260101000000_init/migration.sql'), ('20260201000000_posts/migration.sql');
CREATE TABLE users (id int PRIMARY KEY, email text NOT NULL UNIQUE);
CREATE TABLE posts (id int PRIMARY KEY, author int NOT NULL REFERENCES users, title text NOT NULL);
INSERT INTO users VALUES (1, 'ada@example.com');
INSERT INTO posts VALUES (1, 1, 'Hello');
