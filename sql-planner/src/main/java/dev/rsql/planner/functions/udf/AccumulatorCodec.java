package dev.rsql.planner.functions.udf;

import dev.rsql.runtime.state.ByteReader;
import dev.rsql.runtime.state.ByteWriter;
import dev.rsql.runtime.state.StateException;

import java.io.Serializable;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Queue;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Writes and reads one declared type of an accumulator: the tree of codecs is built once, at plan time, from the
 * accumulator class and the declared (generic) types of its fields, so that the bytes carry values only, never a
 * class name. Supported: primitives and their boxes, strings, decimals, byte arrays, SQL dates and times, enums,
 * arrays, collections and maps (their element types from the declaration), and POJOs field by field (every
 * non-static, non-transient field; a constructor without arguments of any visibility). A field declared
 * {@code Object} (or an interface, or a type variable) holds one of a fixed set of JDK value types, tagged. A
 * {@link Serializable} class that fits none of these is Java-serialized, read back through an allow-list
 * ({@link FilteredObjectInput}) of that class and JDK value types.
 *
 * <p>Reading checks every count against the bytes left and nesting against {@link #MAX_DEPTH}: malformed bytes give a
 * {@link StateException}, never a huge allocation.
 */
abstract class AccumulatorCodec {

    /** Deepest nesting written or read: deeper is a cycle when writing and corruption when reading. */
    static final int MAX_DEPTH = 100;

    abstract void write(ByteWriter out, Object v, int depth);

    abstract Object read(ByteReader in, int depth);

    /** The codec of values declared as {@code type}; IllegalArgumentException when such values cannot be stored. */
    static AccumulatorCodec of(Type type) {
        return new Builder().codec(type, "the accumulator");
    }

    static void checkDepth(int depth) {
        if (depth > MAX_DEPTH) {
            throw new StateException("accumulator bytes nest more than " + MAX_DEPTH + " levels deep");
        }
    }

    static void writeString(ByteWriter out, String s) {
        out.writeLengthPrefixed(s.getBytes(StandardCharsets.UTF_8));
    }

    /** Builds the codecs of one accumulator class; a POJO type seen again (a recursive type) shares its codec. */
    private static final class Builder {

        private final Map<Type, AccumulatorCodec> pojos = new HashMap<>();

        AccumulatorCodec codec(Type type, String where) {
            Class<?> raw = UserTypes.raw(type);
            if (type instanceof TypeVariable || raw == null || raw == Object.class) {
                return DynamicCodec.INSTANCE;
            }
            if (raw.isPrimitive()) {
                return Scalar.primitive(raw);
            }
            Scalar scalar = Scalar.of(raw);
            if (scalar != null) {
                return new Nullable(scalar.codec());
            }
            if (raw.isArray()) {
                Type component = type instanceof GenericArrayType g ? g.getGenericComponentType()
                        : raw.getComponentType();
                return new Nullable(new ArrayCodec(raw.getComponentType(), codec(component, where + "[]")));
            }
            if (raw.isEnum()) {
                return new Nullable(new EnumCodec(raw));
            }
            if (Collection.class.isAssignableFrom(raw)) {
                Supplier<Collection<Object>> factory = collectionFactory(raw);
                if (factory != null) {
                    return new Nullable(new CollectionCodec(factory,
                            codec(typeArgument(type, 0), where + " element")));
                }
            } else if (Map.class.isAssignableFrom(raw)) {
                Supplier<Map<Object, Object>> factory = mapFactory(raw);
                if (factory != null) {
                    return new Nullable(new MapCodec(factory, codec(typeArgument(type, 0), where + " key"),
                            codec(typeArgument(type, 1), where + " value")));
                }
            } else if (isPojo(raw)) {
                return pojo(type, raw);
            }
            if (Serializable.class.isAssignableFrom(raw) && isConcrete(raw)) {
                return new Nullable(new JavaSerialized(raw));
            }
            if (!isConcrete(raw)) {
                return DynamicCodec.INSTANCE; // an interface or abstract class: a JDK value type or nothing
            }
            throw new IllegalArgumentException(where + " has type " + raw.getName() + ", which cannot be stored"
                    + " in state: give it a constructor without arguments or make it Serializable");
        }

        private AccumulatorCodec pojo(Type type, Class<?> raw) {
            AccumulatorCodec known = pojos.get(type);
            if (known != null) {
                return known;
            }
            PojoCodec pojo = new PojoCodec(constructor(raw));
            Nullable codec = new Nullable(pojo);
            pojos.put(type, codec);
            Map<TypeVariable<?>, Type> bindings = new HashMap<>();
            if (type instanceof ParameterizedType p) {
                TypeVariable<?>[] vars = raw.getTypeParameters();
                for (int i = 0; i < vars.length; i++) {
                    bindings.put(vars[i], p.getActualTypeArguments()[i]);
                }
            }
            List<Field> fields = fieldsOf(raw);
            AccumulatorCodec[] codecs = new AccumulatorCodec[fields.size()];
            for (int i = 0; i < codecs.length; i++) {
                Field f = fields.get(i);
                Type declared = f.getGenericType();
                codecs[i] = codec(bindings.getOrDefault(declared, declared),
                        "field " + f.getName() + " of " + raw.getName());
            }
            pojo.init(raw, fields, codecs);
            return codec;
        }
    }

    private static Type typeArgument(Type type, int index) {
        if (type instanceof ParameterizedType p && p.getActualTypeArguments().length > index) {
            return p.getActualTypeArguments()[index];
        }
        return Object.class;
    }

    private static boolean isConcrete(Class<?> c) {
        return !c.isInterface() && !Modifier.isAbstract(c.getModifiers());
    }

    /** A class written field by field: concrete, with a constructor without arguments, and not a JDK class. */
    private static boolean isPojo(Class<?> c) {
        if (c.getName().startsWith("java.") || c.getName().startsWith("javax.") || c.isSynthetic()
                || !isConcrete(c)) {
            return false;
        }
        try {
            c.getDeclaredConstructor();
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    private static Constructor<?> constructor(Class<?> c) {
        try {
            Constructor<?> k = c.getDeclaredConstructor();
            k.setAccessible(true);
            return k;
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException(c.getName() + " has no constructor without arguments", e);
        }
    }

    /** Declared interfaces get the usual JDK class; a concrete declared class is created itself. */
    @SuppressWarnings("unchecked")
    private static Supplier<Collection<Object>> collectionFactory(Class<?> c) {
        if (c == Collection.class || c == List.class || c == Iterable.class) {
            return ArrayList::new;
        }
        if (c == Set.class) {
            return HashSet::new;
        }
        if (c == SortedSet.class || c == NavigableSet.class) {
            return TreeSet::new;
        }
        if (Queue.class.isAssignableFrom(c) && c.isInterface()) {
            return ArrayDeque::new;
        }
        if (!isConcrete(c) || c.getName().startsWith("java.util.Collections$")
                || c.getName().startsWith("java.util.ImmutableCollections")) {
            return null;
        }
        try {
            Constructor<?> k = c.getConstructor();
            return () -> (Collection<Object>) newInstance(k);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    @SuppressWarnings("unchecked")
    private static Supplier<Map<Object, Object>> mapFactory(Class<?> c) {
        if (c == Map.class) {
            return HashMap::new;
        }
        if (c == SortedMap.class || c == NavigableMap.class) {
            return TreeMap::new;
        }
        if (!isConcrete(c) || c.getName().startsWith("java.util.Collections$")
                || c.getName().startsWith("java.util.ImmutableCollections")) {
            return null;
        }
        try {
            Constructor<?> k = c.getConstructor();
            return () -> (Map<Object, Object>) newInstance(k);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    private static Object newInstance(Constructor<?> k) {
        try {
            return k.newInstance();
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new StateException("cannot create " + k.getDeclaringClass().getName() + ": " + e, e);
        }
    }

    private static List<Field> fieldsOf(Class<?> c) {
        List<Field> all = new ArrayList<>();
        List<Class<?>> chain = new ArrayList<>();
        for (Class<?> x = c; x != null && x != Object.class; x = x.getSuperclass()) {
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
    }

    // ---- codecs ----------------------------------------------------------------------------------------------------

    /** A reference: one byte, 0 for null, 1 before the value. */
    private static final class Nullable extends AccumulatorCodec {
        private final AccumulatorCodec value;

        Nullable(AccumulatorCodec value) {
            this.value = value;
        }

        @Override
        void write(ByteWriter out, Object v, int depth) {
            if (v == null) {
                out.writeByte(0);
            } else {
                out.writeByte(1);
                value.write(out, v, depth);
            }
        }

        @Override
        Object read(ByteReader in, int depth) {
            byte present = in.readByte();
            if (present == 0) {
                return null;
            }
            if (present != 1) {
                throw new StateException("accumulator bytes hold " + present + " where a null marker belongs");
            }
            return value.read(in, depth);
        }
    }

    /** Values of a fixed JDK class without nested values (no null marker: see {@link Nullable}). */
    enum Scalar {
        BOOLEAN {
            void put(ByteWriter out, Object v) {
                out.writeByte((Boolean) v ? 1 : 0);
            }

            Object get(ByteReader in) {
                return in.readByte() != 0;
            }
        },
        BYTE {
            void put(ByteWriter out, Object v) {
                out.writeByte((Byte) v);
            }

            Object get(ByteReader in) {
                return in.readByte();
            }
        },
        SHORT {
            void put(ByteWriter out, Object v) {
                out.writeShort((Short) v);
            }

            Object get(ByteReader in) {
                return in.readShort();
            }
        },
        INT {
            void put(ByteWriter out, Object v) {
                out.writeInt((Integer) v);
            }

            Object get(ByteReader in) {
                return in.readInt();
            }
        },
        LONG {
            void put(ByteWriter out, Object v) {
                out.writeLong((Long) v);
            }

            Object get(ByteReader in) {
                return in.readLong();
            }
        },
        FLOAT {
            void put(ByteWriter out, Object v) {
                out.writeInt(Float.floatToRawIntBits((Float) v));
            }

            Object get(ByteReader in) {
                return Float.intBitsToFloat(in.readInt());
            }
        },
        DOUBLE {
            void put(ByteWriter out, Object v) {
                out.writeLong(Double.doubleToRawLongBits((Double) v));
            }

            Object get(ByteReader in) {
                return Double.longBitsToDouble(in.readLong());
            }
        },
        CHAR {
            void put(ByteWriter out, Object v) {
                out.writeShort((Character) v);
            }

            Object get(ByteReader in) {
                return (char) in.readShort();
            }
        },
        STRING {
            void put(ByteWriter out, Object v) {
                writeString(out, (String) v);
            }

            Object get(ByteReader in) {
                return in.readUtf8();
            }
        },
        DECIMAL {
            void put(ByteWriter out, Object v) {
                BigDecimal d = (BigDecimal) v;
                out.writeVarInt(d.scale());
                out.writeLengthPrefixed(d.unscaledValue().toByteArray());
            }

            Object get(ByteReader in) {
                int scale = in.readVarInt();
                return new BigDecimal(bigInteger(in.readLengthPrefixed()), scale);
            }
        },
        BIG_INTEGER {
            void put(ByteWriter out, Object v) {
                out.writeLengthPrefixed(((BigInteger) v).toByteArray());
            }

            Object get(ByteReader in) {
                return bigInteger(in.readLengthPrefixed());
            }
        },
        BYTES {
            void put(ByteWriter out, Object v) {
                out.writeLengthPrefixed((byte[]) v);
            }

            Object get(ByteReader in) {
                return in.readLengthPrefixed();
            }
        },
        SQL_TIMESTAMP {
            void put(ByteWriter out, Object v) {
                out.writeLong(((java.sql.Timestamp) v).getTime());
                out.writeInt(((java.sql.Timestamp) v).getNanos());
            }

            Object get(ByteReader in) {
                java.sql.Timestamp t = new java.sql.Timestamp(in.readLong());
                int nanos = in.readInt();
                if (nanos < 0 || nanos > 999_999_999) {
                    throw new StateException("accumulator bytes hold a timestamp with " + nanos + " nanoseconds");
                }
                t.setNanos(nanos);
                return t;
            }
        },
        SQL_DATE {
            void put(ByteWriter out, Object v) {
                out.writeLong(((java.util.Date) v).getTime());
            }

            Object get(ByteReader in) {
                return new java.sql.Date(in.readLong());
            }
        },
        SQL_TIME {
            void put(ByteWriter out, Object v) {
                out.writeLong(((java.util.Date) v).getTime());
            }

            Object get(ByteReader in) {
                return new java.sql.Time(in.readLong());
            }
        },
        UTIL_DATE {
            void put(ByteWriter out, Object v) {
                out.writeLong(((java.util.Date) v).getTime());
            }

            Object get(ByteReader in) {
                return new java.util.Date(in.readLong());
            }
        };

        abstract void put(ByteWriter out, Object v);

        abstract Object get(ByteReader in);

        private static BigInteger bigInteger(byte[] b) {
            if (b.length == 0) {
                throw new StateException("accumulator bytes hold an empty number");
            }
            return new BigInteger(b);
        }

        /** The scalar of exactly this class (boxes included), or null. */
        static Scalar of(Class<?> c) {
            if (c == Boolean.class) return BOOLEAN;
            if (c == Byte.class) return BYTE;
            if (c == Short.class) return SHORT;
            if (c == Integer.class) return INT;
            if (c == Long.class) return LONG;
            if (c == Float.class) return FLOAT;
            if (c == Double.class) return DOUBLE;
            if (c == Character.class) return CHAR;
            if (c == String.class) return STRING;
            if (c == BigDecimal.class) return DECIMAL;
            if (c == BigInteger.class) return BIG_INTEGER;
            if (c == byte[].class) return BYTES;
            if (c == java.sql.Timestamp.class) return SQL_TIMESTAMP;
            if (c == java.sql.Date.class) return SQL_DATE;
            if (c == java.sql.Time.class) return SQL_TIME;
            if (c == java.util.Date.class) return UTIL_DATE;
            return null;
        }

        static AccumulatorCodec primitive(Class<?> c) {
            return of(c == int.class ? Integer.class : c == long.class ? Long.class
                    : c == double.class ? Double.class : c == float.class ? Float.class
                    : c == short.class ? Short.class : c == byte.class ? Byte.class
                    : c == char.class ? Character.class : Boolean.class).codec();
        }

        /** This scalar as a codec of non-null values. */
        AccumulatorCodec codec() {
            Scalar s = this;
            return new AccumulatorCodec() {
                @Override
                void write(ByteWriter out, Object v, int depth) {
                    s.put(out, v);
                }

                @Override
                Object read(ByteReader in, int depth) {
                    return s.get(in);
                }
            };
        }
    }

    /** Values typed only at run time (a field declared Object): a tag, then a JDK value type. */
    private static final class DynamicCodec extends AccumulatorCodec {
        static final DynamicCodec INSTANCE = new DynamicCodec();
        private static final Scalar[] SCALARS = Scalar.values();
        private static final int NULL = 0;
        private static final int LIST = 100;
        private static final int SET = 101;
        private static final int MAP = 102;

        @Override
        void write(ByteWriter out, Object v, int depth) {
            if (depth > MAX_DEPTH) {
                throw new IllegalArgumentException("an accumulator nests more than " + MAX_DEPTH
                        + " levels deep (a cycle?)");
            }
            if (v == null) {
                out.writeByte(NULL);
                return;
            }
            Scalar s = Scalar.of(v.getClass());
            if (s != null) {
                out.writeByte(s.ordinal() + 1);
                s.put(out, v);
            } else if (v instanceof List<?> l) {
                out.writeByte(LIST);
                writeAll(out, l, depth);
            } else if (v instanceof Set<?> set) {
                out.writeByte(SET);
                writeAll(out, set, depth);
            } else if (v instanceof Map<?, ?> m) {
                out.writeByte(MAP);
                out.writeVarInt(m.size());
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    write(out, e.getKey(), depth + 1);
                    write(out, e.getValue(), depth + 1);
                }
            } else {
                throw new IllegalArgumentException("an accumulator value declared as Object or an interface holds a "
                        + v.getClass().getName() + ": only JDK value types, lists, sets and maps can be stored"
                        + " there; declare the field with its class");
            }
        }

        private void writeAll(ByteWriter out, Collection<?> c, int depth) {
            out.writeVarInt(c.size());
            for (Object e : c) {
                write(out, e, depth + 1);
            }
        }

        @Override
        Object read(ByteReader in, int depth) {
            checkDepth(depth);
            int tag = in.readByte() & 0xff;
            switch (tag) {
                case NULL:
                    return null;
                case LIST:
                case SET: {
                    int n = in.readCount();
                    Collection<Object> c = tag == LIST ? new ArrayList<>(n) : new HashSet<>();
                    for (int i = 0; i < n; i++) {
                        c.add(read(in, depth + 1));
                    }
                    return c;
                }
                case MAP: {
                    int n = in.readCount();
                    Map<Object, Object> m = new HashMap<>();
                    for (int i = 0; i < n; i++) {
                        Object k = read(in, depth + 1);
                        m.put(k, read(in, depth + 1));
                    }
                    return m;
                }
                default:
                    if (tag > SCALARS.length) {
                        throw new StateException("accumulator bytes hold an unknown value tag " + tag);
                    }
                    return SCALARS[tag - 1].get(in);
            }
        }
    }

    private static final class ArrayCodec extends AccumulatorCodec {
        private final Class<?> component;
        private final AccumulatorCodec elements;

        ArrayCodec(Class<?> component, AccumulatorCodec elements) {
            this.component = component;
            this.elements = elements;
        }

        @Override
        void write(ByteWriter out, Object v, int depth) {
            int n = Array.getLength(v);
            out.writeVarInt(n);
            for (int i = 0; i < n; i++) {
                elements.write(out, Array.get(v, i), depth + 1);
            }
        }

        @Override
        Object read(ByteReader in, int depth) {
            checkDepth(depth);
            int n = in.readCount();
            Object a = Array.newInstance(component, n);
            for (int i = 0; i < n; i++) {
                Array.set(a, i, elements.read(in, depth + 1));
            }
            return a;
        }
    }

    private static final class EnumCodec extends AccumulatorCodec {
        private final Object[] constants;

        EnumCodec(Class<?> type) {
            this.constants = type.getEnumConstants();
        }

        @Override
        void write(ByteWriter out, Object v, int depth) {
            writeString(out, ((Enum<?>) v).name());
        }

        @Override
        Object read(ByteReader in, int depth) {
            String name = in.readUtf8();
            for (Object c : constants) {
                if (((Enum<?>) c).name().equals(name)) {
                    return c;
                }
            }
            throw new StateException("accumulator bytes name an enum constant " + name + " that "
                    + constants.getClass().getComponentType().getName() + " does not have");
        }
    }

    private static final class CollectionCodec extends AccumulatorCodec {
        private final Supplier<Collection<Object>> factory;
        private final AccumulatorCodec elements;

        CollectionCodec(Supplier<Collection<Object>> factory, AccumulatorCodec elements) {
            this.factory = factory;
            this.elements = elements;
        }

        @Override
        void write(ByteWriter out, Object v, int depth) {
            Collection<?> c = (Collection<?>) v;
            out.writeVarInt(c.size());
            for (Object e : c) {
                elements.write(out, e, depth + 1);
            }
        }

        @Override
        Object read(ByteReader in, int depth) {
            checkDepth(depth);
            int n = in.readCount();
            Collection<Object> c = factory.get();
            for (int i = 0; i < n; i++) {
                c.add(elements.read(in, depth + 1));
            }
            return c;
        }
    }

    private static final class MapCodec extends AccumulatorCodec {
        private final Supplier<Map<Object, Object>> factory;
        private final AccumulatorCodec keys;
        private final AccumulatorCodec values;

        MapCodec(Supplier<Map<Object, Object>> factory, AccumulatorCodec keys, AccumulatorCodec values) {
            this.factory = factory;
            this.keys = keys;
            this.values = values;
        }

        @Override
        void write(ByteWriter out, Object v, int depth) {
            Map<?, ?> m = (Map<?, ?>) v;
            out.writeVarInt(m.size());
            for (Map.Entry<?, ?> e : m.entrySet()) {
                keys.write(out, e.getKey(), depth + 1);
                values.write(out, e.getValue(), depth + 1);
            }
        }

        @Override
        Object read(ByteReader in, int depth) {
            checkDepth(depth);
            int n = in.readCount();
            Map<Object, Object> m = factory.get();
            for (int i = 0; i < n; i++) {
                Object k = keys.read(in, depth + 1);
                m.put(k, values.read(in, depth + 1));
            }
            return m;
        }
    }

    /** A POJO of one declared class, field by field; its fields are set after construction (recursive types). */
    private static final class PojoCodec extends AccumulatorCodec {
        private final Constructor<?> constructor;
        private Class<?> type;
        private Field[] fields;
        private AccumulatorCodec[] codecs;

        PojoCodec(Constructor<?> constructor) {
            this.constructor = constructor;
        }

        void init(Class<?> type, List<Field> fields, AccumulatorCodec[] codecs) {
            this.type = type;
            this.fields = fields.toArray(new Field[0]);
            this.codecs = codecs;
        }

        @Override
        void write(ByteWriter out, Object v, int depth) {
            if (depth > MAX_DEPTH) {
                throw new IllegalArgumentException("an accumulator nests more than " + MAX_DEPTH
                        + " levels deep (a cycle?)");
            }
            if (v.getClass() != type) {
                throw new IllegalArgumentException("an accumulator value declared as " + type.getName() + " is a "
                        + v.getClass().getName() + ": state stores the declared class only");
            }
            for (int i = 0; i < fields.length; i++) {
                try {
                    codecs[i].write(out, fields[i].get(v), depth + 1);
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException("cannot read field " + fields[i] + " of an accumulator", e);
                }
            }
        }

        @Override
        Object read(ByteReader in, int depth) {
            checkDepth(depth);
            Object o = newInstance(constructor);
            for (int i = 0; i < fields.length; i++) {
                Object v = codecs[i].read(in, depth + 1);
                try {
                    if (v != null || !fields[i].getType().isPrimitive()) {
                        fields[i].set(o, v);
                    }
                } catch (IllegalAccessException | IllegalArgumentException e) {
                    throw new StateException("cannot set field " + fields[i].getName() + " of " + type.getName()
                            + ": " + e.getMessage(), e);
                }
            }
            return o;
        }
    }

    /** A Serializable class that is no POJO: Java serialization, read back through an allow-list. */
    private static final class JavaSerialized extends AccumulatorCodec {
        private final FilteredObjectInput input;

        JavaSerialized(Class<?> type) {
            this.input = new FilteredObjectInput(type);
        }

        @Override
        void write(ByteWriter out, Object v, int depth) {
            byte[] b = FilteredObjectInput.serialize(v);
            out.writeInt(b.length);
            out.writeBytes(b);
        }

        @Override
        Object read(ByteReader in, int depth) {
            int n = in.readInt();
            return input.read(in.readBytes(n));
        }
    }
}
