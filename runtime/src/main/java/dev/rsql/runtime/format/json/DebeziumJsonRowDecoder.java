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
 * Reads Debezium's change events: {@code {"before": row, "after": row, "op": "c|r|u|d", "source": …}}, with option
 * {@code schema-include} inside {@code {"schema": …, "payload": event}}. As Flink: c and r (snapshot read) give +I of
 * {@code after}; u gives -U of {@code before} and +U of {@code after}; d gives -D of {@code before}; an empty message
 * (Kafka's tombstone after a delete) gives nothing; an update or delete without {@code before} (a table whose
 * replica identity is not full) and any other op are errors.
 */
final class DebeziumJsonRowDecoder extends ChangelogJsonDecoder {

    private static final long BEFORE = Fnv.hashCode64("before");
    private static final long AFTER = Fnv.hashCode64("after");
    private static final long OP = Fnv.hashCode64("op");
    private static final long PAYLOAD = Fnv.hashCode64("payload");
    private static final long SOURCE = Fnv.hashCode64("source");
    private static final long TS_MS = Fnv.hashCode64("ts_ms");
    private static final long DB = Fnv.hashCode64("db");
    private static final long TABLE = Fnv.hashCode64("table");

    /** The metadata a table can declare as {@code METADATA FROM 'value.<key>'}. */
    static final Map<String, DataType> METADATA = metadataTypes("source.database", "source.table", "source.timestamp",
            "ingestion-timestamp");

    private final boolean schemaInclude;
    private Object[] before;
    private Object[] after;
    private String op;
    private boolean payloadSeen;
    private String database;
    private String table;
    private Long sourceTimestamp;
    private Long timestamp;
    /** Reads the members of {@code source} that metadata columns need. */
    private final ChangelogJsonReader.Envelope source = new ChangelogJsonReader.Envelope() {
        @Override
        public void begin() {
        }

        @Override
        public void member(long name, JSONReader r, int level) throws ValueException {
            if (name == DB) {
                database = reader.string(r, "source.db");
            } else if (name == TABLE) {
                table = reader.string(r, "source.table");
            } else if (name == TS_MS) {
                sourceTimestamp = reader.number(r, "source.ts_ms");
            } else {
                reader.skip(r, level);
            }
        }
    };

    DebeziumJsonRowDecoder(FormatContext ctx) {
        super("debezium-json", ctx);
        this.schemaInclude = ctx.options().getBoolean(false, "schema-include");
    }

    @Override
    void emit(ChangelogOutput out) throws DecodeException {
        if (op == null) {
            throw reader.error(payloadSeen && !schemaInclude
                    ? "the event is inside a schema envelope ({\"schema\", \"payload\"}): set 'debezium-json.schema-include' = 'true'"
                    : "no \"op\"");
        }
        switch (op) {
            case "c", "r" -> out.row(RowKind.INSERT, reader.withMetadata(required(after, "after"), this));
            case "u" -> {
                Object[] b = required(before, "before");
                Object[] a = required(after, "after");
                out.row(RowKind.UPDATE_BEFORE, reader.withMetadata(b, this));
                out.row(RowKind.UPDATE_AFTER, reader.withMetadata(a, this));
            }
            case "d" -> out.row(RowKind.DELETE, reader.withMetadata(required(before, "before"), this));
            default -> throw reader.error("unknown \"op\" value \"" + op + "\" (expected c, r, u or d)");
        }
    }

    private Object[] required(Object[] row, String member) throws DecodeException {
        if (row == null) {
            String hint = member.equals("before") ? " (for a PostgreSQL table, set its REPLICA IDENTITY to FULL)" : "";
            throw reader.error("an \"op\" \"" + op + "\" event without \"" + member + "\"" + hint);
        }
        return row;
    }

    @Override
    public void begin() {
        before = null;
        after = null;
        op = null;
        payloadSeen = false;
        database = null;
        table = null;
        sourceTimestamp = null;
        timestamp = null;
    }

    @Override
    public Object metadata(String key) {
        return switch (key) {
            case "source.database" -> database;
            case "source.table" -> table;
            case "source.timestamp" -> sourceTimestamp;
            default -> timestamp;
        };
    }

    @Override
    public void member(long name, JSONReader r, int level) throws ValueException {
        if (name == BEFORE) {
            before = reader.row(r, level, "before");
        } else if (name == AFTER) {
            after = reader.row(r, level, "after");
        } else if (name == OP) {
            op = reader.string(r, "op");
        } else if (name == SOURCE && reader.readsMetadata()) {
            if (reader.enterObject(r, level, "source")) {
                reader.members(r, level + 1, source);
            }
        } else if (name == TS_MS && reader.readsMetadata()) {
            timestamp = reader.number(r, "ts_ms");
        } else if (name == PAYLOAD && schemaInclude && level == 1) {
            if (reader.enterObject(r, level, "payload")) {
                reader.members(r, level + 1, this);
            }
        } else {
            payloadSeen |= name == PAYLOAD && level == 1;
            reader.skip(r, level);
        }
    }
}
