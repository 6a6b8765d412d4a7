package dev.rsql.runtime.exec;

import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.JobInfo;
import dev.rsql.runtime.format.FormatContext;
import dev.rsql.runtime.format.FormatFactory;
import dev.rsql.runtime.format.FormatRegistry;
import dev.rsql.runtime.format.RowDecoder;
import dev.rsql.runtime.format.RowEncoder;
import dev.rsql.runtime.table.TableDescriptor;
import dev.rsql.runtime.types.RowType;

import java.util.LinkedHashMap;
import java.util.Map;

/** Gives a connector its table, its job, and decoders/encoders for the table's {@code format} option. */
public final class DefaultConnectorContext implements ConnectorContext {

    private final TableDescriptor table;
    private final JobInfo job;
    private final FormatRegistry formats;

    public DefaultConnectorContext(TableDescriptor table, JobInfo job, FormatRegistry formats) {
        this.table = table;
        this.job = job;
        this.formats = formats;
    }

    @Override
    public TableDescriptor table() {
        return table;
    }

    @Override
    public JobInfo job() {
        return job;
    }

    @Override
    public RowDecoder createDecoder(String defaultFormat, RowType payloadFields, int[] targetPositions, int targetArity) {
        String name = formatName(defaultFormat);
        FormatFactory f = formats.get(name);
        return f.createDecoder(new FormatContext(table.name(), payloadFields, targetPositions, targetArity, formatOptions(name)));
    }

    @Override
    public RowEncoder createEncoder(String defaultFormat, RowType payloadFields) {
        String name = formatName(defaultFormat);
        FormatFactory f = formats.get(name);
        return f.createEncoder(FormatContext.of(table.name(), payloadFields, formatOptions(name)));
    }

    private String formatName(String defaultFormat) {
        return FormatRegistry.formatName(table.options(), defaultFormat);
    }

    /** The table's options, with {@code <format>.}-prefixed keys also visible without the prefix (they win). */
    private Options formatOptions(String format) {
        Map<String, String> merged = new LinkedHashMap<>(table.options().asMap());
        merged.putAll(table.options().withPrefix(format + ".").asMap());
        return new Options(merged);
    }
}
