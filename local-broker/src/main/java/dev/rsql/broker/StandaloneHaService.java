package dev.rsql.broker;

import org.apache.rocketmq.store.ha.DefaultHAService;

/**
 * The HA service of a broker that has no slaves: it does what RocketMQ's default does except open the HA port, which
 * would listen on every interface (RocketMQ binds it to the wildcard address whatever the broker's bind address) and
 * hand the commit log to whoever connects. RocketMQ's store finds it through
 * {@code META-INF/service/org.apache.rocketmq.store.ha.HAService}, so it serves every broker started in a JVM that has
 * this module on its class path: the local broker ({@link LocalRocketMq}) only.
 */
public final class StandaloneHaService extends DefaultHAService {

    @Override
    public void start() throws Exception {
        groupTransferService.start();
        haConnectionStateNotificationService.start();
        if (haClient != null) {
            haClient.start();
        }
    }
}
