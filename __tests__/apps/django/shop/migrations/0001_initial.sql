CREATE TABLE shop_product (id bigserial PRIMARY KEY, name text NOT NULL);
