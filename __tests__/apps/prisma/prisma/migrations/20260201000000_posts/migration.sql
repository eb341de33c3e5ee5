CREATE TABLE posts (id int PRIMARY KEY, author int NOT NULL REFERENCES users, title text NOT NULL);
