package dev.rsql.sdk.dsl;

import dev.rsql.planner.PlannerContext;
import dev.rsql.planner.ScriptPlanner;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.testing.CollectSinkFactory;
import dev.rsql.sdk.dsl.Clicks.Click;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The DSL and SQL on one graph: the same results for the same job, and each reading the other's streams. */
class DslSqlTest {

    private static final String CLICKS_COLUMNS = "userId STRING, url STRING, amount INT, ts TIMESTAMP(3)";

    @TempDir
    Path tmp;

    record UserCount(String userId, long cnt) {
    }

    record WindowCount(String userId, long cnt, Instant window_start, Instant window_end) {
    }

    record BigClick(String userId, int amount) {
    }

    private static List<String> sorted(List<Row> rows) {
        return rows.stream().map(Row::toString).sorted().collect(Collectors.toList());
    }

    /** The same windowed aggregation as a DSL job and as a SQL script: identical rows. */
    @ParameterizedTest
    @ValueSource(strings = {"TUMBLE", "HOP", "SESSION"})
    void windowedAggregationsInTheDslAndInSqlGiveTheSameRows(String kind) throws Exception {
        Clicks clicks = new Clicks(21, 2, 400, 50);
        String id = "same-" + kind.toLowerCase();
        Window window = kind.equals("TUMBLE") ? Window.tumbling(Duration.ofSeconds(5))
                : kind.equals("HOP") ? Window.hopping(Duration.ofSeconds(6), Duration.ofSeconds(2))
                : Window.session(Duration.ofMillis(400));
        String tvf = kind.equals("TUMBLE") ? "TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '5' SECOND)"
                : kind.equals("HOP") ? "HOP(TABLE clicks, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '6' SECOND)"
                : "SESSION(TABLE clicks PARTITION BY userId, DESCRIPTOR(ts), INTERVAL '0.4' SECOND)";
        StreamBuilder b = new StreamBuilder(id + "-dsl");
        WindowStream<String, Click> windows = b.source("clicks", Click.class, clicks.register(id + "-dsl"))
                .assignTimestamps(c -> c.ts().toEpochMilli(), Duration.ofSeconds(2))
                .keyBy(Click::userId, String.class)
                .window(window);
        windows.count().to("counts", Map.of("connector", "collect", "id", id + "-dsl-counts"));
        windows.sum(Click::amount).to("sums", Map.of("connector", "collect", "id", id + "-dsl-sums"));
        TopologyRunner.run(b.build(), tmp.resolve("dsl"));

        clicks.register(id + "-sql");
        String script = "CREATE TABLE clicks (" + CLICKS_COLUMNS + ", WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)"
                + " WITH ('connector' = 'values', 'id' = '" + id + "-sql', 'format' = 'json');\n"
                + "CREATE TABLE counts (userId STRING, cnt BIGINT, window_start TIMESTAMP(3), window_end TIMESTAMP(3))"
                + " WITH ('connector' = 'collect', 'id' = '" + id + "-sql-counts');\n"
                + "CREATE TABLE sums (userId STRING, total BIGINT, window_start TIMESTAMP(3), window_end TIMESTAMP(3))"
                + " WITH ('connector' = 'collect', 'id' = '" + id + "-sql-sums');\n"
                + "INSERT INTO counts SELECT userId, COUNT(*), window_start, window_end FROM TABLE(" + tvf + ")"
                + " GROUP BY userId, window_start, window_end;\n"
                + "INSERT INTO sums SELECT userId, SUM(CAST(amount AS BIGINT)), window_start, window_end"
                + " FROM TABLE(" + tvf + ") GROUP BY userId, window_start, window_end;";
        TopologyRunner.run(new ScriptPlanner(PlannerContext.defaults()).plan(id + "-sql", script).graph(),
                tmp.resolve("sql"));

        for (String result : List.of("counts", "sums")) {
            List<String> dsl = sorted(CollectSinkFactory.rows(id + "-dsl-" + result));
            assertTrue(dsl.size() > 20, "only " + dsl.size() + " windows");
            assertEquals(sorted(CollectSinkFactory.rows(id + "-sql-" + result)), dsl, result);
        }
    }

    @Test
    void sqlReadsADslStreamAndTheDslReadsItsUpdatingResult() throws Exception {
        Clicks clicks = new Clicks(22, 2, 100, 100);
        StreamBuilder b = new StreamBuilder("mixed");
        RStream<Click> in = b.source("raw", Click.class, clicks.register("mixed"))
                .assignTimestamps(c -> c.ts().toEpochMilli(), Duration.ofSeconds(2));
        b.registerTable("clicks", in.filter(c -> c.amount() >= 10));
        // an updating result read back: counts per user, and those of at most a threshold (leaving it: -D)
        Map<String, Long> perUser = new HashMap<>();
        clicks.all.stream().filter(c -> c.amount() >= 10).forEach(c -> perUser.merge(c.userId(), 1L, Long::sum));
        List<Long> counts = new ArrayList<>(perUser.values());
        counts.sort(Comparator.naturalOrder());
        long threshold = counts.get(counts.size() / 2);
        b.sqlQuery("SELECT userId, COUNT(*) AS cnt FROM clicks GROUP BY userId", UserCount.class)
                .to("counts", Map.of("connector", "collect", "id", "mixed-counts"));
        b.sqlQuery("SELECT cnt, userId FROM (SELECT userId, COUNT(*) AS cnt FROM clicks GROUP BY userId)"
                        + " WHERE cnt <= " + threshold, UserCount.class)
                .map(u -> new UserCount(u.userId().toUpperCase(), u.cnt()), UserCount.class)
                .to("few", Map.of("connector", "collect", "id", "mixed-few"));
        // the same filter in the DSL, over the update stream
        b.sqlQuery("SELECT userId, COUNT(*) AS cnt FROM clicks GROUP BY userId", UserCount.class)
                .filter(u -> u.cnt() <= threshold)
                .to("few-dsl", Map.of("connector", "collect", "id", "mixed-few-dsl"));
        // a windowed query on the stream's event time, its result filtered in the DSL
        b.sqlQuery("SELECT userId, COUNT(*) AS cnt, window_start, window_end"
                        + " FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(rowtime), INTERVAL '5' SECOND))"
                        + " GROUP BY userId, window_start, window_end", WindowCount.class)
                .filter(w -> w.cnt() > 1)
                .to("windows", Map.of("connector", "collect", "id", "mixed-windows"));
        // DDL and an INSERT in SQL over the DSL stream
        b.sql("CREATE TABLE big (userId STRING, amount INT) WITH ('connector' = 'collect', 'id' = 'mixed-big');"
                + "INSERT INTO big SELECT userId, amount FROM clicks WHERE amount > 90;");
        TopologyRunner.run(b.build(), tmp);

        List<Row> countRows = CollectSinkFactory.rows("mixed-counts");
        assertTrue(countRows.stream().anyMatch(r -> r.kind() == RowKind.UPDATE_BEFORE), "no -U");
        assertTrue(countRows.stream().anyMatch(r -> r.kind() == RowKind.UPDATE_AFTER), "no +U");
        assertEquals(rows(perUser, u -> u, c -> true), sortedLists(TopologyRunner.materialize(countRows)));

        List<Row> fewRows = CollectSinkFactory.rows("mixed-few");
        assertTrue(fewRows.stream().anyMatch(r -> r.kind() == RowKind.DELETE), "no -D in " + fewRows);
        assertEquals(rows(perUser, String::toUpperCase, c -> c <= threshold),
                sortedLists(TopologyRunner.materialize(fewRows)));

        List<Row> fewDsl = CollectSinkFactory.rows("mixed-few-dsl");
        assertTrue(fewDsl.stream().anyMatch(r -> r.kind() == RowKind.DELETE), "no -D in " + fewDsl);
        assertEquals(rows(perUser, u -> u, c -> c <= threshold), sortedLists(TopologyRunner.materialize(fewDsl)));

        Map<List<Object>, Long> windows = new HashMap<>();
        for (Click c : clicks.all) {
            if (c.amount() >= 10) {
                long ws = c.ts().toEpochMilli() - Math.floorMod(c.ts().toEpochMilli(), 5_000L);
                windows.merge(List.of(c.userId(), ws, ws + 5_000), 1L, Long::sum);
            }
        }
        List<List<Object>> expectedWindows = new ArrayList<>();
        windows.forEach((k, n) -> {
            if (n > 1) {
                expectedWindows.add(List.of(k.get(0), n, k.get(1), k.get(2)));
            }
        });
        assertFalse(expectedWindows.isEmpty());
        assertEquals(sortedLists(expectedWindows), sortedLists(CollectSinkFactory.rows("mixed-windows").stream()
                .map(r -> Arrays.asList(r.fields())).collect(Collectors.toList())));

        List<List<Object>> big = clicks.all.stream().filter(c -> c.amount() > 90)
                .map(c -> List.<Object>of(c.userId(), c.amount())).collect(Collectors.toList());
        assertEquals(sortedLists(big), sortedLists(CollectSinkFactory.rows("mixed-big").stream()
                .map(r -> Arrays.asList(r.fields())).collect(Collectors.toList())));
    }

    @Test
    void theDslReadsATableDeclaredInSql() throws Exception {
        Clicks clicks = new Clicks(23, 2, 100, 100);
        clicks.register("sql-source");
        StreamBuilder b = new StreamBuilder("sql-source");
        b.sql("CREATE TABLE clicks (" + CLICKS_COLUMNS + ") WITH ('connector' = 'values', 'id' = 'sql-source',"
                + " 'format' = 'json')");
        b.sqlQuery("SELECT * FROM clicks WHERE amount < 50", Click.class)
                .keyBy(Click::url, String.class)
                .sum(Click::amount)
                .to("sums", Map.of("connector", "collect", "id", "sql-source-out"));
        TopologyRunner.run(b.build(), tmp);
        Map<String, Long> expected = new HashMap<>();
        clicks.all.stream().filter(c -> c.amount() < 50).forEach(c -> expected.merge(c.url(), (long) c.amount(),
                Long::sum));
        assertEquals(rows(expected, u -> u, s -> true),
                sortedLists(TopologyRunner.materialize(CollectSinkFactory.rows("sql-source-out"))));
    }

    @Test
    void anUpdateStreamIsNoTableAndNoJoinInput() {
        StreamBuilder b = new StreamBuilder("updates");
        b.sql("CREATE TABLE clicks (" + CLICKS_COLUMNS + ") WITH ('connector' = 'values', 'id' = 'x')");
        RStream<UserCount> counts = b.sqlQuery("SELECT userId, COUNT(*) AS cnt FROM clicks GROUP BY userId",
                UserCount.class);
        IllegalArgumentException table = assertThrows(IllegalArgumentException.class,
                () -> b.registerTable("counts", counts));
        assertTrue(table.getMessage().contains("CREATE VIEW"), table.getMessage());
        assertThrows(IllegalArgumentException.class, () -> counts.keyBy(UserCount::userId, String.class).count());
    }

    @Test
    void aQueryWhoseColumnsDoNotFitTheClassFailsWhenBuilt() {
        StreamBuilder b = new StreamBuilder("misfit");
        b.sql("CREATE TABLE clicks (" + CLICKS_COLUMNS + ") WITH ('connector' = 'values', 'id' = 'x')");
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> b.sqlQuery("SELECT userId, amount FROM clicks", UserCount.class));
        assertTrue(missing.getMessage().contains("no column cnt"), missing.getMessage());
        IllegalArgumentException type = assertThrows(IllegalArgumentException.class,
                () -> b.sqlQuery("SELECT userId, amount AS cnt FROM clicks", UserCount.class));
        assertTrue(type.getMessage().contains("CAST"), type.getMessage());
    }

    private static <V> List<List<Object>> rows(Map<String, V> values, java.util.function.UnaryOperator<String> key,
                                               java.util.function.Predicate<V> keep) {
        List<List<Object>> rows = new ArrayList<>();
        values.forEach((k, v) -> {
            if (keep.test(v)) {
                rows.add(List.of(key.apply(k), v));
            }
        });
        return sortedLists(rows);
    }

    private static List<List<Object>> sortedLists(List<List<Object>> rows) {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort(Comparator.comparing(Object::toString));
        return copy;
    }
}
