package dev.rsql.sdk.dsl;

import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.exec.EngineContext;
import dev.rsql.runtime.exec.Job;
import dev.rsql.runtime.testing.Await;
import dev.rsql.runtime.testing.CollectSinkFactory;
import dev.rsql.runtime.testing.ValuesSourceFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A DSL job stopped and started again from its checkpoint: the graph built anew by the same code finds its state (the
 * node ids are the same), so a count and a user accumulator go on where they were, without a key counted twice.
 */
class DslRestartTest {

    @TempDir
    Path tmp;

    record Event(String k, int v) {
    }

    record Avg(long sum, long count) {
    }

    record Stats(String k, double avg) {
    }

    private static Topology topology() {
        StreamBuilder b = new StreamBuilder("restart");
        GroupedStream<String, Event> byKey = b.source("events", Event.class,
                Map.of("connector", "values", "id", "restart", "bounded", "false", "format", "json"))
                .keyBy(Event::k, String.class);
        byKey.count().to("counts", Map.of("connector", "collect", "id", "restart-counts"));
        byKey.aggregate(Aggregator.of(() -> new Avg(0, 0), (Event e, Avg a) -> new Avg(a.sum() + e.v(), a.count() + 1),
                null, a -> (double) a.sum() / a.count()), Avg.class, Double.class)
                .to("averages", Map.of("connector", "collect", "id", "restart-avg"));
        return b.build();
    }

    @Test
    void stateSurvivesARestart() throws Exception {
        Random random = new Random(51);
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            events.add(new Event("k" + random.nextInt(7), random.nextInt(100)));
        }
        ValuesSourceFactory.register("restart", new ArrayList<>(), new ArrayList<>());
        EngineContext engine = new EngineContext(new Options(Map.of("worker.threads", "2", "state.dir",
                tmp.toString(), "checkpoint.interval", "200ms", "source.idle-timeout", "0")),
                getClass().getClassLoader());
        runUntilCounted(engine, events.subList(0, 300), events.subList(0, 300));
        runUntilCounted(engine, events.subList(300, 600), events);
    }

    /** Starts the job, appends {@code batch}, waits until the results are those of {@code all}, stops it. */
    private void runUntilCounted(EngineContext engine, List<Event> batch, List<Event> all) throws Exception {
        Map<String, Long> counts = new TreeMap<>();
        Map<String, long[]> sums = new TreeMap<>();
        for (Event e : all) {
            counts.merge(e.k(), 1L, Long::sum);
            sums.computeIfAbsent(e.k(), k -> new long[2])[0] += e.v();
            sums.get(e.k())[1]++;
        }
        List<List<Object>> expectedCounts = new ArrayList<>();
        counts.forEach((k, n) -> expectedCounts.add(List.of(k, n)));
        List<List<Object>> expectedAvg = new ArrayList<>();
        sums.forEach((k, s) -> expectedAvg.add(List.of(k, (double) s[0] / s[1])));
        Job job = Job.create(topology().graph(), engine);
        try {
            job.start();
            for (int i = 0; i < batch.size(); i++) {
                Event e = batch.get(i);
                ValuesSourceFactory.append("restart", i % 2, "{\"k\":\"" + e.k() + "\",\"v\":" + e.v() + "}");
            }
            Await.until(() -> "counts " + expectedCounts + " and averages " + expectedAvg + ", got "
                    + sorted(TopologyRunner.materialize(CollectSinkFactory.rows("restart-counts"))), Duration.ofSeconds(30),
                    () -> {
                        assertTrue(job.failure() == null, () -> "job failed: " + job.failure());
                        return sorted(TopologyRunner.materialize(CollectSinkFactory.rows("restart-counts")))
                                .equals(expectedCounts)
                                && sorted(TopologyRunner.materialize(CollectSinkFactory.rows("restart-avg")))
                                .equals(expectedAvg);
                    });
        } finally {
            job.stop();
            assertTrue(job.awaitTermination(Duration.ofSeconds(30)));
        }
    }

    private static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort(Comparator.comparing(Object::toString));
        return copy;
    }
}
