package dev.rsql.runtime.state.rocksdb;

import dev.rsql.runtime.state.ByteWriter;

/**
 * A RocksDB write batch in its serialized form ({@code WriteBatch::rep_} of {@code db/write_batch.cc}), built in the
 * heap and handed to RocksDB in one call ({@code new WriteBatch(byte[])}): a put or delete per entry through JNI cost
 * a native call and two array pins each, about a sixth of the state writes of an aggregation that adds a new element
 * per record. The layout is RocksDB's persistent format (write-ahead log records are the same bytes):
 * <pre>
 *   sequence fixed64 (0, set by the write), count fixed32, then per entry:
 *   kTypeColumnFamilyValue    0x05 varint32(cf) varstring(key) varstring(value)
 *   kTypeColumnFamilyDeletion 0x04 varint32(cf) varstring(key)
 *   (the default column family, id 0: kTypeValue 0x01 and kTypeDeletion 0x00, without the id)
 * </pre>
 */
final class WriteBatchBytes {

    private static final byte VALUE = 0x01;
    private static final byte DELETION = 0x00;
    private static final byte CF_VALUE = 0x05;
    private static final byte CF_DELETION = 0x04;

    private WriteBatchBytes() {
    }

    /** Puts {@code values[i]} under {@code keys[i]} (deletes where null) in {@code order}, in column family cf. */
    static byte[] of(int cf, byte[][] keys, byte[][] values, int[] order) {
        int most = 12;   // a tag and three varints of at most 5 bytes per entry: room for all of it
        for (int i : order) {
            most += 16 + keys[i].length + (values[i] == null ? 0 : values[i].length);
        }
        ByteWriter out = new ByteWriter(most);
        out.writeLong(0);
        int count = order.length;
        for (int shift = 0; shift < 32; shift += 8) {
            out.writeByte(count >>> shift);     // little-endian, unlike ByteWriter's writeInt
        }
        for (int i : order) {
            boolean put = values[i] != null;
            if (cf == 0) {
                out.writeByte(put ? VALUE : DELETION);
            } else {
                out.writeByte(put ? CF_VALUE : CF_DELETION);
                out.writeVarInt(cf);
            }
            out.writeLengthPrefixed(keys[i]);
            if (put) {
                out.writeLengthPrefixed(values[i]);
            }
        }
        return out.toByteArray();
    }
}
