\set ON_ERROR_STOP on
SELECT 1 / count(*) FROM orders WHERE currency = 'USD';
