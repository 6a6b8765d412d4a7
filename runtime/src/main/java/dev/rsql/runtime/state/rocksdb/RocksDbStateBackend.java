package dev.rsql.runtime.state.rocksdb;

import dev.rsql.runtime.state.KeyGroups;
import dev.rsql.runtime.state.KeyedStateBackend;
import dev.rsql.runtime.state.KeyedValueState;
import dev.rsql.runtime.state.Murmur3;
import dev.rsql.runtime.state.StateException;
import dev.rsql.runtime.state.TimerService;
import dev.rsql.runtime.state.TypeSerializer;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Cache;
import org.rocksdb.Checkpoint;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompactionStyle;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.IndexType;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.LRUCache;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBufferManager;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The keyed state of one task in one RocksDB: values in the column family {@code values}, timers in {@code timers},
 * and in the default column family the backend's metadata (format version, number of key groups, and the name behind
 * every 4-byte state and operator id, to detect hash collisions, also against states of an earlier run).
 *
 * <p>The database lives in {@code <workingDir>/db}. It is a scratch copy: opening discards whatever an earlier run
 * left there and starts from the snapshot given (hard links to its SST files, copies of its few small metadata
 * files), or empty. Writes skip the write-ahead log; {@link #snapshot} flushes the memtables and takes a RocksDB
 * checkpoint, and that is the only durable form of the state.
 *
 * <p>For a changelog kept elsewhere (the distributed runtime's state queue), the backend can also record the raw keys
 * written or deleted since the last drain ({@link #enableChangeTracking}, {@link #drainChanges}), list every entry
 * ({@link #forEachEntry}) and take entries back in ({@link #restoreEntry}). With tracking off, a write pays one null
 * check for it.
 *
 * <p>Not thread-safe: one task thread uses a backend (and builds keys in shared buffers to avoid allocation).
 */
public final class RocksDbStateBackend implements KeyedStateBackend {

    static {
        RocksDB.loadLibrary();
    }

    static final String VALUES_CF = "values";
    static final String TIMERS_CF = "timers";

    private static final int FORMAT_VERSION = 1;
    /** Seed of the state and operator id hash. Stored state depends on it: never change it. */
    private static final int ID_SEED = 0x52534c31;
    private static final byte[] META_FORMAT = "format-version".getBytes(StandardCharsets.UTF_8);
    private static final byte[] META_KEY_GROUPS = "key-groups".getBytes(StandardCharsets.UTF_8);
    private static final byte META_STATE = 1;
    private static final byte META_TIMERS = 2;
    /** Changed values kept for the next drain, per column family; beyond, the drain reads them back. */
    private static final long MAX_KEPT_CHANGE_BYTES = 4L << 20;

    private final Path dbDir;
    private final int keyGroups;
    /** Every native object to close, in reverse order of creation. */
    private final Deque<AutoCloseable> resources;
    private final RocksDB db;
    private final ColumnFamilyHandle metaCf;
    private final ColumnFamilyHandle valuesCf;
    private final ColumnFamilyHandle timersCf;
    private final ReadOptions readOptions;
    private final WriteOptions writeOptions;
    private final Cache cache;

    private final KeyBuffer valueKey = new KeyBuffer();
    private final KeyBuffer timerKey = new KeyBuffer();
    private final Map<List<String>, RocksDbValueState<?>> states = new HashMap<>();
    private final Map<Integer, List<String>> stateIds = new HashMap<>();
    private final Map<String, RocksDbTimerService> timerServices = new HashMap<>();
    private final Map<Integer, String> timerIds = new HashMap<>();
    private final Set<RocksDbIterator<?>> openIterators = Collections.newSetFromMap(new IdentityHashMap<>());
    /** Per column family (by ordinal) the entries changed since the last drain; null while tracking is off. */
    private ChangedEntries[] changes;
    private boolean closed;

    private RocksDbStateBackend(Path dbDir, int keyGroups, Deque<AutoCloseable> resources, RocksDB db,
                                List<ColumnFamilyHandle> handles, ReadOptions readOptions, WriteOptions writeOptions,
                                Cache cache) {
        this.dbDir = dbDir;
        this.keyGroups = keyGroups;
        this.resources = resources;
        this.db = db;
        this.metaCf = handles.get(0);
        this.valuesCf = handles.get(1);
        this.timersCf = handles.get(2);
        this.readOptions = readOptions;
        this.writeOptions = writeOptions;
        this.cache = cache;
    }

    /** Opens a backend with {@link RocksDbOptions#defaults()}. */
    public static RocksDbStateBackend open(Path workingDir, Path restoreFrom, int keyGroups) throws IOException {
        return open(workingDir, restoreFrom, keyGroups, RocksDbOptions.defaults());
    }

    /**
     * Opens the state of a task.
     *
     * @param workingDir  the task's own directory, created if missing; the database goes to its {@code db}
     *                    subdirectory, and a database left there by an earlier run is deleted
     * @param restoreFrom a directory written by {@link #snapshot}, or null to start empty; it is not modified
     * @param keyGroups   number of key groups; must equal the snapshot's
     */
    public static RocksDbStateBackend open(Path workingDir, Path restoreFrom, int keyGroups, RocksDbOptions options)
            throws IOException {
        KeyGroups.checkKeyGroups(keyGroups);
        Path dbDir = workingDir.toAbsolutePath().normalize().resolve("db");
        if (restoreFrom != null) {
            Path from = restoreFrom.toAbsolutePath().normalize();
            if (from.startsWith(dbDir)) {
                throw new IllegalArgumentException("cannot restore from " + from + " inside the working copy "
                        + dbDir + ", which is discarded on open");
            }
            if (!Files.isRegularFile(from.resolve("CURRENT"))) {
                throw new NoSuchFileException(from + " is not a state snapshot (no CURRENT file)");
            }
        }
        Files.createDirectories(workingDir);
        deleteRecursively(dbDir);
        if (restoreFrom != null) {
            linkSnapshot(restoreFrom, dbDir);
        } else {
            Files.createDirectories(dbDir);
        }

        Deque<AutoCloseable> resources = new ArrayDeque<>();
        try {
            Cache cache;
            WriteBufferManager writeBufferManager;
            if (options.sharedMemory() != null) {
                cache = options.sharedMemory().cache();
                writeBufferManager = options.sharedMemory().writeBufferManager();
            } else {
                cache = track(resources, new LRUCache(options.blockCacheBytes(), -1, false, 0.1));
                writeBufferManager = track(resources, new WriteBufferManager(options.writeBufferBytes(), cache));
            }
            BloomFilter bloom = track(resources, new BloomFilter(10));
            DBOptions dbOptions = track(resources, new DBOptions()
                    .setCreateIfMissing(true)
                    .setCreateMissingColumnFamilies(true)
                    .setAtomicFlush(true)
                    .setAvoidFlushDuringShutdown(true) // the working copy is discarded on the next open anyway
                    .setWriteBufferManager(writeBufferManager)
                    .setMaxOpenFiles(options.maxOpenFiles())
                    .setMaxBackgroundJobs(2)
                    .setInfoLogLevel(InfoLogLevel.WARN_LEVEL)
                    .setKeepLogFileNum(2)
                    .setMaxLogFileSize(1L << 20)
                    .setStatsDumpPeriodSec(0)
                    .setManifestPreallocationSize(64L << 10));
            ColumnFamilyOptions metaOptions = track(resources,
                    columnFamilyOptions(cache, null, 64L << 10));
            ColumnFamilyOptions valueOptions = track(resources,
                    columnFamilyOptions(cache, bloom, options.writeBufferBytes() / 2));
            // Timers are only scanned in order, never looked up: no bloom filter.
            ColumnFamilyOptions timerOptions = track(resources,
                    columnFamilyOptions(cache, null, options.writeBufferBytes() / 4));
            ReadOptions readOptions = track(resources, new ReadOptions());
            WriteOptions writeOptions = track(resources, new WriteOptions().setDisableWAL(true));

            List<ColumnFamilyDescriptor> descriptors = List.of(
                    new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, metaOptions),
                    new ColumnFamilyDescriptor(VALUES_CF.getBytes(StandardCharsets.UTF_8), valueOptions),
                    new ColumnFamilyDescriptor(TIMERS_CF.getBytes(StandardCharsets.UTF_8), timerOptions));
            List<ColumnFamilyHandle> handles = new ArrayList<>();
            RocksDB db;
            try {
                db = RocksDB.open(dbOptions, dbDir.toString(), descriptors, handles);
            } catch (RocksDBException e) {
                handles.forEach(ColumnFamilyHandle::close);
                throw new IOException("cannot open state in " + dbDir + ": " + e.getMessage(), e);
            }
            track(resources, db);
            handles.forEach(h -> track(resources, h)); // closed before the DB
            RocksDbStateBackend backend = new RocksDbStateBackend(dbDir, keyGroups, resources, db, handles,
                    readOptions, writeOptions, cache);
            backend.checkMetadata(restoreFrom == null ? null : restoreFrom.toString());
            return backend;
        } catch (IOException | RuntimeException | Error e) {
            closeAll(resources, e);
            throw e;
        }
    }

    /**
     * Options of a column family sized for a small footprint. Point lookups (per record) must stay cheap when the
     * state outgrows the cache: index and filter blocks are partitioned (only the top level is pinned, the 4 KiB
     * partitions come and go through the cache), which in a measurement with 1M keys and a 16 MiB cache made a
     * get+put about 8x faster than whole-file index and filter blocks that keep getting evicted and re-read.
     */
    private static ColumnFamilyOptions columnFamilyOptions(Cache cache, BloomFilter bloom, long writeBufferSize) {
        BlockBasedTableConfig table = new BlockBasedTableConfig()
                .setBlockCache(cache)
                .setBlockSize(4L << 10)
                .setCacheIndexAndFilterBlocks(true)
                .setCacheIndexAndFilterBlocksWithHighPriority(true)
                .setPinL0FilterAndIndexBlocksInCache(true)
                .setIndexType(IndexType.kTwoLevelIndexSearch)
                .setPartitionFilters(bloom != null)
                .setMetadataBlockSize(4L << 10)
                .setPinTopLevelIndexAndFilter(true);
        ColumnFamilyOptions options = new ColumnFamilyOptions();
        if (bloom != null) {
            table.setFilterPolicy(bloom);
            // lookups of absent keys (the first record of a key or window) skip the memtables too
            options.setMemtablePrefixBloomSizeRatio(0.05).setMemtableWholeKeyFiltering(true);
        }
        return options
                .setTableFormatConfig(table)
                .setWriteBufferSize(writeBufferSize)
                .setMaxWriteBufferNumber(2)
                .setCompactionStyle(CompactionStyle.LEVEL)
                .setLevelCompactionDynamicLevelBytes(true)
                .setTargetFileSizeBase(16L << 20)
                .setMaxBytesForLevelBase(64L << 20)
                .setCompressionType(CompressionType.LZ4_COMPRESSION)
                .setBottommostCompressionType(CompressionType.LZ4_COMPRESSION);
    }

    private static <T extends AutoCloseable> T track(Deque<AutoCloseable> resources, T resource) {
        resources.push(resource);
        return resource;
    }

    private static void closeAll(Deque<AutoCloseable> resources, Throwable failure) {
        while (!resources.isEmpty()) {
            try {
                resources.pop().close();
            } catch (Exception e) {
                if (failure != null) {
                    failure.addSuppressed(e);
                }
            }
        }
    }

    /**
     * Checks the format and key groups of state restored from {@code restoredFrom}, or records them in new state
     * ({@code restoredFrom} null).
     */
    private void checkMetadata(String restoredFrom) throws IOException {
        try {
            byte[] format = db.get(metaCf, META_FORMAT);
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
            byte[] storedGroups = db.get(metaCf, META_KEY_GROUPS);
            if (storedGroups == null || toInt(storedGroups) != keyGroups) {
                throw new IOException("state in " + restoredFrom + " has "
                        + (storedGroups == null ? "no" : String.valueOf(toInt(storedGroups)))
                        + " key groups, the job " + keyGroups + ": the number of key groups cannot change");
            }
        } catch (RocksDBException e) {
            throw new IOException("cannot read state metadata: " + e.getMessage(), e);
        }
    }

    private static int toInt(byte[] b) {
        return (b[0] & 0xff) << 24 | (b[1] & 0xff) << 16 | (b[2] & 0xff) << 8 | (b[3] & 0xff);
    }

    // --- restore ----------------------------------------------------------------------------------------------

    /**
     * Makes {@code to} a copy of the snapshot {@code from}: SST and blob files are immutable in RocksDB, so they are
     * hard-linked (copied if the directories are on different file systems); the other files (CURRENT, MANIFEST,
     * OPTIONS, an empty WAL) are small and rewritten by RocksDB, so they are copied, and the snapshot stays intact.
     */
    private static void linkSnapshot(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                String name = file.getFileName().toString();
                Path target = to.resolve(name);
                if (!Files.isRegularFile(file)) {
                    throw new IOException("unexpected entry in state snapshot: " + file);
                }
                if (name.endsWith(".sst") || name.endsWith(".blob")) {
                    try {
                        Files.createLink(target, file);
                        continue;
                    } catch (IOException | UnsupportedOperationException e) {
                        // another file system: copy
                    }
                }
                Files.copy(file, target);
            }
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
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
        RocksDbValueState<?> existing = states.get(id);
        if (existing != null) {
            if (existing.serializer() == serializer || existing.serializer().equals(serializer)) {
                return (KeyedValueState<V>) existing;
            }
            return new RocksDbValueState<>(this, existing.stateId(), existing.toString(), serializer);
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
        RocksDbValueState<V> state = new RocksDbValueState<>(this, stateId,
                "state '" + name + "' of operator " + operatorId, serializer);
        states.put(id, state);
        return state;
    }

    @Override
    public TimerService timerService(String operatorId) {
        ensureOpen();
        RocksDbTimerService existing = timerServices.get(operatorId);
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
        RocksDbTimerService service = new RocksDbTimerService(this, id, operatorId);
        timerServices.put(operatorId, service);
        return service;
    }

    /**
     * Records the names behind an id in the metadata, unless already there. Returns the other names if the id is
     * taken by different names (in this run or in the state restored), else null.
     */
    private String register(byte type, int id, byte[] names) {
        byte[] metaKey = {type, (byte) (id >>> 24), (byte) (id >>> 16), (byte) (id >>> 8), (byte) id};
        try {
            byte[] stored = db.get(metaCf, metaKey);
            if (stored == null) {
                put(StateColumnFamily.METADATA, metaKey, metaKey.length, names);
                return null;
            }
            return Arrays.equals(stored, names) ? null : decodeNames(stored);
        } catch (RocksDBException e) {
            throw new StateException("cannot register state id", e);
        }
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
        if (Files.exists(dir)) {
            throw new FileAlreadyExistsException(dir.toString());
        }
        Path parent = dir.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        writeTimerBuffers();
        // Writes skip the WAL: flush the memtables so that the checkpoint's SST files hold everything.
        try (FlushOptions flush = new FlushOptions().setWaitForFlush(true).setAllowWriteStall(true);
             Checkpoint checkpoint = Checkpoint.create(db)) {
            db.flush(flush, List.of(metaCf, valuesCf, timersCf));
            checkpoint.createCheckpoint(dir.toAbsolutePath().toString());
        } catch (RocksDBException e) {
            throw new IOException("snapshot to " + dir + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    public long sizeOnDisk() {
        try (Stream<Path> files = Files.walk(dbDir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    return 0; // deleted by a compaction meanwhile
                }
            }).sum();
        } catch (IOException | UncheckedIOException e) {
            return 0;
        }
    }

    /**
     * Native memory of this backend in bytes: memtables, table readers outside the cache, and the block cache's
     * usage (if the cache is shared, its whole usage).
     */
    public long approximateMemoryUsage() {
        ensureOpen();
        try {
            return db.getAggregatedLongProperty("rocksdb.cur-size-all-mem-tables")
                    + db.getAggregatedLongProperty("rocksdb.estimate-table-readers-mem")
                    + cache.getUsage();
        } catch (RocksDBException e) {
            throw new StateException("cannot read memory usage", e);
        }
    }

    /** The directory of the working copy of the database. */
    public Path directory() {
        return dbDir;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (RocksDbIterator<?> it : new ArrayList<>(openIterators)) {
            it.close();
        }
        closeAll(resources, null);
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
            ColumnFamilyHandle handle = handle(cf);
            changes[cf.ordinal()].forEach((key, value) -> {
                if (value == ChangedEntries.UNKNOWN) {
                    try {
                        value = db.get(handle, readOptions, key);
                    } catch (RocksDBException e) {
                        throw new IOException("reading changed state in " + dbDir + " failed: " + e.getMessage(), e);
                    }
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

    /** Hands every entry of every column family to the visitor, as of the call (an implicit RocksDB snapshot). */
    public void forEachEntry(RawEntryVisitor visitor) throws IOException {
        ensureOpen();
        writeTimerBuffers();
        // A full scan must not evict the blocks the task is working with.
        try (ReadOptions scan = new ReadOptions().setFillCache(false)) {
            for (StateColumnFamily cf : StateColumnFamily.values()) {
                try (RocksIterator it = db.newIterator(handle(cf), scan)) {
                    for (it.seekToFirst(); it.isValid(); it.next()) {
                        visitor.visit(cf, it.key(), it.value());
                    }
                    it.status();
                }
            }
        } catch (RocksDBException e) {
            throw new IOException("reading all state in " + dbDir + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * Writes one entry taken from a changelog (a null value deletes the key). Only into a backend that nothing has
     * used yet (no state, timers or tracking), so that what the task sees is exactly the restored state; finish with
     * {@link #checkRestoredMetadata}.
     */
    public void restoreEntry(StateColumnFamily cf, byte[] key, byte[] value) throws IOException {
        ensureOpen();
        if (!states.isEmpty() || !timerServices.isEmpty() || changes != null) {
            throw new IllegalStateException("state in " + dbDir + " is in use: entries are restored before that");
        }
        try {
            if (value == null) {
                db.delete(handle(cf), writeOptions, key);
            } else {
                db.put(handle(cf), writeOptions, key, value);
            }
        } catch (RocksDBException e) {
            throw new IOException("restoring state in " + dbDir + " failed: " + e.getMessage(), e);
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
            throw new IllegalStateException("change tracking is off for state in " + dbDir);
        }
    }

    private ColumnFamilyHandle handle(StateColumnFamily cf) {
        switch (cf) {
            case METADATA:
                return metaCf;
            case VALUES:
                return valuesCf;
            case TIMERS:
                return timersCf;
            default:
                throw new IllegalArgumentException(cf.toString());
        }
    }

    // --- for the states and timer services ----------------------------------------------------------------------

    /**
     * Writes {@code key[0, keyLength)}; every write of state goes through here, {@link #write} or {@link #delete}.
     * The backend keeps {@code value} for the change log: it must not be modified afterwards.
     */
    void put(StateColumnFamily cf, byte[] key, int keyLength, byte[] value) throws RocksDBException {
        db.put(handle(cf), writeOptions, key, 0, keyLength, value, 0, value.length);
        if (changes != null) {
            changes[cf.ordinal()].put(key, keyLength, false, value);
        }
    }

    /**
     * Writes whole keys with their values (null deletes), each key at most once, in one batch in ascending key order:
     * the memtable inserts of ascending keys cost a fraction of those of random ones. The batch's bytes are built in
     * the heap ({@link WriteBatchBytes}) and cross JNI once. The backend keeps the arrays for the change log: they
     * must not be modified afterwards.
     */
    void write(StateColumnFamily cf, byte[][] keys, byte[][] values) throws RocksDBException {
        byte[] rep = WriteBatchBytes.of(handle(cf).getID(), keys, values, KeyOrder.of(keys));
        try (WriteBatch batch = new WriteBatch(rep)) {
            db.write(writeOptions, batch);
        }
        if (changes != null) {
            for (int i = 0; i < keys.length; i++) {
                changes[cf.ordinal()].put(keys[i], keys[i].length, true,
                        values[i] == null ? ChangedEntries.DELETED : values[i]);
            }
        }
    }

    void delete(StateColumnFamily cf, byte[] key, int keyLength) throws RocksDBException {
        db.delete(handle(cf), writeOptions, key, 0, keyLength);
        if (changes != null) {
            changes[cf.ordinal()].put(key, keyLength, false, ChangedEntries.DELETED);
        }
    }

    /** The timers the timer services keep in the heap, into RocksDB: before anything reads the state to persist it. */
    private void writeTimerBuffers() {
        for (RocksDbTimerService timers : timerServices.values()) {
            timers.writeBuffers();
        }
    }

    void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("state backend in " + dbDir + " is closed");
        }
    }

    RocksDB db() {
        return db;
    }

    ColumnFamilyHandle valuesCf() {
        return valuesCf;
    }

    ColumnFamilyHandle timersCf() {
        return timersCf;
    }

    ReadOptions readOptions() {
        return readOptions;
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

    void iteratorOpened(RocksDbIterator<?> it) {
        openIterators.add(it);
    }

    void iteratorClosed(RocksDbIterator<?> it) {
        openIterators.remove(it);
    }

    /** The 4-byte id of a state ({@code operatorId + "/" + name}) or of an operator's timers ({@code operatorId}). */
    static int idOf(String text) {
        return Murmur3.hash32(text.getBytes(StandardCharsets.UTF_8), ID_SEED);
    }
}
