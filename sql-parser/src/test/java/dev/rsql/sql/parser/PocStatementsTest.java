package dev.rsql.sql.parser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.stream.Stream;

import org.apache.calcite.sql.SqlNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The statements the parser proof of concept was measured on (parser-notes.md section 2): 34
 * Blink/Flink statements, 9 regression statements and 7 function-heavy queries. Each script
 * must parse, and each of its statements must survive an unparse round trip.
 */
class PocStatementsTest {

  static Stream<Arguments> blinkAndFlinkStatements() {
    return Stream.of(
        Arguments.of("B01 named withOffset watermark, type='datahub' keys", 1, """
            CREATE TABLE datahub_stream (
              name VARCHAR,
              age BIGINT,
              ts TIMESTAMP,
              WATERMARK wk FOR ts AS withOffset(ts, 2000)
            ) WITH (
              type = 'datahub',
              endPoint = 'http://dh-cn-hangzhou.aliyuncs.com',
              project = 'blink_datahub_test',
              topic = 'test_topic',
              accessId = 'xxxxxx',
              accessKey = 'xxxxxx',
              startTime = '2017-07-21 00:00:00'
            )"""),
        Arguments.of("B02 unnamed withOffset watermark, quoted keys", 1, """
            CREATE TABLE sls_stream (
              a VARCHAR, b VARCHAR, c TIMESTAMP,
              WATERMARK FOR c AS withOffset(c, 1000)
            ) WITH ('type' = 'sls', 'endPoint' = 'http://cn-hangzhou-corp.sls.aliyuncs.com',
              'accessId' = 'xxxxxx', 'accessKey' = 'xxxxxx', 'project' = 'ali-cloud-streamtest',
              'logStore' = 'stream-test')"""),
        Arguments.of("B03 WITH with unquoted keys only", 1, """
            CREATE TABLE mq_stream (a VARCHAR, b VARCHAR, c BIGINT)
            WITH (type = 'mq', topic = 'blink_mq_test', accessId = 'xxxxxx',
              accessKey = 'xxxxxx', consumerGroup = 'CID_blink')"""),
        Arguments.of("B04 dimension table", 1, """
            CREATE TABLE white_list (
              id VARCHAR, name VARCHAR, age INT,
              PRIMARY KEY (id),
              PERIOD FOR SYSTEM_TIME
            ) WITH (type = 'rds', url = 'jdbc:mysql://host:3306/db', tableName = 'white_list',
              userName = 'u', password = 'p', cache = 'LRU', cacheSize = '10000',
              cacheTTLMs = '60000')"""),
        Arguments.of("B05 sink with PRIMARY KEY without NOT ENFORCED", 1, """
            CREATE TABLE rds_output (id INT, len INT, content VARCHAR, PRIMARY KEY (id))
            WITH (type = 'rds', url = 'jdbc:mysql://host:3306/db', tableName = 't',
              userName = 'u', password = 'p')"""),
        Arguments.of("B06 HEADER column", 1, """
            CREATE TABLE sls_log (
              __topic__ VARCHAR HEADER,
              __source__ VARCHAR HEADER,
              result VARCHAR
            ) WITH (type = 'sls', endPoint = 'e', project = 'p', logStore = 'l')"""),
        Arguments.of("B07 UNIQUE INDEX", 1, """
            CREATE TABLE Persons (
              ID BIGINT, LastName VARCHAR, FirstName VARCHAR, Nick VARCHAR,
              UNIQUE INDEX(LastName, FirstName),
              INDEX(Nick),
              PERIOD FOR SYSTEM_TIME
            ) WITH (type = 'rds', url = 'jdbc:mysql://host/db', tableName = 'persons')"""),
        Arguments.of("B08 computed columns", 1, """
            CREATE TABLE s (
              a INT,
              `TIME` BIGINT,
              ts AS TO_TIMESTAMP(`TIME` / 1000),
              p AS PROCTIME(),
              WATERMARK FOR ts AS WITHOFFSET(ts, 1000)
            ) WITH (type = 'datahub')"""),
        Arguments.of("B09 back-quoted keys, bare identifier value", 1, """
            CREATE TABLE kafka_stream (
              messageKey VARBINARY, `message` VARBINARY, topic VARCHAR,
              `partition` INT, `offset` BIGINT
            ) WITH (
              type = 'kafka011',
              topic = 't',
              `group.id` = 'g',
              `bootstrap.servers` = 'h1:9092,h2:9092',
              `security.protocol` = SASL_PLAINTEXT,
              startupMode = 'EARLIEST'
            )"""),
        Arguments.of("B10 INSERT with two EMIT strategies", 1, """
            INSERT INTO result_table
            SELECT TUMBLE_START(ts, INTERVAL '1' HOUR), COUNT(*)
            FROM src
            GROUP BY TUMBLE(ts, INTERVAL '1' HOUR)
            EMIT WITH DELAY '1' MINUTE BEFORE WATERMARK, WITHOUT DELAY AFTER WATERMARK"""),
        Arguments.of("B11 CREATE FUNCTION", 1, """
            CREATE FUNCTION stringLengthUdf AS 'com.hjc.test.blink.sql.udx.StringLengthUdf'"""),
        Arguments.of("B12 CREATE VIEW with columns", 1, """
            CREATE VIEW LargeOrders (r, t, c, u) AS
            SELECT rowtime, productId, c, units FROM orders WHERE units > 1000"""),
        Arguments.of("B13 dimension join AS OF PROCTIME()", 1, """
            SELECT e.*, w.*
            FROM event AS e
            JOIN white_list FOR SYSTEM_TIME AS OF PROCTIME() AS w ON e.id = w.id"""),
        Arguments.of("B14 lookup join AS OF a column", 1, """
            SELECT o.id, c.name
            FROM orders AS o
            LEFT JOIN customers FOR SYSTEM_TIME AS OF o.proc_time AS c ON o.cid = c.id"""),
        Arguments.of("B15 comma LATERAL TABLE", 1, """
            SELECT S.id, S.content, T.a, T.b, T.c
            FROM input_stream AS S, LATERAL TABLE(parseUdtf(content)) AS T(a, b, c)"""),
        Arguments.of("B16 LEFT JOIN LATERAL TABLE ON TRUE", 1, """
            SELECT S.id, T.a
            FROM input_stream AS S
            LEFT JOIN LATERAL TABLE(parseUdtf(content)) AS T(a, b, c) ON TRUE"""),
        Arguments.of("B17 TUMBLE window with auxiliary functions", 1, """
            SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) AS window_start,
              TUMBLE_END(ts, INTERVAL '1' MINUTE) AS window_end,
              TUMBLE_ROWTIME(ts, INTERVAL '1' MINUTE) AS window_rowtime,
              username, COUNT(click_url)
            FROM user_clicks
            GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE), username"""),
        Arguments.of("B18 HOP and SESSION windows", 2, """
            SELECT HOP_START(ts, INTERVAL '30' SECOND, INTERVAL '1' MINUTE), COUNT(*)
            FROM t GROUP BY HOP(ts, INTERVAL '30' SECOND, INTERVAL '1' MINUTE);
            SELECT SESSION_START(c, INTERVAL '1' SECOND), SESSION_END(c, INTERVAL '1' SECOND),
              COUNT(a)
            FROM tt_stream GROUP BY SESSION(c, INTERVAL '1' SECOND), a"""),
        Arguments.of("B19 OVER ROWS and RANGE", 2, """
            SELECT a, SUM(b) OVER (PARTITION BY a ORDER BY proctime
              ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM t;
            SELECT a, COUNT(*) OVER (PARTITION BY a ORDER BY rowtime
              RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW) FROM t"""),
        Arguments.of("B20 TopN", 1, """
            SELECT * FROM (
              SELECT *, ROW_NUMBER() OVER (PARTITION BY start_time, city ORDER BY pv DESC)
                AS rownum
              FROM t)
            WHERE rownum <= 100"""),
        Arguments.of("B21 MATCH_RECOGNIZE", 1, """
            SELECT *
            FROM ticker
            MATCH_RECOGNIZE (
              PARTITION BY symbol
              ORDER BY rowtime
              MEASURES
                START_ROW.rowtime AS start_tstamp,
                LAST(PRICE_DOWN.rowtime) AS bottom_tstamp,
                LAST(PRICE_UP.rowtime) AS end_tstamp
              ONE ROW PER MATCH
              AFTER MATCH SKIP TO LAST PRICE_UP
              PATTERN (START_ROW PRICE_DOWN+ PRICE_UP)
              DEFINE
                PRICE_DOWN AS (LAST(PRICE_DOWN.price, 1) IS NULL
                  AND PRICE_DOWN.price < START_ROW.price)
                  OR PRICE_DOWN.price < LAST(PRICE_DOWN.price, 1),
                PRICE_UP AS PRICE_UP.price > LAST(PRICE_DOWN.price, 1)
            ) MR"""),
        Arguments.of("B22 interval join", 1, """
            SELECT o.id, s.status
            FROM Orders o JOIN Shipments s ON o.id = s.orderId
              AND s.shiptime BETWEEN o.orderTime AND o.orderTime + INTERVAL '4' HOUR"""),
        Arguments.of("B23 Blink types", 1, """
            CREATE TABLE all_types (
              a VARCHAR, b BOOLEAN, c TINYINT, d SMALLINT, e INT, f BIGINT, g FLOAT,
              h DOUBLE, i DECIMAL(10, 2), j DATE, k TIME, l TIMESTAMP, m VARBINARY,
              n MAP<VARCHAR, VARCHAR>
            ) WITH (type = 'random')"""),
        Arguments.of("B24 five-statement Blink script", 5, """
            CREATE FUNCTION myUdf AS 'com.example.MyUdf';
            CREATE TABLE src (id VARCHAR, v BIGINT, ts TIMESTAMP,
              WATERMARK FOR ts AS withOffset(ts, 1000)) WITH (type = 'datahub');
            CREATE TABLE snk (id VARCHAR, cnt BIGINT, PRIMARY KEY (id)) WITH (type = 'print');
            INSERT INTO snk SELECT id, COUNT(*) FROM src GROUP BY id;
            INSERT INTO snk SELECT myUdf(id), SUM(v) FROM src GROUP BY myUdf(id);
            """),
        Arguments.of("F01 Flink CREATE TABLE", 1, """
            CREATE TABLE k (
              user_id BIGINT,
              price DOUBLE,
              qty INT,
              ts TIMESTAMP(3),
              `offset` BIGINT METADATA VIRTUAL,
              rt TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',
              cost AS price * qty COMMENT 'computed',
              WATERMARK FOR ts AS ts - INTERVAL '5' SECOND,
              PRIMARY KEY (user_id) NOT ENFORCED
            ) COMMENT 'kafka table'
            WITH ('connector' = 'kafka', 'topic' = 't',
              'properties.bootstrap.servers' = 'h:9092', 'format' = 'json')"""),
        Arguments.of("F02 window TVF", 1, """
            SELECT window_start, window_end, SUM(price)
            FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
            GROUP BY window_start, window_end"""),
        Arguments.of("F03 window TVF with named arguments", 1, """
            SELECT * FROM TABLE(
              HOP(DATA => TABLE Bid, TIMECOL => DESCRIPTOR(bidtime),
                SLIDE => INTERVAL '5' MINUTES, SIZE => INTERVAL '10' MINUTES))"""),
        Arguments.of("F04 EXECUTE STATEMENT SET", 1, """
            EXECUTE STATEMENT SET
            BEGIN
              INSERT INTO pageviews SELECT page_id, browser FROM pageviews_source;
              INSERT INTO uniq SELECT page_id, COUNT(DISTINCT browser) FROM pageviews_source
                GROUP BY page_id;
            END"""),
        Arguments.of("F05 BEGIN STATEMENT SET", 1, """
            BEGIN STATEMENT SET;
            INSERT INTO pageviews SELECT page_id, browser FROM pageviews_source;
            INSERT INTO uniq SELECT page_id, COUNT(DISTINCT browser) FROM pageviews_source
              GROUP BY page_id;
            END;"""),
        Arguments.of("F06 CREATE TEMPORARY FUNCTION IF NOT EXISTS ... LANGUAGE", 1, """
            CREATE TEMPORARY FUNCTION IF NOT EXISTS f AS 'com.example.F' LANGUAGE JAVA"""),
        Arguments.of("F07 CREATE TEMPORARY VIEW IF NOT EXISTS", 1, """
            CREATE TEMPORARY VIEW IF NOT EXISTS v AS SELECT a, b FROM t WHERE a > 1"""),
        Arguments.of("F08 SET", 1, """
            SET 'table.exec.mini-batch.enabled' = 'true'"""),
        Arguments.of("F09 OPTIONS hints on both sides", 1, """
            INSERT INTO t /*+ OPTIONS('sink.parallelism' = '2') */
            SELECT * FROM s /*+ OPTIONS('scan.startup.mode' = 'earliest-offset') */"""),
        Arguments.of("F10 deduplication", 1, """
            SELECT * FROM (
              SELECT *, ROW_NUMBER() OVER (PARTITION BY b ORDER BY proctime ASC) AS rn FROM T)
            WHERE rn = 1"""));
  }

  static Stream<Arguments> regressionStatements() {
    return Stream.of(
        Arguments.of("R1 IF() is still a function", 1, """
            SELECT IF(a > 1, 'big', 'small') AS size, IF(b IS NULL, 0, b) FROM t"""),
        Arguments.of("R2 non-reserved words as column names", 1, """
            CREATE TABLE words (comment VARCHAR, index INT, metadata VARCHAR, header VARCHAR,
              delay BIGINT, string VARCHAR, result VARCHAR, uuid VARCHAR)
            WITH (type = 'print')"""),
        Arguments.of("R3 EMIT after a FROM without alias", 1, """
            INSERT INTO result SELECT * FROM tumble_window EMIT WITHOUT DELAY AFTER WATERMARK"""),
        Arguments.of("R4 a column named watermark", 1, """
            CREATE TABLE w (watermark TIMESTAMP, v INT,
              WATERMARK FOR watermark AS withOffset(watermark, 10)) WITH (type = 'sls')"""),
        Arguments.of("R5 numeric and boolean option values", 1, """
            CREATE TABLE o (a INT) WITH (type = 'rds', batchSize = 100, ratio = 0.5,
              ignoreDelete = true, async = FALSE, offset = -1)"""),
        Arguments.of("R6 column-level PRIMARY KEY NOT ENFORCED", 1, """
            CREATE TABLE c (id BIGINT PRIMARY KEY NOT ENFORCED, v STRING)
            WITH ('connector' = 'print')"""),
        Arguments.of("R7 ENFORCED", 1, """
            CREATE TABLE e (id BIGINT, v STRING, PRIMARY KEY (id) ENFORCED)
            WITH ('connector' = 'jdbc')"""),
        Arguments.of("R8 CREATE OR REPLACE VIEW", 1, """
            CREATE OR REPLACE VIEW v AS SELECT * FROM t"""),
        Arguments.of("R9 UUID() and result", 1, """
            SELECT UUID() AS id, result FROM t"""));
  }

  static Stream<Arguments> functionQueries() {
    return Stream.of(
        Arguments.of("Q1 string functions", 1, """
            SELECT CONCAT(a, b, c), CONCAT_WS('-', a, b), CHAR_LENGTH(a), CHARACTER_LENGTH(a),
              LOWER(a), UPPER(a), INITCAP(a), INSTR(a, 'x', 1, 2), POSITION('x' IN a),
              LPAD(a, 5, '0'), RPAD(a, 5, '0'), REPEAT(a, 2), REVERSE(a), REPLACE(a, 'x', 'y'),
              SUBSTRING(a, 1, 2), SUBSTRING(a FROM 2 FOR 3), SUBSTR(a, 2), TRIM(a),
              TRIM(BOTH ' ' FROM a), LTRIM(a), RTRIM(a), OVERLAY(a PLACING 'x' FROM 2 FOR 1),
              LEFT(a, 2), RIGHT(a, 2), SPLIT_INDEX(a, ',', 0),
              KEYVALUE(a, ';', '=', 'k2'), STR_TO_MAP(a, ',', '='), JSON_VALUE(a, '$.b'),
              PARSE_URL(a, 'QUERY', 'k'), REGEXP(a, '^x'), REGEXP_EXTRACT(a, '(x)', 1),
              REGEXP_REPLACE(a, 'x', 'y'), MD5(a), SHA1(a), SHA2(a, 256), SHA256(a),
              HASH_CODE(a), TO_BASE64(a), FROM_BASE64(a), ASCII(a), CHR(65), UUID()
            FROM t"""),
        Arguments.of("Q2 date and time functions", 1, """
            SELECT CURRENT_TIMESTAMP, LOCALTIMESTAMP, CURRENT_DATE, LOCALTIME, CURRENT_TIME,
              NOW(), NOW(10), UNIX_TIMESTAMP(), UNIX_TIMESTAMP(s, 'yyyy-MM-dd'),
              FROM_UNIXTIME(n), FROM_UNIXTIME(n, 'yyyy'), TO_TIMESTAMP(1513135677000),
              TO_TIMESTAMP(s, 'yyyy-MM-dd'), TO_DATE(100), TO_DATE(s, 'yyyyMMdd'),
              DATE_FORMAT(ts, 'yyyy-MM-dd'), DATE_FORMAT(s, 'yyyyMMdd', 'yyyy-MM-dd'),
              DATE_FORMAT_TZ(ts, 'Asia/Shanghai'), TO_TIMESTAMP_TZ(s, 'Asia/Shanghai'),
              DATE_ADD(s, 1), DATE_SUB(ts, 2), DATEDIFF(s, s2),
              TIMESTAMPADD(MINUTE, 1, ts), TIMESTAMPDIFF(SECOND, ts, ts2),
              EXTRACT(HOUR FROM ts), YEAR(ts), QUARTER(ts), MONTH(ts), WEEK(ts),
              DAYOFMONTH(ts), DAYOFYEAR(ts), DAYOFWEEK(ts), HOUR(ts), MINUTE(ts), SECOND(ts),
              FLOOR(ts TO HOUR), CEIL(ts TO DAY)
            FROM t"""),
        Arguments.of("Q3 conditional, logical and numeric functions", 1, """
            SELECT CASE WHEN a > 1 THEN 'x' ELSE 'y' END, COALESCE(a, b, 0), NULLIF(a, b),
              IF(a > b, a, b), IS_ALPHA(s), IS_DIGIT(s), IS_DECIMAL(s),
              a IS DISTINCT FROM b, a NOT BETWEEN 1 AND 2, s NOT LIKE 'x%', a IN (1, 2),
              b IS NOT TRUE, ABS(a), ACOS(d), ASIN(d), COS(d), COT(d), SIN(d), DEGREES(d),
              EXP(d), LN(d), LOG(d), LOG(2, d), LOG10(d), LOG2(d), POWER(a, 2), CEIL(d),
              FLOOR(d), ROUND(d, 2), RAND(), RAND(1), E(), ATAN(d), TAN(d), RADIANS(d),
              SQRT(d), MOD(a, 3), SIGN(a), PI(), BIN(a), CONV(a, 10, 16), BITAND(a, b),
              BITOR(a, b), BITXOR(a, b), BITNOT(a), ISNAN(d), CARDINALITY(m),
              CAST(a AS VARCHAR), CAST(s AS BIGINT), 8 / 4
            FROM t"""),
        Arguments.of("Q4 aggregate functions", 1, """
            SELECT k, COUNT(*), COUNT(DISTINCT a), SUM(a), AVG(a), MIN(a), MAX(a), VAR_POP(a),
              STDDEV_POP(a), FIRST_VALUE(a), LAST_VALUE(a, o), CONCAT_AGG('-', s),
              CONCAT_AGG(s), APPROX_COUNT_DISTINCT(a)
            FROM t GROUP BY k HAVING COUNT(*) > 1"""),
        Arguments.of("Q5 STRING_SPLIT and GENERATE_SERIES", 2, """
            SELECT d, v FROM T1, LATERAL TABLE(STRING_SPLIT(d, '-')) AS T(v);
            SELECT s, v FROM T1, LATERAL TABLE(GENERATE_SERIES(s, e)) AS T(v)"""),
        Arguments.of("Q6 JSON_TUPLE and MULTI_KEYVALUE", 2, """
            SELECT d, v FROM T1, LATERAL TABLE(JSON_TUPLE(d, 'qwe', s)) AS T(v);
            SELECT c1, c2
            FROM T1, LATERAL TABLE(MULTI_KEYVALUE(str, ';', '=', 'k1', 'k2')) AS T(c1, c2)"""),
        Arguments.of("Q7 functions inside a view and an insert", 2, """
            CREATE VIEW enriched AS
              SELECT id, DATE_FORMAT(TO_TIMESTAMP(ts), 'yyyy-MM-dd HH:mm') AS minute_str,
                SPLIT_INDEX(path, '/', 1) AS section, JSON_VALUE(body, '$.user.id') AS uid,
                URL_DECODE(q), MURMUR_HASH(id), LOCATE('a', s), GREATEST(a, b), LEAST(a, b),
                HEX(a), CONVERT_TZ(s, 'UTC', 'Asia/Shanghai')
              FROM src;
            INSERT INTO snk
            SELECT section, COUNT(DISTINCT uid), LISTAGG(uid, ',') FROM enriched
            GROUP BY section"""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource({"blinkAndFlinkStatements", "regressionStatements", "functionQueries"})
  void parsesAndRoundTrips(String name, int statementCount, String script) {
    final List<SqlNode> statements = RsqlParser.parseScript(script);
    assertEquals(statementCount, statements.size());
    for (SqlNode statement : statements) {
      assertFalse(Parsing.assertRoundTrip(statement).isBlank());
    }
  }

  @Test
  void coversTheWholeProofOfConceptSet() {
    assertEquals(34, blinkAndFlinkStatements().count());
    assertEquals(9, regressionStatements().count());
    assertEquals(7, functionQueries().count());
  }
}
