package dev.rsql.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

import java.util.concurrent.Callable;

/** Lists the jobs under jobs/, one name per line (used by bin/start.sh). */
@Command(name = "jobs", mixinStandardHelpOptions = true, exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
                "0:jobs listed",
                "2:wrong usage (unknown option, missing argument)"},
        description = "List the jobs under jobs/.")
final class JobsCommand implements Callable<Integer> {

    @ParentCommand
    private RsqlCli cli;

    @Override
    public Integer call() throws Exception {
        cli.engineHome().jobNames().forEach(System.out::println);
        return 0;
    }
}
