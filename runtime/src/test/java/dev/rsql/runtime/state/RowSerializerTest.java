package dev.rsql.runtime.state;

import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.DataType.Kind;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

public class RowSerializerTest {

    static final DataType INNER = DataType.row(List.of("a", "b"),
            List.of(DataType.of(Kind.INT), DataType.array(DataType.string())));

    /** One field of every kind. */
    public static final List<DataType> ALL_TYPES = List.of(
            DataType.of(Kind.BOOLEAN),
            DataType.of(Kind.TINYINT),
            DataType.of(Kind.SMALLINT),
            DataType.of(Kind.INT),
            DataType.of(Kind.BIGINT),
            DataType.of(Kind.FLOAT),
            DataType.of(Kind.DOUBLE),
            DataType.decimal(38, 10),
            DataType.withPrecision(Kind.CHAR, 3, 0),
            DataType.string(),
            DataType.withPrecision(Kind.BINARY, 2, 0),
            DataType.of(Kind.VARBINARY),
            DataType.of(Kind.DATE),
            DataType.of(Kind.TIME),
            DataType.timestamp(3),
            DataType.withPrecision(Kind.TIMESTAMP_LTZ, 3, 0),
            DataType.array(DataType.of(Kind.BIGINT)),
            DataType.multiset(DataType.string()),
            DataType.map(DataType.string(), DataType.of(Kind.DOUBLE)),
            INNER,
            DataType.of(Kind.NULL));

    public static Object[] sample() {
        Map<String, Double> map = new LinkedHashMap<>();
        map.put("x", 1.5);
        map.put(null, null);
        map.put("y", null);
        return new Object[] {
            true, (byte) -7, (short) 30000, Integer.MIN_VALUE, Long.MAX_VALUE, -1.25f, Math.PI,
            new BigDecimal("-12345678901234567890.0123456789"), "abc", "héllo, 世界 \u0000 &&", new byte[] {0, -1},
            new byte[] {1, 2, 3, (byte) 0xff}, -719162, 86_399_999, -1L, 1_700_000_000_123L,
            Arrays.asList(1L, null, -3L), Arrays.asList("b", null, "a", "b"), map,
            new Object[] {42, Arrays.asList("p", null)}, null};
    }

    @Test
    void roundTripsEveryType() {
        RowSerializer s = new RowSerializer(ALL_TYPES);
        Object[] row = sample();
        Object[] back = s.deserialize(s.serialize(row));
        assertEquals(row.length, back.length);
        for (int i = 0; i < row.length; i++) {
            if (ALL_TYPES.get(i).kind() == Kind.MULTISET) {
                assertEquals(sorted((List<?>) row[i]), sorted((List<?>) back[i]), "field " + i);
            } else {
                assertTrue(Arrays.deepEquals(new Object[] {row[i]}, new Object[] {back[i]}),
                        "field " + i + ": " + render(row[i]) + " vs " + render(back[i]));
            }
        }
        // classes of the internal representation are kept
        assertEquals(Byte.class, back[1].getClass());
        assertEquals(Short.class, back[2].getClass());
        assertEquals(Integer.class, back[12].getClass());
        assertEquals(Long.class, back[14].getClass());
        assertEquals(((BigDecimal) row[7]).scale(), ((BigDecimal) back[7]).scale());
    }

    @Test
    void roundTripsAllNulls() {
        RowSerializer s = new RowSerializer(ALL_TYPES);
        Object[] row = new Object[ALL_TYPES.size()];
        byte[] bytes = s.serialize(row);
        assertEquals(3, bytes.length, "21 fields: just the 3-byte null bitmap");
        assertArrayEquals(row, s.deserialize(bytes));
    }

    @Test
    void roundTripsDeepNesting() {
        DataType deep = DataType.map(DataType.of(Kind.INT),
                DataType.array(DataType.row(List.of("r", "m"),
                        List.of(INNER, DataType.multiset(DataType.decimal(5, 2))))));
        RowSerializer s = new RowSerializer(List.of(deep, DataType.array(DataType.array(DataType.of(Kind.BOOLEAN)))));
        Map<Integer, List<Object[]>> value = new TreeMap<>();
        value.put(1, Arrays.asList(new Object[] {new Object[] {null, List.of()}, Arrays.asList(null, new BigDecimal("1.50"))},
                null));
        value.put(-5, List.of());
        Object[] row = {value, Arrays.asList(List.of(true), null, Arrays.asList(false, null))};
        Object[] back = s.deserialize(s.serialize(row));
        assertEquals(row[1], back[1]);
        @SuppressWarnings("unchecked")
        Map<Integer, List<Object[]>> m = (Map<Integer, List<Object[]>>) back[0];
        assertEquals(value.keySet(), m.keySet());
        assertEquals(0, m.get(-5).size());
        Object[] inner = m.get(1).get(0);
        assertNull(m.get(1).get(1));
        assertTrue(Arrays.deepEquals(new Object[] {null, List.of()}, (Object[]) inner[0]));
        assertEquals(Arrays.asList(null, new BigDecimal("1.50")), inner[1]);
    }

    @Test
    void isDeterministic() {
        RowSerializer s = new RowSerializer(ALL_TYPES);
        byte[] a = s.serialize(sample());
        byte[] b = s.serialize(sample());
        assertArrayEquals(a, b);
        assertArrayEquals(a, s.serialize(s.deserialize(a)), "serialize(deserialize(x)) == x");

        // equal maps and multisets in another iteration order give equal bytes
        Object[] reordered = sample();
        Map<String, Double> map = new HashMap<>();
        map.put("y", null);
        map.put(null, null);
        map.put("x", 1.5);
        reordered[18] = map;
        reordered[17] = Arrays.asList("a", "b", null, "b");
        assertArrayEquals(a, s.serialize(reordered));
    }

    @Test
    void valueModeIsExactKeyModeNormalizes() {
        List<DataType> types = List.of(DataType.of(Kind.DOUBLE), DataType.of(Kind.FLOAT), DataType.decimal(10, 2));
        RowSerializer values = new RowSerializer(types);
        RowSerializer keys = RowSerializer.forKeys(types);

        Object[] negZero = {-0.0d, -0.0f, new BigDecimal("1.0")};
        Object[] posZero = {0.0d, 0.0f, new BigDecimal("1.00")};
        assertFalse(Arrays.equals(values.serialize(negZero), values.serialize(posZero)));
        Object[] exact = values.deserialize(values.serialize(negZero));
        assertEquals(Double.doubleToRawLongBits(-0.0d), Double.doubleToRawLongBits((Double) exact[0]));
        assertEquals(new BigDecimal("1.0"), exact[2]); // scale kept

        assertArrayEquals(keys.serialize(negZero), keys.serialize(posZero));
        assertArrayEquals(keys.serialize(posZero), keys.serialize(new Object[] {0.0d, 0.0f, BigDecimal.ONE}));
        Object[] key = keys.deserialize(keys.serialize(negZero));
        assertEquals(0.0d, key[0]);
        assertEquals(new BigDecimal("1.00"), key[2], "read back at the type's scale");
        // NaNs are one value
        assertArrayEquals(keys.serialize(new Object[] {Double.NaN, Float.NaN, BigDecimal.ZERO}),
                keys.serialize(new Object[] {Double.longBitsToDouble(0x7ff8000000000001L),
                        Float.intBitsToFloat(0x7fc00001), new BigDecimal("0.000")}));
    }

    @Test
    void decimalKeysWiderThanTheTypeScaleKeepTheirValue() {
        RowSerializer keys = RowSerializer.forKeys(List.of(DataType.decimal(10, 1)));
        Object[] back = keys.deserialize(keys.serialize(new Object[] {new BigDecimal("1.2500")}));
        assertEquals(0, new BigDecimal("1.25").compareTo((BigDecimal) back[0]));
        back = keys.deserialize(keys.serialize(new Object[] {new BigDecimal("100")}));
        assertEquals(new BigDecimal("100.0"), back[0]);
    }

    @Test
    void numbersOfAnotherClassAreWidened() {
        RowSerializer s = new RowSerializer(List.of(DataType.of(Kind.BIGINT), DataType.of(Kind.DOUBLE)));
        assertArrayEquals(s.serialize(new Object[] {5L, 2.0d}), s.serialize(new Object[] {5, 2.0f}));
    }

    @Test
    void rejectsMismatchedRows() {
        RowSerializer s = new RowSerializer(List.of(DataType.of(Kind.INT), DataType.string()));
        assertThrows(IllegalArgumentException.class, () -> s.serialize(new Object[] {1}));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> s.serialize(new Object[] {1, new byte[0]}));
        assertTrue(e.getMessage().contains("field 1"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> s.serialize(new Object[] {"x", "y"}));
        assertThrows(StateException.class, () -> s.deserialize(new byte[] {0, 0, 0}));
    }

    @Test
    void emptyRowAndLongStrings() {
        RowSerializer empty = new RowSerializer(List.of());
        assertEquals(0, empty.serialize(new Object[0]).length);
        assertEquals(0, empty.deserialize(new byte[0]).length);

        RowSerializer s = new RowSerializer(List.of(DataType.string()));
        String big = "x".repeat(300_000);
        assertEquals(big, s.deserialize(s.serialize(new Object[] {big}))[0]);
    }

    @Test
    void smallHelpers() {
        for (long v : new long[] {0, -1, Long.MIN_VALUE, Long.MAX_VALUE, 1234567}) {
            assertEquals(v, LongSerializer.INSTANCE.deserialize(LongSerializer.INSTANCE.serialize(v)));
        }
        assertEquals("ü&&\u0000", StringSerializer.INSTANCE.deserialize(StringSerializer.INSTANCE.serialize("ü&&\u0000")));
    }

    private static List<String> sorted(List<?> list) {
        List<String> out = new ArrayList<>();
        for (Object o : list) {
            out.add(String.valueOf(o));
        }
        out.sort(null);
        return out;
    }

    private static String render(Object o) {
        return Arrays.deepToString(new Object[] {o});
    }
}
