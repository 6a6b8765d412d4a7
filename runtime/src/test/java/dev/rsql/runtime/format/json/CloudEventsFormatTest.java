package dev.rsql.runtime.format.json;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.format.DecodeException;
import dev.rsql.runtime.format.FormatContext;
import dev.rsql.runtime.format.RowEncoder;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.DataType.Kind;
import dev.rsql.runtime.types.RowType;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static dev.rsql.runtime.format.FormatTesting.decodeAll;
import static dev.rsql.runtime.format.FormatTesting.options;
import static dev.rsql.runtime.format.FormatTesting.rowType;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Format cloudevents (structured JSON): attributes and data read and written, bad events refused. */
class CloudEventsFormatTest {

    private static final CloudEventsFormatFactory CE = new CloudEventsFormatFactory();
    private static final DataType LTZ = DataType.withPrecision(Kind.TIMESTAMP_LTZ, 3, 0);
    private static final RowType ORDER = rowType("amount", DataType.of(Kind.INT), "city", DataType.string());
    private static final String EVENT = "{\"specversion\":\"1.0\",\"id\":\"e-1\",\"source\":\"/shop/订单\","
            + "\"type\":\"order.paid\",\"time\":\"2026-12-08T02:00:00Z\",\"subject\":\"o-9\",\"tenant\":\"t1\","
            + "\"datacontenttype\":\"application/json\",\"data\":{\"amount\":120,\"city\":\"北京\"}}";

    @Test
    void attributesAndDataAreColumns() throws Exception {
        RowType t = rowType("id", DataType.string(), "type", DataType.string(), "time", LTZ, "tenant",
                DataType.string(), "data", DataType.row(ORDER.names(), ORDER.types()));
        Object[] row = decodeAll(CE, t, options(), EVENT).get(0);
        assertEquals("e-1", row[0]);
        assertEquals("order.paid", row[1]);
        assertEquals(1796695200000L, row[2]);
        assertEquals("t1", row[3], "an extension attribute");
        assertEquals("[120, 北京]", Arrays.toString((Object[]) row[4]));
        RowType asText = rowType("source", DataType.string(), "data", DataType.string());
        assertEquals("[/shop/订单, {\"amount\":120,\"city\":\"北京\"}]",
                Arrays.toString(decodeAll(CE, asText, options(), EVENT).get(0)));
        RowType bytes = rowType("data", DataType.of(Kind.VARBINARY));
        Object[] b = decodeAll(CE, bytes, options(), "{\"specversion\":\"1.0\",\"id\":\"x\",\"source\":\"s\","
                + "\"type\":\"t\",\"data_base64\":\"5L2g5aW9\"}").get(0);
        assertEquals("你好", new String((byte[]) b[0], StandardCharsets.UTF_8));
    }

    /** A batch (application/cloudevents-batch+json) is a JSON array of events: one row each, each checked. */
    @Test
    void aBatchGivesARowPerEvent() throws Exception {
        RowType t = rowType("id", DataType.string(), "tenant", DataType.string());
        assertEquals("[[e-1, t1], [e-1, t1]]", decodeAll(CE, t, options(), "[" + EVENT + "," + EVENT + "]").stream()
                .map(Arrays::toString).toList().toString());
        DecodeException e = assertThrows(DecodeException.class, () -> decodeAll(CE, t, options(),
                "[" + EVENT + "," + EVENT.replace("\"id\":\"e-1\",", "") + "]"));
        assertTrue(e.getMessage().contains("'id' is missing"), e.getMessage());
    }

    /** The required attributes are checked even when the table does not declare them. */
    @Test
    void anEventWithoutARequiredAttributeIsABadRecord() {
        RowType onlyData = rowType("data", DataType.row(ORDER.names(), ORDER.types()));
        for (String[] c : new String[][]{{"\"id\":\"e-1\",", "'id' is missing"}, {"\"source\":\"/shop/订单\",",
                "'source' is missing"}, {"\"type\":\"order.paid\"", "'type' is empty"}}) {
            String bad = EVENT.replace(c[0], c[0].equals("\"type\":\"order.paid\"") ? "\"type\":\"\"" : "");
            DecodeException e = assertThrows(DecodeException.class, () -> decodeAll(CE, onlyData, options(), bad));
            assertTrue(e.getMessage().contains(c[1]), e.getMessage());
        }
        DecodeException e = assertThrows(DecodeException.class, () -> decodeAll(CE, onlyData, options(),
                EVENT.replace("\"1.0\"", "\"0.3\"")));
        assertTrue(e.getMessage().contains("specversion '0.3' is not supported"), e.getMessage());
    }

    @Test
    void rowsAreWrittenAsEventsWithStableIds() {
        RowType t = rowType("source", DataType.string(), "time", DataType.timestamp(3), "data",
                DataType.row(ORDER.names(), ORDER.types()));
        RowEncoder encoder = CE.createEncoder(FormatContext.of("t", t, options("default-type", "order.paid")));
        Object[] fields = {"/shop", 1796695200000L, new Object[]{120, "北京"}};
        String first = new String(encoder.encode(Row.insert(fields)), StandardCharsets.UTF_8);
        assertTrue(first.matches("\\{\"specversion\":\"1.0\",\"id\":\"[0-9a-f]{32}\",\"type\":\"order.paid\","
                + "\"source\":\"/shop\",\"time\":\"2026-12-08T02:00:00(\\.000)?Z\",\"data\":\\{\"amount\":120,"
                + "\"city\":\"北京\"}}"), first);
        assertEquals(first, new String(encoder.encode(Row.insert(fields)), StandardCharsets.UTF_8),
                "the same row, the same id");
        assertNotEquals(first, new String(encoder.encode(Row.insert("/shop", 1796695200000L,
                new Object[]{121, "北京"})), StandardCharsets.UTF_8));

        RowType text = rowType("id", DataType.string(), "source", DataType.string(), "type", DataType.string(),
                "data", DataType.string());
        RowEncoder e = CE.createEncoder(FormatContext.of("t", text, options()));
        assertEquals("{\"specversion\":\"1.0\",\"id\":\"a\",\"source\":\"s\",\"type\":\"t\",\"data\":{\"k\":[1,2]}}",
                new String(e.encode(Row.insert("a", "s", "t", " {\"k\":[1,2]} ")), StandardCharsets.UTF_8));
        assertEquals("{\"specversion\":\"1.0\",\"id\":\"a\",\"source\":\"s\",\"type\":\"t\",\"data\":\"not {json\"}",
                new String(e.encode(Row.insert("a", "s", "t", "not {json")), StandardCharsets.UTF_8));
    }

    @Test
    void writingNeedsASourceAndAType() {
        ConfigException e = assertThrows(ConfigException.class, () -> CE.createEncoder(FormatContext.of("t",
                rowType("data", DataType.string()), options("default-source", "/s"))));
        assertTrue(e.getMessage().contains("'cloudevents.default-type'"), e.getMessage());
        e = assertThrows(ConfigException.class, () -> CE.createEncoder(FormatContext.of("t",
                rowType("Order_Id", DataType.string(), "source", DataType.string(), "type", DataType.string()),
                options())));
        assertTrue(e.getMessage().contains("lower-case letters and digits"), e.getMessage());
    }
}
