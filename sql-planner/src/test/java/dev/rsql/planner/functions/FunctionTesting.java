package dev.rsql.planner.functions;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.testing.ValuesSourceFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static dev.rsql.planner.testing.TestJob.run;
import static dev.rsql.planner.testing.TestJob.sink;
import static dev.rsql.planner.testing.TestJob.source;

/** Evaluates function calls over one fixture row, through the planner, the generated code and a job. */
final class FunctionTesting {

    /** The row every expression test reads: typed values and a NULL of each type. */
    static final String FIXTURE_COLUMNS = "s VARCHAR, n INT, big BIGINT, d DOUBLE, ts TIMESTAMP, "
            + "ns VARCHAR, ni INT, nb BIGINT, nd DOUBLE, nts TIMESTAMP";
    static final String FIXTURE_ROW = "{\"s\":\"a,b,c\",\"n\":1,\"big\":1513135677000,\"d\":2.5,"
            + "\"ts\":\"2017-09-15 23:00:00\"}";

    private FunctionTesting() {
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
