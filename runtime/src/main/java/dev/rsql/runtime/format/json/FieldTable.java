package dev.rsql.runtime.format.json;

import com.alibaba.fastjson2.JSONReader;
import com.alibaba.fastjson2.util.Fnv;
import dev.rsql.runtime.format.EpochWallClock;
import dev.rsql.runtime.types.DataType;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * The declared fields of a JSON object (the record, or a nested ROW) and how JSON member names map to them: exact
 * name first, then case-insensitively; other members are skipped. Names are looked up by fastjson2's 64-bit name
 * hash, so a known member costs no String allocation; resolutions of other spellings are cached. Other members are
 * skipped by {@link JsonSyntax}, without recursion.
 */
final class FieldTable {

    private static final int ABSENT = Integer.MIN_VALUE;
    private static final int UNKNOWN = -1;
    private static final int MAX_CACHED = 4096;

    private final String[] names;
    private final ValueReader[] readers;
    private final Map<String, Integer> lowerCase = new HashMap<>();
    /** Names of the undeclared members in the cache, to name them in errors. */
    private final Map<Long, String> undeclared = new HashMap<>();
    private final boolean failOnMissing;
    private final JsonSyntax syntax;
    // Open-addressing map: name hash -> field index, or UNKNOWN for members to skip.
    private long[] keys;
    private int[] values;
    private boolean[] used;
    private int size;
    // fail-on-missing-field bookkeeping: stamps[i] == stamp when field i was seen in the current object.
    private final int[] stamps;
    private int stamp;

    FieldTable(List<String> names, List<DataType> types, boolean failOnMissing, JsonSyntax syntax,
               EpochWallClock epochs) {
        this(names, types, failOnMissing, syntax, epochs, i -> true);
    }

    /** @param read whether field i is decoded; the members of the others are skipped as undeclared ones are */
    FieldTable(List<String> names, List<DataType> types, boolean failOnMissing, JsonSyntax syntax,
               EpochWallClock epochs, IntPredicate read) {
        int n = names.size();
        this.syntax = syntax;
        this.names = names.toArray(new String[0]);
        this.readers = new ValueReader[n];
        this.failOnMissing = failOnMissing;
        this.stamps = new int[n];
        int capacity = 16;
        while (capacity < n * 4) {
            capacity <<= 1;
        }
        keys = new long[capacity];
        values = new int[capacity];
        used = new boolean[capacity];
        for (int i = 0; i < n; i++) {
            readers[i] = new ValueReader(types.get(i), failOnMissing, syntax, epochs);
            long h = Fnv.hashCode64(this.names[i]);
            boolean decoded = read.test(i);
            if (get(h) == ABSENT) {
                put(h, decoded ? i : UNKNOWN);
            }
            if (!decoded) {
                undeclared.put(h, this.names[i]);
            }
            lowerCase.putIfAbsent(this.names[i].toLowerCase(Locale.ROOT), decoded ? i : UNKNOWN);
        }
    }

    int size() {
        return names.length;
    }

    String name(int i) {
        return names[i];
    }

    /** The field a member of this name is read into (exact name first, then case-insensitively), or -1 to skip. */
    int indexOf(String name) {
        int idx = get(Fnv.hashCode64(name));
        return idx != ABSENT ? idx : resolve(Fnv.hashCode64(name), name);
    }

    /** The fields of the nested ROW field i. */
    FieldTable rowFields(int i) {
        return readers[i].rowFields();
    }

    /**
     * Reads the members of an object whose '{' was consumed, up to and including its '}'.
     *
     * @param positions where field i goes in {@code target}, or null for position i
     * @param level     the nesting level of this object (1 for the record)
     */
    void readObject(JSONReader r, Object[] target, int[] positions, int level) throws ValueException {
        int s = 0;
        if (failOnMissing) {
            s = ++stamp;
        }
        boolean first = true;
        while (!syntax.objectEnd(r, first)) {
            first = false;
            long h = r.readFieldNameHashCode();
            int idx = get(h);
            if (idx == ABSENT) {
                idx = resolve(h, r.getFieldName());
            }
            if (idx < 0) {
                try {
                    syntax.skip(r, level);
                } catch (ValueException e) {
                    throw e.under(undeclared.getOrDefault(h, "(undeclared member)"));
                }
                continue;
            }
            Object v;
            try {
                v = readers[idx].readNullable(r, level);
            } catch (ValueException e) {
                throw e.under(names[idx]);
            }
            target[positions == null ? idx : positions[idx]] = v;
            if (failOnMissing) {
                stamps[idx] = s;
            }
        }
        if (failOnMissing) {
            for (int i = 0; i < stamps.length; i++) {
                if (stamps[i] != s) {
                    throw new ValueException(names[i], "field is missing (fail-on-missing-field is set)");
                }
            }
        }
    }

    /** Reads a ROW given as a JSON array of its fields in order ('[' consumed), at nesting {@code level}. */
    Object[] readPositional(JSONReader r, int level) throws ValueException {
        Object[] row = new Object[names.length];
        int i = 0;
        while (!syntax.arrayEnd(r, i == 0)) {
            if (i < names.length) {
                try {
                    row[i] = readers[i].readNullable(r, level);
                } catch (ValueException e) {
                    throw e.under(names[i]);
                }
            } else {
                syntax.skip(r, level);
            }
            i++;
        }
        if (failOnMissing && i < names.length) {
            throw new ValueException(names[i], "field is missing (fail-on-missing-field is set)");
        }
        return row;
    }

    private int resolve(long hash, String name) {
        Integer idx = lowerCase.get(name.toLowerCase(Locale.ROOT));
        int result = idx == null ? UNKNOWN : idx;
        if (size < MAX_CACHED) {
            put(hash, result);
            if (result == UNKNOWN) {
                undeclared.put(hash, name);
            }
        }
        return result;
    }

    private int get(long h) {
        int mask = keys.length - 1;
        int i = mix(h) & mask;
        while (used[i]) {
            if (keys[i] == h) {
                return values[i];
            }
            i = (i + 1) & mask;
        }
        return ABSENT;
    }

    private void put(long h, int v) {
        if ((size + 1) * 2 > keys.length) {
            grow();
        }
        int mask = keys.length - 1;
        int i = mix(h) & mask;
        while (used[i]) {
            if (keys[i] == h) {
                values[i] = v;
                return;
            }
            i = (i + 1) & mask;
        }
        used[i] = true;
        keys[i] = h;
        values[i] = v;
        size++;
    }

    private void grow() {
        long[] oldKeys = keys;
        int[] oldValues = values;
        boolean[] oldUsed = used;
        keys = new long[oldKeys.length * 2];
        values = new int[oldKeys.length * 2];
        used = new boolean[oldKeys.length * 2];
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldUsed[i]) {
                put(oldKeys[i], oldValues[i]);
            }
        }
    }

    private static int mix(long h) {
        long x = h ^ (h >>> 32);
        x *= 0x9E3779B97F4A7C15L;
        return (int) (x ^ (x >>> 29));
    }
}
