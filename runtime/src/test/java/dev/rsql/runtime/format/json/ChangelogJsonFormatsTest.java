package dev.rsql.runtime.format.json;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.format.DecodeException;
import dev.rsql.runtime.format.EpochWallClock;
import dev.rsql.runtime.format.FormatMetadata;
import dev.rsql.runtime.graph.ErrorPolicy;
import dev.rsql.runtime.format.FormatContext;
import dev.rsql.runtime.format.FormatFactory;
import dev.rsql.runtime.format.GuardedRowDecoder;
import dev.rsql.runtime.format.RowDecoder;
import dev.rsql.runtime.format.RowEncoder;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.DataType.Kind;
import dev.rsql.runtime.types.RowType;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static dev.rsql.runtime.format.FormatTesting.options;
import static dev.rsql.runtime.format.FormatTesting.rowType;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * debezium-json, canal-json and maxwell-json: the changes each message gives (as Flink reads them), the errors of
 * malformed ones, the options, and what the encoders write.
 */
class ChangelogJsonFormatsTest {

    private static final FormatFactory DEBEZIUM = new DebeziumJsonFormatFactory();
    private static final FormatFactory CANAL = new CanalJsonFormatFactory();
    private static final FormatFactory MAXWELL = new MaxwellJsonFormatFactory();
    private static final RowType PRODUCT = rowType("id", DataType.of(Kind.BIGINT), "name", DataType.string(),
            "price", DataType.decimal(10, 2));

    /** The changes of one message as {@code +I[1, name, 2.50]}. */
    private static List<String> changes(FormatFactory format, Options options, String message) throws DecodeException {
        RowDecoder decoder = format.createDecoder(FormatContext.of("t", PRODUCT, options));
        byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
        List<String> out = new ArrayList<>();
        decoder.decodeChangelog(bytes, 0, bytes.length, (kind, fields) -> out.add(kind.shortString()
                + Arrays.toString(fields)));
        return out;
    }

    private static List<String> changes(FormatFactory format, String message) throws DecodeException {
        return changes(format, options(), message);
    }

    private static String error(FormatFactory format, Options options, String message) {
        return assertThrows(DecodeException.class, () -> changes(format, options, message)).getMessage();
    }

    private static String error(FormatFactory format, String message) {
        return error(format, options(), message);
    }

    @Test
    void debeziumOperationsAreChangesAsInFlink() throws Exception {
        assertEquals(List.of("+I[1, 书, 2.50]"), changes(DEBEZIUM,
                "{\"before\":null,\"after\":{\"id\":1,\"name\":\"书\",\"price\":2.5},\"op\":\"c\",\"ts_ms\":1}"));
        assertEquals(List.of("+I[1, a, 2.50]"), changes(DEBEZIUM,
                "{\"op\":\"r\",\"after\":{\"id\":1,\"name\":\"a\",\"price\":2.5},\"source\":{\"db\":\"x\",\"a\":[1,{}]}}"));
        assertEquals(List.of("-U[1, a, 2.50]", "+U[1, b, 3.00]"), changes(DEBEZIUM,
                "{\"before\":{\"id\":1,\"name\":\"a\",\"price\":2.5},\"after\":{\"id\":1,\"name\":\"b\",\"price\":3},"
                        + "\"source\":{},\"op\":\"u\",\"transaction\":null}"));
        assertEquals(List.of("-D[1, a, 2.50]"), changes(DEBEZIUM,
                "{\"before\":{\"id\":1,\"name\":\"a\",\"price\":\"2.5\"},\"after\":null,\"op\":\"d\"}"));
        assertEquals(List.of(), changes(DEBEZIUM, ""), "a tombstone gives nothing");
    }

    @Test
    void debeziumSchemaEnvelope() throws Exception {
        String enveloped = "{\"schema\":{\"type\":\"struct\",\"fields\":[]},\"payload\":{\"before\":null,"
                + "\"after\":{\"id\":7,\"name\":\"😀\",\"price\":1},\"op\":\"c\"}}";
        assertEquals(List.of("+I[7, 😀, 1.00]"), changes(DEBEZIUM, options("schema-include", "true"), enveloped));
        assertTrue(error(DEBEZIUM, enveloped).contains("set 'debezium-json.schema-include' = 'true'"),
                error(DEBEZIUM, enveloped));
    }

    @Test
    void debeziumErrorsNameTheProblemAndQuoteTheMessage() {
        String update = "{\"before\":null,\"after\":{\"id\":1},\"op\":\"u\"}";
        String e = error(DEBEZIUM, update);
        assertTrue(e.contains("debezium-json") && e.contains("without \"before\"") && e.contains("REPLICA IDENTITY")
                && e.contains("\"op\":\"u\""), e);
        e = error(DEBEZIUM, "{\"after\":{\"id\":1},\"op\":\"x\"}");
        assertTrue(e.contains("unknown \"op\" value \"x\""), e);
        e = error(DEBEZIUM, "{\"after\":{\"id\":\"abc\"},\"op\":\"c\"}");
        assertTrue(e.contains("after.id"), e);
        e = error(DEBEZIUM, "{\"after\":{\"id\":1},\"op\":\"c\",}");
        assertTrue(e.contains("malformed JSON"), e);
        e = error(DEBEZIUM, "[1]");
        assertTrue(e.contains("not a JSON object"), e);
        e = error(DEBEZIUM, "{\"after\":{\"id\":1}}");
        assertTrue(e.contains("no \"op\""), e);
    }

    /** Flink's ignore-parse-errors of these formats is the error policy skip: counted and dead-lettered, not lost. */
    @Test
    void ignoreParseErrorsIsThePolicySkip() {
        for (FormatFactory format : List.of(DEBEZIUM, CANAL, MAXWELL)) {
            assertEquals(ErrorPolicy.SKIP, ErrorPolicy.of("t",
                    options(format.identifier() + ".ignore-parse-errors", "true")), format.identifier());
        }
        assertEquals(ErrorPolicy.FAIL, ErrorPolicy.of("t", options("format", "canal-json")));
    }

    @Test
    void canalMessagesGiveOneChangePerRow() throws Exception {
        assertEquals(List.of("+I[1, 北京, 2.50]", "+I[2, b, null]"), changes(CANAL,
                "{\"data\":[{\"id\":\"1\",\"name\":\"北京\",\"price\":\"2.5\"},{\"id\":\"2\",\"name\":\"b\",\"price\":null}],"
                        + "\"database\":\"shop\",\"table\":\"p\",\"es\":1,\"isDdl\":false,\"old\":null,"
                        + "\"pkNames\":[\"id\"],\"sqlType\":{\"id\":-5},\"type\":\"INSERT\"}"));
        // old holds the changed fields only: the others are taken from data; a field changed from NULL stays NULL
        assertEquals(List.of("-U[1, a, 2.50]", "+U[1, a, 3.00]", "-U[2, null, 1.00]", "+U[2, c, 1.00]"), changes(CANAL,
                "{\"type\":\"UPDATE\",\"data\":[{\"id\":\"1\",\"name\":\"a\",\"price\":\"3\"},"
                        + "{\"id\":\"2\",\"name\":\"c\",\"price\":\"1\"}],"
                        + "\"old\":[{\"price\":\"2.5\"},{\"name\":null}]}"));
        assertEquals(List.of("-D[1, a, 3.00]"), changes(CANAL,
                "{\"data\":[{\"id\":\"1\",\"name\":\"a\",\"price\":\"3\"}],\"type\":\"DELETE\"}"));
    }

    @Test
    void canalSkipsDdlAndFiltersDatabasesAndTables() throws Exception {
        assertEquals(List.of(), changes(CANAL, "{\"data\":null,\"type\":\"CREATE\",\"isDdl\":true,\"sql\":\"create\"}"));
        assertEquals(List.of(), changes(CANAL, "{\"data\":null,\"type\":\"ALTER\",\"isDdl\":true}"));
        Options include = options("database.include", "shop|store", "table.include", "prod.*");
        String insert = "{\"data\":[{\"id\":\"1\"}],\"type\":\"INSERT\",\"database\":\"%s\",\"table\":\"%s\"}";
        assertEquals(1, changes(CANAL, include, String.format(insert, "store", "products")).size());
        assertEquals(0, changes(CANAL, include, String.format(insert, "shop", "users")).size());
        assertEquals(0, changes(CANAL, include, String.format(insert, "shopping", "products")).size());
        ConfigException bad = assertThrows(ConfigException.class,
                () -> changes(CANAL, options("table.include", "(x"), "{}"));
        assertTrue(bad.getMessage().contains("canal-json.table.include"), bad.getMessage());
    }

    @Test
    void canalErrors() {
        String e = error(CANAL, "{\"data\":[{\"id\":\"1\"}],\"type\":\"QUERY\"}");
        assertTrue(e.contains("unknown \"type\" value \"QUERY\""), e);
        e = error(CANAL, "{\"data\":[{\"id\":\"1\"}],\"old\":[],\"type\":\"UPDATE\"}");
        assertTrue(e.contains("\"old\""), e);
        e = error(CANAL, "{\"data\":[{\"id\":\"1\"},{\"id\":\"x\"}],\"type\":\"INSERT\"}");
        assertTrue(e.contains("data[1].id"), e);
        e = error(CANAL, "{\"data\":{\"id\":\"1\"},\"type\":\"INSERT\"}");
        assertTrue(e.contains("data") && e.contains("array"), e);
    }

    @Test
    void maxwellMessages() throws Exception {
        assertEquals(List.of("+I[1, a, 2.50]"), changes(MAXWELL, "{\"database\":\"shop\",\"table\":\"p\","
                + "\"type\":\"insert\",\"ts\":1,\"xid\":2,\"commit\":true,\"data\":{\"id\":1,\"name\":\"a\",\"price\":2.5},"
                + "\"primary_key_columns\":[\"id\"]}"));
        assertEquals(List.of("-U[1, a, 2.50]", "+U[1, a, 4.00]"), changes(MAXWELL,
                "{\"type\":\"update\",\"data\":{\"id\":1,\"name\":\"a\",\"price\":4},\"old\":{\"price\":2.5}}"));
        assertEquals(List.of("-D[1, a, 4.00]"), changes(MAXWELL,
                "{\"type\":\"delete\",\"data\":{\"id\":1,\"name\":\"a\",\"price\":4}}"));
        String e = error(MAXWELL, "{\"type\":\"update\",\"data\":{\"id\":1}}");
        assertTrue(e.contains("without \"old\""), e);
        e = error(MAXWELL, "{\"type\":\"table-create\",\"def\":{}}");
        assertTrue(e.contains("unknown \"type\" value \"table-create\""), e);
    }

    /** Metadata columns ('value.<key>') get the message's database, table and times, in every row of it. */
    @Test
    void metadataColumnsComeFromTheMessage() throws Exception {
        DataType ltz = DataType.withPrecision(Kind.TIMESTAMP_LTZ, 3, 0);
        assertEquals(List.of("+I[1, null, null, shop, 商品, 1700000000123, 1700000000000]"), withMetadata(DEBEZIUM,
                List.of(new FormatMetadata.Filled("source.database", 3, DataType.string()),
                        new FormatMetadata.Filled("source.table", 4, DataType.string()),
                        new FormatMetadata.Filled("ingestion-timestamp", 5, ltz),
                        new FormatMetadata.Filled("source.timestamp", 6, ltz)),
                "{\"after\":{\"id\":1},\"op\":\"c\",\"ts_ms\":1700000000123,"
                        + "\"source\":{\"db\":\"shop\",\"table\":\"商品\",\"ts_ms\":1700000000000,\"gtid\":null}}"));
        assertEquals(List.of("-U[1, null, null, p, 1700000000123, 1700000000000]",
                        "+U[1, b, null, p, 1700000000123, 1700000000000]"), withMetadata(CANAL,
                List.of(new FormatMetadata.Filled("table", 3, DataType.string()),
                        new FormatMetadata.Filled("ingestion-timestamp", 4, ltz),
                        new FormatMetadata.Filled("event-timestamp", 5, DataType.of(Kind.BIGINT))),
                "{\"data\":[{\"id\":\"1\",\"name\":\"b\"}],\"old\":[{\"name\":null}],\"type\":\"UPDATE\","
                        + "\"table\":\"p\",\"es\":1700000000000,\"ts\":1700000000123}"));
        // Maxwell's ts is in seconds; a TIMESTAMP column gets the wall-clock time of the job's zone (UTC here)
        assertEquals(List.of("+I[1, null, null, shop, 1596684883000]"), withMetadata(MAXWELL,
                List.of(new FormatMetadata.Filled("database", 3, DataType.string()),
                        new FormatMetadata.Filled("ingestion-timestamp", 4, DataType.timestamp(3))),
                "{\"database\":\"shop\",\"table\":\"p\",\"type\":\"insert\",\"ts\":1596684883,"
                        + "\"data\":{\"id\":1}}"));
    }

    private static List<String> withMetadata(FormatFactory format, List<FormatMetadata.Filled> metadata,
                                             String message) throws DecodeException {
        int arity = 3 + metadata.size();
        RowDecoder decoder = format.createDecoder(new FormatContext("t", PRODUCT, new int[]{0, 1, 2}, arity,
                options(), null, EpochWallClock.UTC, metadata));
        byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
        List<String> out = new ArrayList<>();
        decoder.decodeChangelog(bytes, 0, bytes.length, (kind, fields) -> out.add(kind.shortString()
                + Arrays.toString(fields)));
        return out;
    }

    /** As Flink writes them: an update is a delete of the old row and an insert of the new one. */
    @Test
    void encodersWriteDeletesAndInserts() {
        Object[] row = {1L, "书", new BigDecimal("2.50")};
        assertEquals(List.of(
                "{\"before\":null,\"after\":{\"id\":1,\"name\":\"书\",\"price\":2.50},\"op\":\"c\"}",
                "{\"before\":{\"id\":1,\"name\":\"书\",\"price\":2.50},\"after\":null,\"op\":\"d\"}",
                "{\"before\":null,\"after\":{\"id\":1,\"name\":\"书\",\"price\":2.50},\"op\":\"c\"}",
                "{\"before\":{\"id\":1,\"name\":\"书\",\"price\":2.50},\"after\":null,\"op\":\"d\"}"), encodeAll(DEBEZIUM, row));
        assertEquals(List.of(
                "{\"data\":[{\"id\":1,\"name\":\"书\",\"price\":2.50}],\"type\":\"INSERT\"}",
                "{\"data\":[{\"id\":1,\"name\":\"书\",\"price\":2.50}],\"type\":\"DELETE\"}",
                "{\"data\":[{\"id\":1,\"name\":\"书\",\"price\":2.50}],\"type\":\"INSERT\"}",
                "{\"data\":[{\"id\":1,\"name\":\"书\",\"price\":2.50}],\"type\":\"DELETE\"}"), encodeAll(CANAL, row));
        assertEquals(List.of(
                "{\"data\":{\"id\":1,\"name\":\"书\",\"price\":2.50},\"type\":\"insert\"}",
                "{\"data\":{\"id\":1,\"name\":\"书\",\"price\":2.50},\"type\":\"delete\"}",
                "{\"data\":{\"id\":1,\"name\":\"书\",\"price\":2.50},\"type\":\"insert\"}",
                "{\"data\":{\"id\":1,\"name\":\"书\",\"price\":2.50},\"type\":\"delete\"}"), encodeAll(MAXWELL, row));
        ConfigException e = assertThrows(ConfigException.class, () -> DEBEZIUM.createEncoder(
                FormatContext.of("t", PRODUCT, options("schema-include", "true"))));
        assertTrue(e.getMessage().contains("for reading"), e.getMessage());
    }

    /** What each encoder writes reads back as the same table. */
    @Test
    void writtenChangesReadBack() throws Exception {
        for (FormatFactory format : List.of(DEBEZIUM, CANAL, MAXWELL)) {
            RowEncoder encoder = format.createEncoder(FormatContext.of("t", PRODUCT, options()));
            List<String> read = new ArrayList<>();
            for (RowKind kind : RowKind.values()) {
                String message = new String(encoder.encode(new Row(kind, new Object[]{2L, "x", null})),
                        StandardCharsets.UTF_8);
                read.addAll(changes(format, message));
            }
            assertEquals(List.of("+I[2, x, null]", "-D[2, x, null]", "+I[2, x, null]", "-D[2, x, null]"), read,
                    format.identifier());
        }
    }

    /** Readers get kinds through the guard; the rows of formats of rows are inserts. */
    @Test
    void guardedDecoderKeepsKinds() throws Exception {
        List<RowKind> kinds = new ArrayList<>();
        byte[] update = "{\"before\":{\"id\":1},\"after\":{\"id\":1},\"op\":\"u\"}".getBytes(StandardCharsets.UTF_8);
        new GuardedRowDecoder(DEBEZIUM.createDecoder(FormatContext.of("t", PRODUCT, options())), 1000, true)
                .decodeChangelog(update, 0, update.length, (k, f) -> kinds.add(k));
        new GuardedRowDecoder(new JsonFormatFactory().createDecoder(FormatContext.of("t", PRODUCT, options())), 1000)
                .decodeChangelog(update, 0, update.length, (k, f) -> kinds.add(k));
        assertEquals(List.of(RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER, RowKind.INSERT), kinds);
        DecodeException tooLarge = assertThrows(DecodeException.class, () -> new GuardedRowDecoder(
                DEBEZIUM.createDecoder(FormatContext.of("t", PRODUCT, options())), 10, true)
                .decodeChangelog(update, 0, update.length, (k, f) -> kinds.add(k)));
        assertTrue(tooLarge.getMessage().contains("limit of 10"), tooLarge.getMessage());
    }

    /** A line of a file is a range of the reader's buffer: only that range is read. */
    @Test
    void rangeOfABuffer() throws Exception {
        byte[] buffer = ("xx{\"data\":{\"id\":5},\"type\":\"insert\"}{\"id\":6}").getBytes(StandardCharsets.UTF_8);
        List<String> out = new ArrayList<>();
        MAXWELL.createDecoder(FormatContext.of("t", PRODUCT, options()))
                .decodeChangelog(buffer, 2, buffer.length - 2 - 8, (k, f) -> out.add(k.shortString() + f[0]));
        assertEquals(List.of("+I5"), out);
    }

    private static List<String> encodeAll(FormatFactory format, Object[] row) {
        RowEncoder encoder = format.createEncoder(FormatContext.of("t", PRODUCT, options()));
        List<String> out = new ArrayList<>();
        for (RowKind kind : RowKind.values()) {
            out.add(new String(encoder.encode(new Row(kind, row)), StandardCharsets.UTF_8));
        }
        return out;
    }
}
