package dev.rsql.planner.functions.udf;

import dev.rsql.runtime.state.TypeSerializer;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Stores a UDAF's accumulator (Blink: "a POJO with public fields") as bytes for the aggregation state, and reads it
 * back. Values are written with a type tag: primitives and their boxes, strings, decimals, byte arrays, dates and
 * times, lists, sets, maps, arrays, enums, and POJOs field by field (every non-static, non-transient field, private
 * ones included; the class needs a constructor without arguments, of any visibility). Anything else that is
 * {@link Serializable} falls back to Java serialization. Classes are resolved with the function's class loader.
 * Immutable and thread-safe.
 */
public final class AccumulatorSerializer implements TypeSerializer<Object> {

    private static final byte NULL = 0;
    private static final byte BOOLEAN = 1;
    private static final byte BYTE = 2;
    private static final byte SHORT = 3;
    private static final byte INT = 4;
    private static final byte LONG = 5;
    private static final byte FLOAT = 6;
    private static final byte DOUBLE = 7;
    private static final byte CHAR = 8;
    private static final byte STRING = 9;
    private static final byte DECIMAL = 10;
    private static final byte BIG_INTEGER = 11;
    private static final byte BYTES = 12;
    private static final byte SQL_TIMESTAMP = 13;
    private static final byte SQL_DATE = 14;
    private static final byte SQL_TIME = 15;
    private static final byte UTIL_DATE = 16;
    private static final byte COLLECTION = 17;
    private static final byte MAP = 18;
    private static final byte ARRAY = 19;
    private static final byte ENUM = 20;
    private static final byte POJO = 21;
    private static final byte JAVA = 22;

    private final ClassLoader loader;
    private final Map<Class<?>, List<Field>> fields = new ConcurrentHashMap<>();

    public AccumulatorSerializer(ClassLoader loader) {
        this.loader = loader;
    }

    @Override
    public byte[] serialize(Object value) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            write(out, value, 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    @Override
    public Object deserialize(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            return read(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read an accumulator: " + e.getMessage(), e);
        }
    }

    private void write(DataOutputStream out, Object v, int depth) throws IOException {
        if (depth > 100) {
            throw new IllegalArgumentException("accumulator nests more than 100 levels deep (a cycle?)");
        }
        if (v == null) {
            out.writeByte(NULL);
        } else if (v instanceof Boolean) {
            out.writeByte(BOOLEAN);
            out.writeBoolean((Boolean) v);
        } else if (v instanceof Byte) {
            out.writeByte(BYTE);
            out.writeByte((Byte) v);
        } else if (v instanceof Short) {
            out.writeByte(SHORT);
            out.writeShort((Short) v);
        } else if (v instanceof Integer) {
            out.writeByte(INT);
            out.writeInt((Integer) v);
        } else if (v instanceof Long) {
            out.writeByte(LONG);
            out.writeLong((Long) v);
        } else if (v instanceof Float) {
            out.writeByte(FLOAT);
            out.writeFloat((Float) v);
        } else if (v instanceof Double) {
            out.writeByte(DOUBLE);
            out.writeDouble((Double) v);
        } else if (v instanceof Character) {
            out.writeByte(CHAR);
            out.writeChar((Character) v);
        } else if (v instanceof String) {
            out.writeByte(STRING);
            writeString(out, (String) v);
        } else if (v instanceof BigDecimal) {
            out.writeByte(DECIMAL);
            writeString(out, v.toString());
        } else if (v instanceof BigInteger) {
            out.writeByte(BIG_INTEGER);
            writeString(out, v.toString());
        } else if (v instanceof byte[]) {
            out.writeByte(BYTES);
            out.writeInt(((byte[]) v).length);
            out.write((byte[]) v);
        } else if (v instanceof java.sql.Timestamp) {
            out.writeByte(SQL_TIMESTAMP);
            out.writeLong(((java.sql.Timestamp) v).getTime());
            out.writeInt(((java.sql.Timestamp) v).getNanos());
        } else if (v instanceof java.sql.Date) {
            out.writeByte(SQL_DATE);
            out.writeLong(((java.sql.Date) v).getTime());
        } else if (v instanceof java.sql.Time) {
            out.writeByte(SQL_TIME);
            out.writeLong(((java.sql.Time) v).getTime());
        } else if (v.getClass() == java.util.Date.class) {
            out.writeByte(UTIL_DATE);
            out.writeLong(((java.util.Date) v).getTime());
        } else if (v instanceof Collection && hasNoArgConstructor(v.getClass())) {
            out.writeByte(COLLECTION);
            writeString(out, v.getClass().getName());
            Collection<?> c = (Collection<?>) v;
            out.writeInt(c.size());
            for (Object e : c) {
                write(out, e, depth + 1);
            }
        } else if (v instanceof Map && hasNoArgConstructor(v.getClass())) {
            out.writeByte(MAP);
            writeString(out, v.getClass().getName());
            Map<?, ?> m = (Map<?, ?>) v;
            out.writeInt(m.size());
            for (Map.Entry<?, ?> e : m.entrySet()) {
                write(out, e.getKey(), depth + 1);
                write(out, e.getValue(), depth + 1);
            }
        } else if (v.getClass().isArray()) {
            out.writeByte(ARRAY);
            writeString(out, v.getClass().getComponentType().getName());
            int n = Array.getLength(v);
            out.writeInt(n);
            for (int i = 0; i < n; i++) {
                write(out, Array.get(v, i), depth + 1);
            }
        } else if (v instanceof Enum) {
            out.writeByte(ENUM);
            writeString(out, ((Enum<?>) v).getDeclaringClass().getName());
            writeString(out, ((Enum<?>) v).name());
        } else if (isPojo(v.getClass())) {
            out.writeByte(POJO);
            writeString(out, v.getClass().getName());
            for (Field f : fieldsOf(v.getClass())) {
                try {
                    write(out, f.get(v), depth + 1);
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException("cannot read field " + f + " of an accumulator", e);
                }
            }
        } else if (v instanceof Serializable) {
            out.writeByte(JAVA);
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            try (ObjectOutputStream o = new ObjectOutputStream(b)) {
                o.writeObject(v);
            }
            out.writeInt(b.size());
            out.write(b.toByteArray());
        } else {
            throw new IllegalArgumentException("cannot store an accumulator value of " + v.getClass().getName()
                    + ": give it a constructor without arguments or make it Serializable");
        }
    }

    private Object read(DataInputStream in) throws IOException {
        byte tag = in.readByte();
        switch (tag) {
            case NULL:
                return null;
            case BOOLEAN:
                return in.readBoolean();
            case BYTE:
                return in.readByte();
            case SHORT:
                return in.readShort();
            case INT:
                return in.readInt();
            case LONG:
                return in.readLong();
            case FLOAT:
                return in.readFloat();
            case DOUBLE:
                return in.readDouble();
            case CHAR:
                return in.readChar();
            case STRING:
                return readString(in);
            case DECIMAL:
                return new BigDecimal(readString(in));
            case BIG_INTEGER:
                return new BigInteger(readString(in));
            case BYTES: {
                byte[] b = new byte[in.readInt()];
                in.readFully(b);
                return b;
            }
            case SQL_TIMESTAMP: {
                java.sql.Timestamp t = new java.sql.Timestamp(in.readLong());
                t.setNanos(in.readInt());
                return t;
            }
            case SQL_DATE:
                return new java.sql.Date(in.readLong());
            case SQL_TIME:
                return new java.sql.Time(in.readLong());
            case UTIL_DATE:
                return new java.util.Date(in.readLong());
            case COLLECTION: {
                @SuppressWarnings("unchecked")
                Collection<Object> c = (Collection<Object>) newInstance(load(readString(in)));
                int n = in.readInt();
                for (int i = 0; i < n; i++) {
                    c.add(read(in));
                }
                return c;
            }
            case MAP: {
                @SuppressWarnings("unchecked")
                Map<Object, Object> m = (Map<Object, Object>) newInstance(load(readString(in)));
                int n = in.readInt();
                for (int i = 0; i < n; i++) {
                    Object k = read(in);
                    m.put(k, read(in));
                }
                return m;
            }
            case ARRAY: {
                Class<?> component = primitiveOrLoad(readString(in));
                int n = in.readInt();
                Object a = Array.newInstance(component, n);
                for (int i = 0; i < n; i++) {
                    Array.set(a, i, read(in));
                }
                return a;
            }
            case ENUM: {
                Class<?> e = load(readString(in));
                String name = readString(in);
                for (Object constant : e.getEnumConstants()) {
                    if (((Enum<?>) constant).name().equals(name)) {
                        return constant;
                    }
                }
                throw new IOException("enum " + e.getName() + " has no constant " + name);
            }
            case POJO: {
                Class<?> c = load(readString(in));
                Object o = newInstance(c);
                for (Field f : fieldsOf(c)) {
                    Object v = read(in);
                    try {
                        if (v != null || !f.getType().isPrimitive()) {
                            f.set(o, v);
                        }
                    } catch (IllegalAccessException | IllegalArgumentException e) {
                        throw new IOException("cannot set field " + f + " of an accumulator: " + e.getMessage(), e);
                    }
                }
                return o;
            }
            case JAVA: {
                byte[] b = new byte[in.readInt()];
                in.readFully(b);
                try (ObjectInputStream o = new ObjectInputStream(new ByteArrayInputStream(b)) {
                    @Override
                    protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
                        try {
                            return Class.forName(desc.getName(), false, loader);
                        } catch (ClassNotFoundException e) {
                            return super.resolveClass(desc);
                        }
                    }
                }) {
                    return o.readObject();
                } catch (ClassNotFoundException e) {
                    throw new IOException(e);
                }
            }
            default:
                throw new IOException("unknown accumulator value tag " + tag);
        }
    }

    private static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    private static String readString(DataInputStream in) throws IOException {
        byte[] b = new byte[in.readInt()];
        in.readFully(b);
        return new String(b, java.nio.charset.StandardCharsets.UTF_8);
    }

    private Class<?> load(String name) throws IOException {
        try {
            return Class.forName(name, false, loader);
        } catch (ClassNotFoundException e) {
            throw new IOException("accumulator class " + name + " not found", e);
        }
    }

    private Class<?> primitiveOrLoad(String name) throws IOException {
        switch (name) {
            case "int": return int.class;
            case "long": return long.class;
            case "double": return double.class;
            case "float": return float.class;
            case "short": return short.class;
            case "byte": return byte.class;
            case "char": return char.class;
            case "boolean": return boolean.class;
            default: return load(name);
        }
    }

    private static boolean hasNoArgConstructor(Class<?> c) {
        try {
            c.getDeclaredConstructor();
            return !c.getName().startsWith("java.util.Collections$") && !c.getName().startsWith("java.util.ImmutableCollections");
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /** A class written field by field: has a no-argument constructor and is not a JDK class. */
    private static boolean isPojo(Class<?> c) {
        if (c.getName().startsWith("java.") || c.getName().startsWith("javax.") || c.isSynthetic()) {
            return false;
        }
        return hasNoArgConstructor(c);
    }

    private static Object newInstance(Class<?> c) throws IOException {
        try {
            Constructor<?> k = c.getDeclaredConstructor();
            k.setAccessible(true);
            return k.newInstance();
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IOException("cannot create " + c.getName() + ": " + e, e);
        }
    }

    private List<Field> fieldsOf(Class<?> c) {
        return fields.computeIfAbsent(c, k -> {
            List<Field> all = new ArrayList<>();
            List<Class<?>> chain = new ArrayList<>();
            for (Class<?> x = k; x != null && x != Object.class; x = x.getSuperclass()) {
                chain.add(0, x);
            }
            for (Class<?> x : chain) {
                List<Field> own = new ArrayList<>();
                for (Field f : x.getDeclaredFields()) {
                    int mod = f.getModifiers();
                    if (Modifier.isStatic(mod) || Modifier.isTransient(mod) || f.isSynthetic()) {
                        continue;
                    }
                    f.setAccessible(true);
                    own.add(f);
                }
                own.sort(Comparator.comparing(Field::getName));
                all.addAll(own);
            }
            return List.copyOf(all);
        });
    }
}
