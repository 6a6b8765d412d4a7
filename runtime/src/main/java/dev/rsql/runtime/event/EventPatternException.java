package dev.rsql.runtime.event;

/**
 * A malformed event pattern. The message starts with the line and column in the pattern's text ({@code line 1,
 * column 12: ...}), counting characters; {@link #offset} is the UTF-16 index of the same place.
 */
public final class EventPatternException extends IllegalArgumentException {

    private final int line;
    private final int column;
    private final int offset;
    private final String detail;

    EventPatternException(String text, int offset, String detail) {
        this(position(text, offset), offset, detail);
    }

    private EventPatternException(int[] lineColumn, int offset, String detail) {
        super("line " + lineColumn[0] + ", column " + lineColumn[1] + ": " + detail);
        this.line = lineColumn[0];
        this.column = lineColumn[1];
        this.offset = offset;
        this.detail = detail;
    }

    private static int[] position(String text, int offset) {
        int line = 1;
        int lineStart = 0;
        int end = Math.min(offset, text.length());
        for (int i = 0; i < end; i++) {
            if (text.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        return new int[] {line, text.codePointCount(lineStart, end) + 1};
    }

    /** 1-based line in the pattern's text. */
    public int line() {
        return line;
    }

    /** 1-based column in the pattern's text, in characters. */
    public int column() {
        return column;
    }

    public int offset() {
        return offset;
    }

    /** The message without the position. */
    public String detail() {
        return detail;
    }
}
