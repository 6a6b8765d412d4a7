package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.state.RowListSerializer;
import dev.rsql.runtime.state.RowSerializer;
import dev.rsql.runtime.state.TypeSerializer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The open slices of one key of a {@link SlicingWindowAggregateOperator}, ordered by slice end: per slice its end, the
 * rows counted in it and its accumulators. Ends and counts are primitive arrays side by side, so finding a row's slice
 * or a window's slices reads one array instead of a boxed number per slice.
 */
final class KeySlices {

    long[] ends;
    long[] counts;
    Object[][] accs;
    int size;
    /** The group key's fields as results carry them, once a window of the key fired (not stored). */
    Object[] key;

    KeySlices(int capacity) {
        ends = new long[capacity];
        counts = new long[capacity];
        accs = new Object[capacity][];
    }

    /** Where a slice ending at {@code end} is or would go: the index of the first slice ending at or after it. */
    int position(long end) {
        int i = size;
        while (i > 0 && ends[i - 1] >= end) {
            i--;
        }
        return i;
    }

    void insert(int i, long end, Object[] acc) {
        if (size == ends.length) {
            int grown = Math.max(4, size * 2);
            ends = Arrays.copyOf(ends, grown);
            counts = Arrays.copyOf(counts, grown);
            accs = Arrays.copyOf(accs, grown);
        }
        System.arraycopy(ends, i, ends, i + 1, size - i);
        System.arraycopy(counts, i, counts, i + 1, size - i);
        System.arraycopy(accs, i, accs, i + 1, size - i);
        ends[i] = end;
        counts[i] = 0;
        accs[i] = acc;
        size++;
    }

    void remove(int i) {
        size--;
        System.arraycopy(ends, i + 1, ends, i, size - i);
        System.arraycopy(counts, i + 1, counts, i, size - i);
        System.arraycopy(accs, i + 1, accs, i, size - i);
        accs[size] = null;
    }

    /** Stored as the list of its slices' rows (slice end, row count, accumulators as a nested row). */
    static final class Serializer implements TypeSerializer<KeySlices> {

        private final RowListSerializer rows;

        /** {@code slice}: rows of (BIGINT end, BIGINT count, the accumulators' row). */
        Serializer(RowSerializer slice) {
            this.rows = new RowListSerializer(slice);
        }

        @Override
        public byte[] serialize(KeySlices value) {
            List<Object[]> list = new ArrayList<>(value.size);
            for (int i = 0; i < value.size; i++) {
                list.add(new Object[]{value.ends[i], value.counts[i], value.accs[i]});
            }
            return rows.serialize(list);
        }

        @Override
        public KeySlices deserialize(byte[] bytes) {
            List<Object[]> list = rows.deserialize(bytes);
            KeySlices value = new KeySlices(Math.max(list.size(), 4));
            for (Object[] row : list) {
                value.ends[value.size] = (Long) row[0];
                value.counts[value.size] = (Long) row[1];
                value.accs[value.size++] = (Object[]) row[2];
            }
            return value;
        }
    }
}
