package dev.rsql.e2e;

import dev.rsql.planner.PlannerContext;
import dev.rsql.planner.ScriptPlanner;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.exec.EngineContext;
import dev.rsql.runtime.exec.Job;
import dev.rsql.runtime.exec.TaskStatus;
import dev.rsql.runtime.testing.Await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * What the in-process distributed tests share: the broker of {@link BrokerFixture}, and job instances of one script
 * started in this JVM against it, each with its own instance id and a shared state directory.
 */
abstract class DistributedJobFixture extends BrokerFixture {

    /** An instance of the distributed job: checkpoints every 300 ms, 2 workers, 4 shuffle queues. */
    static Job start(String name, String script, String instance) throws Exception {
        return start(broker.nameServerAddress(), stateDir, name, script, instance);
    }

    /** As {@link #start(String, String, String)}, against the name server and state directory given. */
    static Job start(String nameServer, Path stateDir, String name, String script, String instance) throws Exception {
        Map<String, String> settings = new HashMap<>();
        settings.put("rocketmq.namesrv", nameServer);
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

    /** Creates a topic named {@code name} and a random suffix; returns its name. */
    static String topic(String name, int queues) {
        String topic = name + "_" + UUID.randomUUID().toString().substring(0, 8);
        broker.createTopic(topic, queues);
        return topic;
    }

    /** The job's running tasks whose id starts with {@code prefix}. */
    static long ownedTasks(Job job, String prefix) {
        return job.status().tasks.stream()
                .filter(t -> t.state == TaskStatus.State.RUNNING && t.id.startsWith(prefix)).count();
    }

    /** Rows sent to the job's source topics. */
    @FunctionalInterface
    interface Production {
        void produce() throws Exception;
    }

    /**
     * Runs the job on instances a and b; once {@code firstOut} holds and b owns some of {@code movedTask}'s tasks, b
     * leaves and {@code rest} is produced; returns once {@code allOut} holds ({@code progress} tells how far it got
     * when it does not in time). Both instances are stopped on the way out.
     */
    static void runWithOneInstanceLeaving(String jobName, String script, String movedTask, BooleanSupplier firstOut,
                                          Production rest, Supplier<String> progress, BooleanSupplier allOut)
            throws Exception {
        Job a = start(jobName, script, "a");
        Job b = start(jobName, script, "b");
        try {
            Await.until("the first rows out, and b running " + movedTask + " tasks", Duration.ofSeconds(60),
                    () -> firstOut.getAsBoolean() && ownedTasks(b, movedTask) > 0);
            b.stop();
            rest.produce();
            Await.until(progress, Duration.ofSeconds(90), allOut);
        } finally {
            a.stop();
            b.stop();
        }
    }
}
