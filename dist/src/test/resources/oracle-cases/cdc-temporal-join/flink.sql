-- A table of debezium-json changes as the versioned side of event-time temporal joins (INNER and LEFT): each order
-- gets the price valid at its time; a deleted product has none. rsql.sql is the same job with file sinks.
CREATE TABLE prices (
  id BIGINT, name STRING, price DECIMAL(10, 2), upd TIMESTAMP(3),
  PRIMARY KEY (id) NOT ENFORCED,
  WATERMARK FOR upd AS upd
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/input/prices.jsonl', 'format' = 'debezium-json');

CREATE TABLE orders (
  order_id BIGINT, product_id BIGINT, qty INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/input/orders.jsonl', 'format' = 'json');

CREATE TABLE priced (order_id BIGINT, name STRING, total DECIMAL(20, 2), price_since TIMESTAMP(3))
  WITH ('connector' = 'collect');
CREATE TABLE priced_left (order_id BIGINT, name STRING, price DECIMAL(10, 2))
  WITH ('connector' = 'collect');

INSERT INTO priced
SELECT o.order_id, p.name, p.price * o.qty, p.upd
FROM orders AS o JOIN prices FOR SYSTEM_TIME AS OF o.ts AS p ON o.product_id = p.id;

INSERT INTO priced_left
SELECT o.order_id, p.name, p.price
FROM orders AS o LEFT JOIN prices FOR SYSTEM_TIME AS OF o.ts AS p ON o.product_id = p.id;
