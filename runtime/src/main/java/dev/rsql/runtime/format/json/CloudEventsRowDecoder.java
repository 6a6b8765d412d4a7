package dev.rsql.runtime.format.json;

import dev.rsql.runtime.format.DecodeException;
import dev.rsql.runtime.format.FormatContext;
import dev.rsql.runtime.format.RowDecoder;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Reads CloudEvents 1.0 in structured mode (a JSON object per event, or a JSON array of them: a batch): columns are bound to attributes by name
 * ({@code id}, {@code source}, {@code type}, {@code subject}, {@code time}, {@code datacontenttype}, extensions) and
 * column {@code data} takes the event's data (a ROW for a JSON object, a STRING for its JSON text or a string, BYTES
 * for {@code data_base64}). An event without {@code specversion} 1.0 or without a non-empty {@code id}, {@code source}
 * or {@code type} is a bad record, whether or not the table declares those attributes.
 */
final class CloudEventsRowDecoder implements RowDecoder {

    /** The attributes every event must have. */
    static final List<String> REQUIRED = List.of("specversion", "id", "source", "type");

    private final JsonRowDecoder json;
    private final int arity;
    /** Where each required attribute lands in the wide rows {@link #json} makes. */
    private final int[] required = new int[REQUIRED.size()];
    /** Where {@code data_base64} lands, and where column {@code data} (BYTES) is; -1 when data is not BYTES. */
    private final int base64;
    private final int data;
    private final boolean wide;
    private final List<Object[]> decoded = new ArrayList<>(1);

    CloudEventsRowDecoder(FormatContext ctx) {
        RowType declared = ctx.rowType();
        int[] positions = ctx.targetPositions();
        this.arity = ctx.targetArity();
        RowType.Builder fields = RowType.builder();
        List<Integer> targets = new ArrayList<>();
        for (int i = 0; i < declared.size(); i++) {
            fields.field(declared.name(i), declared.type(i));
            targets.add(positions[i]);
        }
        int extra = arity;
        for (int r = 0; r < REQUIRED.size(); r++) {
            int at = indexOf(declared, REQUIRED.get(r));
            if (at >= 0) {
                required[r] = positions[at];
            } else {
                fields.field(REQUIRED.get(r), DataType.string());
                targets.add(extra);
                required[r] = extra++;
            }
        }
        int dataColumn = indexOf(declared, "data");
        if (dataColumn >= 0 && declared.type(dataColumn).kind().isBinary()) {
            fields.field("data_base64", declared.type(dataColumn));
            targets.add(extra);
            this.base64 = extra++;
            this.data = positions[dataColumn];
        } else {
            this.base64 = -1;
            this.data = -1;
        }
        this.wide = extra > arity;
        // a JSON array is a batch of events (application/cloudevents-batch+json)
        this.json = new JsonRowDecoder(new FormatContext(ctx.tableName(), fields.build(),
                targets.stream().mapToInt(Integer::intValue).toArray(), extra,
                ctx.options().with("array-of-rows", "true"), null, ctx.epochWallClock()));
    }

    private static int indexOf(RowType type, String name) {
        for (int i = 0; i < type.size(); i++) {
            if (type.name(i).toLowerCase(Locale.ROOT).equals(name)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public void decode(byte[] payload, Consumer<Object[]> out) throws DecodeException {
        decode(payload, 0, payload.length, out);
    }

    @Override
    public void decode(byte[] buffer, int offset, int length, Consumer<Object[]> out) throws DecodeException {
        decoded.clear();
        json.decode(buffer, offset, length, decoded::add);
        for (Object[] row : decoded) {
            check(row, buffer, offset, length);
            if (base64 >= 0 && row[data] == null) {
                row[data] = row[base64];
            }
            out.accept(wide ? Arrays.copyOf(row, arity) : row);
        }
    }

    private void check(Object[] row, byte[] buffer, int offset, int length) throws DecodeException {
        for (int r = 0; r < REQUIRED.size(); r++) {
            Object v = row[required[r]];
            if (v == null || v.toString().isEmpty()) {
                throw new DecodeException(REQUIRED.get(r), "not a CloudEvent: the required attribute '"
                        + REQUIRED.get(r) + "' is " + (v == null ? "missing" : "empty") + ": "
                        + JsonRowDecoder.preview(Arrays.copyOfRange(buffer, offset, offset + Math.min(length, 200))));
            }
        }
        Object version = row[required[0]];
        if (!"1.0".equals(version.toString())) {
            throw new DecodeException("specversion", "CloudEvents specversion '" + version + "' is not supported"
                    + " (1.0 is)");
        }
    }
}
