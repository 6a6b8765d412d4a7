package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.state.RowListSerializer;
import dev.rsql.runtime.state.RowSerializer;
import dev.rsql.runtime.types.DataType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A key's slices kept in primitive arrays: inserts and removals keep them ordered by end, and they are stored exactly
 * as the list of (end, count, accumulators) rows that held them before, so state written by either reads back.
 */
class KeySlicesTest {

    private static final RowSerializer SLICE = new RowSerializer(List.of(
            DataType.of(DataType.Kind.BIGINT).notNull(), DataType.of(DataType.Kind.BIGINT).notNull(),
            DataType.row(List.of("acc0", "acc1"), List.of(DataType.of(DataType.Kind.BIGINT),
                    DataType.of(DataType.Kind.VARCHAR)))));

    @Test
    void keepsSlicesOrderedByEnd() {
        KeySlices slices = new KeySlices(1);
        for (long end : new long[]{20, 5, 15, 30, 10, 25}) {
            int i = slices.position(end);
            slices.insert(i, end, new Object[]{end, "s" + end});
            slices.counts[i] = end / 5;
        }
        assertEquals(6, slices.size);
        assertEquals(2, slices.position(15));
        assertEquals(6, slices.position(31));
        slices.remove(0);
        slices.remove(slices.position(30));
        assertEquals(List.of("10:2:s10", "15:3:s15", "20:4:s20", "25:5:s25"), describe(slices));
    }

    @Test
    void storedAsTheRowListOfItsSlices() {
        KeySlices slices = new KeySlices(4);
        List<Object[]> rows = new ArrayList<>();
        for (long end = 5000; end <= 30000; end += 5000) {
            Object[] acc = {end * 3, end == 10000 ? null : "x" + end};
            slices.insert(slices.size, end, acc);
            slices.counts[slices.size - 1] = end / 1000;
            rows.add(new Object[]{end, end / 1000, acc});
        }
        KeySlices.Serializer serializer = new KeySlices.Serializer(SLICE);
        byte[] bytes = serializer.serialize(slices);
        assertArrayEquals(new RowListSerializer(SLICE).serialize(rows), bytes);
        KeySlices read = serializer.deserialize(bytes);
        assertEquals(describe(slices), describe(read));
        read.insert(read.size, 35000, new Object[]{1L, "y"});    // room to grow after a read
        assertEquals(7, read.size);
    }

    private static List<String> describe(KeySlices slices) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < slices.size; i++) {
            out.add(slices.ends[i] + ":" + slices.counts[i] + ":" + slices.accs[i][1]);
        }
        return out;
    }
}
