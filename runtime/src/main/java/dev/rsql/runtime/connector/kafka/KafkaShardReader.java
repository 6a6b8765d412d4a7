package dev.rsql.runtime.connector.kafka;

import dev.rsql.runtime.connector.DecodedRows;
import dev.rsql.runtime.connector.ReaderOutput;
import dev.rsql.runtime.connector.ShardReader;
import dev.rsql.runtime.format.DecodeException;
import dev.rsql.runtime.format.RowDecoder;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reads one partition assigned to this process. The source's poller thread {@link #offer}s fetched records into a
 * bounded buffer ({@code scan.partition-buffer-size} records); the task thread decodes them in {@link #read}. A full
 * buffer pauses the partition at the consumer until the task has drained half of it.
 *
 * <p>{@link #position()} is the next offset to read; {@link #commit} stores it as the group's committed offset.
 */
final class KafkaShardReader implements ShardReader {

    private static final byte[] EMPTY = new byte[0];

    private final KafkaSource source;
    private final TopicPartition partition;
    private final String shardId;
    private final String description;
    private final RowDecoder valueDecoder;
    private final RowDecoder keyDecoder;       // null when the key is not read
    private final int[] keyColumns;
    private final KafkaMetadata.Reader[] metadata;
    private final int capacity;

    private final ConcurrentLinkedQueue<ConsumerRecord<byte[], byte[]>> buffer = new ConcurrentLinkedQueue<>();
    private final AtomicInteger buffered = new AtomicInteger();
    private final AtomicBoolean waiting = new AtomicBoolean();
    private final AtomicBoolean paused = new AtomicBoolean();
    private volatile Runnable availabilityListener;
    private volatile boolean revoked;
    private volatile boolean lost;
    private volatile boolean closed;
    /** Records the broker has beyond those fetched, as the poller last saw it; -1 unknown. */
    private volatile long unfetched = -1;

    private volatile long nextOffset;
    private final DecodedRows decoded = new DecodedRows();
    private final List<Object[]> keyRows = new ArrayList<>(1);

    KafkaShardReader(KafkaSource source, TopicPartition partition, long startOffset, RowDecoder valueDecoder,
                     RowDecoder keyDecoder, int[] keyColumns, KafkaMetadata.Reader[] metadata, int capacity) {
        this.source = source;
        this.partition = partition;
        this.shardId = shardId(partition);
        this.description = "topic " + partition.topic() + ", partition " + partition.partition();
        this.nextOffset = startOffset;
        this.valueDecoder = valueDecoder;
        this.keyDecoder = keyDecoder;
        this.keyColumns = keyColumns;
        this.metadata = metadata;
        this.capacity = capacity;
    }

    static String shardId(TopicPartition partition) {
        return partition.topic() + "-" + partition.partition();
    }

    TopicPartition partition() {
        return partition;
    }

    // ---- poller side ----

    /** Buffers fetched records; returns true when the buffer is full and the partition should be paused. */
    boolean offer(List<ConsumerRecord<byte[], byte[]>> records, long lagAfter) {
        unfetched = lagAfter;
        if (revoked || closed) {
            return false;
        }
        buffer.addAll(records);
        int size = buffered.addAndGet(records.size());
        if (waiting.compareAndSet(true, false)) {
            Runnable l = availabilityListener;
            if (l != null) {
                l.run();
            }
        }
        return size >= capacity && paused.compareAndSet(false, true);
    }

    void revoke() {
        revoked = true;
    }

    /** The partition went to another member before this one could give it up: its offsets are not committed. */
    void lose() {
        lost = true;
    }

    boolean isLost() {
        return lost;
    }

    // ---- task side ----

    @Override
    public String shardId() {
        return shardId;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public int read(ReaderOutput output, int maxRecords) throws Exception {
        int n = 0;
        while (n < maxRecords) {
            ConsumerRecord<byte[], byte[]> record = buffer.poll();
            if (record == null) {
                waiting.set(true);
                if (buffer.isEmpty()) {
                    break;
                }
                waiting.set(false);
                continue;
            }
            if (buffered.decrementAndGet() <= capacity / 2 && paused.compareAndSet(true, false)) {
                source.resume(partition);
            }
            long offset = record.offset();
            if (offset < nextOffset) {
                continue;   // before the start position or already handed out: never read twice
            }
            nextOffset = offset + 1;
            n++;
            byte[] value = record.value();
            decoded.clear();
            try {
                // A tombstone (null value) carries no row.
                if (value != null) {
                    valueDecoder.decodeChangelog(value, 0, value.length, decoded);
                }
                if (keyDecoder != null && !decoded.isEmpty()) {
                    copyKey(record.key());
                }
                for (int i = 0; i < decoded.size(); i++) {
                    for (KafkaMetadata.Reader m : metadata) {
                        m.read(record, decoded.fields(i));
                    }
                }
            } catch (DecodeException e) {
                output.decodeError(offset, value == null ? EMPTY : value, e);
                continue;
            }
            decoded.emitTo(offset, output);
        }
        return n;
    }

    /** Decodes the message key once and copies its fields into every row of the value. */
    private void copyKey(byte[] key) throws DecodeException {
        if (key == null) {
            return;
        }
        keyRows.clear();
        keyDecoder.decode(key, keyRows::add);
        if (keyRows.isEmpty()) {
            return;
        }
        Object[] k = keyRows.get(0);
        for (int i = 0; i < decoded.size(); i++) {
            for (int c : keyColumns) {
                decoded.fields(i)[c] = k[c];
            }
        }
    }

    @Override
    public boolean isEndOfInput() {
        return false;
    }

    @Override
    public void setAvailabilityListener(Runnable listener) {
        this.availabilityListener = listener;
    }

    @Override
    public String describePosition(long position) {
        return description + ", offset " + position;
    }

    @Override
    public long position() {
        return nextOffset;
    }

    @Override
    public void commit(long position) throws Exception {
        source.commit(this, position);
    }

    @Override
    public long lag() {
        long u = unfetched;
        return u < 0 ? -1 : u + buffered.get();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        buffer.clear();
        buffered.set(0);
        source.readerClosed(this);
    }

    @Override
    public String toString() {
        return describePosition(nextOffset);
    }
}
