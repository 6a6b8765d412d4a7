package dev.rsql.sql.parser;

import static dev.rsql.sql.parser.Parsing.assertRoundTrip;
import static dev.rsql.sql.parser.Parsing.parseError;
import static dev.rsql.sql.parser.Parsing.parseOne;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import dev.rsql.sql.parser.ddl.SqlCreateFunction;
import dev.rsql.sql.parser.ddl.SqlCreateTable;
import dev.rsql.sql.parser.ddl.SqlReset;
import dev.rsql.sql.parser.ddl.SqlSet;
import dev.rsql.sql.parser.dml.SqlRichInsert;
import dev.rsql.sql.parser.dml.SqlStatementSet;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ScriptTest {

  private static final String BLINK_JOB = """
      -- a Blink job
      CREATE FUNCTION myUdf AS 'com.example.MyUdf';
      CREATE TABLE src (id VARCHAR, v BIGINT) WITH (type = 'datahub');
      /* the sink */
      CREATE TABLE snk (id VARCHAR, v BIGINT) WITH (type = 'print');
      INSERT INTO snk SELECT id, v FROM src;
      """;

  @Test
  void statementsInOrderWithPositionsRelativeToTheScript() {
    final List<SqlNode> statements = RsqlParser.parseScript(BLINK_JOB);

    assertEquals(4, statements.size());
    assertInstanceOf(SqlCreateFunction.class, statements.get(0));
    assertInstanceOf(SqlCreateTable.class, statements.get(1));
    assertInstanceOf(SqlCreateTable.class, statements.get(2));
    assertInstanceOf(SqlRichInsert.class, statements.get(3));
    assertEquals(2, statements.get(0).getParserPosition().getLineNum());
    assertEquals(3, statements.get(1).getParserPosition().getLineNum());
    assertEquals(5, statements.get(2).getParserPosition().getLineNum());
    assertEquals(6, statements.get(3).getParserPosition().getLineNum());
  }

  @Test
  void trailingSemicolonIsOptionalAndEmptyStatementsAreIgnored() {
    assertEquals(2, RsqlParser.parseScript("SELECT 1; SELECT 2").size());
    assertEquals(2, RsqlParser.parseScript("SELECT 1; SELECT 2;").size());
    assertEquals(2, RsqlParser.parseScript("SELECT 1;; SELECT 2;;").size());
    assertEquals(1, RsqlParser.parseScript(";SELECT 1").size());
  }

  @Test
  void emptyScripts() {
    assertTrue(RsqlParser.parseScript("").isEmpty());
    assertTrue(RsqlParser.parseScript("  -- nothing here\n/* or here */ ;").isEmpty());
  }

  @Test
  void sqlClientStatementSetIsFoldedIntoOneNode() {
    final List<SqlNode> statements = RsqlParser.parseScript("""
        CREATE TABLE a (x INT) WITH ('connector' = 'print');
        BEGIN STATEMENT SET;
        -- first
        INSERT INTO a SELECT 1;
        INSERT INTO b SELECT 2 EMIT WITHOUT DELAY;
        END;
        INSERT INTO c SELECT 3;
        """);

    assertEquals(3, statements.size());
    final SqlStatementSet set = assertInstanceOf(SqlStatementSet.class, statements.get(1));
    assertEquals(2, set.getParserPosition().getLineNum());
    assertEquals(List.of("a", "b"), targets(set));
    assertEquals(1, set.getInserts().get(1).getEmit().getStrategies().size());
    assertInstanceOf(SqlRichInsert.class, statements.get(2));
    assertRoundTrip(set);
  }

  @Test
  void executeStatementSet() {
    final SqlStatementSet set = parseOne("""
        EXECUTE STATEMENT SET BEGIN
          INSERT INTO a SELECT 1;
          INSERT OVERWRITE b SELECT 2;
        END""", SqlStatementSet.class);

    assertEquals(List.of("a", "b"), targets(set));
    assertTrue(set.getInserts().get(1).isOverwrite());
    assertEquals("EXECUTE STATEMENT SET BEGIN\nINSERT INTO `a`\nSELECT 1 ;\n"
        + "INSERT OVERWRITE `b`\nSELECT 2 ;\nEND", assertRoundTrip(set));
  }

  @Test
  void semicolonBeforeEndIsOptional() {
    assertEquals(1, parseOne("EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT 1 END",
        SqlStatementSet.class).getInserts().size());
    assertEquals(2, parseOne("BEGIN STATEMENT SET; INSERT INTO a SELECT 1; "
        + "INSERT INTO b SELECT 2 END", SqlStatementSet.class).getInserts().size());
  }

  @Test
  void statementSetHoldsOnlyInserts() {
    final RsqlParseException e = parseError("""
        BEGIN STATEMENT SET;
        SELECT 1;
        END;""");

    assertEquals(2, e.line());
    assertEquals(1, e.column());
    assertEquals("SELECT", e.token());
    assertTrue(e.expectedTokens().contains("'INSERT'"), e.expectedTokens()::toString);
  }

  @Test
  void emptyStatementSetIsRejected() {
    final RsqlParseException e = parseError("EXECUTE STATEMENT SET BEGIN END");

    assertEquals(29, e.column());
    assertEquals("END", e.token());
  }

  private static List<String> targets(SqlStatementSet set) {
    return set.getInserts().stream()
        .map(i -> ((SqlIdentifier) i.getTargetTable()).getSimple()).toList();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "SET 'table.exec.mini-batch.enabled' = 'true' | table.exec.mini-batch.enabled | true",
      "SET 'k' = 'v'                                 | k                             | v",
      "SET table.exec.state.ttl = 3600000           | table.exec.state.ttl          | 3600000",
      "SET `blink.job.timeZone` = 'Asia/Shanghai'   | blink.job.timeZone            | Asia/Shanghai",
      "SET 'pipeline.object-reuse' = true           | pipeline.object-reuse         | true",
      "SET 'execution.runtime-mode' = streaming     | execution.runtime-mode        | streaming",
      "SET 'sql-client.execution.result-mode' = TABLE | sql-client.execution.result-mode | TABLE"})
  void setOption(String sql, String key, String value) {
    final SqlSet set = parseOne(sql, SqlSet.class);

    assertEquals(key, set.getKey());
    assertEquals(value, set.getValue());
    assertEquals(SqlKind.SET_OPTION, set.getKind());
    assertRoundTrip(set);
  }

  @Test
  void bareSetAndReset() {
    final List<SqlNode> statements = RsqlParser.parseScript("SET; RESET 'a.b'; RESET");

    final SqlSet set = assertInstanceOf(SqlSet.class, statements.get(0));
    assertNull(set.getKey());
    assertNull(set.getValue());
    assertEquals("a.b", assertInstanceOf(SqlReset.class, statements.get(1)).getKey());
    assertNull(assertInstanceOf(SqlReset.class, statements.get(2)).getKey());
    statements.forEach(Parsing::assertRoundTrip);
  }

  @Test
  void expression() {
    final SqlBasicCall call =
        assertInstanceOf(SqlBasicCall.class, RsqlParser.parseExpression("withOffset(ts, 2000)"));
    assertEquals("withOffset", call.getOperator().getName());

    final RsqlParseException e = parseErrorInExpression("a +\n  * b");
    assertEquals(2, e.line());
    assertEquals(3, e.column());
    assertEquals("*", e.token());
  }

  @Test
  void emptyExpression() {
    assertEquals("line 1, column 1: unexpected end of input",
        parseErrorInExpression("").getMessage().replaceAll(";.*", ""));
  }

  @Test
  void identifiersAreLimitedTo256Characters() {
    RsqlParser.parseScript("SELECT " + "a".repeat(256) + " FROM t");
    final RsqlParseException e = parseError("SELECT " + "a".repeat(257) + " FROM t");
    assertEquals(8, e.column());
  }

  @Test
  void identifiersKeepTheirCase() {
    final SqlNode select = parseOne("SELECT MyCol, `Other` FROM MyTable");
    assertEquals("SELECT `MyCol`, `Other`\nFROM `MyTable`", RsqlParser.unparse(select));
  }

  private static RsqlParseException parseErrorInExpression(String expression) {
    return assertThrows(RsqlParseException.class,
        () -> RsqlParser.parseExpression(expression));
  }
}
