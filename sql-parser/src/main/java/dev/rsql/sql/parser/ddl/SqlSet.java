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

/**
 * A job parameter: {@code SET 'key' = 'value'} (Flink; keys and values may also be written
 * unquoted, e.g. {@code SET table.exec.mini-batch.size = 1000}). A bare {@code SET} (list all)
 * has neither key nor value.
 */
public final class SqlSet extends SqlCall {

  private static final SqlOperator OPERATOR = new DdlOperator("SET", SqlKind.SET_OPTION);

  private final @Nullable SqlNode key;
  private final @Nullable SqlNode value;

  public SqlSet(SqlParserPos pos, @Nullable SqlNode key, @Nullable SqlNode value) {
    super(pos);
    if ((key == null) != (value == null)) {
      throw new IllegalArgumentException("SET needs both a key and a value, or neither");
    }
    this.key = key;
    this.value = value;
  }

  /** The key as text (see {@link SqlTableOption#getKeyString()}); null for a bare SET. */
  public @Nullable String getKey() {
    return key == null ? null : SqlTableOption.text(key);
  }

  /** The value as text (see {@link SqlTableOption#getValueString()}); null for a bare SET. */
  public @Nullable String getValue() {
    return value == null ? null : SqlTableOption.text(value);
  }

  public @Nullable SqlNode getKeyNode() {
    return key;
  }

  public @Nullable SqlNode getValueNode() {
    return value;
  }

  @Override public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(key, value);
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("SET");
    if (key != null && value != null) {
      key.unparse(writer, 0, 0);
      writer.keyword("=");
      value.unparse(writer, 0, 0);
    }
  }
}
