package dev.rsql.runtime.types;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The named, typed fields of the rows an operator produces. Immutable. */
public final class RowType {

    private final List<String> names;
    private final List<DataType> types;

    public RowType(List<String> names, List<DataType> types) {
        if (names.size() != types.size()) {
            throw new IllegalArgumentException("one type per field name expected");
        }
        this.names = List.copyOf(names);
        this.types = List.copyOf(types);
    }

    public static Builder builder() {
        return new Builder();
    }

    public int size() {
        return names.size();
    }

    public List<String> names() {
        return names;
    }

    public List<DataType> types() {
        return types;
    }

    public String name(int i) {
        return names.get(i);
    }

    public DataType type(int i) {
        return types.get(i);
    }

    /** Index of the field with this name, case-insensitively, or -1. */
    public int indexOf(String name) {
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i).equals(name)) {
                return i;
            }
        }
        String lower = name.toLowerCase(Locale.ROOT);
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i).toLowerCase(Locale.ROOT).equals(lower)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RowType && names.equals(((RowType) o).names) && types.equals(((RowType) o).types);
    }

    @Override
    public int hashCode() {
        return names.hashCode() * 31 + types.hashCode();
    }

    @Override
    public String toString() {
        return DataType.describe(names, types);
    }

    /** Collects fields in order. */
    public static final class Builder {
        private final List<String> names = new ArrayList<>();
        private final List<DataType> types = new ArrayList<>();

        public Builder field(String name, DataType type) {
            names.add(name);
            types.add(type);
            return this;
        }

        public RowType build() {
            return new RowType(names, types);
        }
    }
}
