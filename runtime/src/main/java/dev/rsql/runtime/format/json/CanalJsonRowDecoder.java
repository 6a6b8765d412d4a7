package dev.rsql.runtime.format.json;

import com.alibaba.fastjson2.JSONReader;
import com.alibaba.fastjson2.util.Fnv;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.format.ChangelogOutput;
import dev.rsql.runtime.format.DecodeException;
import dev.rsql.runtime.format.FormatContext;
import dev.rsql.runtime.types.DataType;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static dev.rsql.runtime.format.json.ChangelogJsonReader.metadataTypes;

/**
 * Reads Canal's flat messages: {@code {"data": [rows], "old": [changed fields], "type": "INSERT|UPDATE|DELETE",
 * "database", "table", "isDdl", "pkNames", …}}, Canal writing every value as a string. As Flink: one change per
 * element of {@code data}; INSERT gives +I, DELETE -D, UPDATE -U and +U where the row before is {@code old[i]} with
 * the fields it does not hold (they did not change) taken from {@code data[i]}. DDL messages ({@code "isDdl": true}
 * or type CREATE) are skipped; other types are errors. Options {@code database.include} and {@code table.include}
 * (regular expressions) keep only the messages of matching databases and tables.
 */
final class CanalJsonRowDecoder extends ChangelogJsonDecoder {

    private static final long DATA = Fnv.hashCode64("data");
    private static final long OLD = Fnv.hashCode64("old");
    private static final long TYPE = Fnv.hashCode64("type");
    private static final long DATABASE = Fnv.hashCode64("database");
    private static final long TABLE = Fnv.hashCode64("table");
    private static final long IS_DDL = Fnv.hashCode64("isDdl");
    private static final long TS = Fnv.hashCode64("ts");
    private static final long ES = Fnv.hashCode64("es");

    /** The metadata a table can declare as {@code METADATA FROM 'value.<key>'}. */
    static final Map<String, DataType> METADATA = metadataTypes("database", "table", "ingestion-timestamp",
            "event-timestamp");

    private final Pattern databaseInclude;
    private final Pattern tableInclude;
    private final List<Object[]> data = new ArrayList<>();
    private final List<Object[]> old = new ArrayList<>();
    private String type;
    private String database;
    private String table;
    private boolean ddl;
    private Long ingestionTimestamp;
    private Long eventTimestamp;

    CanalJsonRowDecoder(FormatContext ctx) {
        super("canal-json", ctx);
        this.databaseInclude = ChangelogJsonReader.pattern(ctx, "canal-json", "database.include");
        this.tableInclude = ChangelogJsonReader.pattern(ctx, "canal-json", "table.include");
    }

    private static boolean included(Pattern include, String name) {
        return include == null || name != null && include.matcher(name).matches();
    }

    @Override
    void emit(ChangelogOutput out) throws DecodeException {
        if (!included(databaseInclude, database) || !included(tableInclude, table) || ddl) {
            return;
        }
        if (type == null) {
            throw reader.error("no \"type\"");
        }
        RowKind kind;
        switch (type) {
            case "INSERT" -> kind = RowKind.INSERT;
            case "DELETE" -> kind = RowKind.DELETE;
            case "UPDATE" -> kind = RowKind.UPDATE_AFTER;
            case "CREATE" -> {
                return;
            }
            default -> throw reader.error("unknown \"type\" value \"" + type + "\" (expected INSERT, UPDATE or DELETE)");
        }
        if (data.contains(null)) {
            throw reader.error("a null row in \"data\"");
        }
        if (kind != RowKind.UPDATE_AFTER) {
            for (Object[] row : data) {
                out.row(kind, reader.withMetadata(row, this));
            }
            return;
        }
        if (old.size() != data.size() || old.contains(null)) {
            throw reader.error("an UPDATE whose \"old\" does not hold one object per row of \"data\"");
        }
        for (int i = 0; i < data.size(); i++) {
            out.row(RowKind.UPDATE_BEFORE, reader.withMetadata(reader.completeBefore(old.get(i), data.get(i)), this));
            out.row(RowKind.UPDATE_AFTER, reader.withMetadata(data.get(i), this));
        }
    }

    @Override
    public void begin() {
        data.clear();
        old.clear();
        type = null;
        database = null;
        table = null;
        ddl = false;
        ingestionTimestamp = null;
        eventTimestamp = null;
    }

    @Override
    public Object metadata(String key) {
        return switch (key) {
            case "database" -> database;
            case "table" -> table;
            case "ingestion-timestamp" -> ingestionTimestamp;
            default -> eventTimestamp;
        };
    }

    @Override
    public void member(long name, JSONReader r, int level) throws ValueException {
        if (name == DATA) {
            reader.rows(r, level, "data", false, data);
        } else if (name == OLD) {
            reader.rows(r, level, "old", true, old);
        } else if (name == TYPE) {
            type = reader.string(r, "type");
        } else if (name == DATABASE) {
            database = reader.string(r, "database");
        } else if (name == TABLE) {
            table = reader.string(r, "table");
        } else if (name == TS && reader.readsMetadata()) {
            ingestionTimestamp = reader.number(r, "ts");
        } else if (name == ES && reader.readsMetadata()) {
            eventTimestamp = reader.number(r, "es");
        } else if (name == IS_DDL && r.current() == 't') {
            ddl = r.readBoolValue();
        } else {
            reader.skip(r, level);
        }
    }
}
