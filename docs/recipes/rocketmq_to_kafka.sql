-- Recipe: orders from a RocketMQ topic into a Kafka topic, filtered and reshaped on the way, keyed by customer so that
-- a customer's orders stay in order. See docs/recipes.md.
--
--   ORDERS_TOPIC=orders KAFKA_SERVERS=kafka:9092 KAFKA_TOPIC=paid_orders bin/rsql run docs/recipes/rocketmq_to_kafka.sql
CREATE TABLE orders (
  order_id BIGINT,
  customer STRING,
  amount   DECIMAL(10, 2),
  status   STRING,
  city     STRING
) WITH (
  'connector' = 'rocketmq',
  'topic'     = '${ORDERS_TOPIC:orders}'
);

CREATE TABLE paid_orders (
  customer STRING,
  order_id BIGINT,
  amount   DECIMAL(10, 2),
  city     STRING
) WITH (
  'connector' = 'kafka',
  'topic'     = '${KAFKA_TOPIC:paid_orders}',
  'properties.bootstrap.servers' = '${KAFKA_SERVERS:127.0.0.1:9092}',
  'key.format' = 'json',
  'key.fields' = 'customer',
  'sink.delivery-guarantee' = 'at-least-once'
);

INSERT INTO paid_orders SELECT customer, order_id, amount, city FROM orders WHERE status = 'PAID';
