package dev.rsql.e2e;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import dev.rsql.runtime.testing.Await;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.common.message.MessageExt;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Two more statements for the job of a {@link KeyedCountJob}, run through the same chaos: a regular join of two
 * keyed streams (the events of four keys joined with those events on key and time, then counted per key: every key's
 * running count must go through exactly 1..n, n = the number of joined pairs), and a TopN over an updating input (the
 * three keys with the most events, by ROW_NUMBER over the running counts, into a sink keyed by the rank: its final
 * table must be the top three of the final counts). Both sinks are RocketMQ topics after a shuffle, so exactly-once.
 */
final class RelationalChaosJobs implements AutoCloseable {

    static final List<String> JOINED_KEYS = List.of("k0", "k1", "k2", "k3");

    final String joinTopic;
    final String topTopic;
    final Map<String, Long> expectedJoined = new TreeMap<>();
    final Map<Long, String> expectedTop = new TreeMap<>();
    final Map<String, List<Long>> joined = new TreeMap<>();
    final Map<Long, String> top = new TreeMap<>();
    /** Per rank, the (born time, offset) of the row in {@link #top}. */
    private final Map<Long, long[]> topAt = new TreeMap<>();
    private final TestBroker broker;
    private DefaultLitePullConsumer joinReader;
    private DefaultLitePullConsumer topReader;

    /** Creates the sink topics and appends the statements to the job's script; computes what they must produce. */
    RelationalChaosJobs(TestBroker broker, KeyedCountJob job) throws Exception {
        this.broker = broker;
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        joinTopic = job.jobName() + "_joined_" + suffix;
        topTopic = job.jobName() + "_top_" + suffix;
        broker.createTopic(joinTopic, 4);
        broker.createTopic(topTopic, 4);
        String keys = JOINED_KEYS.stream().map(k -> "'" + k + "'").collect(Collectors.joining(", "));
        Files.writeString(job.script, "CREATE TABLE joined_counts (k VARCHAR, c BIGINT, PRIMARY KEY (k) NOT ENFORCED)\n"
                + " WITH (type = 'rocketmq', topic = '" + joinTopic + "', keyColumns = 'k');\n"
                + "CREATE TABLE top_keys (rn BIGINT, k VARCHAR, c BIGINT, PRIMARY KEY (rn) NOT ENFORCED)\n"
                + " WITH (type = 'rocketmq', topic = '" + topTopic + "', keyColumns = 'rn');\n"
                + "INSERT INTO joined_counts SELECT a.k, COUNT(*)\n"
                + " FROM (SELECT k, ts FROM ev WHERE k IN (" + keys + ")) a\n"
                + " JOIN (SELECT k, ts FROM ev WHERE k IN (" + keys + ")) b ON a.k = b.k AND a.ts = b.ts\n"
                + " GROUP BY a.k;\n"
                + "INSERT INTO top_keys SELECT rn, k, c FROM (\n"
                + " SELECT k, c, ROW_NUMBER() OVER (ORDER BY c DESC, k) AS rn\n"
                + " FROM (SELECT k, COUNT(*) AS c FROM ev GROUP BY k) t) r\n"
                + " WHERE rn <= 3;\n", StandardOpenOption.APPEND);
        Map<String, Long> sameTime = new TreeMap<>();
        job.events.stream().filter(e -> JOINED_KEYS.contains(e.key()))
                .forEach(e -> sameTime.merge(e.key() + "@" + e.ts(), 1L, Long::sum));
        sameTime.forEach((kt, m) -> expectedJoined.merge(kt.substring(0, kt.indexOf('@')), m * m, Long::sum));
        List<Map.Entry<String, Long>> byCount = new ArrayList<>(job.expectedTotals.entrySet());
        byCount.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        for (int i = 0; i < 3; i++) {
            expectedTop.put(i + 1L, byCount.get(i).getKey() + "=" + byCount.get(i).getValue());
        }
    }

    void startReaders() throws Exception {
        joinReader = TopicReaders.fromStart(broker.nameServerAddress(), joinTopic);
        topReader = TopicReaders.fromStart(broker.nameServerAddress(), topTopic);
    }

    /**
     * Reads what the sink topics have now. The top table keeps per rank the row sent last (its half's born time, all
     * instances run on this machine; then the latest in its queue), not the last stored: the halves of a revoked
     * task's last transaction, committed by the broker's check, are stored after the rows its successor wrote since.
     */
    void drain() {
        for (List<MessageExt> batch = joinReader.poll(20); !batch.isEmpty(); batch = joinReader.poll(20)) {
            for (MessageExt m : batch) {
                JSONObject row = JSON.parseObject(new String(m.getBody(), StandardCharsets.UTF_8));
                joined.computeIfAbsent(row.getString("k"), x -> new ArrayList<>()).add(row.getLongValue("c"));
            }
        }
        for (List<MessageExt> batch = topReader.poll(20); !batch.isEmpty(); batch = topReader.poll(20)) {
            for (MessageExt m : batch) {
                JSONObject row = JSON.parseObject(new String(m.getBody(), StandardCharsets.UTF_8));
                long born = m.getBornTimestamp();
                long rn = row.getLongValue("rn");
                long[] at = topAt.get(rn);
                if (at == null || born > at[0] || born == at[0] && m.getQueueOffset() > at[1]) {
                    topAt.put(rn, new long[] {born, m.getQueueOffset()});
                    top.put(rn, row.getString("k") + "=" + row.getLongValue("c"));
                }
            }
        }
    }

    /** Every key's joined count has reached its total and the top table is the expected one. */
    boolean complete() {
        return expectedJoined.entrySet().stream().allMatch(e -> joined.getOrDefault(e.getKey(), List.of())
                .contains(e.getValue())) && top.equals(expectedTop);
    }

    /** Waits until the results are complete and no half message of the sink topics is open, reading meanwhile. */
    void awaitSettled(JobInstances instances, Duration timeout) {
        Await.until(() -> "the join and TopN results: joined " + lastCounts() + " of " + expectedJoined + ", top "
                + top + " of " + expectedTop + ", open transactions " + broker.openTransactions(joinTopic, topTopic),
                timeout, () -> {
                    instances.checkAlive();
                    drain();
                    return complete() && broker.openTransactions(joinTopic, topTopic) <= 0;
                });
        drain();
    }

    private Map<String, Long> lastCounts() {
        Map<String, Long> last = new TreeMap<>();
        joined.forEach((k, l) -> last.put(k, l.stream().mapToLong(Long::longValue).max().orElse(0)));
        return last;
    }

    /** Fails unless every key's joined count went through 1..n once each and the top table is exact. */
    void assertExactlyOnce(String when) {
        List<String> problems = new ArrayList<>();
        expectedJoined.forEach((k, n) -> {
            List<Long> got = joined.getOrDefault(k, List.of()).stream().sorted(Comparator.naturalOrder()).toList();
            List<Long> want = new ArrayList<>();
            for (long c = 1; c <= n; c++) {
                want.add(c);
            }
            if (!got.equals(want)) {
                List<Long> missing = want.stream().filter(c -> !got.contains(c)).toList();
                problems.add("joined count of " + k + " (n=" + n + "): " + got.size() + " rows, missing "
                        + KeyedCountJob.ranges(missing) + ", doubled " + (got.size() - (n - missing.size())));
            }
        });
        joined.keySet().stream().filter(k -> !expectedJoined.containsKey(k))
                .forEach(k -> problems.add("joined count of " + k + ": not expected"));
        if (!top.equals(expectedTop)) {
            problems.add("top keys " + top + ", expected " + expectedTop);
        }
        if (!problems.isEmpty()) {
            throw new AssertionError(when + ": " + problems);
        }
    }

    @Override
    public void close() {
        for (DefaultLitePullConsumer c : new DefaultLitePullConsumer[] {joinReader, topReader}) {
            if (c != null) {
                c.shutdown();
            }
        }
    }
}
