CREATE TABLE articles (id bigserial PRIMARY KEY, title text NOT NULL);
