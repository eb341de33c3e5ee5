CREATE TABLE _migrations (name text PRIMARY KEY);
INSERT INTO _migrations VALUES ('0000_init.sql');
CREATE TABLE todos (id serial PRIMARY KEY, title text NOT NULL);
INSERT INTO todos (title) VALUES ('ship it');
