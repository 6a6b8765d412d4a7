package dev.rsql.sql.parser.ddl;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * {@code WATERMARK [name] FOR column AS strategy}. Blink names it optionally and writes the
 * strategy as {@code withOffset(column, millis)}; Flink writes any expression, typically
 * {@code column - INTERVAL '5' SECOND}. The strategy is kept as parsed.
 */
public final class SqlWatermark extends SqlCall {

  private static final SqlOperator OPERATOR = new DdlOperator("WATERMARK", SqlKind.OTHER);

  private final @Nullable SqlIdentifier name;
  private final SqlIdentifier eventTimeColumn;
  private final SqlNode strategy;

  public SqlWatermark(SqlParserPos pos, @Nullable SqlIdentifier name,
      SqlIdentifier eventTimeColumn, SqlNode strategy) {
    super(pos);
    this.name = name;
    this.eventTimeColumn = requireNonNull(eventTimeColumn, "eventTimeColumn");
    this.strategy = requireNonNull(strategy, "strategy");
  }

  /** Blink's watermark name, or null. */
  public @Nullable SqlIdentifier getName() {
    return name;
  }

  public SqlIdentifier getEventTimeColumn() {
    return eventTimeColumn;
  }

  /** The expression after {@code AS}. */
  public SqlNode getStrategy() {
    return strategy;
  }

  @Override public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(name, eventTimeColumn, strategy);
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("WATERMARK");
    if (name != null) {
      name.unparse(writer, 0, 0);
    }
    writer.keyword("FOR");
    eventTimeColumn.unparse(writer, 0, 0);
    writer.keyword("AS");
    strategy.unparse(writer, 0, 0);
  }
}
