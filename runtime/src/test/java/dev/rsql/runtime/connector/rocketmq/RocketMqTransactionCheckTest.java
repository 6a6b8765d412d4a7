package dev.rsql.runtime.connector.rocketmq;

import dev.rsql.runtime.connector.SinkTransactions;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** How the sink answers the broker's checks of its half messages. */
class RocketMqTransactionCheckTest {

    private final Map<String, SinkTransactions.Outcome> outcomes = Map.of("t-commit", SinkTransactions.Outcome.COMMIT,
            "t-rollback", SinkTransactions.Outcome.ROLLBACK, "t-open", SinkTransactions.Outcome.UNKNOWN);
    /** Unique keys of the halves whose messages are in their topic already. */
    private final Set<String> storedKeys = new HashSet<>();
    private long now = 1_000_000;
    private final UnendedHalves unended = new UnendedHalves();
    /** What this process answered COMMIT lately, shared by its sinks. */
    private final RecentCommitAnswers recentCommits = new RecentCommitAnswers();
    private final RocketMqTransactionCheck check = check(outcomes::get, unended);

    private static final String SINK_GROUP = "rsql_job_sink_tx";
    private static final String TASK_GROUP = TaskProducerGroups.groupOf(SINK_GROUP, "exchange-1#0");

    private RocketMqTransactionCheck check(SinkTransactions transactions, UnendedHalves left) {
        return new RocketMqTransactionCheck(transactions,
                half -> storedKeys.contains(half.getProperty(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX)),
                left, SINK_GROUP, recentCommits, "job", "sink", () -> now);
    }

    /** A half of a task's own group. */
    private static MessageExt half(String transaction, String key, Integer checkTimes) {
        return half(TASK_GROUP, transaction, key, checkTimes);
    }

    private static MessageExt half(String group, String transaction, String key, Integer checkTimes) {
        MessageExt m = new MessageExt();
        m.setTopic("out");
        MessageAccessor.putProperty(m, MessageConst.PROPERTY_PRODUCER_GROUP, group);
        m.putUserProperty(RocketMqTransactionCheck.TRANSACTION_PROPERTY, transaction);
        MessageAccessor.putProperty(m, MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX, key);
        if (checkTimes != null) {
            m.putUserProperty("TRANSACTION_CHECK_TIMES", String.valueOf(checkTimes));
        }
        return m;
    }

    /**
     * A check of a process where every transaction is committed, whose writer runs here ({@code runsHere}) and, as
     * {@code live} says, still in the incarnation that wrote it.
     */
    private RocketMqTransactionCheck committedCheck(boolean runsHere, BooleanSupplier live, UnendedHalves left) {
        SinkTransactions transactions = new SinkTransactions() {
            @Override
            public Outcome outcome(String transactionId) {
                return Outcome.COMMIT;
            }

            @Override
            public boolean writerRunsHere(String transactionId) {
                return runsHere;
            }

            @Override
            public boolean writtenByLiveWriter(String transactionId) {
                return live.getAsBoolean();
            }
        };
        return check(transactions, left);
    }

    @Test
    void aCommittedHalfIsConfirmedFromItsSecondCheckOnOnly() {
        // The first check may race the end the job sent itself: committing then could store the row twice.
        assertEquals(LocalTransactionState.UNKNOW, check.checkLocalTransaction(half("t-commit", "m1", 1)));
        assertEquals(LocalTransactionState.UNKNOW, check.checkLocalTransaction(half("t-commit", "m1", null)));
        assertEquals(LocalTransactionState.COMMIT_MESSAGE, check.checkLocalTransaction(half("t-commit", "m1", 2)));
    }

    @Test
    void aHalfAnsweredCommitIsNotCommittedAgainBeforeItsEndCouldLand() {
        // Another copy of the same half, checked while the end of the first COMMIT is not stored yet: committing it
        // too would store the row twice.
        assertEquals(LocalTransactionState.COMMIT_MESSAGE, check.checkLocalTransaction(half("t-commit", "m1", 2)));
        now += 1_000;
        assertEquals(LocalTransactionState.UNKNOW, check.checkLocalTransaction(half("t-commit", "m1", 3)));
        assertEquals(LocalTransactionState.COMMIT_MESSAGE, check.checkLocalTransaction(half("t-commit", "m6", 3)));
        // Once the end landed, the lookup sees the message.
        storedKeys.add("m1");
        assertEquals(LocalTransactionState.ROLLBACK_MESSAGE, check.checkLocalTransaction(half("t-commit", "m1", 4)));
        // An end that never landed: a later check commits the half again.
        now += RecentCommitAnswers.HOLD_MILLIS;
        assertEquals(LocalTransactionState.COMMIT_MESSAGE, check.checkLocalTransaction(half("t-commit", "m6", 5)));
    }

    @Test
    void aCopyAnsweredCommitBeforeTheJobRestartedIsNotCommittedAgainByItsNextRun() {
        // The job restarts and opens its sinks again, within a second of the first COMMIT: same process, new check.
        RocketMqTransactionCheck before = committedCheck(true, () -> false, new UnendedHalves());
        RocketMqTransactionCheck after = committedCheck(true, () -> false, new UnendedHalves());
        assertEquals(LocalTransactionState.COMMIT_MESSAGE, before.checkLocalTransaction(half("t-commit", "m13", 8)));
        now += 1_000;
        assertEquals(LocalTransactionState.UNKNOW, after.checkLocalTransaction(half("t-commit", "m13", 9)));
        storedKeys.add("m13");
        assertEquals(LocalTransactionState.ROLLBACK_MESSAGE, after.checkLocalTransaction(half("t-commit", "m13", 10)));
    }

    @Test
    void aProcessNotRunningTheTransactionsTaskNeverCommitsItsHalves() {
        // The task's group is registered there for moments after the task left: its checks come there too.
        RocketMqTransactionCheck other = committedCheck(false, () -> false, new UnendedHalves());
        int first = RocketMqTransactionCheck.OTHER_PROCESS_FIRST_CHECK;
        for (int times : new int[] {1, 2, first - 1, first, first + 1, 1000}) {
            assertEquals(LocalTransactionState.UNKNOW, other.checkLocalTransaction(half("t-commit", "m8", times)));
        }
        // copies of stored messages are rolled back from the second check on, so that they do not linger
        storedKeys.add("m9");
        assertEquals(LocalTransactionState.ROLLBACK_MESSAGE, other.checkLocalTransaction(half("t-commit", "m9", 2)));
    }

    @Test
    void halvesOfTheSinksOwnGroupAreCommittedByTheOtherProcessesOnceTheOneRunningTheTaskHadItsChances() {
        // Written before each task had its group: their checks reach every process of the job.
        RocketMqTransactionCheck other = committedCheck(false, () -> false, new UnendedHalves());
        int first = RocketMqTransactionCheck.OTHER_PROCESS_FIRST_CHECK;
        assertEquals(LocalTransactionState.UNKNOW, other.checkLocalTransaction(half(SINK_GROUP, "t-commit", "m14", 2)));
        assertEquals(LocalTransactionState.UNKNOW,
                other.checkLocalTransaction(half(SINK_GROUP, "t-commit", "m14", first - 1)));
        assertEquals(LocalTransactionState.COMMIT_MESSAGE,
                other.checkLocalTransaction(half(SINK_GROUP, "t-commit", "m14", first)));
        storedKeys.add("m15");
        assertEquals(LocalTransactionState.ROLLBACK_MESSAGE,
                other.checkLocalTransaction(half(SINK_GROUP, "t-commit", "m15", 2)));
        // the process running the task commits them from their second check
        assertEquals(LocalTransactionState.COMMIT_MESSAGE,
                check.checkLocalTransaction(half(SINK_GROUP, "t-commit", "m16", 2)));
    }

    @Test
    void aHalfItsWriterHereLeftUnendedIsCommittedAtItsFirstCheck() {
        unended.add("m7");
        assertEquals(LocalTransactionState.COMMIT_MESSAGE, check.checkLocalTransaction(half("t-commit", "m7", 1)));
        // a copy the broker made before that answer landed
        assertEquals(LocalTransactionState.UNKNOW, check.checkLocalTransaction(half("t-commit", "m7", 2)));
        storedKeys.add("m7");
        assertEquals(LocalTransactionState.ROLLBACK_MESSAGE, check.checkLocalTransaction(half("t-commit", "m7", 3)));
    }

    @Test
    void aHalfLeftUnendedHereIsLookedUpOnceAnotherProcessMayHaveCommittedIt() {
        boolean[] sameIncarnation = {true};
        UnendedHalves left = new UnendedHalves();
        RocketMqTransactionCheck writer = committedCheck(true, () -> sameIncarnation[0], left);
        // its task moved to another process, which committed the half from its second check
        left.add("m10");
        sameIncarnation[0] = false;
        storedKeys.add("m10");
        assertEquals(LocalTransactionState.ROLLBACK_MESSAGE, writer.checkLocalTransaction(half("t-commit", "m10", 6)));
        // from the tenth check on, a process not running the task may have committed it
        left.add("m11");
        sameIncarnation[0] = true;
        storedKeys.add("m11");
        assertEquals(LocalTransactionState.ROLLBACK_MESSAGE, writer.checkLocalTransaction(
                half("t-commit", "m11", RocketMqTransactionCheck.OTHER_PROCESS_FIRST_CHECK)));
        // otherwise at its first check without the lookup
        left.add("m12");
        assertEquals(LocalTransactionState.COMMIT_MESSAGE, writer.checkLocalTransaction(half("t-commit", "m12", 1)));
    }

    @Test
    void aCopyOfAHalfWhoseMessageIsStoredIsRolledBack() {
        storedKeys.add("m2");
        assertEquals(LocalTransactionState.ROLLBACK_MESSAGE, check.checkLocalTransaction(half("t-commit", "m2", 3)));
        assertEquals(LocalTransactionState.COMMIT_MESSAGE, check.checkLocalTransaction(half("t-commit", "m3", 3)));
    }

    @Test
    void abandonedTransactionsRollBackAtOnceAndOpenOnesWait() {
        assertEquals(LocalTransactionState.ROLLBACK_MESSAGE, check.checkLocalTransaction(half("t-rollback", "m4", 1)));
        assertEquals(LocalTransactionState.UNKNOW, check.checkLocalTransaction(half("t-open", "m5", 5)));
        assertEquals(LocalTransactionState.ROLLBACK_MESSAGE, check.checkLocalTransaction(new MessageExt()));
    }
}
