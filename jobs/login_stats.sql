-- Per user and minute of event time: logins, failed ones and countries, from the bundled JSON-lines file, into
-- data/login_stats.jsonl; plus a running count of failed logins per country as a changelog (printed, with the
-- kind of each change: +I, -U, +U). Flink DDL. Bounded: the file's end fires the last windows, then it finishes.
CREATE TABLE logins (
  user_name   STRING,
  success     BOOLEAN,
  country     STRING,
  ts          TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH (
  'connector' = 'filesystem',
  'path' = '${rsql.home}/jobs/data/logins.jsonl'
);

CREATE TABLE login_stats (
  user_name   STRING,
  window_start TIMESTAMP(3),
  logins      BIGINT,
  failed      BIGINT,
  countries   BIGINT
) WITH (
  'connector' = 'filesystem',
  'path' = '${rsql.home}/data/login_stats.jsonl',
  'append' = 'false'
);

CREATE TABLE failures_by_country (
  country     STRING,
  failed      BIGINT
) WITH ('connector' = 'print');

INSERT INTO login_stats
SELECT user_name, window_start, COUNT(*), COUNT(*) FILTER (WHERE NOT success), COUNT(DISTINCT country)
FROM TABLE(TUMBLE(TABLE logins, DESCRIPTOR(ts), INTERVAL '1' MINUTE))
GROUP BY user_name, window_start, window_end;

INSERT INTO failures_by_country
SELECT country, COUNT(*) FROM logins WHERE NOT success GROUP BY country;
