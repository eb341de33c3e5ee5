CREATE TABLE web_page (id bigserial PRIMARY KEY, path text NOT NULL);
