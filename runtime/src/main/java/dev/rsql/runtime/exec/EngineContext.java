package dev.rsql.runtime.exec;

import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.connector.ConnectorRegistry;
import dev.rsql.runtime.format.FormatRegistry;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Process-wide services and settings: engine options from {@code conf/}, the class loader that sees {@code ext/},
 * and the connectors and formats found on it.
 *
 * <p>Settings read here (all optional): {@code worker.threads} (default: number of cores), {@code checkpoint.interval}
 * (default 5 s), {@code state.dir} (default {@code state}), {@code instance.id} (default host-pid),
 * {@code stop.timeout} and {@code task.stuck-timeout} (default 60 s each).
 */
public final class EngineContext {

    private final Options config;
    private final ClassLoader classLoader;
    private final ConnectorRegistry connectors;
    private final FormatRegistry formats;

    public EngineContext(Options config, ClassLoader classLoader) {
        this.config = config;
        this.classLoader = classLoader;
        this.connectors = new ConnectorRegistry(classLoader);
        this.formats = new FormatRegistry(classLoader);
    }

    public static EngineContext of(Map<String, String> config) {
        return new EngineContext(new Options(config), EngineContext.class.getClassLoader());
    }

    public Options config() {
        return config;
    }

    /** Engine options overridden by a job's parameters (its SET values). */
    public Options configFor(Options jobParameters) {
        Map<String, String> merged = new LinkedHashMap<>(config.asMap());
        merged.putAll(jobParameters.asMap());
        return new Options(merged);
    }

    public ClassLoader classLoader() {
        return classLoader;
    }

    public ConnectorRegistry connectors() {
        return connectors;
    }

    public FormatRegistry formats() {
        return formats;
    }

    public Path stateDir() {
        return Path.of(config.getOrDefault("state", "state.dir"));
    }

    public String instanceId() {
        String id = config.get("instance.id");
        if (id != null && !id.isBlank()) {
            return id;
        }
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            host = "localhost";
        }
        return host + "-" + ManagementFactory.getRuntimeMXBean().getPid();
    }

    static int workerThreads(Options options) {
        return Math.max(1, options.getInt(Runtime.getRuntime().availableProcessors(), "worker.threads"));
    }

    /**
     * How long a graceful stop may take ({@code stop.timeout}, default 60 s); tasks that have not stopped by then are
     * left behind, and the process running the job halts.
     */
    public static Duration stopTimeout(Options options) {
        return options.getDuration(Duration.ofSeconds(60), "stop.timeout");
    }

    /** How long a task may be in one record before it is reported stuck ({@code task.stuck-timeout}; 0: never). */
    static Duration stuckTimeout(Options options) {
        return options.getDuration(Duration.ofSeconds(60), "task.stuck-timeout");
    }

    static Duration checkpointInterval(Options options) {
        return options.getDuration(Duration.ofSeconds(5), "execution.checkpointing.interval", "checkpoint.interval");
    }
}
