package dev.rsql.runtime.aggregate;

import dev.rsql.runtime.types.DataType;

import java.util.List;

/**
 * The argument fields of a DISTINCT aggregate and their types. Aggregates of one aggregation with equal fields share
 * one map of distinct values ({@link DistinctAggregates}), whatever their FILTERs.
 */
public record DistinctArguments(List<Integer> fields, List<DataType> types) {

    public DistinctArguments {
        fields = List.copyOf(fields);
        types = List.copyOf(types);
        if (fields.isEmpty() || fields.size() != types.size()) {
            throw new IllegalArgumentException("DISTINCT needs one type per argument field, and an argument");
        }
    }
}
