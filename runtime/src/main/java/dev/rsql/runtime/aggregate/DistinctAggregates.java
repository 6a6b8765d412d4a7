package dev.rsql.runtime.aggregate;

import dev.rsql.runtime.types.DataType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The DISTINCT aggregates of one aggregation over the same arguments, whatever their FILTERs: one map from each
 * distinct argument value to how many rows brought it per filter (the unfiltered aggregates counting as one more
 * filter), so that a row reads and writes one map entry however many filtered variants there are (as Flink's
 * DistinctInfo). An aggregate sees a value when its filter's count of the value goes from 0 to 1 and, over a
 * changelog, takes it back when that count returns to 0. Over inserts only ({@code retracts} false) a count stops at
 * 1, so a value seen again changes nothing and costs no write. A row with a NULL argument, or passing no filter, is
 * not looked up at all.
 *
 * <p>The map is an accumulator field ({@link #mapField()}), a view field that a group aggregation keeps as one state
 * entry per value. Its values are a BIGINT when the aggregates have one filter (the layout of a lone DISTINCT
 * aggregate before sharing), an ARRAY of BIGINT, one count per filter, otherwise. The aggregates' own accumulators
 * are elsewhere in the row; {@link Accumulators} creates them and reads their results.
 */
final class DistinctAggregates {

    private final int[] args;
    private final int mapField;
    private final DataType mapType;
    private final AggregateFunction[] members;
    private final int[] offsets;
    /** Per filter: the filter field (-1 for none), and the members it applies to. */
    private final int[] filters;
    private final int[][] filterMembers;
    private final boolean retracts;
    /** Per filter, for the row at hand (a task uses its aggregates from one thread). */
    private final boolean[] passing;
    private final long[] counts;

    /**
     * @param members the aggregates of the distinct values, their accumulators at {@code offsets} and their FILTER
     *                fields ({@code -1} for none) in {@code memberFilters}
     * @param retracts whether rows may be taken back; otherwise counts stop at 1
     */
    DistinctAggregates(DistinctArguments arguments, int mapField, AggregateFunction[] members, int[] offsets,
                       int[] memberFilters, boolean retracts) {
        this.args = arguments.fields().stream().mapToInt(Integer::intValue).toArray();
        this.mapField = mapField;
        this.members = members.clone();
        this.offsets = offsets.clone();
        this.retracts = retracts;
        List<Integer> distinctFilters = new ArrayList<>();
        for (int f : memberFilters) {
            if (!distinctFilters.contains(f)) {
                distinctFilters.add(f);
            }
        }
        this.filters = distinctFilters.stream().mapToInt(Integer::intValue).toArray();
        this.filterMembers = new int[filters.length][];
        for (int s = 0; s < filters.length; s++) {
            int filter = filters[s];
            filterMembers[s] = IntStream.range(0, members.length)
                    .filter(m -> memberFilters[m] == filter).toArray();
        }
        this.mapType = mapType(arguments, filters.length);
        this.passing = new boolean[filters.length];
        this.counts = new long[filters.length];
    }

    /** The map's type for these arguments and this many distinct FILTERs (one counting no filter). */
    static DataType mapType(DistinctArguments arguments, int filterCount) {
        List<DataType> types = arguments.types();
        DataType key = types.size() == 1 ? types.get(0).nullable() : DataType.array(DataType.string());
        DataType count = DataType.of(DataType.Kind.BIGINT).notNull();
        return DataType.map(key, filterCount == 1 ? count : DataType.array(count).notNull());
    }

    /** The number of distinct FILTER fields among {@code memberFilters} (-1, none, counting as one). */
    static int filterCount(int[] memberFilters) {
        return (int) Arrays.stream(memberFilters).distinct().count();
    }

    int mapField() {
        return mapField;
    }

    DataType mapType() {
        return mapType;
    }

    /** Whether the map's values hold a count per filter (an ARRAY), else the one filter's count (a BIGINT). */
    boolean countsPerFilter() {
        return filters.length > 1;
    }

    /** Puts the empty map into the accumulator row (the members' accumulators are created by their functions). */
    void create(Object[] acc) {
        acc[mapField] = new HashMap<>();
    }

    void accumulate(Object[] acc, Object[] input) {
        if (!anyPasses(input) || anyNull(input)) {
            return;
        }
        Map<Object, Object> seen = map(acc);
        Object key = key(input);
        read(seen.get(key));
        boolean changed = false;
        for (int s = 0; s < filters.length; s++) {
            if (!passing[s]) {
                continue;
            }
            if (counts[s] == 0) {
                counts[s] = 1;
                changed = true;
                for (int m : filterMembers[s]) {
                    members[m].accumulate(acc, offsets[m], input);
                }
            } else if (retracts) {
                counts[s]++;
                changed = true;
            }
        }
        if (changed) {
            seen.put(key, stored());
        }
    }

    void retract(Object[] acc, Object[] input) {
        if (!anyPasses(input) || anyNull(input)) {
            return;
        }
        if (!retracts) {
            throw new IllegalStateException("DISTINCT aggregates made for inserts only cannot take a row back");
        }
        Map<Object, Object> seen = map(acc);
        Object key = key(input);
        Object stored = seen.get(key);
        if (stored == null) {
            return;
        }
        read(stored);
        boolean changed = false;
        boolean left = false;
        for (int s = 0; s < filters.length; s++) {
            if (passing[s] && counts[s] > 0) {
                changed = true;
                if (--counts[s] == 0) {
                    for (int m : filterMembers[s]) {
                        members[m].retract(acc, offsets[m], input);
                    }
                }
            }
            left |= counts[s] > 0;
        }
        if (!changed) {
            return;
        }
        if (left) {
            seen.put(key, stored());
        } else {
            seen.remove(key);
        }
    }

    boolean canRetract() {
        if (!retracts) {
            return false;
        }
        for (AggregateFunction f : members) {
            if (!f.canRetract()) {
                return false;
            }
        }
        return true;
    }

    /** Only one argument can be merged: the members are fed a value by a row holding just that argument. */
    boolean canMerge() {
        if (args.length != 1) {
            return false;
        }
        for (AggregateFunction f : members) {
            if (!f.canMerge()) {
                return false;
            }
        }
        return true;
    }

    /** Adds the other accumulator's distinct values: a member sees those its filter had not counted here. */
    void merge(Object[] acc, Object[] other) {
        if (args.length != 1) {
            throw new UnsupportedOperationException("DISTINCT aggregates of several arguments cannot merge");
        }
        Map<Object, Object> mine = map(acc);
        Object[] probe = new Object[args[0] + 1];
        for (Map.Entry<Object, Object> e : map(other).entrySet()) {
            read(mine.get(e.getKey()));
            for (int s = 0; s < filters.length; s++) {
                long theirs = count(e.getValue(), s);
                if (theirs == 0) {
                    continue;
                }
                if (counts[s] == 0) {
                    probe[args[0]] = e.getKey();
                    for (int m : filterMembers[s]) {
                        members[m].accumulate(acc, offsets[m], probe);
                    }
                }
                counts[s] = retracts ? counts[s] + theirs : 1;
            }
            mine.put(e.getKey(), stored());
        }
    }

    @SuppressWarnings("unchecked")
    private Map<Object, Object> map(Object[] acc) {
        return (Map<Object, Object>) acc[mapField];
    }

    private boolean anyPasses(Object[] input) {
        boolean any = false;
        for (int s = 0; s < filters.length; s++) {
            passing[s] = filters[s] < 0 || Boolean.TRUE.equals(input[filters[s]]);
            any |= passing[s];
        }
        return any;
    }

    private boolean anyNull(Object[] input) {
        for (int a : args) {
            if (input[a] == null) {
                return true;
            }
        }
        return false;
    }

    private Object key(Object[] input) {
        if (args.length == 1) {
            return input[args[0]];
        }
        List<Object> k = new ArrayList<>(args.length);
        for (int a : args) {
            k.add(String.valueOf(input[a]));
        }
        return k;
    }

    /** Loads a map value (null: a value not seen) into {@link #counts}. */
    private void read(Object stored) {
        for (int s = 0; s < filters.length; s++) {
            counts[s] = stored == null ? 0 : count(stored, s);
        }
    }

    private long count(Object stored, int filter) {
        return (Long) (filters.length == 1 ? stored : ((List<?>) stored).get(filter));
    }

    /** {@link #counts} as a map value (a new object: an accumulator in the heap keeps it). */
    private Object stored() {
        if (filters.length == 1) {
            return counts[0];
        }
        Long[] boxed = new Long[counts.length];
        for (int s = 0; s < counts.length; s++) {
            boxed[s] = counts[s];
        }
        return Arrays.asList(boxed);
    }
}
