package dev.rsql.planner.functions;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONException;
import com.alibaba.fastjson2.JSONPath;
import dev.rsql.runtime.format.json.JsonValueText;
import org.apache.calcite.linq4j.function.Deterministic;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A JSON path ({@code $}, {@code .key}, {@code [n]}, {@code [*]}) compiled once per constant path (the generated call
 * to {@link #compile} is hoisted into a static field) and cached for paths from columns. An invalid path evaluates to
 * NULL.
 */
public final class JsonPath {

    private static final int CACHE_SIZE = 1000;
    private static final Map<String, JsonPath> CACHE = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, JsonPath> eldest) {
            return size() > CACHE_SIZE;
        }
    };

    private final String text;
    private final JSONPath path;

    private JsonPath(String text, JSONPath path) {
        this.text = text;
        this.path = path;
    }

    @Deterministic
    public static JsonPath compile(String path) {
        if (path == null) {
            return null;
        }
        synchronized (CACHE) {
            JsonPath p = CACHE.get(path);
            if (p == null) {
                JSONPath compiled;
                try {
                    compiled = JSONPath.of(path.trim());
                } catch (RuntimeException e) {
                    compiled = null;
                }
                p = new JsonPath(path, compiled);
                CACHE.put(path, p);
            }
            return p;
        }
    }

    /** A JSON_TUPLE path: a key path without the leading {@code $} ({@code a.b} means {@code $.a.b}). */
    @Deterministic
    public static JsonPath compileRelative(String path) {
        if (path == null) {
            return null;
        }
        String t = path.trim();
        return compile(t.startsWith("$") ? t : t.startsWith("[") ? "$" + t : "$." + t);
    }

    /** Parses a JSON text; null when it is not valid JSON. */
    public static Object parse(String json) {
        try {
            return JSON.parse(json);
        } catch (JSONException | NumberFormatException e) {
            return null;
        }
    }

    /** The value at this path in a parsed document, as Blink's JSON_VALUE returns it (see {@link JsonValueText}). */
    public String evaluate(Object document) {
        if (path == null || document == null) {
            return null;
        }
        Object v;
        try {
            v = path.eval(document);
        } catch (RuntimeException e) {
            return null;
        }
        return JsonValueText.of(v);
    }

    @Override
    public String toString() {
        return text;
    }
}
