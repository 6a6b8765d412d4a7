package dev.rsql.runtime.exec.exchange;

import dev.rsql.runtime.data.Row;

import java.util.ArrayList;
import java.util.List;

/**
 * The upstream end of an exchange inside a task: sorts rows by partition into batches and pushes them into the
 * channels. Watermarks go to every partition (a newer one replaces an older one still waiting in a batch); barriers,
 * idleness and the end of input go to every partition after everything before them.
 */
public final class ExchangeWriter implements StageOutput {

    private static final int BATCH = 512;

    private final LocalExchange exchange;
    private final Channel[] channels;
    private final List<Object>[] pending;

    @SuppressWarnings("unchecked")
    public ExchangeWriter(LocalExchange exchange, Runnable ownerWakeup, long firstCheckpoint) {
        this.exchange = exchange;
        this.channels = exchange.connect(ownerWakeup, firstCheckpoint);
        this.pending = new List[channels.length];
        for (int i = 0; i < pending.length; i++) {
            pending[i] = new ArrayList<>(BATCH);
        }
    }

    @Override
    public void process(Row row) {
        int p = exchange.partitionOf(row.fields());
        List<Object> batch = pending[p];
        batch.add(row);
        if (batch.size() >= BATCH) {
            push(p);
        }
    }

    @Override
    public void processWatermark(long watermark) {
        StreamEvent.Watermark w = new StreamEvent.Watermark(watermark);
        for (List<Object> batch : pending) {
            int last = batch.size() - 1;
            if (last >= 0 && batch.get(last) instanceof StreamEvent.Watermark) {
                batch.set(last, w);
            } else {
                batch.add(w);
            }
        }
    }

    @Override
    public void markIdle(boolean idle) {
        broadcast(idle ? StreamEvent.Status.IDLE : StreamEvent.Status.ACTIVE);
    }

    @Override
    public void barrier(long checkpointId) {
        broadcast(new StreamEvent.Barrier(checkpointId));
    }

    @Override
    public void endOfStream() {
        broadcast(StreamEvent.Status.END);
    }

    /** Sends an event to every partition, after everything before it. */
    private void broadcast(StreamEvent event) {
        for (int p = 0; p < pending.length; p++) {
            pending[p].add(event);
            push(p);
        }
    }

    /** Pushes every pending batch (end of a task slice, before a barrier). */
    @Override
    public void flush() {
        for (int p = 0; p < pending.length; p++) {
            push(p);
        }
    }

    private void push(int p) {
        if (!pending[p].isEmpty()) {
            channels[p].push(pending[p]);
            pending[p] = new ArrayList<>(BATCH);
        }
    }

    @Override
    public boolean isCongested() {
        for (Channel c : channels) {
            if (c.isCongested()) {
                return true;
            }
        }
        return false;
    }
}
