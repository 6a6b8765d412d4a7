package dev.rsql.runtime.lookup;

import dev.rsql.runtime.connector.LookupSource;
import dev.rsql.runtime.table.TableDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A dimension table held whole in a {@link CompactTable}, shared by the tasks of a job in this process. A load plans
 * the source's scan into ranges and reads them on {@code loadThreads} threads; a reload (every
 * {@code reloadIntervalMillis}) builds a new copy while lookups go on in the old one, then swaps it in atomically. A
 * failed reload keeps the previous copy (logged); a failed first load fails the job's start.
 */
public final class FullCache implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(FullCache.class);
    /** Rows a loader reads between two updates of the progress {@code status} shows. */
    private static final int PROGRESS_STEP = 10_000;

    private final String job;
    private final TableDescriptor table;
    private final LookupSource source;
    private final LookupOptions options;
    private final List<int[]> keys;
    private ScheduledExecutorService reloader;
    private volatile CompactTable current;
    private volatile int loads;
    /** Rows read by the load under way, null when none is: for status, read while the loaders add to it. */
    private volatile AtomicLong loading;
    private volatile long loadedMillis;
    private volatile long loadMillis;
    private volatile String lastError;

    /** A cache not loaded yet: {@link #start} loads it. */
    public FullCache(String job, TableDescriptor table, LookupSource source, LookupOptions options, List<int[]> keys) {
        this.job = job;
        this.table = table;
        this.source = source;
        this.options = options;
        this.keys = List.copyOf(keys);
    }

    /** Loads the table now (blocking), then schedules its reloads. */
    public void start() throws Exception {
        this.current = load();
        if (options.reloadIntervalMillis() > 0) {
            reloader = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "rsql-" + job + "-reload-"
                    + table.name()));
            reloader.scheduleWithFixedDelay(this::reload, options.reloadIntervalMillis(),
                    options.reloadIntervalMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** The copy in use and the load under way, as {@code status} shows them. */
    public DimensionTableStatus status() {
        CompactTable t = current;
        AtomicLong l = loading;
        return new DimensionTableStatus(table.name(), t == null ? 0 : t.size(), t == null ? 0 : t.bytes(), loads,
                l == null ? -1 : l.get(), loadedMillis, loadMillis, lastError);
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    /** The copy lookups use now. */
    public CompactTable table() {
        return current;
    }

    /** Completed loads, the first one included. */
    public int loads() {
        return loads;
    }

    /** Number of the index of a lookup key given to the constructor. */
    public int indexOf(int[] key) {
        for (int i = 0; i < keys.size(); i++) {
            if (java.util.Arrays.equals(keys.get(i), key)) {
                return i;
            }
        }
        throw new IllegalArgumentException("no index on columns " + java.util.Arrays.toString(key));
    }

    /** Loads again now and swaps the new copy in; the old copy stays when loading fails. */
    public void reload() {
        try {
            current = load();
            lastError = null;
        } catch (Exception e) {
            lastError = e.toString();
            LOG.warn("job={} dimension table {}: reload failed, lookups keep the copy of {} rows: {}", job,
                    table.name(), current.size(), e.toString());
        } catch (Error e) {
            lastError = e.toString();
            LOG.error("job={} dimension table {}: reload failed, lookups keep the copy of {} rows", job,
                    table.name(), current.size(), e);
        }
    }

    private CompactTable load() throws Exception {
        long start = System.nanoTime();
        List<LookupSource.ScanRange> ranges = source.planScan(options.loadThreads());
        LOG.info("job={} dimension table {}: loading {} in {} ranges on {} threads", job, table.name(),
                source.description(), ranges.size(), Math.min(options.loadThreads(), ranges.size()));
        CompactTable.Builder builder = new CompactTable.Builder(table.schema().rowType().types(), keys);
        AtomicLong progress = new AtomicLong();
        loading = progress;
        AtomicInteger done = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(options.loadThreads(),
                ranges.size())), r -> daemon(r, "rsql-" + job + "-load-" + table.name()));
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (LookupSource.ScanRange range : ranges) {
                CompactTable.Builder.Loader loader = builder.newLoader();
                futures.add(pool.submit(() -> {
                    long[] n = new long[1];
                    source.scan(range, values -> {
                        loader.add(values);
                        if (++n[0] % PROGRESS_STEP == 0) {
                            progress.addAndGet(PROGRESS_STEP);
                        }
                    });
                    progress.addAndGet(n[0] % PROGRESS_STEP);
                    LOG.info("job={} dimension table {}: range {}/{} ({}) loaded, {} rows", job, table.name(),
                            done.incrementAndGet(), ranges.size(), range.description(), n[0]);
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                try {
                    f.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
                }
            }
        } finally {
            pool.shutdownNow();
            loading = null;
        }
        CompactTable t = builder.build();
        loads++;
        loadedMillis = System.currentTimeMillis();
        loadMillis = (System.nanoTime() - start) / 1_000_000;
        LOG.info("job={} dimension table {}: load {} done, {} rows, {} MB, {} ms", job, table.name(), loads,
                t.size(), t.bytes() >> 20, loadMillis);
        return t;
    }

    @Override
    public void close() {
        if (reloader != null) {
            reloader.shutdownNow();
        }
    }
}
