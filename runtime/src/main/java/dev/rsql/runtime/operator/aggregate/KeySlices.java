package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.state.ByteReader;
import dev.rsql.runtime.state.ByteWriter;
import dev.rsql.runtime.state.RowSerializer;
import dev.rsql.runtime.state.StateException;
import dev.rsql.runtime.state.TypeSerializer;

import java.util.Arrays;

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

    /**
     * Stored as a list of rows (slice end, row count, accumulators as a nested row): the count, then each row in the
     * self-delimiting {@link RowSerializer} format.
     */
    static final class Serializer implements TypeSerializer<KeySlices> {

        private final RowSerializer slice;

        /** {@code slice}: rows of (BIGINT end, BIGINT count, the accumulators' row). */
        Serializer(RowSerializer slice) {
            this.slice = slice;
        }

        @Override
        public byte[] serialize(KeySlices value) {
            ByteWriter out = new ByteWriter(64 * Math.max(1, value.size));
            out.writeVarInt(value.size);
            for (int i = 0; i < value.size; i++) {
                slice.serialize(new Object[]{value.ends[i], value.counts[i], value.accs[i]}, out);
            }
            return out.toByteArray();
        }

        @Override
        public KeySlices deserialize(byte[] bytes) {
            ByteReader in = new ByteReader(bytes);
            int n = in.readVarInt();
            KeySlices value = new KeySlices(Math.max(n, 4));
            for (int i = 0; i < n; i++) {
                Object[] row = slice.deserialize(in);
                value.ends[i] = (Long) row[0];
                value.counts[i] = (Long) row[1];
                value.accs[i] = (Object[]) row[2];
            }
            value.size = n;
            if (!in.atEnd()) {
                throw new StateException("slice list bytes have trailing bytes for " + slice);
            }
            return value;
        }
    }
}
