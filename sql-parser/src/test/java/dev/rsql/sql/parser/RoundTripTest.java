package dev.rsql.sql.parser;

import static dev.rsql.sql.parser.Parsing.assertRoundTrip;
import static dev.rsql.sql.parser.Parsing.parseOne;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What {@link RsqlParser#unparse} writes for every DDL and DML form, and that it reads back
 * the same: back-quoted identifiers, canonical type names, elements sorted by kind.
 */
class RoundTripTest {

  static Stream<Arguments> forms() {
    return Stream.of(
        Arguments.of("""
            CREATE TABLE src (id VARCHAR, v BIGINT NOT NULL, ts TIMESTAMP, t VARCHAR HEADER,
              p AS PROCTIME(), WATERMARK wk FOR ts AS withOffset(ts, 2000), PRIMARY KEY (id),
              UNIQUE (v), UNIQUE INDEX (id, v), INDEX (v), PERIOD FOR SYSTEM_TIME)
            WITH (type = 'datahub', `group.id` = 'g', `security.protocol` = SASL_PLAINTEXT,
              partition = 'ds=1', batchSize = 100, async = true)""",
            "CREATE TABLE `src` (`id` VARCHAR, `v` BIGINT NOT NULL, `ts` TIMESTAMP, "
                + "`t` VARCHAR HEADER, `p` AS `PROCTIME`(), "
                + "WATERMARK `wk` FOR `ts` AS `withOffset`(`ts`, 2000), PRIMARY KEY (`id`), "
                + "UNIQUE (`v`), UNIQUE INDEX (`id`, `v`), INDEX (`v`), PERIOD FOR SYSTEM_TIME) "
                + "WITH (`type` = 'datahub', `group.id` = 'g', "
                + "`security.protocol` = `SASL_PLAINTEXT`, `partition` = 'ds=1', "
                + "`batchSize` = 100, `async` = TRUE)"),
        Arguments.of("""
            CREATE TEMPORARY TABLE IF NOT EXISTS c.d.k (
              id BIGINT PRIMARY KEY NOT ENFORCED COMMENT 'key',
              o BIGINT METADATA FROM 'offset' VIRTUAL COMMENT 'o',
              ts TIMESTAMP_LTZ(3) METADATA,
              WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
            COMMENT 'it''s a table' PARTITIONED BY (id)
            WITH ('connector' = 'kafka', 'scan.startup.mode' = 'earliest-offset')""",
            "CREATE TEMPORARY TABLE IF NOT EXISTS `c`.`d`.`k` (`id` BIGINT COMMENT 'key', "
                + "`o` BIGINT METADATA FROM 'offset' VIRTUAL COMMENT 'o', "
                + "`ts` TIMESTAMP(3) WITH LOCAL TIME ZONE METADATA, "
                + "WATERMARK FOR `ts` AS `ts` - INTERVAL '5' SECOND, "
                + "PRIMARY KEY (`id`) NOT ENFORCED) COMMENT 'it''s a table' "
                + "PARTITIONED BY (`id`) "
                + "WITH ('connector' = 'kafka', 'scan.startup.mode' = 'earliest-offset')"),
        Arguments.of("CREATE TABLE t (c VARCHAR COMMENT '中文注释')",
            "CREATE TABLE `t` (`c` VARCHAR COMMENT '中文注释')"),
        Arguments.of("CREATE FUNCTION f AS 'a.B'", "CREATE FUNCTION `f` AS 'a.B'"),
        Arguments.of(
            "CREATE OR REPLACE TEMPORARY SYSTEM FUNCTION IF NOT EXISTS f AS 'a.B' LANGUAGE PYTHON",
            "CREATE OR REPLACE TEMPORARY SYSTEM FUNCTION IF NOT EXISTS `f` AS 'a.B' LANGUAGE PYTHON"),
        Arguments.of("CREATE VIEW v AS SELECT * FROM t", "CREATE VIEW `v` AS\nSELECT *\nFROM `t`"),
        Arguments.of(
            "CREATE OR REPLACE TEMPORARY VIEW IF NOT EXISTS v (a, b) COMMENT 'v' AS SELECT a, b FROM t",
            "CREATE OR REPLACE TEMPORARY VIEW IF NOT EXISTS `v` (`a`, `b`) COMMENT 'v' AS\n"
                + "SELECT `a`, `b`\nFROM `t`"),
        Arguments.of("INSERT INTO t SELECT * FROM s", "INSERT INTO `t`\nSELECT *\nFROM `s`"),
        Arguments.of("INSERT OVERWRITE t SELECT 1", "INSERT OVERWRITE `t`\nSELECT 1"),
        Arguments.of("UPSERT INTO t SELECT 1", "UPSERT INTO `t`\nSELECT 1"),
        Arguments.of("""
            INSERT INTO t /*+ OPTIONS('a' = 'b') */ (x) SELECT x FROM s
            EMIT WITH DELAY '1' MINUTE BEFORE WATERMARK, WITHOUT DELAY AFTER WATERMARK""",
            "INSERT INTO `t` /*+ `OPTIONS`('a' = 'b') */ (`x`)\nSELECT `x`\nFROM `s`\n"
                + "EMIT WITH DELAY INTERVAL '1' MINUTE BEFORE WATERMARK, "
                + "WITHOUT DELAY AFTER WATERMARK"),
        Arguments.of("BEGIN STATEMENT SET; INSERT INTO a SELECT 1; END",
            "EXECUTE STATEMENT SET BEGIN\nINSERT INTO `a`\nSELECT 1 ;\nEND"),
        Arguments.of("SET 'k' = 'v'", "SET 'k' = 'v'"),
        Arguments.of("SET a.b = 1", "SET `a`.`b` = 1"),
        Arguments.of("SET", "SET"),
        Arguments.of("RESET `a.b`", "RESET `a.b`"),
        Arguments.of("RESET", "RESET"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("forms")
  void unparsesToCanonicalTextThatReadsBack(String sql, String expected) {
    assertEquals(expected, assertRoundTrip(parseOne(sql)));
  }
}
