package dev.rsql.planner.functions;

import java.util.List;

/**
 * The documentation of one function, kept next to its registration so {@code docs/functions.md} is generated from the
 * code ({@link FunctionDocs}) and every example is run by the tests.
 *
 * @param signatures e.g. {@code VARCHAR SPLIT_INDEX(VARCHAR str, VARCHAR sep, INT index)}
 * @param blinkNote how Blink differs from Flink (or from Calcite), or null
 * @param implementation who implements it: {@code engine} (this engine's code) or {@code Calcite}
 */
public record FunctionDoc(String name, Category category, List<String> signatures, String description,
                          String blinkNote, List<Example> examples, String implementation) {

    /** Sections of docs/functions.md, in order. */
    public enum Category {
        STRING("String functions"),
        TEMPORAL("Date and time functions"),
        CONDITIONAL("Conditional, logical, numeric and conversion functions"),
        EVENT("Event patterns and transforms"),
        TABLE("Table-valued functions (LATERAL TABLE)");

        private final String title;

        Category(String title) {
            this.title = title;
        }

        public String title() {
            return title;
        }
    }

    /**
     * An example call and its result as {@code CAST(... AS VARCHAR)} shows it ({@code NULL} for NULL). For a table
     * function the SQL is a whole {@code LATERAL TABLE(...)} call and the result lists its rows, one per line.
     * Examples whose result depends on the clock are marked {@code checked = false} and only checked to run.
     */
    public record Example(String sql, String result, boolean checked) {
    }
}
