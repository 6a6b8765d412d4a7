package dev.rsql.cli;

import dev.rsql.planner.PlannedJob;
import dev.rsql.planner.PlannerContext;
import dev.rsql.planner.ScriptPlanner;
import dev.rsql.runtime.config.Options;

import java.io.IOException;
import java.util.List;

/**
 * Prints the operator graph a script plans into, then the physical plan of each INSERT with every node's changelog
 * mode ({@code [I]} insert-only, {@code [I,UA,D]} upserts, {@code [I,UB,UA,D]} retractions) and upsert keys.
 */
final class ExplainCommand implements CliCommand {

    private static final CliOption CODE = CliOption.flag("--code",
            "Also print the generated Java code of the calc nodes.");
    private static final CliOption PLAN = CliOption.flag("--plan",
            "Also print the optimised relational plan of each INSERT.");

    @Override
    public CommandUsage usage() {
        return CommandUsage.of("explain", "Print the operator graph of a script.", List.of(CODE, PLAN),
                ScriptOptions.SCRIPT,
                "0:the plan was printed",
                "1:the script is invalid",
                "2:wrong usage (unknown option, missing argument)");
    }

    @Override
    public int run(EngineHome home, CommandArgs args) throws IOException {
        ScriptArgument arg = ScriptArgument.resolve(home, args.parameter(), null);
        PlannerContext context = new PlannerContext(new Options(home.loadConfig()),
                home.extClassLoader(getClass().getClassLoader()), System::getenv);
        try {
            String sql = arg.text();
            PlannedJob job = new ScriptPlanner(context).plan(arg.jobName, sql);
            if (arg.isRuleFile()) {
                System.out.println("Equivalent SQL\n" + sql);
            }
            System.out.print(job.explain());
            if (args.has(PLAN)) {
                job.relationalPlans().forEach(p -> System.out.println("\n" + p));
            }
            if (args.has(CODE) && job.generatedSource() != null) {
                System.out.println();
                System.out.println(job.generatedSource());
            }
            return 0;
        } catch (RuntimeException e) {
            System.err.println("ERROR  " + arg.file + ": " + e.getMessage());
            return 1;
        }
    }
}
