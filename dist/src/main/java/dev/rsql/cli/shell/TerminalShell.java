package dev.rsql.cli.shell;

import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code rsql sql} on a terminal: JLine's line editing, a history file, statements over several lines until
 * {@code ;}, Ctrl-C ending the running query (or the line being typed), Ctrl-D or QUIT ending the shell.
 */
public final class TerminalShell {

    private static final String PROMPT = "rsql> ";

    private TerminalShell() {
    }

    /** Runs the shell until QUIT or Ctrl-D; returns the exit code. */
    public static int run(Map<String, String> config, ClassLoader classLoader, Path history, long maxRows)
            throws IOException {
        // the shell decides what Ctrl-C does: while a query runs, it ends it
        try (Terminal terminal = TerminalBuilder.builder().system(true).nativeSignals(true)
                .signalHandler(Terminal.SignalHandler.SIG_IGN).build()) {
            SqlShell shell = new SqlShell(config, classLoader, terminal.writer(), terminal, maxRows);
            terminal.handle(Terminal.Signal.INT, signal -> shell.interrupt());
            LineReader reader = LineReaderBuilder.builder().appName("rsql").terminal(terminal)
                    .parser(new StatementLineParser())
                    .variable(LineReader.HISTORY_FILE, history)
                    .variable(LineReader.SECONDARY_PROMPT_PATTERN, "    -> ")
                    .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
                    .build();
            terminal.writer().println("rsql SQL shell. Statements end with ';'. HELP; lists them, QUIT; or Ctrl-D"
                    + " ends the shell.");
            try {
                while (true) {
                    String line;
                    try {
                        line = reader.readLine(PROMPT);
                    } catch (UserInterruptException e) {
                        continue;
                    } catch (EndOfFileException e) {
                        return 0;
                    }
                    for (Statement statement : statements(line)) {
                        if (!shell.execute(statement)) {
                            return 0;
                        }
                    }
                }
            } finally {
                reader.getHistory().save();
            }
        }
    }

    /** The statements of an accepted line: those ended by ';' and a last one without (QUIT, HELP). */
    private static List<Statement> statements(String line) {
        List<Statement> statements = new ArrayList<>(StatementSplitter.split(line).statements());
        Statement last = StatementSplitter.last(line);
        if (last != null) {
            statements.add(last);
        }
        return statements;
    }
}
