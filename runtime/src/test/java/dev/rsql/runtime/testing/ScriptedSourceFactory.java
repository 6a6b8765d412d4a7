package dev.rsql.runtime.testing;

import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.ConnectorFactory;
import dev.rsql.runtime.connector.ReaderOutput;
import dev.rsql.runtime.connector.ShardListener;
import dev.rsql.runtime.connector.ShardReader;
import dev.rsql.runtime.connector.Source;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Test connector {@code scripted}: a source whose shards the test announces itself — when, how many at a time and
 * from which thread it likes, as a source's rebalancing would — through the listener the job gave the source
 * registered under the option {@code id}. Its {@link Shard}s let the test see and intervene in what the engine does
 * with a reader. Unbounded, unless the option {@code bounded} is {@code true}: then each shard ends when the test
 * {@link Shard#end ends} it.
 */
public final class ScriptedSourceFactory implements ConnectorFactory {

    private static final Map<String, ShardListener> LISTENERS = new ConcurrentHashMap<>();

    /** The listener of the latest started source with this id (the job starts its sources in {@code start()}). */
    public static ShardListener listener(String id) {
        ShardListener l = LISTENERS.get(id);
        if (l == null) {
            throw new IllegalStateException("no scripted source '" + id + "' was started");
        }
        return l;
    }

    @Override
    public String identifier() {
        return "scripted";
    }

    @Override
    public Source createSource(ConnectorContext context) {
        String id = context.options().require("id");
        boolean bounded = "true".equalsIgnoreCase(context.options().get("bounded"));
        return new Source() {
            @Override
            public boolean isBounded() {
                return bounded;
            }

            @Override
            public void start(ShardListener listener) {
                LISTENERS.put(id, listener);
            }

            @Override
            public void close() {
                LISTENERS.remove(id);
            }
        };
    }

    /**
     * A shard over fixed rows (laid out as the table's columns); after the last one it waits for more that never
     * come, or ends once the test says so. Records what the engine did with it, and runs the test's hooks.
     */
    public static final class Shard implements ShardReader {
        private final String id;
        private final List<Object[]> rows;
        private volatile int next;
        private volatile boolean ended;
        private volatile Runnable availability = () -> { };
        /** Run whenever the engine asks the shard's id (it does before creating the shard's task). */
        public volatile Runnable onShardId = () -> { };
        /** Run when the engine connects the shard's task (it sets the availability listener then). */
        public volatile Runnable onTaskCreated = () -> { };
        /** Run before every read. */
        public volatile Runnable onRead = () -> { };
        public volatile boolean taskCreated;
        public volatile boolean read;

        /** A shard starting at {@code position}: where the job's checkpoint says, or 0. */
        public Shard(String id, List<Object[]> rows, long position) {
            this.id = id;
            this.rows = rows;
            this.next = (int) position;
        }

        @Override
        public String shardId() {
            onShardId.run();
            return id;
        }

        @Override
        public String description() {
            return "scripted shard " + id;
        }

        @Override
        public int read(ReaderOutput output, int maxRecords) throws Exception {
            onRead.run();
            read = true;
            int n = 0;
            while (n < maxRecords && next < rows.size()) {
                output.emit(next, rows.get(next).clone());
                next++;
                n++;
            }
            return n;
        }

        /** Adds a row after the others (the shard's row list must allow it) and wakes the shard's task. */
        public void append(Object[] row) {
            rows.add(row);
            availability.run();
        }

        /** Ends the shard after its rows (a bounded source's shard). */
        public void end() {
            ended = true;
            availability.run();
        }

        @Override
        public boolean isEndOfInput() {
            return ended && next >= rows.size();
        }

        @Override
        public void setAvailabilityListener(Runnable listener) {
            onTaskCreated.run();
            availability = listener;
            taskCreated = true;
        }

        @Override
        public String describePosition(long position) {
            return description() + ", row " + position;
        }

        @Override
        public long position() {
            return next;
        }

        @Override
        public void commit(long position) {
        }

        @Override
        public long lag() {
            return rows.size() - next;
        }

        @Override
        public void close() {
        }
    }
}
