package dev.rsql.sql.parser.ddl;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/** Blink's dimension-table lookup index: {@code [UNIQUE] INDEX (cols)}. */
public final class SqlTableIndex extends SqlCall {

  private static final SqlOperator OPERATOR = new DdlOperator("INDEX", SqlKind.OTHER);

  private final boolean unique;
  private final SqlNodeList columns;

  public SqlTableIndex(SqlParserPos pos, boolean unique, SqlNodeList columns) {
    super(pos);
    this.unique = unique;
    this.columns = requireNonNull(columns, "columns");
  }

  public boolean isUnique() {
    return unique;
  }

  public SqlNodeList getColumns() {
    return columns;
  }

  public List<String> getColumnNames() {
    return columns.stream().map(c -> ((SqlIdentifier) c).getSimple()).toList();
  }

  @Override public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override public List<SqlNode> getOperandList() {
    return List.of(columns);
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword(unique ? "UNIQUE INDEX" : "INDEX");
    Unparsing.parenthesizedList(writer, columns.getList());
  }
}
