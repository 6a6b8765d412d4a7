package dev.rsql.runtime.operator.rank;

import dev.rsql.runtime.graph.RankNode;
import dev.rsql.runtime.state.CloseableIterator;
import dev.rsql.runtime.state.KeyedStateBackend;
import dev.rsql.runtime.state.KeyedValueState;
import dev.rsql.runtime.state.OrderedKeyEncoder;
import dev.rsql.runtime.state.RowSerializer;
import dev.rsql.runtime.state.StateEntry;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The rows of TopN partitions in keyed state, one entry per distinct row under the namespace {@code group ‖ sort key
 * ‖ row} ({@code group} tells apart the windows of a window TopN; empty otherwise), the sort key encoded so that byte
 * order is rank order: reading a key's entries in order yields a group's rows by rank, and a change reads only up to
 * the last rank of the range. An entry's value is how many times the row is present and where the row starts in the
 * namespace.
 */
final class SortedRows {

    record Ranked(Object[] row, long rank) {
    }

    /**
     * The rows ranked within the range, the group prefix and sort key of the last of them, and whether the range is
     * full (a row sorting after that key ranks after the range).
     */
    record Top(List<Ranked> rows, byte[] lastSortKey, boolean full) {

        /** Whether a row with this encoded group and sort key would rank after the range. */
        boolean after(byte[] groupAndSortKey) {
            return full && Arrays.compareUnsigned(groupAndSortKey, lastSortKey) > 0;
        }
    }

    private final KeyedValueState<Object[]> rows;
    private final RowSerializer rowSerializer;
    private final OrderedKeyEncoder sortKey;
    private final RankNode.Function function;
    private final long rankStart;
    private final long rankEnd;

    SortedRows(KeyedStateBackend backend, String operatorId, RowType rowType, RankNode.Order order,
               RankNode.Function function, long rankStart, long rankEnd) {
        DataType bigint = DataType.of(DataType.Kind.BIGINT).notNull();
        this.rows = backend.valueState(operatorId, "rows", new RowSerializer(List.of(bigint, bigint)));
        this.rowSerializer = RowSerializer.of(rowType);
        this.sortKey = new OrderedKeyEncoder(rowType.types(), order.fields(), order.descending(), order.nullsFirst());
        this.function = function;
        this.rankStart = rankStart;
        this.rankEnd = rankEnd;
    }

    /** {@code group ‖ sort key} of a row: where its entry sorts. */
    byte[] groupAndSortKey(byte[] group, Object[] row) {
        byte[] sort = sortKey.encode(row);
        byte[] out = Arrays.copyOf(group, group.length + sort.length);
        System.arraycopy(sort, 0, out, group.length, sort.length);
        return out;
    }

    /** Adds ({@code delta} 1) or takes back (-1) a row; false when taking back a row that is not there. */
    boolean change(byte[] key, byte[] groupAndSortKey, Object[] row, int delta) {
        byte[] rowBytes = rowSerializer.serialize(row);
        byte[] namespace = Arrays.copyOf(groupAndSortKey, groupAndSortKey.length + rowBytes.length);
        System.arraycopy(rowBytes, 0, namespace, groupAndSortKey.length, rowBytes.length);
        Object[] stored = rows.get(key, namespace);
        if (stored == null && delta < 0) {
            return false;
        }
        long count = (stored == null ? 0 : (Long) stored[0]) + delta;
        if (count == 0) {
            rows.remove(key, namespace);
        } else {
            rows.put(key, namespace, new Object[] {count, (long) groupAndSortKey.length});
        }
        return true;
    }

    /**
     * The group's rows ranked within the range, read in rank order up to the first row after it; with {@code prune},
     * the group's rows after the range are deleted.
     */
    Top top(byte[] key, byte[] group, boolean prune) {
        List<Ranked> result = new ArrayList<>();
        List<byte[]> after = new ArrayList<>();
        long position = 0;
        long rank = 0;
        byte[] previous = null;
        int previousLength = 0;
        try (CloseableIterator<StateEntry<Object[]>> it = rows.entries(key)) {
            while (it.hasNext()) {
                StateEntry<Object[]> e = it.next();
                byte[] ns = e.namespace();
                int inGroup = Arrays.compareUnsigned(ns, 0, Math.min(group.length, ns.length), group, 0, group.length);
                if (inGroup < 0) {
                    continue;
                }
                if (inGroup > 0) {
                    break;
                }
                long count = (Long) e.value()[0];
                int length = ((Long) e.value()[1]).intValue();
                boolean newSortKey = previous == null
                        || !Arrays.equals(previous, 0, previousLength, ns, 0, length);
                long first = switch (function) {
                    case ROW_NUMBER -> position + 1;
                    case RANK -> newSortKey ? position + 1 : rank;
                    case DENSE_RANK -> newSortKey ? rank + 1 : rank;
                };
                if (first > rankEnd) {
                    if (!prune) {
                        break;
                    }
                    after.add(ns);
                    continue;
                }
                Object[] row = rowSerializer.deserialize(Arrays.copyOfRange(ns, length, ns.length));
                for (long i = 0; i < count; i++) {
                    rank = function == RankNode.Function.ROW_NUMBER ? first + i : first;
                    if (rank >= rankStart && rank <= rankEnd) {
                        result.add(new Ranked(row, rank));
                    }
                }
                position += count;
                previous = ns;
                previousLength = length;
            }
        }
        for (byte[] ns : after) {
            rows.remove(key, ns);
        }
        long reached = function == RankNode.Function.DENSE_RANK ? rank : position;
        byte[] last = previous == null ? null : Arrays.copyOf(previous, previousLength);
        return new Top(result, last, reached >= rankEnd);
    }

    /** Deletes every row of a group (a fired window), or of every group of the key with an empty group. */
    void clear(byte[] key, byte[] group) {
        List<byte[]> namespaces = new ArrayList<>();
        try (CloseableIterator<StateEntry<Object[]>> it = rows.entries(key)) {
            while (it.hasNext()) {
                byte[] ns = it.next().namespace();
                int inGroup = Arrays.compareUnsigned(ns, 0, Math.min(group.length, ns.length), group, 0, group.length);
                if (inGroup > 0) {
                    break;
                }
                if (inGroup == 0) {
                    namespaces.add(ns);
                }
            }
        }
        for (byte[] ns : namespaces) {
            rows.remove(key, ns);
        }
    }

    /** A row with its rank appended, when the rank is output. */
    static Object[] withRank(Object[] row, long rank, boolean outputRank) {
        if (!outputRank) {
            return row;
        }
        Object[] out = Arrays.copyOf(row, row.length + 1);
        out[row.length] = rank;
        return out;
    }
}
