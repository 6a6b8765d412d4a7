package dev.rsql.sql.parser.dml;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * INSERTs that run as one job: Flink's {@code EXECUTE STATEMENT SET BEGIN ...; END} and the SQL
 * client's {@code BEGIN STATEMENT SET; ...; END;}. Written back in the EXECUTE form.
 */
public final class SqlStatementSet extends SqlCall {

  static final SqlOperator OPERATOR = new SqlSpecialOperator("STATEMENT SET", SqlKind.OTHER) {
    @Override public SqlCall createCall(@Nullable SqlLiteral functionQualifier,
        SqlParserPos pos, @Nullable SqlNode... operands) {
      final List<SqlRichInsert> inserts = new ArrayList<>();
      ((SqlNodeList) operands[0]).forEach(i -> inserts.add((SqlRichInsert) i));
      return new SqlStatementSet(pos, inserts);
    }
  };

  private final List<SqlRichInsert> inserts;

  public SqlStatementSet(SqlParserPos pos, List<SqlRichInsert> inserts) {
    super(pos);
    if (inserts.isEmpty()) {
      throw new IllegalArgumentException("a statement set needs at least one INSERT");
    }
    this.inserts = List.copyOf(inserts);
  }

  public List<SqlRichInsert> getInserts() {
    return inserts;
  }

  @Override public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override public List<SqlNode> getOperandList() {
    return List.of(new SqlNodeList(inserts, getParserPosition()));
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("EXECUTE STATEMENT SET BEGIN");
    for (SqlRichInsert insert : inserts) {
      writer.newlineAndIndent();
      insert.unparse(writer, 0, 0);
      writer.print(";");
    }
    writer.newlineAndIndent();
    writer.keyword("END");
  }
}
