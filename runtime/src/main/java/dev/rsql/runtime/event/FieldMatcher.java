package dev.rsql.runtime.event;

import java.util.List;
import java.util.Map;

/**
 * One key of a pattern object: the path it names in the event (a key {@code "a.b"} names the same field as {@code a}
 * holding {@code b}, in the pattern and in the event alike) and either the conditions of a leaf or the pattern of a
 * nested object. Arrays on the way are looked into: the field has all the values found in their elements, and a
 * nested pattern must match within one element (event-ruler's array consistency).
 */
final class FieldMatcher {

    private final String[] path;
    /** {@code keys[i][j]}: path elements i..j joined with dots, the key of an event field that spans them. */
    private final String[][] keys;
    private final LeafMatcher leaf;
    private final ObjectMatcher nested;

    FieldMatcher(String[] path, LeafMatcher leaf, ObjectMatcher nested) {
        this.path = path;
        this.leaf = leaf;
        this.nested = nested;
        this.keys = new String[path.length][path.length];
        for (int i = 0; i < path.length; i++) {
            StringBuilder sb = new StringBuilder(path[i]);
            keys[i][i] = path[i];
            for (int j = i + 1; j < path.length; j++) {
                keys[i][j] = sb.append('.').append(path[j]).toString();
            }
        }
    }

    String[] path() {
        return path;
    }

    LeafMatcher leaf() {
        return leaf;
    }

    ObjectMatcher nested() {
        return nested;
    }

    boolean matches(Object event) {
        if (leaf != null) {
            int seen = leafValues(event, 0);
            return leaf.verdict((seen & PRESENT) != 0, (seen & PASSED) != 0);
        }
        int found = nestedValues(event, 0);
        return found > 0 || found == 0 && nested.matches(ObjectMatcher.MISSING);
    }

    /** What a leaf field's values showed: it has one ({@code PRESENT}), one passed ({@code PASSED}). */
    private static final int PRESENT = 1;
    private static final int PASSED = 2;

    /** The values at path elements {@code i} on below {@code v}, until one passes. */
    private int leafValues(Object v, int i) {
        if (i == path.length) {
            return leafValue(v);
        }
        int seen = 0;
        if (v instanceof Map) {
            Map<?, ?> m = (Map<?, ?>) v;
            for (int j = i; j < path.length && (seen & PASSED) == 0; j++) {
                String key = keys[i][j];
                if (m.containsKey(key)) {
                    seen |= leafValues(m.get(key), j + 1);
                }
            }
        } else if (v instanceof List) {
            for (Object e : (List<?>) v) {
                seen |= leafValues(e, i);
                if ((seen & PASSED) != 0) {
                    break;
                }
            }
        }
        return seen;
    }

    /** A value at the path: a scalar, or an array whose elements are the field's values (an object is none). */
    private int leafValue(Object v) {
        if (v instanceof List) {
            int seen = 0;
            for (Object e : (List<?>) v) {
                seen |= leafValue(e);
                if ((seen & PASSED) != 0) {
                    break;
                }
            }
            return seen;
        }
        if (v instanceof Map) {
            return 0;
        }
        return leaf.test(v) ? PRESENT | PASSED : PRESENT;
    }

    /** 1 if a value at the path matched the nested pattern, -1 if values were found but none matched, 0 if none. */
    private int nestedValues(Object v, int i) {
        if (i == path.length) {
            if (v instanceof List) {
                int found = 0;
                for (Object e : (List<?>) v) {
                    int r = nestedValues(e, i);
                    if (r > 0) {
                        return 1;
                    }
                    found |= r;
                }
                return found;
            }
            return nested.matches(v) ? 1 : -1;
        }
        int found = 0;
        if (v instanceof Map) {
            Map<?, ?> m = (Map<?, ?>) v;
            for (int j = i; j < path.length; j++) {
                String key = keys[i][j];
                if (m.containsKey(key)) {
                    int r = nestedValues(m.get(key), j + 1);
                    if (r > 0) {
                        return 1;
                    }
                    found |= r;
                }
            }
        } else if (v instanceof List) {
            for (Object e : (List<?>) v) {
                int r = nestedValues(e, i);
                if (r > 0) {
                    return 1;
                }
                found |= r;
            }
        }
        return found;
    }
}
