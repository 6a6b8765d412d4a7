package dev.rsql.runtime.connector.rocketmq;

import dev.rsql.runtime.format.DecodeException;
import dev.rsql.runtime.table.Column;
import dev.rsql.runtime.types.DataType;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;

import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The message attributes a RocketMQ table can read as metadata columns, and their conversion to the declared column
 * types.
 *
 * <p>Keys (case-insensitive; surrounding {@code __} is stripped, so Blink's {@code __tag__} means {@code tag}):
 * {@code topic}, {@code tag}/{@code tags}, {@code keys}/{@code key}, {@code msg_id}/{@code msgId}/{@code message_id},
 * {@code offset_msg_id}, {@code queue_id}/{@code queueId}, {@code queue_offset}/{@code queueOffset}/{@code offset},
 * {@code born_timestamp}/{@code bornTimestamp}, {@code store_timestamp}/{@code storeTimestamp}, {@code born_host},
 * {@code store_host}, {@code reconsume_times}, {@code broker_name}, {@code properties} (MAP of the user properties).
 * Any other key names a user property (Blink HEADER columns: the column name is the key).
 *
 * <p>Timestamps are epoch milliseconds: TIMESTAMP_LTZ and BIGINT columns get them as they are, TIMESTAMP columns get
 * the wall-clock time in the engine's time zone.
 */
final class MessageMetadata {

    enum Attribute {
        TOPIC, TAG, KEYS, MSG_ID, OFFSET_MSG_ID, QUEUE_ID, QUEUE_OFFSET, BORN_TIMESTAMP, STORE_TIMESTAMP, BORN_HOST,
        STORE_HOST, RECONSUME_TIMES, BROKER_NAME, PROPERTIES, USER_PROPERTY;

        /** Attributes a sink can set on the messages it writes. */
        boolean writable() {
            return this == TAG || this == KEYS || this == USER_PROPERTY || this == PROPERTIES;
        }
    }

    private static final Map<String, Attribute> KNOWN = new LinkedHashMap<>();

    static {
        put(Attribute.TOPIC, "topic");
        put(Attribute.TAG, "tag", "tags");
        put(Attribute.KEYS, "keys", "key", "msg_key", "message_key");
        put(Attribute.MSG_ID, "msg_id", "msgid", "message_id", "messageid");
        put(Attribute.OFFSET_MSG_ID, "offset_msg_id", "offsetmsgid");
        put(Attribute.QUEUE_ID, "queue_id", "queueid");
        put(Attribute.QUEUE_OFFSET, "queue_offset", "queueoffset", "offset");
        put(Attribute.BORN_TIMESTAMP, "born_timestamp", "borntimestamp", "born_time", "borntime");
        put(Attribute.STORE_TIMESTAMP, "store_timestamp", "storetimestamp", "store_time", "storetime");
        put(Attribute.BORN_HOST, "born_host", "bornhost");
        put(Attribute.STORE_HOST, "store_host", "storehost");
        put(Attribute.RECONSUME_TIMES, "reconsume_times", "reconsumetimes");
        put(Attribute.BROKER_NAME, "broker_name", "brokername");
        put(Attribute.PROPERTIES, "properties", "user_properties", "userproperties");
    }

    private static void put(Attribute a, String... keys) {
        for (String k : keys) {
            KNOWN.put(k, a);
        }
    }

    private MessageMetadata() {
    }

    /** Lower case, surrounding {@code __} removed, {@code -} and {@code .} read as {@code _}. */
    static String normalize(String key) {
        String k = key.trim();
        while (k.length() > 4 && k.startsWith("__") && k.endsWith("__")) {
            k = k.substring(2, k.length() - 2);
        }
        return k.toLowerCase(Locale.ROOT).replace('-', '_').replace('.', '_');
    }

    static Attribute attributeOf(String key) {
        return KNOWN.getOrDefault(normalize(key), Attribute.USER_PROPERTY);
    }

    /** The user property name a metadata key stands for: the key without surrounding {@code __}. */
    static String propertyName(String key) {
        String k = key.trim();
        while (k.length() > 4 && k.startsWith("__") && k.endsWith("__")) {
            k = k.substring(2, k.length() - 2);
        }
        return k;
    }

    /** Reads one metadata column of the source table from a message. */
    static final class Reader {
        final int position;
        private final Column column;
        private final Attribute attribute;
        private final String property;
        private final ZoneId zone;

        Reader(int position, Column column, ZoneId zone) {
            this.position = position;
            this.column = column;
            this.attribute = attributeOf(column.metadataKey());
            this.property = propertyName(column.metadataKey());
            this.zone = zone;
        }

        void read(MessageExt msg, Object[] row) throws DecodeException {
            Object raw;
            switch (attribute) {
                case TOPIC:
                    raw = msg.getTopic();
                    break;
                case TAG:
                    raw = msg.getTags();
                    break;
                case KEYS:
                    raw = msg.getKeys();
                    break;
                case MSG_ID:
                    raw = msg.getMsgId();
                    break;
                case OFFSET_MSG_ID:
                    raw = msg instanceof org.apache.rocketmq.common.message.MessageClientExt
                            ? ((org.apache.rocketmq.common.message.MessageClientExt) msg).getOffsetMsgId()
                            : msg.getMsgId();
                    break;
                case QUEUE_ID:
                    raw = msg.getQueueId();
                    break;
                case QUEUE_OFFSET:
                    raw = msg.getQueueOffset();
                    break;
                case BORN_TIMESTAMP:
                    row[position] = timestamp(msg.getBornTimestamp());
                    return;
                case STORE_TIMESTAMP:
                    row[position] = timestamp(msg.getStoreTimestamp());
                    return;
                case BORN_HOST:
                    raw = host(msg.getBornHost());
                    break;
                case STORE_HOST:
                    raw = host(msg.getStoreHost());
                    break;
                case RECONSUME_TIMES:
                    raw = msg.getReconsumeTimes();
                    break;
                case BROKER_NAME:
                    raw = msg.getBrokerName();
                    break;
                case PROPERTIES:
                    row[position] = userProperties(msg);
                    return;
                default:
                    raw = userProperty(msg);
            }
            row[position] = convert(raw);
        }

        private Object timestamp(long millis) throws DecodeException {
            switch (column.type().kind()) {
                case TIMESTAMP:
                    return wallClock(millis, zone);
                case TIMESTAMP_LTZ:
                case BIGINT:
                    return millis;
                default:
                    return convert(millis);
            }
        }

        private String userProperty(MessageExt msg) {
            String v = msg.getUserProperty(property);
            if (v != null) {
                return v;
            }
            Map<String, String> props = msg.getProperties();
            if (props == null) {
                return null;
            }
            for (Map.Entry<String, String> e : props.entrySet()) {
                if (e.getKey().equalsIgnoreCase(property) && !MessageConst.STRING_HASH_SET.contains(e.getKey())) {
                    return e.getValue();
                }
            }
            return null;
        }

        private Object convert(Object raw) throws DecodeException {
            try {
                return MessageMetadata.convert(raw, column.type(), zone);
            } catch (RuntimeException e) {
                throw new DecodeException(column.name(), "metadata '" + column.metadataKey() + "' value '" + raw
                        + "' is not a " + column.type() + ": " + e.getMessage(), e);
            }
        }
    }

    static Map<String, String> userProperties(MessageExt msg) {
        Map<String, String> out = new LinkedHashMap<>();
        Map<String, String> props = msg.getProperties();
        if (props != null) {
            props.forEach((k, v) -> {
                if (!MessageConst.STRING_HASH_SET.contains(k)) {
                    out.put(k, v);
                }
            });
        }
        return out;
    }

    private static String host(SocketAddress address) {
        if (address instanceof InetSocketAddress) {
            InetSocketAddress a = (InetSocketAddress) address;
            String h = a.getAddress() != null ? a.getAddress().getHostAddress() : a.getHostString();
            return h + ":" + a.getPort();
        }
        return address == null ? null : address.toString();
    }

    /** Epoch milliseconds as the wall-clock time of a zone, in the TIMESTAMP representation (read as UTC). */
    static long wallClock(long epochMillis, ZoneId zone) {
        if (zone == null || zone.equals(ZoneOffset.UTC)) {
            return epochMillis;
        }
        int offset = zone.getRules().getOffset(java.time.Instant.ofEpochMilli(epochMillis)).getTotalSeconds();
        return epochMillis + offset * 1000L;
    }

    private static final DateTimeFormatter TIMESTAMP_TEXT = new DateTimeFormatterBuilder()
            .appendPattern("yyyy-MM-dd")
            .optionalStart().appendLiteral(' ').optionalEnd()
            .optionalStart().appendLiteral('T').optionalEnd()
            .optionalStart().appendPattern("HH:mm")
            .optionalStart().appendPattern(":ss").optionalEnd()
            .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true).optionalEnd()
            .optionalEnd()
            .parseDefaulting(ChronoField.HOUR_OF_DAY, 0)
            .toFormatter(Locale.ROOT);

    /** Converts a metadata value (String, Integer, Long, Map) to the internal representation of {@code type}. */
    static Object convert(Object raw, DataType type, ZoneId zone) {
        if (raw == null) {
            return null;
        }
        switch (type.kind()) {
            case CHAR:
            case VARCHAR:
                return raw.toString();
            case BOOLEAN:
                if (raw instanceof Boolean) {
                    return raw;
                }
                String b = raw.toString().trim().toLowerCase(Locale.ROOT);
                if (b.equals("true") || b.equals("1")) {
                    return Boolean.TRUE;
                }
                if (b.equals("false") || b.equals("0")) {
                    return Boolean.FALSE;
                }
                throw new IllegalArgumentException("not a boolean");
            case TINYINT:
                return raw instanceof Number ? ((Number) raw).byteValue() : Byte.parseByte(raw.toString().trim());
            case SMALLINT:
                return raw instanceof Number ? ((Number) raw).shortValue() : Short.parseShort(raw.toString().trim());
            case INT:
                return raw instanceof Number ? ((Number) raw).intValue() : Integer.parseInt(raw.toString().trim());
            case BIGINT:
                return raw instanceof Number ? ((Number) raw).longValue() : Long.parseLong(raw.toString().trim());
            case FLOAT:
                return raw instanceof Number ? ((Number) raw).floatValue() : Float.parseFloat(raw.toString().trim());
            case DOUBLE:
                return raw instanceof Number ? ((Number) raw).doubleValue() : Double.parseDouble(raw.toString().trim());
            case DECIMAL:
                return new BigDecimal(raw.toString().trim());
            case BINARY:
            case VARBINARY:
                return raw instanceof byte[] ? raw : raw.toString().getBytes(StandardCharsets.UTF_8);
            case TIMESTAMP:
            case TIMESTAMP_LTZ: {
                if (raw instanceof Number) {
                    long millis = ((Number) raw).longValue();
                    return type.kind() == DataType.Kind.TIMESTAMP ? wallClock(millis, zone) : millis;
                }
                String s = raw.toString().trim();
                if (!s.isEmpty() && s.chars().allMatch(Character::isDigit)) {
                    long millis = Long.parseLong(s);
                    return type.kind() == DataType.Kind.TIMESTAMP ? wallClock(millis, zone) : millis;
                }
                LocalDateTime ldt = LocalDateTime.parse(s, TIMESTAMP_TEXT);
                return type.kind() == DataType.Kind.TIMESTAMP
                        ? ldt.toInstant(ZoneOffset.UTC).toEpochMilli()
                        : ldt.atZone(zone == null ? ZoneOffset.UTC : zone).toInstant().toEpochMilli();
            }
            case DATE:
                return (int) LocalDate.parse(raw.toString().trim()).toEpochDay();
            case MAP:
                if (raw instanceof Map) {
                    return raw;
                }
                throw new IllegalArgumentException("only 'properties' can be read as a MAP");
            case ARRAY:
                if (raw instanceof List) {
                    return raw;
                }
                throw new IllegalArgumentException("not an array");
            default:
                throw new IllegalArgumentException("unsupported metadata type " + type);
        }
    }

    /** Renders a column value for a message key, tag or property. */
    static String text(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof byte[]) {
            return new String((byte[]) value, StandardCharsets.UTF_8);
        }
        return value.toString();
    }
}
