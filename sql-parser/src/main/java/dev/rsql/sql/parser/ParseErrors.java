package dev.rsql.sql.parser;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.rsql.sql.parser.impl.ParseException;
import dev.rsql.sql.parser.impl.RsqlParserImpl;
import dev.rsql.sql.parser.impl.RsqlParserImplConstants;
import dev.rsql.sql.parser.impl.Token;
import dev.rsql.sql.parser.impl.TokenMgrError;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.Static;
import org.checkerframework.checker.nullness.qual.Nullable;

/** Turns whatever the generated parser throws into an {@link RsqlParseException}. */
final class ParseErrors {

  private static final int MAX_EXPECTED_TOKENS_IN_MESSAGE = 10;

  /** Calcite tokens of other lexical states (BigQuery, SQL Server, ...) than Lex.JAVA's. */
  private static final Set<String> FOREIGN_TOKENS = Set.of(
      "<BIG_QUERY_BACK_QUOTED_IDENTIFIER>", "<BIG_QUERY_DOUBLE_QUOTED_STRING>",
      "<BIG_QUERY_QUOTED_STRING>", "<BRACKET_QUOTED_IDENTIFIER>", "<HYPHENATED_IDENTIFIER>",
      "<QUOTED_IDENTIFIER>");

  /** JavaCC's lexical error text, e.g. {@code Encountered: "#" (35), after : ""}. */
  private static final Pattern LEXICAL_ERROR = Pattern.compile(
      "(?s).*Encountered: (<EOF>|\"(.*)\" \\(\\d+\\)),? after ?: \"(.*)\"");

  /** JavaCC's one-letter escapes in a lexical error's text. */
  private static final Map<Character, Character> ESCAPED =
      Map.of('b', '\b', 't', '\t', 'n', '\n', 'f', '\f', 'r', '\r');

  /** Calcite's error for an expression where a query was expected, e.g. a misspelled SELECT. */
  private static final String NON_QUERY_EXPRESSION =
      Static.RESOURCE.illegalNonQueryExpression().str();

  private ParseErrors() {
  }

  static RsqlParseException from(String sql, RsqlParserImpl parser, Throwable error) {
    // Also strips non-reserved keywords from a ParseException's expected tokens, in place.
    final SqlParseException normalized = parser.normalizeException(error);
    if (error instanceof ParseException && ((ParseException) error).currentToken != null) {
      return syntaxError((ParseException) error);
    }
    final SqlParserPos pos = normalized.getPos() == null ? SqlParserPos.ZERO : normalized.getPos();
    if (error instanceof TokenMgrError) {
      final Matcher m = LEXICAL_ERROR.matcher(String.valueOf(error.getMessage()));
      if (m.matches()) {
        final String character = m.group(2) == null ? null : unescape(m.group(2));
        final String detail = character == null
            ? "unexpected end of input in " + quote(unescape(m.group(3)))
            : "unexpected character " + quote(character) + asciiHint(character);
        return new RsqlParseException(prefix(pos) + detail, pos, character, List.of(), error);
      }
    }
    final String message =
        normalized.getMessage() == null ? error.toString() : normalized.getMessage();
    if (error instanceof CalciteContextException && message.equals(NON_QUERY_EXPRESSION)) {
      final String text = textAt(sql, pos);
      return new RsqlParseException(
          prefix(pos) + "unexpected " + quote(text) + "; expected a query",
          pos, text, List.of(), error);
    }
    return new RsqlParseException(prefix(pos) + message, pos, null, List.of(), error);
  }

  /**
   * JavaCC reports the first token of the longest expected sequence; the offending token is the
   * first one that no expected sequence matches. At the end of the input, the position is just
   * after the last token.
   */
  private static RsqlParseException syntaxError(ParseException e) {
    Token previous = e.currentToken;
    Token offending = previous.next;
    final int[][] sequences =
        e.expectedTokenSequences == null ? new int[0][] : e.expectedTokenSequences;
    List<int[]> alive = new ArrayList<>(Arrays.asList(sequences));
    final Set<Integer> expectedKinds = new TreeSet<>();
    for (int i = 0; ; i++) {
      final int index = i;
      final int kind = offending.kind;
      alive.removeIf(s -> s.length <= index);
      expectedKinds.clear();
      alive.forEach(s -> expectedKinds.add(s[index]));
      final List<int[]> matched = alive.stream().filter(s -> s[index] == kind).toList();
      if (matched.isEmpty() || offending.next == null || kind == RsqlParserImplConstants.EOF) {
        break;
      }
      alive = new ArrayList<>(matched);
      previous = offending;
      offending = offending.next;
    }

    final List<String> expected = expectedNames(expectedKinds, e.tokenImage);
    final boolean atEnd = offending.kind == RsqlParserImplConstants.EOF;
    final SqlParserPos pos = atEnd
        ? endOfInput(previous)
        : new SqlParserPos(offending.beginLine, offending.beginColumn, offending.endLine,
            offending.endColumn);
    final String message = prefix(pos) + "unexpected "
        + (atEnd ? "end of input" : quote(offending.image))
        + expectedSuffix(expected)
        + (atEnd ? "" : reservedWordHint(offending, expected));
    return new RsqlParseException(message, pos, atEnd ? null : offending.image, expected, e);
  }

  /**
   * Where a name could stand but a reserved word does (a column called {@code value} or {@code year}), the way out:
   * back-quotes.
   */
  private static String reservedWordHint(Token offending, List<String> expected) {
    final boolean keyword = offending.kind != RsqlParserImplConstants.IDENTIFIER
        && offending.image.matches("[A-Za-z_][A-Za-z_0-9]*");
    if (!keyword || !expected.contains("<IDENTIFIER>")) {
      return "";
    }
    return " (" + quote(offending.image) + " is a reserved word: write `" + offending.image
        + "` to use it as a name)";
  }

  /** Just after the last token read, or line 1, column 1 if there was none. */
  private static SqlParserPos endOfInput(Token last) {
    return last.endLine == 0
        ? new SqlParserPos(1, 1)
        : new SqlParserPos(last.endLine, last.endColumn + 1);
  }

  /**
   * Expected token names as shown to users: keywords and symbols in quotes, token classes such
   * as {@code <IDENTIFIER>} as they are; tokens our lexical state never produces are left out.
   */
  private static List<String> expectedNames(Set<Integer> kinds, String[] tokenImages) {
    final List<String> names = new ArrayList<>();
    for (int kind : kinds) {
      final String image = tokenImages[kind];
      if (image.length() > 1 && image.startsWith("\"") && image.endsWith("\"")) {
        names.add(quote(image.substring(1, image.length() - 1)));
      } else if (!FOREIGN_TOKENS.contains(image)) {
        names.add(image);
      }
    }
    names.sort(null);
    return names;
  }

  private static String expectedSuffix(List<String> expected) {
    if (expected.isEmpty()) {
      return "";
    }
    final int shown = Math.min(expected.size(), MAX_EXPECTED_TOKENS_IN_MESSAGE);
    return "; expected one of " + String.join(", ", expected.subList(0, shown))
        + (shown < expected.size() ? ", ..." : "");
  }

  /** Undoes JavaCC's escaping of a lexical error's text ({@code \\u98ce} for 风, {@code \\n}, ...). */
  static String unescape(String text) {
    final StringBuilder sb = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      final char c = text.charAt(i);
      if (c != '\\' || i + 1 >= text.length()) {
        sb.append(c);
        continue;
      }
      final char next = text.charAt(++i);
      if (next == 'u' && i + 4 < text.length()) {
        sb.append((char) Integer.parseInt(text.substring(i + 1, i + 5), 16));
        i += 4;
      } else {
        sb.append(ESCAPED.getOrDefault(next, next));
      }
    }
    return sb.toString();
  }

  /**
   * For punctuation a Chinese input method types (full-width comma, brackets, quotes), the ASCII character SQL
   * wants: {@code （} is a common typo for {@code (}.
   */
  private static String asciiHint(String character) {
    if (character.length() != 1) {
      return "";
    }
    final char c = character.charAt(0);
    final String ascii;
    if (c >= '\uFF01' && c <= '\uFF5E') {
      ascii = String.valueOf((char) (c - 0xFEE0));
    } else if (c == '\u2018' || c == '\u2019') {
      ascii = "'";
    } else if (c == '\u201C' || c == '\u201D') {
      ascii = "\"";
    } else if (c == '\u3001') {
      ascii = ",";
    } else if (c == '\u3002') {
      ascii = ".";
    } else {
      return "";
    }
    return " (a full-width character; write '" + ascii + "')";
  }

  private static String prefix(SqlParserPos pos) {
    return "line " + pos.getLineNum() + ", column " + pos.getColumnNum() + ": ";
  }

  /** The source text a one-line position covers, or null. */
  private static @Nullable String textAt(String sql, SqlParserPos pos) {
    if (pos.getLineNum() < 1 || pos.getLineNum() != pos.getEndLineNum()) {
      return null;
    }
    final String[] lines = sql.split("\r\n|\r|\n", -1);
    if (pos.getLineNum() > lines.length) {
      return null;
    }
    final String line = lines[pos.getLineNum() - 1];
    // columns count characters (code points), see CodePointCharStream
    final int characters = line.codePointCount(0, line.length());
    final int begin = pos.getColumnNum() - 1;
    final int end = pos.getEndColumnNum();
    return begin >= 0 && begin < end && end <= characters
        ? line.substring(line.offsetByCodePoints(0, begin), line.offsetByCodePoints(0, end)) : null;
  }

  /** {@code 'text'}; a complete quoted literal or identifier is shown as written. */
  private static String quote(@Nullable String text) {
    if (text == null) {
      return "''";
    }
    final char first = text.isEmpty() ? ' ' : text.charAt(0);
    final boolean quotedToken = text.length() > 1 && (first == '\'' || first == '`' || first == '"')
        && text.charAt(text.length() - 1) == first;
    if (quotedToken) {
      return text;
    }
    return text.indexOf('\'') >= 0 ? '"' + text + '"' : "'" + text + "'";
  }
}
