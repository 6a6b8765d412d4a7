package dev.rsql.runtime.operator.aggregate;

import java.util.List;

/**
 * The entries a {@link KeyedStateCache} holds: an open-addressing table of the entries, found by their hash, key and
 * namespace (linear probing by the hash, deletion by shifting back), and a clock for eviction: a read marks an entry
 * referenced, and the clock's hand evicts entries it finds unmarked, unmarking the others as it passes (a second
 * chance), an approximation of least-recently-used that costs a read nothing but one store, where an access-ordered
 * linked map relinks its entry. The hashes sit in an array of their own beside the slots, so that probing past other
 * entries reads neighbouring ints instead of an object per slot.
 */
final class CachedEntries<V> {

    private KeyedStateCache.Entry<V>[] slots;
    private int[] hashes;
    private int mask;
    private int size;
    private int hand;

    CachedEntries(int expected) {
        int capacity = 16;
        while (capacity < expected * 2) {
            capacity <<= 1;
        }
        slots = newSlots(capacity);
        hashes = new int[capacity];
        mask = capacity - 1;
    }

    @SuppressWarnings("unchecked")
    private static <V> KeyedStateCache.Entry<V>[] newSlots(int n) {
        return (KeyedStateCache.Entry<V>[]) new KeyedStateCache.Entry<?>[n];
    }

    int size() {
        return size;
    }

    /** The entry of {@code key} and {@code namespace} (hash {@code hash}), marked referenced, or null. */
    KeyedStateCache.Entry<V> get(int hash, byte[] key, byte[] namespace) {
        for (int i = home(hash); slots[i] != null; i = (i + 1) & mask) {
            if (hashes[i] == hash && slots[i].is(hash, key, namespace)) {
                slots[i].referenced = true;
                return slots[i];
            }
        }
        return null;
    }

    /** Adds {@code e}, referenced; the caller knows no entry of its key and namespace is held. */
    void add(KeyedStateCache.Entry<V> e) {
        int hash = e.hashCode();
        int i = home(hash);
        while (slots[i] != null) {
            i = (i + 1) & mask;
        }
        e.referenced = true;
        slots[i] = e;
        hashes[i] = hash;
        if (++size * 4 > slots.length * 3) {
            grow();
        }
    }

    /**
     * Removes up to {@code n} entries the clock finds unreferenced, never {@code keep}, into {@code out}. Each pass
     * of the hand unmarks what it does not remove, so this ends within two rounds of the table.
     */
    void evict(int n, KeyedStateCache.Entry<V> keep, List<KeyedStateCache.Entry<V>> out) {
        int removed = 0;
        int passed = 0;
        int limit = 2 * slots.length;
        while (removed < n && size > 1 && passed++ < limit) {
            KeyedStateCache.Entry<V> e = slots[hand];
            if (e == null || e == keep || e.referenced) {
                if (e != null) {
                    e.referenced = false;
                }
                hand = (hand + 1) & mask;
                continue;
            }
            removeAt(hand);     // a later entry may move into this slot: look at it next
            out.add(e);
            removed++;
        }
    }

    private void removeAt(int i) {
        size--;
        int free = i;
        for (int j = (i + 1) & mask; slots[j] != null; j = (j + 1) & mask) {
            int h = home(hashes[j]);
            // an entry stays where it is unless the free slot lies cyclically between its home and it
            boolean stays = free <= j ? (free < h && h <= j) : (free < h || h <= j);
            if (!stays) {
                slots[free] = slots[j];
                hashes[free] = hashes[j];
                free = j;
            }
        }
        slots[free] = null;
    }

    private void grow() {
        KeyedStateCache.Entry<V>[] old = slots;
        slots = newSlots(old.length * 2);
        hashes = new int[slots.length];
        mask = slots.length - 1;
        for (KeyedStateCache.Entry<V> e : old) {
            if (e != null) {
                int i = home(e.hashCode());
                while (slots[i] != null) {
                    i = (i + 1) & mask;
                }
                slots[i] = e;
                hashes[i] = e.hashCode();
            }
        }
        hand = 0;
    }

    private int home(int hash) {
        // the hash is Murmur3's: well mixed already
        return hash & mask;
    }
}
