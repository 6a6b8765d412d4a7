package dev.rsql.sql.parser.dml;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlInsert;
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
 * Every INSERT the parser produces: Calcite's {@link SqlInsert} (column list, table hints such
 * as {@code /*+ OPTIONS(...) *}{@code /}, UPSERT) plus {@code INSERT OVERWRITE} and Blink's EMIT
 * clause.
 *
 * <p>The EMIT clause and the OVERWRITE flag are operands too, so that copies made through
 * {@link #getOperator()} (e.g. by a {@code SqlShuttle}) keep them.
 */
public final class SqlRichInsert extends SqlInsert {

  public static final SqlOperator OPERATOR = new SqlSpecialOperator("INSERT", SqlKind.INSERT) {
    @Override public SqlCall createCall(@Nullable SqlLiteral functionQualifier,
        SqlParserPos pos, @Nullable SqlNode... operands) {
      final boolean overwrite = operands.length > 5 && operands[5] != null
          && ((SqlLiteral) operands[5]).booleanValue();
      return new SqlRichInsert(pos, (SqlNodeList) requireNonNull(operands[0], "keywords"),
          requireNonNull(operands[1], "targetTable"), requireNonNull(operands[2], "source"),
          (SqlNodeList) operands[3], operands.length > 4 ? (SqlEmit) operands[4] : null,
          overwrite);
    }
  };

  private @Nullable SqlEmit emit;
  private boolean overwrite;

  public SqlRichInsert(SqlParserPos pos, SqlNodeList keywords, SqlNode targetTable,
      SqlNode source, @Nullable SqlNodeList columnList, @Nullable SqlEmit emit,
      boolean overwrite) {
    super(pos, keywords, targetTable, source, columnList);
    this.emit = emit;
    this.overwrite = overwrite;
  }

  /** The EMIT clause, or null if the INSERT has none. */
  public @Nullable SqlEmit getEmit() {
    return emit;
  }

  /** Whether this is {@code INSERT OVERWRITE} rather than {@code INSERT INTO}. */
  public boolean isOverwrite() {
    return overwrite;
  }

  @Override public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override public List<SqlNode> getOperandList() {
    final List<SqlNode> operands = new ArrayList<>(super.getOperandList());
    operands.add(emit);
    operands.add(SqlLiteral.createBoolean(overwrite, SqlParserPos.ZERO));
    return Collections.unmodifiableList(operands);
  }

  @Override public void setOperand(int i, @Nullable SqlNode operand) {
    switch (i) {
    case 4:
      emit = (SqlEmit) operand;
      break;
    case 5:
      overwrite = operand != null && ((SqlLiteral) operand).booleanValue();
      break;
    default:
      super.setOperand(i, operand);
    }
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    final SqlWriter.Frame frame = writer.startList(SqlWriter.FrameTypeEnum.SELECT);
    writer.sep(overwrite ? "INSERT OVERWRITE" : isUpsert() ? "UPSERT INTO" : "INSERT INTO");
    final int opLeft = getOperator().getLeftPrec();
    final int opRight = getOperator().getRightPrec();
    getTargetTable().unparse(writer, opLeft, opRight);
    final SqlNodeList columnList = getTargetColumnList();
    if (columnList != null) {
      columnList.unparse(writer, opLeft, opRight);
    }
    writer.newlineAndIndent();
    getSource().unparse(writer, 0, 0);
    if (emit != null) {
      writer.newlineAndIndent();
      emit.unparse(writer, 0, 0);
    }
    writer.endList(frame);
  }
}
