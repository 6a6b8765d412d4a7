package dev.rsql.runtime.format.json;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.format.FormatContext;
import dev.rsql.runtime.format.RowDecoder;
import dev.rsql.runtime.format.RowEncoder;
import dev.rsql.runtime.types.DataType;

import java.util.Map;

/**
 * Format {@code debezium-json}: Debezium's change events (see {@link DebeziumJsonRowDecoder}); a source table of this
 * format is a changelog. Options (prefix {@code debezium-json.} or none): {@code schema-include} (default false: the
 * events are not inside Kafka Connect's {@code {"schema", "payload"}} envelope) {@code timestamp-format.standard} for writing, and the json format's {@code lenient} and
 * {@code max-nesting-depth}. Writing gives {@code {"before":null,"after":row,"op":"c"}} for +I and +U and
 * {@code {"before":row,"after":null,"op":"d"}} for -U and -D.
 */
public final class DebeziumJsonFormatFactory extends ChangelogJsonFormatFactory {

    @Override
    public String identifier() {
        return "debezium-json";
    }

    @Override
    public RowDecoder createDecoder(FormatContext context) {
        return new DebeziumJsonRowDecoder(context);
    }

    @Override
    public RowEncoder createEncoder(FormatContext context) {
        if (context.options().getBoolean(false, "schema-include")) {
            throw new ConfigException("debezium-json.schema-include", "table " + context.tableName()
                    + ": 'debezium-json.schema-include' = 'true' is for reading; debezium-json is written without a "
                    + "schema envelope (as in Flink)", null);
        }
        return new ChangelogJsonRowEncoder(context, "{\"before\":null,\"after\":", ",\"op\":\"c\"}",
                "{\"before\":", ",\"after\":null,\"op\":\"d\"}");
    }

    @Override
    public Map<String, DataType> readableMetadata() {
        return DebeziumJsonRowDecoder.METADATA;
    }
}
