package dev.rsql.runtime.format;

import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Helpers for format tests: decode/encode through a factory, and deep comparison of internal values. */
public final class FormatTesting {

    private FormatTesting() {
    }

    public static RowType rowType(Object... nameTypePairs) {
        RowType.Builder b = RowType.builder();
        for (int i = 0; i < nameTypePairs.length; i += 2) {
            b.field((String) nameTypePairs[i], (DataType) nameTypePairs[i + 1]);
        }
        return b.build();
    }

    public static Options options(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return new Options(m);
    }

    public static List<Object[]> decodeAll(FormatFactory f, RowType rt, Options opts, String payload) throws DecodeException {
        return decodeAll(f, rt, opts, payload.getBytes(StandardCharsets.UTF_8));
    }

    public static List<Object[]> decodeAll(FormatFactory f, RowType rt, Options opts, byte[] payload) throws DecodeException {
        RowDecoder d = f.createDecoder(FormatContext.of("t", rt, opts));
        List<Object[]> rows = new ArrayList<>();
        d.decode(payload, rows::add);
        return rows;
    }

    public static Object[] decodeOne(FormatFactory f, RowType rt, Options opts, String payload) throws DecodeException {
        List<Object[]> rows = decodeAll(f, rt, opts, payload);
        assertEquals(1, rows.size(), "rows decoded from " + payload);
        return rows.get(0);
    }

    /** Object[] and byte[] as lists (recursively), so values compare with equals and print readably. */
    public static Object norm(Object v) {
        if (v instanceof Object[]) {
            List<Object> l = new ArrayList<>();
            for (Object o : (Object[]) v) {
                l.add(norm(o));
            }
            return List.of("ROW", l);
        }
        if (v instanceof byte[]) {
            return "bytes" + Arrays.toString((byte[]) v);
        }
        if (v instanceof List) {
            List<Object> l = new ArrayList<>();
            for (Object o : (List<?>) v) {
                l.add(norm(o));
            }
            return l;
        }
        if (v instanceof Map) {
            Map<Object, Object> m = new LinkedHashMap<>();
            ((Map<?, ?>) v).forEach((k, x) -> m.put(norm(k), norm(x)));
            return m;
        }
        return v;
    }

    public static void assertValue(Object expected, Object actual, String message) {
        Object e = norm(expected);
        Object a = norm(actual);
        assertEquals(e, a, message);
        if (e != null && a != null) {
            assertEquals(e.getClass(), a.getClass(), message + " (class)");
        }
    }
}
