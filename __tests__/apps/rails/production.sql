CREATE TABLE _migrations (name text PRIMARY KEY);
INSERT INTO _migrations VALUES ('20260101000000_create_articles.sql');
CREATE TABLE articles (id bigserial PRIMARY KEY, title text NOT NULL);
INSERT INTO articles (title) VALUES ('First');
