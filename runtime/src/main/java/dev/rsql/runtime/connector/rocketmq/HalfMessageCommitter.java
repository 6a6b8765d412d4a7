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
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Commits the half messages of a transaction with the END_TRANSACTION request {@code
 * DefaultMQProducerImpl.endTransaction} sends, but waiting for the broker's answer (the client sends it one-way) and
 * sending a chain's next end only after the previous one is answered: chains (a message key in a queue, see {@link
 * HalfMessages.Chain}) in parallel, at most {@code sink.transaction.max-in-flight} ends at a time, each chain in write
 * order. Keys rather than queues: an upsert sink writes many updates of few keys per transaction, and one chain per
 * queue made the ends, one round trip each, the bound of the whole job.
 *
 * <p>What RocketMQ 5.3.3 does that this is built around:
 * <ul>
 *   <li>The broker stores the committed copy of a half message in its real queue when it processes the end request,
 *       on a pool of end-transaction threads: ends sent back to back are stored in any order. One answered end at a
 *       time per chain keeps every key in write order.</li>
 *   <li>The broker does not remember which halves were ended: ending one twice stores it twice (apache/rocketmq
 *       #5574). Checking a half copies it to the end of the half queue, and an end of the original leaves that copy
 *       open: the next check asks again, and a COMMIT answer stores the message a second time (#8158). So a half is
 *       ended here only while it cannot have been checked: younger than the commit window, which must stay below
 *       the broker's {@code transactionTimeOut} (the age from which halves are checked; default 6 s) minus its
 *       {@code transactionOpBatchInterval} (how late an end becomes visible to the check; default 3 s). Older
 *       halves, and the rest of a chain after one that could not be ended, are left to the check, which the job
 *       answers COMMIT: they become visible a check interval later, in no particular order.</li>
 * </ul>
 */
final class HalfMessageCommitter {

    private final RocketMqSink sink;
    private final long windowMillis;
    private final UnendedHalves unended;

    HalfMessageCommitter(RocketMqSink sink, long windowMillis, UnendedHalves unended) {
        this.sink = sink;
        this.windowMillis = windowMillis;
        this.unended = unended;
    }

    /** How a commit went: halves ended here, halves left to the broker's check, and why the first was left. */
    record Result(int committed, int leftToCheck, String firstProblem) {
    }

    /**
     * Starts ending the transaction's halves as committed and returns at once: the ends go on on the answer threads,
     * and {@link Round#await} waits until each chain is done (every end answered or given up). Start a transaction's
     * round only after the previous one of the same writer is done, or a key's ends could overtake each other.
     */
    Round start(HalfMessages tx) {
        Round round = new Round(tx);
        round.start();
        return round;
    }

    /** One commit: its chains, those not started yet, and what came of them. */
    final class Round {
        final HalfMessages tx;
        final List<ChainEnds> chains = new ArrayList<>();
        final Queue<ChainEnds> waiting = new ConcurrentLinkedQueue<>();
        final CountDownLatch done;
        final AtomicInteger committed = new AtomicInteger();
        final AtomicReference<String> problem = new AtomicReference<>();

        Round(HalfMessages tx) {
            this.tx = tx;
            tx.byChain().forEach((chain, halves) -> chains.add(new ChainEnds(chain.queue(), halves)));
            waiting.addAll(chains);
            done = new CountDownLatch(chains.size());
        }

        private void start() {
            for (int i = 0; i < sink.maxInFlight; i++) {
                startWaiting();
            }
        }

        /** Waits until every chain is done; how the round went. */
        Result await() throws InterruptedException {
            // Each chain sends ends only inside the window and each end is answered or times out: this wait is bounded.
            if (!done.await(windowMillis + sink.sendTimeoutMillis + 5_000L, TimeUnit.MILLISECONDS)) {
                chains.forEach(c -> c.stopped = true);
                problem.compareAndSet(null, "ends unanswered");
            }
            int n = committed.get();
            return new Result(n, tx.count() - n, problem.get());
        }

        /** Starts waiting chains until one has an end in flight (a chain can be done at once) or none is left. */
        void startWaiting() {
            ChainEnds c;
            do {
                c = waiting.poll();
            } while (c != null && !c.advance());
        }

        /** The ends of one chain's halves, one at a time in write order. */
        private final class ChainEnds {
            final MessageQueue queue;
            final List<HalfMessages.Half> halves;
            volatile boolean stopped;
            private int next;

            ChainEnds(MessageQueue queue, List<HalfMessages.Half> halves) {
                this.queue = queue;
                this.halves = halves;
            }

            /**
             * Sends the end of the next half and returns true, or returns false when the chain is done (all ended,
             * given up or stopped). Runs on the task thread first, then on answer threads.
             */
            boolean advance() {
                if (stopped || next == halves.size()) {
                    done.countDown();
                    return false;
                }
                HalfMessages.Half half = halves.get(next);
                if (System.currentTimeMillis() - half.sentAtMillis >= windowMillis) {
                    return giveUp("older than the commit window of " + windowMillis + " ms", next);
                }
                try {
                    String addr = brokerAddress(queue.getBrokerName());
                    RemotingCommand end = endRequest(half.result, tx.producerGroup);
                    sink.producer().getDefaultMQProducerImpl().getMqClientFactory().getMQClientAPIImpl()
                            .getRemotingClient().invoke(addr, end, sink.sendTimeoutMillis)
                            .whenComplete((response, error) -> {
                                boolean sent = false;
                                if (error != null) {
                                    giveUp(error.toString(), next + 1);
                                } else if (response.getCode() != ResponseCode.SUCCESS) {
                                    giveUp("broker answered " + response.getCode() + " " + response.getRemark(),
                                            next + 1);
                                } else {
                                    committed.incrementAndGet();
                                    next++;
                                    sent = advance();
                                }
                                if (!sent) {
                                    startWaiting();   // this chain's slot is free
                                }
                            });
                    return true;
                } catch (Exception e) {
                    return giveUp(e.toString(), next);
                }
            }

            /** Ends the chain; its halves from {@code unsent} on had no end sent (the one before may have). */
            private boolean giveUp(String why, int unsent) {
                problem.compareAndSet(null, queue + ": " + why);
                for (int i = unsent; i < halves.size(); i++) {
                    SendResult r = halves.get(i).result;
                    if (r != null) {
                        unended.add(r.getMsgId());
                    }
                }
                done.countDown();
                return false;
            }
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

    private RemotingCommand endRequest(SendResult sent, String producerGroup) throws UnknownHostException {
        EndTransactionRequestHeader h = new EndTransactionRequestHeader();
        h.setTopic(sink.options.topic);
        h.setBrokerName(sent.getMessageQueue().getBrokerName());
        h.setProducerGroup(producerGroup);
        h.setTranStateTableOffset(sent.getQueueOffset());
        h.setCommitLogOffset(MessageDecoder.decodeMessageId(sent.getOffsetMsgId()).getOffset());
        h.setCommitOrRollback(MessageSysFlag.TRANSACTION_COMMIT_TYPE);
        h.setFromTransactionCheck(false);
        h.setMsgId(sent.getMsgId());
        h.setTransactionId(sent.getTransactionId());
        return RemotingCommand.createRequestCommand(RequestCode.END_TRANSACTION, h);
    }
}
