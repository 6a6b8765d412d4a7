package dev.rsql.runtime.exec.exchange;

import dev.rsql.runtime.data.Row;

import java.util.List;

/**
 * Reads the channels of an {@link InputGate} for its partition task: rows in arrival order per channel, the
 * watermark as the minimum over channels that are neither idle nor ended, and checkpoint barriers aligned — a channel
 * that delivered barrier n is held back until every other channel has delivered it too, so the task's state at the
 * barrier reflects exactly the rows before it.
 */
public final class GateReader {

    /** What the partition task does with what arrives. */
    public interface Handler {
        void row(Row row) throws Exception;

        void watermark(long watermark) throws Exception;

        void barrier(long checkpointId) throws Exception;

        void endOfInput() throws Exception;
    }

    private final InputGate gate;
    private long watermark;
    private long pendingBarrier = -1;
    private int start;
    private boolean ended;

    public GateReader(InputGate gate, long restoredWatermark) {
        this.gate = gate;
        this.watermark = restoredWatermark;
    }

    public long watermark() {
        return watermark;
    }

    public boolean isEnded() {
        return ended;
    }

    /** Handles up to {@code budget} elements; returns how many were read (0: nothing available now). */
    public int read(Handler handler, int budget) throws Exception {
        List<Channel> channels = gate.channels();
        int n = channels.size();
        int read = 0;
        boolean progress = true;
        while (read < budget && progress && !ended) {
            progress = false;
            for (int k = 0; k < n && read < budget && !ended; k++) {
                Channel c = channels.get((start + k) % n);
                if (c.blocked || c.ended) {
                    continue;
                }
                Object e = c.poll();
                if (e == null) {
                    continue;
                }
                progress = true;
                read++;
                if (e instanceof Row) {
                    handler.row((Row) e);
                } else {
                    event(c, (StreamEvent) e, channels, handler);
                }
            }
            start = n == 0 ? 0 : (start + 1) % n;
        }
        return read;
    }

    private void event(Channel c, StreamEvent e, List<Channel> channels, Handler handler) throws Exception {
        if (e instanceof StreamEvent.Watermark) {
            c.watermark = Math.max(c.watermark, ((StreamEvent.Watermark) e).time());
            c.idle = false;
            advance(channels, handler);
        } else if (e instanceof StreamEvent.Barrier) {
            long id = ((StreamEvent.Barrier) e).id();
            pendingBarrier = Math.max(pendingBarrier, id);
            c.blocked = true;
            align(channels, handler);
        } else if (e == StreamEvent.Status.IDLE) {
            c.idle = true;
            advance(channels, handler);
        } else if (e == StreamEvent.Status.ACTIVE) {
            c.idle = false;
        } else {
            c.ended = true;
            c.blocked = false;
            advance(channels, handler);
            align(channels, handler);
            if (channels.stream().allMatch(ch -> ch.ended)) {
                ended = true;
                handler.endOfInput();
            }
        }
    }

    private void advance(List<Channel> channels, Handler handler) throws Exception {
        long min = Long.MAX_VALUE;
        boolean any = false;
        for (Channel c : channels) {
            if (!c.ended && !c.idle) {
                min = Math.min(min, c.watermark);
                any = true;
            }
        }
        if (!any) {
            // All idle or ended: hold. A bounded input sends its final watermark before it ends; a stopped one does
            // not, and its open windows must stay open for the restart.
            return;
        }
        if (min > watermark) {
            watermark = min;
            handler.watermark(min);
        }
    }

    private void align(List<Channel> channels, Handler handler) throws Exception {
        if (pendingBarrier < 0) {
            return;
        }
        for (Channel c : channels) {
            if (!c.ended && !c.blocked && c.firstCheckpoint() <= pendingBarrier) {
                return;
            }
        }
        long id = pendingBarrier;
        pendingBarrier = -1;
        for (Channel c : channels) {
            c.blocked = false;
        }
        handler.barrier(id);
    }
}
