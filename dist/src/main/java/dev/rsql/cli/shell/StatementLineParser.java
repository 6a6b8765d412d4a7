package dev.rsql.cli.shell;

import org.jline.reader.EOFError;
import org.jline.reader.ParsedLine;
import org.jline.reader.Parser;
import org.jline.reader.impl.DefaultParser;

import java.util.regex.Pattern;

/**
 * Tells the line reader when the input is complete: Enter on a statement not ended by {@code ;} (outside quotes and
 * comments) continues it on the next line, as in Flink's SQL client; QUIT, EXIT and HELP need no {@code ;}.
 */
final class StatementLineParser implements Parser {

    private static final Pattern WITHOUT_SEMICOLON = Pattern.compile("(?i)\\s*(quit|exit|help)\\s*");

    private final DefaultParser words = new DefaultParser();

    @Override
    public ParsedLine parse(String line, int cursor, ParseContext context) {
        if (context == ParseContext.ACCEPT_LINE && !complete(line)) {
            throw new EOFError(-1, cursor, "the statement is not ended by ;");
        }
        return words.parse(line, cursor, context);
    }

    static boolean complete(String input) {
        StatementSplitter.Split split = StatementSplitter.split(input);
        return split.restIsBlank() || WITHOUT_SEMICOLON.matcher(split.rest()).matches();
    }
}
