package dev.rsql.cli;

import dev.rsql.runtime.exec.StartupTrace;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code rsql} command line: check, explain, run and inspect SQL jobs.
 *
 * <p>Its arguments are read by {@link CommandArgs} rather than a library such as picocli, whose start (about 200 ms
 * of CPU: its classes are too old a class file version for the class-data-sharing archive, and it reads every
 * command's annotations by reflection) was on the critical path of every job's start.
 */
public final class RsqlCli {

    /** The commands that plan SQL in this process (a word of the command line, before it is parsed). */
    private static final Set<String> PLANNING_COMMANDS = Set.of("run", "check", "explain", "server", "sql");
    private static final CliOption HOME = CliOption.value("--home", "DIR", "Installation directory (bin conf jobs"
            + " ext lib log). Default: $RSQL_HOME, else the current directory.");

    private RsqlCli() {
    }

    /**
     * The commands by name. Built per call, not when the class is loaded: a command's class gets a logger when it is
     * loaded, which configures logging on this thread unless {@link StartupWarmup} already has.
     */
    private static Map<String, CliCommand> commands() {
        Map<String, CliCommand> byName = new LinkedHashMap<>();
        for (CliCommand c : List.of(new CheckCommand(), new ExplainCommand(), new RunCommand(), new StatusCommand(),
                new JobsCommand(), new ResetCommand(), new ServerCommand(), new SubmitCommand(), new StopJobCommand(),
                new ListCommand(), new SqlCommand())) {
            byName.put(c.usage().command(), c);
        }
        return byName;
    }

    public static void main(String[] args) {
        StartupTrace.mark("main");
        StartupWarmup.start(Arrays.stream(args).anyMatch(PLANNING_COMMANDS::contains));
        StartupWarmup.awaitLogging();
        System.exit(execute(args));
    }

    /**
     * Runs the command {@code args} name; its exit code. Help goes to stdout; wrong usage is reported on stderr with
     * the command's help, and exits with 2.
     */
    public static int execute(String... args) {
        Map<String, CliCommand> commands = commands();
        CommandUsage usage = new CommandUsage("rsql", "A SQL streaming engine with a Blink-compatible dialect.",
                List.of(HOME), null, List.of(), commands.values().stream().map(CliCommand::usage).toList(),
                "Every command takes --help and lists its exit codes; 2 is always wrong usage.");
        try {
            CommandArgs top = CommandArgs.parse(usage, List.of(args));
            if (top.has(CommandUsage.HELP) || top.has(CommandUsage.VERSION)) {
                return helpOrVersion(usage, top);
            }
            if (top.rest().isEmpty()) {
                throw new UsageException("Missing required command");
            }
            CliCommand command = commands.get(top.rest().get(0));
            if (command == null) {
                throw new UsageException("Unknown command: '" + top.rest().get(0) + "'");
            }
            usage = command.usage();
            CommandArgs parsed = CommandArgs.parse(usage, top.rest().subList(1, top.rest().size()));
            if (parsed.has(CommandUsage.HELP) || parsed.has(CommandUsage.VERSION)) {
                return helpOrVersion(usage, parsed);
            }
            return command.run(engineHome(top.value(HOME)), parsed);
        } catch (UsageException e) {
            System.err.println(e.getMessage());
            System.err.print(usage.help());
            return 2;
        } catch (Exception e) {
            System.err.println("ERROR  " + usage.name() + " failed:");
            e.printStackTrace();
            return 1;
        }
    }

    private static int helpOrVersion(CommandUsage usage, CommandArgs args) {
        System.out.print(args.has(CommandUsage.HELP) ? usage.help() : CommandUsage.VERSION_TEXT + "\n");
        System.out.flush();
        return 0;
    }

    private static EngineHome engineHome(String home) {
        String dir = home;
        if (dir == null) {
            String env = System.getenv("RSQL_HOME");
            dir = env == null || env.isBlank() ? "." : env;
        }
        return new EngineHome(Path.of(dir), System::getenv);
    }
}
