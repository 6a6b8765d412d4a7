package dev.rsql.cli;

import dev.rsql.runtime.exec.StartupTrace;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/** The {@code rsql} command line: check, explain, run and inspect SQL jobs. */
@Command(name = "rsql", mixinStandardHelpOptions = true, version = "rsql 0.1.0",
        description = "A SQL streaming engine with a Blink-compatible dialect.",
        footer = {"%nEvery command takes --help and lists its exit codes; 2 is always wrong usage."},
        subcommands = {CheckCommand.class, ExplainCommand.class, RunCommand.class, StatusCommand.class,
                JobsCommand.class, ResetCommand.class, ServerCommand.class, SubmitCommand.class,
                StopJobCommand.class, ListCommand.class, SqlCommand.class})
public final class RsqlCli {

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
        StartupWarmup.start();
        CommandLine commandLine = new CommandLine(new RsqlCli());
        StartupTrace.mark("main: command line built");
        StartupWarmup.awaitLogging();
        int code = commandLine.execute(args);
        System.exit(code);
    }
}
