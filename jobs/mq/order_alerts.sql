-- Needs RocketMQ: start the local one with `bin/broker.sh start`, or set NAMESRV_ADDR / rocketmq.namesrv in
-- conf/rsql.conf. Reads JSON orders from topic 'orders' and writes large orders to topic 'order_alerts',
-- keyed by customer. Flink DDL ('connector' = '...'); runs until stopped with `bin/stop.sh mq/order_alerts`.
CREATE TABLE orders (
  order_id  BIGINT,
  customer  STRING,
  amount    DECIMAL(12, 2),
  status    STRING,
  tag       STRING METADATA FROM 'tag' VIRTUAL,
  ts        TIMESTAMP(3)
) WITH (
  'connector' = 'rocketmq',
  'topic' = 'orders',
  'scan.startup.mode' = 'earliest',
  'format' = 'json'
);

CREATE TABLE order_alerts (
  order_id  BIGINT,
  customer  STRING,
  amount    DECIMAL(12, 2),
  reason    STRING,
  keys      STRING METADATA
) WITH (
  'connector' = 'rocketmq',
  'topic' = 'order_alerts'
);

INSERT INTO order_alerts
SELECT order_id, customer, amount, 'large order', customer
FROM orders
WHERE amount >= 1000 AND status <> 'CANCELLED';
