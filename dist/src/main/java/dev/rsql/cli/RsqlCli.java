package dev.rsql.cli;

import dev.rsql.runtime.exec.StartupTrace;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;

/** The {@code rsql} command line: check, explain, run and inspect SQL jobs. */
@Command(name = "rsql", mixinStandardHelpOptions = true, version = "rsql 0.1.0",
        description = "A SQL streaming engine with a Blink-compatible dialect.",
        footer = {"%nEvery command takes --help and lists its exit codes; 2 is always wrong usage."},
        subcommands = {CheckCommand.class, ExplainCommand.class, RunCommand.class, StatusCommand.class,
                JobsCommand.class, ResetCommand.class, ServerCommand.class, SubmitCommand.class,
                StopJobCommand.class, ListCommand.class, SqlCommand.class})
public final class RsqlCli {

    /** The commands that plan SQL in this process (a word of the command line, before picocli has parsed it). */
    private static final Set<String> PLANNING_COMMANDS = Set.of("run", "check", "explain", "server", "sql");

    @Option(names = "--home", description = "Installation directory (bin conf jobs ext lib log). "
            + "Default: $RSQL_HOME, else the current directory.")
    private Path home;

    EngineHome engineHome() {
        Path dir = home;
        if (dir == null) {
            String env = System.getenv("RSQL_HOME");
            dir = Path.of(env == null || env.isBlank() ? "." : env);
        }
        return new EngineHome(dir, System::getenv);
    }

    public static void main(String[] args) {
        StartupTrace.mark("main");
        StartupWarmup.start(Arrays.stream(args).anyMatch(PLANNING_COMMANDS::contains));
        CommandLine commandLine = new CommandLine(new RsqlCli());
        StartupTrace.mark("main: command line built");
        StartupWarmup.awaitLogging();
        int code = commandLine.execute(args);
        System.exit(code);
    }
}
