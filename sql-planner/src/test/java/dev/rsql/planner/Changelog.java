package dev.rsql.planner;

import dev.rsql.runtime.data.Row;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a sink's table holds after a changelog, computed the way an external system would apply it. */
final class Changelog {

    private Changelog() {
    }

    /** Applies a retract changelog: each -U or -D takes back one earlier equal +I or +U. Rows as text, sorted. */
    static List<String> materialize(List<Row> rows) {
        Map<String, Integer> counts = new TreeMap<>();
        for (Row r : rows) {
            String text = RandomEvents.text(r.fields());
            int n = counts.merge(text, r.kind().isAccumulate() ? 1 : -1, Integer::sum);
            assertTrue(n >= 0, "a " + r.kind() + " takes back a row that is not there: " + text);
        }
        List<String> table = new ArrayList<>();
        counts.forEach((text, n) -> table.addAll(Collections.nCopies(n, text)));
        return table;
    }

    /** Applies an upsert stream keyed by the given fields: +I and +U write the row, -D deletes the key. */
    static Map<List<Object>, List<Object>> upsert(List<Row> rows, int... keyFields) {
        Map<List<Object>, List<Object>> table = new LinkedHashMap<>();
        for (Row r : rows) {
            List<Object> key = new ArrayList<>();
            for (int f : keyFields) {
                key.add(r.get(f));
            }
            switch (r.kind()) {
                case INSERT, UPDATE_AFTER -> table.put(key, Arrays.asList(r.fields()));
                case DELETE -> table.remove(key);
                default -> throw new AssertionError("an upsert sink received " + r);
            }
        }
        return table;
    }
}
