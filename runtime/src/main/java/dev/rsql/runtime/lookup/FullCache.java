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

/**
 * A dimension table held whole in a {@link CompactTable}, shared by the tasks of a job in this process. A load plans
 * the source's scan into ranges and reads them on {@code loadThreads} threads; a reload (every
 * {@code reloadIntervalMillis}) builds a new copy while lookups go on in the old one, then swaps it in atomically. A
 * failed reload keeps the previous copy (logged); a failed first load fails the job's start.
 */
public final class FullCache implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(FullCache.class);

    private final String job;
    private final TableDescriptor table;
    private final LookupSource source;
    private final LookupOptions options;
    private final List<int[]> keys;
    private final ScheduledExecutorService reloader;
    private volatile CompactTable current;
    private volatile int loads;

    /** Loads the table now (blocking), then schedules its reloads. */
    public FullCache(String job, TableDescriptor table, LookupSource source, LookupOptions options, List<int[]> keys)
            throws Exception {
        this.job = job;
        this.table = table;
        this.source = source;
        this.options = options;
        this.keys = List.copyOf(keys);
        this.current = load();
        if (options.reloadIntervalMillis() > 0) {
            reloader = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "rsql-" + job + "-reload-"
                    + table.name()));
            reloader.scheduleWithFixedDelay(this::reload, options.reloadIntervalMillis(),
                    options.reloadIntervalMillis(), TimeUnit.MILLISECONDS);
        } else {
            reloader = null;
        }
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
        } catch (Exception e) {
            LOG.warn("job={} dimension table {}: reload failed, lookups keep the copy of {} rows: {}", job,
                    table.name(), current.size(), e.toString());
        } catch (Error e) {
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
                        n[0]++;
                    });
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
        }
        CompactTable t = builder.build();
        loads++;
        LOG.info("job={} dimension table {}: load {} done, {} rows, {} MB, {} ms", job, table.name(), loads,
                t.size(), t.bytes() >> 20, (System.nanoTime() - start) / 1_000_000);
        return t;
    }

    @Override
    public void close() {
        if (reloader != null) {
            reloader.shutdownNow();
        }
    }
}
