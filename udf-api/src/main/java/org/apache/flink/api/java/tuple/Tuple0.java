package org.apache.flink.api.java.tuple;

/** A tuple of 0 fields (Flink API). */
public class Tuple0 extends Tuple {

    private static final long serialVersionUID = 1L;

    public Tuple0() {
    }

    public static Tuple0 of() {
        return new Tuple0();
    }

    @Override
    public int getArity() {
        return 0;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T getField(int pos) {
        switch (pos) {
            default:
                throw new IndexOutOfBoundsException(String.valueOf(pos));
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> void setField(T value, int pos) {
        switch (pos) {
            default:
                throw new IndexOutOfBoundsException(String.valueOf(pos));
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public Tuple0 copy() {
        return new Tuple0();
    }
}
