package dev.rsql.runtime.lookup;

import dev.rsql.runtime.state.ByteReader;
import dev.rsql.runtime.state.ByteWriter;
import dev.rsql.runtime.state.Murmur3;
import dev.rsql.runtime.state.RowSerializer;
import dev.rsql.runtime.types.DataType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A whole dimension table in memory with no Java object per row: rows encoded ({@link CompactRowCodec}) one after
 * another into 16 MB byte chunks, an {@code int} offset per row within its chunk (the chunk found from the first row
 * number of each chunk), and one open-addressing hash index per lookup key (an {@code int} slot array holding row
 * numbers tagged with hash bits, and, only when a key has several rows, an {@code int} chain per row).
 * About 4 bytes per row and 6 per lookup key besides the row's own bytes. Immutable once built;
 * lookups from any number of threads. Rows with a NULL in a lookup column are stored but not indexed by it (an
 * equality never matches them).
 */
public final class CompactTable {

    private static final int CHUNK_SIZE = 1 << 24;
    private static final int SEED = 0x5bd1e995;

    private final CompactRowCodec rows;
    private final byte[][] chunks;
    private final int[] chunkFirstRows;
    private final int[] offsets;
    private final Index[] indexes;

    private CompactTable(CompactRowCodec rows, byte[][] chunks, int[] chunkFirstRows, int[] offsets,
                         Index[] indexes) {
        this.rows = rows;
        this.chunks = chunks;
        this.chunkFirstRows = chunkFirstRows;
        this.offsets = offsets;
        this.indexes = indexes;
    }

    public int size() {
        return offsets.length;
    }

    /** Bytes held: row chunks, offsets and indexes. */
    public long bytes() {
        long b = (long) (offsets.length + chunkFirstRows.length) * Integer.BYTES;
        for (byte[] c : chunks) {
            b += c.length;
        }
        for (Index i : indexes) {
            b += i.bytes();
        }
        return b + rows.dictionaryBytes();
    }

    /** Row {@code i} (every column), decoded. */
    public Object[] row(int i) {
        int chunk = Arrays.binarySearch(chunkFirstRows, i);
        return rows.read(new ByteReader(chunks[chunk >= 0 ? chunk : -chunk - 2], offsets[i]));
    }

    /** The rows whose columns of index {@code index} (its number in the builder's key list) equal {@code key}. */
    public List<Object[]> lookup(int index, Object[] key) {
        return indexes[index].lookup(key);
    }

    /** Builds a table: rows come in through {@link Loader}s, one per loading thread. */
    public static final class Builder {

        private final CompactRowCodec rows;
        private final int[][] keys;
        private final RowSerializer[] keySerializers;
        private final List<Loader> loaders = new ArrayList<>();

        /** @param keys the lookup keys to index, each as column indices */
        public Builder(List<DataType> types, List<int[]> keys) {
            this.rows = new CompactRowCodec(types);
            this.keys = keys.toArray(new int[0][]);
            this.keySerializers = new RowSerializer[this.keys.length];
            for (int i = 0; i < this.keys.length; i++) {
                List<DataType> kt = new ArrayList<>();
                for (int c : this.keys[i]) {
                    kt.add(types.get(c));
                }
                keySerializers[i] = RowSerializer.forKeys(kt);
            }
        }

        /** A loader for one thread; loaders may run in parallel. */
        public synchronized Loader newLoader() {
            Loader l = new Loader();
            loaders.add(l);
            return l;
        }

        /** The table of every row added; call once all loaders are done. */
        public CompactTable build() {
            int n = 0;
            int chunkCount = 0;
            for (Loader l : loaders) {
                l.finish();
                n = Math.addExact(n, l.count);
                chunkCount += l.chunks.size();
            }
            byte[][] chunks = new byte[chunkCount][];
            int[] chunkFirstRows = new int[chunkCount];
            int[] offsets = new int[n];
            int[][] hashes = new int[keys.length][n];
            long[] indexed = new long[keys.length];
            int row = 0;
            int chunkBase = 0;
            for (Loader l : loaders) {
                for (int c = 0; c < l.chunks.size(); c++) {
                    chunks[chunkBase + c] = l.chunks.get(c);
                    chunkFirstRows[chunkBase + c] = row + l.chunkFirstRows[c];
                }
                System.arraycopy(l.offsets, 0, offsets, row, l.count);
                for (int k = 0; k < keys.length; k++) {
                    System.arraycopy(l.hashes[k], 0, hashes[k], row, l.count);
                    indexed[k] += l.indexed[k];
                }
                row += l.count;
                chunkBase += l.chunks.size();
                l.release();
            }
            rows.freeze();
            Index[] indexes = new Index[keys.length];
            CompactTable table = new CompactTable(rows, chunks, chunkFirstRows, offsets, indexes);
            for (int k = 0; k < keys.length; k++) {
                indexes[k] = new Index(table, keys[k], keySerializers[k], hashes[k], indexed[k]);
            }
            return table;
        }

        /** Adds rows of one thread into its own chunks. */
        public final class Loader {

            private final List<byte[]> chunks = new ArrayList<>();
            private final ByteWriter scratch = new ByteWriter(256);
            private final ByteWriter keyScratch = new ByteWriter(64);
            private byte[] current = new byte[0];
            private int used;
            private int[] offsets = new int[1024];
            private int[] chunkFirstRows = new int[16];
            private int[][] hashes = new int[keys.length][1024];
            private final long[] indexed = new long[keys.length];
            private int count;

            private Loader() {
            }

            /** Adds a row (every column, internal representation); the array is not kept. */
            public void add(Object[] values) {
                scratch.reset();
                rows.write(values, scratch);
                byte[] bytes = scratch.toByteArray();
                if (used + bytes.length > current.length) {
                    finish();
                    current = new byte[Math.max(CHUNK_SIZE, bytes.length)];
                    used = 0;
                    if (chunks.size() == chunkFirstRows.length) {
                        chunkFirstRows = Arrays.copyOf(chunkFirstRows, chunks.size() * 2);
                    }
                    chunkFirstRows[chunks.size()] = count;
                    chunks.add(current);
                }
                System.arraycopy(bytes, 0, current, used, bytes.length);
                if (count == offsets.length) {
                    offsets = Arrays.copyOf(offsets, count * 2);
                    for (int k = 0; k < keys.length; k++) {
                        hashes[k] = Arrays.copyOf(hashes[k], count * 2);
                    }
                }
                offsets[count] = used;
                used += bytes.length;
                for (int k = 0; k < keys.length; k++) {
                    byte[] kb = keyBytes(keySerializers[k], keys[k], values, keyScratch);
                    // 0 marks a row the index skips (a NULL key); a real hash of 0 becomes 1
                    int h = kb == null ? 0 : hash(kb);
                    hashes[k][count] = h;
                    if (h != 0) {
                        indexed[k]++;
                    }
                }
                count++;
            }

            /** Trims the current chunk to what it holds. */
            private void finish() {
                if (!chunks.isEmpty() && used < current.length) {
                    current = Arrays.copyOf(current, used);
                    chunks.set(chunks.size() - 1, current);
                }
            }

            private void release() {
                chunks.clear();
                offsets = null;
                hashes = null;
            }
        }
    }

    static int hash(byte[] keyBytes) {
        int h = Murmur3.hash32(keyBytes, SEED);
        return h == 0 ? 1 : h;
    }

    /** The key-mode bytes of the key columns of a row, or null when one is NULL. */
    static byte[] keyBytes(RowSerializer keySerializer, int[] columns, Object[] row, ByteWriter scratch) {
        Object[] key = new Object[columns.length];
        for (int i = 0; i < columns.length; i++) {
            key[i] = row[columns[i]];
            if (key[i] == null) {
                return null;
            }
        }
        scratch.reset();
        keySerializer.serialize(key, scratch);
        return scratch.toByteArray();
    }

    /**
     * One lookup key's hash index over the rows: open addressing with linear probing at a load of at most 0.7, each
     * slot an {@code int} holding a row number + 1 in its low bits and, in the bits the row numbers leave free, a tag
     * from the key's hash, so most probes of other keys are rejected without decoding their row, and no hash per row
     * is kept. Keys with several rows chain them through {@code next}.
     */
    private static final class Index {

        private final CompactTable table;
        private final int[] columns;
        private final RowSerializer keySerializer;
        private final int[] slots;      // tag | row + 1 of a key's first row; 0 = empty
        private int[] next;             // per row: row + 1 of the next row of the same key; null while keys are unique
        private final int rowBits;
        private final int rowMask;

        Index(CompactTable table, int[] columns, RowSerializer keySerializer, int[] hashes, long indexed) {
            this.table = table;
            this.columns = columns;
            this.keySerializer = keySerializer;
            long capacity = Math.max(4, indexed * 10 / 7 + 1);
            if (capacity > Integer.MAX_VALUE - 8) {
                throw new IllegalStateException("dimension table too large to index: " + indexed + " rows");
            }
            this.slots = new int[(int) capacity];
            this.rowBits = Math.max(1, 32 - Integer.numberOfLeadingZeros(hashes.length));
            this.rowMask = (int) ((1L << rowBits) - 1);
            ByteWriter scratch = new ByteWriter(64);
            for (int r = 0; r < hashes.length; r++) {
                if (hashes[r] != 0) {
                    insert(r, hashes, scratch);
                }
            }
        }

        private int home(int h) {
            return (int) (((h & 0xffffffffL) * slots.length) >>> 32);
        }

        private int next(int s) {
            return s + 1 == slots.length ? 0 : s + 1;
        }

        /** The hash's low bits (the home slot comes from its high bits) where a slot's row number leaves room. */
        private int tag(int h) {
            return h << rowBits;
        }

        private void insert(int row, int[] hashes, ByteWriter scratch) {
            int h = hashes[row];
            byte[] kb = null;
            for (int s = home(h); ; s = next(s)) {
                int other = (slots[s] & rowMask) - 1;
                if (other < 0) {
                    slots[s] = tag(h) | (row + 1);
                    return;
                }
                if (hashes[other] == h) {
                    if (kb == null) {
                        kb = keyBytes(keySerializer, columns, table.row(row), scratch);
                    }
                    if (Arrays.equals(kb, keyBytes(keySerializer, columns, table.row(other), scratch))) {
                        if (next == null) {
                            next = new int[hashes.length];
                        }
                        next[row] = other + 1;
                        slots[s] = tag(h) | (row + 1);
                        return;
                    }
                }
            }
        }

        List<Object[]> lookup(Object[] key) {
            ByteWriter scratch = new ByteWriter(64);
            keySerializer.serialize(key, scratch);
            byte[] kb = scratch.toByteArray();
            int h = hash(kb);
            int tag = tag(h);
            for (int s = home(h); ; s = next(s)) {
                int slot = slots[s];
                if (slot == 0) {
                    return List.of();
                }
                if ((slot & ~rowMask) != tag) {
                    continue;
                }
                int r = (slot & rowMask) - 1;
                Object[] first = table.row(r);
                if (!Arrays.equals(kb, keyBytes(keySerializer, columns, first, scratch))) {
                    continue;
                }
                if (next == null || next[r] == 0) {
                    return List.<Object[]>of(first);
                }
                List<Object[]> out = new ArrayList<>();
                out.add(first);
                for (int n = next[r] - 1; n >= 0; n = next[n] - 1) {
                    out.add(table.row(n));
                }
                return out;
            }
        }

        long bytes() {
            return 4L * slots.length + (next == null ? 0 : 4L * next.length);
        }
    }
}
