package dev.rsql.runtime.connector.kafka;

import dev.rsql.runtime.connector.SinkWriter;
import dev.rsql.runtime.connector.SinkWriterContext;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.format.RowEncoder;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Writes one task's rows as records of the sink's topic: the key encoded from {@code key.fields} with
 * {@code key.format}, the value from the value columns, the headers and timestamp from their metadata columns.
 * Sends are asynchronous; {@link #flush} waits until every record this writer sent is acknowledged and reports the
 * first failure, so a checkpoint completes only when its rows are stored (at-least-once; {@code none} does not wait).
 *
 * <p>{@code upsert-kafka}: a DELETE becomes a tombstone (the key with a null value), UPDATE_BEFORE is not written
 * (the UPDATE_AFTER with the same key replaces it).
 */
final class KafkaSinkWriter implements SinkWriter {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaSinkWriter.class);

    private final KafkaSink sink;
    private final String taskId;
    private final int taskIndex;
    private final KafkaProducer<byte[], byte[]> producer;
    private final RowEncoder valueEncoder;
    private final RowEncoder keyEncoder;
    private final Object[] keyFields;
    private final Object[] valueFields;
    private final AtomicLong unacknowledged = new AtomicLong();
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private final Callback callback;
    private int roundRobin;
    private int partitions = -1;

    KafkaSinkWriter(KafkaSink sink, SinkWriterContext context) {
        this.sink = sink;
        this.taskId = context.taskId();
        this.taskIndex = context.taskIndex();
        this.producer = sink.producer();
        this.valueEncoder = sink.newValueEncoder();
        this.keyEncoder = sink.newKeyEncoder();
        this.keyFields = new Object[sink.keyColumns.length];
        this.valueFields = new Object[sink.valueColumns.length];
        this.callback = (metadata, e) -> {
            if (e != null && failure.compareAndSet(null, e)) {
                LOG.error("table={} task={}: writing to topic {} failed", sink.options.table, taskId, sink.topic, e);
            }
            unacknowledged.decrementAndGet();
        };
        this.roundRobin = taskIndex;
    }

    @Override
    public void write(Row row) throws Exception {
        throwFailure();
        boolean tombstone = false;
        if (sink.options.upsert) {
            if (row.kind() == RowKind.UPDATE_BEFORE) {
                return;
            }
            tombstone = row.kind() == RowKind.DELETE;
        }
        Object[] fields = row.fields();
        byte[] key = null;
        if (keyEncoder != null) {
            for (int i = 0; i < keyFields.length; i++) {
                keyFields[i] = fields[sink.keyColumns[i]];
            }
            key = keyEncoder.encode(Row.insert(keyFields));
        }
        byte[] value = null;
        if (!tombstone) {
            for (int i = 0; i < valueFields.length; i++) {
                valueFields[i] = fields[sink.valueColumns[i]];
            }
            // An upsert record is the key's current row: no change flag in the value.
            value = valueEncoder.encode(new Row(sink.options.upsert ? RowKind.INSERT : row.kind(), valueFields));
        }
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(sink.topic, partition(), timestamp(fields), key,
                value, headers(fields));
        unacknowledged.incrementAndGet();
        try {
            producer.send(record, callback);
        } catch (RuntimeException e) {
            unacknowledged.decrementAndGet();
            throw new IllegalStateException("table " + sink.options.table + ": cannot write to topic " + sink.topic
                    + ": " + e.getMessage(), e);
        }
    }

    /** Null for Kafka's default partitioner (hash of the key, sticky batches without one). */
    private Integer partition() {
        if (sink.partitioner == KafkaOptions.Partitioner.DEFAULT) {
            return null;
        }
        if (partitions < 0) {
            partitions = producer.partitionsFor(sink.topic).size();
        }
        if (sink.partitioner == KafkaOptions.Partitioner.FIXED) {
            return taskIndex % partitions;
        }
        roundRobin = (roundRobin + 1) % partitions;
        return roundRobin;
    }

    private Long timestamp(Object[] fields) {
        if (sink.timestampColumn < 0 || fields[sink.timestampColumn] == null) {
            return null;
        }
        long v = ((Number) fields[sink.timestampColumn]).longValue();
        if (!sink.timestampIsWallClock) {
            return v;
        }
        // A TIMESTAMP holds the wall-clock time of the engine zone; Kafka wants epoch millis.
        return v - sink.zone.getRules().getOffset(Instant.ofEpochMilli(v)).getTotalSeconds() * 1000L;
    }

    private RecordHeaders headers(Object[] fields) {
        if (sink.headersColumn < 0 || fields[sink.headersColumn] == null) {
            return null;
        }
        RecordHeaders headers = new RecordHeaders();
        for (Map.Entry<?, ?> e : ((Map<?, ?>) fields[sink.headersColumn]).entrySet()) {
            headers.add(String.valueOf(e.getKey()), KafkaMetadata.headerBytes(e.getValue()));
        }
        return headers;
    }

    private void throwFailure() throws Exception {
        Exception e = failure.get();
        if (e != null) {
            throw new IllegalStateException("table " + sink.options.table + ": writing to topic " + sink.topic
                    + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void flush() throws Exception {
        if (sink.delivery != KafkaOptions.DeliveryGuarantee.NONE && unacknowledged.get() > 0) {
            // Waits for every record sent so far by the shared producer, this writer's among them.
            producer.flush();
        }
        throwFailure();
    }

    @Override
    public void close() throws Exception {
        if (failure.get() == null) {
            flush();
        }
    }
}
