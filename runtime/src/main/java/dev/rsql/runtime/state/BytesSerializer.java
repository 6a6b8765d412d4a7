package dev.rsql.runtime.state;

/** A {@code byte[]} stored as is (not copied: the caller must not modify an array after handing it over). */
public final class BytesSerializer implements TypeSerializer<byte[]> {

    public static final BytesSerializer INSTANCE = new BytesSerializer();

    private BytesSerializer() {
    }

    @Override
    public byte[] serialize(byte[] value) {
        return value;
    }

    @Override
    public byte[] deserialize(byte[] bytes) {
        return bytes;
    }
}
