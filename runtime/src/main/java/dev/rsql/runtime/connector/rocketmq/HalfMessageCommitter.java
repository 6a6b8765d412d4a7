package dev.rsql.runtime.connector.rocketmq;

import org.apache.rocketmq.client.impl.factory.MQClientInstance;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.common.sysflag.MessageSysFlag;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.header.EndTransactionRequestHeader;

import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Commits the half messages of a transaction with the END_TRANSACTION request {@code
 * DefaultMQProducerImpl.endTransaction} sends, but waiting for the broker's answer (the client sends it one-way) and
 * sending a queue's next end only after the previous one is answered: queues in parallel, each in write order.
 *
 * <p>What RocketMQ 5.3.3 does that this is built around:
 * <ul>
 *   <li>The broker stores the committed copy of a half message in its real queue when it processes the end request,
 *       on a pool of end-transaction threads: ends sent back to back are stored in any order. One answered end at a
 *       time per queue keeps the queue (and so every key) in write order.</li>
 *   <li>The broker does not remember which halves were ended: ending one twice stores it twice (apache/rocketmq
 *       #5574). Checking a half copies it to the end of the half queue, and an end of the original leaves that copy
 *       open: the next check asks again, and a COMMIT answer stores the message a second time (#8158). So a half is
 *       ended here only while it cannot have been checked: younger than the commit window, which must stay below
 *       the broker's {@code transactionTimeOut} (the age from which halves are checked; default 6 s) minus its
 *       {@code transactionOpBatchInterval} (how late an end becomes visible to the check; default 3 s). Older
 *       halves, and the rest of a queue after one that could not be ended, are left to the check, which the job
 *       answers COMMIT: they become visible a check interval later, in no particular order.</li>
 * </ul>
 */
final class HalfMessageCommitter {

    private final RocketMqSink sink;
    private final long windowMillis;

    HalfMessageCommitter(RocketMqSink sink, long windowMillis) {
        this.sink = sink;
        this.windowMillis = windowMillis;
    }

    /** How a commit went: halves ended here, halves left to the broker's check, and why the first was left. */
    record Result(int committed, int leftToCheck, String firstProblem) {
    }

    /** Ends the transaction's halves as committed; returns when each queue is done (every end answered or given up). */
    Result commit(HalfMessages tx) throws InterruptedException {
        CountDownLatch done = new CountDownLatch(tx.byQueue().size());
        AtomicInteger committed = new AtomicInteger();
        AtomicReference<String> problem = new AtomicReference<>();
        List<QueueCommit> queues = new ArrayList<>();
        for (Map.Entry<MessageQueue, List<HalfMessages.Half>> e : tx.byQueue().entrySet()) {
            QueueCommit q = new QueueCommit(e.getKey(), e.getValue(), done, committed, problem);
            queues.add(q);
            q.sendNext();
        }
        // Each queue sends ends only inside the window and each end is answered or times out: this wait is bounded.
        if (!done.await(windowMillis + sink.sendTimeoutMillis + 5_000L, TimeUnit.MILLISECONDS)) {
            queues.forEach(q -> q.stopped = true);
            problem.compareAndSet(null, "ends unanswered");
        }
        int n = committed.get();
        return new Result(n, tx.count() - n, problem.get());
    }

    /** The ends of one queue's halves, one at a time in write order. */
    private final class QueueCommit {
        final MessageQueue queue;
        final List<HalfMessages.Half> halves;
        final CountDownLatch done;
        final AtomicInteger committed;
        final AtomicReference<String> problem;
        volatile boolean stopped;
        private int next;

        QueueCommit(MessageQueue queue, List<HalfMessages.Half> halves, CountDownLatch done, AtomicInteger committed,
                AtomicReference<String> problem) {
            this.queue = queue;
            this.halves = halves;
            this.done = done;
            this.committed = committed;
            this.problem = problem;
        }

        /** Sends the end of the next half, or finishes; runs on the task thread first, then on answer threads. */
        void sendNext() {
            if (stopped || next == halves.size()) {
                done.countDown();
                return;
            }
            HalfMessages.Half half = halves.get(next);
            if (System.currentTimeMillis() - half.sentAtMillis >= windowMillis) {
                giveUp("older than the commit window of " + windowMillis + " ms");
                return;
            }
            try {
                String addr = brokerAddress(queue.getBrokerName());
                sink.producer().getDefaultMQProducerImpl().getMqClientFactory().getMQClientAPIImpl().getRemotingClient()
                        .invoke(addr, endRequest(half.result), sink.sendTimeoutMillis)
                        .whenComplete((response, error) -> {
                            if (error != null) {
                                giveUp(error.toString());
                            } else if (response.getCode() != ResponseCode.SUCCESS) {
                                giveUp("broker answered " + response.getCode() + " " + response.getRemark());
                            } else {
                                committed.incrementAndGet();
                                next++;
                                sendNext();
                            }
                        });
            } catch (Exception e) {
                giveUp(e.toString());
            }
        }

        private void giveUp(String why) {
            problem.compareAndSet(null, queue + ": " + why);
            done.countDown();
        }
    }

    private String brokerAddress(String brokerName) {
        MQClientInstance client = sink.producer().getDefaultMQProducerImpl().getMqClientFactory();
        String addr = client.findBrokerAddressInPublish(brokerName);
        if (addr == null) {
            client.updateTopicRouteInfoFromNameServer(sink.options.topic);
            addr = client.findBrokerAddressInPublish(brokerName);
        }
        if (addr == null) {
            throw new IllegalStateException("no address for broker " + brokerName);
        }
        return addr;
    }

    private RemotingCommand endRequest(SendResult sent) throws UnknownHostException {
        EndTransactionRequestHeader h = new EndTransactionRequestHeader();
        h.setTopic(sink.options.topic);
        h.setBrokerName(sent.getMessageQueue().getBrokerName());
        h.setProducerGroup(sink.producerGroup);
        h.setTranStateTableOffset(sent.getQueueOffset());
        h.setCommitLogOffset(MessageDecoder.decodeMessageId(sent.getOffsetMsgId()).getOffset());
        h.setCommitOrRollback(MessageSysFlag.TRANSACTION_COMMIT_TYPE);
        h.setFromTransactionCheck(false);
        h.setMsgId(sent.getMsgId());
        h.setTransactionId(sent.getTransactionId());
        return RemotingCommand.createRequestCommand(RequestCode.END_TRANSACTION, h);
    }
}
