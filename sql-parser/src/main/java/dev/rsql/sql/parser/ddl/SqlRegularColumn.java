package dev.rsql.sql.parser.ddl;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;
import org.checkerframework.checker.nullness.qual.Nullable;

/** A physical column: {@code name type [NOT NULL] [COMMENT 'c']}. */
public final class SqlRegularColumn extends SqlTableColumn {

  private final SqlDataTypeSpec type;

  public SqlRegularColumn(SqlParserPos pos, SqlIdentifier name, SqlDataTypeSpec type,
      @Nullable String comment) {
    super(pos, name, comment);
    this.type = requireNonNull(type, "type");
  }

  /** The declared type; {@code getNullable()} is false for NOT NULL, true otherwise. */
  public SqlDataTypeSpec getType() {
    return type;
  }

  @Override public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(getName(), type);
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    getName().unparse(writer, 0, 0);
    Unparsing.columnType(writer, type);
    Unparsing.comment(writer, getComment());
  }
}
