CREATE TABLE _migrations (name text PRIMARY KEY);
INSERT INTO _migrations VALUES ('0001_initial.sql');
CREATE TABLE shop_product (id bigserial PRIMARY KEY, name text NOT NULL);
INSERT INTO shop_product (name) VALUES ('Desk');
