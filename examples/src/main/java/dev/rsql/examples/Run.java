package dev.rsql.examples;

import dev.rsql.sdk.RsqlEngine;
import dev.rsql.sdk.RsqlJob;
import dev.rsql.sdk.dsl.Topology;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/** Runs a topology in this process until its bounded input is read, with its state under {@code target/}. */
final class Run {

    private Run() {
    }

    /** The examples' directory (set by the exec plugin), or the current one. */
    static Path dir() {
        return Path.of(System.getProperty("examples.dir", "."));
    }

    static void toEnd(Topology topology) throws Exception {
        Map<String, String> settings = Map.of("state.dir", dir().resolve("target/state").toString(),
                "checkpoint.interval", "1s");
        try (RsqlEngine engine = RsqlEngine.builder().settings(settings).build()) {
            RsqlJob job = engine.submit(topology.name(), topology);
            if (!job.awaitTermination(Duration.ofMinutes(5))) {
                throw new IllegalStateException("job " + topology.name() + " did not end");
            }
            if (job.failure().isPresent()) {
                throw new IllegalStateException("job " + topology.name() + " failed", job.failure().get());
            }
        }
    }
}
