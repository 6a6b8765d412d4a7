package dev.rsql.runtime.connector.blackhole;

import dev.rsql.runtime.connector.Sink;
import dev.rsql.runtime.connector.SinkWriter;
import dev.rsql.runtime.connector.SinkWriterContext;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Discards the rows written to one table, counting them by kind. Each writer counts in plain fields (it is used by
 * one task thread) and adds its counts to the sink's when it closes, so a row costs no shared write.
 */
public final class BlackholeSink implements Sink {

    private static final Logger LOG = LoggerFactory.getLogger(BlackholeSink.class);

    private final String job;
    private final String table;
    private final AtomicLongArray discarded = new AtomicLongArray(RowKind.values().length);

    BlackholeSink(String job, String table) {
        this.job = job;
        this.table = table;
    }

    /** Rows of the given kind discarded by the writers closed so far. */
    public long discarded(RowKind kind) {
        return discarded.get(kind.ordinal());
    }

    /** Rows of every kind discarded by the writers closed so far. */
    public long discarded() {
        long n = 0;
        for (RowKind kind : RowKind.values()) {
            n += discarded(kind);
        }
        return n;
    }

    @Override
    public SinkWriter createWriter(SinkWriterContext context) {
        return new SinkWriter() {
            private final long[] counts = new long[RowKind.values().length];

            @Override
            public void write(Row row) {
                counts[row.kind().ordinal()]++;
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
                for (int i = 0; i < counts.length; i++) {
                    discarded.addAndGet(i, counts[i]);
                    counts[i] = 0;
                }
            }
        };
    }

    @Override
    public void close() {
        StringBuilder kinds = new StringBuilder();
        for (RowKind kind : RowKind.values()) {
            long n = discarded(kind);
            if (n > 0) {
                kinds.append(kinds.length() == 0 ? " (" : ", ").append(kind.shortString()).append(' ').append(n);
            }
        }
        if (kinds.length() > 0) {
            kinds.append(')');
        }
        LOG.info("job={} blackhole sink {} discarded {} rows{}", job, table, discarded(), kinds);
    }
}
