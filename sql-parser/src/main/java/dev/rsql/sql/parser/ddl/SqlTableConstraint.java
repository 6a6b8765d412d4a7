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
import org.apache.calcite.util.ImmutableNullableList;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@code [CONSTRAINT name] PRIMARY KEY (cols) [[NOT] ENFORCED]} or {@code ... UNIQUE (cols) ...},
 * declared on the table or (primary key only) on a column.
 */
public final class SqlTableConstraint extends SqlCall {

  private static final SqlOperator PRIMARY_KEY =
      new DdlOperator("PRIMARY KEY", SqlKind.PRIMARY_KEY);
  private static final SqlOperator UNIQUE = new DdlOperator("UNIQUE", SqlKind.UNIQUE);

  private final @Nullable SqlIdentifier name;
  private final boolean primaryKey;
  private final SqlNodeList columns;
  private final @Nullable Boolean enforced;

  /**
   * @param enforced true for {@code ENFORCED}, false for {@code NOT ENFORCED}, null if neither
   *     was written (Blink never writes it; the planner treats such a key as not enforced)
   */
  public SqlTableConstraint(SqlParserPos pos, @Nullable SqlIdentifier name, boolean primaryKey,
      SqlNodeList columns, @Nullable Boolean enforced) {
    super(pos);
    this.name = name;
    this.primaryKey = primaryKey;
    this.columns = requireNonNull(columns, "columns");
    this.enforced = enforced;
  }

  /** The {@code CONSTRAINT} name, or null. */
  public @Nullable String getName() {
    return name == null ? null : name.getSimple();
  }

  public boolean isPrimaryKey() {
    return primaryKey;
  }

  public boolean isUnique() {
    return !primaryKey;
  }

  public SqlNodeList getColumns() {
    return columns;
  }

  public List<String> getColumnNames() {
    return columns.stream().map(c -> ((SqlIdentifier) c).getSimple()).toList();
  }

  /** True for {@code ENFORCED}, false for {@code NOT ENFORCED}, null when neither was written. */
  public @Nullable Boolean getEnforced() {
    return enforced;
  }

  @Override public SqlOperator getOperator() {
    return primaryKey ? PRIMARY_KEY : UNIQUE;
  }

  @Override public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(name, columns);
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    if (name != null) {
      writer.keyword("CONSTRAINT");
      name.unparse(writer, 0, 0);
    }
    writer.keyword(primaryKey ? "PRIMARY KEY" : "UNIQUE");
    Unparsing.parenthesizedList(writer, columns.getList());
    if (enforced != null) {
      writer.keyword(enforced ? "ENFORCED" : "NOT ENFORCED");
    }
  }
}
