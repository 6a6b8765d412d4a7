package dev.rsql.sql.parser;

import static dev.rsql.sql.parser.Parsing.assertRoundTrip;
import static dev.rsql.sql.parser.Parsing.parseError;
import static dev.rsql.sql.parser.Parsing.parseOne;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import dev.rsql.sql.parser.ddl.SqlCreateFunction;
import dev.rsql.sql.parser.ddl.SqlCreateView;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlSelect;
import org.junit.jupiter.api.Test;

class CreateFunctionAndViewTest {

  private static SqlCreateFunction function(String sql) {
    final SqlCreateFunction function = parseOne(sql, SqlCreateFunction.class);
    assertRoundTrip(function);
    return function;
  }

  private static SqlCreateView view(String sql) {
    final SqlCreateView view = parseOne(sql, SqlCreateView.class);
    assertRoundTrip(view);
    return view;
  }

  @Test
  void blinkFunction() {
    final SqlCreateFunction f =
        function("CREATE FUNCTION stringLengthUdf AS 'com.hjc.test.blink.sql.udx.StringLengthUdf'");

    assertEquals("stringLengthUdf", f.getName().getSimple());
    assertEquals("com.hjc.test.blink.sql.udx.StringLengthUdf", f.getClassName());
    assertNull(f.getLanguage());
    assertFalse(f.isTemporary());
    assertFalse(f.isSystemFunction());
    assertFalse(f.isIfNotExists());
    assertFalse(f.isReplace());
    assertEquals(SqlKind.CREATE_FUNCTION, f.getKind());
  }

  @Test
  void flinkFunctionWithEveryOption() {
    final SqlCreateFunction f = function(
        "CREATE TEMPORARY SYSTEM FUNCTION IF NOT EXISTS my_fn AS 'a.b.F' LANGUAGE python");

    assertTrue(f.isTemporary());
    assertTrue(f.isSystemFunction());
    assertTrue(f.isIfNotExists());
    assertEquals("PYTHON", f.getLanguage());
  }

  @Test
  void temporaryCatalogFunctionAndReplace() {
    final SqlCreateFunction f =
        function("CREATE OR REPLACE TEMPORARY FUNCTION cat.db.f AS 'a.F' LANGUAGE SCALA");

    assertEquals(List.of("cat", "db", "f"), f.getName().names);
    assertTrue(f.isReplace());
    assertTrue(f.isTemporary());
    assertFalse(f.isSystemFunction());
    assertEquals("SCALA", f.getLanguage());
    assertEquals("JAVA", function("CREATE FUNCTION f AS 'a.F' LANGUAGE JAVA").getLanguage());
  }

  @Test
  void functionNamedIf() {
    assertEquals("if", function("CREATE FUNCTION if AS 'a.If'").getName().getSimple());
  }

  @Test
  void blinkViewWithColumns() {
    final SqlCreateView v = view("""
        CREATE VIEW LargeOrders (r, t, c, u) AS
        SELECT rowtime, productId, c, units FROM orders""");

    assertEquals("LargeOrders", v.getName().getSimple());
    assertEquals(List.of("r", "t", "c", "u"),
        v.getColumnList().stream().map(n -> ((SqlIdentifier) n).getSimple()).toList());
    assertInstanceOf(SqlSelect.class, v.getQuery());
    assertFalse(v.isTemporary());
    assertFalse(v.isIfNotExists());
    assertFalse(v.isReplace());
    assertNull(v.getComment());
  }

  @Test
  void flinkViewWithEveryOption() {
    final SqlCreateView v = view("""
        CREATE OR REPLACE TEMPORARY VIEW IF NOT EXISTS v COMMENT 'big orders' AS
        SELECT a FROM t WHERE a > 10 ORDER BY a""");

    assertTrue(v.getColumnList().isEmpty());
    assertTrue(v.isReplace());
    assertTrue(v.isTemporary());
    assertTrue(v.isIfNotExists());
    assertEquals("big orders", v.getComment());
    assertEquals(SqlKind.ORDER_BY, v.getQuery().getKind());
  }

  @Test
  void viewOverAUnionWithCommonTableExpression() {
    final SqlCreateView v = view("""
        CREATE VIEW v AS
        WITH a AS (SELECT x FROM t1), -- first
             b AS (SELECT x FROM t2)  /* second */
        SELECT x FROM a UNION ALL SELECT x FROM b""");

    assertEquals(SqlKind.WITH, v.getQuery().getKind());
  }

  @Test
  void viewCannotEmit() {
    final RsqlParseException e =
        parseError("CREATE VIEW v AS SELECT * FROM t EMIT WITHOUT DELAY");

    assertEquals(1, e.line());
    assertEquals(34, e.column());
    assertEquals("EMIT", e.token());
  }

  @Test
  void systemViewIsRejected() {
    assertEquals("line 1, column 25: SYSTEM is only allowed for functions",
        parseError("CREATE TEMPORARY SYSTEM VIEW v AS SELECT 1").getMessage());
  }
}
