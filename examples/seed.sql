-- Sample seed for the demo (neon.new or a Neon branch): a tiny shop.
CREATE TABLE customers (
  id    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email text NOT NULL UNIQUE,
  name  text NOT NULL
);

CREATE TABLE orders (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  customer_id bigint NOT NULL REFERENCES customers (id),
  total_cents integer NOT NULL CHECK (total_cents >= 0),
  placed_at   timestamptz NOT NULL DEFAULT now()
);

INSERT INTO customers (email, name) VALUES
  ('ada@example.com', 'Ada Lovelace'),
  ('alan@example.com', 'Alan Turing'),
  ('grace@example.com', 'Grace Hopper');

INSERT INTO orders (customer_id, total_cents)
SELECT c.id, 1000 * g FROM customers c, generate_series(1, 3) g;
