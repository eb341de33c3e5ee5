-- pg_dump of the schema and the rows every preview starts from
CREATE TABLE public.orders (id integer NOT NULL, amount integer NOT NULL);
ALTER TABLE ONLY public.orders ADD CONSTRAINT orders_pkey PRIMARY KEY (id);
COPY public.orders (id, amount) FROM stdin;
1	100
2	250
\.
