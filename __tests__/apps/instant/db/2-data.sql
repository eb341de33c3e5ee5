INSERT INTO customers VALUES (1, 'Ada'), (2, 'Grace');
