package dev.rsql.runtime.format.json;

import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.format.DecodeException;
import dev.rsql.runtime.format.FormatContext;
import dev.rsql.runtime.format.GuardedRowDecoder;
import dev.rsql.runtime.format.RowDecoder;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.DataType.Kind;
import dev.rsql.runtime.types.RowType;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static dev.rsql.runtime.format.FormatTesting.norm;
import static dev.rsql.runtime.format.FormatTesting.options;
import static dev.rsql.runtime.format.FormatTesting.rowType;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The plain reader reads every record it accepts exactly as fastjson2's reading does, and gives up the others: on
 * random records of every type it reads, with wrong JSON types, out-of-range and odd numbers, escapes, non-ASCII and
 * invalid UTF-8, undeclared and unread members of any nesting, member names in other cases and orders, whitespace,
 * and syntax errors, the decoder gives the same rows or the same error with the plain reader as without it.
 */
class PlainJsonReaderTest {

    private static final DataType INNER = DataType.row(List.of("x"), List.of(DataType.of(Kind.BIGINT)));
    private static final DataType NESTED = DataType.row(List.of("a", "s", "inner"),
            List.of(DataType.of(Kind.INT), DataType.string(), INNER));
    private static final RowType TYPE = rowType(
            "i", DataType.of(Kind.INT), "b", DataType.of(Kind.BIGINT), "sm", DataType.of(Kind.SMALLINT),
            "ti", DataType.of(Kind.TINYINT), "d", DataType.of(Kind.DOUBLE), "f", DataType.of(Kind.FLOAT),
            "dec", DataType.decimal(10, 2), "ok", DataType.of(Kind.BOOLEAN), "str", DataType.string(),
            "ts", DataType.timestamp(3), "ltz", DataType.withPrecision(Kind.TIMESTAMP_LTZ, 3, 0),
            "day", DataType.of(Kind.DATE), "tm", DataType.of(Kind.TIME), "r", NESTED, "CamelName", DataType.string(),
            "unread", DataType.array(DataType.of(Kind.INT)));
    private static final String[] NAMES = {"i", "b", "sm", "ti", "d", "f", "dec", "ok", "str", "ts", "ltz", "day",
            "tm", "r", "CamelName", "camelname", "CAMELNAME", "unread", "junk", "zz"};

    @Test
    void readsWhatFastjsonReadsAndGivesUpTheRest() throws Exception {
        for (Options opts : List.of(Options.empty(), options("lenient", "true"), options("max-nesting-depth", "3"))) {
            compare(opts, 20_000, 20261206);
        }
    }

    @Test
    void aTypicalRecordIsReadPlain() {
        PlainJsonReader plain = reader(TYPE, Options.empty(), readFields());
        byte[] record = ("{\"i\": 1, \"str\": \"a\\n\\u00e9\u4e2d\", \"ts\": \"2024-01-01 00:00:00.000\","
                + " \"r\": {\"a\": -3, \"inner\": {\"x\": 7}}, \"junk\": [1, {\"k\": [true, null]}], \"unread\": [1]}")
                .getBytes(StandardCharsets.UTF_8);
        int[] positions = identity(TYPE.size());
        Object[] row = plain.read(record, 0, record.length, positions, TYPE.size());
        assertNotSame(PlainJsonReader.NOT_PLAIN, row);
        assertEquals(1, row[0]);
        assertEquals("a\n\u00e9\u4e2d", row[8]);
        assertEquals(1_704_067_200_000L, row[9]);
        assertEquals(norm(new Object[] {-3, null, new Object[] {7L}}), norm(row[13]));
        assertSame(PlainJsonReader.NOT_PLAIN, plain.read(record, 0, record.length - 1, positions, TYPE.size()));
    }

    @Test
    void aDecodedColumnOfATypeItDoesNotReadLeavesEveryRecordToFastjson() {
        RowType withArray = rowType("i", DataType.of(Kind.INT), "arr", DataType.array(DataType.of(Kind.INT)));
        assertFalse(new PlainJsonReader(fields(withArray, Options.empty(), null), withArray.types(),
                JsonSyntax.defaults(), dev.rsql.runtime.format.EpochWallClock.UTC).usable());
        assertTrue(reader(withArray, Options.empty(), new int[] {0}).usable());
    }

    private static void compare(Options opts, int records, long seed) throws Exception {
        int[] read = readFields();
        FormatContext ctx = new FormatContext("t", TYPE, identity(TYPE.size()), TYPE.size(), opts, read,
                dev.rsql.runtime.format.EpochWallClock.UTC);
        RowDecoder withPlain = new GuardedRowDecoder(new JsonRowDecoder(ctx, true), Integer.MAX_VALUE);
        RowDecoder fastjsonOnly = new GuardedRowDecoder(new JsonRowDecoder(ctx, false), Integer.MAX_VALUE);
        PlainJsonReader plain = reader(TYPE, opts, read);
        Random r = new Random(seed);
        int readPlain = 0;
        for (int n = 0; n < records; n++) {
            byte[] payload = new Generator(r).record();
            String shown = new String(payload, StandardCharsets.UTF_8);
            Object expected = decode(fastjsonOnly, payload, -1);
            assertEquals(expected, decode(withPlain, payload, -1), shown);
            assertEquals(expected, decode(withPlain, payload, r.nextInt(5)), shown);
            Object[] row = plain.read(payload, 0, payload.length, identity(TYPE.size()), TYPE.size());
            if (row != PlainJsonReader.NOT_PLAIN) {
                readPlain++;
                assertEquals(expected, List.of(norm(row)), shown);
            }
        }
        // the generator writes mostly plain records: the comparison must have covered the plain reader
        assertTrue(readPlain > records / 10, "records read plain: " + readPlain);
        assertTrue(readPlain < records * 9 / 10, "records read plain: " + readPlain);
    }

    /** The rows (normalized) or the error message; {@code pad} >= 0 decodes from inside a larger buffer. */
    private static Object decode(RowDecoder d, byte[] payload, int pad) {
        List<Object> rows = new ArrayList<>();
        try {
            if (pad < 0) {
                d.decode(payload, row -> rows.add(norm(row)));
            } else {
                byte[] buffer = new byte[payload.length + 2 * pad + 8];
                java.util.Arrays.fill(buffer, (byte) '"');
                System.arraycopy(payload, 0, buffer, pad, payload.length);
                d.decode(buffer, pad, payload.length, row -> rows.add(norm(row)));
            }
            return rows;
        } catch (DecodeException e) {
            return "error: " + e.getMessage();
        }
    }

    /** Every field but the last ("unread") is read. */
    private static int[] readFields() {
        int[] read = new int[TYPE.size() - 1];
        for (int i = 0; i < read.length; i++) {
            read[i] = i;
        }
        return read;
    }

    private static int[] identity(int n) {
        int[] positions = new int[n];
        for (int i = 0; i < n; i++) {
            positions[i] = i;
        }
        return positions;
    }

    private static FieldTable fields(RowType type, Options opts, int[] read) {
        java.util.BitSet decoded = new java.util.BitSet();
        if (read == null) {
            decoded.set(0, type.size());
        } else {
            for (int i : read) {
                decoded.set(i);
            }
        }
        return new FieldTable(type.names(), type.types(), false, JsonSyntax.of(opts),
                dev.rsql.runtime.format.EpochWallClock.UTC, decoded::get);
    }

    private static PlainJsonReader reader(RowType type, Options opts, int[] read) {
        return new PlainJsonReader(fields(type, opts, read), type.types(), JsonSyntax.of(opts),
                dev.rsql.runtime.format.EpochWallClock.UTC);
    }

    /** Writes random records: mostly well-formed, with every kind of value a column may get. */
    private static final class Generator {
        private final Random r;
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Generator(Random r) {
            this.r = r;
        }

        byte[] record() {
            space();
            if (r.nextInt(40) == 0) {
                text("[");       // an array payload
            }
            text("{");
            int members = r.nextInt(8);
            for (int m = 0; m < members; m++) {
                if (m > 0 && r.nextInt(60) != 0) {
                    text(",");
                }
                space();
                String name = NAMES[r.nextInt(NAMES.length)];
                if (r.nextInt(80) == 0) {
                    text("'" + name + "'");
                } else {
                    text("\"" + name + "\"");
                }
                space();
                text(":");
                space();
                value(name, 0);
                space();
            }
            if (r.nextInt(60) == 0) {
                text(",");
            }
            text("}");
            space();
            if (r.nextInt(60) == 0) {
                text(r.nextBoolean() ? "x" : "{}");
            }
            byte[] bytes = out.toByteArray();
            if (r.nextInt(40) == 0) {
                return java.util.Arrays.copyOf(bytes, r.nextInt(bytes.length + 1));
            }
            return bytes;
        }

        private void value(String name, int depth) {
            if (r.nextInt(12) == 0) {
                text("null");
                return;
            }
            if (r.nextInt(10) == 0) {
                any(depth);
                return;
            }
            switch (name) {
                case "i", "b", "sm", "ti", "ltz" -> integer();
                case "d", "f", "dec" -> number();
                case "ok" -> text(r.nextBoolean() ? "true" : r.nextInt(10) == 0 ? "tru" : "false");
                case "str", "CamelName", "camelname", "CAMELNAME" -> string();
                case "ts" -> {
                    if (r.nextInt(4) == 0) {
                        integer();
                    } else {
                        quoted(pick("2024-01-01 00:00:00.000", "2024-02-29 23:59:59", "2024-02-30 00:00:00",
                                "2024-01-01T10:00:00Z", "2024-01-01", " 2024-01-01 00:00:00.000", "yesterday",
                                "2024-01-01 00:00:00.123456", "1999-12-31 23:59:59.999"));
                    }
                }
                case "day" -> quoted(pick("2024-01-31", "2024-02-30", "0001-01-01", "x"));
                case "tm" -> quoted(pick("10:15", "23:59:59.999", "24:00:00", "1:2"));
                case "r" -> {
                    if (r.nextInt(6) == 0) {
                        any(depth);
                    } else {
                        text("{");
                        String[] inner = {"a", "s", "inner", "A", "q"};
                        int n = r.nextInt(4);
                        for (int k = 0; k < n; k++) {
                            if (k > 0) {
                                text(",");
                            }
                            String member = inner[r.nextInt(inner.length)];
                            text("\"" + member + "\":");
                            space();
                            if (member.equals("inner")) {
                                text(r.nextInt(5) == 0 ? "[1]" : "{\"x\":");
                                integer();
                                text("}");
                            } else if (member.equals("s")) {
                                string();
                            } else {
                                integer();
                            }
                        }
                        text("}");
                    }
                }
                default -> any(depth);
            }
        }

        private void integer() {
            text(pick("0", "-0", "7", "-12", "127", "128", "-129", "32767", "40000", "2147483647", "2147483648",
                    "-2147483649", "9223372036854775807", "99999999999999999999", "007", "1.0", "1.5", "1e3",
                    "-", "+5", "12abc", "\"42\"", "\" 42 \"", "1704067200000"));
        }

        private void number() {
            text(pick("0", "1.25", "-0.0", "3.14159", "1e10", "2.5E-3", "1.005", "12345678.999", ".5", "1.", "01",
                    "1e", "-", "123456789012.5", "\"2.5\"", "NaN", "1.7976931348623157E309", "4.9e-325",
                    "0.1", "100"));
        }

        private void string() {
            StringBuilder b = new StringBuilder("\"");
            int n = r.nextInt(12);
            for (int k = 0; k < n; k++) {
                b.append(pick("a", "Z", " ", "/", "\\\"", "\\\\", "\\/", "\\n", "\\t", "\\u00e9", "\\u4E2D",
                        "\\ud83d\\ude00", "\\uD800", "\\x41", "\\u12", "\u00e9", "\u4e2d", "\ud83d\ude00", "%20",
                        "${jndi:", "0123456789abcdef"));
            }
            text(b.toString());
            if (r.nextInt(40) == 0) {
                out.write(r.nextBoolean() ? 0x01 : 0xC3);   // a control character or a truncated sequence
            }
            if (r.nextInt(30) == 0) {
                out.write(0xFF);
            }
            text("\"");
        }

        /** Any JSON value, sometimes nested deeply, sometimes malformed. */
        private void any(int depth) {
            int k = depth > 4 ? r.nextInt(4) : r.nextInt(7);
            switch (k) {
                case 0 -> integer();
                case 1 -> number();
                case 2 -> string();
                case 3 -> text(pick("true", "false", "null", "nul", "'single'"));
                case 4 -> {
                    text("[");
                    int n = r.nextInt(4);
                    for (int e = 0; e < n; e++) {
                        if (e > 0) {
                            text(r.nextInt(40) == 0 ? "" : ",");
                        }
                        space();
                        any(depth + 1);
                    }
                    text(r.nextInt(40) == 0 ? "," : "");
                    text("]");
                }
                case 5 -> {
                    text("{");
                    int n = r.nextInt(4);
                    for (int e = 0; e < n; e++) {
                        if (e > 0) {
                            text(",");
                        }
                        text("\"k" + e + "\":");
                        any(depth + 1);
                    }
                    text("}");
                }
                default -> text("[".repeat(3 + r.nextInt(5)) + "1" + "]".repeat(3 + r.nextInt(5)));
            }
        }

        private void space() {
            if (r.nextInt(4) == 0) {
                text(pick(" ", "  ", "\n", "\t", "\r\n"));
            }
            if (r.nextInt(200) == 0) {
                out.write(0x0C);    // form feed: not JSON whitespace
            }
        }

        private void quoted(String s) {
            text("\"" + s + "\"");
        }

        private String pick(String... choices) {
            return choices[r.nextInt(choices.length)];
        }

        private void text(String s) {
            out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
        }
    }
}
