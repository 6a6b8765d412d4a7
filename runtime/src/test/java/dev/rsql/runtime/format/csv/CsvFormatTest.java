package dev.rsql.runtime.format.csv;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.format.DecodeException;
import dev.rsql.runtime.format.FormatContext;
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
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static dev.rsql.runtime.format.FormatTesting.assertValue;
import static dev.rsql.runtime.format.FormatTesting.decodeAll;
import static dev.rsql.runtime.format.FormatTesting.decodeOne;
import static dev.rsql.runtime.format.FormatTesting.options;
import static dev.rsql.runtime.format.FormatTesting.rowType;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CsvFormatTest {

    private static final CsvFormatFactory CSV = new CsvFormatFactory();

    static DataType t(Kind k) {
        return DataType.of(k);
    }

    static long ts(String isoLocal) {
        return LocalDateTime.parse(isoLocal).toInstant(ZoneOffset.UTC).toEpochMilli();
    }

    static Stream<Arguments> fieldCases() {
        return Stream.of(
                Arguments.of(t(Kind.BOOLEAN), "true", true),
                Arguments.of(t(Kind.BOOLEAN), "FALSE", false),
                Arguments.of(t(Kind.TINYINT), "-5", (byte) -5),
                Arguments.of(t(Kind.SMALLINT), "1000", (short) 1000),
                Arguments.of(t(Kind.INT), " 42 ", 42),
                Arguments.of(t(Kind.BIGINT), "12345678901", 12345678901L),
                Arguments.of(t(Kind.FLOAT), "1.5", 1.5f),
                Arguments.of(t(Kind.DOUBLE), "77.05", 77.05),
                Arguments.of(DataType.decimal(6, 2), "1.005", new BigDecimal("1.01")),
                Arguments.of(DataType.string(), "hello world", "hello world"),
                Arguments.of(DataType.string(), "\"a,b \"\"q\"\"\"", "a,b \"q\""),
                Arguments.of(DataType.string(), "", ""),
                Arguments.of(DataType.string(), "\"\"", ""),
                Arguments.of(t(Kind.INT), "", null),
                Arguments.of(t(Kind.VARBINARY), "AQID", new byte[]{1, 2, 3}),
                Arguments.of(t(Kind.DATE), "2024-03-01", (int) LocalDate.parse("2024-03-01").toEpochDay()),
                Arguments.of(t(Kind.TIME), "10:00:01.5", 36_001_500),
                Arguments.of(t(Kind.TIMESTAMP), "2024-03-01 10:00:01.390", ts("2024-03-01T10:00:01.390")),
                Arguments.of(t(Kind.TIMESTAMP), "2024-03-01T11:00:01.390+01:00", ts("2024-03-01T10:00:01.390")),
                Arguments.of(t(Kind.TIMESTAMP_LTZ), "1709287201390", 1709287201390L),
                Arguments.of(DataType.array(t(Kind.INT)), "\"[1,2,null]\"", Arrays.asList(1, 2, null)),
                Arguments.of(DataType.map(DataType.string(), t(Kind.BIGINT)), "\"{\"\"k\"\":1}\"", Map.of("k", 1L)),
                Arguments.of(DataType.row(List.of("a", "b"), List.of(t(Kind.INT), DataType.string())),
                        "\"{\"\"a\"\":1,\"\"b\"\":\"\"x\"\"}\"", new Object[]{1, "x"}));
    }

    @ParameterizedTest(name = "{0} from {1}")
    @MethodSource("fieldCases")
    void decodesEveryType(DataType type, String field, Object expected) throws Exception {
        Object[] row = decodeOne(CSV, rowType("id", t(Kind.INT), "f", type, "z", DataType.string()), Options.empty(),
                "1," + field + ",end");
        assertEquals(1, row[0]);
        assertValue(expected, row[1], type + " from " + field);
        assertEquals("end", row[2]);
    }

    @Test
    void missingTrailingColumnsAreNullAndExtraOnesIgnored() throws Exception {
        RowType rt = rowType("a", t(Kind.INT), "b", DataType.string(), "c", t(Kind.DOUBLE));
        assertValue(new Object[]{1, null, null}, decodeOne(CSV, rt, Options.empty(), "1"), "one field");
        assertValue(new Object[]{1, "x", null}, decodeOne(CSV, rt, Options.empty(), "1,x"), "two fields");
        assertValue(new Object[]{1, "x", 2.0}, decodeOne(CSV, rt, Options.empty(), "1,x,2,extra,more\r\n"), "extra");
    }

    @Test
    void delimitersQuotesNullLiteralsAndComments() throws Exception {
        RowType rt = rowType("a", t(Kind.INT), "b", DataType.string(), "c", DataType.string());
        assertValue(new Object[]{1, "x", "y"}, decodeOne(CSV, rt, options("fieldDelimiter", "\\t"), "1\tx\ty"), "tab");
        assertValue(new Object[]{1, "x", "y"}, decodeOne(CSV, rt, options("delimiter", "\\u0001"), "1\u0001x\u0001y"), "u0001");
        assertValue(new Object[]{1, "x", "y"}, decodeOne(CSV, rt, options("field-delimiter", "\u0001"), "1\u0001x\u0001y"), "raw ctrl");
        assertValue(new Object[]{1, "x", "y"}, decodeOne(CSV, rt, options("field-delimiter", "||"), "1||x||y"), "multi-char");
        assertValue(new Object[]{1, "a;b", "c"}, decodeOne(CSV, rt, options("field-delimiter", ";", "quote-character", "'"),
                "1;'a;b';c"), "single quote");
        Options nl = options("null-literal", "\\N");
        assertValue(new Object[]{null, null, ""}, decodeOne(CSV, rt, nl, "\\N,\\N,"), "null literal");
        assertValue(new Object[]{null, "\\N", null}, decodeOne(CSV, rt, nl, ",\"\\N\""), "quoted literal is a string");
        List<Object[]> rows = decodeAll(CSV, rt, options("allow-comments", "true"), "# header\n1,a,b\n\n2,\"multi\nline\",c\n");
        assertEquals(2, rows.size());
        assertValue(new Object[]{2, "multi\nline", "c"}, rows.get(1), "quoted line break");
        assertThrows(ConfigException.class, () -> decodeAll(CSV, rt, options("quote-character", "ab"), "1"));
        assertThrows(ConfigException.class, () -> decodeAll(CSV, rt, options("field-delimiter", ""), "1"));
    }

    @Test
    void badValuesNameTheColumn() {
        RowType rt = rowType("id", t(Kind.INT), "amount", t(Kind.DOUBLE), "ts", t(Kind.TIMESTAMP),
                "tags", DataType.array(t(Kind.INT)));
        DecodeException e = assertThrows(DecodeException.class, () -> decodeAll(CSV, rt, Options.empty(), "1,abc"));
        assertEquals("amount", e.field());
        assertTrue(e.getMessage().contains("\"abc\""), e.getMessage());
        e = assertThrows(DecodeException.class, () -> decodeAll(CSV, rt, Options.empty(), "x1"));
        assertEquals("id", e.field());
        e = assertThrows(DecodeException.class, () -> decodeAll(CSV, rt, Options.empty(), "1,2,2024-13-01 00:00:00"));
        assertEquals("ts", e.field());
        e = assertThrows(DecodeException.class, () -> decodeAll(CSV, rt, Options.empty(), "1,2,,\"[1,\"\"x\"\"]\""));
        assertEquals("tags[1]", e.field());
        e = assertThrows(DecodeException.class, () -> decodeAll(CSV, rt, Options.empty(), "1,\"2"));
        assertEquals("amount", e.field());
        assertTrue(e.getMessage().contains("unterminated"), e.getMessage());
    }

    static String encode(RowType rt, Options o, Object... values) {
        RowEncoder enc = CSV.createEncoder(FormatContext.of("t", rt, o));
        return new String(enc.encode(Row.insert(values)), StandardCharsets.UTF_8);
    }

    @Test
    void encodesWithQuotingWhereNeeded() {
        long t0 = ts("2024-03-01T10:00:01.390");
        RowType rt = rowType("a", t(Kind.INT), "s", DataType.string(), "ts", t(Kind.TIMESTAMP), "d", DataType.decimal(10, 2),
                "b", t(Kind.VARBINARY), "arr", DataType.array(DataType.string()), "n", t(Kind.DOUBLE));
        assertEquals("1,plain,2024-03-01 10:00:01.390,1.50,AQI=,\"[\"\"x\"\",null]\",",
                encode(rt, Options.empty(), 1, "plain", t0, new BigDecimal("1.50"), new byte[]{1, 2},
                        Arrays.asList("x", null), null));
        assertEquals("2,\"a,b\",,,,,NaN", encode(rt, Options.empty(), 2, "a,b", null, null, null, null, Double.NaN));
        assertEquals("3,\"say \"\"hi\"\"\",,,,,", encode(rt, Options.empty(), 3, "say \"hi\"", null, null, null, null, null));
        assertEquals("4,\"line\nbreak\",,,,,", encode(rt, Options.empty(), 4, "line\nbreak", null, null, null, null, null));
        assertEquals("5|\"\"|\\N|\\N|\\N|\\N|\\N", encode(rt, options("field-delimiter", "|", "null-literal", "\\N"),
                5, "", null, null, null, null, null));
        assertEquals("6|\"\\N\"|\\N|\\N|\\N|\\N|\\N", encode(rt, options("field-delimiter", "|", "null-literal", "\\N"),
                6, "\\N", null, null, null, null, null));
    }

    @Test
    void roundTrip() throws Exception {
        long t0 = ts("2024-03-01T10:00:01.390");
        RowType rt = rowType("b", t(Kind.BOOLEAN), "i", t(Kind.INT), "l", t(Kind.BIGINT), "f", t(Kind.FLOAT),
                "d", t(Kind.DOUBLE), "dec", DataType.decimal(12, 3), "s", DataType.string(), "s2", DataType.string(),
                "bin", t(Kind.VARBINARY), "dt", t(Kind.DATE), "tm", t(Kind.TIME), "ts", t(Kind.TIMESTAMP),
                "m", DataType.map(t(Kind.INT), DataType.array(t(Kind.DOUBLE))),
                "r", DataType.row(List.of("x", "y"), List.of(t(Kind.TIMESTAMP), DataType.string())), "nul", t(Kind.INT),
                "nuls", DataType.string());
        Map<Object, Object> m = new LinkedHashMap<>();
        m.put(1, List.of(1.5, 2.0));
        Object[] values = {true, -7, Long.MAX_VALUE, 0.25f, 1e-9, new BigDecimal("-123.456"), "a,\"b\"\nc", "",
                new byte[]{9, 8, 7}, 19783, 1234, t0, m, new Object[]{t0, "y"}, null, null};
        for (Options o : List.of(options("null-literal", "NULL"), options("field-delimiter", "\\t", "null-literal", ""),
                options("field-delimiter", ";", "quote-character", "'", "null-literal", "\\N"))) {
            RowEncoder enc = CSV.createEncoder(FormatContext.of("t", rt, o));
            byte[] line = enc.encode(Row.insert(values));
            Object[] back = decodeOne(CSV, rt, o, new String(line, StandardCharsets.UTF_8));
            for (int i = 0; i < values.length; i++) {
                assertValue(values[i], back[i], o + " column " + rt.name(i) + " via " + new String(line, StandardCharsets.UTF_8));
            }
        }
        // without a null literal a NULL string reads back as the empty string (documented)
        RowType one = rowType("s", DataType.string(), "i", t(Kind.INT));
        String line = encode(one, Options.empty(), null, null);
        assertEquals(",", line);
        Object[] back = decodeOne(CSV, one, Options.empty(), line);
        assertEquals("", back[0]);
        assertNull(back[1]);
    }

    /** Epoch numbers in TIMESTAMP fields become wall-clock times of the job's zone; TIMESTAMP_LTZ stays the instant. */
    @Test
    void epochTimestampsAreReadInTheJobsTimeZone() throws Exception {
        RowType rt = rowType("ts", t(Kind.TIMESTAMP), "ltz", t(Kind.TIMESTAMP_LTZ), "txt", t(Kind.TIMESTAMP),
                "r", DataType.row(List.of("t"), List.of(t(Kind.TIMESTAMP))));
        dev.rsql.runtime.format.EpochWallClock shanghai =
                dev.rsql.runtime.format.EpochWallClock.of(java.time.ZoneId.of("Asia/Shanghai"));
        List<Object[]> out = new java.util.ArrayList<>();
        CSV.createDecoder(new FormatContext("t", rt, new int[]{0, 1, 2, 3}, 4, Options.empty(), null, shanghai))
                .decode("0,0,1970-01-01 00:00:00,\"{\"\"t\"\":0}\"".getBytes(StandardCharsets.UTF_8), out::add);
        long eight = 8 * 3_600_000L;
        assertValue(new Object[]{eight, 0L, 0L, new Object[]{eight}}, out.get(0), "shanghai");
    }
}
