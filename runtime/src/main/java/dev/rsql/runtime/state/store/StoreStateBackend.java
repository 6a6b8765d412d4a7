package dev.rsql.runtime.state.store;

import dev.rsql.runtime.state.KeyGroups;
import dev.rsql.runtime.state.KeyedStateBackend;
import dev.rsql.runtime.state.KeyedValueState;
import dev.rsql.runtime.state.Murmur3;
import dev.rsql.runtime.state.StateException;
import dev.rsql.runtime.state.TimerService;
import dev.rsql.runtime.state.TypeSerializer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The keyed state of one task in a {@link StateStore}: values in the column family {@code VALUES}, timers in
 * {@code TIMERS}, and in {@code METADATA} the backend's metadata (format version, number of key groups, and the name
 * behind every 4-byte state and operator id, to detect hash collisions, also against states of an earlier run). The
 * key layout is the same in every store ({@link KeyBuffer}), so a change log or snapshot of one store's entries
 * restores into another.
 *
 * <p>For a changelog kept elsewhere (the distributed runtime's state queue), the backend can also record the raw keys
 * written or deleted since the last drain ({@link #enableChangeTracking}, {@link #drainChanges}), list every entry
 * ({@link #forEachEntry}) and take entries back in ({@link #restoreEntry}). With tracking off, a write pays one null
 * check for it.
 *
 * <p>Not thread-safe: one task thread uses a backend (and builds keys in shared buffers to avoid allocation).
 */
public final class StoreStateBackend implements KeyedStateBackend {

    private static final int FORMAT_VERSION = 1;
    /** Seed of the state and operator id hash. Stored state depends on it: never change it. */
    private static final int ID_SEED = 0x52534c31;
    private static final byte[] META_FORMAT = "format-version".getBytes(StandardCharsets.UTF_8);
    private static final byte[] META_KEY_GROUPS = "key-groups".getBytes(StandardCharsets.UTF_8);
    private static final byte META_STATE = 1;
    private static final byte META_TIMERS = 2;
    /** Changed values kept for the next drain, per column family; beyond, the drain reads them back. */
    private static final long MAX_KEPT_CHANGE_BYTES = 4L << 20;

    private final StateStore store;
    private final int keyGroups;
    private final KeyBuffer valueKey = new KeyBuffer();
    private final KeyBuffer timerKey = new KeyBuffer();
    private final Map<List<String>, StoreValueState<?>> states = new HashMap<>();
    private final Map<Integer, List<String>> stateIds = new HashMap<>();
    private final Map<String, StoreTimerService> timerServices = new HashMap<>();
    private final Map<Integer, String> timerIds = new HashMap<>();
    /** Per column family (by ordinal) the entries changed since the last drain; null while tracking is off. */
    private ChangedEntries[] changes;
    private boolean closed;

    private StoreStateBackend(StateStore store, int keyGroups) {
        this.store = store;
        this.keyGroups = keyGroups;
    }

    /**
     * The state of a task in {@code store}, which the backend closes. {@code restoredFrom} names the snapshot the
     * store was opened from (its entries must be of this number of key groups), or is null for an empty store.
     */
    public static StoreStateBackend open(StateStore store, int keyGroups, String restoredFrom) throws IOException {
        try {
            KeyGroups.checkKeyGroups(keyGroups);
            StoreStateBackend backend = new StoreStateBackend(store, keyGroups);
            backend.checkMetadata(restoredFrom);
            return backend;
        } catch (IOException | RuntimeException | Error e) {
            store.close();
            throw e;
        }
    }

    /**
     * Checks the format and key groups of state restored from {@code restoredFrom}, or records them in new state
     * ({@code restoredFrom} null).
     */
    private void checkMetadata(String restoredFrom) throws IOException {
        byte[] format = store.get(StateColumnFamily.METADATA, META_FORMAT, META_FORMAT.length);
        if (format == null) {
            if (restoredFrom != null) {
                throw new IOException(restoredFrom + " holds no rsql state (no format version)");
            }
            byte[] version = KeyBuffer.intBytes(FORMAT_VERSION);
            byte[] groups = KeyBuffer.intBytes(keyGroups);
            put(StateColumnFamily.METADATA, META_FORMAT, META_FORMAT.length, version);
            put(StateColumnFamily.METADATA, META_KEY_GROUPS, META_KEY_GROUPS.length, groups);
            return;
        }
        int version = toInt(format);
        if (version != FORMAT_VERSION) {
            throw new IOException("state in " + restoredFrom + " has format version " + version
                    + ", this engine reads " + FORMAT_VERSION);
        }
        byte[] storedGroups = store.get(StateColumnFamily.METADATA, META_KEY_GROUPS, META_KEY_GROUPS.length);
        if (storedGroups == null || toInt(storedGroups) != keyGroups) {
            throw new IOException("state in " + restoredFrom + " has "
                    + (storedGroups == null ? "no" : String.valueOf(toInt(storedGroups)))
                    + " key groups, the job " + keyGroups + ": the number of key groups cannot change");
        }
    }

    private static int toInt(byte[] b) {
        return (b[0] & 0xff) << 24 | (b[1] & 0xff) << 16 | (b[2] & 0xff) << 8 | (b[3] & 0xff);
    }

    // --- KeyedStateBackend --------------------------------------------------------------------------------------

    @Override
    public int keyGroups() {
        return keyGroups;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <V> KeyedValueState<V> valueState(String operatorId, String name, TypeSerializer<V> serializer) {
        ensureOpen();
        List<String> id = List.of(operatorId, name);
        StoreValueState<?> existing = states.get(id);
        if (existing != null) {
            if (existing.serializer() == serializer || existing.serializer().equals(serializer)) {
                return (KeyedValueState<V>) existing;
            }
            return new StoreValueState<>(this, existing.stateId(), existing.toString(), serializer);
        }
        int stateId = idOf(operatorId + "/" + name);
        List<String> other = stateIds.get(stateId);
        if (other != null) {
            throw collision("state", operatorId + "/" + name, other.get(0) + "/" + other.get(1), stateId);
        }
        byte[] registered = encodeNames(operatorId, name);
        String previous = register(META_STATE, stateId, registered);
        if (previous != null) {
            throw collision("state", operatorId + "/" + name, previous, stateId);
        }
        stateIds.put(stateId, id);
        StoreValueState<V> state = new StoreValueState<>(this, stateId,
                "state '" + name + "' of operator " + operatorId, serializer);
        states.put(id, state);
        return state;
    }

    @Override
    public TimerService timerService(String operatorId) {
        ensureOpen();
        StoreTimerService existing = timerServices.get(operatorId);
        if (existing != null) {
            return existing;
        }
        int id = idOf(operatorId);
        String other = timerIds.get(id);
        if (other != null) {
            throw collision("timers", operatorId, other, id);
        }
        String previous = register(META_TIMERS, id, encodeNames(operatorId));
        if (previous != null) {
            throw collision("timers", operatorId, previous, id);
        }
        timerIds.put(id, operatorId);
        StoreTimerService service = new StoreTimerService(this, id, operatorId);
        timerServices.put(operatorId, service);
        return service;
    }

    /**
     * Records the names behind an id in the metadata, unless already there. Returns the other names if the id is
     * taken by different names (in this run or in the state restored), else null.
     */
    private String register(byte type, int id, byte[] names) {
        byte[] metaKey = {type, (byte) (id >>> 24), (byte) (id >>> 16), (byte) (id >>> 8), (byte) id};
        byte[] stored = store.get(StateColumnFamily.METADATA, metaKey, metaKey.length);
        if (stored == null) {
            put(StateColumnFamily.METADATA, metaKey, metaKey.length, names);
            return null;
        }
        return Arrays.equals(stored, names) ? null : decodeNames(stored);
    }

    private static byte[] encodeNames(String... names) {
        StringBuilder sb = new StringBuilder();
        for (String n : names) {
            sb.append(n.length()).append(':').append(n);
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String decodeNames(byte[] stored) {
        String s = new String(stored, StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder();
        int p = 0;
        while (p < s.length()) {
            int colon = s.indexOf(':', p);
            int n = Integer.parseInt(s.substring(p, colon));
            if (out.length() > 0) {
                out.append('/');
            }
            out.append(s, colon + 1, colon + 1 + n);
            p = colon + 1 + n;
        }
        return out.toString();
    }

    private static StateException collision(String what, String names, String other, int id) {
        return new StateException(String.format("%s id collision: '%s' and '%s' both hash to 0x%08x; rename one of"
                + " them (state ids are a hash of operator id and state name)", what, names, other, id));
    }

    @Override
    public void snapshot(Path dir) throws IOException {
        ensureOpen();
        writeTimerBuffers();
        store.snapshot(dir);     // refuses a directory that exists
    }

    @Override
    public long sizeOnDisk() {
        return store.sizeOnDisk();
    }

    /** Memory of the store in bytes ({@link StateStore#memoryUsage}). */
    public long memoryUsage() {
        ensureOpen();
        return store.memoryUsage();
    }

    /** Where the state is, for messages. */
    public String location() {
        return store.location();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        store.close();
    }

    // --- changelog support ----------------------------------------------------------------------------------------

    /**
     * From now on, records every key written or deleted (values, timers, metadata) until {@link #drainChanges}.
     * Changes made before this call are not recorded.
     */
    public void enableChangeTracking() {
        ensureOpen();
        if (changes == null) {
            writeTimerBuffers();    // changes from before: not recorded
            changes = new ChangedEntries[StateColumnFamily.values().length];
            for (int i = 0; i < changes.length; i++) {
                changes[i] = new ChangedEntries(MAX_KEPT_CHANGE_BYTES);
            }
        }
    }

    public boolean isTrackingChanges() {
        return changes != null;
    }

    /** Number of distinct keys changed since the last drain (0 while tracking is off). */
    public int changedKeyCount() {
        if (changes == null) {
            return 0;
        }
        writeTimerBuffers();
        int n = 0;
        for (ChangedEntries c : changes) {
            n += c.size();
        }
        return n;
    }

    /**
     * Hands every key changed since the last drain to the visitor with its current value, or null if it is deleted
     * now, and forgets them. If the visitor throws, the changes stay recorded.
     */
    public void drainChanges(RawEntryVisitor visitor) throws IOException {
        ensureTracking();
        writeTimerBuffers();
        for (StateColumnFamily cf : StateColumnFamily.values()) {
            changes[cf.ordinal()].forEach((key, value) -> {
                if (value == ChangedEntries.UNKNOWN) {
                    value = store.get(cf, key, key.length);
                }
                visitor.visit(cf, key, value == ChangedEntries.DELETED ? null : value);
            });
        }
        discardChanges();
    }

    /** Forgets the changes recorded so far (e.g. when every entry is written out instead). */
    public void discardChanges() {
        ensureTracking();
        writeTimerBuffers();
        for (ChangedEntries c : changes) {
            c.clear();
        }
    }

    /** Hands every entry of every column family to the visitor, as of the call, in no particular order. */
    public void forEachEntry(RawEntryVisitor visitor) throws IOException {
        ensureOpen();
        writeTimerBuffers();
        store.forEachEntry(visitor);
    }

    /**
     * Writes one entry taken from a changelog (a null value deletes the key). Only into a backend that nothing has
     * used yet (no state, timers or tracking), so that what the task sees is exactly the restored state; finish with
     * {@link #checkRestoredMetadata}.
     */
    public void restoreEntry(StateColumnFamily cf, byte[] key, byte[] value) throws IOException {
        ensureOpen();
        if (!states.isEmpty() || !timerServices.isEmpty() || changes != null) {
            throw new IllegalStateException("state in " + store.location()
                    + " is in use: entries are restored before that");
        }
        if (value == null) {
            store.delete(cf, key, key.length);
        } else {
            store.put(cf, key, key.length, value);
        }
    }

    /** Checks the format version and key groups that restored entries brought along ({@code source}: for errors). */
    public void checkRestoredMetadata(String source) throws IOException {
        ensureOpen();
        checkMetadata(source);
    }

    private void ensureTracking() {
        ensureOpen();
        if (changes == null) {
            throw new IllegalStateException("change tracking is off for state in " + store.location());
        }
    }

    // --- for the states and timer services ----------------------------------------------------------------------

    /**
     * Writes {@code key[0, keyLength)}; every write of state goes through here, {@link #write} or {@link #delete}.
     * The backend keeps {@code value} for the change log: it must not be modified afterwards.
     */
    void put(StateColumnFamily cf, byte[] key, int keyLength, byte[] value) {
        store.put(cf, key, keyLength, value);
        if (changes != null) {
            changes[cf.ordinal()].put(key, keyLength, false, value);
        }
    }

    /**
     * Writes whole keys with their values (null deletes), each key at most once, in one batch. The backend keeps the
     * arrays for the change log: they must not be modified afterwards.
     */
    void write(StateColumnFamily cf, byte[][] keys, byte[][] values) {
        store.write(cf, keys, values);
        if (changes != null) {
            for (int i = 0; i < keys.length; i++) {
                changes[cf.ordinal()].put(keys[i], keys[i].length, true,
                        values[i] == null ? ChangedEntries.DELETED : values[i]);
            }
        }
    }

    void delete(StateColumnFamily cf, byte[] key, int keyLength) {
        store.delete(cf, key, keyLength);
        if (changes != null) {
            changes[cf.ordinal()].put(key, keyLength, false, ChangedEntries.DELETED);
        }
    }

    /** The timers the timer services buffer, into the store: before anything reads the state to persist it. */
    private void writeTimerBuffers() {
        for (StoreTimerService timers : timerServices.values()) {
            timers.writeBuffers();
        }
    }

    void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("state backend in " + store.location() + " is closed");
        }
    }

    StateStore store() {
        return store;
    }

    KeyBuffer valueKeyBuffer() {
        ensureOpen();
        return valueKey;
    }

    KeyBuffer timerKeyBuffer() {
        ensureOpen();
        return timerKey;
    }

    int keyGroupOf(byte[] key) {
        return KeyGroups.of(key, keyGroups);
    }

    /** The 4-byte id of a state ({@code operatorId + "/" + name}) or of an operator's timers ({@code operatorId}). */
    static int idOf(String text) {
        return Murmur3.hash32(text.getBytes(StandardCharsets.UTF_8), ID_SEED);
    }
}
