package dev.rsql.planner.functions.udf;

import dev.rsql.runtime.state.ByteReader;
import dev.rsql.runtime.state.ByteWriter;
import dev.rsql.runtime.state.StateException;
import dev.rsql.runtime.state.TypeSerializer;

import java.lang.reflect.Type;

/**
 * Stores a UDAF's accumulator (Blink: "a POJO with public fields") as bytes for the aggregation state, and reads it
 * back. The layout is chosen at plan time from the accumulator's declared class ({@link AccumulatorCodec}): the bytes
 * are a format byte and the values, and reading them never names, loads or instantiates a class other than the
 * declared ones. Bytes that do not fit (corrupt or crafted state) give a {@link StateException} naming the function.
 * Immutable and thread-safe.
 */
public final class AccumulatorSerializer implements TypeSerializer<Object> {

    /** The first byte of every accumulator; the engine's earlier, class-naming layout started with 0..22. */
    private static final byte FORMAT = 0x41;

    private final String function;
    private final String type;
    private final AccumulatorCodec codec;

    private AccumulatorSerializer(String function, String type, AccumulatorCodec codec) {
        this.function = function;
        this.type = type;
        this.codec = codec;
    }

    /**
     * The serializer of function {@code function}'s accumulators of declared type {@code type}; IllegalArgumentException,
     * for the user, when a field of it cannot be stored.
     */
    public static AccumulatorSerializer of(String function, Type type) {
        try {
            return new AccumulatorSerializer(function, type.getTypeName(), AccumulatorCodec.of(type));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("aggregate function " + function + ": its accumulator "
                    + type.getTypeName() + " cannot be stored: " + e.getMessage(), e);
        }
    }

    @Override
    public byte[] serialize(Object value) {
        ByteWriter out = new ByteWriter(64);
        out.writeByte(FORMAT);
        try {
            codec.write(out, value, 0);
        } catch (IllegalArgumentException | ClassCastException e) {
            throw new IllegalArgumentException("aggregate function " + function + ": cannot store its accumulator: "
                    + e.getMessage(), e);
        }
        return out.toByteArray();
    }

    @Override
    public Object deserialize(byte[] bytes) {
        try {
            ByteReader in = new ByteReader(bytes);
            byte format = in.readByte();
            if (format != FORMAT) {
                throw new StateException("format " + format + ", this engine reads " + FORMAT
                        + " (state of an older engine version: start the job from scratch)");
            }
            Object v = codec.read(in, 0);
            if (!in.atEnd()) {
                throw new StateException(in.remaining() + " trailing bytes");
            }
            return v;
        } catch (RuntimeException | StackOverflowError e) {
            throw new StateException("cannot restore an accumulator of aggregate function " + function + " ("
                    + type + ") from " + bytes.length + " bytes of state: " + e.getMessage(), e);
        }
    }
}
