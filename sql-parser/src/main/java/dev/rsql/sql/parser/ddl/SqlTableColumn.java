package dev.rsql.sql.parser.ddl;

import static java.util.Objects.requireNonNull;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.checkerframework.checker.nullness.qual.Nullable;

/** One column of a {@code CREATE TABLE}: physical, metadata (incl. Blink HEADER) or computed. */
public abstract class SqlTableColumn extends SqlCall {

  static final SqlOperator OPERATOR = new DdlOperator("COLUMN", SqlKind.COLUMN_DECL);

  private final SqlIdentifier name;
  private final @Nullable String comment;

  protected SqlTableColumn(SqlParserPos pos, SqlIdentifier name, @Nullable String comment) {
    super(pos);
    this.name = requireNonNull(name, "name");
    this.comment = comment;
  }

  public SqlIdentifier getName() {
    return name;
  }

  /** The column's {@code COMMENT}, or null. */
  public @Nullable String getComment() {
    return comment;
  }

  @Override public SqlOperator getOperator() {
    return OPERATOR;
  }
}
