-- the PR's data seed: needs the PR's own column
INSERT INTO users VALUES (100, 'preview@example.com') ON CONFLICT DO NOTHING;
INSERT INTO posts (id, author, title, published) VALUES (100, 100, 'Preview post', true) ON CONFLICT DO NOTHING;
