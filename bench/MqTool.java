import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.constant.PermName;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.admin.TopicOffset;
import org.apache.rocketmq.remoting.protocol.body.ClusterInfo;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.remoting.protocol.route.QueueData;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

/**
 * RocketMQ chores of bench/distributed_bench.py, and its baseline: a plain consumer + producer copying a topic.
 * A single-file program: {@code java -cp 'lib/*' bench/MqTool.java <command> <namesrv> ...}
 *
 * <pre>
 * create NAMESRV QUEUES TOPIC...         create topics with QUEUES read/write queues (waits for their routes)
 * fill   NAMESRV TOPIC FILE              send line i of FILE to queue i mod queues (one batch in flight per queue,
 *                                        so every queue keeps the file's order); prints "filled N msgs in S s"
 * copy   NAMESRV FROM TO N               read FROM from its first offsets with a DefaultLitePullConsumer and send each
 *                                        message to the same queue of TO in batches (DefaultMQProducer, one batch in
 *                                        flight per queue); stops after N; prints "copied N msgs in S s = R msgs/s"
 * await  NAMESRV TOPIC N TIMEOUT_S [F [DUMP]]
 *                                        polls the topic's message count (sum over queues of max - min offset)
 *                                        every 50 ms, printing "ready", "progress MILLIS COUNT" on changes and
 *                                        "done MILLIS COUNT" once it holds N (or "timeout MILLIS COUNT"); then, if
 *                                        F is given, reads the topic and prints "verify messages=M distinct=D
 *                                        sum=S": D rows distinct in everything but field F, S the sum of F; each
 *                                        message body goes to a line of file DUMP if given
 * </pre>
 * Times are epoch milliseconds of this machine's clock.
 */
public class MqTool {

    static final int BATCH_MESSAGES = 256;
    static final int BATCH_BYTES = 1 << 20;

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: MqTool create|fill|copy|await NAMESRV ...  (see the class comment)");
            System.exit(2);
        }
        String namesrv = args[1];
        try {
            run(args, namesrv);
        } catch (Throwable e) {
            e.printStackTrace();
            System.exit(1);
        }
        System.exit(0);     // RocketMQ client threads are not all daemons
    }

    static void run(String[] args, String namesrv) throws Exception {
        switch (args[0]) {
            case "create" -> create(namesrv, Integer.parseInt(args[2]), List.of(args).subList(3, args.length));
            case "fill" -> fill(namesrv, args[2], Path.of(args[3]));
            case "copy" -> copy(namesrv, args[2], args[3], Long.parseLong(args[4]));
            case "await" -> await(namesrv, args[2], Long.parseLong(args[3]), Long.parseLong(args[4]),
                    args.length > 5 ? args[5] : null, args.length > 6 ? Path.of(args[6]) : null);
            default -> {
                System.err.println("unknown command " + args[0]);
                System.exit(2);
            }
        }
    }

    static DefaultMQAdminExt admin(String namesrv) throws MQClientException {
        DefaultMQAdminExt admin = new DefaultMQAdminExt();
        admin.setNamesrvAddr(namesrv);
        admin.setInstanceName("mqtool-admin-" + ProcessHandle.current().pid());
        admin.start();
        return admin;
    }

    static DefaultMQProducer producer(String namesrv, String group) throws MQClientException {
        DefaultMQProducer p = new DefaultMQProducer(group);
        p.setNamesrvAddr(namesrv);
        p.setInstanceName(group + "-" + ProcessHandle.current().pid());
        p.setSendMsgTimeout(10_000);
        p.setCompressMsgBodyOverHowmuch(Integer.MAX_VALUE);
        p.start();
        return p;
    }

    static List<MessageQueue> queues(DefaultMQProducer p, String topic) throws MQClientException {
        return p.fetchPublishMessageQueues(topic).stream().sorted(Comparator.comparingInt(MessageQueue::getQueueId))
                .collect(Collectors.toList());
    }

    // ---- create ----

    static void create(String namesrv, int queues, List<String> topics) throws Exception {
        DefaultMQAdminExt admin = admin(namesrv);
        try {
            String master = null;
            long deadline = System.currentTimeMillis() + 120_000;
            while (master == null) {     // the broker may not have registered yet
                try {
                    ClusterInfo cluster = admin.examineBrokerClusterInfo();
                    for (BrokerData b : cluster.getBrokerAddrTable().values()) {
                        if (b.getBrokerAddrs().get(MixAll.MASTER_ID) != null) {
                            master = b.getBrokerAddrs().get(MixAll.MASTER_ID);
                        }
                    }
                } catch (Exception e) {
                    if (System.currentTimeMillis() > deadline) {
                        throw e;
                    }
                }
                if (master == null) {
                    if (System.currentTimeMillis() > deadline) {
                        throw new IllegalStateException("no master broker registered with " + namesrv);
                    }
                    Thread.sleep(200);
                }
            }
            for (String topic : topics) {
                while (true) {      // a broker that has just started may time out
                    try {
                        admin.createAndUpdateTopicConfig(master, new TopicConfig(topic, queues, queues,
                                PermName.PERM_READ | PermName.PERM_WRITE));
                        break;
                    } catch (Exception e) {
                        if (System.currentTimeMillis() > deadline) {
                            throw e;
                        }
                        System.err.println("retrying to create " + topic + ": " + e);
                        Thread.sleep(500);
                    }
                }
            }
            for (String topic : topics) {
                while (true) {
                    try {
                        TopicRouteData route = admin.examineTopicRouteInfo(topic);
                        if (route.getQueueDatas().stream().mapToInt(QueueData::getWriteQueueNums).sum() == queues) {
                            break;
                        }
                    } catch (MQClientException e) {
                        // not routed yet
                    }
                    if (System.currentTimeMillis() > deadline) {
                        throw new IllegalStateException("topic " + topic + " not routed within 120 s");
                    }
                    Thread.sleep(50);
                }
                System.out.println("created " + topic + " with " + queues + " queues");
            }
        } finally {
            admin.shutdown();
        }
    }

    // ---- fill ----

    static void fill(String namesrv, String topic, Path file) throws Exception {
        List<byte[]> lines = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (!line.isEmpty()) {
                lines.add(line.getBytes(StandardCharsets.UTF_8));
            }
        }
        DefaultMQProducer p = producer(namesrv, "mqtool_fill");
        List<MessageQueue> qs = queues(p, topic);
        int n = qs.size();
        long start = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(n);
        List<Future<?>> done = new ArrayList<>();
        for (int q = 0; q < n; q++) {
            int queue = q;
            done.add(pool.submit(() -> {
                List<Message> batch = new ArrayList<>();
                int bytes = 0;
                for (int i = queue; i < lines.size(); i += n) {
                    byte[] body = lines.get(i);
                    if (!batch.isEmpty() && (batch.size() >= BATCH_MESSAGES || bytes + body.length > BATCH_BYTES)) {
                        send(p, batch, qs.get(queue));
                        batch.clear();
                        bytes = 0;
                    }
                    batch.add(new Message(topic, body));
                    bytes += body.length + 64;
                }
                if (!batch.isEmpty()) {
                    send(p, batch, qs.get(queue));
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        double secs = (System.nanoTime() - start) / 1e9;
        pool.shutdown();
        p.shutdown();
        System.out.printf("filled %d msgs in %.2f s = %.0f msgs/s%n", lines.size(), secs, lines.size() / secs);
    }

    /** Sends a batch to one queue synchronously, retrying until it is stored. */
    static void send(DefaultMQProducer p, List<Message> batch, MessageQueue q) throws Exception {
        for (int attempt = 1; ; attempt++) {
            try {
                SendResult r = p.send(batch, q);
                if (r.getSendStatus() == SendStatus.SEND_OK) {
                    return;
                }
                throw new IllegalStateException("send status " + r.getSendStatus());
            } catch (Exception e) {
                if (attempt >= 20) {
                    throw e;
                }
                System.err.println("retrying a batch to queue " + q.getQueueId() + ": " + e);
                Thread.sleep(100L * attempt);
            }
        }
    }

    // ---- copy ----

    static void copy(String namesrv, String from, String to, long expected) throws Exception {
        DefaultMQProducer p = producer(namesrv, "mqtool_copy_producer");
        List<MessageQueue> targets = queues(p, to);
        DefaultLitePullConsumer c = reader(namesrv, "mqtool_copy_" + System.currentTimeMillis());
        List<MessageQueue> sources = new ArrayList<>(c.fetchMessageQueues(from));
        // One sender thread per target queue keeps each queue's order with one batch in flight per queue.
        List<ExecutorService> senders = new ArrayList<>();
        for (int i = 0; i < targets.size(); i++) {
            senders.add(Executors.newSingleThreadExecutor());
        }
        Semaphore inFlight = new Semaphore(4 * targets.size());
        AtomicLong copied = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long start = System.nanoTime();
        c.assign(sources);
        long polled = 0;
        while (polled < expected) {
            List<MessageExt> msgs = c.poll(100);
            if (failure.get() != null) {
                throw new IllegalStateException("send failed", failure.get());
            }
            if (msgs.isEmpty()) {
                if ((System.nanoTime() - start) / 1e9 > 600) {
                    throw new IllegalStateException("copied only " + polled + " of " + expected);
                }
                continue;
            }
            polled += msgs.size();
            // A poll returns one queue's messages; grouped anyway so that each keeps its queue.
            Map<Integer, List<List<Message>>> byQueue = new TreeMap<>();
            Map<Integer, Integer> bytesOf = new HashMap<>();
            for (MessageExt m : msgs) {
                int qid = m.getQueueId() % targets.size();
                List<List<Message>> batches = byQueue.computeIfAbsent(qid, k -> new ArrayList<>());
                int bytes = bytesOf.getOrDefault(qid, 0);
                if (batches.isEmpty() || batches.get(batches.size() - 1).size() >= BATCH_MESSAGES
                        || bytes + m.getBody().length > BATCH_BYTES) {
                    batches.add(new ArrayList<>());
                    bytes = 0;
                }
                batches.get(batches.size() - 1).add(new Message(to, m.getBody()));
                bytesOf.put(qid, bytes + m.getBody().length + 64);
            }
            for (Map.Entry<Integer, List<List<Message>>> e : byQueue.entrySet()) {
                MessageQueue target = targets.get(e.getKey());
                for (List<Message> b : e.getValue()) {
                    inFlight.acquire();
                    senders.get(e.getKey()).execute(() -> {
                        try {
                            send(p, b, target);
                            copied.addAndGet(b.size());
                        } catch (Throwable t) {
                            failure.compareAndSet(null, t);
                        } finally {
                            inFlight.release();
                        }
                    });
                }
            }
        }
        inFlight.acquire(4 * targets.size());
        if (failure.get() != null) {
            throw new IllegalStateException("send failed", failure.get());
        }
        double secs = (System.nanoTime() - start) / 1e9;
        senders.forEach(ExecutorService::shutdown);
        c.shutdown();
        p.shutdown();
        System.out.printf("copied %d msgs in %.2f s = %.0f msgs/s%n", copied.get(), secs, copied.get() / secs);
    }

    static DefaultLitePullConsumer reader(String namesrv, String group) throws MQClientException {
        DefaultLitePullConsumer c = new DefaultLitePullConsumer(group);
        c.setNamesrvAddr(namesrv);
        c.setInstanceName(group + "-" + ProcessHandle.current().pid());
        c.setAutoCommit(false);
        c.setPullBatchSize(256);
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.start();
        return c;
    }

    // ---- await ----

    static void await(String namesrv, String topic, long expected, long timeoutSeconds, String sumField, Path dump)
            throws Exception {
        DefaultMQAdminExt admin = admin(namesrv);
        long deadline = System.currentTimeMillis() + timeoutSeconds * 1000;
        long count = count(admin, topic);
        while (count < 0 && System.currentTimeMillis() < deadline) {
            Thread.sleep(500);
            count = count(admin, topic);
        }
        System.out.println("ready " + count);
        System.out.flush();
        long last = -1;
        while (count < expected) {
            if (count != last) {
                System.out.println("progress " + System.currentTimeMillis() + " " + count);
                System.out.flush();
                last = count;
            }
            if (System.currentTimeMillis() > deadline) {
                System.out.println("timeout " + System.currentTimeMillis() + " " + count);
                break;
            }
            Thread.sleep(50);
            count = Math.max(count, count(admin, topic));
        }
        if (count >= expected) {
            System.out.println("done " + System.currentTimeMillis() + " " + count);
        }
        System.out.flush();
        admin.shutdown();
        if (sumField != null) {
            verify(namesrv, topic, count, sumField, dump);
        }
    }

    /** The messages in the topic; -1 when the broker did not answer (a busy machine): the caller asks again. */
    static long count(DefaultMQAdminExt admin, String topic) {
        try {
            long n = 0;
            for (TopicOffset o : admin.examineTopicStats(topic).getOffsetTable().values()) {
                n += o.getMaxOffset() - o.getMinOffset();
            }
            return n;
        } catch (Exception e) {
            System.err.println("counting " + topic + " failed: " + e);
            return -1;
        }
    }

    /** Reads the topic's {@code count} messages: how many rows, how many distinct without {@code field}, its sum. */
    static void verify(String namesrv, String topic, long count, String field, Path dump) throws Exception {
        DefaultLitePullConsumer c = reader(namesrv, "mqtool_verify_" + System.currentTimeMillis());
        c.assign(new ArrayList<>(c.fetchMessageQueues(topic)));
        Set<String> distinct = new HashSet<>();
        List<String> bodies = new ArrayList<>();
        long messages = 0;
        long sum = 0;
        long deadline = System.currentTimeMillis() + 120_000;
        while (messages < count && System.currentTimeMillis() < deadline) {
            for (MessageExt m : c.poll(200)) {
                String body = new String(m.getBody(), StandardCharsets.UTF_8);
                if (dump != null) {
                    bodies.add(body);
                }
                JSONObject row = JSON.parseObject(body);
                Object v = row.remove(field);
                sum += v == null ? 0 : ((Number) v).longValue();
                distinct.add(row.toJSONString());
                messages++;
            }
        }
        c.shutdown();
        if (dump != null) {
            Files.write(dump, bodies, StandardCharsets.UTF_8);
        }
        System.out.println("verify messages=" + messages + " distinct=" + distinct.size() + " sum=" + sum);
    }
}
