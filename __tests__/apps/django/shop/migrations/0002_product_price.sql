ALTER TABLE shop_product ADD COLUMN price numeric(10,2);
