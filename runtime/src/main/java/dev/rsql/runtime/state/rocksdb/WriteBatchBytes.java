package dev.rsql.runtime.state.rocksdb;

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

    private static final int HEADER = 12;
    private static final byte VALUE = 0x01;
    private static final byte DELETION = 0x00;
    private static final byte CF_VALUE = 0x05;
    private static final byte CF_DELETION = 0x04;

    private WriteBatchBytes() {
    }

    /** Puts {@code values[i]} under {@code keys[i]} (deletes where null) in {@code order}, in column family cf. */
    static byte[] of(int cf, byte[][] keys, byte[][] values, int[] order) {
        int size = HEADER;
        int cfBytes = cf == 0 ? 0 : varintLength(cf);
        for (int i : order) {
            size += 1 + cfBytes + varintLength(keys[i].length) + keys[i].length;
            if (values[i] != null) {
                size += varintLength(values[i].length) + values[i].length;
            }
        }
        byte[] rep = new byte[size];
        int count = order.length;
        rep[8] = (byte) count;
        rep[9] = (byte) (count >>> 8);
        rep[10] = (byte) (count >>> 16);
        rep[11] = (byte) (count >>> 24);
        int at = HEADER;
        for (int i : order) {
            boolean put = values[i] != null;
            if (cf == 0) {
                rep[at++] = put ? VALUE : DELETION;
            } else {
                rep[at++] = put ? CF_VALUE : CF_DELETION;
                at = varint(rep, at, cf);
            }
            at = bytes(rep, at, keys[i]);
            if (put) {
                at = bytes(rep, at, values[i]);
            }
        }
        return rep;
    }

    private static int bytes(byte[] rep, int at, byte[] b) {
        at = varint(rep, at, b.length);
        System.arraycopy(b, 0, rep, at, b.length);
        return at + b.length;
    }

    private static int varint(byte[] rep, int at, int v) {
        while ((v & ~0x7F) != 0) {
            rep[at++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        rep[at++] = (byte) v;
        return at;
    }

    private static int varintLength(int v) {
        int n = 1;
        while ((v & ~0x7F) != 0) {
            v >>>= 7;
            n++;
        }
        return n;
    }
}
