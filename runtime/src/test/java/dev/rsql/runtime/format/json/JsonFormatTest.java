package dev.rsql.runtime.format.json;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.format.DecodeException;
import dev.rsql.runtime.format.FormatContext;
import dev.rsql.runtime.format.RowDecoder;
import dev.rsql.runtime.format.RowEncoder;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.DataType.Kind;
import dev.rsql.runtime.types.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static dev.rsql.runtime.format.FormatTesting.assertValue;
import static dev.rsql.runtime.format.FormatTesting.decodeAll;
import static dev.rsql.runtime.format.FormatTesting.decodeOne;
import static dev.rsql.runtime.format.FormatTesting.options;
import static dev.rsql.runtime.format.FormatTesting.rowType;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JsonFormatTest {

    private static final JsonFormatFactory JSON = new JsonFormatFactory();

    static DataType t(Kind k) {
        return DataType.of(k);
    }

    static long ts(String isoLocal) {
        return LocalDateTime.parse(isoLocal).toInstant(ZoneOffset.UTC).toEpochMilli();
    }

    static int date(String iso) {
        return (int) LocalDate.parse(iso).toEpochDay();
    }

    static int time(String iso) {
        return (int) (LocalTime.parse(iso).toNanoOfDay() / 1_000_000);
    }

    static Object[] row(Object... v) {
        return v;
    }

    static final DataType INNER = DataType.row(List.of("c", "d"), List.of(DataType.string(), t(Kind.INT)));
    static final DataType NESTED = DataType.row(List.of("a", "b"), List.of(t(Kind.BIGINT), INNER));

    static Stream<Arguments> decodeCases() {
        long t0 = ts("2024-03-01T10:00:01.390");
        return Stream.of(
                Arguments.of(t(Kind.BOOLEAN), "true", true),
                Arguments.of(t(Kind.BOOLEAN), "false", false),
                Arguments.of(t(Kind.BOOLEAN), "\"TRUE\"", true),
                Arguments.of(t(Kind.BOOLEAN), "\"false\"", false),
                Arguments.of(t(Kind.BOOLEAN), "null", null),
                Arguments.of(t(Kind.TINYINT), "12", (byte) 12),
                Arguments.of(t(Kind.TINYINT), "\"-128\"", (byte) -128),
                Arguments.of(t(Kind.SMALLINT), "300", (short) 300),
                Arguments.of(t(Kind.SMALLINT), "\" 301 \"", (short) 301),
                Arguments.of(t(Kind.INT), "5", 5),
                Arguments.of(t(Kind.INT), "-7", -7),
                Arguments.of(t(Kind.INT), "\"42\"", 42),
                Arguments.of(t(Kind.INT), "5.0", 5),
                Arguments.of(t(Kind.INT), "1e2", 100),
                Arguments.of(t(Kind.INT), "null", null),
                Arguments.of(t(Kind.BIGINT), "12345678901", 12345678901L),
                Arguments.of(t(Kind.BIGINT), "3", 3L),
                Arguments.of(t(Kind.BIGINT), "\"12345678901\"", 12345678901L),
                Arguments.of(t(Kind.BIGINT), "9223372036854775807", Long.MAX_VALUE),
                Arguments.of(t(Kind.BIGINT), "-9223372036854775808", Long.MIN_VALUE),
                Arguments.of(t(Kind.FLOAT), "1.5", 1.5f),
                Arguments.of(t(Kind.FLOAT), "\"2.25\"", 2.25f),
                Arguments.of(t(Kind.DOUBLE), "77.05", 77.05),
                Arguments.of(t(Kind.DOUBLE), "5", 5.0),
                Arguments.of(t(Kind.DOUBLE), "-1.5E-3", -0.0015),
                Arguments.of(t(Kind.DOUBLE), "\"3.25\"", 3.25),
                Arguments.of(t(Kind.DOUBLE), "\"NaN\"", Double.NaN),
                Arguments.of(t(Kind.DOUBLE), "\"-Infinity\"", Double.NEGATIVE_INFINITY),
                Arguments.of(DataType.decimal(10, 2), "12.3", new BigDecimal("12.30")),
                Arguments.of(DataType.decimal(10, 2), "\"0.125\"", new BigDecimal("0.13")),
                Arguments.of(DataType.decimal(10, 2), "7", new BigDecimal("7.00")),
                Arguments.of(DataType.decimal(38, 34), "0.1000000000000000055511151231257827",
                        new BigDecimal("0.1000000000000000055511151231257827")),
                Arguments.of(DataType.decimal(38, 0), "12345678901234567890123",
                        new BigDecimal("12345678901234567890123")),
                Arguments.of(DataType.string(), "\"abc\"", "abc"),
                Arguments.of(DataType.string(), "\"a\\\"b\\\\c\\n\\u00e9\u4e2d\"", "a\"b\\c\né中"),
                Arguments.of(DataType.string(), "12", "12"),
                Arguments.of(DataType.string(), "12.50", "12.50"),
                Arguments.of(DataType.string(), "true", "true"),
                Arguments.of(DataType.string(), "{\"a\": 1, \"b\": [true, null]}", "{\"a\":1,\"b\":[true,null]}"),
                Arguments.of(DataType.string(), "[1, \"x\"]", "[1,\"x\"]"),
                Arguments.of(DataType.withPrecision(Kind.CHAR, 3, 0), "\"abc\"", "abc"),
                Arguments.of(t(Kind.VARBINARY), "\"AQID\"", new byte[]{1, 2, 3}),
                Arguments.of(DataType.withPrecision(Kind.BINARY, 2, 0), "\"_-8\"", new byte[]{(byte) 0xff, (byte) 0xef}),
                Arguments.of(t(Kind.DATE), "\"2024-03-01\"", date("2024-03-01")),
                Arguments.of(t(Kind.DATE), "\"1969-12-31\"", -1),
                Arguments.of(t(Kind.DATE), "19783", 19783),
                Arguments.of(t(Kind.TIME), "\"10:00:01.390\"", time("10:00:01.390")),
                Arguments.of(t(Kind.TIME), "\"23:59:59\"", time("23:59:59")),
                Arguments.of(t(Kind.TIME), "\"07:30\"", time("07:30")),
                Arguments.of(t(Kind.TIMESTAMP), "\"2024-03-01 10:00:01.390\"", t0),
                Arguments.of(t(Kind.TIMESTAMP), "\"2024-03-01T10:00:01.390\"", t0),
                Arguments.of(t(Kind.TIMESTAMP), "\"2024-03-01T10:00:01.390Z\"", t0),
                Arguments.of(t(Kind.TIMESTAMP), "\"2024-03-01T18:00:01.390+08:00\"", t0),
                Arguments.of(t(Kind.TIMESTAMP), "\"2024-03-01T05:00:01.39-05:00\"", t0),
                Arguments.of(t(Kind.TIMESTAMP), "\"2024-03-01 18:00:01.390+0800\"", t0),
                Arguments.of(t(Kind.TIMESTAMP), "\"2024-03-01 10:00:01.390123456\"", t0),
                Arguments.of(t(Kind.TIMESTAMP), "\"2024-03-01 10:00:01\"", ts("2024-03-01T10:00:01")),
                Arguments.of(t(Kind.TIMESTAMP), "\"2024-03-01 10:00\"", ts("2024-03-01T10:00")),
                Arguments.of(t(Kind.TIMESTAMP), "\"2024-03-01\"", ts("2024-03-01T00:00")),
                Arguments.of(t(Kind.TIMESTAMP), "\"1960-02-29 23:59:59.999\"", ts("1960-02-29T23:59:59.999")),
                Arguments.of(t(Kind.TIMESTAMP), String.valueOf(t0), t0),
                Arguments.of(t(Kind.TIMESTAMP), "\"" + t0 + "\"", t0),
                Arguments.of(t(Kind.TIMESTAMP_LTZ), "\"2024-03-01T10:00:01.390Z\"", t0),
                Arguments.of(t(Kind.TIMESTAMP_LTZ), "\"2024-03-01 12:00:01.390+02:00\"", t0),
                Arguments.of(t(Kind.TIMESTAMP_LTZ), String.valueOf(t0), t0),
                Arguments.of(DataType.array(t(Kind.INT)), "[1, null, 3]", Arrays.asList(1, null, 3)),
                Arguments.of(DataType.array(t(Kind.INT)), "[]", List.of()),
                Arguments.of(DataType.array(DataType.string()), "\"[\\\"a\\\",\\\"b\\\"]\"", List.of("a", "b")),
                Arguments.of(DataType.array(DataType.array(t(Kind.BIGINT))), "[[1],[2,3]]",
                        List.of(List.of(1L), List.of(2L, 3L))),
                Arguments.of(DataType.multiset(DataType.string()), "[\"a\",\"a\",\"b\"]", List.of("a", "a", "b")),
                Arguments.of(DataType.map(DataType.string(), t(Kind.INT)), "{\"x\": 1, \"y\": null}",
                        mapOf("x", 1, "y", null)),
                Arguments.of(DataType.map(t(Kind.INT), DataType.string()), "{\"1\": \"one\", \"2\": \"two\"}",
                        mapOf(1, "one", 2, "two")),
                Arguments.of(DataType.map(DataType.string(), DataType.array(t(Kind.DOUBLE))), "{\"k\": [1.5]}",
                        mapOf("k", List.of(1.5))),
                Arguments.of(NESTED, "{\"a\": 7, \"b\": {\"c\": \"x\", \"d\": 9}}", row(7L, row("x", 9))),
                Arguments.of(NESTED, "{\"A\": 7, \"extra\": {\"deep\": [1]}}", row(7L, null)),
                Arguments.of(NESTED, "[7, [\"x\", 9]]", row(7L, row("x", 9))),
                Arguments.of(NESTED, "{\"b\": null}", row(null, null)),
                Arguments.of(DataType.array(INNER), "[{\"c\":\"p\",\"d\":1},null,{\"d\":2}]",
                        Arrays.asList(row("p", 1), null, row(null, 2))),
                Arguments.of(t(Kind.NULL), "{\"anything\": 1}", null));
    }

    static Map<Object, Object> mapOf(Object... kv) {
        Map<Object, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    @ParameterizedTest(name = "{0} from {1}")
    @MethodSource("decodeCases")
    void decodesEveryType(DataType type, String json, Object expected) throws Exception {
        Object[] row = decodeOne(JSON, rowType("id", t(Kind.INT), "f", type),
                Options.empty(), "{\"id\": 1, \"f\": " + json + "}");
        assertEquals(1, row[0]);
        assertValue(expected, row[1], type + " from " + json);
    }

    static Stream<Arguments> badValues() {
        return Stream.of(
                Arguments.of(t(Kind.INT), "\"abc\"", "f", "\"abc\""),
                Arguments.of(t(Kind.INT), "1.5", "f", "1.5"),
                Arguments.of(t(Kind.INT), "3000000000", "f", "3000000000"),
                Arguments.of(t(Kind.INT), "{\"x\":1}", "f", "{\"x\":1}"),
                Arguments.of(t(Kind.TINYINT), "300", "f", "300"),
                Arguments.of(t(Kind.BIGINT), "true", "f", "true"),
                Arguments.of(t(Kind.BIGINT), "12345678901234567890", "f", "12345678901234567890"),
                Arguments.of(t(Kind.DOUBLE), "\"12,5\"", "f", "\"12,5\""),
                Arguments.of(t(Kind.DOUBLE), "[1]", "f", "[1]"),
                Arguments.of(t(Kind.BOOLEAN), "\"yes\"", "f", "\"yes\""),
                Arguments.of(t(Kind.BOOLEAN), "1", "f", "1"),
                Arguments.of(DataType.decimal(4, 2), "123.45", "f", "123.45"),
                Arguments.of(DataType.decimal(4, 2), "\"1x\"", "f", "\"1x\""),
                Arguments.of(t(Kind.DATE), "\"2024-02-30\"", "f", "\"2024-02-30\""),
                Arguments.of(t(Kind.DATE), "\"01/03/2024\"", "f", "\"01/03/2024\""),
                Arguments.of(t(Kind.TIME), "\"25:00:00\"", "f", "\"25:00:00\""),
                Arguments.of(t(Kind.TIMESTAMP), "\"2024-03-01 10:00:01.390 PST\"", "f", "2024-03-01 10:00:01.390 PST"),
                Arguments.of(t(Kind.TIMESTAMP), "\"yesterday\"", "f", "\"yesterday\""),
                Arguments.of(t(Kind.TIMESTAMP), "1.5", "f", "1.5"),
                Arguments.of(t(Kind.VARBINARY), "\"not base64!\"", "f", "not base64!"),
                Arguments.of(DataType.array(t(Kind.INT)), "[1, \"x\", 3]", "f[1]", "\"x\""),
                Arguments.of(DataType.array(t(Kind.INT)), "5", "f", "5"),
                Arguments.of(DataType.map(DataType.string(), t(Kind.INT)), "{\"k\": \"v\"}", "f[k]", "\"v\""),
                Arguments.of(DataType.map(t(Kind.INT), t(Kind.INT)), "{\"one\": 1}", "f[one]", "\"one\""),
                Arguments.of(NESTED, "{\"a\": 1, \"b\": {\"c\": \"x\", \"d\": \"nine\"}}", "f.b.d", "\"nine\""),
                Arguments.of(NESTED, "{\"a\": \"seven\"}", "f.a", "\"seven\""),
                Arguments.of(DataType.array(INNER), "[{\"d\":1},{\"d\":true}]", "f[1].d", "true"),
                Arguments.of(NESTED, "\"not a row\"", "f", "not a row"));
    }

    @ParameterizedTest(name = "{0} from {1}")
    @MethodSource("badValues")
    void badValuesNameTheFieldAndTheValue(DataType type, String json, String field, String shown) {
        DecodeException e = assertThrows(DecodeException.class, () -> decodeOne(JSON,
                rowType("id", t(Kind.INT), "f", type), Options.empty(), "{\"id\": 1, \"f\": " + json + "}"));
        assertEquals(field, e.field(), e.getMessage());
        assertTrue(e.getMessage().contains("field '" + field + "'"), e.getMessage());
        assertTrue(e.getMessage().contains(shown), e.getMessage() + " should show " + shown);
    }

    @Test
    void payloadsThatAreNotObjectsNameNoField() {
        RowType rt = rowType("a", t(Kind.INT));
        for (String p : List.of("[1,2]", "42", "\"x\"", "", "   ", "{\"a\": 1", "{bad}", "{\"a\":1} trailing",
                "null")) {
            DecodeException e = assertThrows(DecodeException.class, () -> decodeAll(JSON, rt, Options.empty(), p),
                    "payload " + p);
            assertNull(e.field(), e.getMessage());
            assertTrue(e.getMessage().length() < 600, e.getMessage());
        }
        DecodeException e = assertThrows(DecodeException.class,
                () -> decodeAll(JSON, rt, Options.empty(), "[1,2]"));
        assertTrue(e.getMessage().contains("not a JSON object"), e.getMessage());
        // a member without a value is malformed JSON in that member
        e = assertThrows(DecodeException.class, () -> decodeAll(JSON, rt, Options.empty(), "{\"a\":}"));
        assertEquals("a", e.field(), e.getMessage());
    }

    @Test
    void namesMatchExactlyThenCaseInsensitivelyAndExtrasAreIgnored() throws Exception {
        RowType rt = rowType("order_id", t(Kind.BIGINT), "Name", DataType.string(), "amount", t(Kind.DOUBLE));
        for (int i = 0; i < 3; i++) {   // again, to go through the cached resolutions
            Object[] r = decodeOne(JSON, rt, Options.empty(),
                    "{\"ORDER_ID\": 5, \"x\": {\"y\": [1, {\"z\": null}]}, \"name\": \"n\", \"Name\": \"N\", \"unknown\": \"u\"}");
            assertValue(row(5L, "N", null), r, "row");
        }
        // escaped member names match too
        assertValue(row(1L, null, null), decodeOne(JSON, rt, Options.empty(), "{\"order\\u005fid\": 1}"), "escaped");
        // member names outside the BMP (fastjson2's UTF-8 reader rejects them; the decoder falls back)
        assertValue(row(3L, "😀", null), decodeOne(JSON, rt, Options.empty(),
                "{\"emoji😀\": {\"k😀\": 1}, \"order_id\": 3, \"name\": \"😀\"}"), "emoji names");
        // duplicate member: the last wins
        assertValue(row(2L, null, null), decodeOne(JSON, rt, Options.empty(), "{\"order_id\": 1, \"order_id\": 2}"), "dup");
    }

    @Test
    void missingFieldsAreNullUnlessFailOnMissingField() throws Exception {
        RowType rt = rowType("a", t(Kind.INT), "b", DataType.string(), "r", INNER);
        assertValue(row(1, null, null), decodeOne(JSON, rt, Options.empty(), "{\"a\":1}"), "missing");
        Options strict = options("fail-on-missing-field", "true");
        DecodeException e = assertThrows(DecodeException.class, () -> decodeOne(JSON, rt, strict, "{\"a\":1, \"r\": null}"));
        assertEquals("b", e.field());
        e = assertThrows(DecodeException.class,
                () -> decodeOne(JSON, rt, strict, "{\"a\":1, \"b\": null, \"r\": {\"c\": \"x\"}}"));
        assertEquals("r.d", e.field());
        // present but null is fine
        assertValue(row(1, null, row("x", null)),
                decodeOne(JSON, rt, strict, "{\"a\":1, \"b\": null, \"r\": {\"c\": \"x\", \"d\": null}}"), "nulls");
    }

    @Test
    void decodedFieldsGoToTheirTargetPositions() throws Exception {
        RowType rt = rowType("a", t(Kind.INT), "b", DataType.string());
        RowDecoder d = JSON.createDecoder(new FormatContext("t", rt, new int[]{3, 1}, 4, Options.empty()));
        List<Object[]> out = new ArrayList<>();
        d.decode("{\"b\":\"x\",\"a\":7}".getBytes(StandardCharsets.UTF_8), out::add);
        d.decode("{\"a\":8}".getBytes(StandardCharsets.UTF_8), out::add);
        assertValue(row(null, "x", null, 7), out.get(0), "first");
        assertValue(row(null, null, null, 8), out.get(1), "second (fresh array)");
    }

    @Test
    void arrayOfRowsWhenEnabled() throws Exception {
        RowType rt = rowType("a", t(Kind.INT));
        List<Object[]> rows = decodeAll(JSON, rt, options("msgIsJsonArray", "true"), "[{\"a\":1},{\"a\":2}]");
        assertEquals(2, rows.size());
        assertEquals(2, rows.get(1)[0]);
        assertValue(row(3), decodeOne(JSON, rt, options("msgIsJsonArray", "true"), "{\"a\":3}"), "object still fine");
    }

    // ------------------------------------------------------------------------------------------- encoding

    static String encode(RowType rt, Row row, Options opts) {
        RowEncoder e = JSON.createEncoder(FormatContext.of("t", rt, opts));
        return new String(e.encode(row), StandardCharsets.UTF_8);
    }

    static Stream<Arguments> encodeCases() {
        long t0 = ts("2024-03-01T10:00:01.390");
        return Stream.of(
                Arguments.of(t(Kind.BOOLEAN), true, "true"),
                Arguments.of(t(Kind.TINYINT), (byte) -3, "-3"),
                Arguments.of(t(Kind.SMALLINT), (short) 300, "300"),
                Arguments.of(t(Kind.INT), 42, "42"),
                Arguments.of(t(Kind.BIGINT), Long.MIN_VALUE, "-9223372036854775808"),
                Arguments.of(t(Kind.FLOAT), 1.1f, "1.1"),
                Arguments.of(t(Kind.DOUBLE), 77.05, "77.05"),
                Arguments.of(t(Kind.DOUBLE), 1817.0, "1817.0"),
                Arguments.of(t(Kind.DOUBLE), Double.NaN, "\"NaN\""),
                Arguments.of(t(Kind.DOUBLE), Double.POSITIVE_INFINITY, "\"Infinity\""),
                Arguments.of(t(Kind.FLOAT), Float.NEGATIVE_INFINITY, "\"-Infinity\""),
                Arguments.of(DataType.decimal(10, 3), new BigDecimal("12.300"), "12.300"),
                Arguments.of(DataType.decimal(10, 0), new BigDecimal("1E+3"), "1000"),
                Arguments.of(DataType.string(), "a\"b\\c\nd\te\u0001é中😀", "\"a\\\"b\\\\c\\nd\\te\\u0001é中😀\""),
                Arguments.of(DataType.withPrecision(Kind.VARBINARY, 10, 0), new byte[]{1, 2, 3}, "\"AQID\""),
                Arguments.of(t(Kind.DATE), date("2024-03-01"), "\"2024-03-01\""),
                Arguments.of(t(Kind.DATE), date("1969-07-20"), "\"1969-07-20\""),
                Arguments.of(t(Kind.TIME), time("10:00:01.390"), "\"10:00:01.390\""),
                Arguments.of(t(Kind.TIME), time("10:00:01"), "\"10:00:01\""),
                Arguments.of(t(Kind.TIMESTAMP), t0, "\"2024-03-01 10:00:01.390\""),
                Arguments.of(t(Kind.TIMESTAMP), ts("1960-01-01T00:00:00.001"), "\"1960-01-01 00:00:00.001\""),
                Arguments.of(t(Kind.TIMESTAMP_LTZ), t0, "\"2024-03-01 10:00:01.390\""),
                Arguments.of(DataType.array(t(Kind.INT)), Arrays.asList(1, null, 3), "[1,null,3]"),
                Arguments.of(DataType.multiset(DataType.string()), List.of("a", "a"), "[\"a\",\"a\"]"),
                Arguments.of(DataType.map(DataType.string(), t(Kind.INT)), mapOf("x", 1, "y", null), "{\"x\":1,\"y\":null}"),
                Arguments.of(DataType.map(t(Kind.INT), t(Kind.TIMESTAMP)), mapOf(1, t0), "{\"1\":\"2024-03-01 10:00:01.390\"}"),
                Arguments.of(NESTED, row(7L, row("x", null)), "{\"a\":7,\"b\":{\"c\":\"x\",\"d\":null}}"),
                Arguments.of(DataType.string(), null, "null"));
    }

    @ParameterizedTest(name = "{0}: {2}")
    @MethodSource("encodeCases")
    void encodesEveryType(DataType type, Object value, String json) {
        RowType rt = rowType("id", t(Kind.INT), "f", type);
        assertEquals("{\"id\":1,\"f\":" + json + "}", encode(rt, Row.insert(1, value), Options.empty()));
    }

    @Test
    void isoTimestampsAndChangeFlags() {
        long t0 = ts("2024-03-01T10:00:01.390");
        RowType rt = rowType("ts", t(Kind.TIMESTAMP), "ltz", t(Kind.TIMESTAMP_LTZ));
        assertEquals("{\"ts\":\"2024-03-01T10:00:01.390\",\"ltz\":\"2024-03-01T10:00:01.390Z\"}",
                encode(rt, Row.insert(t0, t0), options("timestamp-format.standard", "ISO-8601")));
        assertEquals("{\"ts\":null,\"ltz\":null,\"op\":\"-U\"}",
                encode(rt, new Row(RowKind.UPDATE_BEFORE, new Object[]{null, null}), Options.empty()));
        assertEquals("{\"ts\":null,\"ltz\":null,\"op\":\"+U\"}",
                encode(rt, new Row(RowKind.UPDATE_AFTER, new Object[]{null, null}), Options.empty()));
        RowType withOp = rowType("op", DataType.string());
        assertEquals("{\"op\":\"x\",\"_op\":\"-D\"}", encode(withOp, new Row(RowKind.DELETE, new Object[]{"x"}), Options.empty()));
        assertThrows(ConfigException.class, () -> encode(rt, Row.insert(t0, t0), options("timestamp-format.standard", "RFC")));
    }

    @Test
    void integersAreWrittenAsLongToStringWrites() {
        RowType rt = rowType("b", t(Kind.BIGINT), "i", t(Kind.INT));
        RowEncoder e = JSON.createEncoder(FormatContext.of("t", rt, Options.empty()));
        Random random = new Random(13);
        List<Long> values = new ArrayList<>(List.of(0L, 9L, 10L, 99L, 100L, 101L, -1L, -9L, -10L, -100L,
                (long) Integer.MAX_VALUE, Integer.MAX_VALUE + 1L, (long) Integer.MIN_VALUE, Integer.MIN_VALUE - 1L,
                999_999_999_999_999_999L, 1_000_000_000_000_000_000L, Long.MAX_VALUE, Long.MIN_VALUE + 1, Long.MIN_VALUE));
        for (int k = 0; k < 2000; k++) {
            values.add(random.nextLong() >> random.nextInt(64));
        }
        for (long v : values) {
            int i = (int) v;
            assertEquals("{\"b\":" + v + ",\"i\":" + i + "}",
                    new String(e.encode(Row.insert(v, i)), StandardCharsets.UTF_8), Long.toString(v));
        }
    }

    @Test
    void encoderReusesItsBufferSafely() {
        RowType rt = rowType("s", DataType.string());
        RowEncoder e = JSON.createEncoder(FormatContext.of("t", rt, Options.empty()));
        byte[] first = e.encode(Row.insert("a".repeat(2000)));
        byte[] second = e.encode(Row.insert("b"));
        assertEquals(2008, first.length);
        assertEquals("{\"s\":\"b\"}", new String(second, StandardCharsets.UTF_8));
        assertEquals('a', (char) first[100]);
    }

    @Test
    void roundTripOfEveryType() throws Exception {
        long t0 = ts("2024-03-01T10:00:01.390");
        Object[][] cols = {
                {"b", t(Kind.BOOLEAN), false},
                {"ti", t(Kind.TINYINT), (byte) 7},
                {"si", t(Kind.SMALLINT), (short) -300},
                {"i", t(Kind.INT), Integer.MAX_VALUE},
                {"l", t(Kind.BIGINT), Long.MIN_VALUE},
                {"f", t(Kind.FLOAT), 3.14f},
                {"d", t(Kind.DOUBLE), 0.1 + 0.2},
                {"nan", t(Kind.DOUBLE), Double.NaN},
                {"dec", DataType.decimal(20, 4), new BigDecimal("-12345678.9012")},
                {"s", DataType.string(), "x\"y\n😀"},
                {"bin", t(Kind.VARBINARY), new byte[]{0, -1, 127}},
                {"dt", t(Kind.DATE), date("1999-12-31")},
                {"tm", t(Kind.TIME), time("23:59:59.999")},
                {"ts", t(Kind.TIMESTAMP), t0},
                {"ltz", t(Kind.TIMESTAMP_LTZ), -1L},
                {"arr", DataType.array(t(Kind.INT)), Arrays.asList(1, null)},
                {"ms", DataType.multiset(DataType.string()), List.of("a", "a")},
                {"m", DataType.map(t(Kind.BIGINT), DataType.array(DataType.string())), mapOf(5L, List.of("q"))},
                {"r", NESTED, row(1L, row("z", 2))},
                {"nul", DataType.string(), null},
        };
        RowType.Builder b = RowType.builder();
        Object[] values = new Object[cols.length];
        for (int i = 0; i < cols.length; i++) {
            b.field((String) cols[i][0], (DataType) cols[i][1]);
            values[i] = cols[i][2];
        }
        RowType rt = b.build();
        for (String standard : List.of("SQL", "ISO-8601")) {
            Options opts = options("timestamp-format.standard", standard);
            String json = encode(rt, Row.insert(values), opts);
            Object[] back = decodeOne(JSON, rt, opts, json);
            for (int i = 0; i < cols.length; i++) {
                assertValue(values[i], back[i], standard + " " + cols[i][0] + " via " + json);
            }
        }
    }

    /** The usual layouts, read at fixed positions, give what java.time gives; out-of-range values still fail. */
    @Test
    void timestampsInTheUsualLayouts() {
        java.util.Random r = new java.util.Random(20261202);
        for (int k = 0; k < 20_000; k++) {
            LocalDateTime t = LocalDateTime.of(1 + r.nextInt(9999), 1 + r.nextInt(12), 1, r.nextInt(24), r.nextInt(60),
                    r.nextInt(60), r.nextInt(1000) * 1_000_000).plusDays(r.nextInt(31));
            String text = String.format("%04d-%02d-%02d%s%02d:%02d:%02d", t.getYear(), t.getMonthValue(),
                    t.getDayOfMonth(), r.nextBoolean() ? " " : "T", t.getHour(), t.getMinute(), t.getSecond());
            boolean withMillis = r.nextBoolean();
            if (withMillis) {
                text += String.format(".%03d", t.getNano() / 1_000_000);
            }
            long expected = (withMillis ? t : t.withNano(0)).toInstant(ZoneOffset.UTC).toEpochMilli();
            assertEquals(expected, ValueText.parseTimestamp(text), text);
        }
        for (String bad : List.of("2024-13-01 10:00:00", "2023-02-29 10:00:00.000", "2024-03-01 24:00:00",
                "2024-03-01 10:60:00", "2024-03-01 10:00:60.000", "2024-03-00 10:00:00", "2024-03-01 1a:00:00.000",
                "2024-03-01 10:00:00.0a0")) {
            assertThrows(IllegalArgumentException.class, () -> ValueText.parseTimestamp(bad), bad);
        }
        assertEquals(ts("2024-03-01T10:00:00.120"), ValueText.parseTimestamp("2024-03-01 10:00:00,120"));
        assertEquals(ts("2024-02-29T10:00:00"), ValueText.parseTimestamp("2024-02-29t10:00:00"));
    }

    @Test
    void valueTextHelpers() {
        assertEquals("2024-03-01 10:00:01.390", ValueText.formatTimestamp(ts("2024-03-01T10:00:01.390")));
        assertEquals("0001-01-01", ValueText.formatDate((int) LocalDate.of(1, 1, 1).toEpochDay()));
        assertEquals("+10000-01-01", ValueText.formatDate((int) LocalDate.of(10000, 1, 1).toEpochDay()));
        for (int d = -800_000; d < 800_000; d += 997) {
            String s = ValueText.formatDate(d);
            assertEquals(LocalDate.ofEpochDay(d).toString(), s);
            assertEquals(d, ValueText.parseDate(s));
        }
        assertThrows(IllegalArgumentException.class, () -> ValueText.parseTimestamp("2024-03-01X10:00"));
        assertThrows(IllegalArgumentException.class, () -> ValueText.parseTimestamp("2024-03-01 10:00:00+25:00"));
        assertEquals(ts("2024-03-01T10:00:00"), ValueText.parseTimestamp(" 2024-03-01 10:00:00 UTC "));
        assertEquals("[1, null]", ValueText.toSqlString(DataType.array(t(Kind.INT)), Arrays.asList(1, null)));
        assertEquals("(x, 2024-03-01)", ValueText.toSqlString(
                DataType.row(List.of("a", "b"), List.of(DataType.string(), t(Kind.DATE))), row("x", date("2024-03-01"))));
    }
}
