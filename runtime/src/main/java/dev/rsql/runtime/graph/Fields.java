package dev.rsql.runtime.graph;

import dev.rsql.runtime.types.RowType;

/** Names of field indices, for EXPLAIN. */
final class Fields {

    private Fields() {
    }

    static String names(RowType type, int[] fields) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < fields.length; i++) {
            sb.append(i == 0 ? "" : ", ").append(type.name(fields[i]));
        }
        return sb.append(']').toString();
    }
}
