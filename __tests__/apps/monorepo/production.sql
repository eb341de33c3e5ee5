CREATE TABLE _migrations (name text PRIMARY KEY);
INSERT INTO _migrations VALUES ('20260101000000_create_accounts.sql'), ('0001_initial.sql');
CREATE TABLE api_accounts (id bigserial PRIMARY KEY, name text NOT NULL);
CREATE TABLE web_page (id bigserial PRIMARY KEY, path text NOT NULL);
INSERT INTO api_accounts (name) VALUES ('Acme');
INSERT INTO web_page (path) VALUES ('/');
