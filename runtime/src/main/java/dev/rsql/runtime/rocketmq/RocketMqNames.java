package dev.rsql.runtime.rocketmq;

/** Topic and group names RocketMQ accepts, made from free text: {@code [%|a-zA-Z0-9_-]}, limited in length. */
public final class RocketMqNames {

    /** Longest topic name RocketMQ accepts. */
    public static final int MAX_TOPIC_LENGTH = 127;
    /** Longest group or client instance name RocketMQ accepts. */
    public static final int MAX_GROUP_LENGTH = 255;

    private RocketMqNames() {
    }

    /** Replaces every character RocketMQ does not allow by {@code _} and cuts the result at {@code maxLength}. */
    public static String sanitize(String name, int maxLength) {
        StringBuilder sb = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'
                    || c == '-' || c == '%' || c == '|';
            sb.append(ok ? c : '_');
        }
        String s = sb.toString();
        return s.length() > maxLength ? s.substring(0, maxLength) : s;
    }

    /**
     * As {@link #sanitize}, but a name that had to be changed gets a hash of the original appended, so that two names
     * differing only in replaced or cut characters ({@code a.b}, {@code a b}) do not end up as one topic or group.
     */
    public static String distinct(String name, int maxLength) {
        String s = sanitize(name, maxLength);
        if (s.equals(name)) {
            return s;
        }
        String hash = "_" + Integer.toHexString(name.hashCode());
        return sanitize(name, maxLength - hash.length()) + hash;
    }
}
