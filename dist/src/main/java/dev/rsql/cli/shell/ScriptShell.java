package dev.rsql.cli.shell;

import org.jline.utils.Signals;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Map;

/**
 * {@code rsql sql -f script.sql}, or statements on stdin when it is not a terminal: each statement is echoed and run
 * as soon as its {@code ;} is read (a last one may lack it), with results printed to stdout; the shell ends at the
 * end of the input. SIGINT ends the running query (the script goes on), or the shell when no query runs. An error's
 * line and column are those in the input.
 */
public final class ScriptShell {

    private ScriptShell() {
    }

    /** Runs every statement of {@code in}; returns 0, or 1 when any failed. */
    public static int run(BufferedReader in, PrintWriter out, Map<String, String> config, ClassLoader classLoader,
                          long maxRows) throws IOException {
        SqlShell shell = new SqlShell(config, classLoader, out, null, maxRows);
        Signals.register("INT", () -> {
            if (!shell.interrupt()) {
                out.flush();
                System.exit(130);
            }
        });
        String pending = "";
        int line = 1;      // where pending starts in the input
        int column = 1;
        String read;
        while ((read = in.readLine()) != null) {
            pending += read + "\n";
            StatementSplitter.Split split = StatementSplitter.split(pending);
            for (Statement s : split.statements()) {
                if (!execute(shell, out, shifted(s, line, column))) {
                    return exitCode(shell);
                }
            }
            if (!split.statements().isEmpty()) {
                String consumed = pending.substring(0, pending.length() - split.rest().length());
                int breaks = (int) consumed.chars().filter(c -> c == '\n').count();
                column = breaks == 0 ? column + consumed.length() : consumed.length() - consumed.lastIndexOf('\n');
                line += breaks;
                pending = split.rest();
            }
        }
        Statement last = StatementSplitter.last(pending);
        if (last != null) {
            execute(shell, out, shifted(last, line, column));
        } else if (!StatementSplitter.split(pending).restIsBlank()) {
            out.println("[ERROR] the input ended inside a quoted string or a comment");
            return 1;
        }
        return exitCode(shell);
    }

    private static boolean execute(SqlShell shell, PrintWriter out, Statement s) {
        out.println("rsql> " + s.text() + ";");
        out.flush();
        return shell.execute(s);
    }

    /** A statement's position in pending made a position in the input, pending starting at line:column. */
    private static Statement shifted(Statement s, int line, int column) {
        return new Statement(s.text(), s.line() + line - 1, s.line() == 1 ? s.column() + column - 1 : s.column());
    }

    private static int exitCode(SqlShell shell) {
        return shell.failures() == 0 ? 0 : 1;
    }
}
