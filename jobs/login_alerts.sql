-- Reads login events from a bundled JSON-lines file, applies three rules and writes the alerts to
-- data/login_alerts.jsonl. Bounded: finishes when the file is read. Blink DDL (type = '...').
CREATE TABLE logins (
  event_id    BIGINT,
  user_name   VARCHAR,
  ip          VARCHAR,
  user_agent  VARCHAR,
  success     BOOLEAN,
  attempts    INT,
  country     VARCHAR,
  ts          TIMESTAMP
) WITH (
  type = 'file',
  filePath = '${rsql.home}/jobs/data/logins.jsonl'
);

CREATE TABLE login_alerts (
  event_id    BIGINT,
  user_name   VARCHAR,
  rule        VARCHAR,
  ts          TIMESTAMP
) WITH (
  type = 'file',
  filePath = '${rsql.home}/data/login_alerts.jsonl',
  append = 'false'
);

-- Scanners announce themselves in the user agent.
INSERT INTO login_alerts
SELECT event_id, user_name, 'scanner-agent', ts FROM logins
WHERE user_agent LIKE 'sqlmap%' OR user_agent LIKE 'curl/%';

-- Many failed attempts in one login.
INSERT INTO login_alerts
SELECT event_id, user_name, 'brute-force', ts FROM logins
WHERE NOT success AND attempts >= 10;

-- Logins from addresses on a watch list.
INSERT INTO login_alerts
SELECT event_id, user_name, 'watched-ip', ts FROM logins
WHERE ip IN ('203.0.113.7', '198.51.100.23', '192.0.2.66');
