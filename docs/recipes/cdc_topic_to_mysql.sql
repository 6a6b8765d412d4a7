-- Recipe: a MySQL table's changes, carried in a RocketMQ topic as Debezium JSON (or Canal JSON: CDC_FORMAT =
-- canal-json), kept in a table of another MySQL or MariaDB database: inserts and updates become upserts by the
-- primary key, deletes delete. See docs/recipes.md.
--
--   CDC_TOPIC=mysql_shop_products MYSQL_URL=jdbc:mysql://db:3306/shop MYSQL_USER=rsql MYSQL_PASSWORD=... \
--     bin/rsql run docs/recipes/cdc_topic_to_mysql.sql
CREATE TABLE product_changes (
  id       BIGINT,
  name     STRING,
  category STRING,
  price    DECIMAL(10, 2),
  qty      INT,
  PRIMARY KEY (id) NOT ENFORCED
) WITH (
  'connector' = 'rocketmq',
  'topic'     = '${CDC_TOPIC:mysql_shop_products}',
  'format'    = '${CDC_FORMAT:debezium-json}'
);

CREATE TABLE products_copy (
  id       BIGINT,
  name     STRING,
  category STRING,
  price    DECIMAL(10, 2),
  qty      INT,
  PRIMARY KEY (id) NOT ENFORCED
) WITH (
  'connector'  = 'jdbc',
  'url'        = '${MYSQL_URL:jdbc:mysql://127.0.0.1:3306/shop}',
  'table-name' = 'products_copy',
  'username'   = '${MYSQL_USER:rsql}',
  'password'   = '${MYSQL_PASSWORD:}'
);

INSERT INTO products_copy SELECT id, name, category, price, qty FROM product_changes;
