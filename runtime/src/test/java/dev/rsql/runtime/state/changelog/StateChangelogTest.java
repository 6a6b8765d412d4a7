package dev.rsql.runtime.state.changelog;

import dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport;
import dev.rsql.runtime.exec.StateBackendType;
import dev.rsql.runtime.state.CloseableIterator;
import dev.rsql.runtime.state.KeyedValueState;
import dev.rsql.runtime.state.LongSerializer;
import dev.rsql.runtime.state.Namespaces;
import dev.rsql.runtime.state.StateEntry;
import dev.rsql.runtime.state.StateException;
import dev.rsql.runtime.state.StringSerializer;
import dev.rsql.runtime.state.TimerService;
import dev.rsql.runtime.state.store.StoreStateBackend;
import dev.rsql.runtime.state.store.StateColumnFamily;
import dev.rsql.runtime.testing.Await;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Writing task state to a state queue of the shared test broker and restoring it. */
@ExtendWith(RocketMqTestSupport.class)
@ParameterizedClass
@EnumSource(StateBackendType.class)
class StateChangelogTest {

    static final byte[] NS = Namespaces.EMPTY;
    static final int KEY_GROUPS = 128;
    static final HexFormat HEX = HexFormat.of();

    static DefaultMQProducer producer;
    static StateRestorer restorer;

    @Parameter
    StateBackendType type;

    @TempDir
    Path dir;

    private final List<AutoCloseable> opened = new ArrayList<>();
    private int restores;

    @BeforeAll
    static void start() throws Exception {
        producer = started(new DefaultMQProducer(RocketMqTestSupport.unique("rsql_test_state_writer")));
        restorer = new StateRestorer(producer, RocketMqTestSupport.namesrv(),
                RocketMqTestSupport.unique("rsql_test_state_restorer"), RocketMqTestSupport.unique("state-restorer"),
                null, ChangelogSettings.defaults());
    }

    @AfterAll
    static void stop() {
        restorer.close();
        producer.shutdown();
    }

    @AfterEach
    void closeOpened() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
    }

    static <P extends DefaultMQProducer> P started(P p) throws MQClientException {
        p.setNamesrvAddr(RocketMqTestSupport.namesrv());
        p.setInstanceName(RocketMqTestSupport.unique("state-writer"));
        p.start();
        return p;
    }

    static MessageQueue newQueue() {
        String topic = RocketMqTestSupport.createTopic("rsql_state", 1);
        return new MessageQueue(topic, RocketMqTestSupport.broker().brokerName(), 0);
    }

    RestoredState restore(MessageQueue q) throws IOException {
        RestoredState r = restorer.restore("job", "task", q, dir.resolve("work-" + restores++), KEY_GROUPS,
                type);
        opened.add(r.backend());
        return r;
    }

    static StateChangelogWriter writer(RestoredState r, ChangelogSettings settings) {
        return new StateChangelogWriter("job", "task", producer, r, settings);
    }

    static ChangelogSettings settings(int snapshotEvery, int messageBytes) {
        return new ChangelogSettings(snapshotEvery, 2.0, 8 << 20, messageBytes, Duration.ofSeconds(10),
                Duration.ofSeconds(30));
    }

    static byte[] meta(long checkpoint) {
        return ("meta-" + checkpoint).getBytes(StandardCharsets.UTF_8);
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Every entry of every column family: "column family/hex key" to hex value. */
    static Map<String, String> dump(StoreStateBackend backend) throws IOException {
        Map<String, String> out = new TreeMap<>();
        backend.forEachEntry((cf, key, value) -> out.put(cf + "/" + HEX.formatHex(key), HEX.formatHex(value)));
        return out;
    }

    /** A digest of every entry, in key order (a store lists them in any order): for states too large to print. */
    static String digest(StoreStateBackend backend) throws Exception {
        byte[] entries = dump(backend).toString().getBytes(StandardCharsets.UTF_8);
        return HEX.formatHex(MessageDigest.getInstance("SHA-256").digest(entries));
    }

    /** The operators of a task: random writes to two value states and to timers. */
    static final class Workload {
        final KeyedValueState<String> names;
        final KeyedValueState<Long> counts;
        final TimerService timers;
        final Random random;
        final List<Object[]> registered = new ArrayList<>();
        long watermark;

        Workload(StoreStateBackend backend, long seed) {
            names = backend.valueState("agg", "names", StringSerializer.INSTANCE);
            counts = backend.valueState("agg", "counts", LongSerializer.INSTANCE);
            timers = backend.timerService("agg");
            random = new Random(seed);
        }

        byte[] key() {
            return b("key-" + random.nextInt(400));
        }

        String text() {
            // now and then longer than a small state message
            int length = random.nextInt(50) == 0 ? 6000 : random.nextInt(200);
            return "x".repeat(length) + random.nextInt();
        }

        void run(int operations) throws Exception {
            for (int i = 0; i < operations; i++) {
                switch (random.nextInt(11)) {
                    case 0, 1, 2, 3 -> names.put(key(), NS, text());
                    case 4 -> names.remove(key(), NS);
                    case 5, 6 -> counts.put(key(), NS, random.nextLong());
                    case 7 -> counts.remove(key(), NS);
                    case 8 -> {
                        long time = watermark + random.nextInt(1000);
                        byte[] key = key();
                        timers.registerEventTimeTimer(time, key, NS);
                        registered.add(new Object[] {time, key});
                    }
                    case 9 -> {
                        if (!registered.isEmpty()) {
                            Object[] t = registered.remove(random.nextInt(registered.size()));
                            timers.deleteEventTimeTimer((Long) t[0], (byte[]) t[1], NS);
                        }
                    }
                    default -> {
                        watermark += random.nextInt(100);
                        timers.fireEventTimeTimers(watermark, (time, key, ns) -> { });
                    }
                }
            }
        }

        /** What the operators see: every value, then every timer (firing them all). */
        List<String> contents() throws Exception {
            List<String> out = new ArrayList<>();
            for (KeyedValueState<?> state : List.of(names, counts)) {
                try (CloseableIterator<? extends StateEntry<?>> it = state.all()) {
                    while (it.hasNext()) {
                        StateEntry<?> e = it.next();
                        out.add(new String(e.key(), StandardCharsets.UTF_8) + "=" + e.value());
                    }
                }
            }
            timers.fireEventTimeTimers(Long.MAX_VALUE,
                    (time, key, ns) -> out.add("timer " + time + " " + new String(key, StandardCharsets.UTF_8)));
            return out;
        }
    }

    @Test
    void randomChangesOverSeveralCheckpointsAreRestoredExactly() throws Exception {
        MessageQueue q = newQueue();
        RestoredState empty = restore(q);
        assertNull(empty.commit());
        assertEquals(1, empty.nextOffset(), "after the claim");
        StateChangelogWriter w = writer(empty, settings(4, 4096));
        Workload work = new Workload(empty.backend(), 1);
        List<Integer> sinceBase = new ArrayList<>();
        CommitRecord last = null;
        for (long cp = 1; cp <= 10; cp++) {
            work.run(300);
            last = w.checkpoint(cp, meta(cp));
            sinceBase.add(last.checkpointsSinceBase());
        }
        assertEquals(List.of(0, 1, 2, 3, 0, 1, 2, 3, 0, 1), sinceBase);

        RestoredState restored = restore(q);
        assertEquals(last, restored.commit());
        assertArrayEquals(meta(10), restored.commit().taskMeta());
        assertEquals(dump(empty.backend()), dump(restored.backend()));
        assertEquals(work.contents(), new Workload(restored.backend(), 2).contents());
    }

    @Test
    void aDeleteAfterAPutStaysDeleted() throws Exception {
        MessageQueue q = newQueue();
        RestoredState empty = restore(q);
        StateChangelogWriter w = writer(empty, ChangelogSettings.defaults());
        KeyedValueState<String> s = empty.backend().valueState("agg", "names", StringSerializer.INSTANCE);
        TimerService timers = empty.backend().timerService("agg");
        s.put(b("in-base"), NS, "a");
        timers.registerEventTimeTimer(5, b("in-base"), NS);
        assertEquals(0, w.checkpoint(1, meta(1)).checkpointsSinceBase());
        s.remove(b("in-base"), NS);
        timers.deleteEventTimeTimer(5, b("in-base"), NS);
        s.put(b("in-changes"), NS, "b");
        w.checkpoint(2, meta(2));
        s.remove(b("in-changes"), NS);
        s.put(b("within-one-checkpoint"), NS, "c");
        s.remove(b("within-one-checkpoint"), NS);
        s.put(b("kept"), NS, "d");
        assertEquals(2, w.checkpoint(3, meta(3)).checkpointsSinceBase());

        RestoredState restored = restore(q);
        KeyedValueState<String> r = restored.backend().valueState("agg", "names", StringSerializer.INSTANCE);
        assertNull(r.get(b("in-base"), NS));
        assertNull(r.get(b("in-changes"), NS));
        assertNull(r.get(b("within-one-checkpoint"), NS));
        assertEquals("d", r.get(b("kept"), NS));
        List<Long> fired = new ArrayList<>();
        restored.backend().timerService("agg").fireEventTimeTimers(Long.MAX_VALUE, (t, k, n) -> fired.add(t));
        assertEquals(List.of(), fired);
        assertEquals(dump(empty.backend()), dump(restored.backend()));
    }

    /**
     * Sink writers' chunks staged with a checkpoint come back with it, and only with the last one: one restored from a
     * checkpoint without stage messages has none. A checkpoint cut short keeps nothing either.
     */
    @Test
    void stagedChunksComeBackWithTheLastCheckpointOnly() throws Exception {
        MessageQueue q = newQueue();
        RestoredState empty = restore(q);
        assertNull(empty.staged());
        StateChangelogWriter w = writer(empty, settings(100, 1024));
        KeyedValueState<String> s = empty.backend().valueState("agg", "names", StringSerializer.INSTANCE);
        s.put(b("k"), NS, "v1");
        w.checkpoint(1, meta(1), Map.of("sink", List.of(b("old"))));
        s.put(b("k"), NS, "v2");
        byte[] big = "y".repeat(3000).getBytes(StandardCharsets.UTF_8);
        Map<String, List<byte[]>> staged = new java.util.LinkedHashMap<>();
        staged.put("out", List.of(b("first"), big));
        staged.put("out#2", List.of(b("dead letters")));
        CommitRecord second = w.checkpoint(2, meta(2), staged);
        assertTrue(second.stageOffset() > 0, "the commit record points at its stage messages: " + second);

        RestoredState restored = restore(q);
        assertEquals("v2", restored.backend().valueState("agg", "names", StringSerializer.INSTANCE).get(b("k"), NS));
        StagedRows rows = restored.staged();
        assertEquals(java.util.Set.of("out", "out#2"), rows.byOwner().keySet());
        List<byte[]> out = rows.byOwner().get("out");
        assertEquals(2, out.size());
        assertArrayEquals(b("first"), out.get(0));
        assertArrayEquals(big, out.get(1));
        assertArrayEquals(b("dead letters"), rows.byOwner().get("out#2").get(0));
        assertTrue(rows.millisSinceCommit() >= 0);

        StateChangelogWriter w2 = writer(restored, settings(100, 1024));
        w2.checkpoint(1, meta(1));
        assertNull(restore(q).staged(), "the last checkpoint staged nothing");
    }

    /** Drops commit records once told to: a checkpoint cut short between its changes and its commit record. */
    static final class CommitDroppingProducer extends DefaultMQProducer {
        volatile boolean dropCommits;

        CommitDroppingProducer() {
            super(RocketMqTestSupport.unique("rsql_test_state_dropping"));
        }

        @Override
        public SendResult send(Message msg, MessageQueue mq, long timeout) throws MQClientException,
                org.apache.rocketmq.remoting.exception.RemotingException,
                org.apache.rocketmq.client.exception.MQBrokerException, InterruptedException {
            if (dropCommits && CommitRecord.TAG.equals(msg.getTags())) {
                throw new MQClientException("test: the process died before its commit record", null);
            }
            return super.send(msg, mq, timeout);
        }
    }

    @Test
    void aCheckpointCutShortIsIgnoredAndTheNextIncarnationContinues() throws Exception {
        MessageQueue q = newQueue();
        ChangelogSettings settings = settings(3, 1024);
        CommitDroppingProducer dropping = started(new CommitDroppingProducer());
        opened.add(dropping::shutdown);
        RestoredState first = restore(q);
        StateChangelogWriter w1 = new StateChangelogWriter("job", "task", dropping, first, settings);
        Workload work = new Workload(first.backend(), 7);
        work.run(300);
        w1.checkpoint(1, meta(1));
        work.run(300);
        CommitRecord committed = w1.checkpoint(2, meta(2));
        Map<String, String> committedState = dump(first.backend());

        work.run(300);
        for (int i = 0; i < 2000; i++) {
            work.names.put(b("bulk-" + i), NS, "a large checkpoint");
        }
        dropping.dropCommits = true;
        assertThrows(IOException.class, () -> w1.checkpoint(3, meta(3)));
        assertThrows(IllegalStateException.class, () -> w1.checkpoint(4, meta(4)));

        // the cut-short changes are after the last commit record: skipped while searching backwards
        RestoredState second = restore(q);
        assertEquals(committed, second.commit());
        long claim = second.nextOffset() - 1;
        assertTrue(claim - second.stats().commitOffset() - 1 > StateRestorer.FIRST_SEARCH_SPAN,
                "the cut-short checkpoint's messages, more than the first backward search spans");
        assertEquals(committedState, dump(second.backend()));

        // the next incarnation writes changes on the same base: its restore reads across the cut-short ones
        StateChangelogWriter w2 = writer(second, settings);
        assertNotEquals(w1.incarnation(), w2.incarnation());
        Workload work2 = new Workload(second.backend(), 8);
        work2.run(300);
        CommitRecord next = w2.checkpoint(1, meta(1));
        assertEquals(committed.baseOffset(), next.baseOffset());
        assertEquals(2, next.checkpointsSinceBase());

        RestoredState third = restore(q);
        assertEquals(next, third.commit());
        assertEquals(3, third.stats().checkpointsApplied(), "the base, its change checkpoint and the next one");
        assertEquals(dump(second.backend()), dump(third.backend()));
        assertEquals(work2.contents(), new Workload(third.backend(), 9).contents());
    }

    /** Runs {@link #beforeCommit} once, right before the next commit record is sent. */
    static final class CommitRacingProducer extends DefaultMQProducer {
        interface Race {
            void run() throws IOException;
        }

        volatile Race beforeCommit;

        CommitRacingProducer() {
            super(RocketMqTestSupport.unique("rsql_test_state_racing"));
        }

        @Override
        public SendResult send(Message msg, MessageQueue mq, long timeout) throws MQClientException,
                org.apache.rocketmq.remoting.exception.RemotingException,
                org.apache.rocketmq.client.exception.MQBrokerException, InterruptedException {
            Race race = beforeCommit;
            if (race != null && CommitRecord.TAG.equals(msg.getTags())) {
                beforeCommit = null;
                try {
                    race.run();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            return super.send(msg, mq, timeout);
        }
    }

    static String valueOf(RestoredState r, String key) {
        return r.backend().valueState("agg", "names", StringSerializer.INSTANCE).get(b(key), NS);
    }

    @Test
    void aCommitRecordStoredAfterAnotherIncarnationsClaimDoesNotCount() throws Exception {
        MessageQueue q = newQueue();
        CommitRacingProducer racing = started(new CommitRacingProducer());
        opened.add(racing::shutdown);
        RestoredState first = restore(q);
        StateChangelogWriter w1 = new StateChangelogWriter("job", "task", racing, first, ChangelogSettings.defaults());
        KeyedValueState<String> s = first.backend().valueState("agg", "names", StringSerializer.INSTANCE);
        s.put(b("k"), NS, "committed");
        CommitRecord committed = w1.checkpoint(1, meta(1));
        s.put(b("k"), NS, "fenced off");
        RestoredState[] second = new RestoredState[1];
        racing.beforeCommit = () -> second[0] = restore(q);
        // the changes are stored before the second incarnation's claim, the commit record after it
        assertThrows(StateQueueConflictException.class, () -> w1.checkpoint(2, meta(2)));
        assertEquals(committed, second[0].commit());

        RestoredState third = restore(q);
        assertEquals(committed, third.commit(), "the commit record after the second's claim does not count");
        assertEquals("committed", valueOf(third, "k"));

        // nor does it when it lies between the base and the last commit record
        StateChangelogWriter w3 = writer(third, ChangelogSettings.defaults());
        third.backend().valueState("agg", "names", StringSerializer.INSTANCE).put(b("other"), NS, "third");
        CommitRecord next = w3.checkpoint(1, meta(1));
        assertEquals(committed.baseOffset(), next.baseOffset());
        RestoredState fourth = restore(q);
        assertEquals(next, fourth.commit());
        assertEquals(2, fourth.stats().checkpointsApplied());
        assertEquals("committed", valueOf(fourth, "k"));
        assertEquals(dump(third.backend()), dump(fourth.backend()));
    }

    @Test
    void restoreReadsFromTheLastSnapshot() throws Exception {
        MessageQueue q = newQueue();
        RestoredState empty = restore(q);
        StateChangelogWriter w = writer(empty, settings(3, 1024));
        Workload work = new Workload(empty.backend(), 3);
        List<Integer> sinceBase = new ArrayList<>();
        CommitRecord last = null;
        for (long cp = 1; cp <= 8; cp++) {
            work.run(200);
            last = w.checkpoint(cp, meta(cp));
            sinceBase.add(last.checkpointsSinceBase());
        }
        assertEquals(List.of(0, 1, 2, 0, 1, 2, 0, 1), sinceBase);
        assertTrue(last.baseOffset() > 0);

        RestoredState restored = restore(q);
        assertEquals(last.baseOffset(), restored.stats().firstStateOffset());
        assertEquals(2, restored.stats().checkpointsApplied());
        assertEquals(dump(empty.backend()), dump(restored.backend()));
    }

    @Test
    void aSnapshotIsDueWhenTheChangesOutgrowTheState() throws Exception {
        MessageQueue q = newQueue();
        RestoredState empty = restore(q);
        StateChangelogWriter w = writer(empty,
                new ChangelogSettings(100, 1.0, 0, 1 << 20, Duration.ofSeconds(10), Duration.ofSeconds(30)));
        KeyedValueState<String> s = empty.backend().valueState("agg", "names", StringSerializer.INSTANCE);
        for (int i = 0; i < 10; i++) {
            s.put(b("k" + i), NS, "small");
        }
        CommitRecord base = w.checkpoint(1, meta(1));
        assertEquals(0, base.checkpointsSinceBase());
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < 10; i++) {
                s.put(b("k" + i), NS, "larger " + round + " ".repeat(100));
            }
        }
        CommitRecord changes = w.checkpoint(2, meta(2));
        assertEquals(1, changes.checkpointsSinceBase());
        assertTrue(changes.bytesSinceBase() > base.baseBytes());
        CommitRecord snapshot = w.checkpoint(3, meta(3));
        assertEquals(0, snapshot.checkpointsSinceBase());
        assertTrue(snapshot.baseOffset() > base.baseOffset());
    }

    @Test
    void theIncarnationHistoryIsCarriedAcrossRestores() throws Exception {
        MessageQueue q = newQueue();
        RestoredState r1 = restore(q);
        StateChangelogWriter w1 = writer(r1, ChangelogSettings.defaults());
        w1.checkpoint(1, meta(1));
        assertEquals(List.of(), w1.checkpoint(2, meta(2)).history());

        RestoredState r2 = restore(q);
        StateChangelogWriter w2 = writer(r2, ChangelogSettings.defaults());
        CommitRecord c2 = w2.checkpoint(1, meta(1));
        assertEquals(List.of(new CommitRecord.PastIncarnation(w1.incarnation(), 2)), c2.history());

        RestoredState r3 = restore(q);
        assertEquals(c2, r3.commit());
        StateChangelogWriter w3 = writer(r3, ChangelogSettings.defaults());
        CommitRecord c3 = w3.checkpoint(5, meta(5));
        assertEquals(List.of(new CommitRecord.PastIncarnation(w2.incarnation(), 1),
                new CommitRecord.PastIncarnation(w1.incarnation(), 2)), c3.history());
        assertEquals(c3, restore(q).commit());
    }

    @Test
    void anotherWriterAppendingToTheQueueStopsTheFirst() throws Exception {
        MessageQueue q = newQueue();
        RestoredState mine = restore(q);
        RestoredState theirs = restore(q);
        StateChangelogWriter w1 = writer(mine, ChangelogSettings.defaults());
        StateChangelogWriter w2 = writer(theirs, ChangelogSettings.defaults());
        theirs.backend().valueState("agg", "names", StringSerializer.INSTANCE).put(b("k"), NS, "theirs");
        CommitRecord c = w2.checkpoint(1, meta(1));
        mine.backend().valueState("agg", "names", StringSerializer.INSTANCE).put(b("k"), NS, "mine");
        assertThrows(StateQueueConflictException.class, () -> w1.checkpoint(1, meta(1)));

        RestoredState after = restore(q);
        assertEquals(c, after.commit());
        assertEquals("theirs",
                after.backend().valueState("agg", "names", StringSerializer.INSTANCE).get(b("k"), NS));
    }

    @Test
    void anEarlierOwnersLateWriteIsLeftBehindAndTheNewOwnerWritesASnapshotAfterIt() throws Exception {
        MessageQueue q = newQueue();
        RestoredState old = restore(q);
        StateChangelogWriter oldWriter = restorer.writer("job", "task", old);
        KeyedValueState<String> oldState = old.backend().valueState("agg", "names", StringSerializer.INSTANCE);
        oldState.put(b("k"), NS, "old-1");
        oldWriter.checkpoint(1, meta(1));
        oldState.put(b("k"), NS, "old-2");

        RestoredState current = restore(q);
        StateChangelogWriter writer = restorer.writer("job", "task", current);
        // The earlier owner has not seen the claim: its next write lands after it, and the claim stops it.
        assertThrows(StateQueueConflictException.class, () -> oldWriter.checkpoint(2, meta(2)));
        KeyedValueState<String> state = current.backend().valueState("agg", "names", StringSerializer.INSTANCE);
        assertEquals("old-1", state.get(b("k"), NS));
        state.put(b("k"), NS, "new");
        state.put(b("other"), NS, "x");
        CommitRecord c = writer.checkpoint(1, meta(1));
        assertEquals(0, c.checkpointsSinceBase(), "written again as a full snapshot");

        RestoredState after = restore(q);
        assertEquals(c, after.commit());
        KeyedValueState<String> restored = after.backend().valueState("agg", "names", StringSerializer.INSTANCE);
        assertEquals("new", restored.get(b("k"), NS));
        assertEquals("x", restored.get(b("other"), NS));
    }

    private void awaitOutcome(MessageQueue q, long incarnation, long checkpoint, CheckpointOutcome expected) {
        Await.until(() -> "checkpoint " + checkpoint + " of " + incarnation + " " + expected, Duration.ofSeconds(10),
                () -> {
                    try {
                        return restorer.checkpointOutcome(q, incarnation, checkpoint) == expected;
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
    }

    @Test
    void checkpointOutcomesFollowCommitRecordsClaimsAndHistory() throws Exception {
        MessageQueue q = newQueue();
        RestoredState first = restore(q);
        StateChangelogWriter w1 = writer(first, ChangelogSettings.defaults());
        w1.checkpoint(1, meta(1));
        w1.checkpoint(2, meta(2));
        long a = first.incarnation();
        // the broker makes a message readable shortly after storing it: until then the outcome is still OPEN
        awaitOutcome(q, a, 2, CheckpointOutcome.COMMITTED);
        assertEquals(CheckpointOutcome.OPEN, restorer.checkpointOutcome(q, a, 3), "a may still write it");

        RestoredState second = restore(q);
        long b = second.incarnation();
        assertEquals(CheckpointOutcome.ABANDONED, restorer.checkpointOutcome(q, a, 3), "claimed over by b");
        assertEquals(CheckpointOutcome.OPEN, restorer.checkpointOutcome(q, b, 1));
        writer(second, ChangelogSettings.defaults()).checkpoint(1, meta(1));
        awaitOutcome(q, b, 1, CheckpointOutcome.COMMITTED);
        assertEquals(CheckpointOutcome.COMMITTED, restorer.checkpointOutcome(q, a, 1), "from b's history");
        assertEquals(CheckpointOutcome.ABANDONED, restorer.checkpointOutcome(q, a, 3), "from b's history");
    }

    static void send(MessageQueue q, String tag, byte[] body) throws Exception {
        producer.send(new Message(q.getTopic(), tag, body), q);
    }

    static byte[] batch(int sequence, String key) {
        ChangeBatch batch = new ChangeBatch(1024);
        batch.start(ChangeBatch.Kind.SNAPSHOT, 1, 1, sequence);
        batch.add(StateColumnFamily.VALUES, b(key), b("v"));
        return batch.body();
    }

    static byte[] commitAt(long offset) {
        return new CommitRecord(1, 1, offset, 0, 0, 0, 0, new byte[0], List.of()).toBytes();
    }

    @Test
    void aMessageStoredTwiceIsAppliedOnceAndAMissingOneFailsTheRestore() throws Exception {
        MessageQueue q = newQueue();
        send(q, ChangeBatch.TAG, batch(0, "a"));
        send(q, ChangeBatch.TAG, batch(0, "a"));
        send(q, ChangeBatch.TAG, batch(1, "b"));
        send(q, CommitRecord.TAG, commitAt(3));
        RestoredState restored = restore(q);
        assertEquals(2, restored.stats().entriesApplied());
        assertTrue(dump(restored.backend()).containsKey("VALUES/" + HEX.formatHex(b("b"))));

        MessageQueue gap = newQueue();
        send(gap, ChangeBatch.TAG, batch(0, "a"));
        send(gap, ChangeBatch.TAG, batch(2, "c"));
        send(gap, CommitRecord.TAG, commitAt(2));
        IOException e = assertThrows(IOException.class, () -> restore(gap));
        assertTrue(e.getMessage().contains("message #1 of checkpoint 1"), e.getMessage());
    }

    /** Bytes from the state queue are checked as strictly as state files: crafted ones fail the restore clearly. */
    @Test
    void craftedStateMessagesFailTheRestoreWithAStateException() throws Exception {
        byte[] header = java.util.Arrays.copyOf(batch(0, "a"), 22); // format, kind, incarnation, checkpoint, sequence
        byte[] unknownFamily = concat(header, new byte[] {9, 1, 'k', 2, 'v'});
        byte[] hugeKey = concat(header, new byte[] {1, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x07});
        byte[] hugeValue = concat(header, new byte[] {1, 1, 'k', (byte) 0xfe, (byte) 0xff, (byte) 0xff, 0x7f});
        byte[] otherFormat = batch(0, "a");
        otherFormat[0] = 7;
        for (byte[] body : List.of(unknownFamily, hugeKey, hugeValue, otherFormat)) {
            MessageQueue q = newQueue();
            send(q, ChangeBatch.TAG, body);
            send(q, CommitRecord.TAG, commitAt(1));
            StateException e = assertThrows(StateException.class, () -> restore(q));
            assertTrue(e.getMessage().contains("malformed state message at offset 0"), e.getMessage());
        }
        MessageQueue badCommit = newQueue();
        byte[] commit = commitAt(0);
        commit[commit.length - 1 - Long.BYTES] = (byte) 0x80; // a history of -128 incarnations (before the stage offset)
        send(badCommit, CommitRecord.TAG, commit);
        StateException e = assertThrows(StateException.class, () -> restore(badCommit));
        assertTrue(e.getMessage().contains("malformed commit message at offset 0"), e.getMessage());
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** Prints restore and checkpoint costs of a task with 100,000 keys and 100,000 timers; asserts only equality. */
    @Test
    void measureRestoreOf100kKeysAndCheckpointOf1kChanges() throws Exception {
        MessageQueue q = newQueue();
        RestoredState empty = restore(q);
        StateChangelogWriter w = writer(empty, ChangelogSettings.defaults());
        KeyedValueState<String> s = empty.backend().valueState("agg", "names", StringSerializer.INSTANCE);
        TimerService timers = empty.backend().timerService("agg");
        int keys = 100_000;
        Random random = new Random(11);
        for (int i = 0; i < keys; i++) {
            byte[] key = b("user-" + i);
            s.put(key, NS, "value-" + random.nextLong() + "-" + random.nextLong());
            timers.registerEventTimeTimer(1_000_000L + random.nextInt(1_000_000), key, NS);
        }
        long t0 = System.nanoTime();
        CommitRecord snapshot = w.checkpoint(1, meta(1));
        long snapshotMillis = (System.nanoTime() - t0) / 1_000_000;

        for (int i = 0; i < 1000; i++) {
            s.put(b("user-" + i * 100), NS, "changed-" + random.nextLong());
        }
        t0 = System.nanoTime();
        CommitRecord changes = w.checkpoint(2, meta(2));
        long changesMillis = (System.nanoTime() - t0) / 1_000_000;

        RestoredState restored = restore(q);
        RestoreStats stats = restored.stats();
        System.out.printf("[state-changelog] full snapshot of %d keys + %d timers: %d bytes in %d ms; checkpoint of"
                        + " 1,000 changed keys: %d bytes in %d ms; restore: %d ms, %d bytes read in %d messages,"
                        + " %d entries applied%n", keys, keys, snapshot.baseBytes(), snapshotMillis,
                changes.bytesSinceBase(), changesMillis, stats.millis(), stats.bytesRead(), stats.messagesRead(),
                stats.entriesApplied());
        assertEquals(digest(empty.backend()), digest(restored.backend()));
    }
}
