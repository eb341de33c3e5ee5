-- runs after masking, on the masked copy
INSERT INTO users VALUES (2, 'reviewer@example.com', 'Preview', 'Reviewer', NULL);
