package dev.rsql.cli;

import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.exec.EngineContext;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.exec.StateConflictException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Deletes the local state and checkpoints of stopped jobs, so that their next run starts from scratch. A job that is
 * running (its state directory is locked) is left alone.
 */
@Command(name = "reset", mixinStandardHelpOptions = true, exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
                "0:every job was reset",
                "1:a job is running (its state is locked) and was left alone",
                "2:wrong usage (unknown option, missing argument)"},
        description = "Delete a stopped job's local state and checkpoints: its next run starts from"
        + " scratch (empty state, sources from their startup mode).")
final class ResetCommand implements Callable<Integer> {

    @ParentCommand
    private RsqlCli cli;

    @Parameters(arity = "1..*", description = "Job names (or their scripts).")
    private List<String> jobs;

    @Mixin
    private SettingsOption settings;

    @Override
    public Integer call() throws IOException {
        EngineHome home = cli.engineHome();
        Map<String, String> config = settings.over(home);
        EngineContext engine = new EngineContext(new Options(config), getClass().getClassLoader());
        int status = 0;
        for (String arg : jobs) {
            String job = arg.endsWith(".sql") && Files.isRegularFile(Path.of(arg)) ? home.jobName(Path.of(arg)) : arg;
            try {
                int deleted = JobInstance.reset(engine, job);
                System.out.println("reset " + job + ": " + deleted + " checkpoint" + (deleted == 1 ? "" : "s")
                        + " deleted; its next run starts from scratch");
            } catch (StateConflictException e) {
                System.err.println("ERROR  " + e.getMessage());
                status = 1;
            }
        }
        return status;
    }
}
