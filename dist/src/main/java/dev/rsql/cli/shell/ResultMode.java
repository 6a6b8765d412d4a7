package dev.rsql.cli.shell;

import java.util.Locale;

/** How a live query shows its rows: Flink's SQL client result modes, {@code SET 'sql-client.execution.result-mode'}. */
enum ResultMode {
    /** The current result, redrawn as it changes. */
    TABLE,
    /** Every change on its own line, as a print sink writes it: {@code +I[a, 1]}, {@code -U[a, 1]}, ... */
    CHANGELOG,
    /** Every change appended as a row of a boxed table with an {@code op} column. */
    TABLEAU;

    static final String SETTING = "sql-client.execution.result-mode";

    /** Flink's default: table on a terminal; a script gets tableau, which only appends. */
    static ResultMode defaultFor(boolean interactive) {
        return interactive ? TABLE : TABLEAU;
    }

    static ResultMode of(String value) {
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + SETTING + "' must be 'table', 'changelog' or 'tableau', got '"
                    + value + "'");
        }
    }
}
