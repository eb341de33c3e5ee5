CREATE TABLE customers (id int PRIMARY KEY, name text NOT NULL);
