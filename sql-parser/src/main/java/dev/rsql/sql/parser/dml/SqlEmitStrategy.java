package dev.rsql.sql.parser.dml;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One Blink EMIT strategy: {@code {WITH DELAY interval | WITHOUT DELAY}
 * [BEFORE WATERMARK | AFTER WATERMARK]}. Without a position it applies both before and after
 * the watermark.
 */
public final class SqlEmitStrategy extends SqlCall {

  /** When the strategy fires relative to the window's watermark. */
  public enum Position {
    /** Early firing: while the window is still open. */
    BEFORE_WATERMARK,
    /** Late firing: late records update the result. */
    AFTER_WATERMARK,
    /** Both before and after the watermark. */
    UNSPECIFIED
  }

  static final SqlOperator OPERATOR = new SqlSpecialOperator("EMIT STRATEGY", SqlKind.OTHER) {
    @Override public SqlCall createCall(@Nullable SqlLiteral functionQualifier,
        SqlParserPos pos, @Nullable SqlNode... operands) {
      final SqlLiteral position = (SqlLiteral) requireNonNull(operands[1], "position");
      return new SqlEmitStrategy(pos, (SqlIntervalLiteral) operands[0],
          position.symbolValue(Position.class));
    }
  };

  private final @Nullable SqlIntervalLiteral delay;
  private final Position position;

  /**
   * @param delay a day-time interval for {@code WITH DELAY}, null for {@code WITHOUT DELAY}
   */
  public SqlEmitStrategy(SqlParserPos pos, @Nullable SqlIntervalLiteral delay, Position position) {
    super(pos);
    this.delay = delay;
    this.position = requireNonNull(position, "position");
  }

  public boolean isWithoutDelay() {
    return delay == null;
  }

  /** The {@code WITH DELAY} interval; null for {@code WITHOUT DELAY}. */
  public @Nullable SqlIntervalLiteral getDelay() {
    return delay;
  }

  /** The delay in milliseconds; 0 for {@code WITHOUT DELAY}. */
  public long getDelayMillis() {
    return delay == null ? 0L : requireNonNull(delay.getValueAs(Long.class));
  }

  public Position getPosition() {
    return position;
  }

  /** Whether the strategy governs early firing (before the watermark passes the window end). */
  public boolean appliesBeforeWatermark() {
    return position != Position.AFTER_WATERMARK;
  }

  /** Whether the strategy governs late firing (after the watermark passed the window end). */
  public boolean appliesAfterWatermark() {
    return position != Position.BEFORE_WATERMARK;
  }

  @Override public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(delay, SqlLiteral.createSymbol(position, getParserPosition()));
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    if (delay == null) {
      writer.keyword("WITHOUT DELAY");
    } else {
      writer.keyword("WITH DELAY");
      delay.unparse(writer, 0, 0);
    }
    switch (position) {
    case BEFORE_WATERMARK:
      writer.keyword("BEFORE WATERMARK");
      break;
    case AFTER_WATERMARK:
      writer.keyword("AFTER WATERMARK");
      break;
    default:
      break;
    }
  }
}
