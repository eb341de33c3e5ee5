CREATE TABLE api_accounts (id bigserial PRIMARY KEY, name text NOT NULL);
