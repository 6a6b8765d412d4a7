package dev.rsql.runtime.state.rocksdb;

import dev.rsql.runtime.state.CloseableIterator;
import dev.rsql.runtime.state.StateException;
import dev.rsql.runtime.state.store.RawEntryVisitor;
import dev.rsql.runtime.state.store.StateColumnFamily;
import dev.rsql.runtime.state.store.StateStore;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Cache;
import org.rocksdb.Checkpoint;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompactionStyle;
import org.rocksdb.CompressionType;
import org.rocksdb.ConfigOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.Env;
import org.rocksdb.FlushOptions;
import org.rocksdb.IndexType;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.LRUCache;
import org.rocksdb.Priority;
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
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A {@link StateStore} in one RocksDB, a column family per {@link StateColumnFamily} ({@code METADATA} is the default
 * one). The database lives in {@code <workingDir>/db}. It is a scratch copy: opening discards whatever an earlier run
 * left there and starts from the snapshot given (hard links to its SST files, copies of its few small metadata
 * files), or empty. Writes skip the write-ahead log; {@link #snapshot} flushes the memtables and takes a RocksDB
 * checkpoint, and that is the only durable form of the state.
 */
public final class RocksDbStore implements StateStore {

    static {
        RocksDB.loadLibrary();
        // Compactions can wait, a task's records cannot: on few cores (Nexmark q16 on two: 3.4 s of compaction in a
        // 7 s job) they took the core from the task writing, which then waited to run 14 % of the time. Flushes (the
        // high-priority pool) keep the process's priority, or writes would stall.
        Env.getDefault().lowerThreadPoolCPUPriority(Priority.LOW);
    }

    static final String VALUES_CF = "values";
    static final String TIMERS_CF = "timers";

    private final Path dbDir;
    /** Every native object to close, in reverse order of creation. */
    private final Deque<AutoCloseable> resources;
    private final RocksDB db;
    private final ColumnFamilyHandle metaCf;
    private final ColumnFamilyHandle valuesCf;
    private final ColumnFamilyHandle timersCf;
    private final ReadOptions readOptions;
    private final WriteOptions writeOptions;
    private final Cache cache;
    private final Set<RocksDbIterator<?>> openIterators = Collections.newSetFromMap(new IdentityHashMap<>());
    private boolean closed;

    private RocksDbStore(Path dbDir, Deque<AutoCloseable> resources, RocksDB db, List<ColumnFamilyHandle> handles,
                         ReadOptions readOptions, WriteOptions writeOptions, Cache cache) {
        this.dbDir = dbDir;
        this.resources = resources;
        this.db = db;
        this.metaCf = handles.get(0);
        this.valuesCf = handles.get(1);
        this.timersCf = handles.get(2);
        this.readOptions = readOptions;
        this.writeOptions = writeOptions;
        this.cache = cache;
    }

    /** Whether {@code dir} holds a snapshot of this store. */
    public static boolean isSnapshot(Path dir) {
        return Files.isRegularFile(dir.resolve("CURRENT"));
    }

    /**
     * Opens the store of a task.
     *
     * @param workingDir  the task's own directory, created if missing; the database goes to its {@code db}
     *                    subdirectory, and a database left there by an earlier run is deleted
     * @param restoreFrom a directory written by {@link #snapshot}, or null to start empty; it is not modified
     */
    public static RocksDbStore open(Path workingDir, Path restoreFrom, RocksDbOptions options)
            throws IOException {
        Path dbDir = workingDir.toAbsolutePath().normalize().resolve("db");
        if (restoreFrom != null) {
            Path from = restoreFrom.toAbsolutePath().normalize();
            if (from.startsWith(dbDir)) {
                throw new IllegalArgumentException("cannot restore from " + from + " inside the working copy "
                        + dbDir + ", which is discarded on open");
            }
            if (!isSnapshot(from)) {
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
                    columnFamilyOptions(cache, null, 64L << 10, false));
            ColumnFamilyOptions valueOptions = track(resources,
                    columnFamilyOptions(cache, bloom, options.writeBufferBytes() / 2, true));
            // Timers are only scanned in order, never looked up: no bloom filter.
            ColumnFamilyOptions timerOptions = track(resources,
                    columnFamilyOptions(cache, null, options.writeBufferBytes() / 4, true));
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
            return new RocksDbStore(dbDir, resources, db, handles, readOptions, writeOptions, cache);
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
     * {@code idPrefixed}: every key starts with the 4-byte id of its state or timer service ({@code KeyBuffer}), and
     * the memtable keeps an insert position per id ({@link #insertHints}).
     */
    private static ColumnFamilyOptions columnFamilyOptions(Cache cache, BloomFilter bloom, long writeBufferSize,
                                                           boolean idPrefixed) {
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
        ColumnFamilyOptions options = idPrefixed ? insertHints() : new ColumnFamilyOptions();
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
                // half as many compactions as at 4, each merging more level-0 files into the same level-1 data
                .setLevel0FileNumCompactionTrigger(8)
                .setCompressionType(CompressionType.LZ4_COMPRESSION)
                .setBottommostCompressionType(CompressionType.LZ4_COMPRESSION);
    }

    /**
     * Options whose memtables keep, per 4-byte key prefix, where the last insert went, and start the next insert's
     * search from there, walking up the skip list only as far as needed. Without it a memtable insert searches from
     * the top unless its key directly follows the previous one, which the keys of a sorted batch ({@link #write})
     * rarely do in a memtable that already holds other keys. An aggregation adding a new DISTINCT value per record
     * (Nexmark q16) spent a fifth of its task in memtable inserts, and a fifth less with the hints. RocksJava has no
     * setter for the option, only RocksDB's own option parser.
     */
    private static ColumnFamilyOptions insertHints() {
        Properties hints = new Properties();
        hints.setProperty("memtable_insert_with_hint_prefix_extractor", "rocksdb.FixedPrefix.4");
        try (ConfigOptions config = new ConfigOptions()) {
            ColumnFamilyOptions options = ColumnFamilyOptions.getColumnFamilyOptionsFromProps(config, hints);
            if (options == null) {
                throw new IllegalStateException("RocksDB does not accept memtable_insert_with_hint_prefix_extractor");
            }
            return options;
        }
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

    // --- StateStore ---------------------------------------------------------------------------------------------

    @Override
    public byte[] get(StateColumnFamily cf, byte[] key, int keyLength) {
        ensureOpen();
        try {
            return db.get(handle(cf), readOptions, key, 0, keyLength);
        } catch (RocksDBException e) {
            throw failure("reading", e);
        }
    }

    @Override
    public void put(StateColumnFamily cf, byte[] key, int keyLength, byte[] value) {
        ensureOpen();
        try {
            db.put(handle(cf), writeOptions, key, 0, keyLength, value, 0, value.length);
        } catch (RocksDBException e) {
            throw failure("writing", e);
        }
    }

    @Override
    public void delete(StateColumnFamily cf, byte[] key, int keyLength) {
        ensureOpen();
        try {
            db.delete(handle(cf), writeOptions, key, 0, keyLength);
        } catch (RocksDBException e) {
            throw failure("deleting from", e);
        }
    }

    /**
     * One batch in ascending key order: the memtable inserts of ascending keys cost a fraction of those of random
     * ones (each starts from where the last one of its state went, {@link #insertHints}). The batch's bytes are built
     * in the heap ({@link WriteBatchBytes}) and cross JNI once.
     */
    @Override
    public void write(StateColumnFamily cf, byte[][] keys, byte[][] values) {
        ensureOpen();
        byte[] rep = WriteBatchBytes.of(handle(cf).getID(), keys, values, KeyOrder.of(keys));
        try (WriteBatch batch = new WriteBatch(rep)) {
            db.write(writeOptions, batch);
        } catch (RocksDBException e) {
            throw failure("writing", e);
        }
    }

    /** A sorted batch: its memtable inserts cost a fraction of those of single writes. */
    @Override
    public boolean writesBatches() {
        return true;
    }

    @Override
    public <T> CloseableIterator<T> scan(StateColumnFamily cf, byte[] from, byte[] to, Decoder<T> decoder) {
        ensureOpen(); // a closed DB handle would crash the JVM
        return new RocksDbIterator<>(this, handle(cf), from, to, decoder);
    }

    @Override
    public void forEachEntry(RawEntryVisitor visitor) throws IOException {
        ensureOpen();
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
     * Native memory in bytes: memtables, table readers outside the cache, and the block cache's usage (if the cache
     * is shared, its whole usage).
     */
    @Override
    public long memoryUsage() {
        ensureOpen();
        try {
            return db.getAggregatedLongProperty("rocksdb.cur-size-all-mem-tables")
                    + db.getAggregatedLongProperty("rocksdb.estimate-table-readers-mem")
                    + cache.getUsage();
        } catch (RocksDBException e) {
            throw new StateException("cannot read memory usage", e);
        }
    }

    @Override
    public String location() {
        return dbDir.toString();
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

    private StateException failure(String what, RocksDBException e) {
        return new StateException(what + " state in " + dbDir + " failed: " + e.getMessage(), e);
    }

    void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("state in " + dbDir + " is closed");
        }
    }

    RocksDB db() {
        return db;
    }

    void iteratorOpened(RocksDbIterator<?> it) {
        openIterators.add(it);
    }

    void iteratorClosed(RocksDbIterator<?> it) {
        openIterators.remove(it);
    }
}
