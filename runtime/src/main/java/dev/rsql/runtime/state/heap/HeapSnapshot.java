package dev.rsql.runtime.state.heap;

import dev.rsql.runtime.state.store.RawEntryVisitor;
import dev.rsql.runtime.state.store.StateColumnFamily;
import dev.rsql.runtime.state.store.StateStore;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;

/**
 * The snapshot of a {@link HeapStore}: one file, {@value #FILE}, in the snapshot's directory. It holds the store's
 * raw entries, so it is the same data a RocksDB snapshot or a change log holds, in the simplest form:
 * <pre>
 *   "RSQLHEAP" version:int
 *   per entry: column family id:byte, key length:int, key, value length:int, value
 *   end: 0xFF, number of entries:long, CRC-32C of everything before it:int
 * </pre>
 * The file is forced to disk before {@link #write} returns.
 */
final class HeapSnapshot {

    static final String FILE = "heap-state";
    private static final byte[] MAGIC = {'R', 'S', 'Q', 'L', 'H', 'E', 'A', 'P'};
    private static final int VERSION = 1;
    private static final int END = 0xFF;

    private HeapSnapshot() {
    }

    static boolean isSnapshot(Path dir) {
        return Files.isRegularFile(dir.resolve(FILE));
    }

    /** Writes the entries of {@code source} into the new directory {@code dir}. */
    static void write(Path dir, StateStore source) throws IOException {
        if (Files.exists(dir)) {
            throw new FileAlreadyExistsException(dir.toString());
        }
        Files.createDirectories(dir);
        try (FileOutputStream file = new FileOutputStream(dir.resolve(FILE).toFile())) {
            CRC32C crc = new CRC32C();
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(new CheckedOutputStream(file, crc),
                    1 << 16));
            out.write(MAGIC);
            out.writeInt(VERSION);
            long[] count = {0};
            source.forEachEntry((cf, key, value) -> {
                out.writeByte(cf.id());
                out.writeInt(key.length);
                out.write(key);
                out.writeInt(value.length);
                out.write(value);
                count[0]++;
            });
            out.writeByte(END);
            out.writeLong(count[0]);
            out.flush();
            out.writeInt((int) crc.getValue());
            out.flush();
            file.getFD().sync();
        }
    }

    /** Hands every entry of the snapshot in {@code dir} to the visitor, after checking that the file is whole. */
    static void read(Path dir, RawEntryVisitor visitor) throws IOException {
        Path path = dir.resolve(FILE);
        CRC32C crc = new CRC32C();
        try (InputStream file = Files.newInputStream(path)) {
            DataInputStream in = new DataInputStream(new CheckedInputStream(new BufferedInputStream(file, 1 << 16),
                    crc));
            byte[] magic = in.readNBytes(MAGIC.length);
            if (!Arrays.equals(magic, MAGIC)) {
                throw new IOException(path + " is not a heap state snapshot");
            }
            int version = in.readInt();
            if (version != VERSION) {
                throw new IOException(path + " has version " + version + ", this engine reads " + VERSION);
            }
            long count = 0;
            int cfId;
            while ((cfId = in.readUnsignedByte()) != END) {
                StateColumnFamily cf = columnFamily(cfId, path);
                byte[] key = bytes(in, path);
                byte[] value = bytes(in, path);
                visitor.visit(cf, key, value);
                count++;
            }
            long written = in.readLong();
            int expected = (int) crc.getValue();
            int stored = in.readInt();
            if (written != count || stored != expected) {
                throw new IOException(path + " is damaged: " + count + " entries read, " + written
                        + " written, checksum " + (stored == expected ? "matches" : "does not match"));
            }
        } catch (EOFException e) {
            throw new IOException(path + " is truncated", e);
        }
    }

    private static StateColumnFamily columnFamily(int id, Path path) throws IOException {
        for (StateColumnFamily cf : StateColumnFamily.values()) {
            if (cf.id() == id) {
                return cf;
            }
        }
        throw new IOException(path + " is damaged: column family " + id);
    }

    private static byte[] bytes(DataInputStream in, Path path) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            throw new IOException(path + " is damaged: a length of " + n);
        }
        byte[] b = new byte[n];
        in.readFully(b);
        return b;
    }
}
