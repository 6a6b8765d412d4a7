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
 * Which rules of a rule set a row can pass, from values its columns must have: each indexed rule has keys of which
 * its filter needs one (a column value, NULL, or a literal a pattern on a column requires: {@code method = 'POST'},
 * {@code status IN (401, 403)}, {@code user_agent IS NULL}, {@code url LIKE '%/etc/passwd%'}); a row's candidates
 * are the rules with a key it has (one hash lookup per indexed column, one scan per pattern column, shared with the
 * patterns' own tests) and the rules without keys. The cost grows with the candidates, not with the rules.
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
    private final ValueColumn[] values;
    private final LiteralColumn[] literals;
    private final int maxLiterals;

    /** The rules with key {@code key} (or NULL) on one column. */
    private record ValueColumn(int field, Kind kind, Map<Object, int[]> rules, LongRules longRules, int[] nullRules) {
    }

    /** The rules with a literal of a column's pattern set as key, by the literal's id in the set. */
    private record LiteralColumn(int field, PatternSet set, int[][] rulesByLiteral) {
    }

    /** @param always the rules that run for every row, as a bit set (one bit per rule of the set) */
    private RuleIndex(long[] always, ValueColumn[] values, LiteralColumn[] literals) {
        this.always = always;
        this.values = values;
        this.literals = literals;
        this.maxLiterals = Arrays.stream(literals).mapToInt(c -> c.set.literalCount()).max().orElse(0);
    }

    /** A selector over this index, with its own scratch space (one per task). */
    RuleSelector newSelector() {
        return new Selector();
    }

    private final class Selector implements RuleSelector {
        private final long[] candidates = new long[always.length];
        private final int[] found = new int[maxLiterals];

        @Override
        public long[] candidates(Object[] row) {
            long[] c = candidates;
            System.arraycopy(always, 0, c, 0, c.length);
            for (ValueColumn column : values) {
                Object v = row[column.field];
                if (v == null) {
                    set(c, column.nullRules);
                } else if (column.longRules != null) {
                    set(c, column.longRules.get(((Number) v).longValue()));
                } else if (column.rules != null) {
                    set(c, column.rules.get(column.kind.key(v)));
                }
            }
            for (LiteralColumn column : literals) {
                Object v = row[column.field];
                if (v != null) {
                    int n = column.set.literalsIn((String) v, found);
                    for (int k = 0; k < n; k++) {
                        set(c, column.rulesByLiteral[found[k]]);
                    }
                }
            }
            return c;
        }

        private static void set(long[] bits, int[] rules) {
            if (rules != null) {
                for (int r : rules) {
                    bits[r >>> 6] |= 1L << r;
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
        private final TreeSet<Integer> indexed = new TreeSet<>();
        private RuleIndex built;

        /** @param fieldNames the names of the input's fields (for EXPLAIN) */
        public Builder(int ruleCount, List<String> fieldNames) {
            this.ruleCount = ruleCount;
            this.fieldNames = List.copyOf(fieldNames);
        }

        /** Rule {@code rule} can pass a row whose {@code field} is {@code value} (null: NULL). */
        public void value(int rule, int field, Kind kind, Object value) {
            indexed.add(rule);
            kinds.put(field, kind);
            if (value == null) {
                nullKeys.computeIfAbsent(field, f -> new TreeSet<>()).add(rule);
            } else {
                valueKeys.computeIfAbsent(field, f -> new LinkedHashMap<>())
                        .computeIfAbsent(kind.key(value), k -> new TreeSet<>()).add(rule);
            }
        }

        /** Rule {@code rule} can pass a row whose {@code field} matches pattern {@code index} of set {@code setName}. */
        public void pattern(int rule, int field, String setName, int index) {
            indexed.add(rule);
            setNames.put(field, setName);
            patternKeys.computeIfAbsent(field, f -> new LinkedHashMap<>())
                    .computeIfAbsent(index, i -> new TreeSet<>()).add(rule);
        }

        /** For EXPLAIN: the indexed columns with how many rules each, and how many rules run for every row. */
        public String describe() {
            TreeSet<Integer> fields = new TreeSet<>(kinds.keySet());
            fields.addAll(setNames.keySet());
            List<String> parts = new ArrayList<>();
            for (int f : fields) {
                TreeSet<Integer> rules = new TreeSet<>(nullKeys.getOrDefault(f, new TreeSet<>()));
                valueKeys.getOrDefault(f, Map.of()).values().forEach(rules::addAll);
                int byValue = rules.size();
                TreeSet<Integer> byPattern = new TreeSet<>();
                patternKeys.getOrDefault(f, Map.of()).values().forEach(byPattern::addAll);
                parts.add(fieldNames.get(f) + "(" + (byValue > 0 ? byValue + " by value" : "")
                        + (byValue > 0 && !byPattern.isEmpty() ? ", " : "")
                        + (byPattern.isEmpty() ? "" : byPattern.size() + " by pattern literal") + ")");
            }
            return "index=[" + String.join(", ", parts) + "] unindexed=" + (ruleCount - indexed.size());
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
            TreeSet<Integer> all = new TreeSet<>();
            for (int r = 0; r < ruleCount; r++) {
                if (!indexed.contains(r)) {
                    all.add(r);
                }
            }
            List<LiteralColumn> literalColumns = new ArrayList<>();
            patternKeys.forEach((field, byPattern) -> {
                PatternSet set = PatternSet.named(setNames.get(field));
                List<TreeSet<Integer>> byLiteral = new ArrayList<>();
                for (int i = 0; i < set.literalCount(); i++) {
                    byLiteral.add(new TreeSet<>());
                }
                byPattern.forEach((index, rules) -> {
                    int[] ids = set.requiredLiterals(index);
                    if (ids == null) {
                        all.addAll(rules); // no prefilter after all: the rule may pass any row
                    } else {
                        for (int id : ids) {
                            byLiteral.get(id).addAll(rules);
                        }
                    }
                });
                int[][] rulesByLiteral = new int[byLiteral.size()][];
                for (int i = 0; i < rulesByLiteral.length; i++) {
                    rulesByLiteral[i] = byLiteral.get(i).isEmpty() ? null : ints(byLiteral.get(i));
                }
                literalColumns.add(new LiteralColumn(field, set, rulesByLiteral));
            });
            List<ValueColumn> valueColumns = new ArrayList<>();
            kinds.forEach((field, kind) -> {
                Map<Object, int[]> rules = new HashMap<>();
                valueKeys.getOrDefault(field, Map.of()).forEach((k, r) -> rules.put(k, ints(r)));
                TreeSet<Integer> nulls = nullKeys.get(field);
                valueColumns.add(new ValueColumn(field, kind, kind == Kind.TEXT ? rules : null,
                        kind == Kind.INTEGER ? new LongRules(rules) : null, nulls == null ? null : ints(nulls)));
            });
            long[] alwaysBits = new long[(ruleCount + 63) >>> 6];
            all.forEach(r -> alwaysBits[r >>> 6] |= 1L << r);
            return new RuleIndex(alwaysBits, valueColumns.toArray(new ValueColumn[0]),
                    literalColumns.toArray(new LiteralColumn[0]));
        }

        private static int[] ints(TreeSet<Integer> rules) {
            return rules.stream().mapToInt(Integer::intValue).toArray();
        }
    }
}
