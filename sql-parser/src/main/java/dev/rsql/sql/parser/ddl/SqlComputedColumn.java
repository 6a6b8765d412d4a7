package dev.rsql.sql.parser.ddl;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A computed (virtual) column: {@code name AS expression [COMMENT 'c']}, e.g.
 * {@code p AS PROCTIME()}.
 */
public final class SqlComputedColumn extends SqlTableColumn {

  private final SqlNode expression;

  public SqlComputedColumn(SqlParserPos pos, SqlIdentifier name, SqlNode expression,
      @Nullable String comment) {
    super(pos, name, comment);
    this.expression = requireNonNull(expression, "expression");
  }

  public SqlNode getExpression() {
    return expression;
  }

  @Override public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(getName(), expression);
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    getName().unparse(writer, 0, 0);
    writer.keyword("AS");
    expression.unparse(writer, 0, 0);
    Unparsing.comment(writer, getComment());
  }
}
