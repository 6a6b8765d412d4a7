package dev.rsql.runtime.connector.datagen;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.format.json.ValueText;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.Numbers;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How one column is generated, from the options {@code fields.<name>.*}: {@code kind} ({@code random} or
 * {@code sequence}), {@code start}/{@code end} (sequence), {@code min}/{@code max} (numbers), {@code length} (strings,
 * bytes, collections), {@code null-rate}, {@code values} (comma-separated list to pick from), {@code max-past}
 * (milliseconds of random lag behind the current time for DATE, TIME and TIMESTAMP columns).
 */
final class FieldSpec {

    private static final char[] ALPHANUMERIC =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".toCharArray();
    private static final long MILLIS_PER_DAY = 86_400_000L;

    final String name;
    final DataType type;
    final boolean sequence;
    final long seqStart;
    final long seqEnd;
    private final double nullRate;
    private final Object[] values;
    private final Long minL;
    private final Long maxL;
    private final Double minD;
    private final Double maxD;
    private final Integer length;
    private final long maxPast;

    FieldSpec(String table, String name, DataType type, Options all) {
        this.name = name;
        this.type = type;
        String p = "fields." + name + ".";
        String where = "datagen table " + table + ", column " + name + ": ";
        String kind = all.getOrDefault("random", p + "kind").trim().toLowerCase(Locale.ROOT);
        nullRate = all.getDouble(0, p + "null-rate", p + "nullRate");
        if (nullRate < 0 || nullRate > 1) {
            throw ConfigException.ofOption(p + "null-rate",
                    where + "null-rate must be between 0 and 1, got " + nullRate);
        }
        String lengthText = all.get(p + "length");
        length = lengthText == null ? null : all.getInt(10, p + "length");
        if (length != null && length < 0) {
            throw ConfigException.ofOption(p + "length", where + "length must not be negative");
        }
        maxPast = all.getDuration(java.time.Duration.ZERO, p + "max-past", p + "maxPast").toMillis();
        String minText = all.get(p + "min");
        String maxText = all.get(p + "max");
        DataType.Kind k = type.kind();
        boolean integral = k == DataType.Kind.TINYINT || k == DataType.Kind.SMALLINT || k == DataType.Kind.INT
                || k == DataType.Kind.BIGINT;
        try {
            minL = integral && minText != null ? Long.parseLong(minText.trim()) : null;
            maxL = integral && maxText != null ? Long.parseLong(maxText.trim()) : null;
            minD = !integral && minText != null ? Double.parseDouble(minText.trim()) : null;
            maxD = !integral && maxText != null ? Double.parseDouble(maxText.trim()) : null;
        } catch (NumberFormatException e) {
            throw ConfigException.ofOption(minText != null ? p + "min" : p + "max",
                    where + "min/max must be numbers, got min=" + minText + ", max=" + maxText);
        }
        if ((minText != null || maxText != null) && !k.isNumeric()) {
            throw ConfigException.ofOption(minText != null ? p + "min" : p + "max",
                    where + "min/max apply to numeric columns only, not " + type);
        }
        String valuesText = all.get(p + "values");
        if (valuesText != null) {
            List<Object> vs = new ArrayList<>();
            for (String v : valuesText.split(",", -1)) {
                String t = k.isCharacter() ? v.strip() : v.trim();
                try {
                    vs.add(t.equalsIgnoreCase("null") && !k.isCharacter() ? null : ValueText.fromString(type, t));
                } catch (IllegalArgumentException e) {
                    throw ConfigException.ofOption(p + "values", where + "values: " + e.getMessage());
                }
            }
            values = vs.toArray();
        } else {
            values = null;
        }
        switch (kind) {
            case "random":
                sequence = false;
                seqStart = 0;
                seqEnd = 0;
                break;
            case "sequence":
                if (!k.isNumeric() && !k.isCharacter()) {
                    throw ConfigException.ofOption(p + "kind",
                            where + "kind 'sequence' needs a numeric or string column, not " + type);
                }
                sequence = true;
                String s = all.get(p + "start");
                String e = all.get(p + "end");
                if (s == null || e == null) {
                    throw new ConfigException(where + "kind 'sequence' needs both " + p + "start and " + p + "end");
                }
                try {
                    seqStart = Long.parseLong(s.trim());
                    seqEnd = Long.parseLong(e.trim());
                } catch (NumberFormatException ex) {
                    throw ConfigException.ofOption(p + "start",
                            where + "sequence start and end must be integers, got " + s + " and " + e);
                }
                if (seqEnd < seqStart) {
                    throw ConfigException.ofOption(p + "end",
                            where + "sequence end " + seqEnd + " is before start " + seqStart);
                }
                if (seqEnd - seqStart < 0 || seqEnd - seqStart == Long.MAX_VALUE) {
                    throw new ConfigException(where + "sequence range is too large");
                }
                break;
            default:
                throw ConfigException.ofOption(p + "kind",
                        where + "kind must be random or sequence, got '" + kind + "'");
        }
    }

    /** Values of the sequence (end - start + 1). */
    long sequenceLength() {
        return seqEnd - seqStart + 1;
    }

    /** A generator for one shard; {@code seqOffset} is where this shard's part of the sequence starts. */
    FieldGenerator generator(long seqOffset) {
        FieldGenerator base;
        if (sequence) {
            long first = seqStart + seqOffset;
            base = (rnd, row, now) -> sequenceValue(type, first + row);
        } else if (values != null) {
            Object[] vs = values;
            base = (rnd, row, now) -> vs[rnd.nextInt(vs.length)];
        } else {
            base = random(type, minL, maxL, minD, maxD, length, maxPast);
        }
        if (nullRate <= 0) {
            return base;
        }
        double rate = nullRate;
        return (rnd, row, now) -> {
            // draw even for nulls so a seeded stream does not shift with the null rate of other columns
            Object v = base.next(rnd, row, now);
            return rnd.nextDouble() < rate ? null : v;
        };
    }

    private static Object sequenceValue(DataType type, long v) {
        return type.kind().isNumeric() ? Numbers.fromLong(v, type) : Long.toString(v);
    }

    /** A random generator with the given bounds (nulls mean defaults); also used for nested types. */
    static FieldGenerator random(DataType type, Long minL, Long maxL, Double minD, Double maxD, Integer length,
                                 long maxPast) {
        switch (type.kind()) {
            case BOOLEAN:
                return (rnd, row, now) -> rnd.nextBoolean();
            case TINYINT:
            case SMALLINT:
            case INT:
            case BIGINT: {
                long lo = minL != null ? minL : typeMin(type);
                long hi = maxL != null ? maxL : typeMax(type);
                if (lo < typeMin(type) || hi > typeMax(type) || lo > hi) {
                    throw new ConfigException("datagen: min/max " + lo + ".." + hi + " do not fit " + type);
                }
                return (rnd, row, now) -> {
                    long v = hi - lo + 1 <= 0 ? rnd.nextLong() : lo + rnd.nextLong(hi - lo + 1);
                    return Numbers.fromLong(v, type);
                };
            }
            case FLOAT:
            case DOUBLE: {
                double lo = minD != null ? minD : 0;
                double hi = maxD != null ? maxD : Math.max(lo, 1000);
                if (lo > hi) {
                    throw new ConfigException("datagen: min " + lo + " is above max " + hi);
                }
                boolean isFloat = type.kind() == DataType.Kind.FLOAT;
                return (rnd, row, now) -> {
                    double v = lo + rnd.nextDouble() * (hi - lo);
                    return isFloat ? (Object) (float) v : (Object) v;
                };
            }
            case DECIMAL: {
                double limit = Math.pow(10, type.precision() - type.scale()) - Math.pow(10, -type.scale());
                double lo = minD != null ? minD : 0;
                double hi = maxD != null ? maxD : Math.min(1000, limit);
                if (lo > hi || hi > limit || lo < -limit) {
                    throw new ConfigException("datagen: min/max " + lo + ".." + hi + " do not fit " + type);
                }
                int scale = type.scale();
                return (rnd, row, now) -> {
                    BigDecimal v = BigDecimal.valueOf(lo + rnd.nextDouble() * (hi - lo)).setScale(scale, RoundingMode.HALF_UP);
                    return v.doubleValue() > hi ? BigDecimal.valueOf(hi).setScale(scale, RoundingMode.DOWN) : v;
                };
            }
            case CHAR:
            case VARCHAR: {
                int declared = type.precision();
                int len = length != null ? length : type.kind() == DataType.Kind.CHAR ? declared : 10;
                int n = Math.min(len, declared);
                return (rnd, row, now) -> {
                    char[] c = new char[n];
                    for (int i = 0; i < n; i++) {
                        c[i] = ALPHANUMERIC[rnd.nextInt(ALPHANUMERIC.length)];
                    }
                    return new String(c);
                };
            }
            case BINARY:
            case VARBINARY: {
                int declared = type.precision();
                int len = length != null ? length : type.kind() == DataType.Kind.BINARY ? declared : 10;
                int n = Math.min(len, declared);
                return (rnd, row, now) -> {
                    byte[] b = new byte[n];
                    for (int i = 0; i < n; i++) {
                        b[i] = (byte) rnd.nextInt(256);
                    }
                    return b;
                };
            }
            case DATE:
                return (rnd, row, now) -> (int) Math.floorDiv(now - lag(rnd, maxPast), MILLIS_PER_DAY);
            case TIME:
                return (rnd, row, now) -> (int) Math.floorMod(now - lag(rnd, maxPast), MILLIS_PER_DAY);
            case TIMESTAMP:
            case TIMESTAMP_LTZ:
                return (rnd, row, now) -> now - lag(rnd, maxPast);
            case ARRAY:
            case MULTISET: {
                FieldGenerator element = random(type.elementType(), null, null, null, null, null, maxPast);
                int n = length != null ? length : 3;
                return (rnd, row, now) -> {
                    List<Object> l = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        l.add(element.next(rnd, row, now));
                    }
                    return l;
                };
            }
            case MAP: {
                FieldGenerator key = random(type.keyType(), null, null, null, null, null, maxPast);
                FieldGenerator value = random(type.valueType(), null, null, null, null, null, maxPast);
                int n = length != null ? length : 3;
                return (rnd, row, now) -> {
                    Map<Object, Object> m = new LinkedHashMap<>();
                    for (int i = 0; i < n; i++) {
                        m.put(key.next(rnd, row, now), value.next(rnd, row, now));
                    }
                    return m;
                };
            }
            case ROW: {
                List<DataType> types = type.fieldTypes();
                FieldGenerator[] fields = new FieldGenerator[types.size()];
                for (int i = 0; i < fields.length; i++) {
                    fields[i] = random(types.get(i), null, null, null, null, null, maxPast);
                }
                return (rnd, row, now) -> {
                    Object[] r = new Object[fields.length];
                    for (int i = 0; i < r.length; i++) {
                        r[i] = fields[i].next(rnd, row, now);
                    }
                    return r;
                };
            }
            default:
                return (rnd, row, now) -> null;
        }
    }

    private static long lag(java.util.SplittableRandom rnd, long maxPast) {
        return maxPast <= 0 ? 0 : rnd.nextLong(maxPast + 1);
    }

    private static long typeMin(DataType t) {
        switch (t.kind()) {
            case TINYINT:
                return Byte.MIN_VALUE;
            case SMALLINT:
                return Short.MIN_VALUE;
            case INT:
                return Integer.MIN_VALUE;
            default:
                return Long.MIN_VALUE;
        }
    }

    private static long typeMax(DataType t) {
        switch (t.kind()) {
            case TINYINT:
                return Byte.MAX_VALUE;
            case SMALLINT:
                return Short.MAX_VALUE;
            case INT:
                return Integer.MAX_VALUE;
            default:
                return Long.MAX_VALUE;
        }
    }

    /** Checks that every {@code fields.<name>.} option names a column. */
    static void checkFieldNames(String table, Options all, List<String> columns) {
        Map<String, String> lower = new HashMap<>();
        columns.forEach(c -> lower.put(c.toLowerCase(Locale.ROOT), c));
        for (String key : all.asMap().keySet()) {
            String k = key.toLowerCase(Locale.ROOT);
            if (!k.startsWith("fields.")) {
                continue;
            }
            boolean known = false;
            for (String c : lower.keySet()) {
                if (k.startsWith("fields." + c + ".")) {
                    known = true;
                    break;
                }
            }
            if (!known) {
                throw ConfigException.ofOption(key,
                        "datagen table " + table + ": option '" + key + "' names no column; columns: "
                        + columns);
            }
        }
    }
}
