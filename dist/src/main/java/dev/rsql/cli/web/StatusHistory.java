package dev.rsql.cli.web;

import dev.rsql.cli.http.ProcessJobs;
import dev.rsql.runtime.exec.Job;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Samples the status of every job of the process at a fixed interval into each job's {@link JobHistory}, so a page
 * opened late still shows the last minutes. Its own daemon thread; never a task's.
 */
final class StatusHistory implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StatusHistory.class);

    private final ProcessJobs jobs;
    private final long intervalMillis;
    private final int capacity;
    private final Map<String, JobHistory> histories = new ConcurrentHashMap<>();
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "rsql-status-history");
        t.setDaemon(true);
        return t;
    });

    /** @param window how far back the charts reach */
    StatusHistory(ProcessJobs jobs, Duration interval, Duration window) {
        this.jobs = jobs;
        this.intervalMillis = interval.toMillis();
        this.capacity = (int) Math.max(2, window.toMillis() / intervalMillis);
    }

    void start() {
        sampler.scheduleWithFixedDelay(this::sampleSafely, 0, intervalMillis, TimeUnit.MILLISECONDS);
    }

    private void sampleSafely() {
        try {
            sample();
        } catch (RuntimeException e) {
            LOG.warn("status page: sampling job status failed: {}", e.toString());
        }
    }

    void sample() {
        long now = System.currentTimeMillis();
        Set<String> listed = new HashSet<>();
        for (Map.Entry<String, Job> e : jobs.list()) {
            listed.add(e.getKey());
            histories.computeIfAbsent(e.getKey(), k -> new JobHistory(intervalMillis, capacity))
                    .sample(e.getValue().graph(), e.getValue().status(), now);
        }
        histories.keySet().retainAll(listed);
    }

    /** The history of a job, or an empty one before its first sample. */
    JobHistory.Snapshot of(String job) {
        JobHistory h = histories.get(job);
        return (h != null ? h : new JobHistory(intervalMillis, capacity)).snapshot();
    }

    @Override
    public void close() {
        sampler.shutdownNow();
    }
}
