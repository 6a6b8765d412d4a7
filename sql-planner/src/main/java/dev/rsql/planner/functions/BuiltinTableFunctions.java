package dev.rsql.planner.functions;

import java.util.function.Consumer;

/**
 * The built-in table functions (Blink §8.5). Each hands its rows ({@code Object[]}, internal values) to the consumer;
 * NULL arguments are handled here (the functions are not strict).
 */
public final class BuiltinTableFunctions {

    private BuiltinTableFunctions() {
    }

    /**
     * STRING_SPLIT(s, sep): one row per piece of s split by the literal separator; consecutive separators give empty
     * strings; an empty separator (or one that does not occur) gives s itself; NULL s gives no rows.
     */
    public static void stringSplit(Consumer<Object> out, String s, String separator) {
        if (s == null || separator == null) {
            return;
        }
        if (separator.isEmpty()) {
            out.accept(new Object[] {s});
            return;
        }
        int from = 0;
        while (true) {
            int at = s.indexOf(separator, from);
            if (at < 0) {
                out.accept(new Object[] {s.substring(from)});
                return;
            }
            out.accept(new Object[] {s.substring(from, at)});
            from = at + separator.length();
        }
    }

    /** GENERATE_SERIES(from, to): rows from, from+1, ..., to-1 (the upper bound is excluded). */
    public static void generateSeries(Consumer<Object> out, Integer from, Integer to) {
        if (from == null || to == null) {
            return;
        }
        for (int i = from; i < to; i++) {
            out.accept(new Object[] {i});
        }
    }

    public static void generateSeries(Consumer<Object> out, Long from, Long to) {
        if (from == null || to == null) {
            return;
        }
        for (long i = from; i < to; i++) {
            out.accept(new Object[] {i});
        }
    }

    /**
     * JSON_TUPLE(json, path1, ..., pathN): one row per path with the value at that path (paths without {@code $});
     * rows of NULL for invalid or NULL JSON.
     */
    public static void jsonTuple(Consumer<Object> out, String json, String... paths) {
        Object doc = json == null ? null : JsonPath.parse(json);
        for (String p : paths) {
            JsonPath path = JsonPath.compileRelative(p);
            out.accept(new Object[] {path == null ? null : path.evaluate(doc)});
        }
    }

    /**
     * MULTI_KEYVALUE(s, split1, split2, key1, ..., keyN): one row with the values of the keys, as KEYVALUE finds
     * them (a NULL delimiter is a space; a delimiter of several characters splits at any of them); all NULL for a
     * NULL s.
     */
    public static void multiKeyValue(Consumer<Object> out, String s, String pairSeparators, String kvSeparators,
                                     String... keys) {
        Object[] row = new Object[keys.length];
        if (s != null) {
            for (String pair : StringFunctions.splitByChars(s, pairSeparators)) {
                int at = StringFunctions.indexOfAny(pair, kvSeparators);
                String key = at < 0 ? pair : pair.substring(0, at);
                String value = at < 0 ? null : pair.substring(at + 1);
                for (int i = 0; i < keys.length; i++) {
                    if (row[i] == null && key.equals(keys[i])) {
                        row[i] = value;
                    }
                }
            }
        }
        out.accept(row);
    }
}
