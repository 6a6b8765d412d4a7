package dev.rsql.runtime.connector.rocketmq;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.ConnectorRegistry;
import dev.rsql.runtime.connector.JobInfo;
import dev.rsql.runtime.format.RowDecoder;
import dev.rsql.runtime.format.RowEncoder;
import dev.rsql.runtime.table.Column;
import dev.rsql.runtime.table.TableDescriptor;
import dev.rsql.runtime.table.TableSchema;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Option parsing and naming, without a broker. */
class RocketMqOptionsTest {

    @org.junit.jupiter.api.BeforeAll
    static void quiet() {
        RocketMqTestSupport.quietLogging();
    }

    @Test
    void registeredUnderItsNameAndBlinkAliases() {
        ConnectorRegistry registry = new ConnectorRegistry(getClass().getClassLoader());
        for (String name : List.of("rocketmq", "ROCKETMQ", "mq", "metaq")) {
            assertInstanceOf(RocketMqConnectorFactory.class, registry.get(name));
        }
    }

    @Test
    void nameServerFromTableOrEngineAndClearErrors() {
        RocketMqOptions o = RocketMqOptions.of(context("risk/logins", "t", Map.of("topic", "x", "NAMESRVADDR", "h:1"),
                Map.of("rocketmq.namesrv", "engine:9876")));
        assertEquals("h:1", o.namesrv);
        o = RocketMqOptions.of(context("j", "t", Map.of("topic", "x", "endPoint", "http://a:1,b:2"), Map.of()));
        assertEquals("a:1;b:2", o.namesrv);
        o = RocketMqOptions.of(context("j", "t", Map.of("topic", "x"), Map.of("NAMESRV_ADDR", "e:1")));
        assertEquals("e:1", o.namesrv);

        ConfigException e = assertThrows(ConfigException.class,
                () -> RocketMqOptions.of(context("j", "orders", Map.of("topic", "x"), Map.of())));
        assertTrue(e.getMessage().contains("table orders") && e.getMessage().contains("'nameserver'")
                && e.getMessage().contains("rocketmq.namesrv"), e.getMessage());
        e = assertThrows(ConfigException.class,
                () -> RocketMqOptions.of(context("j", "orders", Map.of("nameserver", "h:1"), Map.of())));
        assertTrue(e.getMessage().contains("table orders") && e.getMessage().contains("'topic'"), e.getMessage());
    }

    @Test
    void groupsTagsAndInstanceNames() {
        RocketMqOptions o = RocketMqOptions.of(context("risk/login alerts", "logins", Map.of("topic", "x",
                "tag", "a, b,c"), Map.of("rocketmq.namesrv", "h:1")));
        assertEquals("rsql_risk_login_alerts_logins", o.consumerGroup());
        assertEquals("rsql_risk_login_alerts_logins_producer", o.producerGroup());
        assertEquals("rsql_risk_login_alerts_logins_tx", o.transactionalProducerGroup());
        assertEquals("a||b||c", o.subscription());
        assertTrue(o.clientInstanceName("consumer").matches("[%|a-zA-Z0-9_-]+"), o.clientInstanceName("consumer"));

        o = RocketMqOptions.of(context("j", "t", Map.of("topic", "x", "groupName", "GID_orders", "producerGroup", "P",
                "tags", "a||b"), Map.of("rocketmq.namesrv", "h:1")));
        assertEquals("GID_orders", o.consumerGroup());
        assertEquals("P", o.producerGroup());
        assertEquals("a||b", o.subscription());
        o = RocketMqOptions.of(context("j", "t", Map.of("topic", "x"), Map.of("rocketmq.namesrv", "h:1")));
        assertEquals("*", o.subscription());
    }

    @Test
    void startupModes() {
        Map<String, String> engine = Map.of("rocketmq.namesrv", "h:1");
        assertEquals(RocketMqOptions.StartupMode.GROUP_OFFSETS,
                RocketMqOptions.of(context("j", "t", Map.of("topic", "x"), engine)).startupMode());
        assertEquals(RocketMqOptions.StartupMode.LATEST, RocketMqOptions.of(context("j", "t",
                Map.of("topic", "x", "startupMode", "LATEST_OFFSET"), engine)).startupMode());
        RocketMqOptions blink = RocketMqOptions.of(context("j", "t", Map.of("topic", "x", "startTime",
                "2024-01-31 12:00:00"), engine));
        assertEquals(RocketMqOptions.StartupMode.TIMESTAMP, blink.startupMode());
        assertEquals(1706702400000L, blink.startupTimestamp(ZoneId.of("UTC")));
        assertEquals(RocketMqOptions.StartupMode.SPECIFIC_OFFSET, RocketMqOptions.of(context("j", "t",
                Map.of("topic", "x", "startMessageOffset", "42"), engine)).startupMode());
        ConfigException e = assertThrows(ConfigException.class, () -> RocketMqOptions.of(context("j", "t",
                Map.of("topic", "x", "scan.startup.mode", "sometimes"), engine)).startupMode());
        assertTrue(e.getMessage().contains("scan.startup.mode"), e.getMessage());
        e = assertThrows(ConfigException.class, () -> RocketMqOptions.of(context("j", "t",
                Map.of("topic", "x", "scan.startup.mode", "timestamp"), engine)).startupTimestamp(ZoneId.of("UTC")));
        assertTrue(e.getMessage().contains("scan.startup.timestamp-millis"), e.getMessage());
    }

    @Test
    void metadataKeys() {
        assertEquals(MessageMetadata.Attribute.TAG, MessageMetadata.attributeOf("__tag__"));
        assertEquals(MessageMetadata.Attribute.TAG, MessageMetadata.attributeOf("TAGS"));
        assertEquals(MessageMetadata.Attribute.QUEUE_OFFSET, MessageMetadata.attributeOf("queueOffset"));
        assertEquals(MessageMetadata.Attribute.MSG_ID, MessageMetadata.attributeOf("message_id"));
        assertEquals(MessageMetadata.Attribute.BORN_TIMESTAMP, MessageMetadata.attributeOf("born-timestamp"));
        assertEquals(MessageMetadata.Attribute.USER_PROPERTY, MessageMetadata.attributeOf("traceId"));
        assertEquals("traceId", MessageMetadata.propertyName("__traceId__"));
        assertEquals(3_600_000L + 5, MessageMetadata.wallClock(5, ZoneId.of("+01:00")));
        assertEquals(42L, MessageMetadata.convert("42", DataType.of(DataType.Kind.BIGINT), null));
        assertEquals(0L, MessageMetadata.convert("1970-01-01 00:00:00", DataType.timestamp(3), null));
        assertNull(MessageMetadata.convert(null, DataType.string(), null));
        assertThrows(RuntimeException.class, () -> MessageMetadata.convert("x", DataType.of(DataType.Kind.INT), null));
    }

    private static ConnectorContext context(String job, String table, Map<String, String> options,
                                            Map<String, String> engine) {
        TableDescriptor t = new TableDescriptor(table, new TableSchema(List.of(
                Column.physical("id", DataType.of(DataType.Kind.BIGINT))), List.of()), "rocketmq", new Options(options));
        Options config = new Options(engine);
        JobInfo info = new JobInfo() {
            @Override
            public String name() {
                return job;
            }

            @Override
            public String instanceId() {
                return "host-1";
            }

            @Override
            public Options config() {
                return config;
            }

            @Override
            public Path dataDir() {
                return Path.of("state");
            }

            @Override
            public ClassLoader classLoader() {
                return getClass().getClassLoader();
            }
        };
        return new ConnectorContext() {
            @Override
            public TableDescriptor table() {
                return t;
            }

            @Override
            public JobInfo job() {
                return info;
            }

            @Override
            public RowDecoder createDecoder(String defaultFormat, RowType payloadFields, int[] targetPositions,
                                            int targetArity) {
                throw new UnsupportedOperationException();
            }

            @Override
            public RowEncoder createEncoder(String defaultFormat, RowType payloadFields) {
                throw new UnsupportedOperationException();
            }
        };
    }
}
