package dev.rsql.planner.functions;

import dev.rsql.planner.PlannerContext;
import dev.rsql.planner.ScriptPlanner;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.exec.EngineContext;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.testing.CollectSinkFactory;
import dev.rsql.runtime.testing.ValuesSourceFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs SQL through the planner, the generated code and a job, over in-memory sources and sinks. */
final class FunctionTesting {

    /** The row every expression test reads: typed values and a NULL of each type. */
    static final String FIXTURE_COLUMNS = "s VARCHAR, n INT, big BIGINT, d DOUBLE, ts TIMESTAMP, "
            + "ns VARCHAR, ni INT, nb BIGINT, nd DOUBLE, nts TIMESTAMP";
    static final String FIXTURE_ROW = "{\"s\":\"a,b,c\",\"n\":1,\"big\":1513135677000,\"d\":2.5,"
            + "\"ts\":\"2017-09-15 23:00:00\"}";

    private FunctionTesting() {
    }

    /** Runs a bounded script to completion and returns the rows of each collect sink. */
    static Map<String, List<Row>> run(String script, String... sinks) throws Exception {
        return run(PlannerContext.defaults(), script, sinks);
    }

    static Map<String, List<Row>> run(PlannerContext context, String script, String... sinks) throws Exception {
        JobInstance job = start(context, script);
        assertTrue(job.awaitTermination(Duration.ofSeconds(60)), "job did not finish");
        if (job.failure() != null) {
            throw new AssertionError("job failed: " + job.failure().getMessage(), job.failure());
        }
        return collect(script, sinks);
    }

    private static final ThreadLocal<String> RUN = new ThreadLocal<>();

    static JobInstance start(PlannerContext context, String script) throws Exception {
        return start(context, script, Map.of());
    }

    /** Starts a job; {@code engineConfig} are engine settings (conf/) besides the test defaults. */
    static JobInstance start(PlannerContext context, String script, Map<String, String> engineConfig)
            throws Exception {
        String runId = UUID.randomUUID().toString();
        RUN.set(runId);
        Map<String, String> config = new HashMap<>(Map.of("checkpoint.interval", "50ms", "worker.threads", "2",
                "state.dir", "target/state/" + runId));
        config.putAll(engineConfig);
        JobInstance job = new JobInstance(new ScriptPlanner(context).plan("t", script.replace("${RUN}", runId)).graph(),
                new EngineContext(new dev.rsql.runtime.config.Options(config), context.classLoader()));
        job.start();
        return job;
    }

    static Map<String, List<Row>> collect(String script, String... sinks) {
        String runId = RUN.get();
        Map<String, List<Row>> out = new HashMap<>();
        for (String sink : sinks) {
            out.put(sink, CollectSinkFactory.rows(runId + "-" + sink));
            CollectSinkFactory.clear(runId + "-" + sink);
        }
        return out;
    }

    static String source(String id, String columns) {
        return "CREATE TABLE " + id + " (" + columns + ") WITH (type = 'values', id = '" + id + "');\n";
    }

    static String sink(String name, String columns) {
        return "CREATE TABLE " + name + " (" + columns + ") WITH (type = 'collect', id = '${RUN}-" + name + "');\n";
    }

    static List<String> rows(List<Row> rows) {
        return rows.stream().map(r -> Arrays.deepToString(r.fields())).sorted().collect(Collectors.toList());
    }

    /** Text of a value as the tests compare it: NULL for null. */
    static String text(Object v) {
        return v == null ? "NULL" : v.toString();
    }

    private static int fixtures;

    /**
     * Evaluates scalar expressions over the fixture row in one job; returns each result as
     * {@code CAST(expr AS VARCHAR)} text.
     */
    static List<String> eval(List<String> expressions) throws Exception {
        return eval(expressions, "");
    }

    /** Same, with script lines (e.g. SET) before the statements. */
    static synchronized List<String> eval(List<String> expressions, String prelude) throws Exception {
        String id = "fx" + (++fixtures);
        ValuesSourceFactory.register(id, List.of(FIXTURE_ROW));
        StringBuilder cols = new StringBuilder();
        StringBuilder select = new StringBuilder();
        for (int i = 0; i < expressions.size(); i++) {
            cols.append(i > 0 ? ", " : "").append("c").append(i).append(" VARCHAR");
            select.append(i > 0 ? ", " : "").append("CAST((").append(expressions.get(i)).append(") AS VARCHAR)");
        }
        String script = prelude + source(id, FIXTURE_COLUMNS) + sink("o", cols.toString())
                + "INSERT INTO o SELECT " + select + " FROM " + id;
        List<Row> out = run(script, "o").get("o");
        if (out.size() != 1) {
            throw new AssertionError("expected one row, got " + out);
        }
        List<String> result = new ArrayList<>();
        for (Object v : out.get(0).fields()) {
            result.add(text(v));
        }
        return result;
    }

    /**
     * Rows of a table function call written as {@code f(args) AS T(a, b)} over the fixture row: each row's columns
     * joined with ", ".
     */
    static synchronized List<String> table(String callWithAlias) throws Exception {
        String id = "fx" + (++fixtures);
        ValuesSourceFactory.register(id, List.of(FIXTURE_ROW));
        String alias = callWithAlias.substring(callWithAlias.lastIndexOf('(') + 1, callWithAlias.lastIndexOf(')'));
        String[] names = alias.split(",");
        StringBuilder cols = new StringBuilder();
        StringBuilder select = new StringBuilder();
        for (int i = 0; i < names.length; i++) {
            cols.append(i > 0 ? ", " : "").append("c").append(i).append(" VARCHAR");
            select.append(i > 0 ? ", " : "").append("CAST(T.").append(names[i].trim()).append(" AS VARCHAR)");
        }
        int as = callWithAlias.toUpperCase(java.util.Locale.ROOT).lastIndexOf(" AS ");
        String script = source(id, FIXTURE_COLUMNS) + sink("o", cols.toString())
                + "INSERT INTO o SELECT " + select + " FROM " + id + ", LATERAL TABLE("
                + callWithAlias.substring(0, as) + ") AS " + callWithAlias.substring(as + 4);
        List<Row> out = run(script, "o").get("o");
        List<String> result = new ArrayList<>();
        for (Row r : out) {
            result.add(Arrays.stream(r.fields()).map(FunctionTesting::text).collect(Collectors.joining(", ")));
        }
        return result;
    }
}
