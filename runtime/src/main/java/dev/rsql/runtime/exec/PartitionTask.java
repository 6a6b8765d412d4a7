package dev.rsql.runtime.exec;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.exec.exchange.GateReader;
import dev.rsql.runtime.exec.exchange.InputGate;
import dev.rsql.runtime.graph.FunctionException;

/**
 * A task reading one partition of an exchange: the keyed, stateful part of a job. It takes part in a checkpoint when
 * the barrier has arrived on every input channel (aligned), so its state snapshot covers exactly the rows before it.
 */
final class PartitionTask extends Task implements GateReader.Handler {

    private final GateReader reader;
    private final InputGate gate;
    private final int partition;

    PartitionTask(String id, TaskServices services, TaskTopology topology, InputGate gate, int partition,
                  RecordErrorHandler errors) {
        super(id, services, topology, errors);
        TaskSnapshot restored = services.restored(id);
        this.reader = new GateReader(gate, restored == null ? Long.MIN_VALUE : restored.watermark());
        this.gate = gate;
        this.partition = partition;
        gate.setAvailabilityListener(this::wakeUp);
    }

    /** False while no upstream task writes to this partition: a checkpoint then cannot reach it by barrier. */
    boolean hasInputChannels() {
        return !gate.channels().isEmpty();
    }

    @Override
    String description() {
        return "partition " + partition;
    }

    @Override
    int readInput(int budget) throws Exception {
        return reader.read(this, budget);
    }

    @Override
    public void row(Row row) throws Exception {
        recordsIn++;
        head.emit(row);
    }

    @Override
    public void watermark(long watermark) throws Exception {
        head.emitWatermark(watermark);
    }

    @Override
    boolean skipFailedRow(Row row, FunctionException failure) throws Exception {
        return skipFailedRowAfterExchange("partition " + partition, row, failure);
    }

    @Override
    public void barrier(long checkpointId) {
        checkpoint(checkpointId);
    }

    @Override
    public void endOfInput() {
    }

    @Override
    boolean inputEnded() {
        return reader.isEnded();
    }

    @Override
    boolean endOfInputReached() {
        return reader.watermark() == Long.MAX_VALUE;
    }

    @Override
    long position() {
        return -1;
    }

    @Override
    long currentWatermark() {
        return reader.watermark();
    }

    @Override
    void beforeClose(boolean endOfInput) {
    }
}
