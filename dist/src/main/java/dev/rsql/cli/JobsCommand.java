package dev.rsql.cli;

import java.io.IOException;
import java.util.List;

/** Lists the jobs under jobs/, one name per line (used by bin/start.sh). */
final class JobsCommand implements CliCommand {

    @Override
    public CommandUsage usage() {
        return CommandUsage.of("jobs", "List the jobs under jobs/.", List.of(), null,
                "0:jobs listed",
                "2:wrong usage (unknown option, missing argument)");
    }

    @Override
    public int run(EngineHome home, CommandArgs args) throws IOException {
        home.jobNames().forEach(System.out::println);
        return 0;
    }
}
