package dev.rsql.cli.shell;

import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.exec.EngineContext;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.graph.JobGraph;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * One statement of the shell running as a job in this process (local mode), with its state in a temporary directory
 * deleted afterwards: a SELECT whose rows a {@link ResultView} shows as they come, or an INSERT. It runs until its
 * input ends, it fails, {@link #cancel} (Ctrl-C) or the row limit; then the job is stopped.
 */
final class LiveQuery {

    private static final Logger LOG = LoggerFactory.getLogger(LiveQuery.class);
    private static final long POLL_MILLIS = 100;

    private final JobGraph graph;
    private final Map<String, String> config;
    private final ClassLoader classLoader;
    private volatile String cancelled;

    /** @param config engine settings; {@code state.dir} is replaced by a temporary directory */
    LiveQuery(JobGraph graph, Map<String, String> config, ClassLoader classLoader) {
        this.graph = graph;
        this.config = config;
        this.classLoader = classLoader;
    }

    /** From another thread (a signal): ends the query soon, for {@code why}. */
    void cancel(String why) {
        cancelled = why;
    }

    /**
     * Runs the job, showing what {@code channel} receives in {@code view} (both null for an INSERT), at most
     * {@code maxRows} changes (0: no limit). Returns why it ended; throws when the job failed.
     */
    String run(ResultChannel channel, ResultView view, long maxRows) throws Exception {
        Path stateDir = Files.createTempDirectory("rsql-shell-");
        Map<String, String> settings = new LinkedHashMap<>(config);
        settings.put("state.dir", stateDir.toString());
        Options options = new Options(settings);
        try {
            JobInstance job = new JobInstance(graph, new EngineContext(options, classLoader));
            String why;
            try {
                job.start();
                why = channel == null ? await(job) : pump(job, channel, view, maxRows);
                if (channel != null && cancelled != null) {
                    // what the job writes while it stops completes the rows shown (an update's +U after its -U)
                    CompletableFuture<Void> stopping = CompletableFuture.runAsync(job::stop);
                    show(channel, view, maxRows, () -> stopping.isDone() && channel.isEmpty());
                }
            } finally {
                if (channel != null) {
                    channel.close();
                }
                job.stop();
                if (!job.awaitTermination(EngineContext.stopTimeout(options))) {
                    LOG.warn("job={} did not stop within its stop.timeout", graph.name());
                }
            }
            if (job.failure() != null) {
                if (view != null) {
                    view.end("the query failed");
                }
                throw new QueryFailedException(job.failure());
            }
            if (view != null) {
                view.end(why);
            }
            return why;
        } finally {
            deleteTree(stateDir);
        }
    }

    private String await(JobInstance job) throws Exception {
        while (cancelled == null) {
            try {
                job.termination().get(POLL_MILLIS, TimeUnit.MILLISECONDS);
                return "its input ended";
            } catch (TimeoutException e) {
                // keep waiting
            } catch (ExecutionException e) {
                return "it failed";
            }
        }
        return cancelled;
    }

    private String pump(JobInstance job, ResultChannel channel, ResultView view, long maxRows) throws Exception {
        view.begin(channel.rowType(), channel.zone());
        if (show(channel, view, maxRows, () -> cancelled != null || (job.termination().isDone() && channel.isEmpty()))) {
            return "--max-rows " + maxRows + " reached";
        }
        return cancelled != null ? cancelled : "its input ended";
    }

    /**
     * Shows what arrives until {@code done} (checked between batches) or until {@code maxRows} changes (if not 0);
     * returns true when the limit ended it.
     */
    private static boolean show(ResultChannel channel, ResultView view, long maxRows, BooleanSupplier done)
            throws InterruptedException {
        List<Row> batch = new ArrayList<>();
        while (!done.getAsBoolean()) {
            batch.clear();
            channel.drain(batch, POLL_MILLIS);
            for (Row row : batch) {
                view.add(row);
                if (maxRows > 0 && view.changes() >= maxRows) {
                    return true;
                }
            }
            view.idle();
        }
        return false;
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            LOG.warn("cannot delete the shell's state directory {}: {}", dir, e.getMessage());
        }
    }

    /** The job of a query failed; the message is its cause's. */
    static final class QueryFailedException extends Exception {
        QueryFailedException(Throwable cause) {
            super(cause.getMessage() == null ? cause.toString() : cause.getMessage(), cause);
        }
    }
}
