package dev.rsql.runtime.exec.exchange;

/** What travels between tasks besides rows. */
public sealed interface StreamEvent permits StreamEvent.Watermark, StreamEvent.Barrier, StreamEvent.Status {

    /** Event time of the sending task has reached {@code time}. */
    record Watermark(long time) implements StreamEvent {
    }

    /** Everything the sender sent before this belongs to checkpoint {@code id}. */
    record Barrier(long id) implements StreamEvent {
    }

    /** The sender has no data for now (left out of the watermark), has data again, or has ended. */
    enum Status implements StreamEvent { IDLE, ACTIVE, END }
}
