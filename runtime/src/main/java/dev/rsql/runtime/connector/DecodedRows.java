package dev.rsql.runtime.connector;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.format.ChangelogOutput;

import java.util.Arrays;

/**
 * The rows a shard reader decoded from one record, with their change kinds: filled by
 * {@link dev.rsql.runtime.format.RowDecoder#decodeChangelog}, completed by the reader (metadata columns), then handed
 * on. One instance per reader, cleared before each record.
 */
public final class DecodedRows implements ChangelogOutput {

    private Object[][] fields = new Object[4][];
    private RowKind[] kinds = new RowKind[4];
    private int size;

    @Override
    public void row(RowKind kind, Object[] row) {
        if (size == fields.length) {
            fields = Arrays.copyOf(fields, size * 2);
            kinds = Arrays.copyOf(kinds, size * 2);
        }
        fields[size] = row;
        kinds[size++] = kind;
    }

    public void clear() {
        Arrays.fill(fields, 0, size, null);
        size = 0;
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /** The values of row i, to complete before {@link #emitTo}. */
    public Object[] fields(int i) {
        return fields[i];
    }

    /** Hands every row to the output: inserts as their values, other kinds as rows. */
    public void emitTo(long position, ReaderOutput output) throws Exception {
        for (int i = 0; i < size; i++) {
            if (kinds[i] == RowKind.INSERT) {
                output.emit(position, fields[i]);
            } else {
                output.emit(position, new Row(kinds[i], fields[i]));
            }
        }
    }
}
