package dev.rsql.planner.functions;

import dev.rsql.runtime.graph.RuleSelector;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Which rules of a rule set a row can pass, from values its columns must have: each indexed rule has one or more
 * groups of keys (one group per ANDed test the index understands), and its filter needs a key of every group (a
 * column value, NULL, or a literal a pattern on a column requires: {@code method = 'POST'}, {@code status IN (401,
 * 403)}, {@code user_agent IS NULL}, {@code url LIKE '%/etc/passwd%'}, {@code EVENT_MATCHES(event, '...')}). A row's
 * candidates are the rules it has a key of every group of (one hash lookup per indexed column, one scan per pattern
 * column and one pattern index per event column, shared with the patterns' own tests) and the rules without keys.
 * The cost grows with the keys a row hits, not with the rules.
 *
 * <p>Keys of a column of text are compared without trailing spaces, of an integer column as {@code long}: a value
 * that differs only so from a key still makes its rules candidates, which is safe (their filters decide).
 */
public final class RuleIndex {

    /** How the values of an indexed column are compared with its keys. */
    public enum Kind {
        /** CHAR and VARCHAR. */
        TEXT,
        /** TINYINT, SMALLINT, INTEGER, BIGINT. */
        INTEGER,
        /** Any other type: only NULL is a key. */
        OTHER;

        /** A value of the column (not null) as a key. */
        Object key(Object value) {
            return switch (this) {
                case TEXT -> stripTrailingSpaces((String) value);
                case INTEGER -> ((Number) value).longValue();
                case OTHER -> throw new IllegalStateException("not a key kind");
            };
        }
    }

    private final long[] always;
    /** Per rule, a bit per key group its filter needs (at most 63 groups; 0: not indexed). */
    private final long[] groups;
    private final ValueColumn[] values;
    private final LiteralColumn[] literals;
    private final EventColumn[] events;
    private final int maxLiterals;
    private final int maxEvents;

    /** The (rule, group) entries, {@code rule << 6 | group}, with key {@code key} (or NULL) on one column. */
    private record ValueColumn(int field, TextRules textRules, LongRules longRules, int[] nullRules) {
    }

    /** The (rule, group) entries with a literal of a column's pattern set as key, by the literal's id in the set. */
    private record LiteralColumn(int field, PatternSet set, int[][] rulesByLiteral) {
    }

    /** The (rule, group) entries with an event pattern of a column's set as key, by the pattern's index. */
    private record EventColumn(int field, EventPatternSet set, int[][] rulesByPattern) {
    }

    /** @param always the rules that run for every row, as a bit set (one bit per rule of the set) */
    private RuleIndex(long[] always, long[] groups, ValueColumn[] values, LiteralColumn[] literals,
                      EventColumn[] events) {
        this.always = always;
        this.groups = groups;
        this.values = values;
        this.literals = literals;
        this.events = events;
        this.maxLiterals = Arrays.stream(literals).mapToInt(c -> c.set.literalCount()).max().orElse(0);
        this.maxEvents = Arrays.stream(events).mapToInt(c -> c.set.size()).max().orElse(0);
    }

    /** A selector over this index, with its own scratch space (one per task). */
    RuleSelector newSelector() {
        return new Selector();
    }

    private final class Selector implements RuleSelector {
        private final long[] candidates = new long[always.length];
        private final int[] found = new int[maxLiterals];
        private final int[] matched = new int[maxEvents];
        /** Per rule, the groups the row has a key of so far; 0 again after each row. */
        private final long[] hits = new long[groups.length];
        private final int[] touched = new int[groups.length];
        private int touchedCount;

        @Override
        public long[] candidates(Object[] row) {
            for (ValueColumn column : values) {
                Object v = row[column.field];
                if (v == null) {
                    hit(column.nullRules);
                } else if (column.longRules != null) {
                    hit(column.longRules.get(((Number) v).longValue()));
                } else if (column.textRules != null) {
                    hit(column.textRules.get((String) v));
                }
            }
            for (LiteralColumn column : literals) {
                Object v = row[column.field];
                if (v != null) {
                    int n = column.set.literalsIn((String) v, found);
                    for (int k = 0; k < n; k++) {
                        hit(column.rulesByLiteral[found[k]]);
                    }
                }
            }
            for (EventColumn column : events) {
                Object v = row[column.field];
                if (v != null) {
                    int n = column.set.matchedIn((String) v, matched);
                    for (int k = 0; k < n; k++) {
                        hit(column.rulesByPattern[matched[k]]);
                    }
                }
            }
            long[] c = candidates;
            System.arraycopy(always, 0, c, 0, c.length);
            for (int t = 0; t < touchedCount; t++) {
                int rule = touched[t];
                if ((hits[rule] & groups[rule]) == groups[rule]) {
                    c[rule >>> 6] |= 1L << rule;
                }
                hits[rule] = 0;
            }
            touchedCount = 0;
            return c;
        }

        private void hit(int[] entries) {
            if (entries != null) {
                for (int e : entries) {
                    int rule = e >>> 6;
                    long h = hits[rule];
                    if (h == 0) {
                        touched[touchedCount++] = rule;
                    }
                    hits[rule] = h | 1L << (e & 63);
                }
            }
        }
    }

    static String stripTrailingSpaces(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ') {
            end--;
        }
        return end == s.length() ? s : s.substring(0, end);
    }

    /**
     * A map from text keys to rule lists that looks up only values as long as some key: most values of a column
     * compared with a few constants are not, and so cost no hash of a new string.
     */
    private static final class TextRules {
        private final Map<String, int[]> byKey;
        private final boolean[] lengths;

        TextRules(Map<Object, int[]> byKey) {
            this.byKey = new HashMap<>();
            byKey.forEach((k, r) -> this.byKey.put((String) k, r));
            int longest = this.byKey.keySet().stream().mapToInt(String::length).max().orElse(-1);
            lengths = new boolean[longest + 1];
            this.byKey.keySet().forEach(k -> lengths[k.length()] = true);
        }

        /** The rules of a value (not null), compared without trailing spaces. */
        int[] get(String value) {
            int n = value.length();
            while (n > 0 && value.charAt(n - 1) == ' ') {
                n--;
            }
            if (n >= lengths.length || !lengths[n]) {
                return null;
            }
            return byKey.get(n == value.length() ? value : value.substring(0, n));
        }
    }

    /** An open-addressing map from long keys to rule lists: no boxing of a row's value to look it up. */
    private static final class LongRules {
        private final long[] keys;
        private final int[][] rules;
        private final int mask;

        LongRules(Map<Object, int[]> byKey) {
            int capacity = Integer.highestOneBit(Math.max(4, byKey.size() * 3)) << 1;
            keys = new long[capacity];
            rules = new int[capacity][];
            mask = capacity - 1;
            byKey.forEach((k, r) -> {
                long key = (Long) k;
                int i = slot(key);
                while (rules[i] != null) {
                    i = (i + 1) & mask;
                }
                keys[i] = key;
                rules[i] = r;
            });
        }

        private int slot(long key) {
            long h = key * 0x9E3779B97F4A7C15L;
            return (int) (h ^ (h >>> 32)) & mask;
        }

        int[] get(long key) {
            for (int i = slot(key); rules[i] != null; i = (i + 1) & mask) {
                if (keys[i] == key) {
                    return rules[i];
                }
            }
            return null;
        }
    }

    /**
     * Collects the keys of a rule set's rules at plan time; {@link #selectors} makes the index once the job's
     * pattern sets are registered (they are built when the job's code is compiled, after the plan).
     */
    public static final class Builder {
        private final int ruleCount;
        private final List<String> fieldNames;
        private final Map<Integer, Kind> kinds = new LinkedHashMap<>();
        private final Map<Integer, Map<Object, TreeSet<Integer>>> valueKeys = new LinkedHashMap<>();
        private final Map<Integer, TreeSet<Integer>> nullKeys = new LinkedHashMap<>();
        /** Pattern keys per column: set name, and per pattern index the rules. */
        private final Map<Integer, String> setNames = new LinkedHashMap<>();
        private final Map<Integer, Map<Integer, TreeSet<Integer>>> patternKeys = new LinkedHashMap<>();
        /** Event pattern keys per column: set name, and per pattern index the rules. */
        private final Map<Integer, String> eventSetNames = new LinkedHashMap<>();
        private final Map<Integer, Map<Integer, TreeSet<Integer>>> eventKeys = new LinkedHashMap<>();
        private final TreeSet<Integer> indexed = new TreeSet<>();
        private final long[] groups;
        private RuleIndex built;

        /** @param fieldNames the names of the input's fields (for EXPLAIN) */
        public Builder(int ruleCount, List<String> fieldNames) {
            this.ruleCount = ruleCount;
            this.fieldNames = List.copyOf(fieldNames);
            this.groups = new long[ruleCount];
        }

        /**
         * A key of group {@code group} (0 to 62) of rule {@code rule}: {@code field} is {@code value} (null: NULL).
         */
        public void value(int rule, int group, int field, Kind kind, Object value) {
            addGroup(rule, group);
            kinds.put(field, kind);
            if (value == null) {
                nullKeys.computeIfAbsent(field, f -> new TreeSet<>()).add(entry(rule, group));
            } else {
                valueKeys.computeIfAbsent(field, f -> new LinkedHashMap<>())
                        .computeIfAbsent(kind.key(value), k -> new TreeSet<>()).add(entry(rule, group));
            }
        }

        /** A key of group {@code group} of rule {@code rule}: {@code field} matches pattern {@code index} of a set. */
        public void pattern(int rule, int group, int field, String setName, int index) {
            addGroup(rule, group);
            setNames.put(field, setName);
            patternKeys.computeIfAbsent(field, f -> new LinkedHashMap<>())
                    .computeIfAbsent(index, i -> new TreeSet<>()).add(entry(rule, group));
        }

        /**
         * A key of group {@code group} of rule {@code rule}: {@code field} matches event pattern {@code index} of a
         * set ({@link EventPatternSet}).
         */
        public void eventPattern(int rule, int group, int field, String setName, int index) {
            addGroup(rule, group);
            eventSetNames.put(field, setName);
            eventKeys.computeIfAbsent(field, f -> new LinkedHashMap<>())
                    .computeIfAbsent(index, i -> new TreeSet<>()).add(entry(rule, group));
        }

        private void addGroup(int rule, int group) {
            if (group < 0 || group > 62) {
                throw new IllegalArgumentException("key group " + group);
            }
            indexed.add(rule);
            groups[rule] |= 1L << group;
        }

        private static int entry(int rule, int group) {
            return rule << 6 | group;
        }

        /** For EXPLAIN: the indexed columns with how many rules each, and how many rules run for every row. */
        public String describe() {
            TreeSet<Integer> fields = new TreeSet<>(kinds.keySet());
            fields.addAll(setNames.keySet());
            fields.addAll(eventSetNames.keySet());
            List<String> parts = new ArrayList<>();
            for (int f : fields) {
                TreeSet<Integer> rules = rules(nullKeys.getOrDefault(f, new TreeSet<>()));
                valueKeys.getOrDefault(f, Map.of()).values().forEach(e -> rules.addAll(rules(e)));
                int byValue = rules.size();
                TreeSet<Integer> byPattern = new TreeSet<>();
                patternKeys.getOrDefault(f, Map.of()).values().forEach(e -> byPattern.addAll(rules(e)));
                TreeSet<Integer> byEvent = new TreeSet<>();
                eventKeys.getOrDefault(f, Map.of()).values().forEach(e -> byEvent.addAll(rules(e)));
                List<String> how = new ArrayList<>();
                if (byValue > 0) {
                    how.add(byValue + " by value");
                }
                if (!byPattern.isEmpty()) {
                    how.add(byPattern.size() + " by pattern literal");
                }
                if (!byEvent.isEmpty()) {
                    how.add(byEvent.size() + " by event pattern");
                }
                parts.add(fieldNames.get(f) + "(" + String.join(", ", how) + ")");
            }
            return "index=[" + String.join(", ", parts) + "] unindexed=" + (ruleCount - indexed.size());
        }

        private static TreeSet<Integer> rules(TreeSet<Integer> entries) {
            TreeSet<Integer> rules = new TreeSet<>();
            entries.forEach(e -> rules.add(e >>> 6));
            return rules;
        }

        /** Selectors over the index, made when first asked for (after the job's pattern sets are registered). */
        public Supplier<RuleSelector> selectors() {
            return () -> index().newSelector();
        }

        private synchronized RuleIndex index() {
            if (built == null) {
                built = build();
            }
            return built;
        }

        private RuleIndex build() {
            long[] needed = groups.clone();
            List<LiteralColumn> literalColumns = new ArrayList<>();
            patternKeys.forEach((field, byPattern) -> {
                PatternSet set = PatternSet.named(setNames.get(field));
                List<TreeSet<Integer>> byLiteral = new ArrayList<>();
                for (int i = 0; i < set.literalCount(); i++) {
                    byLiteral.add(new TreeSet<>());
                }
                byPattern.forEach((index, entries) -> {
                    int[] ids = set.requiredLiterals(index);
                    if (ids == null) {
                        // no prefilter after all: the group holds for any row
                        entries.forEach(e -> needed[e >>> 6] &= ~(1L << (e & 63)));
                    } else {
                        for (int id : ids) {
                            byLiteral.get(id).addAll(entries);
                        }
                    }
                });
                int[][] rulesByLiteral = new int[byLiteral.size()][];
                for (int i = 0; i < rulesByLiteral.length; i++) {
                    rulesByLiteral[i] = byLiteral.get(i).isEmpty() ? null : ints(byLiteral.get(i));
                }
                literalColumns.add(new LiteralColumn(field, set, rulesByLiteral));
            });
            List<EventColumn> eventColumns = new ArrayList<>();
            eventKeys.forEach((field, byPattern) -> {
                EventPatternSet set = EventPatternSet.named(eventSetNames.get(field));
                int[][] rulesByPattern = new int[set.size()][];
                byPattern.forEach((index, entries) -> rulesByPattern[index] = ints(entries));
                eventColumns.add(new EventColumn(field, set, rulesByPattern));
            });
            List<ValueColumn> valueColumns = new ArrayList<>();
            kinds.forEach((field, kind) -> {
                Map<Object, int[]> rules = new HashMap<>();
                valueKeys.getOrDefault(field, Map.of()).forEach((k, r) -> rules.put(k, ints(r)));
                TreeSet<Integer> nulls = nullKeys.get(field);
                valueColumns.add(new ValueColumn(field, kind == Kind.TEXT ? new TextRules(rules) : null,
                        kind == Kind.INTEGER ? new LongRules(rules) : null, nulls == null ? null : ints(nulls)));
            });
            long[] alwaysBits = new long[(ruleCount + 63) >>> 6];
            for (int r = 0; r < ruleCount; r++) {
                if (needed[r] == 0) {
                    alwaysBits[r >>> 6] |= 1L << r;
                }
            }
            return new RuleIndex(alwaysBits, needed, valueColumns.toArray(new ValueColumn[0]),
                    literalColumns.toArray(new LiteralColumn[0]), eventColumns.toArray(new EventColumn[0]));
        }

        private static int[] ints(TreeSet<Integer> rules) {
            return rules.stream().mapToInt(Integer::intValue).toArray();
        }
    }
}
