package dev.rsql.runtime.connector.print;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.exec.DefaultConnectorContext;
import dev.rsql.runtime.format.FormatRegistry;
import dev.rsql.runtime.connector.Sink;
import dev.rsql.runtime.connector.SinkWriter;
import dev.rsql.runtime.connector.SinkWriterContext;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.exec.EngineContext;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.graph.GraphBuilder;
import dev.rsql.runtime.table.Column;
import dev.rsql.runtime.table.TableDescriptor;
import dev.rsql.runtime.table.TableSchema;
import dev.rsql.runtime.testing.ValuesSourceFactory;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.DataType.Kind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PrintConnectorTest {

    @TempDir
    Path tmp;

    static final Column[] COLUMNS = {
            Column.physical("id", DataType.of(Kind.INT)),
            Column.physical("name", DataType.string()),
            Column.physical("ts", DataType.of(Kind.TIMESTAMP)),
            Column.physical("price", DataType.decimal(10, 2))};

    static TableDescriptor table(String name, String connector, Column[] columns, String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return new TableDescriptor(name, new TableSchema(List.of(columns), List.of()), connector, new Options(m));
    }

    static <T> Map<T, Long> multiset(List<T> items) {
        return items.stream().collect(Collectors.groupingBy(Function.identity(), HashMap::new, Collectors.counting()));
    }

    /** Runs values(3 shards of 50 rows) -> print; returns the expected lines without prefix. */
    private List<String> runJob(TableDescriptor sink) throws Exception {
        String id = "print-" + UUID.randomUUID();
        List<List<String>> shards = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        for (int s = 0; s < 3; s++) {
            List<String> payloads = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                int n = s * 100 + i;
                if (i == 7) {
                    payloads.add("{\"id\":" + n + "}");
                    expected.add("+I[" + n + ", null, null, null]");
                } else {
                    payloads.add("{\"id\":" + n + ",\"name\":\"foo " + n + "\",\"ts\":\"2024-03-01 10:00:01.39\",\"price\":" + i + ".5}");
                    expected.add("+I[" + n + ", foo " + n + ", 2024-03-01 10:00:01.390, " + i + ".50]");
                }
            }
            shards.add(payloads);
        }
        ValuesSourceFactory.register(id, shards.get(0), shards.get(1), shards.get(2));
        GraphBuilder b = new GraphBuilder("print-job");
        b.source(table("src", "values", COLUMNS, "id", id)).sinkTo(sink);
        JobInstance job = new JobInstance(b.build(),
                EngineContext.of(Map.of("worker.threads", "3", "state.dir", tmp.toString())));
        job.start();
        assertTrue(job.awaitTermination(Duration.ofSeconds(60)));
        assertEquals(JobInstance.State.FINISHED, job.state(), String.valueOf(job.failure()));
        return expected;
    }

    @Test
    void printsFlinkStyleLinesToStdout() throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        List<String> expected;
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            expected = runJob(table("out", "print", COLUMNS, "print-identifier", "orders"));
        } finally {
            System.setOut(original);
        }
        List<String> printed = captured.toString(StandardCharsets.UTF_8).lines()
                .filter(l -> l.contains("+I[")).collect(Collectors.toList());
        // every printed line is whole: exactly one row per line, with the prefix at its start
        assertEquals(multiset(expected.stream().map(l -> "orders> " + l).collect(Collectors.toList())), multiset(printed));
    }

    @Test
    void printsToStderrAndDiscardsWithIgnoreWrite() throws Exception {
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        List<String> expected;
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            expected = runJob(table("out", "print", COLUMNS, "sink.print.target", "stderr"));
            runJob(table("out", "print", COLUMNS, "ignoreWrite", "true", "target", "stderr"));
        } finally {
            System.setErr(original);
        }
        List<String> printed = captured.toString(StandardCharsets.UTF_8).lines()
                .filter(l -> l.contains("+I[")).collect(Collectors.toList());
        assertEquals(multiset(expected), multiset(printed));
    }

    @Test
    void logTargetWritesOneEventPerRow() throws Exception {
        Logger logger = (Logger) LoggerFactory.getLogger("dev.rsql.print");
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        logger.addAppender(appender);
        try {
            List<String> expected = runJob(table("out", "print", COLUMNS, "target", "log", "print-identifier", "x"));
            List<String> logged = new ArrayList<>();
            synchronized (appender.list) {
                for (ILoggingEvent e : appender.list) {
                    assertEquals(Level.INFO, e.getLevel());
                    logged.add(e.getFormattedMessage());
                }
            }
            assertEquals(multiset(expected.stream().map(l -> "x> " + l).collect(Collectors.toList())), multiset(logged));
        } finally {
            logger.detachAppender(appender);
        }
    }

    @Test
    void rendersChangeKindsAndNestedValuesOnFlushOnly() throws Exception {
        Column[] cols = {Column.physical("k", DataType.string()),
                Column.physical("tags", DataType.array(DataType.of(Kind.INT))),
                Column.physical("r", DataType.row(List.of("a", "d"), List.of(DataType.of(Kind.BIGINT), DataType.of(Kind.DATE)))),
                Column.physical("b", DataType.of(Kind.VARBINARY)),
                Column.physical("p", DataType.decimal(5, 1))};
        Sink sink = new PrintConnectorFactory().createSink(context(table("t", "print", cols)));
        SinkWriter w = sink.createWriter(writerContext());
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            w.write(new Row(RowKind.UPDATE_BEFORE, new Object[]{"a", Arrays.asList(1, null), new Object[]{5L, 19783},
                    new byte[]{10, -1}, new BigDecimal("1.5")}));
            w.write(new Row(RowKind.DELETE, new Object[]{null, null, null, null, null}));
            assertEquals("", captured.toString(StandardCharsets.UTF_8), "nothing before flush");
            w.flush();
        } finally {
            System.setOut(original);
            w.close();
            sink.close();
        }
        assertEquals(List.of("-U[a, [1, null], (5, 2024-03-01), x'0aff', 1.5]", "-D[null, null, null, null, null]"),
                captured.toString(StandardCharsets.UTF_8).lines().collect(Collectors.toList()));
        assertThrows(ConfigException.class,
                () -> new PrintConnectorFactory().createSink(context(table("t", "print", cols, "target", "printer"))));
    }

    @Test
    void printFormatJsonPrintsOneObjectPerRow() throws Exception {
        Column[] cols = {Column.physical("position", DataType.string()), Column.physical("nums", DataType.of(Kind.INT)),
                Column.physical("ts", DataType.of(Kind.TIMESTAMP))};
        Sink sink = new PrintConnectorFactory().createSink(context(table("t", "print", cols, "print.format", "json",
                "print-identifier", "groupBy")));
        SinkWriter w = sink.createWriter(writerContext());
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            w.write(new Row(RowKind.INSERT, new Object[]{"shenzhen", 10, 1674874800000L}));
            w.write(new Row(RowKind.UPDATE_BEFORE, new Object[]{"shenzhen", 10, null}));
            w.write(new Row(RowKind.UPDATE_AFTER, new Object[]{"shen\"zhen", 6, null}));
            w.flush();
        } finally {
            System.setOut(original);
            w.close();
            sink.close();
        }
        assertEquals(List.of("groupBy> {\"position\":\"shenzhen\",\"nums\":10,\"ts\":\"2023-01-28 03:00:00.000\"}",
                        "groupBy> {\"position\":\"shenzhen\",\"nums\":10,\"ts\":null,\"op\":\"-U\"}",
                        "groupBy> {\"position\":\"shen\\\"zhen\",\"nums\":6,\"ts\":null,\"op\":\"+U\"}"),
                captured.toString(StandardCharsets.UTF_8).lines().collect(Collectors.toList()));
        ConfigException e = assertThrows(ConfigException.class, () -> new PrintConnectorFactory()
                .createSink(context(table("t", "print", cols, "print.format", "xml"))));
        assertTrue(e.getMessage().contains("'print.format' must be row or json"), e.getMessage());
    }

    /** TIMESTAMP_LTZ is shown in the job's table.local-time-zone; TIMESTAMP as it is. */
    @Test
    void timestampLtzIsPrintedInTheLocalTimeZone() throws Exception {
        Column[] cols = {Column.physical("ltz", DataType.of(Kind.TIMESTAMP_LTZ)),
                Column.physical("ts", DataType.of(Kind.TIMESTAMP))};
        dev.rsql.runtime.connector.JobInfo job = new dev.rsql.runtime.connector.JobInfo() {
            public String name() {
                return "tz";
            }

            public String instanceId() {
                return "i";
            }

            public Options config() {
                return new Options(Map.of("table.local-time-zone", "Asia/Shanghai"));
            }

            public Path dataDir() {
                return tmp;
            }

            public ClassLoader classLoader() {
                return getClass().getClassLoader();
            }
        };
        Sink sink = new PrintConnectorFactory().createSink(new DefaultConnectorContext(table("t", "print", cols), job,
                new FormatRegistry(ConnectorContext.class.getClassLoader())));
        SinkWriter w = sink.createWriter(writerContext());
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            w.write(new Row(RowKind.INSERT, new Object[]{1674874800000L, 1674874800000L}));
            w.flush();
        } finally {
            System.setOut(original);
            w.close();
            sink.close();
        }
        assertEquals(List.of("+I[2023-01-28 11:00:00.000, 2023-01-28 03:00:00.000]"),
                captured.toString(StandardCharsets.UTF_8).lines().collect(Collectors.toList()));
    }

    static SinkWriterContext writerContext() {
        return new SinkWriterContext() {
            @Override
            public String taskId() {
                return "t#0";
            }

            @Override
            public int taskIndex() {
                return 0;
            }
        };
    }

    static ConnectorContext context(TableDescriptor table) {
        return new DefaultConnectorContext(table, null, new FormatRegistry(ConnectorContext.class.getClassLoader()));
    }
}
