package dev.rsql.cli.http;

import dev.rsql.runtime.exec.Job;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The jobs this process runs, by name, for whatever serves them over HTTP (metrics, the status page, the REST API):
 * {@code rsql run} registers its one job, {@code rsql server} each job it starts, and removes it when it ends.
 */
public final class ProcessJobs {

    private final Map<String, Job> jobs = new ConcurrentSkipListMap<>();

    public void add(String name, Job job) {
        jobs.put(name, job);
    }

    public void remove(String name, Job job) {
        jobs.remove(name, job);
    }

    /** The jobs now registered, ordered by name. */
    public List<Map.Entry<String, Job>> list() {
        return List.copyOf(jobs.entrySet());
    }
}
