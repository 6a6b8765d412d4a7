package dev.rsql.cli.shell;

/**
 * One statement of the shell's input, without its {@code ;}, and where it starts in that input (1-based), so that
 * an error names the line and column the user typed.
 */
record Statement(String text, int line, int column) {

    /**
     * The text for the parser: preceded by as many line breaks and spaces as the input had before the statement,
     * so positions in errors are positions in the input.
     */
    String positioned() {
        return "\n".repeat(line - 1) + " ".repeat(column - 1) + text;
    }

    /** The part of the statement from {@code offset} on (e.g. the query of an EXPLAIN), with its own position. */
    Statement from(int offset) {
        int l = line;
        int c = column;
        for (int i = 0; i < offset; i++) {
            if (text.charAt(i) == '\n') {
                l++;
                c = 1;
            } else {
                c++;
            }
        }
        return new Statement(text.substring(offset), l, c);
    }
}
