CREATE TABLE users (id int PRIMARY KEY, email text NOT NULL, first_name text, last_name text, phone text);
CREATE TABLE payments (id int PRIMARY KEY, user_id int REFERENCES users, card_holder text);
INSERT INTO users VALUES (1, 'ada.lovelace@real.example', 'Augusta', 'Byron', '+44 20 7946 0000');
INSERT INTO payments VALUES (1, 1, 'ADA LOVELACE');
