package dev.rsql.runtime.state.rocksdb;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * {@link WriteBatchBytes} builds the bytes RocksDB's own {@link WriteBatch} puts and deletes build, for the default
 * and other column families and for keys and values of any length (varint lengths of one to three bytes), and a
 * database applies them.
 */
class WriteBatchBytesTest {

    @TempDir
    Path dir;

    @Test
    void sameBytesAsRocksDbsBatchAndApplied() throws Exception {
        RocksDB.loadLibrary();
        Random r = new Random(7);
        try (ColumnFamilyOptions cfOptions = new ColumnFamilyOptions();
             DBOptions options = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true);
             WriteOptions write = new WriteOptions()) {
            List<ColumnFamilyHandle> handles = new ArrayList<>();
            List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
            descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, cfOptions));
            for (int c = 1; c <= 200; c++) {    // ids past 127 take two varint bytes
                descriptors.add(new ColumnFamilyDescriptor(("cf" + c).getBytes(StandardCharsets.UTF_8), cfOptions));
            }
            try (RocksDB db = RocksDB.open(options, dir.toString(), descriptors, handles)) {
                for (ColumnFamilyHandle handle : List.of(handles.get(0), handles.get(1), handles.get(200))) {
                    for (int n : new int[] {0, 1, 50}) {
                        byte[][] keys = new byte[n][];
                        byte[][] values = new byte[n][];
                        for (int i = 0; i < n; i++) {
                            keys[i] = bytes(r, i);
                            values[i] = r.nextInt(4) == 0 ? null : bytes(r, r.nextInt(n + 1));
                        }
                        int[] order = KeyOrder.of(keys);
                        byte[] expected;
                        try (WriteBatch batch = new WriteBatch()) {
                            for (int i : order) {
                                if (values[i] == null) {
                                    batch.delete(handle, keys[i]);
                                } else {
                                    batch.put(handle, keys[i], values[i]);
                                }
                            }
                            expected = batch.data();
                        }
                        byte[] rep = WriteBatchBytes.of(handle.getID(), keys, values, order);
                        assertArrayEquals(expected, rep, "column family " + handle.getID() + ", " + n + " entries");
                        for (int i = 0; i < n; i++) {
                            db.put(handle, keys[i], new byte[] {1});   // so that the deletes have something to do
                        }
                        try (WriteBatch batch = new WriteBatch(rep)) {
                            db.write(write, batch);
                        }
                        for (int i = 0; i < n; i++) {
                            if (values[i] == null) {
                                assertNull(db.get(handle, keys[i]));
                            } else {
                                assertArrayEquals(values[i], db.get(handle, keys[i]));
                            }
                        }
                    }
                }
                handles.forEach(ColumnFamilyHandle::close);
            }
        }
    }

    /** Distinct keys (the index first) of lengths up to 20,000 bytes. */
    private static byte[] bytes(Random r, int index) {
        int[] lengths = {0, 1, 127, 128, 16_383, 16_384, 20_000};
        byte[] b = new byte[4 + lengths[r.nextInt(lengths.length)]];
        r.nextBytes(b);
        b[0] = (byte) (index >>> 24);
        b[1] = (byte) (index >>> 16);
        b[2] = (byte) (index >>> 8);
        b[3] = (byte) index;
        return b;
    }
}
