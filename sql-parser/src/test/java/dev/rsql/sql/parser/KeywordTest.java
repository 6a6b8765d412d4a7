package dev.rsql.sql.parser;

import static dev.rsql.sql.parser.Parsing.assertRoundTrip;
import static dev.rsql.sql.parser.Parsing.parseError;
import static dev.rsql.sql.parser.Parsing.parseOne;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rsql.sql.parser.ddl.SqlCreateTable;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlSelect;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which words stay usable as unquoted names, and which stay reserved. */
class KeywordTest {

  @ParameterizedTest
  @ValueSource(strings = {"result", "uuid", "comment", "index", "metadata", "header", "delay",
      "string", "watermark", "bytes", "virtual", "enforced", "partitioned", "overwrite", "if",
      "scala", "python", "timestamp_ltz", "message", "key", "action", "type", "position", "count"})
  void nonReservedWordIsAColumnName(String word) {
    final SqlCreateTable table = parseOne("CREATE TABLE t (" + word + " INT, x INT, "
        + "WATERMARK FOR x AS x - 1) WITH (type = 'print')", SqlCreateTable.class);
    assertEquals(word, table.getColumns().get(0).getName().getSimple());
    assertRoundTrip(table);

    final SqlSelect select = parseOne("SELECT " + word + ", t." + word + " FROM t WHERE "
        + word + " IS NOT NULL GROUP BY " + word, SqlSelect.class);
    assertRoundTrip(select);
  }

  @ParameterizedTest
  @ValueSource(strings = {"timestamp", "partition", "offset", "value", "emit", "user"})
  void reservedWordNeedsBackQuotes(String word) {
    final RsqlParseException e = parseError("CREATE TABLE t (x INT, " + word + " INT)");
    assertEquals(24, e.column());
    assertEquals(word, e.token());
    assertTrue(e.getMessage().endsWith("(" + "'" + word + "' is a reserved word: write `" + word
        + "` to use it as a name)"), e.getMessage());

    assertRoundTrip(parseOne("CREATE TABLE t (x INT, `" + word + "` INT)"));
    assertRoundTrip(parseOne("SELECT `" + word + "` FROM t"));
  }

  @Test
  void positionCountAndUserStillWorkAsFunctions() {
    final SqlSelect select = parseOne("SELECT POSITION('a' IN position), COUNT(*), COUNT(count), "
        + "CURRENT_USER FROM t GROUP BY position", SqlSelect.class);
    assertEquals("POSITION",
        assertInstanceOf(SqlBasicCall.class, select.getSelectList().get(0)).getOperator().getName());
    assertEquals("COUNT",
        assertInstanceOf(SqlBasicCall.class, select.getSelectList().get(1)).getOperator().getName());
    assertRoundTrip(select);
  }

  @Test
  void ifAndUuidAreFunctions() {
    final SqlSelect select = parseOne("SELECT IF(a > 1, 'x', 'y'), UUID() FROM t", SqlSelect.class);

    assertEquals("IF",
        assertInstanceOf(SqlBasicCall.class, select.getSelectList().get(0)).getOperator().getName());
    assertEquals("UUID",
        assertInstanceOf(SqlBasicCall.class, select.getSelectList().get(1)).getOperator().getName());
  }

  @Test
  void columnNamedIndexBesideAnIndex() {
    final SqlCreateTable table = parseOne(
        "CREATE TABLE t (index INT, `key` INT, INDEX (index), UNIQUE INDEX (`key`))",
        SqlCreateTable.class);

    assertEquals("index", table.getIndexes().get(0).getColumnNames().get(0));
    assertEquals(2, table.getIndexes().size());
  }

  @Test
  void computedColumnsNamedLikeKeywords() {
    final SqlCreateTable table = parseOne(
        "CREATE TABLE t (a INT, watermark AS a + 1, index AS a * 2, comment AS 'c' COMMENT 'x')",
        SqlCreateTable.class);

    assertEquals(4, table.getColumns().size());
    assertEquals("x", table.getColumns().get(3).getComment());
  }
}
