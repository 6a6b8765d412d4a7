package dev.rsql.examples;

import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.exec.EngineContext;
import dev.rsql.runtime.exec.Job;
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
        topology.validate(settings, Run.class.getClassLoader()).forEach(w -> System.err.println("WARN  " + w));
        EngineContext engine = new EngineContext(new Options(settings), Run.class.getClassLoader());
        try (Job job = Job.create(topology.graph(), engine)) {
            job.start();
            if (!job.awaitTermination(Duration.ofMinutes(5))) {
                throw new IllegalStateException("job " + topology.name() + " did not end");
            }
            if (job.failure() != null) {
                throw new IllegalStateException("job " + topology.name() + " failed", job.failure());
            }
        }
    }
}
