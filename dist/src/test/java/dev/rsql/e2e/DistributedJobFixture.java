package dev.rsql.e2e;

import dev.rsql.broker.LocalRocketMq;
import dev.rsql.planner.PlannerContext;
import dev.rsql.planner.ScriptPlanner;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.exec.EngineContext;
import dev.rsql.runtime.exec.Job;
import dev.rsql.runtime.exec.TaskStatus;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * What the in-process distributed tests share: one broker and producer per test class, and job instances of one
 * script started in this JVM against it, each with its own instance id and a shared state directory.
 */
abstract class DistributedJobFixture {

    static LocalRocketMq broker;
    static DefaultMQProducer producer;
    static Path stateDir;

    @BeforeAll
    static void startBroker(@TempDir Path dir) throws Exception {
        broker = LocalRocketMq.start(dir.resolve("broker"));
        stateDir = dir.resolve("state");
        producer = new DefaultMQProducer("rsql_dist_test_producer");
        producer.setNamesrvAddr(broker.nameServerAddress());
        producer.setInstanceName("rsql-dist-test-" + UUID.randomUUID());
        producer.start();
    }

    @AfterAll
    static void stopBroker() {
        if (producer != null) {
            producer.shutdown();
        }
        if (broker != null) {
            broker.close();
        }
    }

    /** An instance of the distributed job: checkpoints every 300 ms, 2 workers, 4 shuffle queues. */
    static Job start(String name, String script, String instance) throws Exception {
        Map<String, String> settings = new HashMap<>();
        settings.put("rocketmq.namesrv", broker.nameServerAddress());
        settings.put("checkpoint.interval", "300ms");
        settings.put("worker.threads", "2");
        settings.put("instance.id", instance);
        settings.put("state.dir", stateDir.toString());
        settings.put("execution.mode", "distributed");
        settings.put("shuffle.queues", "4");
        settings.put("source.idle-timeout", "0");
        Options config = new Options(settings);
        ClassLoader loader = DistributedJobFixture.class.getClassLoader();
        Job job = Job.create(new ScriptPlanner(new PlannerContext(config, loader, n -> null)).plan(name, script)
                .graph(), new EngineContext(config, loader));
        job.start();
        return job;
    }

    static List<MessageQueue> queues(String topic) throws Exception {
        return producer.fetchPublishMessageQueues(topic).stream()
                .sorted(Comparator.comparingInt(MessageQueue::getQueueId)).collect(Collectors.toList());
    }

    static long ownedTasks(Job job, String prefix) {
        return job.status().tasks.stream()
                .filter(t -> t.state == TaskStatus.State.RUNNING && t.id.startsWith(prefix)).count();
    }
}
