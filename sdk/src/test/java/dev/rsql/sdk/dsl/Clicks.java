package dev.rsql.sdk.dsl;

import dev.rsql.runtime.testing.ValuesSourceFactory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The tests' input: clicks of a few users with random amounts, in event-time order but up to {@link #DISORDER} ms out
 * of order (never more, so none is late with watermarks that far behind), spread over shards of the {@code values}
 * test source as JSON.
 */
final class Clicks {

    static final long BASE = 1_700_000_000_000L;
    static final long DISORDER = 2_000;

    record Click(String userId, String url, int amount, Instant ts) {
    }

    final List<Click> all = new ArrayList<>();
    private final List<List<String>> shards = new ArrayList<>();

    /** {@code n} clicks per shard, about one every {@code step} ms. */
    Clicks(long seed, int shardCount, int n, long step) {
        Random random = new Random(seed);
        for (int s = 0; s < shardCount; s++) {
            List<String> payloads = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                // at least one step after the previous click's earliest time: later than any watermark so far
                long ts = BASE + i * step + random.nextInt((int) DISORDER);
                Click c = new Click("u" + random.nextInt(5), "/p" + random.nextInt(3), random.nextInt(100),
                        Instant.ofEpochMilli(ts));
                all.add(c);
                payloads.add(String.format("{\"userId\":\"%s\",\"url\":\"%s\",\"amount\":%d,\"ts\":%d}", c.userId(),
                        c.url(), c.amount(), ts));
            }
            shards.add(payloads);
        }
    }

    /** Registers the shards under {@code id}; the WITH options of a table reading them. */
    @SuppressWarnings("unchecked")
    Map<String, String> register(String id) {
        ValuesSourceFactory.register(id, shards.toArray(new List[0]));
        return Map.of("connector", "values", "id", id, "format", "json");
    }
}
