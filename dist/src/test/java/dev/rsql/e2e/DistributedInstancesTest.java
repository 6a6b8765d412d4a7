package dev.rsql.e2e;

import dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport;
import dev.rsql.runtime.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A distributed job run as 2 and as 3 processes ({@code rsql run --instance id}, each its own JVM): RocketMQ's
 * rebalancing spreads the 8 source queues and the shuffle queues over them (every instance's status shows tasks of
 * both kinds, no queue twice), and the keyed counts they produce together are exact: every window once with its
 * count, every key's running count 1..n with no value missing or doubled ({@link KeyedCountJob}). The instances stop
 * gracefully at the end, which must not write anything again.
 */
@ExtendWith(RocketMqTestSupport.class)
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class DistributedInstancesTest {

    static final int EVENTS = 40_000;
    static final int KEYS = 24;
    static final long STEP_MS = 5;
    static final int SHUFFLE_QUEUES = 8;

    @TempDir
    Path dir;

    /** The settings every instance of the tests' jobs gets (distributed, short checkpoints, no idleness). */
    static Map<String, String> instanceSettings(String namesrv, int shuffleQueues) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("rocketmq.namesrv", namesrv);
        s.put("execution.mode", "distributed");
        s.put("checkpoint.interval", "300ms");
        s.put("worker.threads", "2");
        s.put("shuffle.queues", Integer.toString(shuffleQueues));
        s.put("source.idle-timeout", "0");
        return s;
    }

    static Path logDir(String test) {
        return Path.of("target", "e2e-logs", test + "-" + System.currentTimeMillis()).toAbsolutePath();
    }

    @Test
    void twoInstancesShareTheQueuesAndCountExactlyOnce() throws Exception {
        run(List.of("a", "b"));
    }

    @Test
    void threeInstancesShareTheQueuesAndCountExactlyOnce() throws Exception {
        run(List.of("a", "b", "c"));
    }

    private void run(List<String> ids) throws Exception {
        long started = System.nanoTime();
        String name = "instances" + ids.size();
        KeyedCountJob job = new KeyedCountJob(TestBroker.of(RocketMqTestSupport.broker()), dir, name, 7 + ids.size(), EVENTS, KEYS,
                STEP_MS);
        JobInstances instances = new JobInstances(dir, logDir(name), job.script,
                instanceSettings(RocketMqTestSupport.namesrv(), SHUFFLE_QUEUES));
        try {
            job.produceNext(EVENTS / 2);
            for (String id : ids) {
                instances.start(id);
            }
            job.startReaders();
            Map<String, Set<String>> sources = new LinkedHashMap<>();
            Map<String, Set<String>> shuffles = new LinkedHashMap<>();
            Await.until(() -> "the queues spread over " + ids + ": source tasks " + sources + ", shuffle tasks "
                    + shuffles, Duration.ofSeconds(120), () -> {
                instances.checkAlive();
                job.drain();
                for (String id : ids) {
                    sources.put(id, instances.runningTasks(id, "ev#"));
                    shuffles.put(id, instances.runningTasks(id, "exchange"));
                }
                return spread(sources, KeyedCountJob.QUEUES) && spread(shuffles, 2 * SHUFFLE_QUEUES);
            });
            System.out.println(name + ": source tasks " + sources + "; shuffle tasks " + shuffles);

            job.produceNext(EVENTS);
            job.produceSentinels();
            job.await(instances, SHUFFLE_QUEUES, "every window and count", Duration.ofSeconds(180), job::complete);
            job.settle(instances);
            job.assertExactlyOnce(instances, "with " + ids.size() + " instances");

            // A graceful stop checkpoints and commits what is open, and must not write anything again.
            for (String id : ids) {
                instances.stop(id, 90);
            }
            job.drain();
            job.assertExactlyOnce(instances, "after the graceful stop");
            System.out.printf("%s: %d events, %d windows and %d counts exact over %d instances in %d s (%d error"
                            + " lines in their logs, %s)%n", name, EVENTS, job.expectedWindows.size(), job.totalRows(),
                    ids.size(), TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started),
                    instances.countLogLines(" ERROR "), instances.logDir());
        } catch (Throwable t) {
            instances.printLogs(60);
            throw t;
        } finally {
            instances.close();
            job.close();
        }
    }

    /** Every instance runs some of the tasks, none runs a task another runs, and together they run all. */
    static boolean spread(Map<String, Set<String>> tasksByInstance, int total) {
        Set<String> all = new HashSet<>();
        int sum = 0;
        for (Set<String> tasks : tasksByInstance.values()) {
            if (tasks.isEmpty()) {
                return false;
            }
            all.addAll(tasks);
            sum += tasks.size();
        }
        return sum == total && all.size() == total;
    }
}
