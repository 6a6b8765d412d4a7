package dev.rsql.runtime.state;

/** A {@code Long} as 8 big-endian bytes. */
public final class LongSerializer implements TypeSerializer<Long> {

    public static final LongSerializer INSTANCE = new LongSerializer();

    private LongSerializer() {
    }

    @Override
    public byte[] serialize(Long value) {
        long v = value;
        byte[] b = new byte[8];
        for (int i = 7; i >= 0; i--) {
            b[i] = (byte) v;
            v >>>= 8;
        }
        return b;
    }

    @Override
    public Long deserialize(byte[] bytes) {
        if (bytes.length != 8) {
            throw new StateException("a long needs 8 bytes, got " + bytes.length);
        }
        long v = 0;
        for (byte b : bytes) {
            v = (v << 8) | (b & 0xff);
        }
        return v;
    }
}
