package dev.rsql.runtime.metrics;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.operator.Operator;
import dev.rsql.runtime.operator.Output;

/**
 * The counters of one operator in one task: rows in, rows out, late rows. The task's own thread counts in plain
 * fields and {@link TaskMetrics#publish publishes} them after each slice; readers on other threads see only the
 * published copies, so counting costs an increment per row and no synchronisation.
 */
public final class OperatorMetrics {

    private final String operatorId;
    private final String kind;
    /** True for a sink or an exchange: its rows in are rows out of the task. */
    private final boolean leavesTask;

    // Written by the task's thread only.
    private long recordsIn;
    private long recordsOut;

    private volatile long publishedIn;
    private volatile long publishedOut;
    private volatile long publishedLate;

    public OperatorMetrics(String operatorId, String kind, boolean leavesTask) {
        this.operatorId = operatorId;
        this.kind = kind;
        this.leavesTask = leavesTask;
    }

    /** What one operator did, as last published. */
    public record Snapshot(String operator, String kind, long recordsIn, long recordsOut, long lateRecords) {
    }

    /**
     * The input of {@code op} from one producer: counts the row in for the operator, and out for {@code producer}
     * unless that is null (the producer's rows are counted on another of its outputs, or it has no metrics).
     */
    public Output input(Operator op, OperatorMetrics producer) {
        OperatorMetrics consumer = this;
        if (producer == null) {
            return new Output() {
                @Override
                public void emit(Row row) throws Exception {
                    consumer.recordsIn++;
                    op.process(row);
                }

                @Override
                public void emitWatermark(long watermark) throws Exception {
                    op.processWatermark(watermark);
                }
            };
        }
        return new Output() {
            @Override
            public void emit(Row row) throws Exception {
                producer.recordsOut++;
                consumer.recordsIn++;
                op.process(row);
            }

            @Override
            public void emitWatermark(long watermark) throws Exception {
                op.processWatermark(watermark);
            }
        };
    }

    /** {@code out}, counting each row as one out of this operator (an output that is not an operator's input). */
    public Output countingOut(Output out) {
        return new Output() {
            @Override
            public void emit(Row row) throws Exception {
                recordsOut++;
                out.emit(row);
            }

            @Override
            public void emitWatermark(long watermark) throws Exception {
                out.emitWatermark(watermark);
            }
        };
    }

    /** On the task's thread: makes the counts so far visible to readers. */
    void publish(long lateRecords) {
        publishedIn = recordsIn;
        publishedOut = recordsOut;
        publishedLate = lateRecords;
    }

    boolean leavesTask() {
        return leavesTask;
    }

    long publishedIn() {
        return publishedIn;
    }

    Snapshot snapshot() {
        return new Snapshot(operatorId, kind, publishedIn, publishedOut, publishedLate);
    }
}
