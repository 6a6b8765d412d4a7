-- Generates 200 orders, keeps the large ones that are not cancelled, and prints them.
-- Bounded: the job finishes by itself. Run it with: bin/rsql run jobs/hello.sql
CREATE TABLE orders (
  order_id  BIGINT,
  customer  VARCHAR,
  amount    DOUBLE,
  status    VARCHAR
) WITH (
  type = 'random',
  'number-of-rows' = '200',
  seed = '7',
  'fields.order_id.kind' = 'sequence',
  'fields.order_id.start' = '1',
  'fields.order_id.end' = '200',
  'fields.customer.values' = 'alice,bob,carol,dave',
  'fields.amount.min' = '1',
  'fields.amount.max' = '500',
  'fields.status.values' = 'NEW,PAID,SHIPPED,CANCELLED'
);

CREATE TABLE big_orders (
  order_id  BIGINT,
  customer  VARCHAR,
  amount    DOUBLE,
  status    VARCHAR
) WITH (type = 'print', 'print-identifier' = 'big');

INSERT INTO big_orders
SELECT order_id, customer, amount, status
FROM orders
WHERE amount > 400 AND status <> 'CANCELLED';
