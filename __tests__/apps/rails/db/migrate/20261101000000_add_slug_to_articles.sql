ALTER TABLE articles ADD COLUMN slug text;
