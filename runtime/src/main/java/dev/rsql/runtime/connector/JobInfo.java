package dev.rsql.runtime.connector;

import dev.rsql.runtime.config.Options;

import java.nio.file.Path;

/** The job a connector runs in. */
public interface JobInfo {

    /** The job name, e.g. {@code orders} or {@code risk/login_alerts}. */
    String name();

    /** Identifies this process among the instances of the job, e.g. {@code host-1234}. */
    String instanceId();

    /** Engine settings from {@code conf/} (name server address, directories, ...) and the job's SET values. */
    Options config();

    /** A directory this job may keep files in (state, spill). */
    Path dataDir();

    ClassLoader classLoader();

    /**
     * How the job's transactional sinks learn the fate of transactions left open; null when the job is not
     * transactional and sinks write as they always did.
     */
    default SinkTransactions sinkTransactions() {
        return null;
    }
}
