package dev.rsql.e2e;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.testing.Await;
import dev.rsql.runtime.testing.CollectSinkFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CloudEvents (structured mode) read from a topic, the paid ones written to a second topic as new events, read from
 * there again: every good event arrives once with its data, every bad one (no source, a wrong specversion) is in the
 * dead-letter table. Shared by the RocketMQ and Kafka tests.
 */
final class CloudEventsRoundTrip {

    static final int EVENTS = 300;

    private CloudEventsRoundTrip() {
    }

    /** Event i: every tenth has no source, every 25th the wrong specversion; the others are good. */
    static List<String> events() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < EVENTS; i++) {
            String source = i % 10 == 0 ? "" : ",\"source\":\"/shop/门店" + (i % 3) + "\"";
            out.add("{\"specversion\":\"" + (i % 25 == 7 ? "0.3" : "1.0") + "\",\"id\":\"ev-" + i + "\"" + source
                    + ",\"type\":\"order." + (i % 2 == 0 ? "paid" : "created") + "\",\"time\":\"2026-12-08T02:00:"
                    + String.format("%02d", i % 60) + "Z\",\"tenant\":\"t" + (i % 4) + "\",\"data\":{\"orderId\":" + i
                    + ",\"amount\":" + (i * 3) + ",\"city\":\"杭州\"}}");
        }
        return out;
    }

    static boolean bad(int i) {
        return i % 10 == 0 || i % 25 == 7;
    }

    /** @param with a table's WITH clause for a topic, given the topic and more options */
    static String script(BiFunction<String, String, String> with, String in, String out, String id) {
        String data = "data ROW<orderId BIGINT, amount INT, city STRING>";
        return "CREATE TABLE events (id STRING, source STRING, type STRING, `time` TIMESTAMP_LTZ(3), tenant STRING, "
                + data + ")" + with.apply(in, ", 'format' = 'cloudevents', 'scan.error-policy' = 'skip',"
                + " 'scan.dead-letter-table' = 'bad_events'") + ";\n"
                + "CREATE TABLE bad_events (`position` STRING, error STRING) WITH ('connector' = 'collect', 'id' = '"
                + id + "-bad');\n"
                + "CREATE TABLE paid (subject STRING, tenant STRING, " + data + ")" + with.apply(out,
                ", 'format' = 'cloudevents', 'cloudevents.default-source' = '/rsql/paid',"
                        + " 'cloudevents.default-type' = 'order.paid.checked'") + ";\n"
                + "CREATE TABLE paid_read (id STRING, source STRING, type STRING, subject STRING, " + data + ")"
                + with.apply(out, ", 'format' = 'cloudevents'") + ";\n"
                + "CREATE TABLE seen (id STRING, source STRING, type STRING, subject STRING, order_id BIGINT)"
                + " WITH ('connector' = 'collect', 'id' = '" + id + "');\n"
                + "INSERT INTO paid SELECT id, tenant, data FROM events WHERE type = 'order.paid';\n"
                + "INSERT INTO seen SELECT id, source, type, subject, data.orderId FROM paid_read;\n";
    }

    /** Waits for the output and checks it. */
    static void check(String id) {
        Set<Long> expected = new TreeSet<>();
        int badCount = 0;
        for (int i = 0; i < EVENTS; i++) {
            if (bad(i)) {
                badCount++;
            } else if (i % 2 == 0) {
                expected.add((long) i);
            }
        }
        int bad = badCount;
        Await.until(() -> "events re-read: " + CollectSinkFactory.rows(id).size() + " of " + expected.size()
                + ", dead letters " + CollectSinkFactory.rows(id + "-bad").size() + " of " + bad,
                Duration.ofSeconds(90), () -> CollectSinkFactory.rows(id).size() >= expected.size()
                        && CollectSinkFactory.rows(id + "-bad").size() >= bad);
        Set<Long> got = new TreeSet<>();
        Set<String> ids = new TreeSet<>();
        for (Row r : CollectSinkFactory.rows(id)) {
            assertEquals("/rsql/paid", r.get(1));
            assertEquals("order.paid.checked", r.get(2));
            assertTrue(((String) r.get(3)).startsWith("ev-"), "the subject is the original id: " + r);
            assertTrue(ids.add((String) r.get(0)), "each event once: " + r);
            got.add((Long) r.get(4));
        }
        assertEquals(expected, got);
        for (Row r : CollectSinkFactory.rows(id + "-bad")) {
            String error = (String) r.get(1);
            assertTrue(error.contains("'source' is missing") || error.contains("specversion '0.3'"), error);
        }
        assertEquals(bad, CollectSinkFactory.rows(id + "-bad").size());
    }
}
