package dev.rsql.runtime.exec;

import dev.rsql.runtime.connector.SinkWriter;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.graph.ErrorPolicy;
import dev.rsql.runtime.graph.FunctionException;
import dev.rsql.runtime.graph.GraphNode;
import dev.rsql.runtime.graph.SourceNode;
import dev.rsql.runtime.table.TableDescriptor;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * Applies a source table's error policy to records that cannot be decoded: fail the task, or skip the record —
 * counted, logged with its position, and written to the dead-letter table when one is configured.
 *
 * <p>The dead-letter table's columns are filled by name: {@code table_name}, {@code position}, {@code error},
 * {@code payload} (STRING or BYTES: at most the first {@code scan.dead-letter.max-payload-bytes} of the record, so
 * that an oversized record cannot exhaust the heap on its way to the dead letters), {@code payload_bytes} (BIGINT:
 * the size of the record) and {@code error_time} (TIMESTAMP); other columns are NULL.
 */
final class RecordErrorHandler {

    private static final Logger LOG = LoggerFactory.getLogger(RecordErrorHandler.class);

    private final String jobName;
    private final String taskId;
    private final String tableName;
    private final ErrorPolicy policy;
    private final SinkWriter deadLetter;
    private final RowType deadLetterType;
    private final int maxPayloadBytes;
    private final AtomicLong skipped = new AtomicLong();
    private final AtomicLong deadLettered = new AtomicLong();

    /** Opens a writer of a table that is not a sink of the graph (a dead-letter table). */
    interface SideOutputs {
        SinkWriter open(TableDescriptor table) throws Exception;
    }

    RecordErrorHandler(String jobName, String taskId, String tableName, ErrorPolicy policy, SinkWriter deadLetter,
                       RowType deadLetterType, int maxPayloadBytes) {
        this.jobName = jobName;
        this.taskId = taskId;
        this.tableName = tableName;
        this.policy = policy;
        this.deadLetter = deadLetter;
        this.deadLetterType = deadLetterType;
        this.maxPayloadBytes = maxPayloadBytes;
    }

    /** The handler of a task reading a source: the table's policy and dead-letter table. */
    static RecordErrorHandler forSource(String jobName, String taskId, SourceNode source, SideOutputs sideOutputs)
            throws Exception {
        TableDescriptor dl = source.deadLetterTable();
        return new RecordErrorHandler(jobName, taskId, source.table().name(), source.errorPolicy(),
                dl == null ? null : sideOutputs.open(dl), dl == null ? null : dl.schema().rowType(),
                ErrorPolicy.deadLetterPayloadBytes(source.table().name(), source.table().options()));
    }

    /**
     * The handler of a task after an exchange. A row that a function fails on there no longer knows its source
     * record: it is skipped only when every source table upstream says skip, and dead-lettered when they agree on one
     * dead-letter table.
     */
    static RecordErrorHandler afterExchange(String jobName, String taskId, GraphNode exchange,
                                            SideOutputs sideOutputs) throws Exception {
        List<SourceNode> upstream = new ArrayList<>();
        collectSources(exchange, upstream);
        boolean skip = upstream.stream().allMatch(s -> s.errorPolicy() == ErrorPolicy.SKIP);
        Set<TableDescriptor> deadLetters = upstream.stream().map(SourceNode::deadLetterTable)
                .filter(Objects::nonNull).collect(Collectors.toSet());
        TableDescriptor dl = skip && deadLetters.size() == 1 ? deadLetters.iterator().next() : null;
        String tables = upstream.stream().map(s -> s.table().name()).distinct().collect(Collectors.joining(", "));
        return new RecordErrorHandler(jobName, taskId, tables, skip ? ErrorPolicy.SKIP : ErrorPolicy.FAIL,
                dl == null ? null : sideOutputs.open(dl), dl == null ? null : dl.schema().rowType(),
                ErrorPolicy.DEFAULT_MAX_DEAD_LETTER_PAYLOAD);
    }

    private static void collectSources(GraphNode node, List<SourceNode> into) {
        if (node instanceof SourceNode) {
            if (!into.contains(node)) {
                into.add((SourceNode) node);
            }
            return;
        }
        for (GraphNode in : node.inputs()) {
            collectSources(in, into);
        }
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
            deadLettered.incrementAndGet();
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
            deadLettered.incrementAndGet();
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
                case "payload": {
                    boolean binary = type.kind().isBinary();
                    int kept = kept(payload, !binary);
                    row[i] = binary ? (kept == payload.length ? payload : Arrays.copyOf(payload, kept))
                            : new String(payload, 0, kept, StandardCharsets.UTF_8);
                    break;
                }
                case "payload_bytes":
                    row[i] = (long) payload.length;
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

    /** How many bytes of the payload a dead letter keeps: at most the limit, as text not inside a character. */
    private int kept(byte[] payload, boolean text) {
        if (payload.length <= maxPayloadBytes) {
            return payload.length;
        }
        int n = maxPayloadBytes;
        while (text && n > 0 && (payload[n] & 0xC0) == 0x80) {
            n--;
        }
        return n;
    }

    /** The table whose records the task reads (after an exchange: the source tables upstream). */
    String tableName() {
        return tableName;
    }

        long skipped() {
        return skipped.get();
    }

    /** Skipped records written to the dead-letter table. */
    long deadLettered() {
        return deadLettered.get();
    }

    void flush() throws Exception {
        if (deadLetter != null) {
            deadLetter.flush();
        }
    }

    /** Makes the dead letters written under {@code transactionId} visible (see {@link SinkWriter#commit}). */
    void commit(String transactionId) throws Exception {
        if (deadLetter != null) {
            deadLetter.commit(transactionId);
        }
    }

    void close() throws Exception {
        if (deadLetter != null) {
            deadLetter.close();
        }
    }
}
