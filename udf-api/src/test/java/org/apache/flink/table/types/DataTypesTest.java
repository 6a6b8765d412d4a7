package org.apache.flink.table.types;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Blink's DataTypes as UDTFs use them in getResultType. */
class DataTypesTest {

    @Test
    void rowTypes() {
        DataType t = DataTypes.createRowType(DataTypes.STRING, DataTypes.LONG, DataTypes.INT);
        assertTrue(t instanceof RowType);
        RowType row = (RowType) t;
        assertEquals(3, row.getArity());
        assertArrayEquals(new String[] {"f0", "f1", "f2"}, row.getFieldNames());
        assertEquals("ROW<f0 VARCHAR, f1 BIGINT, f2 INT>", row.toString());
        RowType named = (RowType) DataTypes.createRowType(new DataType[] {DataTypes.TIMESTAMP}, new String[] {"ts"});
        assertArrayEquals(new String[] {"ts"}, named.getFieldNames());
        assertEquals("DECIMAL(10, 2)", DataTypes.createDecimalType(10, 2).sqlName());
        assertThrows(IllegalArgumentException.class, () -> DataTypes.createDecimalType(10, 20));
    }
}
