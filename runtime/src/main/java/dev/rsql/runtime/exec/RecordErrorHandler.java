package dev.rsql.runtime.exec;

import dev.rsql.runtime.connector.SinkWriter;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.graph.ErrorPolicy;
import dev.rsql.runtime.graph.FunctionException;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Applies a source table's error policy to records that cannot be decoded: fail the task, or skip the record —
 * counted, logged with its position, and written to the dead-letter table when one is configured.
 *
 * <p>The dead-letter table's columns are filled by name: {@code table_name}, {@code position}, {@code error},
 * {@code payload} (STRING or BYTES) and {@code error_time} (TIMESTAMP); other columns are NULL.
 */
final class RecordErrorHandler {

    private static final Logger LOG = LoggerFactory.getLogger(RecordErrorHandler.class);

    private final String jobName;
    private final String taskId;
    private final String tableName;
    private final ErrorPolicy policy;
    private final SinkWriter deadLetter;
    private final RowType deadLetterType;
    private final AtomicLong skipped = new AtomicLong();

    RecordErrorHandler(String jobName, String taskId, String tableName, ErrorPolicy policy, SinkWriter deadLetter,
                       RowType deadLetterType) {
        this.jobName = jobName;
        this.taskId = taskId;
        this.tableName = tableName;
        this.policy = policy;
        this.deadLetter = deadLetter;
        this.deadLetterType = deadLetterType;
    }

    void decodeError(String position, byte[] payload, Exception cause) throws Exception {
        if (policy == ErrorPolicy.FAIL) {
            throw RecordException.decoding(jobName, taskId, tableName, position, cause);
        }
        skipped.incrementAndGet();
        LOG.warn("job={} task={} skipped a record of table {} at {}: {}", jobName, taskId, tableName, position,
                cause.getMessage());
        if (deadLetter != null) {
            deadLetter.write(Row.insert(deadLetterRow(position, payload, cause)));
        }
    }

    /**
     * A function failed while the record was processed ({@link FunctionException} in the cause chain). With policy
     * SKIP the record is skipped like an undecodable one (counted, logged, dead-lettered with the row as payload)
     * and true is returned; otherwise false, and the caller fails the task. Rows the record already produced on
     * other branches of the graph stay emitted.
     */
    boolean functionError(String position, Row row, Exception cause) throws Exception {
        FunctionException f = FunctionException.find(cause);
        if (policy == ErrorPolicy.FAIL || f == null) {
            return false;
        }
        skipped.incrementAndGet();
        LOG.warn("job={} task={} skipped a record of table {} at {}: {}", jobName, taskId, tableName, position,
                f.getMessage());
        if (deadLetter != null) {
            byte[] payload = Arrays.deepToString(row.fields()).getBytes(StandardCharsets.UTF_8);
            deadLetter.write(Row.insert(deadLetterRow(position, payload, f)));
        }
        return true;
    }

    private Object[] deadLetterRow(String position, byte[] payload, Exception cause) {
        Object[] row = new Object[deadLetterType.size()];
        for (int i = 0; i < row.length; i++) {
            DataType type = deadLetterType.type(i);
            switch (deadLetterType.name(i).toLowerCase(Locale.ROOT)) {
                case "table_name":
                    row[i] = tableName;
                    break;
                case "position":
                    row[i] = position;
                    break;
                case "error":
                    row[i] = cause.getMessage();
                    break;
                case "payload":
                    row[i] = type.kind().isBinary() ? payload : new String(payload, StandardCharsets.UTF_8);
                    break;
                case "error_time":
                    row[i] = System.currentTimeMillis();
                    break;
                default:
                    row[i] = null;
            }
        }
        return row;
    }

    long skipped() {
        return skipped.get();
    }

    void flush() throws Exception {
        if (deadLetter != null) {
            deadLetter.flush();
        }
    }

    void close() throws Exception {
        if (deadLetter != null) {
            deadLetter.close();
        }
    }
}
