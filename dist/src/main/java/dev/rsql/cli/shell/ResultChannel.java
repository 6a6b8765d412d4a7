package dev.rsql.cli.shell;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.types.RowType;

import java.time.ZoneId;
import java.util.Collection;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Carries the rows of one live query from the job's sink tasks to the shell, in this process. The sink finds it by
 * its id ({@link ResultSinkFactory}); a full channel holds the writing task back, a closed one drops what it is
 * given, so a task never waits on a shell that stopped reading.
 */
final class ResultChannel implements AutoCloseable {

    private static final Map<String, ResultChannel> OPEN = new ConcurrentHashMap<>();
    private static final int CAPACITY = 10_000;

    private final String id = UUID.randomUUID().toString();
    private final BlockingQueue<Row> rows = new ArrayBlockingQueue<>(CAPACITY);
    private volatile boolean closed;
    private volatile RowType rowType;
    private volatile ZoneId zone;

    static ResultChannel open() {
        ResultChannel channel = new ResultChannel();
        OPEN.put(channel.id, channel);
        return channel;
    }

    /** The channel of an id, or null when no shell query of this process has it open. */
    static ResultChannel find(String id) {
        return id == null ? null : OPEN.get(id);
    }

    String id() {
        return id;
    }

    /** Called by the sink when the job creates it: the result's columns and the zone of its TIMESTAMP_LTZ values. */
    void describe(RowType type, ZoneId timeZone) {
        this.rowType = type;
        this.zone = timeZone;
    }

    RowType rowType() {
        return rowType;
    }

    ZoneId zone() {
        return zone;
    }

    /** From a sink task: waits while the channel is full, unless it is closed. */
    void put(Row row) throws InterruptedException {
        while (!closed) {
            if (rows.offer(row, 50, TimeUnit.MILLISECONDS)) {
                return;
            }
        }
    }

    /** Takes what arrived, waiting up to {@code millis} for the first row; returns how many it took. */
    int drain(Collection<Row> into, long millis) throws InterruptedException {
        Row first = rows.poll(millis, TimeUnit.MILLISECONDS);
        if (first == null) {
            return 0;
        }
        into.add(first);
        return 1 + rows.drainTo(into, 1023);
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    @Override
    public void close() {
        closed = true;
        OPEN.remove(id);
        rows.clear();
    }
}
