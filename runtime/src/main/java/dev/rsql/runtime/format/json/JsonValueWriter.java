package dev.rsql.runtime.format.json;

import dev.rsql.runtime.types.DataType;

import java.math.BigDecimal;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * Writes internal values of a declared type as JSON: timestamps {@code yyyy-MM-dd HH:mm:ss.SSS} (or ISO-8601 with
 * {@code T}; TIMESTAMP_LTZ then ends with {@code Z}), dates {@code yyyy-MM-dd}, times {@code HH:mm:ss[.SSS]},
 * decimals as plain numbers, NaN and infinities as strings, bytes in base64, ROW as an object with its field names,
 * MAP as an object (keys as text).
 */
public final class JsonValueWriter {

    private final DataType type;
    private final DataType.Kind kind;
    private final boolean iso;
    private final JsonValueWriter element;     // ARRAY, MULTISET element; MAP value
    private final JsonValueWriter[] fields;    // ROW
    private final byte[][] fieldNames;         // ROW: "name": with a leading comma after the first

    JsonValueWriter(DataType type, boolean iso) {
        this.type = type;
        this.kind = type.kind();
        this.iso = iso;
        switch (kind) {
            case ARRAY:
            case MULTISET:
                element = new JsonValueWriter(type.elementType(), iso);
                fields = null;
                fieldNames = null;
                break;
            case MAP:
                element = new JsonValueWriter(type.valueType(), iso);
                fields = null;
                fieldNames = null;
                break;
            case ROW: {
                element = null;
                List<DataType> types = type.fieldTypes();
                fields = new JsonValueWriter[types.size()];
                fieldNames = new byte[types.size()][];
                for (int i = 0; i < fields.length; i++) {
                    fields[i] = new JsonValueWriter(types.get(i), iso);
                    fieldNames[i] = memberPrefix(type.fieldNames().get(i), i > 0);
                }
                break;
            }
            default:
                element = null;
                fields = null;
                fieldNames = null;
        }
    }

    /** JSON text of one value. */
    public static String toJson(DataType type, Object value) {
        JsonOut out = new JsonOut();
        new JsonValueWriter(type, false).write(out, value);
        return out.asString();
    }

    /** {@code "name":} with an optional leading comma, UTF-8. */
    static byte[] memberPrefix(String name, boolean comma) {
        JsonOut o = new JsonOut();
        if (comma) {
            o.raw(',');
        }
        o.string(name);
        o.raw(':');
        return o.toBytes();
    }

    void write(JsonOut out, Object v) {
        if (v == null) {
            out.ascii("null");
            return;
        }
        switch (kind) {
            case CHAR:
            case VARCHAR:
                out.string(v.toString());
                return;
            case BOOLEAN:
                out.ascii(((Boolean) v) ? "true" : "false");
                return;
            case TINYINT:
            case SMALLINT:
            case INT:
            case BIGINT:
                out.number(((Number) v).longValue());
                return;
            case FLOAT: {
                float f = ((Number) v).floatValue();
                if (Float.isNaN(f) || Float.isInfinite(f)) {
                    out.string(Float.isNaN(f) ? "NaN" : f > 0 ? "Infinity" : "-Infinity");
                } else {
                    out.ascii(Float.toString(f));
                }
                return;
            }
            case DOUBLE: {
                double d = ((Number) v).doubleValue();
                if (Double.isNaN(d) || Double.isInfinite(d)) {
                    out.string(Double.isNaN(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity");
                } else {
                    out.ascii(Double.toString(d));
                }
                return;
            }
            case DECIMAL:
                out.ascii(((BigDecimal) v).toPlainString());
                return;
            case BINARY:
            case VARBINARY:
                out.raw('"');
                out.ascii(Base64.getEncoder().encodeToString((byte[]) v));
                out.raw('"');
                return;
            case DATE: {
                StringBuilder sb = new StringBuilder(12).append('"');
                ValueText.appendDate(sb, ((Number) v).intValue());
                out.ascii(sb.append('"').toString());
                return;
            }
            case TIME: {
                StringBuilder sb = new StringBuilder(14).append('"');
                ValueText.appendTime(sb, ((Number) v).intValue(), false);
                out.ascii(sb.append('"').toString());
                return;
            }
            case TIMESTAMP:
            case TIMESTAMP_LTZ: {
                StringBuilder sb = new StringBuilder(26).append('"');
                ValueText.appendTimestamp(sb, ((Number) v).longValue(), iso ? 'T' : ' ');
                if (iso && kind == DataType.Kind.TIMESTAMP_LTZ) {
                    sb.append('Z');
                }
                out.ascii(sb.append('"').toString());
                return;
            }
            case ARRAY:
            case MULTISET: {
                out.raw('[');
                boolean first = true;
                for (Object e : (List<?>) v) {
                    if (!first) {
                        out.raw(',');
                    }
                    first = false;
                    element.write(out, e);
                }
                out.raw(']');
                return;
            }
            case MAP: {
                out.raw('{');
                boolean first = true;
                DataType keyType = type.keyType();
                for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                    if (!first) {
                        out.raw(',');
                    }
                    first = false;
                    Object k = e.getKey();
                    out.string(k == null ? "null" : keyType.kind().isCharacter() ? k.toString()
                            : ValueText.toText(keyType, k, iso));
                    out.raw(':');
                    element.write(out, e.getValue());
                }
                out.raw('}');
                return;
            }
            case ROW: {
                Object[] row = (Object[]) v;
                out.raw('{');
                for (int i = 0; i < fields.length; i++) {
                    out.raw(fieldNames[i]);
                    fields[i].write(out, i < row.length ? row[i] : null);
                }
                out.raw('}');
                return;
            }
            default:
                out.ascii("null");
        }
    }
}
