package dev.rsql.runtime.connector.jdbc;

import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.ConnectorFactory;
import dev.rsql.runtime.connector.LookupSource;
import dev.rsql.runtime.connector.Sink;
import dev.rsql.runtime.format.FormatRegistry;

import java.util.Set;

/**
 * Connector {@code jdbc} (Flink's {@code 'connector' = 'jdbc'}) and rsqldb's {@code type = 'rds' | 'mysql' | 'db'}:
 * MySQL and MariaDB tables, written by a sink ({@link JdbcSink}) and read as dimension tables
 * ({@link JdbcLookupSource}). Options: {@link JdbcOptions}. Passwords, in the options or in the URL, never appear in
 * logs or errors.
 */
public final class JdbcConnectorFactory implements ConnectorFactory {

    @Override
    public String identifier() {
        return "jdbc";
    }

    @Override
    public Set<String> aliases() {
        return Set.of("rds", "mysql", "db");
    }

    @Override
    public void validateSink(ConnectorContext context) {
        validate(context);
    }

    @Override
    public void validateLookup(ConnectorContext context) {
        validate(context);
        context.options().markUsed("cacheTTLMs", "isLarge", "filePath");
    }

    /** Reads every option and checks the URL, the driver and the column types; connects to nothing. */
    private static void validate(ConnectorContext context) {
        JdbcOptions options = JdbcOptions.of(context.options());
        new JdbcConnector(options, context.job().classLoader());
        var schema = context.table().schema().physicalRowType();
        for (int i = 0; i < schema.size(); i++) {
            JdbcValues.checkSupported(context.table().name(), schema.name(i), schema.type(i));
        }
        context.options().markUsed("sqlMode"); // rsqldb's insert mode: upserts follow from the primary key here
    }

    @Override
    public Sink createSink(ConnectorContext context) {
        return new JdbcSink(context);
    }

    @Override
    public LookupSource createLookupSource(ConnectorContext context) {
        return new JdbcLookupSource(context);
    }

    /** Without a primary key the sink appends: it cannot apply updates or deletes to rows it cannot find. */
    @Override
    public boolean sinkWritesChangelog(Options tableOptions, FormatRegistry formats) {
        return false;
    }
}
