CREATE TABLE todos (id serial PRIMARY KEY, title text NOT NULL);
