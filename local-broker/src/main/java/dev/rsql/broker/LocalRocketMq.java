package dev.rsql.broker;

import org.apache.rocketmq.broker.BrokerController;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.MQVersion;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.constant.PermName;
import org.apache.rocketmq.common.namesrv.NamesrvConfig;
import org.apache.rocketmq.namesrv.NamesrvController;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyServerConfig;
import org.apache.rocketmq.remoting.netty.TlsSystemConfig;
import org.apache.rocketmq.remoting.common.TlsMode;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.body.ClusterInfo;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.remoting.protocol.route.QueueData;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.apache.rocketmq.store.config.FlushDiskType;
import org.apache.rocketmq.store.config.MessageStoreConfig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;

/**
 * A single-node RocketMQ 5 (one name server and one master broker) running inside this JVM, with the default
 * file-based store under a data directory. For tests and for {@code bin/broker.sh} (see {@link LocalBrokerMain}).
 *
 * <p>Layout of the data directory: {@code namesrv/} (kv config), {@code broker/store/} (commit log, consume queues,
 * index, {@code config/} with topics, subscription groups and consumer offsets), {@code logs/rocketmq.log} (RocketMQ's
 * own logging: name server, broker and clients of this JVM; never the console or {@code ~/logs}). RocketMQ configures
 * its logging once per JVM, so when several instances start in one JVM the logs go under the first one's directory.
 *
 * <p>{@code autoCreateTopicEnable} is on (producers may create topics implicitly, with 4 queues), but
 * {@link #createTopic} is the way to get a topic with a given queue count.
 *
 * <p>Process-wide effects, each only when not configured already: the RocketMQ remoting version system property
 * (what {@code NamesrvStartup}/{@code BrokerStartup} set), TLS mode {@code disabled} for the servers of this JVM
 * (system property {@code tls.server.mode} overrides), and RocketMQ's logging (see {@link #redirectLogging}).
 * RocketMQ's own store is the default file store; RocksDB is never opened (the project's {@code rocksdbjni} only
 * satisfies a class reference of the broker's configuration).
 */
public final class LocalRocketMq implements AutoCloseable {

    public static final String CLUSTER_NAME = "RsqlLocalCluster";
    public static final String BROKER_NAME = "rsql-local-broker";

    /** System property RocketMQ 5's shaded logback reads its configuration from (URL, class path resource or file). */
    static final String LOGBACK_CONFIG_PROPERTY = "rmq.logback.configurationFile";
    /** Directory our logback configuration writes to. */
    static final String LOG_DIR_PROPERTY = "rsql.rocketmq.log.dir";
    private static final String LOGBACK_RESOURCE = "rmq.logback.xml";

    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration TOPIC_TIMEOUT = Duration.ofSeconds(15);
    private static final Pattern TOPIC_NAME = Pattern.compile("[%|a-zA-Z0-9_-]{1,127}");

    private final Path dataDir;
    private final String host;
    private final NamesrvController namesrv;
    private final BrokerController broker;
    private volatile boolean closed;

    private LocalRocketMq(Path dataDir, String host, NamesrvController namesrv, BrokerController broker) {
        this.dataDir = dataDir;
        this.host = host;
        this.namesrv = namesrv;
        this.broker = broker;
    }

    /** Starts a name server and a broker on free localhost ports. */
    public static LocalRocketMq start(Path dataDir) throws Exception {
        return start(dataDir, 0, 0);
    }

    /**
     * Starts a name server and a broker on the given ports (0 = a free port) of 127.0.0.1 only. The broker also
     * listens on {@code brokerPort - 2} (RocketMQ's "VIP" channel), as a stand-alone broker does; with
     * {@code brokerPort = 0} that is a free port too. It opens no HA port ({@link StandaloneHaService}).
     */
    public static LocalRocketMq start(Path dataDir, int namesrvPort, int brokerPort) throws Exception {
        return start(dataDir, "127.0.0.1", "127.0.0.1", namesrvPort, brokerPort);
    }

    /**
     * As {@link #start(Path, int, int)}, advertising the broker to clients at {@code host} and listening on
     * {@code listenAddress} only ({@code 0.0.0.0}: every interface).
     */
    public static LocalRocketMq start(Path dataDir, String host, String listenAddress, int namesrvPort,
                                      int brokerPort) throws Exception {
        Path dir = dataDir.toAbsolutePath();
        Files.createDirectories(dir);
        redirectLogging(dir.resolve("logs"));
        // What BrokerStartup/NamesrvStartup do first: without it requests carry version 0 and the name server reads
        // a broker registration as a pre-3.0.11 one, silently dropping every topic of the broker.
        if (System.getProperty(RemotingCommand.REMOTING_VERSION_KEY) == null) {
            System.setProperty(RemotingCommand.REMOTING_VERSION_KEY, Integer.toString(MQVersion.CURRENT_VERSION));
        }
        // The default "permissive" TLS mode builds a self-signed certificate per server (seconds of start-up); a local
        // broker serves plain TCP unless tls.server.mode is set explicitly.
        if (System.getProperty(TlsSystemConfig.TLS_SERVER_MODE) == null) {
            TlsSystemConfig.tlsMode = TlsMode.DISABLED;
        }

        NamesrvController namesrv = startNamesrv(dir.resolve("namesrv"), listenAddress, namesrvPort);
        String namesrvAddr = host + ":" + namesrv.getNettyServerConfig().getListenPort();
        BrokerController broker;
        try {
            broker = startBroker(dir.resolve("broker"), host, listenAddress, namesrvAddr, brokerPort);
        } catch (Exception | Error e) {
            namesrv.shutdown();
            throw e;
        }
        LocalRocketMq mq = new LocalRocketMq(dir, host, namesrv, broker);
        try {
            mq.await(mq::brokerRegistered, STARTUP_TIMEOUT,
                    () -> "broker " + BROKER_NAME + " did not register with the name server " + namesrvAddr);
        } catch (RuntimeException e) {
            mq.close();
            throw e;
        }
        return mq;
    }

    /**
     * Sends RocketMQ's own logging in this JVM (name server, broker and clients, which use a shaded logback of their
     * own) to {@code logDir/rocketmq.log} instead of {@code ~/logs/rocketmqlogs} and the console. Takes effect only
     * if called before the first RocketMQ class logs, and only if the system property
     * {@code rmq.logback.configurationFile} is not set already; {@link #start} calls it with {@code dataDir/logs}.
     * Level: system property {@code rocketmq.log.level} (default INFO).
     *
     * @return true if this call configured the logging
     */
    public static synchronized boolean redirectLogging(Path logDir) throws IOException {
        if (System.getProperty(LOGBACK_CONFIG_PROPERTY) != null) {
            return false;
        }
        Path dir = logDir.toAbsolutePath();
        Files.createDirectories(dir);
        System.setProperty(LOG_DIR_PROPERTY, dir.toString());
        System.setProperty(LOGBACK_CONFIG_PROPERTY, LOGBACK_RESOURCE);
        return true;
    }

    private static NamesrvController startNamesrv(Path dir, String listenAddress, int port) throws Exception {
        Files.createDirectories(dir);
        NamesrvConfig config = new NamesrvConfig();
        config.setRocketmqHome(dir.toString());
        config.setKvConfigPath(dir.resolve("kvConfig.json").toString());
        config.setConfigStorePath(dir.resolve("namesrv.properties").toString());
        NettyServerConfig server = new NettyServerConfig();
        server.setBindAddress(listenAddress); // RocketMQ's default is 0.0.0.0
        server.setListenPort(port);
        NamesrvController controller = new NamesrvController(config, server, new NettyClientConfig());
        if (!controller.initialize()) {
            controller.shutdown();
            throw new IllegalStateException("cannot initialize the RocketMQ name server");
        }
        try {
            controller.start();
        } catch (Exception e) {
            controller.shutdown();
            throw new IOException("cannot start the RocketMQ name server on port " + port + ": " + e.getMessage(), e);
        }
        return controller;
    }

    private static BrokerController startBroker(Path dir, String host, String listenAddress, String namesrvAddr,
                                                int port) throws Exception {
        Path store = dir.resolve("store");
        Files.createDirectories(store);

        BrokerConfig config = new BrokerConfig();
        config.setBrokerClusterName(CLUSTER_NAME);
        config.setBrokerName(BROKER_NAME);
        config.setBrokerId(0);
        config.setBrokerIP1(host);
        config.setBrokerIP2(host);
        config.setNamesrvAddr(namesrvAddr);
        config.setRocketmqHome(dir.toString());
        config.setBrokerConfigPath(dir.resolve("broker.properties").toString());
        config.setAutoCreateTopicEnable(true);
        config.setAutoCreateSubscriptionGroup(true);
        config.setEnablePropertyFilter(true);
        config.setListenPort(port);
        // A laptop or CI box stalls now and then; reject sends ("broker busy") only after a second in the queue.
        config.setWaitTimeMillsInSendQueue(1000);
        // Transactional sinks end their half messages themselves at each checkpoint, as long as the broker's check
        // has not started on them: a half the check copied and then asked about would be committed twice. The check
        // starts on halves transactionTimeOut old and sees an end up to transactionOpBatchInterval late (a round works
        // from end records it read when it began), so the sinks end halves up to half of 20 s - 0.5 s old: room for
        // slow checkpoints, and a wide margin. Halves a crashed writer left open are asked about in rounds every
        // 3 s. Every round counts a check of each open half, and after transactionCheckMax checks the broker moves
        // the half where no consumer sees it: 1200 rounds (an hour) let a job stay down or answer UNKNOWN for that
        // long without losing output.
        config.setTransactionTimeOut(20_000);
        config.setTransactionCheckInterval(3_000);
        config.setTransactionOpBatchInterval(500);
        config.setTransactionCheckMax(1200);

        MessageStoreConfig storeConfig = new MessageStoreConfig();
        String root = store.toString();
        storeConfig.setStorePathRootDir(root);
        storeConfig.setStorePathCommitLog(store.resolve("commitlog").toString());
        storeConfig.setStorePathDLedgerCommitLog(store.resolve("dledger_commitlog").toString());
        storeConfig.setStorePathEpochFile(store.resolve("EpochFileCheckpoint").toString());
        storeConfig.setStorePathBrokerIdentity(store.resolve("brokerIdentity").toString());
        storeConfig.setFlushDiskType(FlushDiskType.ASYNC_FLUSH);
        // Small files: a local broker holds little data, and big sparse mappings only slow start-up and recovery.
        storeConfig.setMappedFileSizeCommitLog(128 * 1024 * 1024);
        storeConfig.setMappedFileSizeConsumeQueue(100_000 * 20);
        storeConfig.setMaxIndexNum(400_000);
        storeConfig.setMaxHashSlotNum(100_000);
        // Hand out bigger pulls than a production broker's 32 messages / 256 KiB: one local client is the norm.
        storeConfig.setMaxTransferCountOnMessageInMemory(1024);
        storeConfig.setMaxTransferBytesOnMessageInMemory(4 * 1024 * 1024);
        storeConfig.setMaxTransferCountOnMessageInDisk(256);
        storeConfig.setMaxTransferBytesOnMessageInDisk(1024 * 1024);
        // The timer wheel (5.x delayed messages) preallocates large files; the classic delay levels still work.
        storeConfig.setTimerWheelEnable(false);
        // Development machines and CI runners often have fuller disks than a production broker expects.
        storeConfig.setDiskMaxUsedSpaceRatio(95);
        storeConfig.setDiskSpaceWarningLevelRatio(98);
        storeConfig.setDiskSpaceCleanForciblyRatio(97);

        NettyServerConfig server = new NettyServerConfig();
        server.setBindAddress(listenAddress); // also the VIP channel's, a copy of this configuration
        server.setListenPort(port);
        BrokerController controller = new BrokerController(config, server, new NettyClientConfig(), storeConfig);
        boolean ok;
        try {
            ok = controller.initialize();
        } catch (Exception e) {
            controller.shutdown();
            throw e;
        }
        if (!ok) {
            controller.shutdown();
            throw new IllegalStateException("cannot initialize the RocketMQ broker (store " + store + ")");
        }
        try {
            controller.start();
        } catch (Exception e) {
            controller.shutdown();
            throw new IOException("cannot start the RocketMQ broker on port " + port + ": " + e.getMessage(), e);
        }
        return controller;
    }

    /** The name server address clients use, e.g. {@code 127.0.0.1:9876}. */
    public String nameServerAddress() {
        return host + ":" + namesrv.getNettyServerConfig().getListenPort();
    }

    /** The broker's address, e.g. {@code 127.0.0.1:10911}. */
    public String brokerAddress() {
        return broker.getBrokerAddr();
    }

    public String clusterName() {
        return CLUSTER_NAME;
    }

    public String brokerName() {
        return BROKER_NAME;
    }

    public Path dataDir() {
        return dataDir;
    }

    /**
     * Creates (or updates) a topic with {@code queues} read and write queues and returns once the name server
     * hands out a route with that many queues, i.e. once clients can see it.
     */
    public void createTopic(String topic, int queues) {
        if (!TOPIC_NAME.matcher(topic).matches()) {
            throw new IllegalArgumentException("illegal topic name '" + topic
                    + "': use 1 to 127 letters, digits, '_', '-', '%' or '|'");
        }
        if (queues < 1) {
            throw new IllegalArgumentException("a topic needs at least one queue, got " + queues);
        }
        checkOpen();
        TopicConfig config = new TopicConfig(topic, queues, queues, PermName.PERM_READ | PermName.PERM_WRITE);
        broker.getTopicConfigManager().updateTopicConfig(config);
        broker.registerIncrementBrokerData(config, broker.getTopicConfigManager().getDataVersion());
        await(() -> routeHasQueues(topic, queues), TOPIC_TIMEOUT,
                () -> "topic " + topic + " with " + queues + " queues did not become visible on the name server");
    }

    private boolean routeHasQueues(String topic, int queues) {
        TopicRouteData route = namesrv.getRouteInfoManager().pickupTopicRouteData(topic);
        if (route == null || route.getBrokerDatas() == null || route.getBrokerDatas().isEmpty()) {
            return false;
        }
        for (QueueData q : route.getQueueDatas()) {
            if (BROKER_NAME.equals(q.getBrokerName()) && q.getReadQueueNums() == queues
                    && q.getWriteQueueNums() == queues && PermName.isWriteable(q.getPerm())) {
                return true;
            }
        }
        return false;
    }

    private boolean brokerRegistered() {
        ClusterInfo info = namesrv.getRouteInfoManager().getAllClusterInfo();
        if (info == null || info.getBrokerAddrTable() == null) {
            return false;
        }
        BrokerData data = info.getBrokerAddrTable().get(BROKER_NAME);
        return data != null && data.getBrokerAddrs() != null
                && broker.getBrokerAddr().equals(data.getBrokerAddrs().get(0L));
    }

    /** Polls a condition every few milliseconds until it holds; throws after the timeout. */
    private void await(BooleanSupplier condition, Duration timeout, java.util.function.Supplier<String> message) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long pause = TimeUnit.MILLISECONDS.toNanos(2);
        while (!condition.getAsBoolean()) {
            checkOpen();
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(message.get() + " within " + timeout.toMillis() + " ms");
            }
            LockSupport.parkNanos(pause);
            pause = Math.min(pause * 2, TimeUnit.MILLISECONDS.toNanos(50));
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting: " + message.get());
            }
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the local RocketMQ under " + dataDir + " is closed");
        }
    }

    /** The embedded broker, for tests that need more than this class offers. */
    public BrokerController brokerController() {
        return broker;
    }

    /** The embedded name server, for tests that need more than this class offers. */
    public NamesrvController namesrvController() {
        return namesrv;
    }

    /** Shuts the broker (flushing its store) and the name server down and releases their ports. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        // The broker unregisters from the name server first and then spends seconds stopping its services one by
        // one; the name server can stop meanwhile.
        Thread brokerStop = new Thread(broker::shutdown, "rsql-local-broker-shutdown");
        brokerStop.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (brokerStop.isAlive() && brokerRegistered() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
        try {
            namesrv.shutdown();
        } finally {
            try {
                brokerStop.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public String toString() {
        return "LocalRocketMq[namesrv=" + nameServerAddress() + ", broker=" + brokerAddress() + ", dir=" + dataDir + "]";
    }
}
