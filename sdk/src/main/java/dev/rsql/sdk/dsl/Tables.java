package dev.rsql.sdk.dsl;

import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.table.Column;
import dev.rsql.runtime.table.TableDescriptor;
import dev.rsql.runtime.table.TableSchema;
import dev.rsql.runtime.types.RowType;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Connector tables of DSL sources and sinks, declared as a CREATE TABLE with a WITH clause would. */
final class Tables {

    private Tables() {
    }

    /** The options with {@code format} = {@code raw}: payloads a user function reads or writes. */
    static Map<String, String> rawFormat(String table, Map<String, String> options) {
        String format = options.get("format");
        if (format != null && !format.equalsIgnoreCase("raw")) {
            throw new IllegalArgumentException("table " + table + ": a (de)serializer reads and writes whole payloads,"
                    + " so the table's format is 'raw', not '" + format + "'");
        }
        Map<String, String> raw = new LinkedHashMap<>(options);
        raw.put("format", "raw");
        return raw;
    }

    static TableDescriptor descriptor(String name, RowType columns, Map<String, String> options) {
        return descriptor(name, columns, options, List.of());
    }

    static TableDescriptor descriptor(String name, RowType columns, Map<String, String> options,
                                      List<String> primaryKey) {
        String connector = options.get("connector");
        if (connector == null || connector.isBlank()) {
            throw new IllegalArgumentException("table " + name + ": the options name no 'connector' (e.g. 'kafka', "
                    + "'rocketmq', 'file', 'datagen', 'print')");
        }
        List<Column> cols = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            cols.add(Column.physical(columns.name(i), columns.type(i)));
        }
        Options o = new Options(options);
        o.markUsed("connector");
        for (String key : primaryKey) {
            if (columns.indexOf(key) < 0) {
                throw new IllegalArgumentException("table " + name + ": primary key column " + key + " is not one of "
                        + columns.names());
            }
        }
        return new TableDescriptor(name, new TableSchema(cols, primaryKey), connector, o);
    }
}
