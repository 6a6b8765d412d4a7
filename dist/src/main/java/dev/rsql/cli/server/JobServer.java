package dev.rsql.cli.server;

import com.alibaba.fastjson2.JSONObject;
import dev.rsql.cli.EngineHome;
import dev.rsql.planner.PlanningException;
import dev.rsql.planner.rulefile.RuleFile;
import dev.rsql.planner.rulefile.RuleFileScript;
import dev.rsql.cli.StatusFile;
import dev.rsql.cli.http.ProcessJobs;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.exec.EngineContext;
import dev.rsql.runtime.exec.JobMdc;
import dev.rsql.sdk.IncompatibleStateException;
import dev.rsql.sdk.RsqlEngine;
import dev.rsql.sdk.RsqlException;
import dev.rsql.sdk.RsqlJob;
import dev.rsql.sdk.ScriptException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs the scripts under {@code jobs/} as jobs of one engine and keeps them in step with the files, polled every
 * {@code server.poll-interval} (default 1 s): a new or changed script is checked, then started — a changed one after
 * its running version stopped gracefully, so the new one resumes from that checkpoint. A script that fails check
 * leaves the running version in place; a new version whose plan does not fit the checkpointed state (a stateful
 * statement changed) is not started either: the previous version runs again from its checkpoint, and the error says to
 * {@code bin/rsql reset} the job to start the new one from scratch. A removed script's job stops gracefully. Errors
 * are logged (also to the job's log) and shown in status. Every change happens on the server's one thread.
 */
public final class JobServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(JobServer.class);
    /** The names of scripts under jobs/ (at most one directory deep). */
    private static final java.util.regex.Pattern JOB_NAME =
            java.util.regex.Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]*(/[A-Za-z0-9_][A-Za-z0-9_.-]*)?");

    private final EngineHome home;
    private final RsqlEngine engine;
    private final ProcessJobs processJobs;
    private final Duration pollInterval;
    private final long stopTimeoutMillis;
    private final long pid = ProcessHandle.current().pid();
    private final Map<String, ServedJob> served = new TreeMap<>();
    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "rsql-server");
        t.setDaemon(true);
        return t;
    });

    /** A script under jobs/ and the job running it. */
    private static final class ServedJob {
        final String name;
        /** The text last looked at: a file is checked again only when it changes. */
        String seen;
        /** The text of the running (or last run) version. */
        String applied;
        RsqlJob job;
        /** Why the script's last version was not started, or null. */
        String error;

        ServedJob(String name) {
            this.name = name;
        }
    }

    public JobServer(EngineHome home, Map<String, String> settings, ClassLoader classLoader, ProcessJobs processJobs) {
        this.home = home;
        this.processJobs = processJobs;
        Options options = new Options(settings);
        this.pollInterval = options.getDuration(Duration.ofSeconds(1), "server.poll-interval");
        this.stopTimeoutMillis = EngineContext.stopTimeout(options).toMillis();
        this.engine = RsqlEngine.builder().settings(settings).classLoader(classLoader).build();
    }

    /** Starts the scripts under jobs/ now, then follows the directory. */
    public void start() {
        call(() -> {
            scan();
            return null;
        });
        loop.scheduleWithFixedDelay(this::scanLogged, pollInterval.toMillis(), pollInterval.toMillis(),
                TimeUnit.MILLISECONDS);
        LOG.info("server watching {} every {} ms", home.jobsDir(), pollInterval.toMillis());
    }

    private void scanLogged() {
        try {
            scan();
        } catch (RuntimeException e) {
            LOG.error("server cannot scan {}: {}", home.jobsDir(), e.toString());
        }
    }

    /** Brings the jobs in line with the scripts, and publishes their status under run/. */
    private void scan() {
        Set<String> names;
        try {
            names = new HashSet<>(home.jobNames());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (String name : names) {
            String text = read(home.script(name));
            ServedJob s = served.computeIfAbsent(name, ServedJob::new);
            if (text != null && !text.equals(s.seen)) {
                inJobLog(name, () -> apply(s, text));
            }
        }
        for (ServedJob s : new ArrayList<>(served.values())) {
            if (!names.contains(s.name)) {
                inJobLog(s.name, () -> {
                    LOG.info("job={} {} was removed: stopping the job", s.name, home.script(s.name));
                    stopJob(s);
                });
                served.remove(s.name);
            }
        }
        for (ServedJob s : served.values()) {
            writeStatus(s);
            if (s.job != null && s.job.state().isFinal()) {
                processJobs.remove(s.name, s.job.runtimeJob());     // ended by itself: finished or failed
            }
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return null;    // removed meanwhile: the next scan sees it gone
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A new or changed script (or rule file): checked, then started in place of the running version. */
    private void apply(ServedJob s, String source) {
        s.seen = source;
        Path path = home.script(s.name);
        String file = home.home().relativize(path).toString();
        String text;
        try {
            text = RuleFile.isRuleFile(file) ? RuleFileScript.sql(path.getFileName().toString(), source) : source;
        } catch (PlanningException e) {
            s.error = file + ": " + e.getMessage();
            LOG.error("job={} {} does not pass check{}: {}", s.name, file,
                    running(s) ? "; the running version stays" : "", e.getMessage());
            return;
        }
        if (running(s) && text.equals(s.applied)) {
            // back to the running version (after a broken edit): nothing to restart
            s.error = null;
            LOG.info("job={} {} is the running version again", s.name, file);
            return;
        }
        try {
            engine.check(s.name, text);
        } catch (ScriptException e) {
            s.error = file + ": " + e.getMessage();
            LOG.error("job={} {} does not pass check{}: {}", s.name, file,
                    running(s) ? "; the running version stays" : "", e.getMessage());
            return;
        }
        String previous = running(s) ? s.applied : null;
        if (previous != null) {
            LOG.info("job={} {} changed: stopping the running version to start the new one from its checkpoint",
                    s.name, file);
            stopJob(s);
        }
        try {
            startJob(s, text);
            s.error = null;
            LOG.info("job={} {} started{}", s.name, file, previous != null ? " (new version)" : "");
        } catch (IncompatibleStateException e) {
            s.error = e.getMessage();
            LOG.error("job={} the new version of {} is not started: {}{}", s.name, file, e.getMessage(),
                    previous != null ? "; the previous version runs again" : "");
            if (previous != null) {
                restart(s, previous);
            }
        } catch (RsqlException e) {
            s.error = file + ": " + e.getMessage();
            LOG.error("job={} {} cannot start: {}", s.name, file, e.getMessage());
            if (previous != null) {
                restart(s, previous);
            }
        }
    }

    private void restart(ServedJob s, String previous) {
        try {
            startJob(s, previous);
        } catch (RsqlException e) {
            LOG.error("job={} the previous version cannot start again either: {}", s.name, e.getMessage());
        }
    }

    private void startJob(ServedJob s, String text) {
        s.job = engine.submit(s.name, text);
        s.applied = text;
        processJobs.add(s.name, s.job.runtimeJob());
        writeStatus(s);
    }

    private void stopJob(ServedJob s) {
        if (s.job == null) {
            return;
        }
        s.job.stop();
        LOG.info("job={} stopped ({})", s.name, s.job.state());
        writeStatus(s);
        processJobs.remove(s.name, s.job.runtimeJob());
    }

    private static boolean running(ServedJob s) {
        return s.job != null && !s.job.state().isFinal();
    }

    /** Publishes the job's status under run/; returns it as written, or null before the job first started. */
    private JSONObject writeStatus(ServedJob s) {
        if (s.job == null) {
            return null;
        }
        JSONObject status = StatusFile.json(s.job.runtimeJob().status(), pid, stopTimeoutMillis);
        try {
            StatusFile.write(home.statusFile(s.name, null), status);
        } catch (IOException e) {
            LOG.warn("job={} cannot write its status file: {}", s.name, e.getMessage());
        }
        return status;
    }

    private static void inJobLog(String job, Runnable r) {
        MDC.put(JobMdc.KEY, job);
        try {
            r.run();
        } finally {
            MDC.remove(JobMdc.KEY);
        }
    }

    // ---- what the REST API asks for; on the server's thread, one at a time -------------------------------------

    /**
     * Checks a script, then writes it as {@code jobs/<name>.sql} and applies it at once, as if it had been dropped
     * there. A script that fails check is refused ({@link ScriptException}) and the file is left alone.
     */
    public JSONObject submit(String name, String text) {
        if (!JOB_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("a job name is a name or ns/name of letters, digits, '_', '-' and"
                    + " '.', as scripts under jobs/ are named; got '" + name + "'");
        }
        return call(() -> {
            engine.check(name, text);
            Path file = home.script(name);
            Files.createDirectories(file.getParent());
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            scan();
            return describe(served.get(name));
        });
    }

    /**
     * Stops a job gracefully; its script stays, and the job stays stopped until the script changes (or the server
     * restarts). Null when no such job runs.
     */
    public JSONObject stop(String name) {
        return call(() -> {
            ServedJob s = served.get(name);
            if (s == null || !running(s)) {
                return null;
            }
            inJobLog(name, () -> {
                LOG.info("job={} stop requested", name);
                stopJob(s);
            });
            return describe(s);
        });
    }

    /** Removes a job's script, which stops the job (as deleting the file does). Null when there is no such job. */
    public JSONObject remove(String name) {
        return call(() -> {
            ServedJob s = served.get(name);
            if (s == null) {
                return null;
            }
            Files.deleteIfExists(home.script(name));
            scan();
            return describe(s);
        });
    }

    /** The served jobs, each as {@link #status} describes it. */
    public List<JSONObject> list() {
        return call(() -> {
            List<JSONObject> all = new ArrayList<>();
            served.values().forEach(s -> all.add(describe(s)));
            return all;
        });
    }

    /** A job's status as {@code bin/rsql status --json} prints it, plus the script and its last error; or null. */
    public JSONObject status(String name) {
        return call(() -> {
            ServedJob s = served.get(name);
            return s == null ? null : describe(s);
        });
    }

    /** The plan of a script, as {@code bin/rsql explain} prints it; {@link ScriptException} when it is invalid. */
    public String explain(String name, String text) {
        return engine.explain(name, text);
    }

    private JSONObject describe(ServedJob s) {
        JSONObject o = writeStatus(s);
        if (o == null) {
            o = new JSONObject();
            o.put("job", s.name);
            o.put("state", "NOT_STARTED");
        }
        o.put("script", home.home().relativize(home.script(s.name)).toString());
        o.put("scriptError", s.error);
        return o;
    }

    private <T> T call(Callable<T> work) {
        try {
            return loop.submit(work).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException) {
                throw (RuntimeException) e.getCause();
            }
            throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
        }
    }

    /** Stops every job gracefully (their status files say STOPPED) and the watching. */
    @Override
    public void close() {
        loop.shutdown();
        try {
            loop.awaitTermination(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        engine.close();
        for (ServedJob s : served.values()) {
            writeStatus(s);
            if (s.job != null) {
                processJobs.remove(s.name, s.job.runtimeJob());
            }
        }
    }
}
