package dev.rsql.runtime.lookup;

import dev.rsql.runtime.state.ByteReader;
import dev.rsql.runtime.state.ByteWriter;
import dev.rsql.runtime.state.RowSerializer;
import dev.rsql.runtime.types.DataType;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The row format of a {@link CompactTable}: smaller than {@link RowSerializer}'s (which must stay fixed for state),
 * because a dimension table's ids, codes, cities and epoch times are mostly small, alike or few. A null bitmap, then
 * INT, DATE, TIME and BIGINT as zig-zag varints of their difference from the column's first value (an epoch-millis
 * column of one year takes 5 bytes, not 8), strings either as a varint code into the column's dictionary or inline
 * (varint length + UTF-8, without the prefix and suffix the column's first values share when the value has them),
 * and any other type in {@link RowSerializer}'s format.
 *
 * <p>The encodings are learnt while loading, by any number of loader threads at once: a string column's dictionary
 * grows until {@value #DICTIONARY_LIMIT} distinct values, then is abandoned (later new values go inline; the codes
 * given stay valid); its prefix and suffix are fixed from its first {@value #AFFIX_SAMPLES} values (what three
 * quarters of them share), cut back to where digits start (rows come in key order, so the first values share more
 * digits than the rest will). Each value's bytes say which encoding it has, so every row decodes exactly whatever was
 * learnt after it was written. Decode only after
 * {@link #freeze()}; from then on immutable and thread-safe.
 */
final class CompactRowCodec {

    static final int DICTIONARY_LIMIT = 1 << 14;
    static final int AFFIX_SAMPLES = 64;

    private final DataType.Kind[] kinds;
    private final RowSerializer[] others;
    private final IntegerColumn[] integers;
    private final StringColumn[] strings;

    CompactRowCodec(List<DataType> types) {
        kinds = new DataType.Kind[types.size()];
        others = new RowSerializer[types.size()];
        integers = new IntegerColumn[types.size()];
        strings = new StringColumn[types.size()];
        for (int i = 0; i < kinds.length; i++) {
            kinds[i] = types.get(i).kind();
            if (isVarint(kinds[i])) {
                integers[i] = new IntegerColumn();
            } else if (kinds[i].isCharacter()) {
                strings[i] = new StringColumn();
            } else {
                others[i] = new RowSerializer(List.of(types.get(i)));
            }
        }
    }

    private static boolean isVarint(DataType.Kind k) {
        return k == DataType.Kind.INT || k == DataType.Kind.DATE || k == DataType.Kind.TIME
                || k == DataType.Kind.BIGINT;
    }

    /** Encodes a row; safe from several loader threads at once, until {@link #freeze()}. */
    void write(Object[] row, ByteWriter out) {
        int bitmap = out.reserve((kinds.length + 7) >>> 3);
        for (int i = 0; i < kinds.length; i++) {
            Object v = row[i];
            if (v == null) {
                out.setBit(bitmap, i);
            } else if (integers[i] != null) {
                long x = integers[i].delta(((Number) v).longValue());
                out.writeVarLong((x << 1) ^ (x >> 63));
            } else if (strings[i] != null) {
                strings[i].write(v.toString(), out);
            } else {
                others[i].serialize(new Object[]{v}, out);
            }
        }
    }

    /** Ends loading: what was learnt is final (and visible to any thread that reads the table after this). */
    void freeze() {
        for (StringColumn s : strings) {
            if (s != null) {
                s.freeze();
            }
        }
    }

    Object[] read(ByteReader in) {
        int bitmap = in.skip((kinds.length + 7) >>> 3);
        Object[] row = new Object[kinds.length];
        for (int i = 0; i < kinds.length; i++) {
            if (in.isBitSet(bitmap, i)) {
                continue;
            }
            if (integers[i] != null) {
                long z = in.readVarLong();
                long x = integers[i].base + ((z >>> 1) ^ -(z & 1));
                row[i] = kinds[i] == DataType.Kind.BIGINT ? (Object) x : (Object) (int) x;
            } else if (strings[i] != null) {
                row[i] = strings[i].read(in);
            } else {
                row[i] = others[i].deserialize(in)[0];
            }
        }
        return row;
    }

    /** Dictionary entries held (for the store's size). */
    long dictionaryBytes() {
        long b = 0;
        for (StringColumn s : strings) {
            if (s != null) {
                b += s.dictionaryBytes();
            }
        }
        return b;
    }

    /** An integer column's base: its first value seen (differences wrap around, so any value decodes exactly). */
    private static final class IntegerColumn {

        private volatile boolean based;
        private volatile long base;

        long delta(long x) {
            if (!based) {
                synchronized (this) {
                    if (!based) {
                        base = x;
                        based = true;
                    }
                }
            }
            return x - base;
        }
    }

    /**
     * A string column's encodings. A value's header varint: bit 0 set = a dictionary code in the rest; else bit 1 =
     * the column's prefix and suffix are cut off, and the rest is the UTF-8 length of what follows.
     */
    private static final class StringColumn {

        private ConcurrentHashMap<String, Integer> codes = new ConcurrentHashMap<>();
        private volatile String[] dictionary = new String[16];
        private int size;                              // guarded by this
        private volatile boolean abandoned;
        private List<String> samples = new ArrayList<>(); // guarded by this; null once the affix is fixed
        private volatile Affix affix;                  // null while sampling

        void write(String s, ByteWriter out) {
            Affix a = affix != null ? affix : sample(s);
            if (!abandoned) {
                Integer code = codes.get(s);
                int c = code != null ? code : add(s);
                if (c >= 0) {
                    out.writeVarLong(((long) c << 1) | 1);
                    return;
                }
            }
            boolean cut = a != null && a.fits(s);
            byte[] body = (cut ? s.substring(a.prefix.length(), s.length() - a.suffix.length()) : s)
                    .getBytes(StandardCharsets.UTF_8);
            out.writeVarLong(((long) body.length << 2) | (cut ? 2 : 0));
            out.writeBytes(body);
        }

        /** The new value's code, or -1 when the dictionary is (now) full. */
        private synchronized int add(String s) {
            Integer code = codes.get(s);
            if (code != null) {
                return code;
            }
            if (size == DICTIONARY_LIMIT) {
                abandoned = true;
                return -1;
            }
            String[] d = dictionary;
            if (size == d.length) {
                d = Arrays.copyOf(d, size * 2);
            }
            d[size] = s;
            dictionary = d; // published before the code is
            codes.put(s, size);
            return size++;
        }

        private synchronized Affix sample(String s) {
            if (affix == null) {
                samples.add(s);
                if (samples.size() == AFFIX_SAMPLES) {
                    affix = Affix.of(samples);
                    samples = null;
                }
            }
            return affix;
        }

        synchronized void freeze() {
            codes = null;
            samples = null;
            dictionary = Arrays.copyOf(dictionary, size);
        }

        String read(ByteReader in) {
            long h = in.readVarLong();
            if ((h & 1) != 0) {
                return dictionary[(int) (h >>> 1)];
            }
            int n = (int) (h >>> 2);
            if ((h & 2) == 0) {
                return new String(in.readBytes(n), StandardCharsets.UTF_8);
            }
            Affix a = affix;
            byte[] b = new byte[a.prefixBytes.length + n + a.suffixBytes.length];
            System.arraycopy(a.prefixBytes, 0, b, 0, a.prefixBytes.length);
            in.readBytes(b, a.prefixBytes.length, n);
            System.arraycopy(a.suffixBytes, 0, b, a.prefixBytes.length + n, a.suffixBytes.length);
            return new String(b, StandardCharsets.UTF_8);
        }

        long dictionaryBytes() {
            long b = 0;
            for (String s : dictionary) {
                b += s == null ? 0 : 48 + s.length(); // reference, String and its Latin-1 array
            }
            return b + (long) Integer.BYTES * dictionary.length;
        }
    }

    /**
     * The prefix and the suffix most of a column's sampled values share, without digits at their inner ends, never
     * splitting a surrogate pair.
     */
    private static final class Affix {

        final String prefix;
        final String suffix;
        final byte[] prefixBytes;
        final byte[] suffixBytes;

        private Affix(String prefix, String suffix) {
            this.prefix = prefix;
            this.suffix = suffix;
            this.prefixBytes = prefix.getBytes(StandardCharsets.UTF_8);
            this.suffixBytes = suffix.getBytes(StandardCharsets.UTF_8);
        }

        static Affix of(List<String> samples) {
            String prefix = shared(samples, false);
            // values loaded in key order share their ids' leading digits: keep only the part all ids have
            while (!prefix.isEmpty() && (Character.isDigit(prefix.charAt(prefix.length() - 1))
                    || Character.isHighSurrogate(prefix.charAt(prefix.length() - 1)))) {
                prefix = prefix.substring(0, prefix.length() - 1);
            }
            String suffix = shared(samples, true);
            while (!suffix.isEmpty() && (Character.isDigit(suffix.charAt(0))
                    || Character.isLowSurrogate(suffix.charAt(0)))) {
                suffix = suffix.substring(1);
            }
            return new Affix(prefix, suffix);
        }

        /**
         * The longest prefix (or suffix) three quarters of the samples have, so a few odd values among the first
         * ones do not spoil it: the longest common prefix of any run of that many samples in sorted order.
         */
        private static String shared(List<String> samples, boolean suffix) {
            List<String> sorted = new ArrayList<>();
            for (String s : samples) {
                sorted.add(suffix ? new StringBuilder(s).reverse().toString() : s);
            }
            sorted.sort(null);
            int run = sorted.size() * 3 / 4;
            String best = "";
            for (int i = 0; i + run <= sorted.size(); i++) {
                String a = sorted.get(i);
                String b = sorted.get(i + run - 1);
                int n = 0;
                while (n < a.length() && n < b.length() && a.charAt(n) == b.charAt(n)) {
                    n++;
                }
                if (n > best.length()) {
                    best = a.substring(0, n);
                }
            }
            return suffix ? new StringBuilder(best).reverse().toString() : best;
        }

        boolean fits(String s) {
            return (prefix.length() > 0 || suffix.length() > 0)
                    && s.length() >= prefix.length() + suffix.length()
                    && s.startsWith(prefix) && s.endsWith(suffix);
        }
    }
}
