package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.connector.SinkWriter;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.table.TableDescriptor;
import dev.rsql.runtime.types.RowType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Locale;

/**
 * Counts rows that arrived after their window closed (or, without windows, behind the watermark) and writes them to
 * the late-data table when one is set. The table's columns are filled by name from the late row, plus
 * {@code window_start}, {@code window_end} (NULL without windows) and {@code watermark}; other columns are NULL.
 */
final class LateRows {

    private static final Logger LOG = LoggerFactory.getLogger(LateRows.class);
    private static final int WINDOW_START = -1;
    private static final int WINDOW_END = -2;
    private static final int WATERMARK = -3;
    private static final int NONE = -4;

    private final String operatorId;
    private final SinkWriter writer;
    private final int[] mapping;
    private long count;

    LateRows(String operatorId, RowType inputType, TableDescriptor table, SinkWriter writer) {
        this.operatorId = operatorId;
        this.writer = writer;
        if (table == null) {
            mapping = null;
            return;
        }
        RowType target = table.schema().rowType();
        mapping = new int[target.size()];
        for (int i = 0; i < mapping.length; i++) {
            String name = target.name(i).toLowerCase(Locale.ROOT);
            int idx = inputType.indexOf(name);
            mapping[i] = idx >= 0 ? idx : name.equals("window_start") ? WINDOW_START : name.equals("window_end")
                    ? WINDOW_END : name.equals("watermark") ? WATERMARK : NONE;
        }
    }

    void late(Object[] row, long windowStart, long windowEnd, long watermark) throws Exception {
        count++;
        if (count == 1 || count % 10_000 == 0) {
            LOG.info("window aggregation {}: {} late row(s) so far (window [{}, {}) closed at watermark {})",
                    operatorId, count, windowStart, windowEnd, watermark);
        }
        write(row, windowStart, windowEnd, watermark);
    }

    /** A row that came at or behind the watermark to an operator without windows (an OVER aggregation). */
    void late(Object[] row, long watermark) throws Exception {
        count++;
        if (count == 1 || count % 10_000 == 0) {
            LOG.info("over aggregation {}: {} late row(s) so far (at or behind watermark {})", operatorId, count,
                    watermark);
        }
        write(row, null, null, watermark);
    }

    private void write(Object[] row, Long windowStart, Long windowEnd, long watermark) throws Exception {
        if (writer == null) {
            return;
        }
        Object[] out = new Object[mapping.length];
        for (int i = 0; i < out.length; i++) {
            int m = mapping[i];
            out[i] = m >= 0 ? row[m] : m == WINDOW_START ? windowStart : m == WINDOW_END
                    ? windowEnd : m == WATERMARK ? Long.valueOf(watermark) : null;
        }
        writer.write(Row.insert(out));
    }

    long count() {
        return count;
    }

    void flush() throws Exception {
        if (writer != null) {
            writer.flush();
        }
    }

    void close() throws Exception {
        if (writer != null) {
            writer.close();
        }
    }
}
