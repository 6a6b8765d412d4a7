package dev.rsql.runtime.format.json;

import com.alibaba.fastjson2.JSON;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * A value of a JSON document parsed into maps, lists and scalars, as Blink's JSON_VALUE and EventBridge's transforms
 * show it: strings as they are, numbers and booleans as text, arrays and objects serialized as JSON.
 */
public final class JsonValueText {

    private JsonValueText() {
    }

    /** The value as text; null for null (JSON null or nothing). */
    public static String of(Object v) {
        if (v == null) {
            return null;
        }
        if (v instanceof String) {
            return (String) v;
        }
        if (v instanceof BigDecimal) {
            return ((BigDecimal) v).toPlainString();
        }
        if (v instanceof Map || v instanceof List || v.getClass().isArray()) {
            return JSON.toJSONString(v);
        }
        return v.toString();
    }
}
