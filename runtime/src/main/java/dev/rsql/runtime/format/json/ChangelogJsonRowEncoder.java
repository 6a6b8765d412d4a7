package dev.rsql.runtime.format.json;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.format.FormatContext;
import dev.rsql.runtime.format.RowEncoder;

import java.nio.charset.StandardCharsets;

/**
 * Writes a changelog in one of the changelog JSON formats, as Flink writes them: each change is a message that either
 * adds the row (+I and +U: Debezium's {@code "op":"c"}, Canal's and Maxwell's insert) or removes it (-U and -D: a
 * delete), so an update is a delete of the old row followed by an insert of the new one. The row is written as the
 * {@code json} format writes a record.
 */
final class ChangelogJsonRowEncoder implements RowEncoder {

    private final JsonRowEncoder row;
    private final byte[] addPrefix;
    private final byte[] addSuffix;
    private final byte[] removePrefix;
    private final byte[] removeSuffix;
    private final JsonOut out = new JsonOut();

    /** The envelope around the row of an added and of a removed row, as text. */
    ChangelogJsonRowEncoder(FormatContext ctx, String addPrefix, String addSuffix, String removePrefix,
                            String removeSuffix) {
        this.row = new JsonRowEncoder(ctx);
        this.addPrefix = addPrefix.getBytes(StandardCharsets.UTF_8);
        this.addSuffix = addSuffix.getBytes(StandardCharsets.UTF_8);
        this.removePrefix = removePrefix.getBytes(StandardCharsets.UTF_8);
        this.removeSuffix = removeSuffix.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public byte[] encode(Row r) {
        boolean add = r.kind().isAccumulate();
        JsonOut o = out;
        o.reset();
        o.raw(add ? addPrefix : removePrefix);
        row.writeObject(o, r.fields());
        o.raw(add ? addSuffix : removeSuffix);
        return o.toBytes();
    }
}
