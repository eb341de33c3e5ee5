INSERT INTO articles (title, slug) VALUES ('Welcome', 'welcome');
