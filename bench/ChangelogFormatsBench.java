import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.format.FormatContext;
import dev.rsql.runtime.format.FormatRegistry;
import dev.rsql.runtime.format.RowDecoder;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Decode rate of the changelog formats against plain JSON on the same rows (an orders table of 8 columns), one
 * thread: each format's messages are decoded in rounds until the rate settles, the best round is printed. canal-json
 * carries every value as a string (as Canal writes it) and holds one row per message here; debezium-json updates
 * carry the row twice (before and after).
 *
 * Usage: java -cp 'lib/*' bench/ChangelogFormatsBench.java [ROWS]   (default 200000)
 */
public class ChangelogFormatsBench {

    static final RowType ORDERS = RowType.builder().field("order_id", DataType.of(DataType.Kind.BIGINT))
            .field("user_id", DataType.of(DataType.Kind.BIGINT)).field("product", DataType.string())
            .field("category", DataType.string()).field("price", DataType.decimal(10, 2))
            .field("qty", DataType.of(DataType.Kind.INT)).field("status", DataType.string())
            .field("created", DataType.timestamp(3)).build();

    static String row(Random r, long id, boolean asText) {
        String q = asText ? "\"" : "";
        return "{\"order_id\":" + q + id + q + ",\"user_id\":" + q + r.nextInt(100_000) + q + ",\"product\":\"商品"
                + r.nextInt(5000) + "\",\"category\":\"cat" + r.nextInt(40) + "\",\"price\":" + q + r.nextInt(1000)
                + "." + (10 + r.nextInt(90)) + q + ",\"qty\":" + q + (1 + r.nextInt(9)) + q + ",\"status\":\""
                + (r.nextBoolean() ? "PAID" : "NEW") + "\",\"created\":\"2026-12-08 10:00:0" + r.nextInt(10) + ".000\"}";
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        Random r = new Random(1);
        List<byte[]> json = new ArrayList<>(), canal = new ArrayList<>(), debezium = new ArrayList<>(),
                maxwell = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            long seed = r.nextLong();
            String plain = row(new Random(seed), i, false);
            String text = row(new Random(seed), i, true);
            boolean update = i % 3 == 0;
            json.add(bytes(plain));
            canal.add(bytes("{\"data\":[" + text + "],\"database\":\"shop\",\"es\":1733650000000,\"id\":" + i
                    + ",\"isDdl\":false,\"mysqlType\":{\"order_id\":\"bigint\"},\"old\":" + (update
                    ? "[{\"status\":\"NEW\"}]" : "null") + ",\"pkNames\":[\"order_id\"],\"sql\":\"\",\"sqlType\":"
                    + "{\"order_id\":-5},\"table\":\"orders\",\"ts\":1733650000123,\"type\":\""
                    + (update ? "UPDATE" : "INSERT") + "\"}"));
            debezium.add(bytes("{\"before\":" + (update ? plain : "null") + ",\"after\":" + plain
                    + ",\"source\":{\"version\":\"2.7.0\",\"connector\":\"mysql\",\"name\":\"shop\",\"ts_ms\":"
                    + "1733650000000,\"db\":\"shop\",\"table\":\"orders\",\"server_id\":1,\"file\":\"binlog.000003\","
                    + "\"pos\":" + (1000 + i) + ",\"row\":0},\"op\":\"" + (update ? "u" : "c")
                    + "\",\"ts_ms\":1733650000123,\"transaction\":null}"));
            maxwell.add(bytes("{\"database\":\"shop\",\"table\":\"orders\",\"type\":\"" + (update ? "update" : "insert")
                    + "\",\"ts\":1733650000,\"xid\":" + i + ",\"commit\":true,\"data\":" + plain
                    + (update ? ",\"old\":{\"status\":\"NEW\"}" : "") + "}"));
        }
        FormatRegistry formats = new FormatRegistry(ChangelogFormatsBench.class.getClassLoader());
        System.out.printf("%,d rows, one thread; best of 8 rounds%n", n);
        double base = 0;
        for (Map.Entry<String, List<byte[]>> e : List.of(Map.entry("json", json), Map.entry("canal-json", canal),
                Map.entry("debezium-json", debezium), Map.entry("maxwell-json", maxwell))) {
            RowDecoder d = formats.get(e.getKey()).createDecoder(FormatContext.of("orders", ORDERS,
                    new Options(Map.of())));
            long bytes = e.getValue().stream().mapToLong(b -> b.length).sum();
            long[] rows = new long[1];
            double best = 0;
            for (int round = 0; round < 8; round++) {
                long t0 = System.nanoTime();
                for (byte[] m : e.getValue()) {
                    try {
                        d.decodeChangelog(m, 0, m.length, (kind, fields) -> rows[0]++);
                    } catch (Exception x) {
                        throw new IllegalStateException(e.getKey() + ": " + x.getMessage(), x);
                    }
                }
                best = Math.max(best, n / ((System.nanoTime() - t0) / 1e9));
            }
            if (base == 0) {
                base = best;
            }
            System.out.printf("%-14s %,12.0f messages/s  %6.1f MB/s  %5.2f× json  (%d bytes/message)%n", e.getKey(),
                    best, best * bytes / n / 1e6, best / base, bytes / n);
        }
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
