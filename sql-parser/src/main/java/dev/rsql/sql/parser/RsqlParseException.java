package dev.rsql.sql.parser;

import java.util.List;

import org.apache.calcite.sql.parser.SqlParserPos;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A script or expression that does not parse. Positions are 1-based and relative to the whole
 * text handed to {@link RsqlParser}; the message starts with {@code line L, column C:}.
 */
public final class RsqlParseException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final SqlParserPos position;
  private final @Nullable String token;
  private final List<String> expectedTokens;

  RsqlParseException(String message, SqlParserPos position, @Nullable String token,
      List<String> expectedTokens, @Nullable Throwable cause) {
    super(message, cause);
    this.position = position;
    this.token = token;
    this.expectedTokens = List.copyOf(expectedTokens);
  }

  /** 1-based line of the offending token (0 if unknown). */
  public int line() {
    return position.getLineNum();
  }

  /** 1-based column of the offending token (0 if unknown). */
  public int column() {
    return position.getColumnNum();
  }

  /** Text of the offending token, or null when the error is not about one token (or at the end). */
  public @Nullable String token() {
    return token;
  }

  public SqlParserPos position() {
    return position;
  }

  /** Token names the parser would have accepted at {@link #position()}, sorted; may be empty. */
  public List<String> expectedTokens() {
    return expectedTokens;
  }
}
