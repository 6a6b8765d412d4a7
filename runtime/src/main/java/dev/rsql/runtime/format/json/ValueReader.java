package dev.rsql.runtime.format.json;

import com.alibaba.fastjson2.JSONException;
import com.alibaba.fastjson2.JSONReader;
import dev.rsql.runtime.format.EpochWallClock;
import dev.rsql.runtime.types.DataType;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one JSON value of a declared type from a fastjson2 {@link JSONReader} straight into its internal value.
 * Built once per decoder (a tree mirroring the type); {@link #read} dispatches on a precomputed kind. It recurses only
 * as deep as the declared type; values the type does not describe are walked by {@link JsonSyntax}. {@code level} is
 * the nesting level of the container a value is in (1 for the members of the record).
 */
final class ValueReader {

    private static final int BOOLEAN = 0;
    private static final int TINYINT = 1;
    private static final int SMALLINT = 2;
    private static final int INT = 3;
    private static final int BIGINT = 4;
    private static final int FLOAT = 5;
    private static final int DOUBLE = 6;
    private static final int DECIMAL = 7;
    private static final int STRING = 8;
    private static final int BYTES = 9;
    private static final int DATE = 10;
    private static final int TIME = 11;
    private static final int TIMESTAMP = 12;
    private static final int ARRAY = 13;
    private static final int MULTISET = 14;
    private static final int MAP = 15;
    private static final int ROW = 16;
    private static final int NULL = 17;
    private static final int TIMESTAMP_LTZ = 18;

    final DataType type;
    private final int kind;
    private final ValueReader element;      // ARRAY, MULTISET (element); MAP (value)
    private final DataType keyType;         // MAP
    private final FieldTable fields;        // ROW
    private final JsonSyntax syntax;
    private final EpochWallClock epochs;

    ValueReader(DataType type, boolean failOnMissing, JsonSyntax syntax, EpochWallClock epochs) {
        this.type = type;
        this.syntax = syntax;
        this.epochs = epochs;
        DataType elementType = null;
        DataType kt = null;
        FieldTable ft = null;
        switch (type.kind()) {
            case BOOLEAN:
                kind = BOOLEAN;
                break;
            case TINYINT:
                kind = TINYINT;
                break;
            case SMALLINT:
                kind = SMALLINT;
                break;
            case INT:
                kind = INT;
                break;
            case BIGINT:
                kind = BIGINT;
                break;
            case FLOAT:
                kind = FLOAT;
                break;
            case DOUBLE:
                kind = DOUBLE;
                break;
            case DECIMAL:
                kind = DECIMAL;
                break;
            case CHAR:
            case VARCHAR:
                kind = STRING;
                break;
            case BINARY:
            case VARBINARY:
                kind = BYTES;
                break;
            case DATE:
                kind = DATE;
                break;
            case TIME:
                kind = TIME;
                break;
            case TIMESTAMP:
                kind = TIMESTAMP;
                break;
            case TIMESTAMP_LTZ:
                kind = TIMESTAMP_LTZ;
                break;
            case ARRAY:
                kind = ARRAY;
                elementType = type.elementType();
                break;
            case MULTISET:
                kind = MULTISET;
                elementType = type.elementType();
                break;
            case MAP:
                kind = MAP;
                kt = type.keyType();
                elementType = type.valueType();
                break;
            case ROW:
                kind = ROW;
                ft = new FieldTable(type.fieldNames(), type.fieldTypes(), failOnMissing, syntax, epochs);
                break;
            default:
                kind = NULL;
        }
        this.element = elementType == null ? null : new ValueReader(elementType, failOnMissing, syntax, epochs);
        this.keyType = kt;
        this.fields = ft;
    }

    /** The fields of a ROW type, else null. */
    FieldTable rowFields() {
        return fields;
    }

    /** Reads a value (possibly JSON null), consuming it. */
    Object readNullable(JSONReader r, int level) throws ValueException {
        if (r.nextIfNull()) {
            return null;
        }
        syntax.value(r);
        return read(r, level);
    }

    /** Reads a non-null value, consuming it. */
    private Object read(JSONReader r, int level) throws ValueException {
        try {
            switch (kind) {
                case STRING:
                    return r.isString() ? r.readString() : readAsString(r, level);
                case INT:
                    if (r.isNumber()) {
                        Number n = r.readNumber();
                        return n instanceof Integer ? n : ValueText.integral(type, integral(n));
                    }
                    return ValueText.integral(type, integralFromText(r, level));
                case BIGINT:
                    if (r.isNumber()) {
                        Number n = r.readNumber();
                        return n instanceof Long ? n : (Long) integral(n);
                    }
                    return integralFromText(r, level);
                case TINYINT:
                case SMALLINT:
                    return ValueText.integral(type, r.isNumber() ? integral(r.readNumber()) : integralFromText(r, level));
                case DOUBLE:
                    if (r.isNumber()) {
                        return r.readDoubleValue();
                    }
                    return ValueText.parseDouble(text(r, level), type);
                case FLOAT:
                    if (r.isNumber()) {
                        return r.readFloatValue();
                    }
                    return (float) ValueText.parseDouble(text(r, level), type);
                case DECIMAL: {
                    BigDecimal bd;
                    if (r.isNumber()) {
                        bd = r.readBigDecimal();
                    } else {
                        String s = text(r, level);
                        try {
                            bd = new BigDecimal(s.trim());
                        } catch (NumberFormatException e) {
                            throw ValueText.cannot(s, type);
                        }
                    }
                    return ValueText.fitDecimal(bd, type, bd);
                }
                case BOOLEAN: {
                    char c = r.current();
                    if (c == 't' || c == 'f') {
                        return r.readBoolValue();
                    }
                    String s = text(r, level).trim();
                    if (s.equalsIgnoreCase("true")) {
                        return Boolean.TRUE;
                    }
                    if (s.equalsIgnoreCase("false")) {
                        return Boolean.FALSE;
                    }
                    throw ValueText.cannot(s, type);
                }
                case TIMESTAMP:
                    if (r.isNumber()) {
                        return epochs.wallClock(integral(r.readNumber()));
                    }
                    return ValueText.parseTimestamp(text(r, level), epochs);
                case TIMESTAMP_LTZ:
                    if (r.isNumber()) {
                        return integral(r.readNumber());
                    }
                    return ValueText.parseTimestamp(text(r, level));
                case DATE:
                    if (r.isNumber()) {
                        long days = integral(r.readNumber());
                        if (days < Integer.MIN_VALUE || days > Integer.MAX_VALUE) {
                            throw ValueText.cannot(days, type);
                        }
                        return (int) days;
                    }
                    return ValueText.parseDate(text(r, level));
                case TIME:
                    if (r.isNumber()) {
                        long ms = integral(r.readNumber());
                        if (ms < 0 || ms >= 86_400_000L) {
                            throw ValueText.cannot(ms, type);
                        }
                        return (int) ms;
                    }
                    return ValueText.parseTime(text(r, level));
                case BYTES:
                    return ValueText.decodeBase64(text(r, level), type);
                case ARRAY:
                case MULTISET:
                    return readList(r, level);
                case MAP:
                    return readMap(r, level);
                case ROW:
                    return readRow(r, level);
                default:
                    syntax.skip(r, level);
                    return null;
            }
        } catch (IllegalArgumentException e) {
            throw new ValueException(null, e.getMessage());
        } catch (ArithmeticException e) {
            throw new ValueException(null, "cannot read a number as " + type.nullable() + ": " + e.getMessage());
        }
    }

    /** The text of a scalar for types that also accept strings; rejects objects and arrays. */
    private String text(JSONReader r, int level) throws ValueException {
        if (r.isString()) {
            return r.readString();
        }
        if (r.isObject() || r.isArray()) {
            throw mismatch(r, level);
        }
        return readAsString(r, level);
    }

    private long integralFromText(JSONReader r, int level) throws ValueException {
        return ValueText.parseIntegral(text(r, level), type);
    }

    private long integral(Number n) {
        if (n instanceof Integer || n instanceof Long || n instanceof Short || n instanceof Byte) {
            return n.longValue();
        }
        if (n instanceof BigDecimal) {
            return ValueText.integralOf((BigDecimal) n, n, type);
        }
        if (n instanceof BigInteger) {
            BigInteger bi = (BigInteger) n;
            if (bi.bitLength() < 64) {
                return bi.longValue();
            }
            throw ValueText.cannot(n, type);
        }
        double d = n.doubleValue();
        if (d == Math.rint(d) && d >= -0x1p63 && d < 0x1p63) {
            return (long) d;
        }
        throw ValueText.cannot(n, type);
    }

    /** Any scalar as text; objects and arrays as their JSON text. */
    private String readAsString(JSONReader r, int level) throws ValueException {
        if (r.isNumber()) {
            return r.readNumber().toString();
        }
        char c = r.current();
        if (c == 't' || c == 'f') {
            return r.readBoolValue() ? "true" : "false";
        }
        return syntax.text(r, level);
    }

    private ValueException mismatch(JSONReader r, int level) throws ValueException {
        String shown = syntax.text(r, level);
        if (shown.length() > 120) {
            shown = shown.substring(0, 117) + "...";
        }
        return new ValueException(null, "cannot read " + shown + " as " + type.nullable());
    }

    private Object readList(JSONReader r, int level) throws ValueException {
        if (r.isString()) {
            return fromEmbeddedJson(r.readString(), level);
        }
        if (r.isObject() && kind == MULTISET) {
            return readMultisetCounts(r, level);
        }
        if (!r.isArray()) {
            throw mismatch(r, level);
        }
        syntax.enter(level + 1);
        r.nextIfArrayStart();
        List<Object> list = new ArrayList<>();
        int i = 0;
        while (!syntax.arrayEnd(r, i == 0)) {
            try {
                list.add(element.readNullable(r, level + 1));
            } catch (ValueException e) {
                throw e.under("[" + i + "]");
            }
            i++;
        }
        return list;
    }

    /** Flink writes a MULTISET as {element: count}. */
    private Object readMultisetCounts(JSONReader r, int level) throws ValueException {
        syntax.enter(level + 1);
        r.nextIfObjectStart();
        List<Object> list = new ArrayList<>();
        boolean first = true;
        while (!syntax.objectEnd(r, first)) {
            first = false;
            String k = r.readFieldName();
            Object elem;
            try {
                elem = ValueText.fromString(element.type, k);
            } catch (IllegalArgumentException e) {
                throw new ValueException("[" + k + "]", e.getMessage());
            }
            syntax.value(r);
            long count = r.readInt64Value();
            for (long c = 0; c < count; c++) {
                list.add(elem);
            }
        }
        return list;
    }

    private Object readMap(JSONReader r, int level) throws ValueException {
        if (r.isString()) {
            return fromEmbeddedJson(r.readString(), level);
        }
        if (!r.isObject()) {
            throw mismatch(r, level);
        }
        syntax.enter(level + 1);
        r.nextIfObjectStart();
        Map<Object, Object> map = new LinkedHashMap<>();
        boolean first = true;
        while (!syntax.objectEnd(r, first)) {
            first = false;
            String k = r.readFieldName();
            Object key;
            try {
                key = keyType.kind().isCharacter() ? k : ValueText.fromString(keyType, k);
            } catch (IllegalArgumentException e) {
                throw new ValueException("[" + k + "]", "key: " + e.getMessage());
            }
            try {
                map.put(key, element.readNullable(r, level + 1));
            } catch (ValueException e) {
                throw e.under("[" + k + "]");
            }
        }
        return map;
    }

    private Object readRow(JSONReader r, int level) throws ValueException {
        if (r.isString()) {
            return fromEmbeddedJson(r.readString(), level);
        }
        if (r.isObject()) {
            syntax.enter(level + 1);
            r.nextIfObjectStart();
            Object[] row = new Object[fields.size()];
            fields.readObject(r, row, null, level + 1);
            return row;
        }
        if (r.isArray()) {
            syntax.enter(level + 1);
            r.nextIfArrayStart();
            return fields.readPositional(r, level + 1);
        }
        throw mismatch(r, level);
    }

    /** ARRAY, MAP and ROW values may come as a string holding JSON (e.g. a CSV field, a stringified column). */
    private Object fromEmbeddedJson(String json, int level) throws ValueException {
        String t = json.trim();
        if (t.isEmpty() || (t.charAt(0) != '[' && t.charAt(0) != '{')) {
            throw new ValueException(null, "cannot read " + ValueText.describe(json) + " as " + type.nullable());
        }
        try (JSONReader inner = JSONReader.of(t, syntax.context)) {
            Object v = readNullable(inner, level);
            if (!syntax.atEnd(inner)) {
                throw new ValueException(null, "cannot read " + ValueText.describe(json) + " as " + type.nullable());
            }
            return v;
        } catch (JSONException e) {
            throw new ValueException(null, "cannot read " + ValueText.describe(json) + " as " + type.nullable()
                    + ": malformed JSON");
        }
    }
}
