package dev.rsql.sql.parser;

import static dev.rsql.sql.parser.Parsing.assertRoundTrip;
import static dev.rsql.sql.parser.Parsing.parseError;
import static dev.rsql.sql.parser.Parsing.parseOne;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.rsql.sql.parser.ddl.SqlComputedColumn;
import dev.rsql.sql.parser.ddl.SqlCreateTable;
import dev.rsql.sql.parser.ddl.SqlMetadataColumn;
import dev.rsql.sql.parser.ddl.SqlRegularColumn;
import dev.rsql.sql.parser.ddl.SqlTableColumn;
import dev.rsql.sql.parser.ddl.SqlTableConstraint;
import dev.rsql.sql.parser.ddl.SqlTableIndex;
import dev.rsql.sql.parser.ddl.SqlTableOption;
import dev.rsql.sql.parser.ddl.SqlWatermark;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlTypeNameSpec;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

class CreateTableTest {

  private static SqlCreateTable createTable(String sql) {
    final SqlCreateTable table = parseOne(sql, SqlCreateTable.class);
    assertRoundTrip(table);
    return table;
  }

  private static Map<String, String> options(SqlCreateTable table) {
    final Map<String, String> map = new LinkedHashMap<>();
    for (SqlTableOption option : table.getOptions()) {
      map.put(option.getKeyString(), option.getValueString());
    }
    return map;
  }

  private static List<String> columnNames(SqlCreateTable table) {
    return table.getColumns().stream().map(c -> c.getName().getSimple()).toList();
  }

  @Test
  void blinkSourceWithNamedWatermark() {
    final SqlCreateTable table = createTable("""
        CREATE TABLE tt_stream (
          a VARCHAR,
          b VARCHAR,
          c TIMESTAMP,
          WATERMARK wk1 FOR c AS withOffset(c, 1000)
        ) WITH (type = 'sls', endPoint = 'http://x', project = 'p')""");

    assertEquals("tt_stream", table.getName().getSimple());
    assertFalse(table.isTemporary());
    assertFalse(table.isIfNotExists());
    assertEquals(List.of("a", "b", "c"), columnNames(table));
    final SqlWatermark watermark = table.getWatermark();
    assertEquals("wk1", watermark.getName().getSimple());
    assertEquals("c", watermark.getEventTimeColumn().getSimple());
    final SqlBasicCall strategy = assertInstanceOf(SqlBasicCall.class, watermark.getStrategy());
    assertEquals("withOffset", strategy.getOperator().getName());
    assertEquals("c", strategy.operand(0).toString());
    assertEquals(1000,
        assertInstanceOf(SqlNumericLiteral.class, strategy.operand(1)).intValue(true));
    assertEquals(Map.of("type", "sls", "endPoint", "http://x", "project", "p"), options(table));
    assertNull(table.getPrimaryKey());
    assertNull(table.getComment());
    assertTrue(table.getPartitionKeys().isEmpty());
    assertFalse(table.isDimensionTable());
  }

  @Test
  void unnamedWatermarkKeepsTheStrategyAsWritten() {
    final SqlCreateTable table = createTable("""
        CREATE TABLE s (a INT, `TIME` BIGINT, ts AS TO_TIMESTAMP(`TIME` / 1000),
          WATERMARK FOR ts AS WITHOFFSET(ts, 2000)) WITH (type = 'datahub')""");

    final SqlWatermark watermark = table.getWatermark();
    assertNull(watermark.getName());
    assertEquals("ts", watermark.getEventTimeColumn().getSimple());
    assertEquals("WITHOFFSET",
        ((SqlBasicCall) watermark.getStrategy()).getOperator().getName());
    final SqlComputedColumn ts =
        assertInstanceOf(SqlComputedColumn.class, table.getColumns().get(2));
    assertEquals("TO_TIMESTAMP", ((SqlBasicCall) ts.getExpression()).getOperator().getName());
    assertEquals("TIME", table.getColumns().get(1).getName().getSimple());
  }

  @Test
  void flinkWatermarkIsAnyExpression() {
    final SqlCreateTable table = createTable("""
        CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
        WITH ('connector' = 'datagen')""");

    assertEquals(SqlKind.MINUS, table.getWatermark().getStrategy().getKind());
  }

  @Test
  void optionKeysAndValuesInEveryForm() {
    final SqlCreateTable table = createTable("""
        CREATE TABLE k (messageKey VARBINARY, `message` VARBINARY) WITH (
          type = 'kafka011',
          `group.id` = 'g',
          'connector' = 'kafka',
          scan.startup.mode = 'earliest',
          `security.protocol` = SASL_PLAINTEXT,
          partition = 'ds=20240101',
          cacheSize = 10000,
          ratio = 0.75,
          retries = -1,
          async = true,
          ignoreDelete = FALSE,
          mode = string
        )""");

    final Map<String, String> expected = new LinkedHashMap<>();
    expected.put("type", "kafka011");
    expected.put("group.id", "g");
    expected.put("connector", "kafka");
    expected.put("scan.startup.mode", "earliest");
    expected.put("security.protocol", "SASL_PLAINTEXT");
    expected.put("partition", "ds=20240101");
    expected.put("cacheSize", "10000");
    expected.put("ratio", "0.75");
    expected.put("retries", "-1");
    expected.put("async", "true");
    expected.put("ignoreDelete", "false");
    expected.put("mode", "string");
    assertEquals(expected, options(table));

    final List<SqlTableOption> options = table.getOptions();
    assertInstanceOf(SqlIdentifier.class, options.get(0).getKey());
    assertInstanceOf(SqlCharStringLiteral.class, options.get(0).getValue());
    assertInstanceOf(SqlCharStringLiteral.class, options.get(2).getKey());
    assertInstanceOf(SqlIdentifier.class, options.get(4).getValue());
    assertEquals(3, options.get(1).getParserPosition().getLineNum());
    assertEquals(3, options.get(1).getParserPosition().getColumnNum());
  }

  @Test
  void optionKeysKeepTheirCase() {
    final SqlCreateTable table = createTable(
        "CREATE TABLE t (a INT) WITH (TYPE = 'x', startupMode = 'EARLIEST', `Group.Id` = 'g')");

    assertEquals(List.of("TYPE", "startupMode", "Group.Id"),
        table.getOptions().stream().map(SqlTableOption::getKeyString).toList());
  }

  @Test
  void headerColumnIsAMetadataColumnWithoutKey() {
    final SqlCreateTable table = createTable("""
        CREATE TABLE sls_log (__topic__ VARCHAR HEADER, result VARCHAR COMMENT 'payload')
        WITH (type = 'sls')""");

    final SqlMetadataColumn topic =
        assertInstanceOf(SqlMetadataColumn.class, table.getColumns().get(0));
    assertTrue(topic.isHeader());
    assertNull(topic.getMetadataKey());
    assertFalse(topic.isVirtual());
    assertEquals(SqlTypeName.VARCHAR, typeName(topic.getType().getTypeNameSpec()));
    final SqlRegularColumn result =
        assertInstanceOf(SqlRegularColumn.class, table.getColumns().get(1));
    assertEquals("payload", result.getComment());
  }

  @Test
  void flinkTableWithMetadataComputedColumnsAndConstraint() {
    final SqlCreateTable table = createTable("""
        CREATE TEMPORARY TABLE IF NOT EXISTS cat.db.k (
          user_id BIGINT NOT NULL COMMENT 'the user',
          price DOUBLE,
          ts TIMESTAMP(3),
          `offset` BIGINT METADATA VIRTUAL,
          rt TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',
          part INT METADATA FROM 'partition' VIRTUAL COMMENT 'kafka partition',
          cost AS price * 2 COMMENT 'computed',
          WATERMARK FOR ts AS ts - INTERVAL '5' SECOND,
          CONSTRAINT pk PRIMARY KEY (user_id) NOT ENFORCED
        ) COMMENT 'orders from kafka'
        PARTITIONED BY (user_id, price)
        WITH ('connector' = 'kafka', 'topic' = 't', 'format' = 'json')""");

    assertEquals(List.of("cat", "db", "k"), table.getName().names);
    assertTrue(table.isTemporary());
    assertTrue(table.isIfNotExists());
    assertEquals("orders from kafka", table.getComment());
    assertEquals(List.of("user_id", "price"),
        table.getPartitionKeys().stream().map(SqlIdentifier::getSimple).toList());

    final List<SqlTableColumn> columns = table.getColumns();
    assertEquals(List.of("user_id", "price", "ts", "offset", "rt", "part", "cost"),
        columnNames(table));
    final SqlRegularColumn userId = assertInstanceOf(SqlRegularColumn.class, columns.get(0));
    assertEquals(Boolean.FALSE, userId.getType().getNullable());
    assertEquals("the user", userId.getComment());
    assertEquals(Boolean.TRUE, ((SqlRegularColumn) columns.get(1)).getType().getNullable());

    final SqlMetadataColumn offset = assertInstanceOf(SqlMetadataColumn.class, columns.get(3));
    assertNull(offset.getMetadataKey());
    assertTrue(offset.isVirtual());
    assertFalse(offset.isHeader());
    final SqlMetadataColumn rt = assertInstanceOf(SqlMetadataColumn.class, columns.get(4));
    assertEquals("timestamp", rt.getMetadataKey());
    assertFalse(rt.isVirtual());
    assertEquals(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE,
        typeName(rt.getType().getTypeNameSpec()));
    final SqlMetadataColumn part = assertInstanceOf(SqlMetadataColumn.class, columns.get(5));
    assertEquals("partition", part.getMetadataKey());
    assertTrue(part.isVirtual());
    assertEquals("kafka partition", part.getComment());
    final SqlComputedColumn cost = assertInstanceOf(SqlComputedColumn.class, columns.get(6));
    assertEquals(SqlKind.TIMES, cost.getExpression().getKind());
    assertEquals("computed", cost.getComment());

    final SqlTableConstraint pk = table.getPrimaryKey();
    assertTrue(pk.isPrimaryKey());
    assertFalse(pk.isUnique());
    assertEquals("pk", pk.getName());
    assertEquals(List.of("user_id"), pk.getColumnNames());
    assertEquals(Boolean.FALSE, pk.getEnforced());
    assertEquals(Map.of("connector", "kafka", "topic", "t", "format", "json"), options(table));
  }

  @Test
  void blinkPrimaryKeyHasNoEnforcement() {
    final SqlCreateTable table = createTable("""
        CREATE TABLE rds_output (id INT, len INT, content VARCHAR, PRIMARY KEY (id, len))
        WITH (type = 'rds')""");

    final SqlTableConstraint pk = table.getPrimaryKey();
    assertNull(pk.getName());
    assertEquals(List.of("id", "len"), pk.getColumnNames());
    assertNull(pk.getEnforced());
  }

  @Test
  void enforcedPrimaryKey() {
    assertEquals(Boolean.TRUE, createTable(
        "CREATE TABLE e (id BIGINT, PRIMARY KEY (id) ENFORCED) WITH ('connector' = 'jdbc')")
        .getPrimaryKey().getEnforced());
  }

  @Test
  void columnLevelPrimaryKeyIsThePrimaryKey() {
    final SqlCreateTable table = createTable("""
        CREATE TABLE c (id BIGINT NOT NULL PRIMARY KEY NOT ENFORCED COMMENT 'key', v STRING)
        WITH ('connector' = 'print')""");

    final SqlTableConstraint pk = table.getPrimaryKey();
    assertEquals(List.of("id"), pk.getColumnNames());
    assertEquals(Boolean.FALSE, pk.getEnforced());
    assertEquals("key", table.getColumns().get(0).getComment());
    assertEquals(Boolean.FALSE,
        ((SqlRegularColumn) table.getColumns().get(0)).getType().getNullable());
  }

  @Test
  void namedColumnLevelPrimaryKey() {
    final SqlCreateTable table =
        createTable("CREATE TABLE c (id BIGINT CONSTRAINT pk_id PRIMARY KEY, v STRING)");

    assertEquals("pk_id", table.getPrimaryKey().getName());
    assertNull(table.getPrimaryKey().getEnforced());
  }

  @Test
  void uniqueKeysAndIndexesOfADimensionTable() {
    final SqlCreateTable table = createTable("""
        CREATE TABLE Persons (
          ID BIGINT, LastName VARCHAR, FirstName VARCHAR, Nick VARCHAR,
          UNIQUE (ID),
          UNIQUE INDEX(LastName, FirstName),
          INDEX(Nick),
          PERIOD FOR SYSTEM_TIME
        ) WITH (type = 'rds')""");

    assertTrue(table.isDimensionTable());
    assertNull(table.getPrimaryKey());
    final SqlTableConstraint unique = table.getUniqueKeys().get(0);
    assertTrue(unique.isUnique());
    assertEquals(List.of("ID"), unique.getColumnNames());
    final List<SqlTableIndex> indexes = table.getIndexes();
    assertEquals(2, indexes.size());
    assertTrue(indexes.get(0).isUnique());
    assertEquals(List.of("LastName", "FirstName"), indexes.get(0).getColumnNames());
    assertFalse(indexes.get(1).isUnique());
    assertEquals(List.of("Nick"), indexes.get(1).getColumnNames());
  }

  @Test
  void dimensionTableWithPrimaryKey() {
    final SqlCreateTable table = createTable("""
        CREATE TABLE white_list (id VARCHAR, name VARCHAR, age INT, PRIMARY KEY (id),
          PERIOD FOR SYSTEM_TIME) WITH (type = 'rds', cache = 'LRU', cacheTTLMs = '60000')""");

    assertTrue(table.isDimensionTable());
    assertEquals(List.of("id"), table.getPrimaryKey().getColumnNames());
  }

  @Test
  void computedProctimeColumn() {
    final SqlCreateTable table =
        createTable("CREATE TABLE mq (a VARCHAR, d AS PROCTIME()) WITH (type = 'mq')");

    final SqlComputedColumn d = assertInstanceOf(SqlComputedColumn.class, table.getColumns().get(1));
    assertEquals("PROCTIME", ((SqlBasicCall) d.getExpression()).getOperator().getName());
    assertNull(d.getComment());
  }

  @Test
  void tableWithoutWithClause() {
    final SqlCreateTable table = createTable("CREATE TABLE t (a INT)");

    assertTrue(table.getOptions().isEmpty());
  }

  @Test
  void elementPositionsAreRelativeToTheScript() {
    final SqlCreateTable table = (SqlCreateTable) RsqlParser.parseScript("""
        SET 'a' = 'b';
        CREATE TABLE t (
          a INT,
          WATERMARK FOR a AS a - 1
        )""").get(1);

    assertEquals(2, table.getParserPosition().getLineNum());
    assertEquals(1, table.getParserPosition().getColumnNum());
    assertEquals(3, table.getColumns().get(0).getParserPosition().getLineNum());
    assertEquals(3, table.getColumns().get(0).getParserPosition().getColumnNum());
    assertEquals(4, table.getWatermark().getParserPosition().getLineNum());
  }

  @Test
  void commentsInsideColumnListAndWithClause() {
    final SqlCreateTable table = createTable("""
        CREATE TABLE t ( -- the columns
          a INT, /* first */
          -- b is the second
          b VARCHAR /* trailing */
        ) WITH (
          -- Blink keys
          type = 'print', /* and another */ ignoreWrite = 'true' -- done
        )""");

    assertEquals(List.of("a", "b"), columnNames(table));
    assertEquals(Map.of("type", "print", "ignoreWrite", "true"), options(table));
  }

  @Test
  void ddlNodesAreNotRebuiltFromOperands() {
    final SqlCreateTable table = parseOne("CREATE TABLE t (a INT)", SqlCreateTable.class);

    assertThrows(UnsupportedOperationException.class, () -> table.clone(SqlParserPos.ZERO));
  }

  @Test
  void secondWatermarkIsRejected() {
    final RsqlParseException e = parseError("""
        CREATE TABLE t (ts TIMESTAMP,
          WATERMARK FOR ts AS withOffset(ts, 1),
          WATERMARK FOR ts AS withOffset(ts, 2))""");

    assertEquals(3, e.line());
    assertEquals(3, e.column());
    assertEquals("line 3, column 3: a table can have only one WATERMARK", e.getMessage());
  }

  @Test
  void secondPrimaryKeyIsRejected() {
    final RsqlParseException e =
        parseError("CREATE TABLE t (id INT PRIMARY KEY NOT ENFORCED, PRIMARY KEY (id))");

    assertEquals(1, e.line());
    assertEquals(50, e.column());
    assertTrue(e.getMessage().endsWith("a table can have only one PRIMARY KEY"));
  }

  @Test
  void orReplaceAndSystemAreRejectedForTables() {
    assertEquals("line 1, column 19: CREATE OR REPLACE TABLE is not supported",
        parseError("CREATE OR REPLACE TABLE t (a INT)").getMessage());
    assertEquals("line 1, column 25: SYSTEM is only allowed for functions",
        parseError("CREATE TEMPORARY SYSTEM TABLE t (a INT)").getMessage());
  }

  private static SqlTypeName typeName(SqlTypeNameSpec spec) {
    return TypesTest.typeName(spec);
  }
}
