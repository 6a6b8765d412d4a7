package dev.rsql.runtime.data;

/** What a row means in a changelog. Append-only streams carry only {@link #INSERT}. */
public enum RowKind {
    INSERT("+I"),
    UPDATE_BEFORE("-U"),
    UPDATE_AFTER("+U"),
    DELETE("-D");

    private final String shortString;

    RowKind(String shortString) {
        this.shortString = shortString;
    }

    /** The Flink-style short form: +I, -U, +U, -D. */
    public String shortString() {
        return shortString;
    }

    /** True for kinds that add a row to the result (+I, +U). */
    public boolean isAccumulate() {
        return this == INSERT || this == UPDATE_AFTER;
    }

    public static RowKind fromShortString(String s) {
        for (RowKind k : values()) {
            if (k.shortString.equals(s)) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown row kind: " + s);
    }
}
