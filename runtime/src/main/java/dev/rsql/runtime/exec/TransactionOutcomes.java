package dev.rsql.runtime.exec;

import dev.rsql.runtime.connector.SinkTransactions;
import dev.rsql.runtime.state.changelog.CheckpointOutcome;
import dev.rsql.runtime.state.changelog.StateRestorer;
import org.apache.rocketmq.common.message.MessageQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Answers the broker's transaction checks for a distributed job's sinks. A transaction is one checkpoint of one
 * shuffle task's incarnation ({@code <task>/<incarnation>/<checkpoint>}): it commits exactly when that checkpoint's
 * commit record is stored. A task running here answers from memory; otherwise the task's state queue tells: committed,
 * abandoned (another incarnation claimed the queue after it without it), or still open.
 *
 * <p>{@link #writerRunsHere} tells the sinks' checks whether the transaction's task runs in this process (in any
 * incarnation): only that process commits a half ({@code RocketMqTransactionCheck}).
 */
final class TransactionOutcomes implements SinkTransactions {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionOutcomes.class);
    private static final int DECIDED_CAPACITY = 10_000;

    private final Map<String, ShuffleTask> live = new ConcurrentHashMap<>();
    private final Map<String, Outcome> decided = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Outcome> eldest) {
            return size() > DECIDED_CAPACITY;
        }
    };
    private volatile Function<String, MessageQueue> stateQueues;
    private volatile StateRestorer restorer;

    /** Lets checks about tasks not running here read their state queues. */
    void connect(Function<String, MessageQueue> stateQueueOfTask, StateRestorer restorer) {
        this.stateQueues = stateQueueOfTask;
        this.restorer = restorer;
    }

    void register(ShuffleTask task) {
        live.put(task.id(), task);
    }

    void unregister(ShuffleTask task) {
        live.remove(task.id(), task);
    }

    @Override
    public Outcome outcome(String transactionId) {
        TaskTransaction.Id id = TaskTransaction.parse(transactionId);
        if (id == null) {
            LOG.warn("transaction check for '{}', which no task of this job wrote: leaving it open", transactionId);
            return Outcome.UNKNOWN;
        }
        synchronized (decided) {
            Outcome known = decided.get(transactionId);
            if (known != null) {
                return known;
            }
        }
        String taskId = id.taskId();
        long incarnation = id.incarnation();
        long checkpoint = id.checkpointId();
        ShuffleTask task = live.get(taskId);
        if (task != null && task.incarnation() == incarnation) {
            return checkpoint <= task.committedCheckpoint() ? decide(transactionId, Outcome.COMMIT) : Outcome.UNKNOWN;
        }
        Function<String, MessageQueue> queues = stateQueues;
        MessageQueue queue = queues == null ? null : queues.apply(taskId);
        if (queue == null) {
            return Outcome.UNKNOWN;
        }
        try {
            CheckpointOutcome o = restorer.checkpointOutcome(queue, incarnation, checkpoint);
            switch (o) {
                case COMMITTED:
                    return decide(transactionId, Outcome.COMMIT);
                case ABANDONED:
                    return decide(transactionId, Outcome.ROLLBACK);
                default:
                    return Outcome.UNKNOWN;
            }
        } catch (Exception e) {
            LOG.warn("transaction check for {}: cannot read state queue {}: {}", transactionId, queue, e.toString());
            return Outcome.UNKNOWN;
        }
    }

    @Override
    public boolean writerRunsHere(String transactionId) {
        TaskTransaction.Id id = TaskTransaction.parse(transactionId);
        return id != null && live.containsKey(id.taskId());
    }

    @Override
    public boolean writtenByLiveWriter(String transactionId) {
        TaskTransaction.Id id = TaskTransaction.parse(transactionId);
        ShuffleTask task = id == null ? null : live.get(id.taskId());
        return task != null && task.incarnation() == id.incarnation();
    }

    private Outcome decide(String transactionId, Outcome outcome) {
        synchronized (decided) {
            decided.put(transactionId, outcome);
        }
        return outcome;
    }
}
