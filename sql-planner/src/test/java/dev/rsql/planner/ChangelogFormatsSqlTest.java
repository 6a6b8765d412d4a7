package dev.rsql.planner;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.graph.ErrorPolicy;
import dev.rsql.runtime.graph.SourceNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static dev.rsql.planner.testing.TestJob.run;
import static dev.rsql.planner.testing.TestJob.sink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Source tables in a changelog format (debezium-json, canal-json, maxwell-json) are changelogs for the planner: what
 * it accepts over them, what it refuses at plan time, and their malformed messages under the error policies. The
 * rows of queries over them are checked against Flink's in dist's oracle case cdc-formats.
 */
class ChangelogFormatsSqlTest {

    private static String table(Path file, String format, String more) {
        return "CREATE TABLE products (id BIGINT, name STRING, price DECIMAL(10, 2), PRIMARY KEY (id) NOT ENFORCED)"
                + " WITH ('connector' = 'filesystem', 'path' = '" + file + "', 'format' = '" + format + "'" + more
                + ");\n";
    }

    private static Path write(Path dir, String... lines) throws Exception {
        Path f = dir.resolve("changes.jsonl");
        Files.writeString(f, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
        return f;
    }

    /** A sink for scripts that are only planned. */
    private static String collect(String name, String columns) {
        return "CREATE TABLE " + name + " (" + columns + ") WITH (type = 'collect');\n";
    }

    private static PlanningException planError(String script) {
        return assertThrows(PlanningException.class,
                () -> new ScriptPlanner(PlannerContext.defaults()).plan("t", script));
    }

    /** A malformed message is a record error: with skip, it goes to the dead-letter table and the rest is read. */
    @Test
    void malformedMessagesFollowTheErrorPolicy(@TempDir Path dir) throws Exception {
        Path f = write(dir,
                "{\"data\":[{\"id\":\"1\",\"name\":\"北京\",\"price\":\"2.5\"}],\"type\":\"INSERT\"}",
                "{\"data\":[{\"id\":\"2\",\"name\":\"x\",\"price\":\"abc\"}],\"type\":\"INSERT\"}",
                "{\"data\":[{\"id\":\"3\"}],\"type\":\"TRUNCATE\"}",
                "{\"data\":[{\"id\":\"1\",\"name\":\"上海\",\"price\":\"2.5\"}],\"old\":[{\"name\":\"北京\"}],"
                        + "\"type\":\"UPDATE\"}");
        Map<String, List<Row>> out = run(table(f, "canal-json", ", 'scan.error-policy' = 'skip',"
                        + " 'scan.dead-letter-table' = 'bad'")
                        + sink("bad", "table_name STRING, `position` STRING, error STRING, payload STRING")
                        + sink("copy", "id BIGINT, name STRING, price DECIMAL(10, 2)")
                        + "INSERT INTO copy SELECT * FROM products;\n",
                "bad", "copy");
        assertEquals(List.of("+I[1, 北京, 2.50]", "-U[1, 北京, 2.50]", "+U[1, 上海, 2.50]"),
                out.get("copy").stream().map(r -> r.kind().shortString() + java.util.Arrays.toString(r.fields()))
                        .toList());
        List<Row> bad = out.get("bad");
        assertEquals(2, bad.size());
        assertTrue(((String) bad.get(0).get(1)).endsWith("line 2"), bad.get(0).toString());
        assertTrue(((String) bad.get(0).get(2)).contains("data[0].price"), bad.get(0).toString());
        assertTrue(((String) bad.get(1).get(1)).endsWith("line 3"), bad.get(1).toString());
        assertTrue(((String) bad.get(1).get(2)).contains("unknown \"type\" value \"TRUNCATE\""), bad.get(1).toString());
    }

    @Test
    void ignoreParseErrorsOfTheFormatMeansSkip(@TempDir Path dir) throws Exception {
        for (String format : List.of("debezium-json", "canal-json", "maxwell-json")) {
            SourceNode source = new ScriptPlanner(PlannerContext.defaults()).plan("t",
                    table(write(dir, "{}"), format, ", '" + format + ".ignore-parse-errors' = 'true'")
                            + collect("copy", "id BIGINT, name STRING, price DECIMAL(10, 2)")
                            + "INSERT INTO copy SELECT * FROM products;\n").graph().sources().get(0);
            assertEquals(ErrorPolicy.SKIP, source.errorPolicy(), format);
        }
    }

    /** A changelog is refused at plan time where only inserts are taken, naming the source. */
    @Test
    void whereOnlyInsertsAreTakenTheChangelogIsRefusedAtPlanTime(@TempDir Path dir) throws Exception {
        String products = table(write(dir, "{}"), "debezium-json", "");
        PlanningException e = planError(products
                + "CREATE TABLE out_csv (id BIGINT, name STRING) WITH ('connector' = 'filesystem', 'path' = '"
                + dir.resolve("o.csv") + "', 'format' = 'csv');\n"
                + "INSERT INTO out_csv SELECT id, name FROM products;");
        assertTrue(e.getMessage().contains("doesn't support consuming update and delete changes")
                && e.getMessage().contains("products"), e.getMessage());

        e = planError("CREATE TABLE orders (id BIGINT, pid BIGINT, proc AS PROCTIME()) WITH ('connector' = 'datagen');\n"
                + products.replace("CREATE TABLE products", "CREATE TABLE dim")
                + collect("enriched", "id BIGINT, name STRING")
                + "INSERT INTO enriched SELECT o.id, d.name FROM orders o\n"
                + " JOIN dim FOR SYSTEM_TIME AS OF o.proc AS d ON o.pid = d.id;");
        assertTrue(e.getMessage().contains("cannot be a dimension table of a lookup join"), e.getMessage());
    }

    /** Written in a changelog format, updates need no key: each change is a message. */
    @Test
    void aChangelogFormatSinkTakesUpdatesWithoutAKey(@TempDir Path dir) throws Exception {
        Path in = write(dir,
                "{\"before\":null,\"after\":{\"id\":1,\"name\":\"a\",\"price\":1},\"op\":\"c\"}",
                "{\"before\":{\"id\":1,\"name\":\"a\",\"price\":1},\"after\":{\"id\":1,\"name\":\"a\",\"price\":3},"
                        + "\"op\":\"u\"}");
        Path out = dir.resolve("totals.jsonl");
        run(table(in, "debezium-json", "")
                + "CREATE TABLE totals (name STRING, total DECIMAL(38, 2)) WITH ('connector' = 'filesystem', "
                + "'path' = '" + out + "', 'format' = 'maxwell-json');\n"
                + "INSERT INTO totals SELECT name, SUM(price) FROM products GROUP BY name;\n");
        assertEquals(List.of(
                "{\"data\":{\"name\":\"a\",\"total\":1.00},\"type\":\"insert\"}",
                "{\"data\":{\"name\":\"a\",\"total\":1.00},\"type\":\"delete\"}",
                "{\"data\":{\"name\":\"a\",\"total\":3.00},\"type\":\"insert\"}"),
                Files.readAllLines(out, StandardCharsets.UTF_8));
    }

    /** A format's metadata columns, read through the file connector; an unknown key fails at plan time. */
    @Test
    void metadataColumnsOfTheFormat(@TempDir Path dir) throws Exception {
        Path f = write(dir,
                "{\"data\":[{\"id\":\"1\",\"name\":\"a\"}],\"type\":\"INSERT\",\"database\":\"shop\",\"table\":\"orders\"}",
                "{\"data\":[{\"id\":\"2\",\"name\":\"b\"}],\"type\":\"INSERT\",\"database\":\"crm\",\"table\":\"客户\"}");
        String source = "CREATE TABLE changes (id BIGINT, name STRING, db STRING METADATA FROM 'value.database' VIRTUAL,"
                + " tbl STRING METADATA FROM 'value.table' VIRTUAL, line BIGINT METADATA FROM 'line')"
                + " WITH ('connector' = 'filesystem', 'path' = '" + f + "', 'format' = 'canal-json');\n";
        Map<String, List<Row>> out = run(source + sink("copy", "id BIGINT, db STRING, tbl STRING, line BIGINT")
                + "INSERT INTO copy SELECT id, db, tbl, line FROM changes;\n", "copy");
        assertEquals(List.of("[1, shop, orders, 0]", "[2, crm, 客户, 1]"), dev.rsql.planner.testing.TestJob.rows(
                out.get("copy")));

        PlanningException e = planError(source.replace("'value.table'", "'value.tables'")
                + collect("copy", "id BIGINT") + "INSERT INTO copy SELECT id FROM changes;");
        assertTrue(e.getMessage().contains("format 'canal-json' has no metadata 'value.tables'")
                && e.getMessage().contains("'value.table' (STRING)"), e.getMessage());
    }

    /** EXPLAIN shows the scan as a changelog. */
    @Test
    void explainShowsTheScanAsAChangelog(@TempDir Path dir) throws Exception {
        PlannedJob job = new ScriptPlanner(PlannerContext.defaults()).plan("t",
                table(write(dir, "{}"), "maxwell-json", "") + collect("copy", "id BIGINT, name STRING, price DECIMAL(10, 2)")
                        + "INSERT INTO copy SELECT * FROM products WHERE price > 1;\n");
        String plan = String.join("\n", job.physicalPlans());
        assertTrue(plan.contains("TableSourceScan(table=[products]") && plan.contains("changelogMode=[I,UB,UA,D]"),
                plan);
    }
}
