package dev.rsql.planner.functions;

/** JSON built-ins with Blink semantics. */
public final class JsonFunctions {

    private JsonFunctions() {
    }

    /**
     * JSON_VALUE(json, path) as in Blink: the value at the path; arrays and objects are returned serialized (e.g.
     * {@code [30,40]}); NULL for invalid JSON, an invalid path, or no value.
     */
    public static String jsonValue(String json, JsonPath path) {
        return path.evaluate(JsonPath.parse(json));
    }
}
