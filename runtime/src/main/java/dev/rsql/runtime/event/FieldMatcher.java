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
            Scan scan = new Scan();
            leafValues(event, 0, scan);
            return leaf.verdict(scan.present, scan.passed);
        }
        int found = nestedValues(event, 0);
        return found > 0 || found == 0 && nested.matches(ObjectMatcher.MISSING);
    }

    /** What the values of a leaf field showed: whether it had any, whether one passed. */
    private static final class Scan {
        boolean present;
        boolean passed;
    }

    private void leafValues(Object v, int i, Scan scan) {
        if (scan.passed) {
            return;
        }
        if (i == path.length) {
            leafValue(v, scan);
        } else if (v instanceof Map) {
            Map<?, ?> m = (Map<?, ?>) v;
            for (int j = i; j < path.length; j++) {
                String key = keys[i][j];
                if (m.containsKey(key)) {
                    leafValues(m.get(key), j + 1, scan);
                }
            }
        } else if (v instanceof List) {
            for (Object e : (List<?>) v) {
                leafValues(e, i, scan);
            }
        }
    }

    private void leafValue(Object v, Scan scan) {
        if (v instanceof List) {
            for (Object e : (List<?>) v) {
                leafValue(e, scan);
                if (scan.passed) {
                    return;
                }
            }
        } else if (!(v instanceof Map)) {
            scan.present = true;
            scan.passed = leaf.test(v);
        }
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
