package dev.rsql.runtime.connector.kafka;

import dev.rsql.runtime.table.Column;
import dev.rsql.runtime.types.DataType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The record attributes a Kafka table reads as metadata columns ({@code col TYPE METADATA FROM 'key' [VIRTUAL]}), as
 * in Flink: {@code topic} STRING, {@code partition} INT, {@code offset} BIGINT, {@code timestamp} TIMESTAMP_LTZ(3)
 * (TIMESTAMP(3) in the engine time zone and BIGINT epoch milliseconds accepted too), {@code timestamp-type} STRING,
 * {@code leader-epoch} INT, {@code headers} MAP&lt;STRING, BYTES&gt; (MAP&lt;STRING, STRING&gt; accepted). A sink
 * writes {@code headers} and {@code timestamp}; the others are read-only (declare them VIRTUAL).
 */
final class KafkaMetadata {

    enum Attribute {
        TOPIC, PARTITION, OFFSET, TIMESTAMP, TIMESTAMP_TYPE, LEADER_EPOCH, HEADERS;

        boolean writable() {
            return this == TIMESTAMP || this == HEADERS;
        }
    }

    private KafkaMetadata() {
    }

    /** The attribute a column reads, or an error message naming what is wrong with it. */
    static Attribute attribute(Column column, KafkaOptions options) {
        String key = column.metadataKey().trim().toLowerCase(Locale.ROOT);
        Attribute a;
        switch (key) {
            case "topic":
                a = Attribute.TOPIC;
                break;
            case "partition":
                a = Attribute.PARTITION;
                break;
            case "offset":
                a = Attribute.OFFSET;
                break;
            case "timestamp":
                a = Attribute.TIMESTAMP;
                break;
            case "timestamp-type":
                a = Attribute.TIMESTAMP_TYPE;
                break;
            case "leader-epoch":
                a = Attribute.LEADER_EPOCH;
                break;
            case "headers":
                a = Attribute.HEADERS;
                break;
            default:
                throw options.error(null, "column " + column.name() + ": unknown metadata key '"
                        + column.metadataKey() + "'; a Kafka record has topic, partition, offset, timestamp, "
                        + "timestamp-type, leader-epoch, headers");
        }
        DataType.Kind kind = column.type().kind();
        boolean fits;
        switch (a) {
            case TOPIC:
            case TIMESTAMP_TYPE:
                fits = kind.isCharacter();
                break;
            case PARTITION:
            case LEADER_EPOCH:
                fits = kind == DataType.Kind.INT || kind == DataType.Kind.BIGINT;
                break;
            case OFFSET:
                fits = kind == DataType.Kind.BIGINT;
                break;
            case TIMESTAMP:
                fits = kind == DataType.Kind.TIMESTAMP_LTZ || kind == DataType.Kind.TIMESTAMP
                        || kind == DataType.Kind.BIGINT;
                break;
            default:
                fits = kind == DataType.Kind.MAP && column.type().keyType().kind().isCharacter()
                        && (column.type().valueType().kind().isBinary()
                        || column.type().valueType().kind().isCharacter());
        }
        if (!fits) {
            throw options.error(null, "column " + column.name() + ": metadata '" + key + "' cannot be read as "
                    + column.type() + " (see the types of Kafka metadata: topic STRING, partition INT, offset BIGINT, "
                    + "timestamp TIMESTAMP_LTZ(3), headers MAP<STRING, BYTES>)");
        }
        return a;
    }

    /** Reads one metadata column of a source table from a record. */
    static final class Reader {
        private final int position;
        private final Attribute attribute;
        private final DataType type;
        private final ZoneId zone;

        Reader(int position, Column column, KafkaOptions options, ZoneId zone) {
            this.position = position;
            this.attribute = attribute(column, options);
            this.type = column.type();
            this.zone = zone;
        }

        void read(ConsumerRecord<byte[], byte[]> record, Object[] row) {
            Object v;
            switch (attribute) {
                case TOPIC:
                    v = record.topic();
                    break;
                case PARTITION:
                    v = widen(record.partition());
                    break;
                case OFFSET:
                    v = record.offset();
                    break;
                case TIMESTAMP:
                    v = record.timestamp() < 0 ? null : timestamp(record.timestamp());
                    break;
                case TIMESTAMP_TYPE:
                    v = record.timestampType().name;
                    break;
                case LEADER_EPOCH:
                    v = record.leaderEpoch().map(this::widen).orElse(null);
                    break;
                default:
                    v = headers(record);
            }
            row[position] = v;
        }

        private Object widen(int value) {
            return type.kind() == DataType.Kind.BIGINT ? (Object) (long) value : (Object) value;
        }

        /** TIMESTAMP_LTZ and BIGINT hold epoch millis; TIMESTAMP the wall-clock time in the engine zone. */
        private long timestamp(long millis) {
            if (type.kind() != DataType.Kind.TIMESTAMP) {
                return millis;
            }
            return millis + zone.getRules().getOffset(Instant.ofEpochMilli(millis)).getTotalSeconds() * 1000L;
        }

        private Map<String, Object> headers(ConsumerRecord<byte[], byte[]> record) {
            boolean text = type.valueType().kind().isCharacter();
            Map<String, Object> out = new LinkedHashMap<>();
            for (Header h : record.headers()) {
                byte[] value = h.value();
                out.put(h.key(), value == null || !text ? value : new String(value, StandardCharsets.UTF_8));
            }
            return out;
        }
    }

    /** Header bytes of a sink's MAP value (BYTES or STRING). */
    static byte[] headerBytes(Object value) {
        if (value == null || value instanceof byte[]) {
            return (byte[]) value;
        }
        return value.toString().getBytes(StandardCharsets.UTF_8);
    }
}
