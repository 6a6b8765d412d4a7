package dev.rsql.runtime.connector.rocketmq;

import dev.rsql.runtime.rocketmq.RocketMqNames;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.Map;

/**
 * The producer group of each writer task of a transactional sink, registered with the brokers by the process running
 * the task, and only while it does.
 *
 * <p>The broker sends the check of a half message to one producer of the group named in the half (round robin over
 * the group's connections). With one group for all of a sink's tasks, every process of the job got checks of every
 * task's halves, and two processes that each answered COMMIT to a copy of the same half stored the row twice: only
 * the process that answered knows that it did. A task's halves name the task's own group instead, and the process
 * running the task is the one registered in it, so their checks come where the task runs; a process the task left
 * (or that died) drops out of the group. Registering is a {@link TransactionMQProducer} in the sink's client
 * instance that never sends: its connections, heartbeats and threads are the sink producer's.
 */
final class TaskProducerGroups implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TaskProducerGroups.class);

    private final RocketMqOptions options;
    private final String baseGroup;
    private final TransactionListener check;
    /** Registered groups by task id, with how many writers of the task are open here (one, but for moments two). */
    private final Map<String, Registration> byTask = new HashMap<>();

    private static final class Registration {
        final TransactionMQProducer producer;
        int writers;

        Registration(TransactionMQProducer producer) {
            this.producer = producer;
        }
    }

    TaskProducerGroups(RocketMqOptions options, String baseGroup, TransactionListener check) {
        this.options = options;
        this.baseGroup = baseGroup;
        this.check = check;
    }

    /** The group of task {@code taskId}'s halves: the sink's group with the task id appended. */
    static String groupOf(String baseGroup, String taskId) {
        return RocketMqNames.distinct(baseGroup + "_" + taskId, RocketMqNames.MAX_GROUP_LENGTH);
    }

    /** Registers task {@code taskId}'s group here (a writer of the task opens) and returns its name. */
    synchronized String open(String taskId) {
        String group = groupOf(baseGroup, taskId);
        Registration r = byTask.get(taskId);
        if (r == null) {
            TransactionMQProducer p = options.rpcHook == null ? new TransactionMQProducer(group)
                    : new TransactionMQProducer(group, options.rpcHook);
            p.setTransactionListener(check);
            RocketMqSink.onSinkClient(options, p);
            try {
                p.start();   // registers the group and sends a heartbeat to the brokers at once
            } catch (MQClientException e) {
                throw options.unavailable("cannot register producer group " + group + " of task " + taskId + ": "
                        + e.getErrorMessage(), e);
            }
            r = new Registration(p);
            byTask.put(taskId, r);
            LOG.info("job={} table={} task={}: checks of the task's half messages come here (producer group {})",
                    options.job, options.table, taskId, group);
        }
        r.writers++;
        return group;
    }

    /** A writer of task {@code taskId} closed: the last one takes the task's group away from here. */
    synchronized void close(String taskId) {
        Registration r = byTask.get(taskId);
        if (r == null || --r.writers > 0) {
            return;
        }
        byTask.remove(taskId);
        r.producer.shutdown();   // unregisters the group at the brokers
    }

    @Override
    public synchronized void close() {
        byTask.values().forEach(r -> r.producer.shutdown());
        byTask.clear();
    }
}
