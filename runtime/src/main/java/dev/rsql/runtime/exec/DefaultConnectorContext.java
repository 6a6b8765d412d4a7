package dev.rsql.runtime.exec;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.JobInfo;
import dev.rsql.runtime.connector.LocalTimeZone;
import dev.rsql.runtime.format.EpochWallClock;
import dev.rsql.runtime.format.FormatContext;
import dev.rsql.runtime.format.FormatFactory;
import dev.rsql.runtime.format.FormatMetadata;
import dev.rsql.runtime.format.FormatRegistry;
import dev.rsql.runtime.format.GuardedRowDecoder;
import dev.rsql.runtime.format.RowDecoder;
import dev.rsql.runtime.format.RowEncoder;
import dev.rsql.runtime.table.TableDescriptor;
import dev.rsql.runtime.types.RowType;


/** Gives a connector its table, its job, and decoders/encoders for the table's {@code format} option. */
public final class DefaultConnectorContext implements ConnectorContext {

    private final TableDescriptor table;
    private final JobInfo job;
    private final FormatRegistry formats;
    private final int[] fieldsRead;

    public DefaultConnectorContext(TableDescriptor table, JobInfo job, FormatRegistry formats) {
        this(table, job, formats, null);
    }

    /** @param fieldsRead the table's fields the job reads ({@link dev.rsql.runtime.graph.SourceFields}), null: all */
    public DefaultConnectorContext(TableDescriptor table, JobInfo job, FormatRegistry formats, int[] fieldsRead) {
        this.table = table;
        this.job = job;
        this.formats = formats;
        this.fieldsRead = fieldsRead;
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
        FormatFactory f = format(name);
        RowDecoder decoder = f.createDecoder(new FormatContext(table.name(), payloadFields, targetPositions, targetArity,
                formatOptions(name), fieldsRead, epochWallClock(),
                FormatMetadata.columns(table.name(), name, f, table.schema().columns())));
        return new GuardedRowDecoder(decoder, GuardedRowDecoder.maxRecordBytes(table.options()), f.decodesChangelog());
    }

    @Override
    public boolean formatDecodesChangelog(String defaultFormat) {
        return format(formatName(defaultFormat)).decodesChangelog();
    }

    @Override
    public RowEncoder createEncoder(String defaultFormat, RowType payloadFields) {
        String name = formatName(defaultFormat);
        FormatFactory f = format(name);
        return f.createEncoder(FormatContext.of(table.name(), payloadFields, formatOptions(name)));
    }

    @Override
    public RowDecoder createDecoder(String formatKey, String defaultFormat, RowType payloadFields,
                                    int[] targetPositions, int targetArity) {
        String name = table.options().getOrDefault(defaultFormat, formatKey);
        if (format(name, formatKey).decodesChangelog()) {
            throw new ConfigException(formatKey, "table " + table.name() + ": format '" + name + "' holds changes of "
                    + "rows and cannot be a " + formatKey + "; use it for the value ('format')", null);
        }
        RowDecoder decoder = format(name, formatKey).createDecoder(new FormatContext(table.name(), payloadFields,
                targetPositions, targetArity, prefixedFormatOptions(formatKey, name), fieldsRead, epochWallClock()));
        return new GuardedRowDecoder(decoder, GuardedRowDecoder.maxRecordBytes(table.options()));
    }

    @Override
    public RowEncoder createEncoder(String formatKey, String defaultFormat, RowType payloadFields) {
        String name = table.options().getOrDefault(defaultFormat, formatKey);
        return format(name, formatKey).createEncoder(FormatContext.of(table.name(), payloadFields,
                prefixedFormatOptions(formatKey, name)));
    }

    private EpochWallClock epochWallClock() {
        return EpochWallClock.of(LocalTimeZone.of(job));
    }

    private FormatFactory format(String name, String formatKey) {
        try {
            return formats.get(name);
        } catch (ConfigException e) {
            throw new ConfigException(formatKey, "table " + table.name() + ": " + e.getMessage(), e);
        }
    }

    /** For {@code key.format = json}: the options {@code key.json.*} without that prefix. */
    private Options prefixedFormatOptions(String formatKey, String format) {
        String side = formatKey.endsWith(".format") ? formatKey.substring(0, formatKey.length() - ".format".length())
                : formatKey;
        return table.options().withPrefix(side + "." + format + ".");
    }

    private String formatName(String defaultFormat) {
        return FormatRegistry.formatName(table.options(), defaultFormat);
    }

    /** The format factory; an unknown format blames the option that names it. */
    private FormatFactory format(String name) {
        try {
            return formats.get(name);
        } catch (ConfigException e) {
            String key = null;
            for (String k : FormatRegistry.FORMAT_KEYS) {
                if (table.options().containsKey(k)) {
                    key = k;
                    break;
                }
            }
            throw new ConfigException(key, "table " + table.name() + ": " + e.getMessage(), e);
        }
    }

    /** The table's options, with {@code <format>.}-prefixed keys also visible without the prefix (they win). */
    private Options formatOptions(String format) {
        return table.options().overlay(table.options().withPrefix(format + "."));
    }
}
