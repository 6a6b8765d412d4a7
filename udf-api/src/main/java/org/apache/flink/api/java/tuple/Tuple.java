package org.apache.flink.api.java.tuple;

import java.io.Serializable;

/**
 * Base of the fixed-arity tuples {@code Tuple0 .. Tuple25} (Flink API): public fields {@code f0, f1, ...}. A table
 * function emitting {@code TupleN} produces N columns.
 */
public abstract class Tuple implements Serializable {

    private static final long serialVersionUID = 1L;

    public static final int MAX_ARITY = 25;

    private static final Class<?>[] CLASSES = {
        Tuple0.class, Tuple1.class, Tuple2.class, Tuple3.class, Tuple4.class, Tuple5.class, Tuple6.class, Tuple7.class, Tuple8.class, Tuple9.class, Tuple10.class, Tuple11.class, Tuple12.class, Tuple13.class, Tuple14.class, Tuple15.class, Tuple16.class, Tuple17.class, Tuple18.class, Tuple19.class, Tuple20.class, Tuple21.class, Tuple22.class, Tuple23.class, Tuple24.class, Tuple25.class
    };

    /** The field at {@code pos}, from 0. */
    public abstract <T> T getField(int pos);

    public abstract <T> void setField(T value, int pos);

    public abstract int getArity();

    public abstract <T extends Tuple> T copy();

    @SuppressWarnings("unchecked")
    public static Class<? extends Tuple> getTupleClass(int arity) {
        if (arity < 0 || arity > MAX_ARITY) {
            throw new IllegalArgumentException("tuple arity must be in [0, " + MAX_ARITY + "], got " + arity);
        }
        return (Class<? extends Tuple>) CLASSES[arity];
    }

    /** A new tuple of the given arity with all fields null. */
    public static Tuple newInstance(int arity) {
        try {
            return getTupleClass(arity).getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < getArity(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append((Object) getField(i));
        }
        return sb.append(')').toString();
    }

    @Override
    public boolean equals(Object o) {
        if (o == null || o.getClass() != getClass()) {
            return false;
        }
        Tuple t = (Tuple) o;
        for (int i = 0; i < getArity(); i++) {
            if (!java.util.Objects.equals(getField(i), t.getField(i))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        int h = 0;
        for (int i = 0; i < getArity(); i++) {
            h = 31 * h + java.util.Objects.hashCode(getField(i));
        }
        return h;
    }
}
