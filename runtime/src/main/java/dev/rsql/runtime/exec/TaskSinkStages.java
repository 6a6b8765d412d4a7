package dev.rsql.runtime.exec;

import dev.rsql.runtime.connector.SinkStage;
import dev.rsql.runtime.state.changelog.CommitRecord;
import dev.rsql.runtime.state.changelog.StagedRows;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sink stages of one shuffle task ({@link SinkStage}): collects its writers' chunks for each checkpoint's stage
 * messages and hands each writer what it staged with the restored checkpoint (the writers publish when the task
 * commits them). A writer is known by its table's name, followed by {@code #2}, {@code #3}... for further writers of the
 * same table in the task (a sink and a side output, say), in the order they join, which the plan fixes.
 */
final class TaskSinkStages {

    private final StagedRows staged;          // null: the restored checkpoint has no stage messages
    private final String stagedTransaction;   // the restored checkpoint's transaction, if it has stage messages
    private final Map<String, Integer> writersPerTable = new HashMap<>();
    private final Map<String, SinkStage.Participant> participants = new LinkedHashMap<>();
    private final Runnable checkpointRequest;

    /**
     * {@code restored} is the task's restored checkpoint (null: it started empty) and {@code staged} its stage
     * messages; {@code checkpointRequest} has the task take a checkpoint soon.
     */
    TaskSinkStages(String taskId, CommitRecord restored, StagedRows staged, Runnable checkpointRequest) {
        this.staged = staged;
        this.stagedTransaction = staged == null ? null
                : TaskTransaction.id(taskId, restored.incarnation(), restored.checkpointId());
        this.checkpointRequest = checkpointRequest;
    }

    /** The stage of the next writer of {@code table}. */
    SinkStage forTable(String table) {
        int n = writersPerTable.merge(table, 1, Integer::sum);
        String owner = n == 1 ? table : table + "#" + n;
        return new SinkStage() {
            @Override
            public Recovered join(Participant participant) {
                participants.put(owner, participant);
                List<byte[]> chunks = staged == null ? null : staged.byOwner().get(owner);
                return chunks == null ? null : new Recovered(stagedTransaction, chunks, staged.committedAtMillis(),
                        staged.millisSinceCommit());
            }

            @Override
            public void requestCheckpoint() {
                checkpointRequest.run();
            }
        };
    }

    /** Every writer's chunks for {@code transactionId}, by writer, for the checkpoint's stage messages. */
    Map<String, List<byte[]>> stage(String transactionId) throws Exception {
        Map<String, List<byte[]>> chunks = new LinkedHashMap<>();
        for (Map.Entry<String, SinkStage.Participant> e : participants.entrySet()) {
            List<byte[]> c = e.getValue().stage(transactionId);
            if (!c.isEmpty()) {
                chunks.put(e.getKey(), new ArrayList<>(c));
            }
        }
        return chunks;
    }
}
