package dev.rsql.sql.parser;

import java.util.regex.Pattern;

import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlValidatorException;

/**
 * Plain Java the generated parser calls from {@code parserImpls.ftl}; not an API.
 *
 * <p>Kept out of the grammar because JavaCC's look-ahead methods cannot call parser methods that
 * declare {@code ParseException}.
 */
public final class GrammarSupport {

  private static final Pattern WORD = Pattern.compile("[A-Za-z_][A-Za-z0-9_$]*");

  private GrammarSupport() {
  }

  /**
   * Whether a token is a bare word, keywords included. Blink writes reserved words such as
   * {@code partition} unquoted as WITH option keys and values.
   */
  public static boolean isWord(String tokenImage) {
    return tokenImage != null && WORD.matcher(tokenImage).matches();
  }

  /** A parse error with our own message at a position; {@link RsqlParser} reports it as is. */
  public static CalciteContextException error(SqlParserPos pos, String message) {
    return new CalciteContextException(message, new SqlValidatorException(message, null),
        pos.getLineNum(), pos.getColumnNum(), pos.getEndLineNum(), pos.getEndColumnNum());
  }

  /**
   * The value of {@code StringLiteral()} as one plain character literal: continued fragments
   * joined, the character set dropped (so that unparse writes {@code 'text'} again).
   */
  public static SqlCharStringLiteral charLiteral(SqlNode stringLiteral) {
    final SqlLiteral literal = SqlLiteral.unchain(stringLiteral);
    if (!(literal instanceof SqlCharStringLiteral)) {
      throw error(stringLiteral.getParserPosition(), "character string literal expected");
    }
    return SqlLiteral.createCharString(literal.getValueAs(String.class),
        stringLiteral.getParserPosition());
  }
}
