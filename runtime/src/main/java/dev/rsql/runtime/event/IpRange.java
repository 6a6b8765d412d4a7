package dev.rsql.runtime.event;

/**
 * {@code cidr}: an IPv4 or IPv6 network ({@code 10.1.0.0/16}, {@code 2001:db8::/32}), or one address when written
 * without a prefix length. Matches event strings that are IP addresses of the same family inside it. Addresses are
 * parsed here, never by {@code InetAddress}, which would look a name up in DNS.
 */
final class IpRange implements ValueTest {

    private final byte[] network;
    private final int bits;

    private IpRange(byte[] network, int bits) {
        this.network = network;
        this.bits = bits;
    }

    /** @throws IllegalArgumentException when {@code cidr} is no address or network */
    static IpRange parse(String cidr) {
        int slash = cidr.indexOf('/');
        byte[] address = address(slash < 0 ? cidr : cidr.substring(0, slash));
        if (address == null) {
            throw new IllegalArgumentException("\"" + cidr + "\" is not an IPv4 or IPv6 address or network");
        }
        int bits = address.length * 8;
        if (slash >= 0) {
            String length = cidr.substring(slash + 1);
            if (!length.matches("[0-9]{1,3}") || Integer.parseInt(length) > bits) {
                throw new IllegalArgumentException("\"" + cidr + "\": the prefix length must be 0 to " + bits);
            }
            bits = Integer.parseInt(length);
        }
        return new IpRange(address, bits);
    }

    /**
     * The key of the network, and of an address (4 or 16 bytes) inside it: the first {@code bits} bits with the others
     * cleared, and the length.
     */
    static String key(byte[] address, int bits) {
        char[] key = new char[address.length + 1];
        for (int i = 0; i < address.length; i++) {
            int keep = Math.max(0, Math.min(8, bits - i * 8));
            key[i] = (char) (address[i] & (0xFF << (8 - keep)) & 0xFF);
        }
        key[address.length] = (char) bits;
        return new String(key);
    }

    String key() {
        return key(network, bits);
    }

    /** The prefix length, and 32 or 128 bits for the family in {@link #family}. */
    int bits() {
        return bits;
    }

    /** 4 for IPv4, 16 for IPv6: the address length in bytes. */
    int family() {
        return network.length;
    }

    @Override
    public boolean test(Object value) {
        if (!(value instanceof String)) {
            return false;
        }
        byte[] a = address((String) value);
        if (a == null || a.length != network.length) {
            return false;
        }
        int full = bits / 8;
        for (int i = 0; i < full; i++) {
            if (a[i] != network[i]) {
                return false;
            }
        }
        int rest = bits % 8;
        if (rest == 0) {
            return true;
        }
        int mask = 0xFF << (8 - rest) & 0xFF;
        return (a[full] & mask) == (network[full] & mask);
    }

    /** The address's bytes (4 or 16), or null when {@code s} is not an IP address literal. */
    static byte[] address(String s) {
        if (s.indexOf(':') >= 0) {
            return ipv6(s);
        }
        byte[] b = new byte[4];
        return ipv4(s, b, 0) ? b : null;
    }

    /** Parses dotted-quad {@code s} into {@code out[at..at+3]}; false if it is not one. */
    private static boolean ipv4(String s, byte[] out, int at) {
        int part = 0;
        int value = 0;
        int digits = 0;
        for (int i = 0; i <= s.length(); i++) {
            char c = i < s.length() ? s.charAt(i) : '.';
            if (c == '.') {
                if (digits == 0 || part > 3) {
                    return false;
                }
                out[at + part++] = (byte) value;
                value = 0;
                digits = 0;
            } else if (c >= '0' && c <= '9') {
                if (digits > 0 && value == 0) {
                    return false; // a leading zero
                }
                value = value * 10 + (c - '0');
                if (++digits > 3 || value > 255) {
                    return false;
                }
            } else {
                return false;
            }
        }
        return part == 4;
    }

    private static byte[] ipv6(String s) {
        byte[] out = new byte[16];
        int gap = s.indexOf("::");
        if (gap >= 0 && s.indexOf("::", gap + 1) >= 0) {
            return null;
        }
        String head = gap < 0 ? s : s.substring(0, gap);
        int headBytes = groups(head, out, gap < 0);
        if (gap < 0) {
            return headBytes == 16 ? out : null;
        }
        byte[] tail = new byte[16];
        int tailBytes = groups(s.substring(gap + 2), tail, true);
        if (headBytes < 0 || tailBytes < 0 || headBytes + tailBytes > 14) {
            return null;
        }
        System.arraycopy(tail, 0, out, 16 - tailBytes, tailBytes);
        return out;
    }

    /**
     * Parses colon-separated hexadecimal groups (the last may be a dotted quad when {@code last}) into the start of
     * {@code out}; returns the number of bytes written, or -1 if malformed.
     */
    private static int groups(String s, byte[] out, boolean last) {
        if (s.isEmpty()) {
            return 0;
        }
        String[] parts = s.split(":", -1);
        int n = 0;
        for (int p = 0; p < parts.length; p++) {
            String g = parts[p];
            if (last && p == parts.length - 1 && g.indexOf('.') >= 0) {
                if (n + 4 > 16 || !ipv4(g, out, n)) {
                    return -1;
                }
                n += 4;
                continue;
            }
            if (g.isEmpty() || g.length() > 4 || n + 2 > 16) {
                return -1;
            }
            int v = 0;
            for (int i = 0; i < g.length(); i++) {
                char c = g.charAt(i);
                int d = c < 128 ? Character.digit(c, 16) : -1;
                if (d < 0) {
                    return -1;
                }
                v = v * 16 + d;
            }
            out[n++] = (byte) (v >> 8);
            out[n++] = (byte) v;
        }
        return n;
    }
}
