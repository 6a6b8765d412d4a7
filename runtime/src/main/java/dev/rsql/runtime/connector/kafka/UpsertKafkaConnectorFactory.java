package dev.rsql.runtime.connector.kafka;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.Source;
import dev.rsql.runtime.format.FormatRegistry;

/** Connector {@code upsert-kafka}: see {@link KafkaConnectorFactory}. Deletes are tombstones of the primary key. */
public final class UpsertKafkaConnectorFactory extends KafkaConnectorFactory {

    @Override
    public String identifier() {
        return "upsert-kafka";
    }

    @Override
    boolean upsert() {
        return true;
    }

    /** Reading an upsert topic as a changelog (a keyed materialization) is not built yet: refused at check. */
    @Override
    public void validateSource(ConnectorContext context) {
        createSource(context);
    }

    @Override
    public Source createSource(ConnectorContext context) {
        throw new ConfigException("table " + context.table().name() + " (connector upsert-kafka): an upsert-kafka "
                + "table can only be written; read the topic with connector 'kafka'");
    }

    /** Updates replace the key's record and deletes are tombstones: any changelog with the primary key fits. */
    @Override
    public boolean sinkWritesChangelog(Options tableOptions, FormatRegistry formats) {
        return true;
    }
}
