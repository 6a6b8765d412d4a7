package dev.rsql.planner;

import dev.rsql.runtime.testing.ValuesSourceFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/** A test row {@code (k INT, x BIGINT)} with a nullable key, and tables of them spread over shards. */
record KeyedRow(Integer k, long x) {

    /** Rows per shard: a key below {@code keys}, NULL one time in {@code nullOneIn}, and a value below 100. */
    static List<List<KeyedRow>> generate(Random r, int shards, int perShard, int nullOneIn, int keys) {
        List<List<KeyedRow>> out = new ArrayList<>();
        for (int s = 0; s < shards; s++) {
            List<KeyedRow> rows = new ArrayList<>();
            for (int i = 0; i < perShard; i++) {
                rows.add(new KeyedRow(r.nextInt(nullOneIn) == 0 ? null : r.nextInt(keys), r.nextInt(100)));
            }
            out.add(rows);
        }
        return out;
    }

    /** A values table {@code name (k INT, value BIGINT)} reading the shards as JSON rows. */
    @SuppressWarnings("unchecked")
    static String table(String name, String value, List<List<KeyedRow>> shards) {
        String id = name + "-" + UUID.randomUUID();
        List<String>[] payloads = shards.stream().map(rows -> rows.stream()
                .map(x -> "{\"k\":" + x.k() + ",\"" + value + "\":" + x.x() + "}").toList()).toArray(List[]::new);
        ValuesSourceFactory.register(id, payloads);
        return "CREATE TABLE " + name + " (k INT, " + value + " BIGINT) WITH (type = 'values', id = '" + id + "');\n";
    }

    static List<KeyedRow> all(List<List<KeyedRow>> shards) {
        return shards.stream().flatMap(List::stream).toList();
    }
}
