package dev.rsql.sql.parser;

import static dev.rsql.sql.parser.Parsing.parseError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Syntax errors: exact position (relative to the whole script), offending token, message. */
class ParseErrorTest {

  static Stream<Arguments> errors() {
    return Stream.of(
        Arguments.of("misspelled keyword on line 3 of a script", """
            CREATE TABLE src (a INT) WITH (type = 'datahub');
            CREATE TABLE snk (a INT) WITH (type = 'print');
            INSRT INTO snk SELECT * FROM src;
            """, 3, 1, "INSRT"),
        Arguments.of("misspelled keyword inside a statement", """
            CREATE TABLE src (a INT) WITH (type = 'datahub');
            INSERT INTO snk
            SELECT a, COUNT(*) FROM src GROUP BYE a""", 3, 35, "BYE"),
        Arguments.of("misspelled SELECT after INSERT", """
            INSERT INTO snk SELCT * FROM src""", 1, 17, "SELCT"),
        Arguments.of("misspelled statement keyword", """
            CREATE TABLE src (a INT);

              CRATE TABLE snk (a INT)""", 3, 3, "CRATE"),
        Arguments.of("unclosed WITH before the next statement", """
            CREATE TABLE t (a INT) WITH (type = 'x', topic = 't';
            INSERT INTO t SELECT 1""", 1, 53, ";"),
        Arguments.of("unclosed WITH at the end of the script", """
            CREATE TABLE t (a INT) WITH (type = 'x'""", 1, 40, null),
        Arguments.of("unclosed column list", """
            CREATE TABLE t (a INT, b VARCHAR WITH (type = 'x')""", 1, 34, "WITH"),
        Arguments.of("bad type: MAP with one type", """
            CREATE TABLE t (
              a INT,
              b MAP<STRING>
            )""", 3, 15, ">"),
        Arguments.of("bad type: non-numeric precision", """
            CREATE TABLE t (a VARCHAR(n))""", 1, 27, "n"),
        Arguments.of("bad type: unclosed ARRAY", """
            CREATE TABLE t (a ARRAY<INT, b INT)""", 1, 28, ","),
        Arguments.of("missing option value", """
            CREATE TABLE t (a INT) WITH (type = , x = 'y')""", 1, 37, ","),
        Arguments.of("EMIT delay without a unit", """
            INSERT INTO r SELECT * FROM t EMIT WITH DELAY '1'""", 1, 50, null),
        Arguments.of("EMIT delay as a number", """
            INSERT INTO r SELECT * FROM t EMIT WITH DELAY 1 MINUTE""", 1, 47, "1"),
        Arguments.of("two statements without a semicolon", """
            SELECT 1
            SELECT 2""", 2, 1, "SELECT"),
        Arguments.of("unquoted reserved word timestamp as a column", """
            CREATE TABLE t (timestamp BIGINT)""", 1, 17, "timestamp"),
        Arguments.of("unquoted reserved word partition as a column", """
            CREATE TABLE t (`offset` BIGINT, partition INT)""", 1, 34, "partition"),
        Arguments.of("unquoted reserved word value in a query", """
            SELECT value FROM t""", 1, 8, "value"),
        Arguments.of("unquoted reserved word offset in a query", """
            SELECT a, offset FROM t""", 1, 11, "offset"),
        Arguments.of("unterminated string", """
            SELECT 'abc FROM t""", 1, 8, "'"),
        Arguments.of("stray character", """
            SELECT a
            FROM t WHERE a # 1""", 2, 16, "#"),
        Arguments.of("SET without value", """
            SET 'k' =""", 1, 10, null),
        Arguments.of("CREATE VIEW without query", """
            CREATE VIEW v AS""", 1, 17, null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("errors")
  void reportsPositionAndToken(String name, String script, int line, int column, String token) {
    final RsqlParseException e = parseError(script);

    assertEquals(line, e.line(), e::getMessage);
    assertEquals(column, e.column(), e::getMessage);
    assertEquals(token, e.token(), e::getMessage);
    assertEquals(line, e.position().getLineNum());
    assertTrue(e.getMessage().startsWith("line " + line + ", column " + column + ": "),
        e::getMessage);
  }

  @Test
  void messageNamesTheTokenAndAShortExpectedList() {
    final RsqlParseException e = parseError("""
        CREATE TABLE src (a INT) WITH (type = 'datahub');
        CREATE TABLE snk (a INT) WITH (type = 'print');
        INSRT INTO snk SELECT * FROM src;""");

    assertEquals("line 3, column 1: unexpected 'INSRT'; expected one of 'BEGIN', 'CREATE', "
        + "'EXECUTE', 'INSERT', 'RESET', 'SELECT', 'SET', 'UPSERT', 'VALUES', 'WITH'",
        e.getMessage());
    assertTrue(e.expectedTokens().contains("'INSERT'"), e.expectedTokens()::toString);
    final String expectedList = e.getMessage().substring(e.getMessage().indexOf("expected one of"));
    assertTrue(expectedList.split(", ").length <= 11, expectedList);
  }

  @Test
  void endOfInputHasNoToken() {
    final RsqlParseException e = parseError("CREATE TABLE t (a INT) WITH (type = 'x'");

    assertNull(e.token());
    assertTrue(e.getMessage().startsWith("line 1, column 40: unexpected end of input; expected one of "),
        e::getMessage);
    assertTrue(e.expectedTokens().contains("')'"), e.expectedTokens()::toString);
  }

  @Test
  void lexicalErrorNamesTheCharacter() {
    final RsqlParseException e = parseError("SELECT a # b FROM t");

    assertEquals("line 1, column 10: unexpected character '#'", e.getMessage());
  }

  @Test
  void shortExpectedListForACompleteStatement() {
    final RsqlParseException e = parseError("CREATE TABLE t (a INT) WITH (type = 'x') garbage");

    assertEquals("garbage", e.token());
    assertTrue(e.getMessage().startsWith("line 1, column 42: unexpected 'garbage'; expected one of"),
        e::getMessage);
  }
}
