package dev.rsql.runtime.format;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.table.Column;
import dev.rsql.runtime.types.DataType;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Metadata columns a format fills from its payloads (a changelog's database and table names, its timestamps), as
 * Flink's Kafka tables name them: {@code METADATA FROM 'value.<key>'}, e.g. {@code 'value.source.table'} of
 * debezium-json. Connectors leave such columns to the format. A value is a STRING or a TIMESTAMP_LTZ(3) (epoch
 * milliseconds, also readable as TIMESTAMP in the job's time zone and as BIGINT).
 */
public final class FormatMetadata {

    /** The prefix of the metadata keys a format fills. */
    public static final String PREFIX = "value.";

    /** A metadata column of the table that the format fills: its key without the prefix, its row position. */
    public record Filled(String key, int position, DataType type) {
    }

    private FormatMetadata() {
    }

    /** Whether a metadata column of this key is the format's to fill. */
    public static boolean isFormatKey(String metadataKey) {
        return metadataKey.toLowerCase(Locale.ROOT).startsWith(PREFIX);
    }

    /**
     * The columns of {@code columns} the format fills, checked against what it offers.
     *
     * @throws ConfigException naming the column when the format does not offer its key or cannot give its type
     */
    public static List<Filled> columns(String table, String format, FormatFactory factory, List<Column> columns) {
        List<Filled> out = new ArrayList<>();
        Map<String, DataType> offered = factory.readableMetadata();
        for (int i = 0; i < columns.size(); i++) {
            Column c = columns.get(i);
            if (!c.isMetadata() || !isFormatKey(c.metadataKey())) {
                continue;
            }
            String key = c.metadataKey().substring(PREFIX.length());
            DataType type = offered.get(key);
            if (type == null) {
                throw new ConfigException("table " + table + ": format '" + format + "' has no metadata '"
                        + c.metadataKey() + "' (column " + c.name() + ")" + (offered.isEmpty() ? ""
                        : "; it offers " + offered.entrySet().stream().map(e -> "'" + PREFIX + e.getKey() + "' ("
                        + e.getValue() + ")").collect(Collectors.joining(", "))));
            }
            if (!fits(type, c.type())) {
                throw new ConfigException("table " + table + ": metadata column " + c.name() + " ('" + c.metadataKey()
                        + "') must be " + (type.kind().isCharacter() ? "STRING"
                        : "TIMESTAMP_LTZ(3), TIMESTAMP(3) or BIGINT") + ", not " + c.type());
            }
            out.add(new Filled(key, i, c.type()));
        }
        return out;
    }

    private static boolean fits(DataType offered, DataType column) {
        DataType.Kind k = column.kind();
        if (offered.kind().isCharacter()) {
            return k.isCharacter();
        }
        return k == DataType.Kind.TIMESTAMP_LTZ || k == DataType.Kind.TIMESTAMP || k == DataType.Kind.BIGINT;
    }

    /** A value the format read (a String, or epoch milliseconds as a Long) as the column's type. */
    public static Object convert(Object raw, DataType columnType, EpochWallClock wallClock) {
        if (raw == null || !(raw instanceof Long)) {
            return raw;
        }
        return columnType.kind() == DataType.Kind.TIMESTAMP ? wallClock.wallClock((Long) raw) : raw;
    }
}
