package dev.rsql.runtime.lookup;

import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.connector.JobInfo;
import dev.rsql.runtime.connector.LookupCacheMode;
import dev.rsql.runtime.connector.LookupReader;
import dev.rsql.runtime.connector.LookupSource;
import dev.rsql.runtime.connector.file.FileConnectorFactory;
import dev.rsql.runtime.exec.DefaultConnectorContext;
import dev.rsql.runtime.format.FormatRegistry;
import dev.rsql.runtime.table.Column;
import dev.rsql.runtime.table.TableDescriptor;
import dev.rsql.runtime.table.TableSchema;
import dev.rsql.runtime.testing.Await;
import dev.rsql.runtime.types.DataType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Full caches of real JSON-lines and CSV files: parallel range loads on line boundaries, and reloads. */
class FullCacheFileTest {

    @TempDir
    Path dir;

    private TableDescriptor table(Path file, Map<String, String> options) {
        Map<String, String> o = new HashMap<>(options);
        o.put("path", file.toString());
        return new TableDescriptor("dim", new TableSchema(List.of(Column.physical("id", DataType.of(DataType.Kind.BIGINT)),
                Column.physical("name", DataType.string())), List.of("id")), "file", new Options(o));
    }

    private FullCache cache(TableDescriptor t) throws Exception {
        FullCache cache = new FullCache("j", t, source(t), LookupOptions.of(t.options(), LookupCacheMode.NONE),
                List.of(new int[]{0}));
        cache.start();
        return cache;
    }

    private LookupSource source(TableDescriptor t) {
        JobInfo job = new JobInfo() {
            @Override
            public String name() {
                return "j";
            }

            @Override
            public String instanceId() {
                return "i";
            }

            @Override
            public Options config() {
                return Options.empty();
            }

            @Override
            public Path dataDir() {
                return dir;
            }

            @Override
            public ClassLoader classLoader() {
                return getClass().getClassLoader();
            }
        };
        return new FileConnectorFactory().createLookupSource(new DefaultConnectorContext(t, job,
                new FormatRegistry(getClass().getClassLoader())));
    }

    private static String name(FullCache cache, long id) {
        List<Object[]> rows = cache.table().lookup(0, new Object[]{id});
        return rows.isEmpty() ? null : (String) rows.get(0)[1];
    }

    /** A 3 MB file loads in several byte ranges: each line exactly once, whatever line a range boundary cuts. */
    @Test
    void loadsALargeFileInRangesOnLineBoundaries() throws Exception {
        StringBuilder csv = new StringBuilder();
        int n = 100_000;
        for (int i = 0; i < n; i++) {
            csv.append(i).append(",name-").append(i).append("-".repeat(i % 17)).append(i % 3 == 0 ? "\r\n" : "\n");
        }
        Path f = Files.writeString(dir.resolve("d.csv"), csv);
        try (FullCache cache = cache(table(f, Map.of("format", "csv", "lookup.full-cache.load-threads", "4")))) {
            assertEquals(n, cache.table().size());
            DimensionTableStatus status = cache.status();
            assertEquals(n, status.rows());
            assertEquals(1, status.loads());
            assertEquals(-1, status.loadingRows(), "no load under way");
            assertTrue(status.bytes() > 0 && status.loadedMillis() > 0, status.toString());
            for (int i = 0; i < n; i += 7) {
                assertEquals("name-" + i + "-".repeat(i % 17), name(cache, i));
            }
        }
    }

    /** A rewritten file: an explicit reload, then a periodic one, show a new key and a changed row. */
    @Test
    void reloadsARewrittenFile() throws Exception {
        Path f = Files.writeString(dir.resolve("d.jsonl"), "{\"id\":1,\"name\":\"a\"}\n{\"id\":2,\"name\":\"b\"}\n");
        try (FullCache cache = cache(table(f, Map.of()))) {
            assertEquals("a", name(cache, 1));
            assertEquals(null, name(cache, 3));
            Files.writeString(f, "{\"id\":1,\"name\":\"a2\"}\n{\"id\":2,\"name\":\"b\"}\n{\"id\":3,\"name\":\"c\"}\n");
            CompactTable before = cache.table();
            cache.reload();
            assertEquals("a2", name(cache, 1));
            assertEquals("c", name(cache, 3));
            assertEquals("a", before.lookup(0, new Object[]{1L}).get(0)[1], "the old copy is left unchanged");
            Files.writeString(f, "not json\n");
            cache.reload();
            assertEquals("c", name(cache, 3), "a failed reload keeps the previous copy");
            assertEquals(2, cache.status().loads());
            assertEquals(3, cache.status().rows());
            assertTrue(cache.status().lastError() != null, "status tells why the reload failed");
        }
        try (FullCache cache = cache(table(f = Files.writeString(dir.resolve("e.jsonl"), "{\"id\":1,\"name\":\"a\"}\n"),
                Map.of("lookup.full-cache.periodic-reload.interval", "20 ms")))) {
            Files.writeString(f, "{\"id\":1,\"name\":\"z\"}\n{\"id\":4,\"name\":\"d\"}\n");
            Await.until("periodic reload", Duration.ofSeconds(10),
                    () -> "z".equals(name(cache, 1)) && "d".equals(name(cache, 4)));
            assertTrue(cache.loads() >= 2);
        }
    }

    /** Point lookups of single lines (for a partial cache), including duplicate keys and a rewritten file. */
    @Test
    void looksUpLinesOfAFile() throws Exception {
        StringBuilder json = new StringBuilder();
        for (int i = 0; i < 5000; i++) {
            json.append("{\"id\":").append(i % 4000).append(",\"name\":\"v").append(i).append("\"}\n");
        }
        Path f = Files.writeString(dir.resolve("p.jsonl"), json);
        TableDescriptor t = table(f, Map.of("lookup.cache", "PARTIAL"));
        try (LookupSource source = source(t); LookupReader reader = source.openReader(new int[]{0})) {
            assertEquals(LookupCacheMode.PARTIAL, LookupOptions.of(t.options(), source.defaultCacheMode()).mode());
            for (long id = 0; id < 4000; id += 3) {
                List<String> names = reader.lookup(new Object[]{id}).stream().map(r -> (String) r[1]).sorted()
                        .toList();
                assertEquals(id < 1000 ? List.of("v" + id, "v" + (id + 4000)).stream().sorted().toList()
                        : List.of("v" + id), names);
            }
            assertEquals(0, reader.lookup(new Object[]{4001L}).size());
            Files.writeString(f, "{\"id\":4001,\"name\":\"new\"}\n");
            assertEquals("new", reader.lookup(new Object[]{4001L}).get(0)[1], "a rewritten file is indexed again");
        }
    }
}
