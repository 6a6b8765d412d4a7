package dev.rsql.planner;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.testing.ValuesSourceFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Randomized out-of-order events for window and aggregation tests, and the straightforward computations their
 * results are checked against. Each shard's event times run forward with jitter below the watermark delay (and now and
 * then a jump, so sessions end), so no event is late whatever order the shards interleave in.
 */
final class RandomEvents {

    static final long BASE = 1_700_000_000_000L;
    static final long DELAY = 2000;
    static final int KEYS = 5;

    /** One event; {@code v} is NULL for about one event in ten. */
    record Event(int shard, int seq, String k, Long v, double d, String s, long ts) {
        String json() {
            return "{\"k\":\"" + k + "\",\"v\":" + v + ",\"d\":" + d + ",\"s\":\"" + s + "\",\"ts\":" + ts + "}";
        }
    }

    /** A window [start, end). */
    record Window(long start, long end) {
    }

    private RandomEvents() {
    }

    static List<List<Event>> generate(long seed, int shards, int perShard) {
        Random r = new Random(seed);
        List<List<Event>> out = new ArrayList<>();
        for (int shard = 0; shard < shards; shard++) {
            List<Event> events = new ArrayList<>();
            long t = BASE;
            for (int i = 0; i < perShard; i++) {
                t += r.nextInt(300);
                if (r.nextInt(40) == 0) {
                    t += 3000 + r.nextInt(4000);
                }
                long ts = Math.max(BASE, t - r.nextInt((int) DELAY));
                Long v = r.nextInt(10) == 0 ? null : (long) r.nextInt(100);
                double d = r.nextInt(10_000) / 100.0;
                events.add(new Event(shard, i, "k" + r.nextInt(KEYS), v, d, "s" + r.nextInt(20), ts));
            }
            out.add(events);
        }
        return out;
    }

    /**
     * Registers the events with the {@code values} test connector, one shard per list, and returns the DDL of table
     * {@code ev} over them, with a watermark {@link #DELAY} behind.
     */
    @SuppressWarnings("unchecked")
    static String eventTable(List<List<Event>> shards) {
        String id = "events-" + UUID.randomUUID();
        List<String>[] payloads = shards.stream()
                .map(events -> events.stream().map(Event::json).collect(Collectors.toList()))
                .toArray(List[]::new);
        ValuesSourceFactory.register(id, payloads);
        return "CREATE TABLE ev (k VARCHAR, v BIGINT, d DOUBLE, s VARCHAR, ts TIMESTAMP(3),"
                + " WATERMARK FOR ts AS withOffset(ts, " + DELAY + ")) WITH (type = 'values', id = '" + id + "');\n";
    }

    static List<Event> all(List<List<Event>> shards) {
        return shards.stream().flatMap(List::stream).collect(Collectors.toList());
    }

    static Function<Long, List<Window>> tumble(long size) {
        return ts -> {
            long start = ts - Math.floorMod(ts, size);
            return List.of(new Window(start, start + size));
        };
    }

    static Function<Long, List<Window>> hop(long slide, long size) {
        return ts -> {
            List<Window> windows = new ArrayList<>();
            for (long start = ts - Math.floorMod(ts, slide); start > ts - size; start -= slide) {
                windows.add(new Window(start, start + size));
            }
            return windows;
        };
    }

    static Function<Long, List<Window>> cumulate(long step, long maxSize) {
        return ts -> {
            long start = ts - Math.floorMod(ts, maxSize);
            List<Window> windows = new ArrayList<>();
            for (long end = start + step; end <= start + maxSize; end += step) {
                if (end > ts) {
                    windows.add(new Window(start, end));
                }
            }
            return windows;
        };
    }

    /** Session windows of one key's events: a new session starts when an event is at or past the current end. */
    static List<List<Event>> sessions(List<Event> keyEvents, long gap) {
        List<Event> sorted = new ArrayList<>(keyEvents);
        sorted.sort(Comparator.comparingLong(Event::ts));
        List<List<Event>> sessions = new ArrayList<>();
        long end = Long.MIN_VALUE;
        for (Event e : sorted) {
            if (e.ts() >= end) {
                sessions.add(new ArrayList<>());
            }
            sessions.get(sessions.size() - 1).add(e);
            end = Math.max(end, e.ts() + gap);
        }
        return sessions;
    }

    /** A result row as text, fields joined by '|', for order-insensitive comparison. */
    static String text(Object... fields) {
        return Arrays.stream(fields).map(String::valueOf).collect(Collectors.joining("|"));
    }

    static List<String> texts(List<Row> rows) {
        return rows.stream().map(r -> text(r.fields())).sorted().collect(Collectors.toList());
    }
}
