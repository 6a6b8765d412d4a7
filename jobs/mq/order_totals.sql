-- Needs RocketMQ (see mq/order_alerts). Runs distributed: start more instances with
-- `bin/start.sh --instance 2 mq/order_totals` (here or on another machine with the same conf/) and they share the
-- queues of 'orders' and the per-customer state; `bin/stop.sh --instance 2 mq/order_totals` hands them back.
-- Writes each customer's orders and amount per minute of event time to topic 'order_totals', exactly once.
SET 'execution.mode' = 'distributed';

CREATE TABLE orders (
  order_id  BIGINT,
  customer  STRING,
  amount    DECIMAL(12, 2),
  status    STRING,
  ts        TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH (
  'connector' = 'rocketmq',
  'topic' = 'orders',
  'scan.startup.mode' = 'earliest',
  'format' = 'json'
);

CREATE TABLE order_totals (
  customer      STRING,
  window_start  TIMESTAMP(3),
  orders        BIGINT,
  total         DECIMAL(38, 2)
) WITH (
  'connector' = 'rocketmq',
  'topic' = 'order_totals',
  'sink.key-columns' = 'customer'
);

INSERT INTO order_totals
SELECT customer, window_start, COUNT(*), SUM(amount)
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '1' MINUTE))
WHERE status <> 'CANCELLED'
GROUP BY customer, window_start, window_end;
