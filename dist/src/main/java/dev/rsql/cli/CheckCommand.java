package dev.rsql.cli;

import dev.rsql.planner.PlannedJob;
import dev.rsql.planner.PlannerContext;
import dev.rsql.planner.ScriptPlanner;
import dev.rsql.runtime.config.Options;
import dev.rsql.sql.parser.RsqlParser;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** Parses (and by default validates and plans) scripts without running them. */
@Command(name = "check", mixinStandardHelpOptions = true, exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
                "0:every script is valid",
                "1:a script is invalid (each is listed with its error)",
                "2:wrong usage (unknown option, missing argument)"},
        description = "Check scripts: parse them, and unless --parse-only also validate and plan them.")
final class CheckCommand implements Callable<Integer> {

    @ParentCommand
    private RsqlCli cli;

    @Option(names = "--parse-only", description = "Only check the syntax.")
    private boolean parseOnly;

    @Parameters(description = "Script files or job names (default: every job under jobs/).")
    private List<String> scripts = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        EngineHome home = cli.engineHome();
        List<String> targets = scripts.isEmpty() ? home.jobNames() : scripts;
        PlannerContext context = new PlannerContext(new Options(home.loadConfig()),
                home.extClassLoader(getClass().getClassLoader()), System::getenv);
        int failures = 0;
        for (String target : targets) {
            ScriptArgument script = ScriptArgument.resolve(home, target, null);
            try {
                if (parseOnly) {
                    RsqlParser.parseScript(script.text);
                    System.out.println("OK     " + script.file);
                } else {
                    PlannedJob job = new ScriptPlanner(context).plan(script.jobName, script.text);
                    System.out.println("OK     " + script.file);
                    job.warnings().forEach(w -> System.out.println("WARN   " + script.file + ": " + w));
                }
            } catch (RuntimeException e) {
                failures++;
                System.out.println("ERROR  " + script.file + ": " + e.getMessage());
            }
        }
        return failures == 0 ? 0 : 1;
    }
}
