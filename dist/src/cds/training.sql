-- The job whose run at package time decides which classes lib/rsql.jsa (class-data sharing) holds: what the example
-- jobs use (jobs/hello.sql's generated rows and print sink; a JSON file source, rule filters with LIKE, REGEXP and
-- IN as in security rule sets; a windowed and a non-windowed aggregation with their RocksDB state) and blackhole
-- sinks. Bounded: it ends by itself.
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

CREATE TABLE logins (
  event_id    BIGINT,
  user_name   STRING,
  ip          STRING,
  user_agent  STRING,
  success     BOOLEAN,
  attempts    INT,
  country     STRING,
  ts          TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH (
  'connector' = 'filesystem',
  'path' = '${rsql.home}/jobs/data/logins.jsonl',
  'format' = 'json'
);

CREATE TABLE alerts (rule_id STRING, ts TIMESTAMP(3), user_name STRING, evidence STRING)
  WITH ('connector' = 'blackhole');
CREATE TABLE stats (user_name STRING, window_start TIMESTAMP(3), logins BIGINT, failed BIGINT, countries BIGINT)
  WITH ('connector' = 'blackhole');
CREATE TABLE by_country (country STRING, failed BIGINT) WITH ('connector' = 'blackhole');

INSERT INTO big_orders
SELECT order_id, customer, amount, status
FROM orders
WHERE amount > 400 AND status <> 'CANCELLED';

INSERT INTO alerts
SELECT 'R01', ts, user_name, user_agent FROM logins
WHERE user_agent LIKE 'sqlmap%' OR user_agent LIKE '%curl/%';

INSERT INTO alerts
SELECT 'R02', ts, user_name, ip FROM logins
WHERE REGEXP(ip, '^198\.51\.100\.[0-9]+$') AND NOT success;

INSERT INTO alerts
SELECT 'R03', ts, user_name, country FROM logins
WHERE country IN ('KP', 'IR', 'SY') AND attempts BETWEEN 3 AND 10;

INSERT INTO stats
SELECT user_name, window_start, COUNT(*), COUNT(*) FILTER (WHERE NOT success), COUNT(DISTINCT country)
FROM TABLE(TUMBLE(TABLE logins, DESCRIPTOR(ts), INTERVAL '1' MINUTE))
GROUP BY user_name, window_start, window_end;

INSERT INTO by_country
SELECT country, COUNT(*) FROM logins WHERE NOT success GROUP BY country;
