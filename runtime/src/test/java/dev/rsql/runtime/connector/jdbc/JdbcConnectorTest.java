package dev.rsql.runtime.connector.jdbc;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.JobInfo;
import dev.rsql.runtime.connector.LookupReader;
import dev.rsql.runtime.connector.LookupSource;
import dev.rsql.runtime.connector.Sink;
import dev.rsql.runtime.connector.SinkWriter;
import dev.rsql.runtime.connector.SinkWriterContext;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.exec.DefaultConnectorContext;
import dev.rsql.runtime.exec.restart.TransientFailures;
import dev.rsql.runtime.format.FormatRegistry;
import dev.rsql.runtime.table.Column;
import dev.rsql.runtime.table.TableDescriptor;
import dev.rsql.runtime.table.TableSchema;
import dev.rsql.runtime.testing.MariaDbServer;
import dev.rsql.runtime.types.DataType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The JDBC sink and lookup source driven through the connector SPI against a real MariaDB server. */
class JdbcConnectorTest {

    private static final DataType INT = DataType.of(DataType.Kind.INT);
    private static final DataType BIGINT = DataType.of(DataType.Kind.BIGINT);

    @TempDir
    static Path dir;
    static MariaDbServer db;

    @BeforeAll
    static void startDatabase() throws Exception {
        db = MariaDbServer.start(dir.resolve("mariadb"));
    }

    @AfterAll
    static void stopDatabase() throws Exception {
        if (db != null) {
            db.close();
        }
    }

    static ConnectorContext context(String connector, String name, List<Column> columns, List<String> key,
                                    String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("url", db.url());
        m.put("username", db.user());
        m.put("password", db.password());
        for (int i = 0; i < kv.length; i += 2) {
            if (kv[i + 1] == null) {
                m.remove(kv[i]);
            } else {
                m.put(kv[i], kv[i + 1]);
            }
        }
        TableDescriptor t = new TableDescriptor(name, new TableSchema(columns, key), connector, new Options(m));
        return new DefaultConnectorContext(t, job(), new FormatRegistry(JdbcConnectorTest.class.getClassLoader()));
    }

    static JobInfo job() {
        return new JobInfo() {
            public String name() {
                return "jdbc_test";
            }

            public String instanceId() {
                return "i1";
            }

            public Options config() {
                return Options.empty();
            }

            public Path dataDir() {
                return dir;
            }

            public ClassLoader classLoader() {
                return JdbcConnectorTest.class.getClassLoader();
            }
        };
    }

    static SinkWriterContext task(int index) {
        return new SinkWriterContext() {
            public String taskId() {
                return "t#" + index;
            }

            public int taskIndex() {
                return index;
            }
        };
    }

    private static final List<Column> KV = List.of(Column.physical("id", INT), Column.physical("v", BIGINT));

    /**
     * Random upserts and deletes of 50 keys, out of order across four writers' batches, some batches sent after every
     * connection of the sink was killed: the table ends as the last change of each key says, and the writer never
     * fails, because it writes the batch again on a new connection.
     */
    @Test
    void upsertsAndDeletesSurviveKilledConnections() throws Exception {
        db.execute("CREATE TABLE kv (id INT PRIMARY KEY, v BIGINT)");
        ConnectorContext ctx = context("jdbc", "kv", KV, List.of("id"), "table-name", "kv",
                "sink.buffer-flush.max-rows", "7", "sink.retry-backoff", "10ms");
        Random r = new Random(7);
        Map<Integer, Long> expected = new TreeMap<>();
        int killed = 0;
        try (Sink sink = new JdbcConnectorFactory().createSink(ctx)) {
            List<SinkWriter> writers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                writers.add(sink.createWriter(task(t)));
            }
            for (int i = 0; i < 2_000; i++) {
                int id = r.nextInt(50);
                SinkWriter w = writers.get(id % 4); // a key is written by one task, as the keyed shuffle makes it
                if (r.nextInt(5) == 0) {
                    w.write(new Row(RowKind.DELETE, new Object[] {id, null}));
                    expected.remove(id);
                } else {
                    long v = r.nextInt(1000);
                    w.write(new Row(r.nextBoolean() ? RowKind.INSERT : RowKind.UPDATE_AFTER, new Object[] {id, v}));
                    expected.put(id, v);
                }
                if (i % 300 == 299) {
                    killed += db.killClientConnections();
                }
            }
            for (SinkWriter w : writers) {
                w.close();
            }
        }
        assertTrue(killed >= 4, "connections were killed: " + killed);
        List<String> want = expected.entrySet().stream().map(e -> e.getKey() + "|" + e.getValue())
                .collect(Collectors.toList());
        assertEquals(want, db.query("SELECT id, v FROM kv ORDER BY id"));
    }

    /** Without a primary key, rows are appended; a batch is not written twice when its connection dies before it. */
    @Test
    void appendsWithoutAKey() throws Exception {
        db.execute("CREATE TABLE log (id INT, v BIGINT)");
        ConnectorContext ctx = context("rds", "log", KV, List.of(), "url", db.url(), "tableName", "log",
                "userName", db.user(), "username", null, "batchSize", "100");
        List<String> expected = new ArrayList<>();
        try (Sink sink = new JdbcConnectorFactory().createSink(ctx)) {
            SinkWriter w = sink.createWriter(task(0));
            for (int i = 0; i < 1_000; i++) {
                w.write(Row.insert(i % 10, (long) i));
                expected.add(i % 10 + "|" + i);
                if (i == 550) {
                    db.killClientConnections();
                }
            }
            w.close();
        }
        expected.sort(null);
        List<String> got = db.query("SELECT id, v FROM log");
        got.sort(null);
        assertEquals(expected, got);
    }

    /**
     * When the retries run out, the flush (and so the checkpoint) fails with an error the restart policy treats as
     * transient, naming the table and not the password; a missing table is not transient.
     */
    @Test
    void failuresAreClassifiedAndShowNoPassword() throws Exception {
        db.execute("CREATE TABLE kv2 (id INT PRIMARY KEY, v BIGINT)");
        ListAppender<ILoggingEvent> logs = captureLogs();
        try {
            ConnectorContext ctx = context("jdbc", "kv2", KV, List.of("id"), "table-name", "kv2",
                    "sink.max-retries", "0");
            try (Sink sink = new JdbcConnectorFactory().createSink(ctx)) {
                SinkWriter w = sink.createWriter(task(0));
                w.write(Row.insert(1, 1L));
                w.flush();
                db.killClientConnections();
                w.write(Row.insert(2, 2L));
                SQLException e = assertThrows(SQLException.class, w::flush);
                assertTrue(TransientFailures.isTransient(e), "a killed connection is transient: " + e);
                assertTrue(e.getMessage().contains("kv2"), e.getMessage());
                assertFalse(e.getMessage().contains(db.password()), e.getMessage());
                w.close(); // the row is written on a new connection
            }
            assertEquals(List.of("1|1", "2|2"), db.query("SELECT id, v FROM kv2 ORDER BY id"));

            ConnectorContext missing = context("jdbc", "nope", KV, List.of("id"), "table-name", "no_such_table");
            try (Sink sink = new JdbcConnectorFactory().createSink(missing)) {
                SinkWriter w = sink.createWriter(task(0));
                w.write(Row.insert(1, 1L));
                SQLException e = assertThrows(SQLException.class, w::flush);
                assertFalse(TransientFailures.isTransient(e), "a missing table is not transient: " + e);
                assertTrue(e.getMessage().contains("no_such_table"), e.getMessage());
            }

            // a wrong password, also written into the URL: neither appears in the error or the log
            String secret = "wrong-" + db.password();
            ConnectorContext bad = context("jdbc", "kv2", KV, List.of("id"), "table-name", "kv2",
                    "url", db.url() + "?user=rsql&password=" + secret, "password", secret, "sink.max-retries", "1",
                    "sink.retry-backoff", "1ms");
            try (Sink sink = new JdbcConnectorFactory().createSink(bad)) {
                SinkWriter w = sink.createWriter(task(0));
                w.write(Row.insert(3, 3L));
                SQLException e = assertThrows(SQLException.class, w::flush);
                assertFalse(e.getMessage().contains(secret), e.getMessage());
                assertTrue(e.getMessage().contains("password=******"), e.getMessage());
                assertFalse(TransientFailures.isTransient(e), "access denied is not transient: " + e);
            }
            List<String> lines = logs.list.stream().map(ILoggingEvent::getFormattedMessage)
                    .collect(Collectors.toList());
            assertTrue(lines.stream().anyMatch(l -> l.contains("kv2")), "the sink logged: " + lines);
            for (String l : lines) {
                assertFalse(l.contains(db.password()), l);
            }
        } finally {
            stopCapture(logs);
        }
    }

    @Test
    void urlsAreShownWithoutCredentials() {
        assertEquals("jdbc:mysql://bob:******@db:3306/crm?useSSL=false&password=******",
                JdbcUrl.parse("jdbc:mysql://bob:s3cr3t@db:3306/crm?useSSL=false&password=hunter2").shown());
        JdbcUrl u = JdbcUrl.parse("jdbc:mysql://db/crm?pwd=abc;x=1");
        assertEquals("jdbc:mysql://db/crm?pwd=******;x=1", u.shown());
        assertEquals("failed at jdbc:mysql://db/crm?pwd=******;x=1 (******)",
                u.redact("failed at jdbc:mariadb://db/crm?pwd=abc;x=1 (abc)"));
        assertThrows(RuntimeException.class, () -> JdbcUrl.parse("jdbc:postgresql://db/x"));
    }

    private static ListAppender<ILoggingEvent> captureLogs() {
        ListAppender<ILoggingEvent> a = new ListAppender<>();
        a.start();
        ((Logger) LoggerFactory.getLogger("dev.rsql")).addAppender(a);
        return a;
    }

    private static void stopCapture(ListAppender<ILoggingEvent> a) {
        ((Logger) LoggerFactory.getLogger("dev.rsql")).detachAppender(a);
    }

    private static final List<Column> USERS = List.of(Column.physical("id", BIGINT),
            Column.physical("name", DataType.string()), Column.physical("city", DataType.string()),
            Column.physical("score", DataType.decimal(10, 2)), Column.physical("born", DataType.of(DataType.Kind.DATE)),
            Column.physical("seen", DataType.timestamp(3)));

    /**
     * Point lookups by the key and by another column, a full scan planned into id ranges that yield every row
     * once (ids with gaps, negative ones, a filtered {@code FROM} clause), and current data on every call.
     */
    @Test
    void lookupSourceAnswersPointQueriesAndRangeScans() throws Exception {
        db.execute("CREATE TABLE users (id BIGINT PRIMARY KEY, name VARCHAR(40), city VARCHAR(40),"
                + " score DECIMAL(10,2), born DATE, seen DATETIME(3))");
        Random r = new Random(3);
        TreeSet<Long> ids = new TreeSet<>();
        while (ids.size() < 1_000) {
            ids.add((long) r.nextInt(100_000) - 500);
        }
        StringBuilder insert = new StringBuilder("INSERT INTO users VALUES ");
        for (long id : ids) {
            insert.append(id == ids.first() ? "" : ",").append("(").append(id).append(",'u").append(id).append("','c")
                    .append(Math.floorMod(id, 7)).append("',").append(id % 100).append(".25,'2000-01-02',")
                    .append("'2024-05-06 07:08:09.123')");
        }
        db.execute(insert.toString());
        ConnectorContext ctx = context("jdbc", "users", USERS, List.of("id"), "table-name", "users");
        try (LookupSource src = new JdbcConnectorFactory().createLookupSource(ctx)) {
            assertTrue(src.supportsPointLookup());
            assertFalse(src.description().contains(db.password()));
            long some = ids.ceiling(0L);
            try (LookupReader byId = src.openReader(new int[] {0});
                 LookupReader byCity = src.openReader(new int[] {2})) {
                List<Object[]> got = byId.lookup(new Object[] {some});
                assertEquals(1, got.size());
                Object[] row = got.get(0);
                assertEquals(some, row[0]);
                assertEquals("u" + some, row[1]);
                assertEquals(new java.math.BigDecimal(some % 100 + ".25"), row[3]);
                assertEquals((int) java.time.LocalDate.of(2000, 1, 2).toEpochDay(), row[4]);
                assertEquals(java.time.LocalDateTime.of(2024, 5, 6, 7, 8, 9, 123_000_000)
                        .toInstant(java.time.ZoneOffset.UTC).toEpochMilli(), row[5]);
                assertTrue(byId.lookup(new Object[] {-100_000L}).isEmpty());
                long inC3 = ids.stream().filter(i -> Math.floorMod(i, 7) == 3).count();
                assertEquals(inC3, byCity.lookup(new Object[] {"c3"}).size());

                db.execute("UPDATE users SET name = 'changed' WHERE id = " + some);
                assertEquals("changed", byId.lookup(new Object[] {some}).get(0)[1], "a lookup sees current data");
                db.killClientConnections();
                assertEquals("changed", byId.lookup(new Object[] {some}).get(0)[1], "retried on a new connection");
            }
            List<LookupSource.ScanRange> ranges = src.planScan(4);
            assertEquals(4, ranges.size(), ranges.stream().map(LookupSource.ScanRange::description)
                    .collect(Collectors.toList()).toString());
            List<Long> scanned = new ArrayList<>();
            for (LookupSource.ScanRange range : ranges) {
                src.scan(range, values -> scanned.add((Long) values[0]));
            }
            scanned.sort(null);
            assertEquals(new ArrayList<>(ids), scanned);
        }

        // rsqldb's form: the FROM clause with a filter, the partition column named by idFieldName
        ConnectorContext subset = context("db", "users", USERS, List.of(), "tableName",
                "from users where city = 'c1'", "idFieldName", "id", "username", null, "userName", db.user());
        try (LookupSource src = new JdbcConnectorFactory().createLookupSource(subset)) {
            assertEquals(dev.rsql.runtime.connector.LookupCacheMode.FULL, src.defaultCacheMode());
            List<Long> scanned = new ArrayList<>();
            List<LookupSource.ScanRange> ranges = src.planScan(3);
            assertEquals(3, ranges.size());
            for (LookupSource.ScanRange range : ranges) {
                src.scan(range, values -> scanned.add((Long) values[0]));
            }
            scanned.sort(null);
            assertEquals(ids.stream().filter(i -> Math.floorMod(i, 7) == 1).collect(Collectors.toList()), scanned);
        }
    }

    @Test
    void aTableWithoutANumericKeyIsScannedInOneQuery() throws Exception {
        db.execute("CREATE TABLE tags (tag VARCHAR(20) PRIMARY KEY, n INT)",
                "INSERT INTO tags VALUES ('a', 1), ('b', 2), ('c', 3)");
        ConnectorContext ctx = context("jdbc", "tags", List.of(Column.physical("tag", DataType.string()),
                Column.physical("n", INT)), List.of("tag"), "table-name", "tags");
        try (LookupSource src = new JdbcConnectorFactory().createLookupSource(ctx)) {
            List<LookupSource.ScanRange> ranges = src.planScan(8);
            assertEquals(1, ranges.size());
            List<String> rows = new ArrayList<>();
            src.scan(ranges.get(0), v -> rows.add(Arrays.toString(v)));
            rows.sort(null);
            assertEquals(List.of("[a, 1]", "[b, 2]", "[c, 3]"), rows);
        }
    }
}
