package dev.rsql.sql.parser;

import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.config.NullCollation;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlWriter;

/**
 * The dialect {@link RsqlParser#unparse} writes: Calcite's own SQL with identifiers in back-quotes,
 * so that whatever it writes is read back by {@link RsqlParser} ({@code Lex.JAVA}).
 *
 * <p>{@code MysqlSqlDialect} also back-quotes but rewrites casts and functions for MySQL, which
 * would not re-parse to the same tree.
 */
public final class RsqlSqlDialect extends SqlDialect {

  public static final RsqlSqlDialect DEFAULT = new RsqlSqlDialect();

  private RsqlSqlDialect() {
    super(SqlDialect.EMPTY_CONTEXT
        .withDatabaseProduct(DatabaseProduct.CALCITE)
        .withIdentifierQuoteString("`")
        .withNullCollation(NullCollation.HIGH)
        .withUnquotedCasing(Casing.UNCHANGED)
        .withQuotedCasing(Casing.UNCHANGED)
        .withCaseSensitive(true));
  }

  /** Table hints, e.g. {@code t /*+ OPTIONS('k' = 'v') *}{@code /}; the base dialect drops them. */
  @Override public void unparseTableScanHints(SqlWriter writer, SqlNodeList hints,
      int leftPrec, int rightPrec) {
    writer.keyword("/*+");
    hints.unparse(writer, 0, 0);
    writer.keyword("*/");
  }
}
