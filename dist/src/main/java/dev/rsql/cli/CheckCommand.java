package dev.rsql.cli;

import dev.rsql.planner.PlannedJob;
import dev.rsql.planner.PlannerContext;
import dev.rsql.planner.ScriptPlanner;
import dev.rsql.runtime.config.Options;
import dev.rsql.sql.parser.RsqlParser;

import java.io.IOException;
import java.util.List;

/** Parses (and by default validates and plans) scripts without running them. */
final class CheckCommand implements CliCommand {

    private static final CliOption PARSE_ONLY = CliOption.flag("--parse-only", "Only check the syntax.");

    @Override
    public CommandUsage usage() {
        return CommandUsage.of("check", "Check scripts: parse them, and unless --parse-only also validate and plan"
                + " them.", List.of(PARSE_ONLY),
                CliParameter.any("SCRIPT", "Script files or job names (default: every job under jobs/)."),
                "0:every script is valid",
                "1:a script is invalid (each is listed with its error)",
                "2:wrong usage (unknown option, missing argument)");
    }

    @Override
    public int run(EngineHome home, CommandArgs args) throws IOException {
        List<String> targets = args.parameters().isEmpty() ? home.jobNames() : args.parameters();
        PlannerContext context = new PlannerContext(new Options(home.loadConfig()),
                home.extClassLoader(getClass().getClassLoader()), System::getenv);
        int failures = 0;
        for (String target : targets) {
            ScriptArgument script = ScriptArgument.resolve(home, target, null);
            try {
                if (args.has(PARSE_ONLY)) {
                    RsqlParser.parseScript(script.text());
                    System.out.println("OK     " + script.file);
                } else {
                    PlannedJob job = new ScriptPlanner(context).plan(script.jobName, script.text());
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
