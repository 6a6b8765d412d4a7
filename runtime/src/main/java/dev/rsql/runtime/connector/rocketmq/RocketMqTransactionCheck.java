package dev.rsql.runtime.connector.rocketmq;

import dev.rsql.runtime.connector.SinkTransactions;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Answers the broker's checks of the sink's half messages from the job's {@link SinkTransactions}, by the transaction
 * id each half carries in user property {@value #TRANSACTION_PROPERTY}.
 *
 * <p>How RocketMQ 5.3.3 checks: every {@code transactionCheckInterval} the broker walks its half queue; a half with
 * no end recorded and older than {@code transactionTimeOut} (by its born timestamp) is copied to the end of the half
 * queue and sent to one live producer of the producer group the half names (round robin over the group's
 * connections). A task's halves name the task's own group, registered only by the process running the task
 * ({@link TaskProducerGroups}). UNKNOWN leaves a half for the next round; after {@code transactionCheckMax} checks
 * (default 15) the broker gives up and moves it to {@code TRANS_CHECK_MAX_TIME_TOPIC}, where no consumer sees it: a
 * half must not stay UNKNOWN that long. Checks of one round run on a few threads, so halves committed by checks are
 * stored in no particular order. A round happens whether or not a producer of the group is alive; each one counts.
 *
 * <p>A half of a committed transaction may have been stored already. The broker records ends asynchronously (op
 * messages, batched), and an end the job sent may still be in the broker's socket when a round starts (after a pause
 * of the broker every half is old at once); the round then copies the half, and an end recorded later no longer
 * covers the copy. Answering COMMIT to it stores the row twice. So a committed half is first left for one more round
 * (an end in flight is recorded by then), and from its second check on it is committed only if its message is not in
 * its topic yet ({@link Stored}, by the half's unique key); if it is, the copy is rolled back, which leaves the
 * stored message alone. A half whose writer in this process left it unended ({@link UnendedHalves}) is committed at
 * its first check, without the lookup, while that writer still runs here and before the half's tenth check: until
 * then no other process commits it, so it cannot be stored. Afterwards it takes the lookup like any other (a copy
 * that came back to its writer's process a minute after the task had moved, and another process had committed it,
 * was stored twice).
 *
 * <p>The lookup does not see a commit whose end the broker has not processed yet, and the client sends the end of a
 * COMMIT answer one-way after this returns. When answers lag behind the rounds (after an outage every half is old at
 * once, and each answer takes a lookup), the next round copies a half again while the answer to its previous copy is
 * still queued here, so the same half comes twice within moments. A half answered COMMIT in this process is
 * therefore not answered COMMIT again for {@link RecentCommitAnswers#HOLD_MILLIS}, by any of its sinks: its end lands
 * meanwhile and the lookup then sees it; if the end was lost, a later check commits it. Across processes there is no
 * such record, so only the process running the transaction's task ({@link SinkTransactions#writerRunsHere}) commits;
 * another one that gets a check (the task's group is still registered there for moments after the task left) answers
 * UNKNOWN, or ROLLBACK to a copy whose message is stored.
 *
 * <p>Halves naming the sink's own group were written before each task had its group (an older version of the
 * engine), and every process of the job gets their checks. For them the process running the task commits from a
 * half's second check and the others only from its {@value #OTHER_PROCESS_FIRST_CHECK}th: by then the first one has
 * had its chances, and its ends have had time to land even at a broker that is slow after a restart (ends were seen
 * stored 13 s after they were sent). They must commit eventually: the broker picks a producer by a counter that moves
 * one per check, so with as many open halves per round as instances a half is sent to the same instance every round.
 */
final class RocketMqTransactionCheck implements TransactionListener {

    static final String TRANSACTION_PROPERTY = "rsql_txn";
    /** Set by the broker on the half it sends with a check: 1 on the first check. */
    private static final String CHECK_TIMES_PROPERTY = "TRANSACTION_CHECK_TIMES";

    /**
     * The first check at which a process not running the transaction's task commits a half of the sink's own group
     * (see the class comment); the one running it commits from the second.
     */
    static final int OTHER_PROCESS_FIRST_CHECK = 10;

    private static final Logger LOG = LoggerFactory.getLogger(RocketMqTransactionCheck.class);

    private final SinkTransactions transactions;
    private final Stored stored;
    private final UnendedHalves unended;
    /** The sink's own producer group: halves naming it were written before each task had its own. */
    private final String sinkGroup;
    private final RecentCommitAnswers recentCommits;
    private final String job;
    private final String table;
    private final LongSupplier clock;
    /** Transaction and answer pairs logged already: one line each, not one per message. */
    private final Set<String> logged = ConcurrentHashMap.newKeySet();

    /** Whether the message of a checked half is in its topic already; throws when that cannot be told now. */
    interface Stored {
        boolean test(MessageExt half) throws Exception;
    }

    RocketMqTransactionCheck(SinkTransactions transactions, Stored stored, UnendedHalves unended, String sinkGroup,
            String job, String table) {
        this(transactions, stored, unended, sinkGroup, RecentCommitAnswers.IN_THIS_PROCESS, job, table,
                System::currentTimeMillis);
    }

    RocketMqTransactionCheck(SinkTransactions transactions, Stored stored, UnendedHalves unended, String sinkGroup,
            RecentCommitAnswers recentCommits, String job, String table, LongSupplier clock) {
        this.transactions = transactions;
        this.stored = stored;
        this.unended = unended;
        this.sinkGroup = sinkGroup;
        this.recentCommits = recentCommits;
        this.job = job;
        this.table = table;
        this.clock = clock;
    }

    /** Not called: the sink sends its halves with plain sends and commits them at checkpoints. */
    @Override
    public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
        return LocalTransactionState.UNKNOW;
    }

    @Override
    public LocalTransactionState checkLocalTransaction(MessageExt msg) {
        String txId = msg.getUserProperty(TRANSACTION_PROPERTY);
        if (txId == null) {
            LOG.warn("job={} table={}: rolling back half message {} of the sink's producer group without a {} property",
                    job, table, msg.getMsgId(), TRANSACTION_PROPERTY);
            return LocalTransactionState.ROLLBACK_MESSAGE;
        }
        SinkTransactions.Outcome outcome;
        try {
            outcome = transactions.outcome(txId);
        } catch (RuntimeException e) {
            LOG.warn("job={} table={}: cannot tell the outcome of transaction {}; the broker asks again", job, table,
                    txId, e);
            return LocalTransactionState.UNKNOW;
        }
        if (outcome == SinkTransactions.Outcome.COMMIT) {
            LocalTransactionState notYet = beforeCommit(msg, txId);
            if (notYet != null) {
                return notYet;
            }
        }
        if (outcome != SinkTransactions.Outcome.UNKNOWN && firstTime(txId + "/" + outcome)) {
            LOG.info("job={} table={}: broker check of transaction {} answered {}", job, table, txId, outcome);
        }
        switch (outcome) {
            case COMMIT:
                return LocalTransactionState.COMMIT_MESSAGE;
            case ROLLBACK:
                return LocalTransactionState.ROLLBACK_MESSAGE;
            default:
                return LocalTransactionState.UNKNOW;
        }
    }

    /**
     * For a half of a committed transaction: the answer to give instead of COMMIT (wait, or roll back a copy whose
     * message is stored), or null to answer COMMIT, which is then recorded.
     */
    private LocalTransactionState beforeCommit(MessageExt msg, String txId) {
        String key = msg.getProperty(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX);
        int times = checkTimes(msg);
        // Not stored yet only while nobody else may have committed it (see the class comment).
        boolean unstored = unended.take(key) && times < OTHER_PROCESS_FIRST_CHECK
                && transactions.writtenByLiveWriter(txId);
        if (!unstored) {
            LocalTransactionState notYet = afterLookup(msg, txId, times);
            if (notYet != null) {
                return notYet;
            }
        }
        if (key != null && !recentCommits.claim(key, clock.getAsLong())) {
            if (firstTime(txId + "/held")) {
                LOG.info("job={} table={}: broker check of transaction {} answered UNKNOWN for a copy of a half"
                        + " answered COMMIT moments ago, whose end may not have landed yet", job, table, txId);
            }
            return LocalTransactionState.UNKNOW;
        }
        return null;
    }

    /**
     * For a half that may be stored: wait for its second check, roll back a copy whose message is stored, wait while
     * its task runs elsewhere (for a half of the sink's own group: while the process running it has its chances
     * first); null when it may be committed.
     */
    private LocalTransactionState afterLookup(MessageExt msg, String txId, int times) {
        if (times < 2) {
            return LocalTransactionState.UNKNOW;
        }
        try {
            if (stored.test(msg)) {
                if (firstTime(txId + "/stored")) {
                    LOG.info("job={} table={}: broker check of transaction {} answered ROLLBACK for a copy of a half"
                            + " whose message is stored already", job, table, txId);
                }
                return LocalTransactionState.ROLLBACK_MESSAGE;
            }
        } catch (Exception e) {
            LOG.warn("job={} table={}: cannot tell whether message {} of transaction {} is stored; the broker asks"
                    + " again: {}", job, table, msg.getTransactionId(), txId, e.toString());
            return LocalTransactionState.UNKNOW;
        }
        boolean sinkGroupHalf = sinkGroup.equals(msg.getProperty(MessageConst.PROPERTY_PRODUCER_GROUP));
        if ((times < OTHER_PROCESS_FIRST_CHECK || !sinkGroupHalf) && !transactions.writerRunsHere(txId)) {
            return LocalTransactionState.UNKNOW;
        }
        return null;
    }

    private static int checkTimes(MessageExt msg) {
        String n = msg.getProperty(CHECK_TIMES_PROPERTY);
        try {
            return n == null ? 1 : Integer.parseInt(n);
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    private boolean firstTime(String key) {
        if (logged.size() > 10_000) {
            logged.clear();   // forgetting means a line more, not a leak
        }
        return logged.add(key);
    }
}
