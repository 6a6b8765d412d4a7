package dev.rsql.planner.functions;

/**
 * An instance of a user function class that generated code holds in a field ({@code field}), created with the
 * class's public no-argument constructor, or, for a function the application passed as an object, taken from
 * {@link dev.rsql.planner.functions.udf.FunctionObjects} by {@code objectKey}; opened/closed with the generated class
 * ({@link UdfLifecycle}).
 */
public record UdfInstance(String field, Class<?> type, String functionName, String objectKey) {

    public static UdfInstance of(String functionName, Class<?> type) {
        return of(functionName, type, null);
    }

    /** @param objectKey the key of a registered function object, or null to use the no-argument constructor */
    public static UdfInstance of(String functionName, Class<?> type, String objectKey) {
        return new UdfInstance(fieldName(functionName), type, functionName, objectKey);
    }

    /** The field name for a function: {@code udf$} and the lower-cased name, made a Java identifier. */
    public static String fieldName(String functionName) {
        StringBuilder sb = new StringBuilder("udf$");
        for (char c : functionName.toLowerCase(java.util.Locale.ROOT).toCharArray()) {
            if (Character.isLetterOrDigit(c) && c < 128 || c == '_') {
                sb.append(c);
            } else {
                sb.append('$').append((int) c).append('$');
            }
        }
        return sb.toString();
    }
}
