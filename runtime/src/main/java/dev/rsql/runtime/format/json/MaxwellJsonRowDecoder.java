package dev.rsql.runtime.format.json;

import com.alibaba.fastjson2.JSONReader;
import com.alibaba.fastjson2.util.Fnv;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.format.ChangelogOutput;
import dev.rsql.runtime.format.DecodeException;
import dev.rsql.runtime.format.FormatContext;
import dev.rsql.runtime.types.DataType;

import java.util.Map;

import static dev.rsql.runtime.format.json.ChangelogJsonReader.metadataTypes;

/**
 * Reads Maxwell's change messages: {@code {"database", "table", "type": "insert|update|delete", "ts", "xid",
 * "data": row, "old": changed fields, "primary_key_columns"}}. As Flink: insert gives +I of {@code data}, delete -D
 * of {@code data}, update -U of {@code old} (with the fields it does not hold, which did not change, taken from
 * {@code data}) and +U of {@code data}; other types are errors.
 */
final class MaxwellJsonRowDecoder extends ChangelogJsonDecoder {

    private static final long DATA = Fnv.hashCode64("data");
    private static final long OLD = Fnv.hashCode64("old");
    private static final long TYPE = Fnv.hashCode64("type");
    private static final long DATABASE = Fnv.hashCode64("database");
    private static final long TABLE = Fnv.hashCode64("table");
    private static final long TS = Fnv.hashCode64("ts");

    /** The metadata a table can declare as {@code METADATA FROM 'value.<key>'}. */
    static final Map<String, DataType> METADATA = metadataTypes("database", "table", "ingestion-timestamp");

    private Object[] data;
    private Object[] old;
    private String type;
    private String database;
    private String table;
    private Long timestamp;

    MaxwellJsonRowDecoder(FormatContext ctx) {
        super("maxwell-json", ctx);
    }

    @Override
    void emit(ChangelogOutput out) throws DecodeException {
        if (type == null) {
            throw reader.error("no \"type\"");
        }
        if (!type.equals("insert") && !type.equals("update") && !type.equals("delete")) {
            throw reader.error("unknown \"type\" value \"" + type + "\" (expected insert, update or delete)");
        }
        if (data == null) {
            throw reader.error("an \"" + type + "\" message without \"data\"");
        }
        switch (type) {
            case "insert" -> out.row(RowKind.INSERT, reader.withMetadata(data, this));
            case "delete" -> out.row(RowKind.DELETE, reader.withMetadata(data, this));
            default -> {
                if (old == null) {
                    throw reader.error("an \"update\" message without \"old\"");
                }
                out.row(RowKind.UPDATE_BEFORE, reader.withMetadata(reader.completeBefore(old, data), this));
                out.row(RowKind.UPDATE_AFTER, reader.withMetadata(data, this));
            }
        }
    }

    @Override
    public void begin() {
        data = null;
        old = null;
        type = null;
        database = null;
        table = null;
        timestamp = null;
    }

    /** Maxwell's {@code ts} is in seconds. */
    @Override
    public Object metadata(String key) {
        return switch (key) {
            case "database" -> database;
            case "table" -> table;
            default -> timestamp == null ? null : timestamp * 1000;
        };
    }

    @Override
    public void member(long name, JSONReader r, int level) throws ValueException {
        if (name == DATA) {
            data = reader.row(r, level, "data");
        } else if (name == OLD) {
            old = reader.oldRow(r, level, "old");
        } else if (name == TYPE) {
            type = reader.string(r, "type");
        } else if (name == DATABASE && reader.readsMetadata()) {
            database = reader.string(r, "database");
        } else if (name == TABLE && reader.readsMetadata()) {
            table = reader.string(r, "table");
        } else if (name == TS && reader.readsMetadata()) {
            timestamp = reader.number(r, "ts");
        } else {
            reader.skip(r, level);
        }
    }
}
