package dev.rsql.runtime.format.json;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.format.DecodeException;
import dev.rsql.runtime.format.FormatContext;
import dev.rsql.runtime.format.GuardedRowDecoder;
import dev.rsql.runtime.format.RowDecoder;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.DataType.Kind;
import dev.rsql.runtime.types.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static dev.rsql.runtime.format.FormatTesting.assertValue;
import static dev.rsql.runtime.format.FormatTesting.decodeAll;
import static dev.rsql.runtime.format.FormatTesting.decodeOne;
import static dev.rsql.runtime.format.FormatTesting.norm;
import static dev.rsql.runtime.format.FormatTesting.options;
import static dev.rsql.runtime.format.FormatTesting.rowType;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Payloads written to hurt a decoder: deep nesting, JSON that fastjson2 would accept leniently, invalid UTF-8. */
class JsonHostileInputTest {

    private static final JsonFormatFactory JSON = new JsonFormatFactory();
    private static final DataType INNER = DataType.row(List.of("c"), List.of(DataType.of(Kind.INT)));
    private static final RowType TYPE = rowType("id", DataType.of(Kind.INT), "s", DataType.string(),
            "arr", DataType.array(DataType.of(Kind.INT)), "r", INNER,
            "m", DataType.map(DataType.string(), DataType.string()));

    static String nested(int depth, String open, String close, String inner) {
        return open.repeat(depth) + inner + close.repeat(depth);
    }

    static DecodeException bad(Options opts, String payload) {
        return assertThrows(DecodeException.class, () -> decodeAll(JSON, TYPE, opts, payload), payload);
    }

    static DecodeException bad(String payload) {
        return bad(Options.empty(), payload);
    }

    // ------------------------------------------------------------------------------------------- nesting

    @Test
    void tenThousandLevelsInAnUndeclaredMemberAreABadRecordNamingIt() {
        for (String deep : List.of(nested(10_000, "[", "]", "1"), nested(10_000, "{\"k\":", "}", "1"))) {
            DecodeException e = bad("{\"id\": 1, \"junk\": " + deep + ", \"s\": \"x\"}");
            assertEquals("junk", e.field(), e.getMessage());
            assertTrue(e.getMessage().contains("nested deeper than 1000 levels"), e.getMessage());
        }
    }

    @Test
    void tenThousandLevelsInDeclaredFieldsAreABadRecordNamingThem() {
        String arrays = nested(10_000, "[", "]", "1");
        String objects = nested(10_000, "{\"k\":", "}", "1");
        assertEquals("s", bad("{\"id\": 1, \"s\": " + arrays + "}").field());
        assertEquals("s", bad("{\"id\": 1, \"s\": " + objects + "}").field());
        assertEquals("arr", bad("{\"arr\": " + arrays + "}").field().replaceAll("\\[.*", ""));
        assertEquals("r.x", bad("{\"r\": {\"c\": 1, \"x\": " + objects + "}}").field());
        assertEquals("m[k]", bad("{\"m\": {\"k\": " + objects + "}}").field());
        // a nested ROW given positionally, with the deep value as an extra element
        assertEquals("r", bad("{\"r\": [1, " + arrays + "]}").field());
        // also in a STRING that holds JSON for a nested column
        assertEquals("r.c", bad("{\"r\": \"" + nested(10_000, "[", "]", "1") + "\"}").field());
    }

    @Test
    void nestingUpToTheLimitIsFineAndTheLimitIsAnOption() throws Exception {
        // the record's object is level 1: 999 more levels are allowed by default
        Object[] row = decodeOne(JSON, TYPE, Options.empty(),
                "{\"id\": 7, \"junk\": " + nested(999, "[", "]", "") + ", \"s\": " + nested(999, "[", "]", "") + "}");
        assertEquals(7, row[0]);
        assertEquals(nested(999, "[", "]", ""), row[1]);
        bad("{\"id\": 7, \"junk\": " + nested(1000, "[", "]", "") + "}");

        Options shallow = options("max-nesting-depth", "3");
        assertEquals(1, decodeOne(JSON, TYPE, shallow, "{\"id\": 1, \"junk\": [[1]], \"r\": {\"c\": 2}}")[0]);
        assertEquals("junk", bad(shallow, "{\"id\": 1, \"junk\": [[[1]]]}").field());
        assertEquals("r.c", bad(shallow, "{\"r\": {\"c\": [[1]]}}").field());
        assertThrows(ConfigException.class, () -> decodeAll(JSON, TYPE, options("max-nesting-depth", "0"), "{}"));
    }

    // ------------------------------------------------------------------------------------------- syntax

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            // missing commas: between members read, members skipped, elements
            "{\"id\": 1 \"s\": \"x\"}",
            "{\"id\": 1, \"junk\": 2 \"s\": \"x\"}",
            "{\"id\": 1, \"arr\": [1 2]}",
            "{\"id\": 1, \"junk\": [1 2]}",
            "{\"id\": 1, \"junk\": {\"a\": 1 \"b\": 2}}",
            "{\"s\": {\"a\": 1 \"b\": 2}}",
            "{\"r\": {\"c\": 1 \"x\": 2}}",
            "{\"m\": {\"a\": \"1\" \"b\": \"2\"}}",
            // trailing and doubled commas
            "{\"id\": 1,}",
            "{\"id\": 1, \"s\": \"x\",}",
            "{\"arr\": [1, 2,]}",
            "{\"arr\": [,1]}",
            "{\"junk\": [1, 2,]}",
            "{\"junk\": {\"a\": 1,}}",
            "{\"s\": [1, 2,]}",
            "{\"s\": {\"a\": 1,}}",
            "{\"r\": [1,]}",
            "{\"m\": {\"a\": \"1\",}}",
            "{\"id\": 1,, \"s\": \"x\"}",
            "{\"id\": 1},",
            // single quotes: names and values, read and skipped
            "{'id': 1}",
            "{\"s\": 'x'}",
            "{\"junk\": 'x'}",
            "{\"arr\": ['1']}",
            "{\"junk\": {'a': 1}}",
            "{\"s\": {\"a\": 'x'}}",
            // unquoted names, missing values, content after the record
            "{id: 1}",
            "{\"junk\": {a: 1}}",
            "{\"id\": }",
            "{\"arr\": [1, ]}",
            "{\"id\": 1} {\"id\": 2}",
    })
    void malformedJsonIsABadRecord(String payload) {
        DecodeException e = bad(payload);
        assertTrue(e.getMessage().matches("(?s).*(malformed JSON|unexpected content after).*"), e.getMessage());
        assertTrue(e.getMessage().length() < 600, e.getMessage());
    }

    @Test
    void theSameRecordsAreReadWhenLenient() throws Exception {
        Options lenient = options("lenient", "true");
        for (String p : List.of("{\"id\": 1,}", "{'id': 1, \"s\": 'x'}", "{id: 1, \"arr\": [1, 2,]}",
                "{\"id\": 1, \"junk\": {'a': [1, {}], b: 2,}}")) {
            assertEquals(1, decodeOne(JSON, TYPE, lenient, p)[0], p);
        }
        // nesting stays limited
        assertEquals("junk", bad(lenient, "{\"junk\": " + nested(10_000, "[", "]", "") + "}").field());
    }

    @Test
    void wellFormedJsonStillReads() throws Exception {
        Object[] row = decodeOne(JSON, TYPE, Options.empty(), "{ \"id\" : 1 , \"junk\" : { \"a\" : [ 1 , { } , [ ] ,"
                + " \"x,y\" , null , true , -1.5e3 ] , \"b\" : { \"c\" : { } } } , \"s\" : { \"q\" : [ 1 , \"}\" , { } ] } ,"
                + " \"arr\" : [ ] , \"r\" : { } , \"m\" : { \"k\" : [ 1 , 2 ] } }");
        assertValue(new Object[]{1, "{\"q\":[1,\"}\",{}]}", List.of(), new Object[]{null},
                java.util.Map.of("k", "[1,2]")}, row, "row");
    }

    // ------------------------------------------------------------------------------------------- UTF-8

    static byte[] withBytes(String before, byte[] middle, String after) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(before.getBytes(StandardCharsets.UTF_8));
        out.writeBytes(middle);
        out.writeBytes(after.getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    static byte[] b(int... v) {
        byte[] r = new byte[v.length];
        for (int i = 0; i < v.length; i++) {
            r[i] = (byte) v[i];
        }
        return r;
    }

    @Test
    void invalidUtf8AnywhereIsABadRecordUnlessLenient() throws Exception {
        List<byte[]> invalid = List.of(b(0xFF), b(0x80), b(0xC3, 'Z'), b(0xC0, 0x80), b(0xED, 0xA0, 0x80),
                b(0xF4, 0x90, 0x80, 0x80), b(0xE2, 0x82));
        for (byte[] seq : invalid) {
            for (String[] at : new String[][]{{"{\"id\": 1, \"s\": \"a", "b\"}"}, {"{\"id\": 1, \"junk\": \"a", "b\"}"},
                    {"{\"id\": 1, \"a", "b\": 2}"}}) {
                byte[] payload = withBytes(at[0], seq, at[1]);
                DecodeException e = assertThrows(DecodeException.class,
                        () -> decodeAll(JSON, TYPE, Options.empty(), payload));
                assertTrue(e.getMessage().contains("invalid UTF-8 at byte " + at[0].length()), e.getMessage());
            }
        }
        List<Object[]> rows = decodeAll(JSON, TYPE, options("lenient", "true"),
                withBytes("{\"id\": 1, \"s\": \"a", b(0xFF), "b\"}"));
        assertEquals("a\uFFFDb", rows.get(0)[1]);
    }

    @Test
    void validMultiByteTextReads() throws Exception {
        Object[] row = decodeOne(JSON, TYPE, Options.empty(), "{\"id\": 1, \"s\": \"é中€😀\", \"😀\": \"😀\"}");
        assertEquals("é中€😀", row[1]);
    }

    /**
     * A record read in place, from a range of a larger buffer (as the file source reads lines), gives the rows or the
     * error it gives as an array of its own: nothing is read beyond its end, even where the bytes after it would
     * complete a truncated record, and error messages show only the record.
     */
    @Test
    void aRecordInALargerBufferReadsAsOnItsOwn() throws Exception {
        List<String> records = List.of("{\"id\": 1, \"s\": \"x\", \"arr\": [1, 2], \"r\": {\"c\": 3}, \"m\": {\"k\": \"v\"}}",
                "{\"id\": 1, \"s\": \"é中€😀\"}", "{}", "{\"id\": 1, \"s\": \"ab", "{\"id\": 1", "{\"id\": 1,",
                "{\"s\": \"x\\", "{\"id\": 12", "{\"id\": 1 \"s\": \"x\"}", "[{\"id\": 1}", "{\"arr\": [1, 2", "",
                "  ", "{\"id\": 1}, ", "{\"junk\": {\"a\": [1, {\"b\":", "{\"id\": tru", "{\"s\": nul");
        byte[] before = "{\"id\": 9}\n".getBytes(StandardCharsets.UTF_8);
        byte[] after = "3\", \"s\": \"z\"}]}]}}\n{\"id\": 3}".getBytes(StandardCharsets.UTF_8);
        for (Options opts : List.of(Options.empty(), options("lenient", "true"), options("array-of-rows", "true"))) {
            for (String record : records) {
                byte[] alone = record.getBytes(StandardCharsets.UTF_8);
                ByteArrayOutputStream buffer = new ByteArrayOutputStream();
                buffer.write(before);
                buffer.write(alone);
                buffer.write(after);
                // as sources get it: a failure of fastjson2 on a truncated record is a bad record too
                RowDecoder decoder = new GuardedRowDecoder(JSON.createDecoder(FormatContext.of("t", TYPE, opts)),
                        GuardedRowDecoder.DEFAULT_MAX_RECORD_BYTES);
                String expected = outcome(() -> {
                    List<Object[]> rows = new ArrayList<>();
                    decoder.decode(alone, rows::add);
                    return rows;
                });
                String inPlace = outcome(() -> {
                    List<Object[]> rows = new ArrayList<>();
                    decoder.decode(buffer.toByteArray(), before.length, alone.length, rows::add);
                    return rows;
                });
                assertEquals(expected, inPlace, record + " with " + opts);
            }
        }
    }

    private interface Decoding {
        List<Object[]> rows() throws DecodeException;
    }

    /** The rows as text, or the error's field and message. */
    private static String outcome(Decoding decoding) {
        try {
            return String.valueOf(norm(decoding.rows().toArray()));
        } catch (DecodeException e) {
            return "error at " + e.field() + ": " + e.getMessage();
        }
    }
}
