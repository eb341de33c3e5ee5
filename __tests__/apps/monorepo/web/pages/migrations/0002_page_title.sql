ALTER TABLE web_page ADD COLUMN title text;
