package dev.rsql.runtime.connector.file;

import dev.rsql.runtime.connector.ReaderOutput;
import dev.rsql.runtime.connector.ShardReader;
import dev.rsql.runtime.data.Row;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A file read and decoded ahead of its task on another thread, so that the task's thread only hands the decoded rows
 * on (as Flink's file source gets them from its split fetcher thread). {@link FileShardReader#read} fills batches of
 * lines on a thread of a pool the process's file sources share, one batch of a file at a time, so they come in order,
 * and at most {@link #READY} batches wait. The task gets the rows, bad records and a failure in the order the file
 * gives them, and its position is that of the lines it handed on, not of those read ahead.
 */
final class FileReadAhead implements ShardReader {

    /** Lines read into one batch. */
    static final int BATCH_LINES = 1024;
    /** Batches read ahead at most. */
    private static final int READY = 4;
    private static final ExecutorService READERS = Executors.newFixedThreadPool(
            Math.max(1, Runtime.getRuntime().availableProcessors()), new ReaderThreads());

    private final FileShardReader file;
    // guarded by this: the batches read, and the state of the filling
    private final ArrayDeque<Batch> ready = new ArrayDeque<>();
    private boolean filling;
    private boolean lastRead;
    private boolean closed;
    private Runnable listener;
    // the task's thread only
    private Batch current;
    private int next;
    private long position;
    private boolean ended;

    /** @param startLine the line the file is read from (its position until a line is handed on) */
    FileReadAhead(FileShardReader file, long startLine) {
        this.file = file;
        this.position = startLine;
    }

    @Override
    public String shardId() {
        return file.shardId();
    }

    @Override
    public String description() {
        return file.description();
    }

    /** Hands on up to {@code maxRecords} lines' rows (and bad records); 0 when none is read yet. */
    @Override
    public int read(ReaderOutput output, int maxRecords) throws Exception {
        int lines = 0;
        while (lines < maxRecords && !ended) {
            if (current == null) {
                current = take();
                next = 0;
                if (current == null) {
                    break;
                }
            }
            if (next == current.size) {
                Batch done = current;
                current = null;
                position = done.end;
                if (done.failure != null) {
                    ended = true;
                    throw done.failure;
                }
                ended = done.last;
                continue;
            }
            // a line's rows (a JSON array gives several) go on together
            long line = current.positions[next];
            do {
                current.handOn(next, output);
            } while (++next < current.size && current.positions[next] == line);
            position = line + 1;
            lines++;
        }
        return lines;
    }

    /** The next batch read, or null; starts reading more if none is under way. */
    private synchronized Batch take() {
        Batch b = ready.poll();
        if (!filling && !lastRead && !closed) {
            filling = true;
            READERS.execute(this::fill);
        }
        return b;
    }

    /** On a pool thread: reads a batch, queues it, and goes on unless enough are waiting. */
    private void fill() {
        Batch b = new Batch();
        try {
            file.read(b, BATCH_LINES);
            b.end = file.position();
            b.last = file.isEndOfInput();
        } catch (Exception | Error e) {
            b.end = file.position();
            b.failure = e instanceof Exception ex ? ex : new IllegalStateException("reading " + description(), e);
            b.last = true;
        }
        Runnable wake;
        synchronized (this) {
            if (closed) {
                filling = false;
                notifyAll();
                return;
            }
            ready.add(b);
            lastRead = b.last;
            if (!b.last && ready.size() < READY) {
                READERS.execute(this::fill);
            } else {
                filling = false;
            }
            wake = listener;
        }
        if (wake != null) {
            wake.run();
        }
    }

    @Override
    public boolean isEndOfInput() {
        return ended;
    }

    @Override
    public synchronized void setAvailabilityListener(Runnable listener) {
        this.listener = listener;
    }

    @Override
    public String describePosition(long position) {
        return file.describePosition(position);
    }

    @Override
    public long position() {
        return position;
    }

    @Override
    public void commit(long position) throws Exception {
        file.commit(position);
    }

    /** Waits for a batch being read (a bounded read of the file), then closes the file. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            ready.clear();
            boolean interrupted = false;
            while (filling) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        file.close();
    }

    /** What one read of the file gave: per line its position, and its rows or bad record; then how it ended. */
    private static final class Batch implements ReaderOutput {
        long[] positions = new long[BATCH_LINES];
        /** An {@code Object[]} row, a {@link Row}, or a {@link Bad} record. */
        Object[] items = new Object[BATCH_LINES];
        int size;
        long end;
        boolean last;
        Exception failure;

        @Override
        public void emit(long position, Object[] fields) {
            add(position, fields);
        }

        @Override
        public void emit(long position, Row row) {
            add(position, row);
        }

        @Override
        public void decodeError(long position, byte[] payload, Exception cause) {
            add(position, new Bad(payload, cause));
        }

        private void add(long position, Object item) {
            if (size == items.length) {
                positions = Arrays.copyOf(positions, size * 2);
                items = Arrays.copyOf(items, size * 2);
            }
            positions[size] = position;
            items[size++] = item;
        }

        void handOn(int i, ReaderOutput output) throws Exception {
            Object item = items[i];
            items[i] = null;
            if (item instanceof Object[] fields) {
                output.emit(positions[i], fields);
            } else if (item instanceof Row row) {
                output.emit(positions[i], row);
            } else {
                Bad bad = (Bad) item;
                output.decodeError(positions[i], bad.payload, bad.cause);
            }
        }
    }

    private record Bad(byte[] payload, Exception cause) {
    }

    private static final class ReaderThreads implements java.util.concurrent.ThreadFactory {
        private final AtomicInteger count = new AtomicInteger();

        @Override
        public Thread newThread(Runnable r) {
            Thread t = new Thread(r, "rsql-file-read-ahead-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        }
    }
}
