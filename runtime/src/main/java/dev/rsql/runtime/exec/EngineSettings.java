package dev.rsql.runtime.exec;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;

import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Checks an engine setting a script gives with {@code SET}, when the script is planned rather than when its job
 * starts: a malformed value of a setting the engine reads for a job, and a setting only a process can have.
 * Each check reads the value as the engine will, so the message is the one the job would fail with.
 */
public final class EngineSettings {

    private static final Map<String, Consumer<Options>> CHECKS = Map.of(
            "worker.threads", EngineContext::workerThreads,
            "execution.mode", Job::isDistributed,
            "checkpoint.interval", EngineContext::checkpointInterval,
            "execution.checkpointing.interval", EngineContext::checkpointInterval,
            "stop.timeout", EngineContext::stopTimeout,
            "task.stuck-timeout", EngineContext::stuckTimeout,
            StateBackendType.KEY, StateBackendType::of);

    /** Settings of the process that runs jobs (conf/rsql.conf, {@code -D}), which a script cannot change. */
    private static final Map<String, String> PROCESS_ONLY = Map.of(
            "http.port", "the port of the process's metrics and status page");

    private EngineSettings() {
    }

    /** @throws ConfigException when a script may not set {@code key} to {@code value} */
    public static void check(String key, String value) {
        String k = key.toLowerCase(Locale.ROOT);
        String process = PROCESS_ONLY.get(k);
        if (process != null) {
            throw new ConfigException(key + " is " + process + ", not a setting of a job: set it in conf/rsql.conf"
                    + " or with -D " + key + "=...");
        }
        Consumer<Options> check = CHECKS.get(k);
        if (check != null) {
            check.accept(new Options(Map.of(k, value)));
        }
    }
}
