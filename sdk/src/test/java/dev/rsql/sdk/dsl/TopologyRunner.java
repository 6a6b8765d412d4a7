package dev.rsql.sdk.dsl;

import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.exec.EngineContext;
import dev.rsql.runtime.exec.Job;
import dev.rsql.runtime.graph.JobGraph;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs a topology (or a planned script's graph) on bounded input to its end, in local mode, as {@code rsql run} runs a
 * job; until the SDK's engine takes topologies, the tests run them through the runtime directly.
 */
final class TopologyRunner {

    static final Duration TIMEOUT = Duration.ofSeconds(40);

    private TopologyRunner() {
    }

    static void run(Topology topology, Path stateDir) throws Exception {
        topology.validate(settings(stateDir), TopologyRunner.class.getClassLoader());
        run(topology.graph(), stateDir);
    }

    private static Map<String, String> settings(Path stateDir) {
        return Map.of("worker.threads", "2", "state.dir", stateDir.toString(), "checkpoint.interval", "200ms");
    }

    static void run(JobGraph graph, Path stateDir) throws Exception {
        EngineContext engine = new EngineContext(new Options(settings(stateDir)), TopologyRunner.class.getClassLoader());
        Job job = Job.create(graph, engine);
        try {
            job.start();
            assertTrue(job.awaitTermination(TIMEOUT), "job " + graph.name() + " did not end");
            if (job.failure() != null) {
                throw new AssertionError("job " + graph.name() + " failed", job.failure());
            }
        } finally {
            job.stop();
        }
    }

    /** The rows a changelog leaves in place: +I/+U add a row, -U/-D take one back. */
    static List<List<Object>> materialize(List<Row> changelog) {
        Map<List<Object>, Integer> counts = new HashMap<>();
        for (Row r : changelog) {
            List<Object> fields = Arrays.asList(r.fields());
            int delta = r.kind() == RowKind.INSERT || r.kind() == RowKind.UPDATE_AFTER ? 1 : -1;
            counts.merge(fields, delta, Integer::sum);
        }
        List<List<Object>> rows = new ArrayList<>();
        counts.forEach((row, n) -> {
            assertTrue(n >= 0, () -> "row retracted more often than added: " + row);
            for (int i = 0; i < n; i++) {
                rows.add(row);
            }
        });
        return rows;
    }
}
