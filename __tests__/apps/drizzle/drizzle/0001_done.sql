ALTER TABLE todos ADD COLUMN done boolean NOT NULL DEFAULT false;
