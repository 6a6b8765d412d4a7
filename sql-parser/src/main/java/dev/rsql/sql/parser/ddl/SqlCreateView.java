package dev.rsql.sql.parser.ddl;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.sql.SqlCreate;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@code CREATE [OR REPLACE] [TEMPORARY] VIEW [IF NOT EXISTS] name [(cols)] [COMMENT 'c']
 * AS query}.
 */
public final class SqlCreateView extends SqlCreate {

  private static final SqlOperator OPERATOR =
      new DdlOperator("CREATE VIEW", SqlKind.CREATE_VIEW);

  private final SqlIdentifier name;
  private final SqlNodeList columnList;
  private final SqlNode query;
  private final boolean temporary;
  private final @Nullable String comment;

  public SqlCreateView(SqlParserPos pos, SqlIdentifier name, SqlNodeList columnList,
      SqlNode query, boolean replace, boolean temporary, boolean ifNotExists,
      @Nullable String comment) {
    super(OPERATOR, pos, replace, ifNotExists);
    this.name = requireNonNull(name, "name");
    this.columnList = requireNonNull(columnList, "columnList");
    this.query = requireNonNull(query, "query");
    this.temporary = temporary;
    this.comment = comment;
  }

  public SqlIdentifier getName() {
    return name;
  }

  /** The declared column names; empty if none were declared. */
  public SqlNodeList getColumnList() {
    return columnList;
  }

  public SqlNode getQuery() {
    return query;
  }

  public boolean isTemporary() {
    return temporary;
  }

  public boolean isIfNotExists() {
    return ifNotExists;
  }

  public boolean isReplace() {
    return getReplace();
  }

  public @Nullable String getComment() {
    return comment;
  }

  @Override public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override public List<SqlNode> getOperandList() {
    return List.of(name, columnList, query);
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("CREATE");
    if (getReplace()) {
      writer.keyword("OR REPLACE");
    }
    if (temporary) {
      writer.keyword("TEMPORARY");
    }
    writer.keyword("VIEW");
    if (ifNotExists) {
      writer.keyword("IF NOT EXISTS");
    }
    name.unparse(writer, 0, 0);
    if (!columnList.isEmpty()) {
      Unparsing.parenthesizedList(writer, columnList.getList());
    }
    Unparsing.comment(writer, comment);
    writer.keyword("AS");
    writer.newlineAndIndent();
    query.unparse(writer, 0, 0);
  }
}
