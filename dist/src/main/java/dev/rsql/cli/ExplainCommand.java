package dev.rsql.cli;

import dev.rsql.planner.PlannedJob;
import dev.rsql.planner.PlannerContext;
import dev.rsql.planner.ScriptPlanner;
import dev.rsql.runtime.config.Options;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.concurrent.Callable;

/**
 * Prints the operator graph a script plans into, then the physical plan of each INSERT with every node's changelog
 * mode ({@code [I]} insert-only, {@code [I,UA,D]} upserts, {@code [I,UB,UA,D]} retractions) and upsert keys.
 */
@Command(name = "explain", mixinStandardHelpOptions = true, exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
                "0:the plan was printed",
                "1:the script is invalid",
                "2:wrong usage (unknown option, missing argument)"},
        description = "Print the operator graph of a script.")
final class ExplainCommand implements Callable<Integer> {

    @ParentCommand
    private RsqlCli cli;

    @Option(names = "--code", description = "Also print the generated Java code of the calc nodes.")
    private boolean code;

    @Option(names = "--plan", description = "Also print the optimised relational plan of each INSERT.")
    private boolean plan;

    @Parameters(index = "0", description = "Script file or job name.")
    private String script;

    @Override
    public Integer call() throws Exception {
        EngineHome home = cli.engineHome();
        ScriptArgument arg = ScriptArgument.resolve(home, script, null);
        PlannerContext context = new PlannerContext(new Options(home.loadConfig()),
                home.extClassLoader(getClass().getClassLoader()), System::getenv);
        try {
            PlannedJob job = new ScriptPlanner(context).plan(arg.jobName, arg.text);
            System.out.print(job.explain());
            if (plan) {
                job.relationalPlans().forEach(p -> System.out.println("\n" + p));
            }
            if (code && job.generatedSource() != null) {
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
