package dev.rsql.runtime.exec.shuffle;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.rocketmq.RocketMqRetry;
import org.apache.rocketmq.client.common.ClientErrorCode;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.constant.PermName;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.body.ClusterInfo;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.remoting.protocol.route.QueueData;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Creates the shuffle topics of a job with their declared queue counts, through the name server's admin API (no topic
 * is ever created implicitly on the hot path). Idempotent: a topic that exists with the declared count is used as it
 * is, one with another count is an error — its queues hold keys by the old count. A new topic goes to one master
 * broker, chosen by the topic name so that processes provisioning at the same time choose the same.
 */
public final class TopicProvisioner implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TopicProvisioner.class);
    private static final AtomicInteger INSTANCES = new AtomicInteger();
    private static final Duration ROUTE_TIMEOUT = Duration.ofSeconds(30);
    /** How long a request to the name server or broker is repeated through timeouts and lost connections. */
    private static final Duration RETRY_TIMEOUT = Duration.ofSeconds(30);

    private final String namesrv;
    private final DefaultMQAdminExt admin;

    public TopicProvisioner(String namesrv) throws MQClientException {
        this.namesrv = namesrv;
        this.admin = new DefaultMQAdminExt();
        admin.setNamesrvAddr(namesrv);
        // Admin clients of one JVM with the same instance name share a client, which takes the admin group once.
        admin.setInstanceName("rsql_provisioner_" + ProcessHandle.current().pid() + "_" + INSTANCES.incrementAndGet());
        admin.start();
    }

    /**
     * The topic with {@code queues} queues, created if it does not exist. Requests that time out are repeated (all are
     * idempotent): a name server slow to answer while instances start must not stop one.
     */
    public ShuffleTopic provision(String topic, int queues) throws Exception {
        TopicRouteData route = route(topic);
        if (route == null) {
            String broker = RocketMqRetry.call(() -> create(topic, queues), RETRY_TIMEOUT);
            route = awaitRoute(topic, queues);
            LOG.info("shuffle topic {} created with {} queues on broker {}", topic, queues, broker);
        }
        int read = 0;
        int write = 0;
        for (QueueData q : route.getQueueDatas()) {
            read += q.getReadQueueNums();
            write += q.getWriteQueueNums();
        }
        if (read != queues || write != queues) {
            throw new ConfigException("shuffle topic " + topic + " exists with " + write + " write and " + read
                    + " read queues, but " + queues + " are declared (shuffle.queues): delete the topic (its queues"
                    + " hold rows keyed for the old count) or declare " + write);
        }
        return ShuffleTopic.fromRoute(topic, route);
    }

    /** Creates the topic on the master chosen for it; returns the broker's name. */
    private String create(String topic, int queues) throws Exception {
        ClusterInfo cluster = admin.examineBrokerClusterInfo();
        List<BrokerData> brokers = new ArrayList<>();
        for (Map.Entry<String, BrokerData> e : new TreeMap<>(cluster.getBrokerAddrTable()).entrySet()) {
            if (e.getValue().getBrokerAddrs().get(MixAll.MASTER_ID) != null) {
                brokers.add(e.getValue());
            }
        }
        if (brokers.isEmpty()) {
            // A broker restarting has unregistered: a restart of the job later finds it again.
            throw new MQClientException(ClientErrorCode.BROKER_NOT_EXIST_EXCEPTION, "no master broker is registered"
                    + " with name server " + namesrv + " to create shuffle topic " + topic + " on");
        }
        BrokerData broker = brokers.get(Math.floorMod(topic.hashCode(), brokers.size()));
        TopicConfig config = new TopicConfig(topic, queues, queues, PermName.PERM_READ | PermName.PERM_WRITE);
        admin.createAndUpdateTopicConfig(broker.getBrokerAddrs().get(MixAll.MASTER_ID), config);
        return broker.getBrokerName();
    }

    /** Waits until the name server routes the new topic to all its queues (the broker registers it on its own). */
    private TopicRouteData awaitRoute(String topic, int queues) throws Exception {
        long deadline = System.nanoTime() + ROUTE_TIMEOUT.toNanos();
        while (true) {
            TopicRouteData route = route(topic);
            if (route != null && route.getQueueDatas().stream().mapToInt(QueueData::getWriteQueueNums).sum() == queues) {
                return route;
            }
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("shuffle topic " + topic + " with " + queues
                        + " queues did not appear on name server " + namesrv + " within " + ROUTE_TIMEOUT.toSeconds()
                        + " s");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }

    /** The topic's route, or null when the name server does not know it. */
    private TopicRouteData route(String topic) throws Exception {
        return RocketMqRetry.call(() -> {
            try {
                return admin.examineTopicRouteInfo(topic);
            } catch (MQClientException e) {
                if (e.getResponseCode() == ResponseCode.TOPIC_NOT_EXIST) {
                    return null;
                }
                throw e;
            }
        }, RETRY_TIMEOUT);
    }

    @Override
    public void close() {
        admin.shutdown();
    }
}
