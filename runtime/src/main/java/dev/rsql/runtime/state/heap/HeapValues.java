package dev.rsql.runtime.state.heap;

import dev.rsql.runtime.state.Murmur3;

import java.io.IOException;
import java.util.Arrays;
import java.util.function.LongConsumer;

/**
 * The value entries of a {@link HeapStore}, without an object per entry: records are appended to large byte pages
 * and two open-addressing tables of record addresses ({@code long}s) find them, one by whole key, one by the key's
 * prefix (state, key group, key), whose records form a doubly linked chain so that a key's values are found without
 * a scan. Writing an entry stores no reference anywhere: with objects per entry (arrays in an object table), G1's
 * write barrier queued a card for each new value and its refinement threads took a quarter of the process's CPU in
 * a COUNT DISTINCT query, more than RocksDB's memtable inserts cost. The collector sees a few large arrays instead of
 * millions of small ones.
 *
 * <p>Record: {@code [previous in chain: 8][next in chain: 8][key length: 4][value length: 4][key][value]}. A value
 * of the same length is overwritten in place (counters, fixed-width rows); otherwise the record is replaced and its
 * bytes become garbage, reclaimed by {@link #compacted} (the owner decides when, from {@link #garbageBytes}).
 *
 * <p>Every allocation and release of pages and tables is reported to the owner first, which may refuse it by
 * throwing: state that outgrows its share of the heap fails with an error instead of an {@link OutOfMemoryError}.
 * Used from one thread; the owner passes each key's prefix length.
 */
final class HeapValues {

    private static final long NIL = -1;
    private static final int PAGE_SIZE = 1 << 20;
    private static final int HEADER = 24;
    private static final int PREV = 0;
    private static final int NEXT = 8;
    private static final int KEY_LENGTH = 16;
    private static final int VALUE_LENGTH = 20;
    private static final int SEED = 0x48454150;
    /** Heap of a table slot: its address and hash. */
    private static final long SLOT_BYTES = 12;

    /** Receives an entry (copies of its bytes). */
    @FunctionalInterface
    interface EntryVisitor {
        void visit(byte[] key, byte[] value) throws IOException;
    }

    /** Told of each change in the heap this takes, before an allocation (and may throw) and after a release. */
    private final LongConsumer heap;
    /** Records by whole key. */
    private final AddressTable records;
    /** The first record of each prefix's chain, by prefix. */
    private final AddressTable heads;
    private byte[][] pages = new byte[4][];
    private int pageCount;
    /** Free offset in the last page. */
    private int tail;
    private long pageBytes;
    private long usedBytes;
    private long garbageBytes;

    HeapValues(int expectedEntries, int expectedPrefixes, LongConsumer heap) {
        this.heap = heap;
        records = new AddressTable(expectedEntries, false);
        heads = new AddressTable(expectedPrefixes, true);
    }

    int size() {
        return records.size;
    }

    /** Bytes of records replaced or removed, still in the pages. */
    long garbageBytes() {
        return garbageBytes;
    }

    /** Bytes of live records. */
    long liveBytes() {
        return usedBytes - garbageBytes;
    }

    /** Heap taken: pages and tables. */
    long heapBytes() {
        return pageBytes + records.heapBytes() + heads.heapBytes();
    }

    /** A copy of the value of {@code key[0, length)}, or null. */
    byte[] get(byte[] key, int length) {
        int slot = records.find(key, length, hash(key, 0, length));
        if (slot < 0) {
            return null;
        }
        long addr = records.addrs[slot];
        byte[] page = page(addr);
        int o = offset(addr);
        int start = o + HEADER + readInt(page, o + KEY_LENGTH);
        return Arrays.copyOfRange(page, start, start + readInt(page, o + VALUE_LENGTH));
    }

    /** Sets the value of {@code key[0, length)}, whose prefix is {@code key[0, prefixLength)}. */
    void put(byte[] key, int length, int prefixLength, byte[] value) {
        int hash = hash(key, 0, length);
        int slot = records.find(key, length, hash);
        if (slot < 0) {
            // every allocation first, so that a refused one changes nothing
            records.reserveOne();
            heads.reserveOne();
            long addr = append(key, 0, length, value, 0, value.length);
            records.add(addr, hash);
            link(addr, key, prefixLength);
            return;
        }
        long old = records.addrs[slot];
        byte[] page = page(old);
        int o = offset(old);
        if (readInt(page, o + VALUE_LENGTH) == value.length) {
            System.arraycopy(value, 0, page, o + HEADER + length, value.length);
            return;
        }
        long addr = append(key, 0, length, value, 0, value.length);
        // the new record takes the old one's place in its chain
        long prev = readLong(page, o + PREV);
        long next = readLong(page, o + NEXT);
        writeLong(page(addr), offset(addr) + PREV, prev);
        writeLong(page(addr), offset(addr) + NEXT, next);
        if (prev == NIL) {
            heads.addrs[heads.find(key, prefixLength, hash(key, 0, prefixLength))] = addr;
        } else {
            writeLong(page(prev), offset(prev) + NEXT, addr);
        }
        if (next != NIL) {
            writeLong(page(next), offset(next) + PREV, addr);
        }
        records.addrs[slot] = addr;
        garbageBytes += recordSize(old);
    }

    /** Removes {@code key[0, length)}; returns whether it was there. */
    boolean remove(byte[] key, int length, int prefixLength) {
        int slot = records.find(key, length, hash(key, 0, length));
        if (slot < 0) {
            return false;
        }
        long addr = records.addrs[slot];
        byte[] page = page(addr);
        int o = offset(addr);
        long prev = readLong(page, o + PREV);
        long next = readLong(page, o + NEXT);
        if (prev == NIL) {
            int head = heads.find(key, prefixLength, hash(key, 0, prefixLength));
            if (next == NIL) {
                heads.removeAt(head);
            } else {
                heads.addrs[head] = next;
            }
        } else {
            writeLong(page(prev), offset(prev) + NEXT, next);
        }
        if (next != NIL) {
            writeLong(page(next), offset(next) + PREV, prev);
        }
        records.removeAt(slot);
        garbageBytes += recordSize(addr);
        return true;
    }

    /** Hands the entries whose key starts with {@code prefix} (a whole prefix) to the visitor, in no order. */
    void forEachOfPrefix(byte[] prefix, EntryVisitor visitor) throws IOException {
        int head = heads.find(prefix, prefix.length, hash(prefix, 0, prefix.length));
        for (long addr = head < 0 ? NIL : heads.addrs[head]; addr != NIL; addr = readLong(page(addr),
                offset(addr) + NEXT)) {
            visit(addr, visitor);
        }
    }

    /** Hands every entry to the visitor, in no order, chain by chain. */
    void forEach(EntryVisitor visitor) throws IOException {
        for (int slot = 0; slot < heads.addrs.length; slot++) {
            for (long addr = heads.addrs[slot]; addr != NIL; addr = readLong(page(addr), offset(addr) + NEXT)) {
                visit(addr, visitor);
            }
        }
    }

    /** The same entries in fresh pages without garbage, each prefix's records next to each other. */
    HeapValues compacted() {
        HeapValues fresh = new HeapValues(records.size, heads.size, heap);
        for (int slot = 0; slot < heads.addrs.length; slot++) {
            long head = NIL;
            long last = NIL;
            for (long addr = heads.addrs[slot]; addr != NIL; addr = readLong(page(addr), offset(addr) + NEXT)) {
                byte[] page = page(addr);
                int o = offset(addr);
                int keyStart = o + HEADER;
                int keyLength = readInt(page, o + KEY_LENGTH);
                long copy = fresh.append(page, keyStart, keyLength, page, keyStart + keyLength,
                        readInt(page, o + VALUE_LENGTH));
                fresh.records.add(copy, hash(page, keyStart, keyLength));
                writeLong(fresh.page(copy), offset(copy) + PREV, last);
                writeLong(fresh.page(copy), offset(copy) + NEXT, NIL);
                if (last == NIL) {
                    head = copy;
                } else {
                    writeLong(fresh.page(last), offset(last) + NEXT, copy);
                }
                last = copy;
            }
            if (head != NIL) {
                fresh.heads.add(head, heads.hashes[slot]);
            }
        }
        return fresh;
    }

    /** Puts a new record first in its prefix's chain. */
    private void link(long addr, byte[] key, int prefixLength) {
        int prefixHash = hash(key, 0, prefixLength);
        int head = heads.find(key, prefixLength, prefixHash);
        writeLong(page(addr), offset(addr) + PREV, NIL);
        if (head < 0) {
            writeLong(page(addr), offset(addr) + NEXT, NIL);
            heads.add(addr, prefixHash);
        } else {
            long next = heads.addrs[head];
            writeLong(page(addr), offset(addr) + NEXT, next);
            writeLong(page(next), offset(next) + PREV, addr);
            heads.addrs[head] = addr;
        }
    }

    private void visit(long addr, EntryVisitor visitor) throws IOException {
        byte[] page = page(addr);
        int o = offset(addr);
        int keyStart = o + HEADER;
        int valueStart = keyStart + readInt(page, o + KEY_LENGTH);
        visitor.visit(Arrays.copyOfRange(page, keyStart, valueStart),
                Arrays.copyOfRange(page, valueStart, valueStart + readInt(page, o + VALUE_LENGTH)));
    }

    /** Appends a record (its chain links unset) and returns its address. */
    private long append(byte[] key, int keyStart, int keyLength, byte[] value, int valueStart, int valueLength) {
        int size = HEADER + keyLength + valueLength;
        if (pageCount == 0 || tail + size > pages[pageCount - 1].length) {
            if (pageCount == pages.length) {
                pages = Arrays.copyOf(pages, pageCount * 2);
            }
            int pageSize = Math.max(PAGE_SIZE, size);
            heap.accept(pageSize);
            pages[pageCount++] = new byte[pageSize];
            pageBytes += pageSize;
            tail = 0;
        }
        byte[] page = pages[pageCount - 1];
        int o = tail;
        writeInt(page, o + KEY_LENGTH, keyLength);
        writeInt(page, o + VALUE_LENGTH, valueLength);
        System.arraycopy(key, keyStart, page, o + HEADER, keyLength);
        System.arraycopy(value, valueStart, page, o + HEADER + keyLength, valueLength);
        tail += size;
        usedBytes += size;
        return (long) (pageCount - 1) << 32 | o;
    }

    private int recordSize(long addr) {
        byte[] page = page(addr);
        int o = offset(addr);
        return HEADER + readInt(page, o + KEY_LENGTH) + readInt(page, o + VALUE_LENGTH);
    }

    private byte[] page(long addr) {
        return pages[(int) (addr >>> 32)];
    }

    private static int offset(long addr) {
        return (int) addr;
    }

    private static int hash(byte[] b, int off, int len) {
        return Murmur3.hash32(b, off, len, SEED);
    }

    private static int readInt(byte[] b, int o) {
        return (b[o] & 0xff) << 24 | (b[o + 1] & 0xff) << 16 | (b[o + 2] & 0xff) << 8 | (b[o + 3] & 0xff);
    }

    private static void writeInt(byte[] b, int o, int v) {
        b[o] = (byte) (v >>> 24);
        b[o + 1] = (byte) (v >>> 16);
        b[o + 2] = (byte) (v >>> 8);
        b[o + 3] = (byte) v;
    }

    private static long readLong(byte[] b, int o) {
        return (long) readInt(b, o) << 32 | (readInt(b, o + 4) & 0xffffffffL);
    }

    private static void writeLong(byte[] b, int o, long v) {
        writeInt(b, o, (int) (v >>> 32));
        writeInt(b, o + 4, (int) v);
    }

    /**
     * Record addresses by hash, open addressing with linear probing, at most half full; removal shifts the
     * following entries back (no tombstones). Matches compare a record's whole key, or only its first bytes for the
     * prefix table.
     */
    private final class AddressTable {
        private final boolean byPrefix;
        private long[] addrs;
        private int[] hashes;
        private int size;

        AddressTable(int expectedSize, boolean byPrefix) {
            this.byPrefix = byPrefix;
            int capacity = 16;
            while (capacity < expectedSize * 2) {
                capacity <<= 1;
            }
            heap.accept(capacity * SLOT_BYTES);
            addrs = new long[capacity];
            Arrays.fill(addrs, NIL);
            hashes = new int[capacity];
        }

        long heapBytes() {
            return addrs.length * SLOT_BYTES;
        }

        /** The slot of {@code key[0, length)}, or {@code ~slot} of the free slot where it would go. */
        int find(byte[] key, int length, int hash) {
            int mask = addrs.length - 1;
            for (int i = hash & mask; ; i = (i + 1) & mask) {
                long addr = addrs[i];
                if (addr == NIL) {
                    return ~i;
                }
                if (hashes[i] == hash && matches(addr, key, length)) {
                    return i;
                }
            }
        }

        private boolean matches(long addr, byte[] key, int length) {
            byte[] page = page(addr);
            int o = offset(addr);
            int stored = readInt(page, o + KEY_LENGTH);
            if (byPrefix ? stored < length : stored != length) {
                return false;
            }
            return Arrays.equals(page, o + HEADER, o + HEADER + length, key, 0, length);
        }

        /** Grows the table now if one more entry would need it. */
        void reserveOne() {
            if ((size + 1) * 2 > addrs.length) {
                resize(addrs.length * 2);
            }
        }

        /** Adds an address whose key is known to be absent. */
        void add(long addr, int hash) {
            reserveOne();
            int i = free(hash);
            addrs[i] = addr;
            hashes[i] = hash;
            size++;
        }

        private int free(int hash) {
            int mask = addrs.length - 1;
            int i = hash & mask;
            while (addrs[i] != NIL) {
                i = (i + 1) & mask;
            }
            return i;
        }

        void removeAt(int i) {
            int mask = addrs.length - 1;
            for (int j = (i + 1) & mask; addrs[j] != NIL; j = (j + 1) & mask) {
                int home = hashes[j] & mask;
                boolean stays = i <= j ? i < home && home <= j : i < home || home <= j;
                if (!stays) {
                    addrs[i] = addrs[j];
                    hashes[i] = hashes[j];
                    i = j;
                }
            }
            addrs[i] = NIL;
            size--;
        }

        private void resize(int capacity) {
            heap.accept(capacity * SLOT_BYTES);
            long[] oldAddrs = addrs;
            int[] oldHashes = hashes;
            addrs = new long[capacity];
            Arrays.fill(addrs, NIL);
            hashes = new int[capacity];
            for (int j = 0; j < oldAddrs.length; j++) {
                if (oldAddrs[j] != NIL) {
                    int i = free(oldHashes[j]);
                    addrs[i] = oldAddrs[j];
                    hashes[i] = oldHashes[j];
                }
            }
            heap.accept(-oldAddrs.length * SLOT_BYTES);
        }
    }
}
