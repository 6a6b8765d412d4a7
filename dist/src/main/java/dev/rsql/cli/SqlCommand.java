package dev.rsql.cli;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.joran.spi.JoranException;
import dev.rsql.cli.shell.ScriptShell;
import dev.rsql.cli.shell.TerminalShell;
import org.slf4j.LoggerFactory;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The SQL shell: declare tables and views, run a SELECT and watch its rows change (see
 * {@link dev.rsql.cli.shell.SqlShell}); interactive on a terminal, else it runs the statements of {@code -f} or
 * stdin. The engine's log goes to {@code log/sql-shell.log}, not to the terminal.
 */
final class SqlCommand implements CliCommand {

    private static final CliOption FILE = new CliOption(List.of("-f", "--file"), CliOption.Kind.VALUE, "FILE",
            "Run the statements of this file, then end.");
    private static final CliOption MAX_ROWS = CliOption.value("--max-rows", "N", "End each SELECT after this many"
            + " changes (for scripts over unbounded sources). Default: no limit, a SELECT runs until its input ends"
            + " or Ctrl-C.");
    private static final CliOption HISTORY = CliOption.value("--history", "FILE",
            "History file of the interactive shell (default: ~/.rsql_history).");

    @Override
    public CommandUsage usage() {
        return CommandUsage.of("sql", "Interactive SQL shell: a SELECT runs at once and shows its rows as they"
                + " change.", List.of(FILE, MAX_ROWS, HISTORY, SettingsOption.OPTION), null,
                "0:the shell ended (QUIT, Ctrl-D, end of the input) and no statement of a script failed",
                "1:a statement of a script (-f or stdin) failed",
                "2:wrong usage (unknown option, missing argument, no such -f file)",
                "130:interrupted (SIGINT) while reading a script, no query running");
    }

    @Override
    public int run(EngineHome home, CommandArgs args) throws Exception {
        long maxRows = args.longValue(MAX_ROWS, 0);
        String fileName = args.value(FILE);
        Path file = fileName == null ? null : Path.of(fileName);
        Map<String, String> config = SettingsOption.over(home, args);
        logToFile(Path.of(config.get("log.dir")).resolve("sql-shell.log"));
        ClassLoader classLoader = home.extClassLoader(getClass().getClassLoader());
        if (file != null) {
            if (!Files.isReadable(file)) {
                System.err.println("ERROR  cannot read " + file);
                return 2;
            }
            try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                return ScriptShell.run(in, stdout(), config, classLoader, maxRows);
            }
        }
        if (System.console() == null) {
            return ScriptShell.run(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)),
                    stdout(), config, classLoader, maxRows);
        }
        String history = args.value(HISTORY);
        Path historyFile = history != null ? Path.of(history)
                : Path.of(System.getProperty("user.home"), ".rsql_history");
        return TerminalShell.run(config, classLoader, historyFile, maxRows);
    }

    private static PrintWriter stdout() {
        return new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
    }

    /** Sends the engine's log lines to {@code file}: the terminal shows results only. */
    private static void logToFile(Path file) throws Exception {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext)) {
            return;
        }
        Files.createDirectories(file.getParent());
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        context.reset();
        context.putProperty("rsql.shell.log", file.toString());
        JoranConfigurator configurator = new JoranConfigurator();
        configurator.setContext(context);
        try {
            configurator.doConfigure(SqlCommand.class.getResource("/shell-logback.xml"));
        } catch (JoranException e) {
            System.err.println("rsql: cannot configure the shell's log: " + e.getMessage());
        }
    }
}
