package dev.rsql.sql.parser;

import static dev.rsql.sql.parser.Parsing.assertRoundTrip;
import static dev.rsql.sql.parser.Parsing.parseError;
import static dev.rsql.sql.parser.Parsing.parseOne;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;

import dev.rsql.sql.parser.dml.SqlEmit;
import dev.rsql.sql.parser.dml.SqlEmitStrategy;
import dev.rsql.sql.parser.dml.SqlEmitStrategy.Position;
import dev.rsql.sql.parser.dml.SqlRichInsert;
import dev.rsql.sql.parser.dml.SqlStatementSet;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlTableRef;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class InsertTest {

  private static SqlRichInsert insert(String sql) {
    final SqlRichInsert insert = parseOne(sql, SqlRichInsert.class);
    assertRoundTrip(insert);
    return insert;
  }

  @Test
  void plainInsertIsARichInsertWithoutEmit() {
    final SqlRichInsert insert = insert("INSERT INTO LargeOrders SELECT * FROM Orders WHERE units > 1000");

    assertNull(insert.getEmit());
    assertFalse(insert.isOverwrite());
    assertFalse(insert.isUpsert());
    assertEquals("LargeOrders", ((SqlIdentifier) insert.getTargetTable()).getSimple());
    assertNull(insert.getTargetColumnList());
    assertInstanceOf(SqlSelect.class, insert.getSource());
  }

  @Test
  void columnList() {
    final SqlRichInsert insert = insert("INSERT INTO Orders (z, v) SELECT c, d FROM OO");

    assertEquals(List.of("z", "v"), insert.getTargetColumnList().stream()
        .map(n -> ((SqlIdentifier) n).getSimple()).toList());
  }

  @Test
  void optionsHintsOnTargetAndSource() {
    final SqlRichInsert insert = insert("""
        INSERT INTO t /*+ OPTIONS('sink.parallelism' = '2') */ (a)
        SELECT a FROM s /*+ OPTIONS('scan.startup.mode' = 'latest-offset') */""");

    final SqlTableRef target = assertInstanceOf(SqlTableRef.class, insert.getTargetTable());
    assertEquals("t", target.operand(0).toString());
    assertInstanceOf(SqlTableRef.class, ((SqlSelect) insert.getSource()).getFrom());
  }

  @Test
  void overwriteAndUpsert() {
    assertTrue(insert("INSERT OVERWRITE t SELECT * FROM s").isOverwrite());
    final SqlRichInsert upsert = insert("UPSERT INTO t SELECT * FROM s");
    assertTrue(upsert.isUpsert());
    assertFalse(upsert.isOverwrite());
  }

  @Test
  void valuesSource() {
    assertNull(insert("INSERT INTO t VALUES (1, 'a'), (2, 'b')").getEmit());
  }

  static Stream<Arguments> emitClauses() {
    return Stream.of(
        Arguments.of("EMIT WITH DELAY '1' MINUTE BEFORE WATERMARK",
            List.of(new Strategy(60_000, Position.BEFORE_WATERMARK))),
        Arguments.of("EMIT WITH DELAY '1' MINUTE BEFORE WATERMARK, WITHOUT DELAY AFTER WATERMARK",
            List.of(new Strategy(60_000, Position.BEFORE_WATERMARK),
                new Strategy(-1, Position.AFTER_WATERMARK))),
        Arguments.of("EMIT WITHOUT DELAY AFTER WATERMARK",
            List.of(new Strategy(-1, Position.AFTER_WATERMARK))),
        Arguments.of("EMIT WITH DELAY '1' MINUTE",
            List.of(new Strategy(60_000, Position.UNSPECIFIED))),
        Arguments.of("EMIT WITH DELAY INTERVAL '30' SECOND",
            List.of(new Strategy(30_000, Position.UNSPECIFIED))),
        Arguments.of("EMIT WITH DELAY '2' HOUR AFTER WATERMARK, WITH DELAY '10' SECOND BEFORE WATERMARK",
            List.of(new Strategy(7_200_000, Position.AFTER_WATERMARK),
                new Strategy(10_000, Position.BEFORE_WATERMARK))),
        Arguments.of("EMIT WITH DELAY '1:30' MINUTE TO SECOND BEFORE WATERMARK",
            List.of(new Strategy(90_000, Position.BEFORE_WATERMARK))),
        Arguments.of("emit without delay",
            List.of(new Strategy(-1, Position.UNSPECIFIED))));
  }

  /** Expected strategy: delay in ms, or -1 for WITHOUT DELAY. */
  record Strategy(long delayMillis, Position position) {
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("emitClauses")
  void emitStrategies(String emit, List<Strategy> expected) {
    final SqlRichInsert insert = insert("""
        INSERT INTO result
        SELECT TUMBLE_START(ts, INTERVAL '1' HOUR), COUNT(*) FROM src
        GROUP BY TUMBLE(ts, INTERVAL '1' HOUR)
        """ + emit);

    final List<SqlEmitStrategy> strategies = insert.getEmit().getStrategies();
    assertEquals(expected.size(), strategies.size());
    for (int i = 0; i < expected.size(); i++) {
      final SqlEmitStrategy strategy = strategies.get(i);
      final Strategy want = expected.get(i);
      assertEquals(want.position(), strategy.getPosition());
      if (want.delayMillis() < 0) {
        assertTrue(strategy.isWithoutDelay());
        assertNull(strategy.getDelay());
        assertEquals(0L, strategy.getDelayMillis());
      } else {
        assertFalse(strategy.isWithoutDelay());
        assertEquals(want.delayMillis(), strategy.getDelayMillis());
      }
    }
  }

  @Test
  void emitAfterEveryKindOfQueryEnd() {
    for (String query : List.of(
        "SELECT * FROM tumble_window",
        "SELECT a FROM t WHERE a > 1",
        "SELECT a, COUNT(*) FROM t GROUP BY a",
        "SELECT a, COUNT(*) FROM t GROUP BY a HAVING COUNT(*) > 1",
        "SELECT a FROM t AS x",
        "SELECT a FROM t x ORDER BY a",
        "SELECT a FROM t1 UNION ALL SELECT a FROM t2")) {
      assertEquals(1, insert("INSERT INTO result " + query + " EMIT WITHOUT DELAY")
          .getEmit().getStrategies().size(), query);
    }
  }

  @Test
  void emitPositionCoversBothSidesWhenUnspecified() {
    final SqlEmitStrategy strategy = insert("INSERT INTO r SELECT * FROM t EMIT WITHOUT DELAY")
        .getEmit().getStrategies().get(0);

    assertTrue(strategy.appliesBeforeWatermark());
    assertTrue(strategy.appliesAfterWatermark());
  }

  @Test
  void conflictingEmitStrategiesAreRejected() {
    final RsqlParseException twoBefore = parseError("""
        INSERT INTO r SELECT * FROM t
        EMIT WITH DELAY '1' MINUTE BEFORE WATERMARK, WITHOUT DELAY BEFORE WATERMARK""");
    assertEquals(2, twoBefore.line());
    assertEquals(46, twoBefore.column());
    assertTrue(twoBefore.getMessage().endsWith(
        "EMIT allows at most one strategy before and one after the watermark"));

    final RsqlParseException unspecifiedAndAfter = parseError(
        "INSERT INTO r SELECT * FROM t EMIT WITHOUT DELAY, WITH DELAY '1' SECOND AFTER WATERMARK");
    assertEquals(51, unspecifiedAndAfter.column());
  }

  @Test
  void yearMonthDelayIsRejected() {
    final RsqlParseException e =
        parseError("INSERT INTO r SELECT * FROM t EMIT WITH DELAY '1' MONTH");

    assertEquals("line 1, column 47: EMIT delay must be a day-time interval, e.g. '1' MINUTE",
        e.getMessage());
  }

  @Test
  void emitIsReserved() {
    final RsqlParseException e = parseError("SELECT emit FROM t");

    assertEquals(8, e.column());
    assertEquals("emit", e.token());
  }

  @Test
  void copiesThroughTheOperatorKeepEmitAndOverwrite() {
    final SqlRichInsert insert = insert(
        "INSERT OVERWRITE t SELECT * FROM s EMIT WITH DELAY '5' SECOND BEFORE WATERMARK");

    final SqlNode copy = insert.clone(SqlParserPos.ZERO);

    final SqlRichInsert rich = assertInstanceOf(SqlRichInsert.class, copy);
    assertTrue(rich.isOverwrite());
    assertEquals(5_000, rich.getEmit().getStrategies().get(0).getDelayMillis());
    assertEquals(RsqlParser.unparse(insert), RsqlParser.unparse(copy));
    assertInstanceOf(SqlEmit.class, insert.getOperandList().get(4));
  }

  @Test
  void deepCopyThroughOperatorsKeepsEveryPart() {
    final SqlNode script = RsqlParser.parseScript("""
        EXECUTE STATEMENT SET BEGIN
          INSERT OVERWRITE t /*+ OPTIONS('k' = 'v') */ (a) SELECT a FROM s
            EMIT WITH DELAY '1' MINUTE BEFORE WATERMARK, WITHOUT DELAY AFTER WATERMARK;
          UPSERT INTO u SELECT 1;
        END""").get(0);

    final SqlNode copy = script.accept(new SqlShuttle() {
      @Override public SqlNode visit(SqlCall call) {
        final CallCopyingArgHandler handler = new CallCopyingArgHandler(call, true);
        call.getOperator().acceptCall(this, call, false, handler);
        return handler.result();
      }
    });

    final SqlStatementSet set = assertInstanceOf(SqlStatementSet.class, copy);
    assertNotSame(script, copy);
    assertInstanceOf(SqlEmitStrategy.class,
        set.getInserts().get(0).getEmit().getStrategies().get(1));
    assertEquals(RsqlParser.unparse(script), RsqlParser.unparse(copy));
  }

  @Test
  void calciteSqlParserWithOurConfigAlsoYieldsRichInserts() throws Exception {
    final SqlNode node = SqlParser.create("INSERT INTO t SELECT 1 EMIT WITHOUT DELAY",
        RsqlParser.config()).parseStmt();

    final SqlInsert insert = assertInstanceOf(SqlRichInsert.class, node);
    assertEquals(1, ((SqlRichInsert) insert).getEmit().getStrategies().size());
  }
}
