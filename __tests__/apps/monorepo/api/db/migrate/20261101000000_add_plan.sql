ALTER TABLE api_accounts ADD COLUMN plan text;
