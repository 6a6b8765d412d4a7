package dev.rsql.runtime.state;

import java.util.ArrayList;
import java.util.List;

/** A list of rows of one type: the count, then each row in the self-delimiting {@link RowSerializer} format. */
public final class RowListSerializer implements TypeSerializer<List<Object[]>> {

    private final RowSerializer rows;

    public RowListSerializer(RowSerializer rows) {
        this.rows = rows;
    }

    @Override
    public byte[] serialize(List<Object[]> value) {
        ByteWriter out = new ByteWriter(64 * Math.max(1, value.size()));
        out.writeVarInt(value.size());
        for (Object[] row : value) {
            rows.serialize(row, out);
        }
        return out.toByteArray();
    }

    @Override
    public List<Object[]> deserialize(byte[] bytes) {
        ByteReader in = new ByteReader(bytes);
        int n = in.readVarInt();
        List<Object[]> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            list.add(rows.deserialize(in));
        }
        if (!in.atEnd()) {
            throw new StateException("row list bytes have trailing bytes for " + rows);
        }
        return list;
    }
}
