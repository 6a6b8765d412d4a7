package dev.rsql.sdk;

import dev.rsql.planner.PlannerContext;
import dev.rsql.planner.ScriptPlanner;
import dev.rsql.runtime.graph.JobGraph;
import dev.rsql.runtime.testing.Await;
import dev.rsql.runtime.testing.CollectSinkFactory;
import dev.rsql.runtime.testing.ValuesSourceFactory;
import org.apache.flink.table.functions.AggregateFunction;
import org.apache.flink.table.functions.ScalarFunction;
import org.apache.flink.table.functions.TableFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An application embedding the engine: several jobs, their handles and listeners, functions passed as objects. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class RsqlEngineTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private RsqlEngine engine(Map<String, Object> functions) {
        RsqlEngine.Builder b = RsqlEngine.builder().settings(Map.of("state.dir", dir.resolve("state").toString(),
                "checkpoint.interval", "200ms", "worker.threads", "2"));
        functions.forEach(b::function);
        return b.build();
    }

    /** A job reading an unbounded values source {@code in} and writing {@code select} to collect sink {@code out}. */
    private static String script(String in, String out, String select) {
        return "CREATE TABLE s (v BIGINT) WITH (type = 'values', bounded = 'false', id = '" + in + "');\n"
                + "CREATE TABLE o (v BIGINT) WITH (type = 'collect', id = '" + out + "');\n"
                + "INSERT INTO o " + select + ";\n";
    }

    private static String source() {
        String id = "in-" + UUID.randomUUID();
        ValuesSourceFactory.register(id, List.of());
        return id;
    }

    private static void append(String id, long from, long to) {
        ValuesSourceFactory.append(id, 0, LongStream.range(from, to).mapToObj(v -> "{\"v\":" + v + "}")
                .toArray(String[]::new));
    }

    private static List<Long> values(String sink) {
        return CollectSinkFactory.rows(sink).stream().map(r -> ((Number) r.get(0)).longValue()).sorted()
                .collect(Collectors.toList());
    }

    private static List<Long> range(long from, long to, long factor) {
        return LongStream.range(from, to).map(v -> v * factor).boxed().collect(Collectors.toList());
    }

    private static void awaitValues(String sink, List<Long> expected) {
        Await.until(() -> sink + " to hold " + expected + ", has " + values(sink), WAIT,
                () -> values(sink).equals(expected));
    }

    @Test
    void twoScriptsRunAndStoppingOneLeavesTheOtherRunning() {
        String inA = source();
        String inB = source();
        String outA = inA + "-out";
        String outB = inB + "-out";
        try (RsqlEngine engine = engine(Map.of())) {
            RsqlJob a = engine.submit("a", script(inA, outA, "SELECT v * 2 FROM s"));
            RsqlJob b = engine.submit("b", script(inB, outB, "SELECT v * 3 FROM s"));
            assertEquals(List.of("a", "b"), engine.jobs().stream().map(RsqlJob::name).collect(Collectors.toList()));
            append(inA, 0, 50);
            append(inB, 0, 50);
            awaitValues(outA, range(0, 50, 2));
            awaitValues(outB, range(0, 50, 3));
            assertEquals(RsqlJob.State.RUNNING, a.status().state());
            assertEquals(50, a.metrics().recordsIn());
            Await.until(() -> "the sink's rows in " + a.metrics().operators(), WAIT, () -> a.metrics().operators()
                    .stream().anyMatch(o -> o.kind().equals("Sink") && o.recordsIn() == 50));

            a.stop();
            assertEquals(RsqlJob.State.STOPPED, a.state());
            assertThrows(IllegalStateException.class, () -> engine.submit("b", script(inB, outB, "SELECT v FROM s")),
                    "a running job's name is taken");
            append(inA, 50, 100);
            append(inB, 50, 100);
            awaitValues(outB, range(0, 100, 3));
            assertEquals(RsqlJob.State.RUNNING, b.state());
            assertEquals(range(0, 50, 2), values(outA), "the stopped job wrote nothing more");

            // Once stopped, its name is free again.
            RsqlJob again = engine.submit("a", script(inA, outA + "-2", "SELECT v * 2 FROM s"));
            Await.until("the resubmitted job reads", WAIT, () -> values(outA + "-2").containsAll(range(50, 100, 2)));
            assertEquals(again, engine.job("a").orElseThrow());
        }
    }

    @Test
    void aJobGraphBuiltInCodeRunsUnderTheGivenName() {
        String in = source();
        String out = in + "-out";
        JobGraph graph = new ScriptPlanner(PlannerContext.defaults())
                .plan("built", script(in, out, "SELECT v + 100 FROM s")).graph();
        try (RsqlEngine engine = engine(Map.of())) {
            RsqlJob job = engine.submit("from_graph", graph);
            assertEquals("from_graph", job.runtimeJob().graph().name());
            assertTrue(job.script().isEmpty());
            append(in, 0, 5);
            awaitValues(out, LongStream.range(100, 105).boxed().collect(Collectors.toList()));
            job.stop();
            assertEquals(RsqlJob.State.STOPPED, job.status().state());
        }
    }

    @Test
    void aBadScriptIsRefusedWithItsPositionAndNothingStarts() {
        try (RsqlEngine engine = engine(Map.of())) {
            ScriptException e = assertThrows(ScriptException.class, () -> engine.submit("bad",
                    "CREATE TABLE s (v BIGINT) WITH (type = 'values', id = 'none');\n"
                            + "CREATE TABLE o (v BIGINT) WITH (type = 'collect');\n"
                            + "INSERT INTO o SELECT nope FROM s;\n"));
            assertEquals(3, e.line());
            assertEquals(22, e.column());
            assertTrue(e.getMessage().startsWith("line 3, column 22: ") && e.getMessage().contains("nope"),
                    e.getMessage());
            assertTrue(engine.jobs().isEmpty());
            assertTrue(engine.job("bad").isEmpty());
            assertThrows(ScriptException.class, () -> engine.check("bad", "INSERT INTO"));
        }
    }

    /** A Flink scalar function with a constructor argument: only an object can carry it. */
    public static class Scale extends ScalarFunction {
        private final long factor;

        public Scale(long factor) {
            this.factor = factor;
        }

        public long eval(long v) {
            return v * factor;
        }
    }

    /** A bean function (rsqldb's style), not serializable: shared by the tasks. */
    public static class Offset {
        private final long offset;

        public Offset(long offset) {
            this.offset = offset;
        }

        public long eval(long v) {
            return v + offset;
        }
    }

    @Test
    void functionsPassedAsObjectsAreCalledWithoutCreateFunction() {
        String in = source();
        String out = in + "-out";
        try (RsqlEngine engine = engine(Map.of("scale", new Scale(10), "triple", new Scale(3),
                "plus_seven", new Offset(7)))) {
            RsqlJob job = engine.submit("udf", script(in, out, "SELECT scale(v) + triple(v) + plus_seven(v) FROM s"));
            assertTrue(engine.explain("udf", script(in, out, "SELECT scale(v) FROM s")).contains("scale"));
            append(in, 0, 20);
            awaitValues(out, LongStream.range(0, 20).map(v -> v * 10 + v * 3 + v + 7).boxed()
                    .collect(Collectors.toList()));
            assertEquals(RsqlJob.State.RUNNING, job.state());
        }
    }

    /** The accumulator of {@link WeightedSum}. */
    public static class SumAcc {
        public long total;
    }

    /** A Flink aggregate function whose weight only an object can carry. */
    public static class WeightedSum extends AggregateFunction<Long, SumAcc> {
        private final long weight;

        public WeightedSum(long weight) {
            this.weight = weight;
        }

        @Override
        public SumAcc createAccumulator() {
            return new SumAcc();
        }

        public void accumulate(SumAcc acc, long v) {
            acc.total += v * weight;
        }

        @Override
        public Long getValue(SumAcc acc) {
            return acc.total;
        }
    }

    @Test
    void anAggregateFunctionPassedAsAnObjectKeepsItsState() {
        String in = "agg-" + UUID.randomUUID();
        String out = in + "-out";
        ValuesSourceFactory.register(in, List.of());
        try (RsqlEngine engine = engine(Map.of("weighted", new WeightedSum(100)))) {
            engine.submit("agg", "CREATE TABLE s (k VARCHAR, v BIGINT) WITH (type = 'values', bounded = 'false',"
                    + " id = '" + in + "');\n"
                    + "CREATE TABLE o (k VARCHAR, w BIGINT, PRIMARY KEY (k) NOT ENFORCED) WITH (type = 'collect',"
                    + " id = '" + out + "');\n"
                    + "INSERT INTO o SELECT k, weighted(v) FROM s GROUP BY k;\n");
            Map<String, Long> expected = new TreeMap<>();
            Random random = new Random(7);
            List<String> payloads = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                String k = "k" + random.nextInt(5);
                long v = random.nextInt(50);
                expected.merge(k, v * 100, Long::sum);
                payloads.add("{\"k\":\"" + k + "\",\"v\":" + v + "}");
            }
            ValuesSourceFactory.append(in, 0, payloads.toArray(String[]::new));
            Await.until(() -> "the weighted sums " + expected + ", have " + latest(out), WAIT,
                    () -> latest(out).equals(expected));
        }
    }

    private static Map<String, Long> latest(String sink) {
        Map<String, Long> last = new TreeMap<>();
        CollectSinkFactory.rows(sink).forEach(r -> last.put((String) r.get(0), ((Number) r.get(1)).longValue()));
        return last;
    }

    /** A Flink table function splitting on a separator given to its constructor. */
    public static class Split extends TableFunction<String> {
        private final String separator;

        public Split(String separator) {
            this.separator = separator;
        }

        public void eval(String text) {
            for (String part : text.split(java.util.regex.Pattern.quote(separator))) {
                collect(part);
            }
        }
    }

    @Test
    void aTableFunctionPassedAsAnObjectEmitsRows() {
        String in = "split-" + UUID.randomUUID();
        String out = in + "-out";
        ValuesSourceFactory.register(in, List.of("{\"t\":\"a;b;c\"}", "{\"t\":\"d\"}"));
        try (RsqlEngine engine = engine(Map.of("split_on", new Split(";")))) {
            RsqlJob job = engine.submit("split", "CREATE TABLE s (t VARCHAR) WITH (type = 'values', id = '" + in
                    + "');\nCREATE TABLE o (w VARCHAR) WITH (type = 'collect', id = '" + out + "');\n"
                    + "INSERT INTO o SELECT w FROM s, LATERAL TABLE(split_on(t)) AS T(w);\n");
            assertTrue(job.awaitTermination(WAIT), "a bounded job finishes");
            assertEquals(RsqlJob.State.FINISHED, job.state());
            assertEquals(List.of("a", "b", "c", "d"), CollectSinkFactory.rows(out).stream()
                    .map(r -> (String) r.get(0)).sorted().collect(Collectors.toList()));
        }
    }

    /** Fails on one value: a function's error ends its job. */
    public static class Fragile extends ScalarFunction {
        public long eval(long v) {
            if (v == 13) {
                throw new IllegalArgumentException("unlucky " + v);
            }
            return v;
        }
    }

    @Test
    void aFailingJobTellsTheListenersAndLeavesTheOtherJobRunning() {
        String inF = source();
        String inS = source();
        String outS = inS + "-out";
        Queue<String> events = new ConcurrentLinkedQueue<>();
        List<String> ownEvents = new ArrayList<>();
        try (RsqlEngine engine = engine(Map.of("fragile", new Fragile()))) {
            engine.addListener(new JobListener() {
                @Override
                public void onStateChange(RsqlJob job, RsqlJob.State from, RsqlJob.State to) {
                    events.add(job.name() + ":" + from + "->" + to);
                }

                @Override
                public void onFailure(RsqlJob job, Throwable cause) {
                    events.add(job.name() + " failed: " + cause.getMessage());
                }
            });
            RsqlJob fragile = engine.submit("fragile", script(inF, inF + "-out", "SELECT fragile(v) FROM s"));
            RsqlJob steady = engine.submit("steady", script(inS, outS, "SELECT v FROM s"));
            fragile.addListener(new JobListener() {
                @Override
                public void onFailure(RsqlJob job, Throwable cause) {
                    synchronized (ownEvents) {
                        ownEvents.add(job.name());
                    }
                }
            });
            Await.until("both running", WAIT, () -> events.containsAll(List.of("fragile:CREATED->RUNNING",
                    "steady:CREATED->RUNNING")));
            append(inF, 10, 20);
            assertTrue(fragile.awaitTermination(WAIT));
            assertEquals(RsqlJob.State.FAILED, fragile.state());
            Await.until(() -> "the failure reported, events " + events, WAIT,
                    () -> events.stream().anyMatch(e -> e.startsWith("fragile failed: ") && e.contains("unlucky 13")));
            assertTrue(events.contains("fragile:RUNNING->FAILED"), events.toString());
            assertTrue(fragile.status().error().contains("unlucky 13"), fragile.status().error());
            synchronized (ownEvents) {
                assertEquals(List.of("fragile"), ownEvents);
            }

            append(inS, 0, 30);
            awaitValues(outS, range(0, 30, 1));
            assertEquals(RsqlJob.State.RUNNING, steady.state());
            assertTrue(events.stream().noneMatch(e -> e.startsWith("steady failed")), events.toString());
        }
        // Listeners hear sampled states: the job may be seen STOPPING on the way.
        assertTrue(events.contains("steady:RUNNING->STOPPED") || events.contains("steady:STOPPING->STOPPED"),
                "close() stopped the other job: " + events);
    }
}
