package dev.rsql.runtime.connector.kafka;

import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.ConnectorFactory;
import dev.rsql.runtime.connector.Sink;
import dev.rsql.runtime.connector.Source;
import dev.rsql.runtime.format.FormatRegistry;

/**
 * Connector {@code kafka}: reads and writes Kafka topics with kafka-clients, with Flink's options.
 *
 * <h2>Both sides</h2>
 * <ul>
 *   <li>{@code topic} (a source also takes a {@code ;}-separated list) or, for a source, {@code topic-pattern}
 *       (a Java regular expression; matching topics are found when the job starts).</li>
 *   <li>{@code properties.bootstrap.servers} (required); every {@code properties.*} option goes to the Kafka client
 *       without its prefix ({@code properties.security.protocol}, {@code properties.sasl.jaas.config}, ...). Kafka
 *       prints password-typed settings as {@code [hidden]}; the engine masks secret-named options everywhere.</li>
 *   <li>{@code format} / {@code value.format} (default {@code json}): the record value; {@code key.format} with
 *       {@code key.fields} ({@code ;}-separated columns): the record key; {@code value.fields-include} =
 *       {@code ALL} (default) | {@code EXCEPT_KEY}. Options of the key format are prefixed {@code key.<format>.}.</li>
 *   <li>Metadata columns: see {@link KafkaMetadata} ({@code topic}, {@code partition}, {@code offset},
 *       {@code timestamp}, {@code timestamp-type}, {@code leader-epoch}, {@code headers}).</li>
 * </ul>
 *
 * <h2>Source</h2>
 * Partitions are shards, shared by the processes of the job through the consumer group {@code properties.group.id}
 * (default {@code rsql_<job>_<table>}); offsets are the shards' positions in the job's checkpoints and are committed
 * to the group when a checkpoint completes. {@code scan.startup.mode} = {@code group-offsets} (default; earliest
 * when the group has no offset, latest with {@code properties.auto.offset.reset = latest}) | {@code earliest-offset} | {@code latest-offset} | {@code timestamp} (with
 * {@code scan.startup.timestamp-millis}) | {@code specific-offsets} (with {@code scan.startup.specific-offsets} =
 * {@code partition:0,offset:42;partition:1,offset:300}; other partitions start at the earliest). The mode applies to
 * a partition the job has no checkpointed position for. {@code scan.partition-buffer-size} (default 10000 records).
 *
 * <h2>Sink</h2>
 * An idempotent producer ({@code enable.idempotence=true}, {@code acks=all} unless set in {@code properties.*}).
 * {@code sink.partitioner} = {@code default} (Kafka's: hash of the key, sticky without one) | {@code fixed} (each
 * task writes one partition) | {@code round-robin}. {@code sink.delivery-guarantee} = {@code at-least-once}
 * (default: checkpoints wait until every record is acknowledged) | {@code none}; {@code exactly-once} is refused.
 *
 * <h2>upsert-kafka</h2>
 * {@code 'connector' = 'upsert-kafka'} with a PRIMARY KEY: the key columns are the message key ({@code key.format}
 * required), a DELETE is written as a tombstone, UPDATE_BEFORE is dropped; read back, a tombstone yields no row.
 */
public class KafkaConnectorFactory implements ConnectorFactory {

    @Override
    public String identifier() {
        return "kafka";
    }

    /** Whether tables of this factory are upsert-kafka tables. */
    boolean upsert() {
        return false;
    }

    private KafkaOptions options(ConnectorContext context) {
        return new KafkaOptions(context, upsert());
    }

    /** The source and sink check their options when constructed and connect only when started / first written. */
    @Override
    public void validateSource(ConnectorContext context) {
        new KafkaSource(options(context), context);
    }

    @Override
    public void validateSink(ConnectorContext context) {
        new KafkaSink(options(context), context);
    }

    @Override
    public Source createSource(ConnectorContext context) {
        return new KafkaSource(options(context), context);
    }

    @Override
    public Sink createSink(ConnectorContext context) {
        return new KafkaSink(options(context), context);
    }

    /** A record keeps a row's kind only in a value format that encodes it (json's {@code op}). */
    @Override
    public boolean sinkWritesChangelog(Options tableOptions, FormatRegistry formats) {
        return formats.encodesRowKind(tableOptions, "json");
    }

    @Override
    public boolean sourceReadsChangelog(Options tableOptions, FormatRegistry formats) {
        return formats.decodesChangelog(tableOptions, "json");
    }
}
