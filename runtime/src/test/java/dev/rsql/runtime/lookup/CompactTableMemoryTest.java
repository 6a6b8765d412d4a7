package dev.rsql.runtime.lookup;

import dev.rsql.runtime.types.DataType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The memory test: three million generated rows of an id and five columns (about 62 bytes each as CSV text) in the
 * compact store, whose bytes per row, offset and index included, must stay well under the raw size (its cities are
 * dictionary codes, its names lose their shared prefix, its epoch times are small differences), far from the ~300
 * bytes a row of Java objects would take.
 */
class CompactTableMemoryTest {

    private static final int ROWS = 3_000_000;

    @Test
    void storesRowsInAboutTheirRawSize() {
        List<DataType> types = List.of(DataType.of(DataType.Kind.BIGINT), DataType.string(), DataType.string(),
                DataType.of(DataType.Kind.INT), DataType.of(DataType.Kind.BIGINT), DataType.of(DataType.Kind.DOUBLE));
        CompactTable.Builder builder = new CompactTable.Builder(types, List.of(new int[]{0}));
        CompactTable.Builder.Loader loader = builder.newLoader();
        long raw = 0;
        for (int i = 0; i < ROWS; i++) {
            Object[] row = {(long) i, "user-" + i, "city-" + (i % 1000) + "-region", i % 97,
                    1_700_000_000_000L + i, i * 0.25};
            raw += csvLength(row);
            loader.add(row);
        }
        CompactTable table = builder.build();
        assertEquals(ROWS, table.size());
        double rawPerRow = (double) raw / ROWS;
        double perRow = (double) table.bytes() / ROWS;
        System.out.printf("compact store: %d rows, raw %.1f B/row (CSV), stored %.1f B/row, %d MB%n", ROWS,
                rawPerRow, perRow, table.bytes() >> 20);
        // 68.7 B/row before dictionaries, affixes, integer bases and tagged index slots; 38.3 with them
        assertTrue(perRow < rawPerRow * 0.65, "store takes " + perRow + " bytes a row for " + rawPerRow + " raw");
        assertEquals("user-1234567", table.lookup(0, new Object[]{1_234_567L}).get(0)[1]);
    }

    private static int csvLength(Object[] row) {
        int n = row.length; // separators and newline
        for (Object v : row) {
            n += String.valueOf(v).length();
        }
        return n;
    }
}
