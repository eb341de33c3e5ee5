INSERT INTO todos (title, done) VALUES ('write the preview docs', true);
