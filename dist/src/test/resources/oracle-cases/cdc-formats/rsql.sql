-- flink.sql with file sinks: the job run by OracleCasesTest, whose rows must equal Flink's (expected/).
CREATE TABLE products_debezium (
  id BIGINT, name STRING, category STRING, price DECIMAL(10, 2), qty INT,
  PRIMARY KEY (id) NOT ENFORCED
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/input/products_debezium.jsonl', 'format' = 'debezium-json');

CREATE TABLE products_debezium_schema (
  id BIGINT, name STRING, category STRING, price DECIMAL(10, 2), qty INT
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/input/products_debezium_schema.jsonl',
        'format' = 'debezium-json', 'debezium-json.schema-include' = 'true');

CREATE TABLE products_canal (
  id BIGINT, name STRING, category STRING, price DECIMAL(10, 2), qty INT
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/input/products_canal.jsonl', 'format' = 'canal-json',
        'canal-json.table.include' = 'prod.*');

CREATE TABLE products_maxwell (
  id BIGINT, name STRING, category STRING, price DECIMAL(10, 2), qty INT,
  PRIMARY KEY (id) NOT ENFORCED
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/input/products_maxwell.jsonl', 'format' = 'maxwell-json');

CREATE TABLE orders (
  order_id BIGINT, product_id BIGINT, amount INT, buyer STRING
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/input/orders.jsonl', 'format' = 'json');

CREATE TABLE by_category_debezium (category STRING, cnt BIGINT, total_qty BIGINT, max_price DECIMAL(10, 2),
  min_price DECIMAL(10, 2), PRIMARY KEY (category) NOT ENFORCED) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/out/by_category_debezium.jsonl',
  'format' = 'json');
CREATE TABLE by_category_schema (category STRING, cnt BIGINT, avg_price DECIMAL(38, 6))
  WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/out/by_category_schema.jsonl',
  'format' = 'json');
CREATE TABLE by_category_canal (category STRING, cnt BIGINT, total_qty BIGINT, max_price DECIMAL(10, 2),
  min_price DECIMAL(10, 2)) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/out/by_category_canal.jsonl',
  'format' = 'json');
CREATE TABLE by_category_maxwell (category STRING, cnt BIGINT, total_qty BIGINT, max_price DECIMAL(10, 2),
  min_price DECIMAL(10, 2), PRIMARY KEY (category) NOT ENFORCED) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/out/by_category_maxwell.jsonl',
  'format' = 'json');
CREATE TABLE products_copy (id BIGINT, name STRING, category STRING, price DECIMAL(10, 2), qty INT,
  PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/out/products_copy.jsonl',
  'format' = 'json');
CREATE TABLE order_lines (order_id BIGINT, buyer STRING, name STRING, category STRING, total DECIMAL(20, 2))
  WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/out/order_lines.jsonl',
  'format' = 'json');
CREATE TABLE buyer_totals (buyer STRING, orders BIGINT, total DECIMAL(38, 2), PRIMARY KEY (buyer) NOT ENFORCED)
  WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/out/buyer_totals.jsonl',
  'format' = 'json');

INSERT INTO by_category_debezium
SELECT COALESCE(category, '(none)'), COUNT(*), SUM(qty), MAX(price), MIN(price)
FROM products_debezium GROUP BY COALESCE(category, '(none)');

INSERT INTO by_category_schema
SELECT category, COUNT(*), AVG(price) FROM products_debezium_schema GROUP BY category;

INSERT INTO by_category_canal
SELECT COALESCE(category, '(none)'), COUNT(*), SUM(qty), MAX(price), MIN(price)
FROM products_canal GROUP BY COALESCE(category, '(none)');

INSERT INTO by_category_maxwell
SELECT COALESCE(category, '(none)'), COUNT(*), SUM(qty), MAX(price), MIN(price)
FROM products_maxwell GROUP BY COALESCE(category, '(none)');

INSERT INTO products_copy SELECT * FROM products_maxwell WHERE qty > 3;

INSERT INTO order_lines
SELECT o.order_id, o.buyer, p.name, p.category, p.price * o.amount
FROM orders o JOIN products_debezium p ON o.product_id = p.id;

INSERT INTO buyer_totals
SELECT o.buyer, COUNT(*), SUM(p.price * o.amount)
FROM orders o JOIN products_canal p ON o.product_id = p.id GROUP BY o.buyer;
