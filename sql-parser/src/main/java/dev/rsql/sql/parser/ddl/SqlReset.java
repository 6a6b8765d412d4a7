package dev.rsql.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;
import org.checkerframework.checker.nullness.qual.Nullable;

/** {@code RESET 'key'} (one job parameter back to its default) or {@code RESET} (all of them). */
public final class SqlReset extends SqlCall {

  private static final SqlOperator OPERATOR = new DdlOperator("RESET", SqlKind.SET_OPTION);

  private final @Nullable SqlNode key;

  public SqlReset(SqlParserPos pos, @Nullable SqlNode key) {
    super(pos);
    this.key = key;
  }

  /** The key as text; null for a bare RESET. */
  public @Nullable String getKey() {
    return key == null ? null : SqlTableOption.text(key);
  }

  @Override public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(key);
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("RESET");
    if (key != null) {
      key.unparse(writer, 0, 0);
    }
  }
}
