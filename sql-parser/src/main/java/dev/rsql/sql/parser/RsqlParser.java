package dev.rsql.sql.parser;

import java.util.List;

import dev.rsql.sql.parser.impl.CodePointCharStream;
import dev.rsql.sql.parser.impl.ParseException;
import dev.rsql.sql.parser.impl.RsqlParserImpl;
import dev.rsql.sql.parser.impl.TokenMgrError;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.config.Lex;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.validate.SqlConformanceEnum;

/**
 * Entry point of the Blink/Flink SQL parser.
 *
 * <p>Scripts are parsed in one pass, so every position (in nodes and in {@link
 * RsqlParseException}) is relative to the whole script.
 */
public final class RsqlParser {

  /** The dialect {@link #unparse} writes; everything it writes parses again. */
  public static final SqlDialect UNPARSE_DIALECT = RsqlSqlDialect.DEFAULT;

  private static final SqlParser.Config CONFIG = SqlParser.config()
      .withLex(Lex.JAVA)
      .withQuotedCasing(Casing.UNCHANGED)
      .withUnquotedCasing(Casing.UNCHANGED)
      .withIdentifierMaxLength(256)
      .withConformance(SqlConformanceEnum.LENIENT)
      .withParserFactory(RsqlParserImpl.FACTORY);

  private RsqlParser() {
  }

  /**
   * Parser configuration for {@link SqlParser#create(String, SqlParser.Config)}: back-quoted
   * identifiers, case kept, identifiers up to 256 characters, lenient conformance. Note that
   * {@code SqlParser.parseStmtList()} does not know the SQL-client form
   * {@code BEGIN STATEMENT SET; ...; END}; {@link #parseScript} does.
   */
  public static SqlParser.Config config() {
    return CONFIG;
  }

  /**
   * Parses a script of {@code ;}-separated statements (the last {@code ;} is optional). Both
   * statement-set forms become one {@link dev.rsql.sql.parser.dml.SqlStatementSet}.
   *
   * @throws RsqlParseException on the first syntax error
   */
  public static List<SqlNode> parseScript(String script) {
    return parse(script, RsqlParserImpl::RsqlStmtList).getList();
  }

  /** Parses one scalar expression, e.g. {@code withOffset(ts, 1000)}. */
  public static SqlNode parseExpression(String expression) {
    return parse(expression, RsqlParserImpl::parseSqlExpressionEof);
  }

  /** Writes a node as SQL in {@link #UNPARSE_DIALECT}. */
  public static String unparse(SqlNode node) {
    return node.toSqlString(UNPARSE_DIALECT).getSql();
  }

  /** One production of the generated parser. */
  @FunctionalInterface
  private interface Production<T> {
    T parse(RsqlParserImpl parser) throws Exception;
  }

  private static <T> T parse(String sql, Production<T> production) {
    final RsqlParserImpl parser = newParser(sql);
    try {
      return production.parse(parser);
    } catch (ParseException | TokenMgrError | CalciteContextException e) {
      throw ParseErrors.from(sql, parser, e);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw ParseErrors.from(sql, parser, e);
    }
  }

  /**
   * Creates the generated parser configured as {@link SqlParser#create} would; we cannot go
   * through {@code SqlParser}, which keeps its parser private, because scripts use our own
   * production {@code RsqlStmtList}.
   */
  private static RsqlParserImpl newParser(String sql) {
    // The generated factory sizes the input buffer to the text, which fails for an empty text.
    final String text = sql.isEmpty() ? " " : sql;
    final SqlAbstractParserImpl parser = CodePointCharStream.parser(text);
    parser.setTabSize(1);
    parser.setQuotedCasing(CONFIG.quotedCasing());
    parser.setUnquotedCasing(CONFIG.unquotedCasing());
    parser.setIdentifierMaxLength(CONFIG.identifierMaxLength());
    parser.setTimeUnitCodes(CONFIG.timeUnitCodes());
    parser.setConformance(CONFIG.conformance());
    parser.switchTo(SqlAbstractParserImpl.LexicalState.forConfig(CONFIG));
    return (RsqlParserImpl) parser;
  }
}
