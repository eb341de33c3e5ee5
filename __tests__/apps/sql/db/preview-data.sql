INSERT INTO orders (id, amount, currency) VALUES (3, 999, 'USD');
