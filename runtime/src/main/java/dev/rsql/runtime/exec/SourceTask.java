package dev.rsql.runtime.exec;

import dev.rsql.runtime.connector.ReaderOutput;
import dev.rsql.runtime.connector.ShardReader;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.exec.exchange.StageOutput;
import dev.rsql.runtime.graph.FunctionException;

import java.util.Map;
import java.util.TreeMap;

/**
 * A task reading one source shard. It starts checkpoints: at a checkpoint it records the shard position its output
 * covers and sends a barrier downstream; the position is committed once the checkpoint is complete everywhere. A
 * shard with nothing left to read for the idle timeout is marked idle downstream, so it does not hold the watermark
 * back — time never advances by the clock while records are waiting.
 */
final class SourceTask extends Task implements ReaderOutput {

    private final ShardReader reader;
    private final boolean commitOnFinish;
    private final long idleTimeoutMillis;
    private final Map<Long, Long> checkpointPositions = new TreeMap<>();
    private long committedPosition = -1;
    /** The position of the record being processed, for errors raised while it is. */
    private long currentPosition = -1;
    private long lastRecordMillis = System.currentTimeMillis();
    private boolean idle;
    private boolean idleCheckScheduled;

    /**
     * @param commitOnFinish commit the position when the task ends without a checkpoint (jobs without state: the
     *                       sinks hold everything)
     * @param idleTimeoutMillis 0 to never mark the shard idle
     */
    SourceTask(String id, TaskServices services, TaskTopology topology, ShardReader reader,
               RecordErrorHandler errorHandler, boolean commitOnFinish, long idleTimeoutMillis) {
        super(id, services, topology, errorHandler);
        this.reader = reader;
        this.commitOnFinish = commitOnFinish;
        this.idleTimeoutMillis = idleTimeoutMillis;
        reader.setAvailabilityListener(this::wakeUp);
    }

    ShardReader reader() {
        return reader;
    }

    @Override
    String description() {
        return reader.description();
    }

    @Override
    int readInput(int budget) throws Exception {
        int n = reader.read(this, budget);
        if (n > 0) {
            lastRecordMillis = System.currentTimeMillis();
            if (idle) {
                idle = false;
                for (StageOutput w : topology.stageOutputs()) {
                    w.markIdle(false);
                }
            }
        }
        return n;
    }

    @Override
    boolean inputEnded() {
        return reader.isEndOfInput();
    }

    @Override
    void afterSlice(int records) {
        if (records > 0 || idle || idleTimeoutMillis <= 0 || reader.isEndOfInput() || reader.lag() != 0) {
            return;
        }
        long idleFor = System.currentTimeMillis() - lastRecordMillis;
        if (idleFor >= idleTimeoutMillis) {
            idle = true;
            for (StageOutput w : topology.stageOutputs()) {
                w.markIdle(true);
            }
        } else if (!idleCheckScheduled) {
            idleCheckScheduled = true;
            sendMailLater(() -> idleCheckScheduled = false, idleTimeoutMillis - idleFor);
        }
    }

    @Override
    public void emit(long position, Object[] fields) throws Exception {
        emit(position, Row.insert(fields));
    }

    @Override
    public void emit(long position, Row row) throws Exception {
        currentPosition = position; // before recordsIn: the watchdog reads it after that
        recordsIn++;
        try {
            head.emit(row);
        } catch (Exception e) {
            throw RecordException.processing(services.jobName(), id, errors.tableName(),
                    reader.describePosition(position), e);
        }
    }

    @Override
    boolean skipFailedRow(Row row, FunctionException failure) throws Exception {
        return errors.functionError(reader.describePosition(currentPosition), row, failure);
    }

    @Override
    public void decodeError(long position, byte[] payload, Exception cause) throws Exception {
        errors.decodeError(reader.describePosition(position), payload, cause);
    }

    @Override
    long position() {
        return reader.position();
    }

    @Override
    String currentRecord() {
        return reader.describePosition(currentPosition);
    }

    @Override
    long inputPosition() {
        return currentPosition;
    }

    @Override
    long currentWatermark() {
        return topology.watermarkAssigner() == null ? Long.MIN_VALUE : topology.watermarkAssigner().currentWatermark();
    }

    /** A drained bounded shard ends event time too: every window still open can fire. */
    @Override
    boolean endOfInputReached() throws Exception {
        head.emitWatermark(Long.MAX_VALUE);
        return true;
    }

    @Override
    void recordCheckpoint(long checkpointId, long position) {
        checkpointPositions.put(checkpointId, position);
    }

    @Override
    void checkpointComplete(long checkpointId) throws Exception {
        Long position = null;
        for (var it = checkpointPositions.entrySet().iterator(); it.hasNext(); ) {
            var e = it.next();
            if (e.getKey() > checkpointId) {
                break;
            }
            position = e.getValue();
            it.remove();
        }
        if (position != null) {
            commit(position);
        }
    }

    private void commit(long position) throws Exception {
        if (position != committedPosition) {
            reader.commit(position);
            committedPosition = position;
        }
    }

    @Override
    void beforeClose(boolean endOfInput) throws Exception {
        if (commitOnFinish) {
            commit(reader.position());
        }
    }

    @Override
    void closeInput() {
        reader.close();
    }

    @Override
    long lag() {
        return reader.lag();
    }
}
