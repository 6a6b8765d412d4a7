package dev.rsql.runtime.state.heap;

import dev.rsql.runtime.state.CloseableIterator;
import dev.rsql.runtime.state.store.KeyBuffer;
import dev.rsql.runtime.state.store.RawEntryVisitor;
import dev.rsql.runtime.state.store.StateColumnFamily;
import dev.rsql.runtime.state.store.StateStore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.TreeMap;

/**
 * A {@link StateStore} in the heap, as Flink's {@code hashmap} state backend: a write is a hash-table insert instead
 * of a RocksDB memtable insert (a skip list of byte keys, several times the cost), and a read needs no native call.
 * Durable only through {@link #snapshot} (a file, {@link HeapSnapshot}) or the change log the backend drains.
 *
 * <p>Values are hashed, not sorted: a sorted map over millions of byte keys costs about as much per insert as the
 * memtable. They are kept in {@link HeapValues}, without an object per entry; each value key's prefix (state, key
 * group, key: {@link KeyBuffer#valuePrefixLength}) chains the values of one key, so that {@code entries(key)} needs
 * no scan. Order is made only when iterating: a key's namespaces are sorted when they are read, and a scan of a
 * whole state sorts its keys. Timers and metadata, which are few or scanned in order, are in sorted maps.
 *
 * <p>The heap it takes is counted against a {@link HeapStateMemory}; a write beyond it fails with an error.
 */
public final class HeapStore implements StateStore {

    /** Estimated heap of a timer or metadata entry beyond its bytes: a tree node and two array headers. */
    private static final int ENTRY_OVERHEAD = 72;
    /** Garbage in the value pages below which they are not compacted. */
    private static final long MIN_COMPACTION_BYTES = 4L << 20;

    private final TreeMap<byte[], byte[]> metadata = new TreeMap<>(Arrays::compareUnsigned);
    private final TreeMap<byte[], byte[]> timers = new TreeMap<>(Arrays::compareUnsigned);
    private final HeapStateMemory memory;
    private final String location;
    private HeapValues values;
    /** Heap counted: values, timers and metadata. */
    private long bytes;
    private long reserved;
    private boolean closed;

    private HeapStore(HeapStateMemory memory, String location) {
        this.memory = memory;
        this.location = location;
        this.values = new HeapValues(1024, 1024, this::account);
    }

    /** An empty store; {@code location} names it in messages (e.g. its task). */
    public static HeapStore empty(HeapStateMemory memory, String location) {
        return new HeapStore(memory, location);
    }

    /** A store holding what {@link #snapshot} wrote into {@code dir}. */
    public static HeapStore restore(Path dir, HeapStateMemory memory, String location) throws IOException {
        HeapStore store = new HeapStore(memory, location);
        try {
            HeapSnapshot.read(dir, (cf, key, value) -> store.put(cf, key, key.length, value));
            return store;
        } catch (IOException | RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /** Whether {@code dir} holds a snapshot of this store. */
    public static boolean isSnapshot(Path dir) {
        return HeapSnapshot.isSnapshot(dir);
    }

    @Override
    public byte[] get(StateColumnFamily cf, byte[] key, int keyLength) {
        ensureOpen();
        if (cf != StateColumnFamily.VALUES) {
            return sorted(cf).get(keyLength == key.length ? key : Arrays.copyOf(key, keyLength));
        }
        return values.get(key, keyLength);
    }

    @Override
    public void put(StateColumnFamily cf, byte[] key, int keyLength, byte[] value) {
        ensureOpen();
        if (cf != StateColumnFamily.VALUES) {
            byte[] previous = sorted(cf).put(Arrays.copyOf(key, keyLength), value);
            account(previous == null ? keyLength + value.length + ENTRY_OVERHEAD : value.length - previous.length);
            return;
        }
        values.put(key, keyLength, prefixLength(key, keyLength), value);
        valuesChanged();
    }

    @Override
    public void delete(StateColumnFamily cf, byte[] key, int keyLength) {
        ensureOpen();
        if (cf != StateColumnFamily.VALUES) {
            byte[] previous = sorted(cf).remove(keyLength == key.length ? key : Arrays.copyOf(key, keyLength));
            if (previous != null) {
                account(-(keyLength + previous.length + ENTRY_OVERHEAD));
            }
            return;
        }
        if (values.remove(key, keyLength, prefixLength(key, keyLength))) {
            valuesChanged();
        }
    }

    @Override
    public void write(StateColumnFamily cf, byte[][] keys, byte[][] values) {
        for (int i = 0; i < keys.length; i++) {
            if (values[i] == null) {
                delete(cf, keys[i], keys[i].length);
            } else {
                put(cf, keys[i], keys[i].length, values[i]);
            }
        }
    }

    /** A batch is a put per entry here. */
    @Override
    public boolean writesBatches() {
        return false;
    }

    @Override
    public <T> CloseableIterator<T> scan(StateColumnFamily cf, byte[] from, byte[] to, Decoder<T> decoder) {
        ensureOpen();
        if (cf != StateColumnFamily.VALUES) {
            NavigableMap<byte[], byte[]> range = to == null ? sorted(cf).tailMap(from, true)
                    : sorted(cf).subMap(from, true, to, false);
            return new Entries<>(range.entrySet().iterator(), decoder);
        }
        List<Map.Entry<byte[], byte[]>> found = new ArrayList<>();
        HeapValues.EntryVisitor collect = (key, value) -> found.add(Map.entry(key, value));
        try {
            int p = KeyBuffer.valuePrefixLength(from, from.length);
            if (p == from.length && Arrays.equals(to, KeyBuffer.successor(from))) {
                values.forEachOfPrefix(from, collect);   // one key's values
            } else {
                values.forEach((key, value) -> {
                    if (Arrays.compareUnsigned(key, from) >= 0 && (to == null || Arrays.compareUnsigned(key, to) < 0)) {
                        collect.visit(key, value);
                    }
                });
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // the visitors here throw none
        }
        found.sort((a, b) -> Arrays.compareUnsigned(a.getKey(), b.getKey()));
        return new Entries<>(found.iterator(), decoder);
    }

    @Override
    public void forEachEntry(RawEntryVisitor visitor) throws IOException {
        ensureOpen();
        for (Map.Entry<byte[], byte[]> e : metadata.entrySet()) {
            visitor.visit(StateColumnFamily.METADATA, e.getKey(), e.getValue());
        }
        values.forEach((key, value) -> visitor.visit(StateColumnFamily.VALUES, key, value));
        for (Map.Entry<byte[], byte[]> e : timers.entrySet()) {
            visitor.visit(StateColumnFamily.TIMERS, e.getKey(), e.getValue());
        }
    }

    @Override
    public void snapshot(Path dir) throws IOException {
        ensureOpen();
        HeapSnapshot.write(dir, this);
    }

    @Override
    public long sizeOnDisk() {
        return 0;
    }

    @Override
    public long memoryUsage() {
        return bytes;
    }

    @Override
    public String location() {
        return location;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        memory.release(reserved);
        reserved = 0;
    }

    private TreeMap<byte[], byte[]> sorted(StateColumnFamily cf) {
        return cf == StateColumnFamily.METADATA ? metadata : timers;
    }

    /** Where a value key's namespace starts; bytes that are no value key (only crafted ones) are kept whole. */
    private static int prefixLength(byte[] key, int keyLength) {
        int p = KeyBuffer.valuePrefixLength(key, keyLength);
        return p < 0 ? keyLength : p;
    }

    /** Compacts the value pages once most of them is garbage. */
    private void valuesChanged() {
        if (values.garbageBytes() > Math.max(MIN_COMPACTION_BYTES, values.liveBytes())) {
            HeapValues old = values;
            values = old.compacted();
            account(-old.heapBytes());
        }
    }

    /**
     * Counts {@code delta} bytes more (or fewer) of heap, reserving or releasing it a chunk at a time; throws before an
     * allocation that would exceed the budget.
     */
    private void account(long delta) {
        bytes += delta;
        if (bytes > reserved) {
            long more = Math.max(HeapStateMemory.CHUNK, bytes - reserved);
            memory.reserve(more, location);
            reserved += more;
        } else if (reserved - bytes > 2 * HeapStateMemory.CHUNK) {
            long less = reserved - bytes - HeapStateMemory.CHUNK;
            memory.release(less);
            reserved -= less;
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("state in " + location + " is closed");
        }
    }

    /** Entries handed out through a decoder, until the store closes. */
    private final class Entries<T> implements CloseableIterator<T> {
        private final Iterator<Map.Entry<byte[], byte[]>> entries;
        private final Decoder<T> decoder;

        Entries(Iterator<Map.Entry<byte[], byte[]>> entries, Decoder<T> decoder) {
            this.entries = entries;
            this.decoder = decoder;
        }

        @Override
        public boolean hasNext() {
            return !closed && entries.hasNext();
        }

        @Override
        public T next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            Map.Entry<byte[], byte[]> e = entries.next();
            return decoder.decode(e.getKey(), e.getValue());
        }

        @Override
        public void close() {
            // nothing held
        }
    }
}
