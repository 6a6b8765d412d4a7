package dev.rsql.sql.parser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.util.Litmus;

/** Shortcuts the parser tests share. */
final class Parsing {

  private Parsing() {
  }

  /** Parses a script that must hold exactly one statement. */
  static SqlNode parseOne(String sql) {
    final List<SqlNode> statements = RsqlParser.parseScript(sql);
    assertEquals(1, statements.size(), () -> "statements in: " + sql);
    return statements.get(0);
  }

  static <T extends SqlNode> T parseOne(String sql, Class<T> type) {
    return assertInstanceOf(type, parseOne(sql));
  }

  /**
   * Unparses, parses the text and unparses again: both texts must be equal, and the reparsed
   * tree must equal the original one (for DDL nodes that compares names, types, expressions
   * and options; flags and comments are checked through the texts). Returns the text.
   */
  static String assertRoundTrip(SqlNode node) {
    final String first = RsqlParser.unparse(node);
    final SqlNode reparsed = parseOne(first);
    assertEquals(node.getClass(), reparsed.getClass(), first);
    assertEquals(first, RsqlParser.unparse(reparsed), "unparse is not stable");
    assertTrue(node.equalsDeep(reparsed, Litmus.IGNORE), () -> "reparsed tree differs: " + first);
    return first;
  }

  static RsqlParseException parseError(String sql) {
    return assertThrows(RsqlParseException.class, () -> RsqlParser.parseScript(sql));
  }
}
