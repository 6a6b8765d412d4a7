package dev.rsql.sdk.dsl;

import dev.rsql.runtime.types.DataType;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Java types as row columns: their types, their internal values, and the way back. */
class RowMappingTest {

    enum Level { LOW, HIGH }

    record Place(String city, double lat) {
    }

    record Everything(String s, int i, Long l, double d, boolean b, BigDecimal dec, byte[] bytes, Instant at,
                      LocalDateTime local, LocalDate day, Level level, Place place) {
    }

    static class Base {
        private String id;
    }

    /** A POJO: fields in declaration order, superclass first; transient and static ones are not columns. */
    static final class Order extends Base {
        static final int IGNORED = 1;
        private long amount;
        private transient String cache;
        Instant placed;

        Order() {
        }

        Order(String id, long amount, Instant placed) {
            setId(id);
            this.amount = amount;
            this.placed = placed;
        }

        void setId(String id) {
            ((Base) this).id = id;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Order && Objects.equals(((Base) this).id, ((Base) o).id)
                    && amount == ((Order) o).amount && Objects.equals(placed, ((Order) o).placed);
        }

        @Override
        public int hashCode() {
            return Objects.hash(((Base) this).id, amount, placed);
        }
    }

    @Test
    void aRecordIsItsComponentsInTheirInternalValues() {
        RowMapping<Everything> m = RowMapping.of(Everything.class);
        assertEquals(List.of("s", "i", "l", "d", "b", "dec", "bytes", "at", "local", "day", "level", "place"),
                m.rowType().names());
        assertEquals("[STRING, INT, BIGINT, DOUBLE, BOOLEAN, DECIMAL(38, 18), BYTES, TIMESTAMP(3), TIMESTAMP(3), DATE,"
                + " STRING, ROW<`city` STRING, `lat` DOUBLE>]", m.rowType().types().toString());
        Instant at = Instant.parse("2026-12-01T10:15:30.123Z");
        Everything e = new Everything("x", 7, 8L, 1.5, true, new BigDecimal("2.50"), new byte[]{1, 2}, at,
                LocalDateTime.of(2026, 12, 1, 10, 15, 30, 123_000_000), LocalDate.of(2026, 12, 1), Level.HIGH,
                new Place("Hangzhou", 30.25));
        Object[] row = m.toRow(e);
        assertEquals(at.toEpochMilli(), row[7]);
        assertEquals(at.toEpochMilli(), row[8], "LocalDateTime is read as UTC");
        assertEquals((int) LocalDate.of(2026, 12, 1).toEpochDay(), row[9]);
        assertEquals("HIGH", row[10]);
        assertArrayEquals(new Object[]{"Hangzhou", 30.25}, (Object[]) row[11]);
        Everything back = m.read(row, 0);
        assertArrayEquals(e.bytes(), back.bytes());
        assertEquals(e, new Everything(back.s(), back.i(), back.l(), back.d(), back.b(), back.dec(), e.bytes(),
                back.at(), back.local(), back.day(), back.level(), back.place()));
    }

    @Test
    void nullsAndPrimitives() {
        RowMapping<Everything> m = RowMapping.of(Everything.class);
        Everything back = m.read(new Object[12], 0);
        assertEquals(0, back.i(), "a primitive reads NULL as zero");
        assertEquals(null, back.l());
        assertEquals(null, back.place());
    }

    @Test
    void aPojoIsItsFields() {
        RowMapping<Order> m = RowMapping.of(Order.class);
        assertEquals(List.of("id", "amount", "placed"), m.rowType().names());
        Order o = new Order("o1", 42, Instant.ofEpochMilli(1_000));
        Object[] row = new Object[5];
        m.write(o, row, 2);
        assertArrayEquals(new Object[]{null, null, "o1", 42L, 1_000L}, row);
        assertEquals(o, m.read(row, 2));
    }

    @Test
    void aSimpleTypeIsOneColumn() {
        RowMapping<String> words = RowMapping.of(String.class);
        assertEquals("value", words.rowType().name(0));
        assertEquals(DataType.Kind.VARCHAR, words.rowType().type(0).kind());
        assertEquals("w", words.read(words.toRow("w"), 0));
        assertEquals("key", RowMapping.of(Long.class, "key").rowType().name(0));
    }

    static final class NoDefaultConstructor {
        private final int x;

        NoDefaultConstructor(int x) {
            this.x = x;
        }
    }

    @Test
    void aClassWithoutANoArgumentConstructorIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RowMapping.of(NoDefaultConstructor.class));
        assertTrue(e.getMessage().contains("no-argument constructor"), e.getMessage());
    }
}
