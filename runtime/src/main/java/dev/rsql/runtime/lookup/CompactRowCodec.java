package dev.rsql.runtime.lookup;

import dev.rsql.runtime.state.ByteReader;
import dev.rsql.runtime.state.ByteWriter;
import dev.rsql.runtime.state.RowSerializer;
import dev.rsql.runtime.types.DataType;

import java.util.List;

/**
 * The row format of a {@link CompactTable}: smaller than {@link RowSerializer}'s (which must stay fixed for state),
 * because a dimension table's ids, counts and epoch times are mostly small or alike: a null bitmap, then INT, DATE,
 * TIME and BIGINT as zig-zag varints (an id below 2^20 takes 3 bytes, not 8), strings as varint length + UTF-8, and
 * any other type in {@link RowSerializer}'s format. Immutable and thread-safe.
 */
final class CompactRowCodec {

    private final DataType.Kind[] kinds;
    private final RowSerializer[] others;

    CompactRowCodec(List<DataType> types) {
        kinds = new DataType.Kind[types.size()];
        others = new RowSerializer[types.size()];
        for (int i = 0; i < kinds.length; i++) {
            kinds[i] = types.get(i).kind();
            if (!isVarint(kinds[i]) && !kinds[i].isCharacter()) {
                others[i] = new RowSerializer(List.of(types.get(i)));
            }
        }
    }

    private static boolean isVarint(DataType.Kind k) {
        return k == DataType.Kind.INT || k == DataType.Kind.DATE || k == DataType.Kind.TIME
                || k == DataType.Kind.BIGINT;
    }

    void write(Object[] row, ByteWriter out) {
        int bitmap = out.reserve((kinds.length + 7) >>> 3);
        for (int i = 0; i < kinds.length; i++) {
            Object v = row[i];
            if (v == null) {
                out.setBit(bitmap, i);
            } else if (isVarint(kinds[i])) {
                long x = ((Number) v).longValue();
                out.writeVarLong((x << 1) ^ (x >> 63));
            } else if (others[i] == null) {
                out.writeLengthPrefixed(v.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            } else {
                others[i].serialize(new Object[]{v}, out);
            }
        }
    }

    Object[] read(ByteReader in) {
        int bitmap = in.skip((kinds.length + 7) >>> 3);
        Object[] row = new Object[kinds.length];
        for (int i = 0; i < kinds.length; i++) {
            if (in.isBitSet(bitmap, i)) {
                continue;
            }
            if (isVarint(kinds[i])) {
                long z = in.readVarLong();
                long x = (z >>> 1) ^ -(z & 1);
                row[i] = kinds[i] == DataType.Kind.BIGINT ? (Object) x : (Object) (int) x;
            } else if (others[i] == null) {
                row[i] = in.readUtf8();
            } else {
                row[i] = others[i].deserialize(in)[0];
            }
        }
        return row;
    }
}
