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

/** Blink's {@code EMIT strategy [, strategy]*} at the end of an INSERT's query. */
public final class SqlEmit extends SqlCall {

  static final SqlOperator OPERATOR = new SqlSpecialOperator("EMIT", SqlKind.OTHER) {
    @Override public SqlCall createCall(@Nullable SqlLiteral functionQualifier,
        SqlParserPos pos, @Nullable SqlNode... operands) {
      final List<SqlEmitStrategy> strategies = new ArrayList<>();
      ((SqlNodeList) operands[0]).forEach(s -> strategies.add((SqlEmitStrategy) s));
      return new SqlEmit(pos, strategies);
    }
  };

  private final List<SqlEmitStrategy> strategies;

  public SqlEmit(SqlParserPos pos, List<SqlEmitStrategy> strategies) {
    super(pos);
    if (strategies.isEmpty()) {
      throw new IllegalArgumentException("EMIT needs at least one strategy");
    }
    this.strategies = List.copyOf(strategies);
  }

  public List<SqlEmitStrategy> getStrategies() {
    return strategies;
  }

  @Override public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override public List<SqlNode> getOperandList() {
    return List.of(new SqlNodeList(strategies, getParserPosition()));
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("EMIT");
    final SqlWriter.Frame frame = writer.startList("", "");
    for (SqlEmitStrategy strategy : strategies) {
      writer.sep(",");
      strategy.unparse(writer, 0, 0);
    }
    writer.endList(frame);
  }
}
