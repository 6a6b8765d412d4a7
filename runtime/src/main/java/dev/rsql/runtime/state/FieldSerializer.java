package dev.rsql.runtime.state;

import dev.rsql.runtime.types.DataType;

import java.util.List;

/** One value of a SQL type, serialized as a one-field row (value or key mode). */
public final class FieldSerializer implements TypeSerializer<Object> {

    private final RowSerializer row;

    private FieldSerializer(RowSerializer row) {
        this.row = row;
    }

    /** Exact bytes, for values. */
    public static FieldSerializer of(DataType type) {
        return new FieldSerializer(new RowSerializer(List.of(type)));
    }

    /** Key-mode bytes: values SQL considers equal give equal bytes. */
    public static FieldSerializer forKeys(DataType type) {
        return new FieldSerializer(RowSerializer.forKeys(List.of(type)));
    }

    @Override
    public byte[] serialize(Object value) {
        return row.serialize(new Object[] {value});
    }

    @Override
    public Object deserialize(byte[] bytes) {
        return row.deserialize(bytes)[0];
    }
}
