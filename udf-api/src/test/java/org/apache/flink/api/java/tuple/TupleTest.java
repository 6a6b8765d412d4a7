package org.apache.flink.api.java.tuple;

import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The tuple and row classes UDF jars use, as Flink/Blink define them. */
class TupleTest {

    @Test
    void tuplesByFieldAndPosition() {
        Tuple3<String, Long, Integer> t = Tuple3.of("a", 2L, 3);
        assertEquals("a", t.f0);
        assertEquals(3, t.getArity());
        assertEquals((Long) 2L, t.getField(1));
        t.setField(9, 2);
        assertEquals(9, t.f2);
        Tuple3<String, Long, Integer> c = t.copy();
        assertNotSame(t, c);
        assertEquals(t, c);
        assertEquals("(a,2,9)", t.toString());
        assertThrows(IndexOutOfBoundsException.class, () -> t.getField(3));
        assertEquals(Tuple25.class, Tuple.getTupleClass(25));
        assertEquals(0, new Tuple0().getArity());
    }

    @Test
    void everyArityIsGenerated() {
        // The classes come from a template whose arity bound must match MAX_ARITY.
        for (int arity = 0; arity <= Tuple.MAX_ARITY; arity++) {
            Tuple t = Tuple.newInstance(arity);
            assertEquals(arity, t.getArity());
            assertEquals("Tuple" + arity, t.getClass().getSimpleName());
        }
    }

    @Test
    void rows() {
        Row r = new Row(2);
        r.setField(0, "x");
        assertEquals(2, r.getArity());
        assertEquals(Row.of("x", null), r);
        assertEquals("x,null", r.toString());
    }
}
