package dev.rsql.runtime.format;

import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.types.RowType;

import java.util.BitSet;
import java.util.List;

/**
 * What a format needs to know: the fields it decodes or encodes, where decoded fields go in the rows the
 * connector builds (payload fields may be interleaved with metadata columns), and its options.
 *
 * <p>Options hold the table's options with the format prefix removed ({@code json.fail-on-missing-field} becomes
 * {@code fail-on-missing-field}) plus the un-prefixed table options, so Blink keys such as {@code fieldDelimiter}
 * work too.
 */
public final class FormatContext {

    private final String tableName;
    private final RowType rowType;
    private final int[] targetPositions;
    private final int targetArity;
    private final Options options;
    private final BitSet targetsRead;
    private final EpochWallClock epochWallClock;
    private final List<FormatMetadata.Filled> metadata;

    public FormatContext(String tableName, RowType rowType, int[] targetPositions, int targetArity, Options options) {
        this(tableName, rowType, targetPositions, targetArity, options, null, EpochWallClock.UTC);
    }

    /**
     * @param targetsRead the row positions the job reads (a decoder may leave the others NULL), or null for all
     * @param epochWallClock how epoch numbers become TIMESTAMP values (the job's local time zone)
     */
    public FormatContext(String tableName, RowType rowType, int[] targetPositions, int targetArity, Options options,
                         int[] targetsRead, EpochWallClock epochWallClock) {
        this(tableName, rowType, targetPositions, targetArity, options, targetsRead, epochWallClock, List.of());
    }

    /** @param metadata the table's metadata columns the format fills ({@link FormatFactory#readableMetadata}) */
    public FormatContext(String tableName, RowType rowType, int[] targetPositions, int targetArity, Options options,
                         int[] targetsRead, EpochWallClock epochWallClock, List<FormatMetadata.Filled> metadata) {
        if (targetPositions.length != rowType.size()) {
            throw new IllegalArgumentException("one target position per field expected");
        }
        this.tableName = tableName;
        this.rowType = rowType;
        this.targetPositions = targetPositions.clone();
        this.targetArity = targetArity;
        this.options = options;
        this.epochWallClock = epochWallClock;
        this.metadata = List.copyOf(metadata);
        if (targetsRead == null) {
            this.targetsRead = null;
        } else {
            this.targetsRead = new BitSet();
            for (int t : targetsRead) {
                this.targetsRead.set(t);
            }
        }
    }

    /** A context whose rows hold exactly the given fields. */
    public static FormatContext of(String tableName, RowType rowType, Options options) {
        int[] identity = new int[rowType.size()];
        for (int i = 0; i < identity.length; i++) {
            identity[i] = i;
        }
        return new FormatContext(tableName, rowType, identity, rowType.size(), options);
    }

    public String tableName() {
        return tableName;
    }

    public RowType rowType() {
        return rowType;
    }

    /** For decoders: field i of {@link #rowType()} goes to index {@code targetPositions()[i]} of the row array. */
    public int[] targetPositions() {
        return targetPositions.clone();
    }

    /** For decoders: the length of the row arrays to create. */
    public int targetArity() {
        return targetArity;
    }

    /**
     * For decoders: false when no query of the job reads field i of {@link #rowType()}, so it may be skipped
     * without decoding (it stays NULL). Decoding it anyway is correct too.
     */
    public boolean isRead(int field) {
        return targetsRead == null || targetsRead.get(targetPositions[field]);
    }

    public Options options() {
        return options;
    }

    /** For decoders: an epoch number read into a TIMESTAMP (not TIMESTAMP_LTZ) field goes through this. */
    public EpochWallClock epochWallClock() {
        return epochWallClock;
    }

    /** For decoders: the metadata columns to fill in each row, at their positions. */
    public List<FormatMetadata.Filled> metadata() {
        return metadata;
    }
}
