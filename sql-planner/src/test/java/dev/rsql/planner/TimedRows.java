package dev.rsql.planner;

import dev.rsql.runtime.testing.ValuesSourceFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/**
 * Random rows with a key, a unique id and an event time, for the time-bounded join tests: each shard's times run
 * forward with jitter below the watermark delay, so no row is late whatever order the shards interleave in.
 */
final class TimedRows {

    static final long BASE = 1_700_000_000_000L;
    static final long DELAY = 2000;

    /** A row: its key (NULL now and then), its id (unique in its table) and its time. */
    record Timed(Integer k, long id, long ts) {
        String json() {
            return "{\"k\":" + k + ",\"id\":" + id + ",\"ts\":" + ts + "}";
        }
    }

    private TimedRows() {
    }

    /** {@code perShard} rows per shard, about {@code step} ms apart, keys 0..keys-1. */
    static List<List<Timed>> generate(Random r, int shards, int perShard, int keys, int step) {
        List<List<Timed>> out = new ArrayList<>();
        long id = 0;
        for (int s = 0; s < shards; s++) {
            List<Timed> rows = new ArrayList<>();
            long t = BASE;
            for (int i = 0; i < perShard; i++) {
                t += r.nextInt(2 * step);
                long ts = Math.max(BASE, t - r.nextInt((int) DELAY));
                rows.add(new Timed(r.nextInt(15) == 0 ? null : r.nextInt(keys), id++, ts));
            }
            out.add(rows);
        }
        return out;
    }

    /**
     * Registers the rows with the {@code values} connector and returns the DDL of table {@code name} (k INT, id
     * BIGINT, ts TIMESTAMP(3)) over them, with a watermark {@link #DELAY} behind and {@code extra} columns.
     */
    @SuppressWarnings("unchecked")
    static String table(String name, List<List<Timed>> shards, String extra) {
        String id = name + "-" + UUID.randomUUID();
        ValuesSourceFactory.register(id, shards.stream().map(rows -> rows.stream().map(Timed::json).toList())
                .toArray(List[]::new));
        return "CREATE TABLE " + name + " (k INT, id BIGINT, ts TIMESTAMP(3)" + extra + ", WATERMARK FOR ts AS "
                + "withOffset(ts, " + DELAY + ")) WITH (type = 'values', id = '" + id + "');\n";
    }

    static List<Timed> all(List<List<Timed>> shards) {
        return shards.stream().flatMap(List::stream).toList();
    }

    /** Pairs of equal keys satisfying {@code matches}, then the unmatched rows of outer sides, as sorted text. */
    static List<String> join(List<Timed> left, List<Timed> right, java.util.function.BiPredicate<Timed, Timed> matches,
                             boolean leftOuter, boolean rightOuter) {
        List<String> out = new ArrayList<>();
        boolean[] rightMatched = new boolean[right.size()];
        for (Timed a : left) {
            boolean matched = false;
            for (int j = 0; j < right.size(); j++) {
                Timed b = right.get(j);
                if (a.k() != null && a.k().equals(b.k()) && matches.test(a, b)) {
                    out.add(RandomEvents.text(a.k(), a.id(), b.k(), b.id()));
                    matched = true;
                    rightMatched[j] = true;
                }
            }
            if (!matched && leftOuter) {
                out.add(RandomEvents.text(a.k(), a.id(), null, null));
            }
        }
        for (int j = 0; j < right.size(); j++) {
            if (!rightMatched[j] && rightOuter) {
                out.add(RandomEvents.text(null, null, right.get(j).k(), right.get(j).id()));
            }
        }
        out.sort(null);
        return out;
    }
}
