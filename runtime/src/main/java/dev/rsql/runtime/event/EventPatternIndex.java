package dev.rsql.runtime.event;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Many patterns over one stream of events, matched together. A field a pattern ANDs in (nested objects included)
 * whose conditions are exact values, case-sensitive prefixes or CIDR networks is a group of keys: the pattern can
 * only match an event that has a value taking one key of every such group. All keys are filed in a tree of field
 * paths. One walk over the event looks each of its values up once (its exact value, its prefixes of the lengths filed
 * there, its networks) and stamps the keys it takes. Each pattern is triggered by its rarest group's keys only; a
 * triggered pattern is tested in full once every other group has a stamped key, and patterns with no group are
 * tested always. The cost of an event grows with the patterns whose rarest key it has, not with all the patterns.
 */
public final class EventPatternIndex {

    private static final int[] NONE = new int[0];

    private final EventPattern[] patterns;
    private final PathNode root;
    /** For each key, the patterns whose rarest group has it. */
    private final int[][] triggers;
    /** For each pattern, the keys of each of its other groups. */
    private final int[][][] others;
    private final int[] unanchored;

    /** The keys (ids) filed at one field path, and the paths below it. */
    private static final class PathNode {
        final Map<String, PathNode> children = new HashMap<>();
        final Map<String, Integer> strings = new HashMap<>();
        final Map<Double, Integer> numbers = new HashMap<>();
        final Map<String, Integer> prefixes = new HashMap<>();
        final Map<String, Integer> networks = new HashMap<>();
        int trues = -1;
        int falses = -1;
        int nulls = -1;
        /** The distinct lengths of the prefixes, and of the IPv4 and IPv6 networks, filed here. */
        int[] prefixLengths = NONE;
        int[] ipv4Bits = NONE;
        int[] ipv6Bits = NONE;
        boolean hasKeys;

        PathNode child(String key) {
            return children.computeIfAbsent(key, k -> new PathNode());
        }
    }

    /** A field a pattern can only match with a value that takes one of these keys. */
    private record Group(String[] path, List<Object> keys) {
        String id(Object key) {
            String k = key instanceof String ? "s" + key
                    : key instanceof ValueTest.Prefix ? "p" + ((ValueTest.Prefix) key).prefix()
                    : key instanceof IpRange ? "n" + ((IpRange) key).key()
                    : String.valueOf(key);
            return String.join(".", path) + '\u0000' + k;
        }

        /** How many patterns have the same keys at the same path, summed over this group's keys. */
        long sharing(Map<String, Integer> counts) {
            long n = 0;
            for (Object k : keys) {
                n += counts.get(id(k));
            }
            return n;
        }
    }

    private EventPatternIndex(EventPattern[] patterns, PathNode root, int[][] triggers, int[][][] others,
            int[] unanchored) {
        this.patterns = patterns;
        this.root = root;
        this.triggers = triggers;
        this.others = others;
        this.unanchored = unanchored;
    }

    public static EventPatternIndex of(List<EventPattern> patterns) {
        List<List<Group>> groups = new ArrayList<>();
        Map<String, Integer> counts = new HashMap<>();
        for (EventPattern p : patterns) {
            List<Group> g = new ArrayList<>();
            groups(p.root(), new String[0], g);
            groups.add(g);
            for (Group group : g) {
                for (Object k : group.keys) {
                    counts.merge(group.id(k), 1, Integer::sum);
                }
            }
        }
        PathNode root = new PathNode();
        Map<String, Integer> keyIds = new HashMap<>();
        Map<Integer, List<Integer>> triggers = new HashMap<>();
        int[][][] others = new int[patterns.size()][][];
        List<Integer> unanchored = new ArrayList<>();
        for (int id = 0; id < patterns.size(); id++) {
            List<Group> g = groups.get(id);
            if (g.isEmpty()) {
                unanchored.add(id);
                continue;
            }
            g.sort(Comparator.comparingLong(group -> group.sharing(counts)));
            others[id] = new int[g.size() - 1][];
            for (int i = 0; i < g.size(); i++) {
                int[] keys = file(root, g.get(i), keyIds);
                if (i == 0) {
                    for (int k : keys) {
                        triggers.computeIfAbsent(k, x -> new ArrayList<>()).add(id);
                    }
                } else {
                    others[id][i - 1] = keys;
                }
            }
        }
        finish(root);
        int[][] triggerArrays = new int[keyIds.size()][];
        for (int k = 0; k < triggerArrays.length; k++) {
            triggerArrays[k] = triggers.getOrDefault(k, List.of()).stream().mapToInt(Integer::intValue).toArray();
        }
        return new EventPatternIndex(patterns.toArray(new EventPattern[0]), root, triggerArrays, others,
                unanchored.stream().mapToInt(Integer::intValue).toArray());
    }

    /** The fields of {@code m} (and of its nested objects, which must match too) that an index can file. */
    private static void groups(ObjectMatcher m, String[] prefix, List<Group> out) {
        for (FieldMatcher f : m.fields()) {
            String[] path = Arrays.copyOf(prefix, prefix.length + f.path().length);
            System.arraycopy(f.path(), 0, path, prefix.length, f.path().length);
            if (f.leaf() != null) {
                List<Object> keys = f.leaf().indexable();
                if (keys != null) {
                    out.add(new Group(path, keys));
                }
            } else {
                groups(f.nested(), path, out);
            }
        }
    }

    /** Files the group's keys (each path and key once, shared by the patterns that have it); returns their ids. */
    private static int[] file(PathNode root, Group group, Map<String, Integer> keyIds) {
        PathNode node = root;
        for (String step : group.path) {
            node = node.child(step);
        }
        node.hasKeys = true;
        int[] ids = new int[group.keys.size()];
        for (int i = 0; i < ids.length; i++) {
            Object k = group.keys.get(i);
            int id = keyIds.computeIfAbsent(group.id(k), x -> keyIds.size());
            ids[i] = id;
            if (k instanceof String) {
                node.strings.put((String) k, id);
            } else if (k instanceof Double) {
                node.numbers.put((Double) k, id);
            } else if (k instanceof ValueTest.Prefix) {
                node.prefixes.put(((ValueTest.Prefix) k).prefix(), id);
            } else if (k instanceof IpRange) {
                node.networks.put(((IpRange) k).key(), id);
            } else if (k == Boolean.TRUE) {
                node.trues = id;
            } else if (k == Boolean.FALSE) {
                node.falses = id;
            } else {
                node.nulls = id;
            }
        }
        return ids;
    }

    /** Records the prefix lengths and network sizes filed at each node. */
    private static void finish(PathNode node) {
        TreeSet<Integer> lengths = new TreeSet<>();
        node.prefixes.keySet().forEach(p -> lengths.add(p.length()));
        node.prefixLengths = lengths.stream().mapToInt(Integer::intValue).toArray();
        TreeSet<Integer> v4 = new TreeSet<>();
        TreeSet<Integer> v6 = new TreeSet<>();
        for (String key : node.networks.keySet()) {
            (key.length() == 5 ? v4 : v6).add((int) key.charAt(key.length() - 1));
        }
        node.ipv4Bits = v4.stream().mapToInt(Integer::intValue).toArray();
        node.ipv6Bits = v6.stream().mapToInt(Integer::intValue).toArray();
        node.children.values().forEach(EventPatternIndex::finish);
    }

    public int size() {
        return patterns.length;
    }

    /** How many patterns have no group and are tested against every event. */
    public int unanchored() {
        return unanchored.length;
    }

    /** Scratch state for one thread's matching. */
    public Matcher matcher() {
        return new Matcher();
    }

    /** Matches events against the index; one per thread. */
    public final class Matcher {
        /** {@code stamped[key] == stamp}: the event takes the key. */
        private final int[] stamped = new int[triggers.length];
        private final int[] hits = new int[triggers.length];
        private final int[] seen = new int[patterns.length];
        private int hitCount;
        private int stamp;

        private Matcher() {
        }

        /**
         * Writes the ids (positions in the list the index was made of) of the patterns a parsed event matches into
         * {@code out}, in ascending order, and returns how many.
         */
        public int match(Object event, int[] out) {
            if (event == EventPattern.INVALID) {
                return 0;
            }
            if (++stamp == 0) {
                Arrays.fill(stamped, 0);
                Arrays.fill(seen, 0);
                stamp = 1;
            }
            hitCount = 0;
            visit(event, root);
            int matched = 0;
            for (int h = 0; h < hitCount; h++) {
                for (int id : triggers[hits[h]]) {
                    if (seen[id] != stamp) {
                        seen[id] = stamp;
                        if (othersTaken(id) && patterns[id].matches(event)) {
                            out[matched++] = id;
                        }
                    }
                }
            }
            for (int id : unanchored) {
                if (patterns[id].matches(event)) {
                    out[matched++] = id;
                }
            }
            Arrays.sort(out, 0, matched);
            return matched;
        }

        /** True when the event takes a key of each group of pattern {@code id} but its rarest. */
        private boolean othersTaken(int id) {
            for (int[] group : others[id]) {
                boolean taken = false;
                for (int k : group) {
                    if (stamped[k] == stamp) {
                        taken = true;
                        break;
                    }
                }
                if (!taken) {
                    return false;
                }
            }
            return true;
        }

        private void take(Integer key) {
            if (key != null && key >= 0 && stamped[key] != stamp) {
                stamped[key] = stamp;
                hits[hitCount++] = key;
            }
        }

        private void visit(Object v, PathNode node) {
            if (v instanceof Map) {
                for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                    String key = String.valueOf(e.getKey());
                    PathNode child = node.children.get(key);
                    if (child != null) {
                        visit(e.getValue(), child);
                    } else if (key.indexOf('.') > 0) {
                        dotted(key, e.getValue(), node);
                    }
                }
            } else if (v instanceof List) {
                for (Object e : (List<?>) v) {
                    visit(e, node);
                }
            } else if (node.hasKeys) {
                if (v instanceof String) {
                    text((String) v, node);
                } else if (v instanceof Number) {
                    take(node.numbers.get(ValueTest.number(v)));
                } else if (v instanceof Boolean) {
                    take((Boolean) v ? node.trues : node.falses);
                } else if (v == null) {
                    take(node.nulls);
                }
            }
        }

        private void text(String s, PathNode node) {
            take(node.strings.get(s));
            for (int length : node.prefixLengths) {
                if (length > s.length()) {
                    break;
                }
                take(node.prefixes.get(s.substring(0, length)));
            }
            if (!node.networks.isEmpty()) {
                byte[] address = IpRange.address(s);
                if (address != null) {
                    for (int bits : address.length == 4 ? node.ipv4Bits : node.ipv6Bits) {
                        take(node.networks.get(IpRange.key(address, bits)));
                    }
                }
            }
        }

        /** An event key {@code "a.b"} names the field {@code a} holding {@code b}. */
        private void dotted(String key, Object value, PathNode node) {
            for (String step : key.split("\\.")) {
                node = node.children.get(step);
                if (node == null) {
                    return;
                }
            }
            visit(value, node);
        }
    }
}
