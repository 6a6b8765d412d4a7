package dev.rsql.cli;

import dev.rsql.cli.http.HttpEndpoint;
import dev.rsql.cli.http.MetricsHandler;
import dev.rsql.cli.http.ProcessJobs;
import dev.rsql.cli.web.StatusPage;
import dev.rsql.planner.PlannedJob;
import dev.rsql.planner.PlannerContext;
import dev.rsql.planner.ScriptPlanner;
import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.exec.EngineContext;
import dev.rsql.runtime.exec.Job;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.exec.StartupTrace;
import dev.rsql.runtime.exec.StateConflictException;
import dev.rsql.runtime.exec.restart.RestartingJob;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs one job in this process until its bounded sources are drained, it fails for a cause a restart cannot cure (a
 * transient one restarts it from its last checkpoint, see {@link RestartingJob}), or the process is asked to stop
 * (SIGTERM / Ctrl-C), which stops it gracefully: records in hand finished, sinks flushed, offsets committed — within
 * {@code stop.timeout}, or the process halts (see {@link ProcessStop}).
 */
final class RunCommand implements CliCommand {

    private static final Logger LOG = LoggerFactory.getLogger(RunCommand.class);
    private static final Duration STATUS_INTERVAL = Duration.ofSeconds(2);
    private static final CliOption INSTANCE = CliOption.value("--instance", "ID",
            "Instance id, to run several instances of one job.");
    private static final CliOption FROM_SCRATCH = CliOption.flag("--from-scratch", "Delete the job's local state and"
            + " checkpoints first (as 'rsql reset'): empty state, sources from their startup mode.");

    @Override
    public CommandUsage usage() {
        return CommandUsage.of("run", "Run a job in the foreground until it finishes or is stopped.",
                List.of(ScriptOptions.NAME, INSTANCE, FROM_SCRATCH, SettingsOption.OPTION), ScriptOptions.SCRIPT,
                "0:the job finished (bounded sources) or was stopped",
                "1:the job failed, could not start, or its process halted after a stop overran",
                "2:the script is invalid, the job cannot run this way, or wrong usage");
    }

    @Override
    public int run(EngineHome home, CommandArgs args) throws Exception {
        StartupTrace.mark("run: command line parsed, logging configured");
        ScriptArgument arg = ScriptOptions.resolve(home, args);
        Map<String, String> config = SettingsOption.over(home, args);
        String instance = args.value(INSTANCE);
        if (instance != null) {
            config.put("instance.id", instance);
        }
        Options options = new Options(config);
        ClassLoader classLoader = home.extClassLoader(getClass().getClassLoader());
        PlannedJob planned;
        StartupTrace.mark("run: settings read");
        try {
            planned = new ScriptPlanner(new PlannerContext(options, classLoader, System::getenv)).plan(arg.jobName, arg.text());
        } catch (RuntimeException e) {
            System.err.println("ERROR  " + arg.file + ": " + e.getMessage());
            LOG.error("job={} cannot be planned: {}", arg.jobName, e.getMessage());
            return 2;
        }
        StartupTrace.mark("run: planned");
        LOG.info("job={} planned from {}:\n{}", arg.jobName, arg.file, planned.graph().explain());
        planned.warnings().forEach(w -> LOG.warn("job={} {}", arg.jobName, w));
        EngineContext engine = new EngineContext(options, classLoader);
        Job job;
        try {
            boolean distributed = Job.isDistributed(planned.graph(), engine);
            if (instance != null && !distributed) {
                return refuse(arg.jobName, "is not distributed (execution.mode = local), so it runs as one process;"
                        + " --instance starts another instance of a job with SET 'execution.mode' = 'distributed'");
            }
            if (args.has(FROM_SCRATCH)) {
                if (distributed) {
                    return refuse(arg.jobName, "runs distributed: its state is in RocketMQ, not in a local state"
                            + " directory that --from-scratch could delete");
                }
                int deleted = JobInstance.reset(engine, arg.jobName);
                LOG.info("job={} starts from scratch: {} checkpoints deleted", arg.jobName, deleted);
            }
            job = new RestartingJob(planned.graph(), engine);
        } catch (RuntimeException e) {
            System.err.println("ERROR  job " + arg.jobName + " cannot start: " + e.getMessage());
            LOG.error("job={} cannot start: {}", arg.jobName, e.getMessage());
            return 1;
        }
        Path statusFile = home.statusFile(arg.jobName, instance);
        long pid = ProcessHandle.current().pid();
        Duration stopTimeout = EngineContext.stopTimeout(engine.configFor(planned.graph().parameters()));
        ProcessStop stop = new ProcessStop(job, stopTimeout,
                () -> writeStatus(job, statusFile, pid, stopTimeout.toMillis()));
        ProcessStop.haltOnJvmErrors(arg.jobName);
        Thread hook = new Thread(stop::onShutdown, "rsql-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        // a start may take long (dimension tables loading): status shows it meanwhile; the first write comes after
        // the state directory's lock was taken, so a job refused for a conflict leaves the holder's status alone
        ScheduledExecutorService startingStatus = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "rsql-status");
            t.setDaemon(true);
            return t;
        });
        startingStatus.scheduleWithFixedDelay(() -> writeStatus(job, statusFile, pid, stopTimeout.toMillis()),
                STATUS_INTERVAL.toMillis(), STATUS_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
        ProcessJobs processJobs = new ProcessJobs();
        processJobs.add(arg.jobName, job);
        try (HttpEndpoint http = HttpEndpoint.fromSettings(options).orElse(null);
             StatusPage statusPage = new StatusPage(processJobs)) {
            if (http != null) {
                http.handle(MetricsHandler.PATH, new MetricsHandler(processJobs));
                statusPage.registerOn(http);
                http.start();
            }
            return runUntilEnd(arg.jobName, job, hook, startingStatus, stop);
        } catch (ConfigException e) {   // http.port: not a port, or taken
            startingStatus.shutdownNow();
            Runtime.getRuntime().removeShutdownHook(hook);
            System.err.println("ERROR  " + e.getMessage());
            LOG.error("job={} cannot start: {}", arg.jobName, e.getMessage());
            return 1;
        }
    }

    /** Starts the job and waits until it has ended (or the process is asked to stop); returns the exit code. */
    private static int runUntilEnd(String jobName, Job job, Thread hook, ScheduledExecutorService startingStatus,
                                   ProcessStop stop) {
        try {
            StartupTrace.mark("run: starting the job");
            job.start();
            StartupTrace.mark("run: job started");
        } catch (StateConflictException | ConfigException e) {
            if (e instanceof StateConflictException) {
                // The job never ran; the status file may be that of the process holding the state.
                Runtime.getRuntime().removeShutdownHook(hook);
            }
            System.err.println("ERROR  " + e.getMessage());
            LOG.error("job={} cannot start: {}", jobName, e.getMessage());
            return 1;
        } catch (Exception e) {
            System.err.println("ERROR  job " + jobName + " cannot start: " + e.getMessage());
            LOG.error("job={} cannot start", jobName, e);
            return 1;
        } finally {
            startingStatus.shutdownNow();
        }
        stop.awaitEnd(STATUS_INTERVAL);
        if (job.failure() != null) {
            System.err.println("ERROR  job " + jobName + " failed: " + job.failure().getMessage());
            return 1;
        }
        return 0;
    }

    private static int refuse(String jobName, String why) {
        System.err.println("ERROR  job " + jobName + " " + why);
        LOG.error("job={} not started: {}", jobName, why);
        return 2;
    }

    private static void writeStatus(Job job, Path file, long pid, long stopTimeoutMillis) {
        try {
            StatusFile.write(file, job.status(), pid, stopTimeoutMillis);
        } catch (IOException e) {
            LOG.warn("cannot write status file {}: {}", file, e.getMessage());
        }
    }
}
