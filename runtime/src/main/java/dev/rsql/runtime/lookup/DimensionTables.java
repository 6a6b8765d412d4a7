package dev.rsql.runtime.lookup;

import dev.rsql.runtime.connector.LookupCacheMode;
import dev.rsql.runtime.connector.LookupReader;
import dev.rsql.runtime.connector.LookupSource;
import dev.rsql.runtime.graph.GraphNode;
import dev.rsql.runtime.graph.JobGraph;
import dev.rsql.runtime.graph.LookupJoinNode;
import dev.rsql.runtime.table.TableDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * The dimension tables of one job in this process: one {@link LookupSource} per table and lookup columns, opened by
 * the first task that needs it, and, in full-cache mode, one {@link FullCache} that all tasks of the job's joins on
 * those columns share (one copy of the table per process). Each task gets its own {@link LookupTable} view: the shared full copy, or its own partial
 * cache or uncached reader.
 */
public final class DimensionTables implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DimensionTables.class);

    /** @param spare a reader opened when the job started, for the first task (none when fully cached) */
    private record Opened(LookupSource source, LookupOptions options, FullCache full,
                          java.util.concurrent.atomic.AtomicReference<LookupReader> spare) {
    }

    private final String job;
    private final Function<TableDescriptor, LookupSource> connectors;
    private final Map<String, Opened> opened = new LinkedHashMap<>();
    /** The full caches, also while they load: {@link #status} reads them without the lock a load holds. */
    private final List<FullCache> fullCaches = new CopyOnWriteArrayList<>();

    public DimensionTables(String job, Function<TableDescriptor, LookupSource> connectors) {
        this.job = job;
        this.connectors = connectors;
    }

    /**
     * Opens the dimension tables of the graph's lookup joins, loading full caches now, so that the job starts with
     * its tables loaded and no task waits in its first slice for a load.
     */
    public void preload(JobGraph graph) throws Exception {
        for (GraphNode node : graph.nodes()) {
            if (node instanceof LookupJoinNode) {
                Opened o = opened((LookupJoinNode) node);
                if (o.full() == null && o.spare().get() == null) {
                    // a reader may prepare a lot (a file's line index): not in a task's first slice
                    o.spare().set(o.source().openReader(((LookupJoinNode) node).lookupColumns()));
                }
            }
        }
    }

    /** A task's view of the join's table; opens it (loading a full cache) unless {@link #preload} did. */
    public LookupTable open(LookupJoinNode node) throws Exception {
        Opened o = opened(node);
        int[] columns = node.lookupColumns();
        if (o.full() != null) {
            FullCache full = o.full();
            int index = full.indexOf(columns);
            return new LookupTable() {
                @Override
                public List<Object[]> lookup(Object[] key) {
                    return full.table().lookup(index, key);
                }

                @Override
                public void close() {
                }
            };
        }
        LookupReader spare = o.spare().getAndSet(null);
        LookupReader reader = spare != null ? spare : o.source().openReader(columns);
        if (o.options().mode() == LookupCacheMode.PARTIAL) {
            return new PartialCache(reader, o.options(), System::currentTimeMillis);
        }
        return new LookupTable() {
            @Override
            public List<Object[]> lookup(Object[] key) throws Exception {
                return reader.lookup(key);
            }

            @Override
            public void close() {
                reader.close();
            }
        };
    }

    private synchronized Opened opened(LookupJoinNode node) throws Exception {
        // joins of one table on the same columns share its source and cache
        String key = node.table().name() + java.util.Arrays.toString(node.lookupColumns());
        Opened o = opened.get(key);
        if (o != null) {
            return o;
        }
        LookupSource source = connectors.apply(node.table());
        FullCache full = null;
        try {
            LookupOptions options = LookupOptions.of(node.table().options(), source.defaultCacheMode());
            LookupCacheMode mode = source.supportsPointLookup() ? options.mode() : LookupCacheMode.FULL;
            if (mode == LookupCacheMode.FULL) {
                full = new FullCache(job, node.table(), source, options, List.of(node.lookupColumns()));
                fullCaches.add(full);
                full.start();
            }
            LOG.info("job={} dimension table {}: {} cache over {}", job, node.table().name(),
                    mode.name().toLowerCase(), source.description());
            o = new Opened(source, options, full, new java.util.concurrent.atomic.AtomicReference<>());
        } catch (Exception | Error e) {
            fullCaches.remove(full);
            source.close();
            throw e;
        }
        opened.put(key, o);
        return o;
    }

    /** The fully cached tables, loaded or loading. */
    public List<DimensionTableStatus> status() {
        List<DimensionTableStatus> all = new ArrayList<>();
        fullCaches.forEach(c -> all.add(c.status()));
        return all;
    }

    @Override
    public synchronized void close() {
        for (Opened o : opened.values()) {
            if (o.full() != null) {
                o.full().close();
            }
            LookupReader spare = o.spare().getAndSet(null);
            if (spare != null) {
                spare.close();
            }
            try {
                o.source().close();
            } catch (RuntimeException e) {
                LOG.warn("job={} closing dimension table {} failed", job, o.source().description(), e);
            }
        }
        opened.clear();
        fullCaches.clear();
    }
}
