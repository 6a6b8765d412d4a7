package dev.rsql.cli.shell;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts the shell's input into statements at each {@code ;} outside string literals, quoted identifiers and
 * comments. What follows the last {@code ;} is the unfinished rest; a piece of only blanks and comments is no
 * statement.
 */
final class StatementSplitter {

    /** The complete statements and the rest (blank when the input ended with a statement). */
    record Split(List<Statement> statements, String rest, boolean restIsBlank) {
    }

    private StatementSplitter() {
    }

    static Split split(String input) {
        List<Statement> statements = new ArrayList<>();
        int line = 1;
        int column = 1;
        int start = -1;   // index of the first character of the current statement that is not blank or comment
        int startLine = 1;
        int startColumn = 1;
        int pieceStart = 0;
        char quote = 0;   // ' " ` while inside one
        boolean lineComment = false;
        boolean blockComment = false;
        for (int i = 0; i < input.length(); i++) {
            char c = input.charAt(i);
            char next = i + 1 < input.length() ? input.charAt(i + 1) : 0;
            if (lineComment) {
                lineComment = c != '\n';
            } else if (blockComment) {
                if (c == '*' && next == '/') {
                    blockComment = false;
                    i++;
                    column++;
                }
            } else if (quote != 0) {
                if (c == quote) {
                    quote = 0;   // a doubled quote closes and reopens: the same result
                }
            } else if (c == '-' && next == '-') {
                lineComment = true;
            } else if (c == '/' && next == '*') {
                blockComment = true;
                i++;
                column++;
            } else if (c == ';') {
                if (start >= 0) {
                    statements.add(new Statement(input.substring(start, i).stripTrailing(), startLine, startColumn));
                }
                start = -1;
                pieceStart = i + 1;
            } else if (!Character.isWhitespace(c)) {
                if (start < 0) {
                    start = i;
                    startLine = line;
                    startColumn = column;
                }
                if (c == '\'' || c == '"' || c == '`') {
                    quote = c;
                }
            }
            if (c == '\n') {
                line++;
                column = 1;
            } else {
                column++;
            }
        }
        return new Split(statements, input.substring(pieceStart), start < 0 && quote == 0 && !blockComment);
    }

    /** The statement after the last {@code ;} of input that ended without one, or null. */
    static Statement last(String input) {
        Split split = split(input + "\n;");
        Split withoutEnd = split(input);
        return split.statements().size() > withoutEnd.statements().size()
                ? split.statements().get(split.statements().size() - 1) : null;
    }
}
