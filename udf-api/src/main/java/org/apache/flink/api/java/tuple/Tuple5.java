package org.apache.flink.api.java.tuple;

/** A tuple of 5 fields (Flink API). */
public class Tuple5<T0, T1, T2, T3, T4> extends Tuple {

    private static final long serialVersionUID = 1L;

    /** Field 0. */
    public T0 f0;

    /** Field 1. */
    public T1 f1;

    /** Field 2. */
    public T2 f2;

    /** Field 3. */
    public T3 f3;

    /** Field 4. */
    public T4 f4;

    public Tuple5() {
    }

    public Tuple5(T0 f0, T1 f1, T2 f2, T3 f3, T4 f4) {
        this.f0 = f0;
        this.f1 = f1;
        this.f2 = f2;
        this.f3 = f3;
        this.f4 = f4;
    }

    public static <T0, T1, T2, T3, T4> Tuple5<T0, T1, T2, T3, T4> of(T0 f0, T1 f1, T2 f2, T3 f3, T4 f4) {
        return new Tuple5<>(f0, f1, f2, f3, f4);
    }

    public void setFields(T0 f0, T1 f1, T2 f2, T3 f3, T4 f4) {
        this.f0 = f0;
        this.f1 = f1;
        this.f2 = f2;
        this.f3 = f3;
        this.f4 = f4;
    }

    @Override
    public int getArity() {
        return 5;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T getField(int pos) {
        switch (pos) {
            case 0:
                return (T) this.f0;
            case 1:
                return (T) this.f1;
            case 2:
                return (T) this.f2;
            case 3:
                return (T) this.f3;
            case 4:
                return (T) this.f4;
            default:
                throw new IndexOutOfBoundsException(String.valueOf(pos));
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> void setField(T value, int pos) {
        switch (pos) {
            case 0:
                this.f0 = (T0) value;
                break;
            case 1:
                this.f1 = (T1) value;
                break;
            case 2:
                this.f2 = (T2) value;
                break;
            case 3:
                this.f3 = (T3) value;
                break;
            case 4:
                this.f4 = (T4) value;
                break;
            default:
                throw new IndexOutOfBoundsException(String.valueOf(pos));
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public Tuple5<T0, T1, T2, T3, T4> copy() {
        return new Tuple5<>(this.f0, this.f1, this.f2, this.f3, this.f4);
    }
}
