package dev.rsql.runtime.connector.datagen;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.exec.DefaultConnectorContext;
import dev.rsql.runtime.format.FormatRegistry;
import dev.rsql.runtime.connector.ReaderOutput;
import dev.rsql.runtime.connector.ShardListener;
import dev.rsql.runtime.connector.ShardReader;
import dev.rsql.runtime.connector.Source;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.exec.EngineContext;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.graph.GraphBuilder;
import dev.rsql.runtime.table.Column;
import dev.rsql.runtime.table.TableDescriptor;
import dev.rsql.runtime.table.TableSchema;
import dev.rsql.runtime.testing.CollectSinkFactory;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.DataType.Kind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DatagenConnectorTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path tmp;

    static TableDescriptor table(String name, String connector, List<Column> columns, String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return new TableDescriptor(name, new TableSchema(columns, List.of()), connector, new Options(m));
    }

    static Column col(String name, DataType type) {
        return Column.physical(name, type);
    }

    private JobInstance startCopy(TableDescriptor src, String collectId, String... engineConfig) throws Exception {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("worker.threads", "2");
        conf.put("state.dir", tmp.toString());
        for (int i = 0; i < engineConfig.length; i += 2) {
            conf.put(engineConfig[i], engineConfig[i + 1]);
        }
        GraphBuilder b = new GraphBuilder("datagen-" + collectId);
        b.source(src).sinkTo(table("sink", "collect", src.schema().columns().stream()
                .map(c -> Column.physical(c.name(), c.type())).collect(Collectors.toList()), "id", collectId));
        JobInstance job = new JobInstance(b.build(), EngineContext.of(conf));
        job.start();
        return job;
    }

    private List<Row> runBounded(TableDescriptor src) throws Exception {
        String id = "datagen-" + UUID.randomUUID();
        JobInstance job = startCopy(src, id);
        assertTrue(job.awaitTermination(TIMEOUT), "bounded datagen job did not finish by itself");
        assertEquals(JobInstance.State.FINISHED, job.state(), String.valueOf(job.failure()));
        return CollectSinkFactory.rows(id);
    }

    @Test
    void boundedCountGivesExactlyNumberOfRows() throws Exception {
        List<Column> cols = List.of(col("id", DataType.of(Kind.BIGINT)), col("name", DataType.string()),
                col("ts", DataType.of(Kind.TIMESTAMP)));
        List<Row> rows = runBounded(table("gen", "datagen", cols, "number-of-rows", "1000", "shards", "3",
                "rows-per-second", "0"));
        assertEquals(1000, rows.size());
        // throttled and bounded: the timer must wake the tasks up for the job to finish
        rows = runBounded(table("gen", "random", cols, "number-of-rows", "150", "shards", "2",
                "rows-per-second", "1000"));
        assertEquals(150, rows.size());
        assertEquals(1, runBounded(table("gen", "datagen", cols, "number-of-rows", "1", "shards", "4")).size());
        assertEquals(0, runBounded(table("gen", "datagen", cols, "number-of-rows", "0")).size());
    }

    @Test
    void sequencesCoverStartToEndOnceAcrossShards() throws Exception {
        List<Column> cols = List.of(col("id", DataType.of(Kind.BIGINT)), col("k", DataType.string()),
                col("v", DataType.of(Kind.INT)));
        List<Row> rows = runBounded(table("gen", "datagen", cols, "rows-per-second", "0", "shards", "4",
                "fields.id.kind", "sequence", "fields.id.start", "1", "fields.id.end", "1001",
                "fields.k.kind", "sequence", "fields.k.start", "-5", "fields.k.end", "995",
                "fields.v.min", "10", "fields.v.max", "12"));
        assertEquals(LongStream.rangeClosed(1, 1001).boxed().collect(Collectors.toList()),
                rows.stream().map(r -> (Long) r.get(0)).sorted().collect(Collectors.toList()));
        assertEquals(LongStream.rangeClosed(-5, 995).mapToObj(Long::toString).collect(Collectors.toSet()),
                rows.stream().map(r -> (String) r.get(1)).collect(Collectors.toSet()));
        for (Row r : rows) {
            assertEquals((Long) r.get(0) - 6, Long.parseLong((String) r.get(1)), "both sequences advance together");
            int v = (Integer) r.get(2);
            assertTrue(v >= 10 && v <= 12, "v=" + v);
        }
        // number-of-rows shorter than the sequence: the count wins
        List<Row> some = runBounded(table("gen", "datagen", List.of(col("id", DataType.of(Kind.INT))),
                "rows-per-second", "0", "shards", "3", "number-of-rows", "10",
                "fields.id.kind", "sequence", "fields.id.start", "0", "fields.id.end", "99"));
        assertEquals(10, some.size());
        assertEquals(10, some.stream().map(r -> r.get(0)).distinct().count());
    }

    /** Reads every row of a bounded source directly, shard by shard. */
    static List<Object[]> generate(TableDescriptor t) throws Exception {
        Source source = new DatagenConnectorFactory().createSource(context(t));
        List<ShardReader> readers = new ArrayList<>();
        source.start(new ShardListener() {
            @Override
            public void shardAssigned(ShardReader reader) {
                readers.add(reader);
            }

            @Override
            public void shardRevoked(String shardId) {
            }

            @Override
            public void noMoreShards() {
            }

            @Override
            public void sourceFailed(Throwable cause) {
                throw new AssertionError(cause);
            }
        });
        List<Object[]> rows = new ArrayList<>();
        ReaderOutput out = new ReaderOutput() {
            @Override
            public void emit(long position, Object[] fields) {
                rows.add(fields);
            }

            @Override
            public void emit(long position, Row row) {
                rows.add(row.fields());
            }

            @Override
            public void decodeError(long position, byte[] payload, Exception cause) {
                throw new AssertionError(cause);
            }
        };
        for (ShardReader r : readers) {
            while (!r.isEndOfInput()) {
                assertTrue(r.read(out, 256) > 0, "unthrottled reader produced nothing");
            }
            r.close();
        }
        source.close();
        return rows;
    }

    @Test
    void valuesNullRatesBoundsAndLengths() throws Exception {
        long before = System.currentTimeMillis();
        TableDescriptor t = table("gen", "datagen", List.of(
                        col("status", DataType.string()), col("note", DataType.string()), col("maybe", DataType.of(Kind.INT)),
                        col("small", DataType.of(Kind.SMALLINT)), col("code", DataType.varchar(4)),
                        col("price", DataType.decimal(6, 2)), col("ratio", DataType.of(Kind.DOUBLE)),
                        col("ts", DataType.of(Kind.TIMESTAMP)), col("flag", DataType.of(Kind.BOOLEAN)),
                        col("tags", DataType.array(DataType.string())),
                        col("attrs", DataType.map(DataType.string(), DataType.of(Kind.INT))),
                        col("nested", DataType.row(List.of("a", "b"), List.of(DataType.of(Kind.INT), DataType.of(Kind.DATE)))),
                        col("bin", DataType.of(Kind.VARBINARY)), col("pick", DataType.of(Kind.INT))),
                "number-of-rows", "4000", "shards", "2", "rows-per-second", "0", "seed", "42",
                "fields.status.values", "NEW, PAID,SHIPPED",
                "fields.note.null-rate", "1",
                "fields.maybe.null-rate", "0.5",
                "fields.small.min", "-3", "fields.small.max", "3",
                "fields.code.length", "20",
                "fields.price.min", "1", "fields.price.max", "9.99",
                "fields.ratio.min", "0.5", "fields.ratio.max", "0.75",
                "fields.ts.max-past", "60000",
                "fields.tags.length", "2",
                "fields.bin.length", "5",
                "fields.pick.values", "1,2,null");
        List<Object[]> rows = generate(t);
        long after = System.currentTimeMillis();
        assertEquals(4000, rows.size());
        Set<Object> statuses = new HashSet<>();
        Set<Object> picks = new HashSet<>();
        int nullMaybe = 0;
        for (Object[] r : rows) {
            statuses.add(r[0]);
            assertNull(r[1]);
            nullMaybe += r[2] == null ? 1 : 0;
            short small = (Short) r[3];
            assertTrue(small >= -3 && small <= 3, "small=" + small);
            assertEquals(4, ((String) r[4]).length(), "VARCHAR(4) caps the length");
            BigDecimal price = (BigDecimal) r[5];
            assertEquals(2, price.scale());
            assertTrue(price.compareTo(BigDecimal.ONE) >= 0 && price.compareTo(new BigDecimal("9.99")) <= 0, price.toString());
            double ratio = (Double) r[6];
            assertTrue(ratio >= 0.5 && ratio <= 0.75);
            long ts = (Long) r[7];
            assertTrue(ts >= before - 60_000 && ts <= after, "ts lag");
            assertInstanceOf(Boolean.class, r[8]);
            assertEquals(2, ((List<?>) r[9]).size());
            assertInstanceOf(Map.class, r[10]);
            Object[] nested = (Object[]) r[11];
            assertInstanceOf(Integer.class, nested[0]);
            assertInstanceOf(Integer.class, nested[1]);
            assertEquals(5, ((byte[]) r[12]).length);
            picks.add(r[13]);
        }
        assertEquals(Set.of("NEW", "PAID", "SHIPPED"), statuses);
        assertEquals(new HashSet<>(Arrays.asList(1, 2, null)), picks);
        assertTrue(nullMaybe > 1700 && nullMaybe < 2300, "null-rate 0.5 gave " + nullMaybe + " of 4000");
    }

    @Test
    void aSeedMakesTheOutputDeterministic() throws Exception {
        List<Column> cols = List.of(col("a", DataType.of(Kind.BIGINT)), col("s", DataType.string()),
                col("d", DataType.of(Kind.DOUBLE)));
        List<Object[]> one = generate(table("g", "datagen", cols, "number-of-rows", "300", "shards", "3", "seed", "7",
                "rows-per-second", "0"));
        List<Object[]> two = generate(table("g", "datagen", cols, "number-of-rows", "300", "shards", "3", "seed", "7",
                "rows-per-second", "0"));
        List<Object[]> other = generate(table("g", "datagen", cols, "number-of-rows", "300", "shards", "3", "seed", "8",
                "rows-per-second", "0"));
        assertEquals(300, one.size());
        for (int i = 0; i < one.size(); i++) {
            assertArrayEquals(one.get(i), two.get(i));
        }
        assertFalse(Arrays.deepEquals(one.toArray(), other.toArray()));
    }

    @Test
    void throttledUnboundedSourceRunsUntilStopped() throws Exception {
        String id = "datagen-unbounded-" + UUID.randomUUID();
        TableDescriptor src = table("gen", "datagen", List.of(col("id", DataType.of(Kind.BIGINT))),
                "rows-per-second", "200", "shards", "2");
        long started = System.nanoTime();
        JobInstance job = startCopy(src, id, "checkpoint.interval", "100ms");
        try {
            waitUntil(() -> CollectSinkFactory.rows(id).size() >= 40, "rows reach the sink");
            assertEquals(JobInstance.State.RUNNING, job.state());
        } finally {
            job.stop();
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        assertEquals(JobInstance.State.STOPPED, job.state(), String.valueOf(job.failure()));
        long produced = job.status().recordsIn();
        assertTrue(produced >= 40, "produced " + produced);
        assertTrue(produced <= 200 * seconds + 10, "throttle: " + produced + " rows in " + seconds + " s");
        assertEquals(produced, CollectSinkFactory.rows(id).size(), "stop flushes everything read");
    }

    @Test
    void aThrottledReaderRestoredFarIntoItsRowsEmitsAtOnce() throws Exception {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        try {
            // one row per second, restored at row 10,000: the first row is due now, not 10,000 s after the start
            DatagenShardReader reader = new DatagenShardReader("gen", 0, new FieldGenerator[0], -1, 1.0, 7, timer,
                    10_000);
            List<Long> positions = new ArrayList<>();
            int n = reader.read(new ReaderOutput() {
                @Override
                public void emit(long position, Object[] fields) {
                    positions.add(position);
                }

                @Override
                public void emit(long position, Row row) {
                    positions.add(position);
                }

                @Override
                public void decodeError(long position, byte[] payload, Exception cause) {
                    throw new AssertionError(cause);
                }
            }, 100);
            assertEquals(1, n);
            assertEquals(List.of(10_000L), positions);
            reader.close();
        } finally {
            timer.shutdownNow();
        }
    }

    private static void waitUntil(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(10);
        }
    }

    @Test
    void badOptionsAreReportedClearly() {
        List<Column> cols = List.of(col("id", DataType.of(Kind.BIGINT)), col("ts", DataType.of(Kind.TIMESTAMP)));
        DatagenConnectorFactory f = new DatagenConnectorFactory();
        ConfigException e = assertThrows(ConfigException.class, () -> f.createSource(context(table("g", "datagen", cols,
                "fields.id.kind", "sequence", "fields.id.start", "1"))));
        assertTrue(e.getMessage().contains("fields.id.end"), e.getMessage());
        e = assertThrows(ConfigException.class, () -> f.createSource(context(table("g", "datagen", cols,
                "fields.nope.min", "1"))));
        assertTrue(e.getMessage().contains("fields.nope.min"), e.getMessage());
        e = assertThrows(ConfigException.class, () -> f.createSource(context(table("g", "datagen", cols,
                "fields.id.kind", "gaussian"))));
        assertTrue(e.getMessage().contains("gaussian"), e.getMessage());
        e = assertThrows(ConfigException.class, () -> f.createSource(context(table("g", "datagen", cols,
                "fields.ts.min", "1"))));
        assertTrue(e.getMessage().contains("numeric"), e.getMessage());
        e = assertThrows(ConfigException.class, () -> f.createSource(context(table("g", "datagen", cols,
                "fields.id.values", "1,x"))));
        assertTrue(e.getMessage().contains("\"x\""), e.getMessage());
        assertThrows(ConfigException.class, () -> f.createSource(context(table("g", "datagen", List.of(
                Column.metadata("m", DataType.string(), "tag", true))))));
        Source unbounded = f.createSource(context(table("g", "datagen", cols)));
        assertFalse(unbounded.isBounded());
        assertTrue(f.createSource(context(table("g", "datagen", cols, "number-of-rows", "5"))).isBounded());
        assertNotNull(f.aliases());
    }

    static ConnectorContext context(TableDescriptor table) {
        return new DefaultConnectorContext(table, null, new FormatRegistry(ConnectorContext.class.getClassLoader()));
    }
}
