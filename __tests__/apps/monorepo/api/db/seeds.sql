INSERT INTO api_accounts (name, plan) VALUES ('Preview account', 'pro');
