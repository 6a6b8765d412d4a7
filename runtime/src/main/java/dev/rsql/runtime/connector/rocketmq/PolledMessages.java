package dev.rsql.runtime.connector.rocketmq;

import org.apache.rocketmq.common.message.MessageExt;

import java.util.List;

/**
 * One poll's messages of one queue, as a task reads them later: their offsets and bodies, and the whole messages
 * only when asked to keep them. A client message with its decoded properties takes about 2 KB of heap, so buffers of
 * thousands of them filled half of a 512 MB heap, and the job spent a third of its CPU collecting.
 *
 * <p>Built by the polling thread, then read by one task thread, which moves its cursor with {@link #advance}.
 */
final class PolledMessages {

    private static final byte[] EMPTY = new byte[0];
    /** What a buffer limit counts per message beyond its body: the arrays' slots, or the whole kept message. */
    private static final int OVERHEAD = 32;
    private static final int KEPT_MESSAGE_OVERHEAD = 2048;

    private final long[] offsets;
    private final byte[][] bodies;
    private final MessageExt[] messages;   // null unless kept
    private final long bytes;
    private int next;

    PolledMessages(List<MessageExt> polled, boolean keepMessages) {
        int n = polled.size();
        offsets = new long[n];
        bodies = new byte[n][];
        messages = keepMessages ? polled.toArray(new MessageExt[0]) : null;
        long size = 0;
        for (int i = 0; i < n; i++) {
            MessageExt m = polled.get(i);
            byte[] body = m.getBody();
            offsets[i] = m.getQueueOffset();
            bodies[i] = body == null ? EMPTY : body;
            size += bodies[i].length + (keepMessages ? KEPT_MESSAGE_OVERHEAD : OVERHEAD);
        }
        bytes = size;
    }

    /** Messages in the poll. */
    int count() {
        return offsets.length;
    }

    /** What the messages count against a buffer's byte limit. */
    long bytes() {
        return bytes;
    }

    boolean hasNext() {
        return next < offsets.length;
    }

    /** Moves to the next message; then {@link #offset}, {@link #body} and {@link #message} are about that one. */
    void advance() {
        next++;
    }

    long offset() {
        return offsets[next - 1];
    }

    /** The body (empty for a message without one). */
    byte[] body() {
        return bodies[next - 1];
    }

    /** The whole message; only if the messages were kept. */
    MessageExt message() {
        return messages[next - 1];
    }
}
