package dev.rsql.runtime.connector.file;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.exec.EngineContext;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.exec.JobStatus;
import dev.rsql.runtime.graph.ErrorPolicy;
import dev.rsql.runtime.graph.GraphBuilder;
import dev.rsql.runtime.table.Column;
import dev.rsql.runtime.table.TableDescriptor;
import dev.rsql.runtime.table.TableSchema;
import dev.rsql.runtime.testing.CollectSinkFactory;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.DataType.Kind;
import dev.rsql.runtime.types.RowType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FileConnectorTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path tmp;

    private EngineContext engine;

    @BeforeEach
    void setUp() {
        engine = EngineContext.of(Map.of("worker.threads", "2", "state.dir", tmp.resolve("state").toString()));
    }

    static TableDescriptor table(String name, String connector, Map<String, String> options, Column... columns) {
        return new TableDescriptor(name, new TableSchema(List.of(columns), List.of()), connector, new Options(options));
    }

    static Map<String, String> opts(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    static final Column[] ORDER_COLUMNS = {
            Column.physical("order_id", DataType.of(Kind.BIGINT)),
            Column.physical("amount", DataType.of(Kind.DOUBLE)),
            Column.physical("product", DataType.string()),
            Column.physical("ts", DataType.of(Kind.TIMESTAMP))};

    static final RowType ORDER_TYPE = new TableSchema(List.of(ORDER_COLUMNS), List.of()).rowType();

    static long ts(String isoLocal) {
        return LocalDateTime.parse(isoLocal).toInstant(ZoneOffset.UTC).toEpochMilli();
    }

    /** Writes three input files; returns every row as [order_id, amount, product, ts]. */
    List<List<Object>> writeOrders(Path dir) throws IOException {
        Files.createDirectories(dir);
        List<List<Object>> all = new ArrayList<>();
        long id = 0;
        for (int f = 0; f < 3; f++) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < 400 + f * 50; i++) {
                id++;
                double amount = (id * 37 % 100) + 0.5;
                String product = "p\"" + id + (id % 7 == 0 ? " é" : "");
                long t = ts("2024-03-01T10:00:00") + id * 1000 + 390;
                all.add(Arrays.asList(id, amount, product, t));
                sb.append("{\"order_id\":").append(id).append(",\"amount\":").append(amount)
                        .append(",\"product\":\"").append(product.replace("\"", "\\\"")).append("\",\"ignored\":[1,2],")
                        .append("\"ts\":\"2024-03-01 ").append(String.format("%02d:%02d:%02d.390",
                                10 + (id / 3600), (id / 60) % 60, id % 60)).append("\"}");
                sb.append(f == 1 ? "\r\n" : "\n");
                if (i % 100 == 5) {
                    sb.append("\n   \n");     // blank lines are skipped
                }
            }
            Files.writeString(dir.resolve("orders-" + f + ".jsonl"), sb.toString(), StandardCharsets.UTF_8);
        }
        Files.writeString(dir.resolve(".hidden"), "not json", StandardCharsets.UTF_8);
        return all;
    }

    static <T> Map<T, Long> multiset(List<T> items) {
        return items.stream().collect(Collectors.groupingBy(Function.identity(), HashMap::new, Collectors.counting()));
    }

    private JobInstance run(GraphBuilder b) throws Exception {
        JobInstance job = new JobInstance(b.build(), engine);
        job.start();
        assertTrue(job.awaitTermination(TIMEOUT), "job did not end");
        return job;
    }

    @Test
    void readsADirectoryOfShardsThroughAFilterIntoFileAndCollectSinks() throws Exception {
        Path in = tmp.resolve("in");
        List<List<Object>> all = writeOrders(in);
        String collectId = "file-e2e-" + UUID.randomUUID();
        Path out = tmp.resolve("out/sub/big.jsonl");

        TableDescriptor src = table("orders", "file", opts("filePath", in.toString()),
                ORDER_COLUMNS[0], ORDER_COLUMNS[1], ORDER_COLUMNS[2], ORDER_COLUMNS[3],
                Column.metadata("src", DataType.string(), "file.path", true),
                Column.metadata("ln", DataType.of(Kind.BIGINT), "line", true));
        TableDescriptor fileSink = table("big", "file", opts("path", out.toString()), ORDER_COLUMNS);
        TableDescriptor collect = table("big_collect", "collect", opts("id", collectId),
                ORDER_COLUMNS[0], ORDER_COLUMNS[1], ORDER_COLUMNS[2], ORDER_COLUMNS[3],
                Column.physical("src", DataType.string()), Column.physical("ln", DataType.of(Kind.BIGINT)));

        GraphBuilder b = new GraphBuilder("file-e2e");
        GraphBuilder.Stream big = b.source(src).filter(r -> (Double) r[1] >= 50);
        big.sinkTo(collect);
        big.map(ORDER_TYPE, r -> Arrays.copyOf(r, 4)).sinkTo(fileSink);
        JobInstance job = run(b);
        assertEquals(JobInstance.State.FINISHED, job.state(), String.valueOf(job.failure()));

        JobStatus status = job.status();
        assertEquals(3, status.tasks.size(), "one task per file");
        assertEquals(all.size(), status.recordsIn());

        List<List<Object>> expected = all.stream().filter(r -> (Double) r.get(1) >= 50).collect(Collectors.toList());
        assertTrue(expected.size() > 100 && expected.size() < all.size());

        List<Row> collected = CollectSinkFactory.rows(collectId);
        assertEquals(multiset(expected), multiset(collected.stream()
                .map(r -> Arrays.asList(r.fields()).subList(0, 4)).collect(Collectors.toList())));
        // metadata: the absolute file path and the 0-based line number of every row
        for (Row r : collected) {
            Path file = Path.of((String) r.get(4));
            assertTrue(file.isAbsolute() && file.getFileName().toString().startsWith("orders-"), file.toString());
            String line = Files.readAllLines(file).get((int) (long) (Long) r.get(5));
            assertTrue(line.startsWith("{\"order_id\":" + r.get(0) + ","), line);
        }

        List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
        List<String> expectedLines = expected.stream().map(r -> "{\"order_id\":" + r.get(0) + ",\"amount\":" + r.get(1)
                + ",\"product\":\"" + ((String) r.get(2)).replace("\"", "\\\"") + "\",\"ts\":\""
                + dev.rsql.runtime.format.json.ValueText.formatTimestamp((Long) r.get(3)) + "\"}")
                .collect(Collectors.toList());
        assertEquals(multiset(expectedLines), multiset(lines));
    }

    @Test
    void aBadLineFailsTheJobNamingFileLineAndField() throws Exception {
        Path in = tmp.resolve("bad");
        Files.createDirectories(in);
        Files.writeString(in.resolve("a.jsonl"), "{\"order_id\":1,\"amount\":1.5}\n");
        Files.writeString(in.resolve("b.jsonl"),
                "{\"order_id\":2,\"amount\":2.5}\n\n{\"order_id\":3,\"amount\":\"oops\"}\n{\"order_id\":4}\n");
        TableDescriptor src = table("orders", "file", opts("path", in.toString()), ORDER_COLUMNS);
        TableDescriptor sink = table("sink", "collect", opts("id", "fail-" + UUID.randomUUID()), ORDER_COLUMNS);
        GraphBuilder b = new GraphBuilder("file-fail");
        b.source(src).sinkTo(sink);
        JobInstance job = run(b);
        assertEquals(JobInstance.State.FAILED, job.state());
        String message = job.failure().getMessage();
        assertTrue(message.contains("file " + in.resolve("b.jsonl").toAbsolutePath() + ", line 3"), message);
        assertTrue(message.contains("field 'amount'"), message);
        assertTrue(message.contains("\"oops\""), message);
    }

    @Test
    void skipPolicyCountsAndDeadLettersBadLines() throws Exception {
        Path in = tmp.resolve("skip.jsonl");
        Files.writeString(in, "{\"order_id\":1,\"amount\":1.5}\nnot json at all\n{\"order_id\":3,\"amount\":3.5}\n"
                + "{\"order_id\":\"four\"}\n");
        String okId = "skip-ok-" + UUID.randomUUID();
        String dlId = "skip-dl-" + UUID.randomUUID();
        TableDescriptor src = table("orders", "file", opts("path", in.toString(), "format", "json"), ORDER_COLUMNS);
        TableDescriptor sink = table("sink", "collect", opts("id", okId), ORDER_COLUMNS);
        TableDescriptor deadLetters = table("dead", "collect", opts("id", dlId),
                Column.physical("table_name", DataType.string()), Column.physical("position", DataType.string()),
                Column.physical("error", DataType.string()), Column.physical("payload", DataType.string()));
        GraphBuilder b = new GraphBuilder("file-skip");
        b.source(src, ErrorPolicy.SKIP, deadLetters).sinkTo(sink);
        JobInstance job = run(b);
        assertEquals(JobInstance.State.FINISHED, job.state(), String.valueOf(job.failure()));
        assertEquals(2, job.status().tasks.stream().mapToLong(t -> t.skipped).sum());
        assertEquals(List.of(1L, 3L), CollectSinkFactory.rows(okId).stream().map(r -> r.get(0)).sorted()
                .collect(Collectors.toList()));
        List<Row> dead = CollectSinkFactory.rows(dlId);
        assertEquals(2, dead.size());
        Map<String, Row> byPayload = dead.stream().collect(Collectors.toMap(r -> (String) r.get(3), r -> r));
        Row notJson = byPayload.get("not json at all");
        assertNotNull(notJson, dead.toString());
        assertEquals("orders", notJson.get(0));
        assertEquals("file " + in.toAbsolutePath() + ", line 2", notJson.get(1));
        Row four = byPayload.get("{\"order_id\":\"four\"}");
        assertEquals("file " + in.toAbsolutePath() + ", line 4", four.get(1));
        assertTrue(((String) four.get(2)).contains("field 'order_id'"), (String) four.get(2));
    }

    @Test
    void appendFalseTruncatesOnlyWhatASinkWroteAndAppendTrueAppends() throws Exception {
        Path in = tmp.resolve("one.jsonl");
        Files.writeString(in, "{\"order_id\":1}\n{\"order_id\":2}\n");
        Path out = tmp.resolve("out.jsonl");
        Files.writeString(out, "old line\n");
        TableDescriptor src = table("orders", "file", opts("fileName", in.toString()), ORDER_COLUMNS);

        runCopy(src, table("o", "file", opts("filePath", out.toString(), "needAppend", "true"), ORDER_COLUMNS));
        List<String> lines = Files.readAllLines(out);
        assertEquals(3, lines.size());
        assertEquals("old line", lines.get(0));

        runCopy(src, table("o", "file", opts("filePath", out.toString()), ORDER_COLUMNS));
        assertEquals(5, Files.readAllLines(out).size(), "append is the default");

        // out.jsonl was there before any sink: it is never truncated.
        ConfigException refused = assertThrows(ConfigException.class, () -> start(src,
                table("o", "file", opts("filePath", out.toString(), "append", "false"), ORDER_COLUMNS)));
        assertTrue(refused.getMessage().contains("file sink of table o: " + out + " was not written by a file sink"),
                refused.getMessage());
        assertEquals(5, Files.readAllLines(out).size());

        Path own = tmp.resolve("own.jsonl");
        for (int run = 0; run < 2; run++) {
            runCopy(src, table("o", "file", opts("filePath", own.toString(), "append", "false"), ORDER_COLUMNS));
            assertEquals(multiset(List.of(
                    "{\"order_id\":1,\"amount\":null,\"product\":null,\"ts\":null}",
                    "{\"order_id\":2,\"amount\":null,\"product\":null,\"ts\":null}")),
                    multiset(Files.readAllLines(own)), "the sink's own file is truncated, run " + run);
        }
    }

    @Test
    void aDirectorySinkDeletesOnlyPartFilesItWrote() throws Exception {
        Path in = tmp.resolve("one.jsonl");
        Files.writeString(in, "{\"order_id\":1}\n");
        TableDescriptor src = table("orders", "file", opts("fileName", in.toString()), ORDER_COLUMNS);
        Path dir = tmp.resolve("parts");
        TableDescriptor sink = table("o", "file", opts("path", dir + "/", "append", "false"), ORDER_COLUMNS);
        runCopy(src, sink);
        runCopy(src, sink);
        List<String> parts;
        try (var s = Files.list(dir)) {
            parts = s.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith(".")).sorted().toList();
        }
        assertEquals(List.of("part-0.jsonl"), parts);
        assertEquals(1, Files.readAllLines(dir.resolve("part-0.jsonl")).size(), "the earlier run's part was deleted");

        Path foreign = dir.resolve("part-7.jsonl");
        Files.writeString(foreign, "someone else's\n");
        Path unrelated = dir.resolve("notes.txt");
        Files.writeString(unrelated, "keep\n");
        ConfigException e = assertThrows(ConfigException.class, () -> start(src, sink));
        assertTrue(e.getMessage().contains(foreign.toString()), e.getMessage());
        assertEquals("someone else's\n", Files.readString(foreign));
        assertEquals("keep\n", Files.readString(unrelated));
    }

    @Test
    void allowedPathsConfineSourcesAndSinks() throws Exception {
        Path allowed = tmp.resolve("allowed");
        Path outside = tmp.resolve("outside");
        Files.createDirectories(allowed);
        Files.createDirectories(outside);
        Files.writeString(allowed.resolve("in.jsonl"), "{\"order_id\":1}\n");
        Files.writeString(outside.resolve("secret.jsonl"), "{\"order_id\":2}\n");
        Files.createSymbolicLink(allowed.resolve("link.jsonl"), outside.resolve("secret.jsonl"));
        engine = EngineContext.of(Map.of("worker.threads", "2", "state.dir", tmp.resolve("state").toString(),
                "file.allowed-paths", tmp.resolve("other") + ", " + allowed));

        runCopy(table("i", "file", opts("path", allowed.resolve("in.jsonl").toString()), ORDER_COLUMNS),
                table("o", "file", opts("path", allowed.resolve("out/") + "/"), ORDER_COLUMNS));
        assertEquals(1, Files.readAllLines(allowed.resolve("out/part-0.jsonl")).size());

        TableDescriptor sink = table("o", "collect", opts("id", "allowed-" + UUID.randomUUID()), ORDER_COLUMNS);
        for (String path : List.of(outside.resolve("secret.jsonl").toString(), allowed + "/../outside/secret.jsonl",
                allowed.resolve("link.jsonl").toString())) {
            ConfigException e = assertThrows(ConfigException.class,
                    () -> start(table("src", "file", opts("path", path), ORDER_COLUMNS), sink));
            assertTrue(e.getMessage().startsWith("file source of table src: path ")
                    && e.getMessage().contains("is outside file.allowed-paths"), e.getMessage());
        }
        ConfigException e = assertThrows(ConfigException.class, () -> start(
                table("i", "file", opts("path", allowed.resolve("in.jsonl").toString()), ORDER_COLUMNS),
                table("snk", "file", opts("path", outside.resolve("x.jsonl").toString()), ORDER_COLUMNS)));
        assertTrue(e.getMessage().startsWith("file sink of table snk: path " + outside.resolve("x.jsonl")),
                e.getMessage());
        assertFalse(Files.exists(outside.resolve("x.jsonl")));
    }

    /** Starts a copy job expected to be refused: the start's exception. */
    private void start(TableDescriptor src, TableDescriptor sink) throws Exception {
        GraphBuilder b = new GraphBuilder("refused");
        b.source(src).sinkTo(sink);
        JobInstance job = new JobInstance(b.build(), engine);
        try {
            job.start();
        } finally {
            assertTrue(job.awaitTermination(TIMEOUT));
        }
    }

    private void runCopy(TableDescriptor src, TableDescriptor sink) throws Exception {
        GraphBuilder b = new GraphBuilder("copy");
        b.source(src).sinkTo(sink);
        JobInstance job = run(b);
        assertEquals(JobInstance.State.FINISHED, job.state(), String.valueOf(job.failure()));
    }

    @Test
    void globsCsvLongLinesAndDirectorySinks() throws Exception {
        Path in = tmp.resolve("glob");
        Files.createDirectories(in);
        String longText = "x".repeat(600_000);      // longer than the read buffer
        Files.writeString(in.resolve("a.csv"), "1,a\n2," + longText + "\n3,c");   // no final newline
        Files.writeString(in.resolve("b.csv"), "4,d\n");
        Files.writeString(in.resolve("c.txt"), "5,e\n");
        Column[] cols = {Column.physical("id", DataType.of(Kind.INT)), Column.physical("s", DataType.string())};
        TableDescriptor src = table("t", "filesystem", opts("path", in + "/*.csv", "format", "csv"), cols);
        Path outDir = tmp.resolve("parts");
        TableDescriptor sink = table("o", "file", opts("path", outDir + "/", "format", "csv"), cols);
        runCopy(src, sink);
        List<String> parts;
        try (var s = Files.list(outDir)) {
            parts = s.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith(".")) // markers: OwnedFiles
                    .sorted().collect(Collectors.toList());
        }
        assertEquals(2, parts.size(), parts.toString());
        assertTrue(parts.stream().allMatch(p -> p.matches("part-\\d+\\.csv")), parts.toString());
        List<String> lines = new ArrayList<>();
        for (String p : parts) {
            lines.addAll(Files.readAllLines(outDir.resolve(p)));
        }
        assertEquals(multiset(List.of("1,a", "2," + longText, "3,c", "4,d")), multiset(lines));
    }

    @Test
    void rsqldbNonJsonLinesAreSplitOrKeptWhole() throws Exception {
        Path in = tmp.resolve("plain.txt");
        Files.writeString(in, "1|a b\n2|c\n");
        Column[] cols = {Column.physical("id", DataType.of(Kind.INT)), Column.physical("s", DataType.string())};
        String split = "split-" + UUID.randomUUID();
        runCopy(table("t", "file", opts("filePath", in.toString(), "isJsonData", "false", "fieldDelimiter", "|"), cols),
                table("o", "collect", opts("id", split), cols));
        assertEquals(multiset(List.of(List.<Object>of(1, "a b"), List.<Object>of(2, "c"))),
                multiset(CollectSinkFactory.rows(split).stream().map(r -> Arrays.asList(r.fields())).collect(Collectors.toList())));
        String whole = "whole-" + UUID.randomUUID();
        Column[] line = {Column.physical("line", DataType.string())};
        runCopy(table("t", "file", opts("filePath", in.toString(), "isJsonData", "false"), line),
                table("o", "collect", opts("id", whole), line));
        assertEquals(multiset(List.of("1|a b", "2|c")),
                multiset(CollectSinkFactory.rows(whole).stream().map(r -> (String) r.get(0)).collect(Collectors.toList())));
    }

    @Test
    void missingPathsAreReportedAtCreation() {
        TableDescriptor src = table("orders", "file", opts("filePath", tmp.resolve("nope.jsonl").toString()), ORDER_COLUMNS);
        TableDescriptor sink = table("sink", "collect", opts("id", "x"), ORDER_COLUMNS);
        GraphBuilder b = new GraphBuilder("missing");
        b.source(src).sinkTo(sink);
        JobInstance job = new JobInstance(b.build(), engine);
        ConfigException e = assertThrows(ConfigException.class, job::start);
        assertTrue(e.getMessage().contains(tmp.resolve("nope.jsonl").toString()), e.getMessage());
        assertTrue(job.awaitTermination(TIMEOUT));

        TableDescriptor glob = table("orders", "file", opts("path", tmp + "/*.none"), ORDER_COLUMNS);
        GraphBuilder b2 = new GraphBuilder("missing-glob");
        b2.source(glob).sinkTo(sink);
        JobInstance job2 = new JobInstance(b2.build(), engine);
        e = assertThrows(ConfigException.class, job2::start);
        assertTrue(e.getMessage().contains("*.none"), e.getMessage());
        assertTrue(job2.awaitTermination(TIMEOUT));

        TableDescriptor badMeta = table("orders", "file", opts("path", tmp.toString()), ORDER_COLUMNS[0],
                Column.metadata("x", DataType.string(), "topic", true));
        GraphBuilder b3 = new GraphBuilder("bad-meta");
        b3.source(badMeta).sinkTo(table("s", "collect", opts("id", "y"), ORDER_COLUMNS[0], Column.physical("x", DataType.string())));
        JobInstance job3 = new JobInstance(b3.build(), engine);
        e = assertThrows(ConfigException.class, job3::start);
        assertTrue(e.getMessage().contains("topic"), e.getMessage());
        assertTrue(job3.awaitTermination(TIMEOUT));
    }
}
