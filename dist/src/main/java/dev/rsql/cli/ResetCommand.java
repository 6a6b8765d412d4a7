package dev.rsql.cli;

import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.exec.EngineContext;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.exec.StateConflictException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Deletes the local state and checkpoints of stopped jobs, so that their next run starts from scratch. A job that is
 * running (its state directory is locked) is left alone.
 */
final class ResetCommand implements CliCommand {

    @Override
    public CommandUsage usage() {
        return CommandUsage.of("reset", "Delete a stopped job's local state and checkpoints: its next run starts from"
                + " scratch (empty state, sources from their startup mode).", List.of(SettingsOption.OPTION),
                new CliParameter("JOB", "Job names (or their scripts).", 1, Integer.MAX_VALUE),
                "0:every job was reset",
                "1:a job is running (its state is locked) and was left alone, or no job has that name",
                "2:wrong usage (unknown option, missing argument)");
    }

    @Override
    public int run(EngineHome home, CommandArgs args) throws IOException {
        Map<String, String> config = SettingsOption.over(home, args);
        EngineContext engine = new EngineContext(new Options(config), getClass().getClassLoader());
        int status = 0;
        for (String arg : args.parameters()) {
            String job = arg.endsWith(".sql") && Files.isRegularFile(Path.of(arg)) ? home.jobName(Path.of(arg)) : arg;
            Path state = engine.stateDir().resolve(job);
            if (!Files.isDirectory(state) && !Files.isRegularFile(home.script(job))) {
                // a typo must not look like a reset
                System.err.println("ERROR  no job named " + job + ": no script " + home.jobsDir().relativize(
                        home.script(job)) + " under " + home.jobsDir() + " and no state in " + state);
                status = 1;
                continue;
            }
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
