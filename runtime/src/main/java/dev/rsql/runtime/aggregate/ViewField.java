package dev.rsql.runtime.aggregate;

import dev.rsql.runtime.state.FieldSerializer;
import dev.rsql.runtime.state.TypeSerializer;
import dev.rsql.runtime.types.DataType;

/**
 * An accumulator field (relative to the function's offset) holding a {@code java.util.Map} that an operator may keep
 * as one state entry per map entry ({@link StateMapView}): how its keys (compared by these bytes) and values are
 * stored.
 */
public record ViewField(int field, TypeSerializer<Object> keys, TypeSerializer<Object> values) {

    /** A field of a MAP type: keys in key mode, values exact. */
    public static ViewField ofMap(int field, DataType mapType) {
        return new ViewField(field, FieldSerializer.forKeys(mapType.keyType()), FieldSerializer.of(mapType.valueType()));
    }
}
