package dev.rsql.sql.parser;

import static dev.rsql.sql.parser.Parsing.assertRoundTrip;
import static dev.rsql.sql.parser.Parsing.parseOne;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSnapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Queries vanilla Calcite parses keep parsing, with the node shapes the planner expects. */
class QueryTest {

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT * FROM TABLE(CUMULATE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '2' MINUTE, "
          + "INTERVAL '10' MINUTE))",
      "SELECT * FROM TABLE(SESSION(TABLE Bid PARTITION BY item, DESCRIPTOR(bidtime), "
          + "INTERVAL '5' MINUTE))",
      "SELECT agg1(c1) OVER w, agg2(c2) OVER w FROM t "
          + "WINDOW w AS (PARTITION BY a ORDER BY rowtime ROWS 10 PRECEDING)",
      "SELECT a, b, COUNT(*) FROM t GROUP BY GROUPING SETS ((a), (a, b), ())",
      "SELECT a, COUNT(*) FROM t GROUP BY CUBE (a, b)",
      "SELECT a FROM t1 UNION ALL SELECT a FROM t2",
      "SELECT * FROM t WHERE a IN (SELECT a FROM s) AND EXISTS (SELECT 1 FROM u)",
      "SELECT JSON_VALUE(a, '$.b' RETURNING INTEGER NULL ON EMPTY) FROM t",
      "SELECT HOP_END(ts, INTERVAL '30' SECOND, INTERVAL '1' MINUTE), "
          + "HOP_ROWTIME(ts, INTERVAL '30' SECOND, INTERVAL '1' MINUTE) FROM t "
          + "GROUP BY HOP(ts, INTERVAL '30' SECOND, INTERVAL '1' MINUTE)",
      "SELECT SESSION_ROWTIME(ts, INTERVAL '1' SECOND), TUMBLE_PROCTIME(p, INTERVAL '1' SECOND) "
          + "FROM t GROUP BY SESSION(ts, INTERVAL '1' SECOND), TUMBLE(p, INTERVAL '1' SECOND)",
      "SELECT o.*, r.rate FROM orders o JOIN rates FOR SYSTEM_TIME AS OF o.order_time AS r "
          + "ON o.currency = r.currency",
      "SELECT * FROM t ORDER BY a DESC LIMIT 10",
      "SELECT CAST(a AS STRING), TRY_CAST(b AS BIGINT) FROM t"})
  void parsesAndRoundTrips(String sql) {
    assertRoundTrip(parseOne(sql));
  }

  @Test
  void dimensionJoinIsASnapshot() {
    final SqlSelect select = parseOne("""
        SELECT e.*, w.* FROM event AS e
        JOIN white_list FOR SYSTEM_TIME AS OF PROCTIME() AS w ON e.id = w.id""",
        SqlSelect.class);

    final SqlJoin join = assertInstanceOf(SqlJoin.class, select.getFrom());
    final SqlBasicCall alias = assertInstanceOf(SqlBasicCall.class, join.getRight());
    assertEquals(SqlKind.AS, alias.getKind());
    final SqlSnapshot snapshot = assertInstanceOf(SqlSnapshot.class, alias.operand(0));
    assertEquals("PROCTIME", ((SqlBasicCall) snapshot.getPeriod()).getOperator().getName());
  }

  @Test
  void lateralTableJoin() {
    final SqlSelect select = parseOne("""
        SELECT S.id, T.a FROM input_stream AS S
        LEFT JOIN LATERAL TABLE(parseUdtf(content)) AS T(a, b) ON TRUE""", SqlSelect.class);

    final SqlJoin join = assertInstanceOf(SqlJoin.class, select.getFrom());
    assertEquals("LEFT", join.getJoinType().name());
    final SqlNode right = ((SqlBasicCall) join.getRight()).operand(0);
    assertEquals(SqlKind.LATERAL, right.getKind());
  }

  @Test
  void windowTableFunctionWithNamedArguments() {
    final SqlSelect select = parseOne("""
        SELECT * FROM TABLE(HOP(DATA => TABLE Bid, TIMECOL => DESCRIPTOR(bidtime),
          SLIDE => INTERVAL '5' MINUTES, SIZE => INTERVAL '10' MINUTES))""", SqlSelect.class);

    assertEquals(SqlKind.COLLECTION_TABLE, select.getFrom().getKind());
  }

  @Test
  void commentsInsideACommonTableExpression() {
    final SqlNode query = parseOne("""
        WITH -- the base rows
          base AS (
            SELECT a, /* the key */ b
            FROM t -- source
          )
        SELECT a FROM base""");

    assertEquals(SqlKind.WITH, query.getKind());
    assertRoundTrip(query);
  }
}
