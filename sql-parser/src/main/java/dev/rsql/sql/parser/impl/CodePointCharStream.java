package dev.rsql.sql.parser.impl;

import org.apache.calcite.util.SourceStringReader;

/**
 * The generated parser's character stream, counting columns in characters as a user sees them: the two UTF-16 units
 * of an emoji (a surrogate pair) are one column, so an error after {@code '🚀'} points where the editor shows it.
 * In the generated parser's package because the parser keeps its stream in a package-private field.
 */
public final class CodePointCharStream extends SimpleCharStream {

  private CodePointCharStream(SourceStringReader reader, int bufferSize) {
    super(reader, 1, 1, bufferSize);
  }

  @Override
  protected void UpdateLineColumn(char c) {
    super.UpdateLineColumn(c);
    if (Character.isLowSurrogate(c) && column > 1) {
      // the high surrogate before it already took this character's column
      column--;
      bufcolumn[bufpos] = column;
    }
  }

  /** A parser over {@code sql} whose positions count characters (code points), not UTF-16 units. */
  public static RsqlParserImpl parser(String sql) {
    final SourceStringReader reader = new SourceStringReader(sql);
    final RsqlParserImpl parser = new RsqlParserImpl(reader);
    parser.setOriginalSql(sql);
    final CodePointCharStream stream = new CodePointCharStream(reader, sql.length());
    parser.jj_input_stream = stream;
    parser.ReInit(new RsqlParserImplTokenManager(stream));
    return parser;
  }
}
