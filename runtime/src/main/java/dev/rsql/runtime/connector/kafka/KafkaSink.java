package dev.rsql.runtime.connector.kafka;

import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.Sink;
import dev.rsql.runtime.connector.SinkWriter;
import dev.rsql.runtime.connector.SinkWriterContext;
import dev.rsql.runtime.format.RowEncoder;
import dev.rsql.runtime.table.Column;
import dev.rsql.runtime.table.TableSchema;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Properties;

/**
 * The writable side of a Kafka topic: one idempotent {@link KafkaProducer} per sink table (acks=all, so a retried
 * send is never duplicated), shared by the writers of all tasks; see {@link KafkaSinkWriter}.
 */
final class KafkaSink implements Sink {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaSink.class);

    final KafkaOptions options;
    final ConnectorContext context;
    final String topic;
    final int[] keyColumns;
    final int[] valueColumns;
    final int timestampColumn;     // position of a metadata column 'timestamp', or -1
    final int headersColumn;       // position of a metadata column 'headers', or -1
    final boolean timestampIsWallClock;
    final KafkaOptions.Partitioner partitioner;
    final KafkaOptions.DeliveryGuarantee delivery;
    final ZoneId zone;
    private volatile KafkaProducer<byte[], byte[]> producer;

    KafkaSink(KafkaOptions options, ConnectorContext context) {
        this.options = options;
        this.context = context;
        if (options.topicPattern != null || options.topics.size() != 1) {
            throw options.error(options.topicPattern != null ? KafkaOptions.TOPIC_PATTERN : KafkaOptions.TOPIC,
                    "a Kafka sink writes one topic: set 'topic' to a single name");
        }
        this.topic = options.topics.get(0);
        TableSchema schema = context.table().schema();
        this.keyColumns = options.keyColumns(schema);
        this.valueColumns = options.valueColumns(schema, keyColumns);
        this.partitioner = options.partitioner();
        this.delivery = options.deliveryGuarantee();
        int ts = -1;
        int headers = -1;
        List<Column> columns = schema.columns();
        for (int i = 0; i < columns.size(); i++) {
            Column c = columns.get(i);
            if (!c.isMetadata() || c.isVirtual()) {
                continue;
            }
            KafkaMetadata.Attribute a = KafkaMetadata.attribute(c, options);
            if (!a.writable()) {
                throw options.error(null, "column " + c.name() + ": metadata '" + c.metadataKey() + "' cannot be "
                        + "written; declare it VIRTUAL (a sink writes 'timestamp' and 'headers')");
            }
            if (a == KafkaMetadata.Attribute.TIMESTAMP) {
                ts = i;
            } else {
                headers = i;
            }
        }
        this.timestampColumn = ts;
        this.headersColumn = headers;
        this.timestampIsWallClock = ts >= 0
                && columns.get(ts).type().kind() == dev.rsql.runtime.types.DataType.Kind.TIMESTAMP;
        String z = context.job().config().get("table.local-time-zone");
        ZoneId zoneId;
        try {
            zoneId = z == null || z.isBlank() || z.equalsIgnoreCase("default") ? ZoneId.systemDefault() : ZoneId.of(z);
        } catch (RuntimeException e) {
            zoneId = ZoneId.systemDefault();
        }
        this.zone = zoneId;
        newValueEncoder();
        newKeyEncoder();
    }

    RowEncoder newValueEncoder() {
        return context.createEncoder("json", KafkaOptions.project(context.table().schema().rowType(), valueColumns));
    }

    /** Null when the message has no key. */
    RowEncoder newKeyEncoder() {
        if (keyColumns.length == 0) {
            return null;
        }
        return context.createEncoder(KafkaOptions.KEY_FORMAT, "json",
                KafkaOptions.project(context.table().schema().rowType(), keyColumns));
    }

    /** The shared producer, created with the first writer. */
    KafkaProducer<byte[], byte[]> producer() {
        KafkaProducer<byte[], byte[]> p = producer;
        if (p != null) {
            return p;
        }
        synchronized (this) {
            if (producer == null) {
                Properties props = options.clientProperties("producer");
                props.putIfAbsent(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
                props.putIfAbsent(ProducerConfig.ACKS_CONFIG, "all");
                props.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, "5");
                try {
                    producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
                } catch (KafkaException e) {
                    throw options.error(KafkaOptions.BOOTSTRAP, "cannot create the Kafka producer: "
                            + options.options.redact(e.getMessage()));
                }
                LOG.info("job={} table={}: writing topic {} on {} (partitioner {}, delivery {}, idempotent {})",
                        options.job, options.table, topic, options.bootstrapServers,
                        partitioner.name().toLowerCase(), delivery.name().toLowerCase().replace('_', '-'),
                        props.getProperty(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG));
            }
            return producer;
        }
    }

    @Override
    public SinkWriter createWriter(SinkWriterContext writerContext) {
        return new KafkaSinkWriter(this, writerContext);
    }

    @Override
    public void close() {
        KafkaProducer<byte[], byte[]> p = producer;
        if (p != null) {
            p.close(Duration.ofSeconds(30));
        }
    }
}
