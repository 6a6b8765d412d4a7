package dev.rsql.planner.functions.udf;

import dev.rsql.runtime.state.StateException;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Java deserialization of one declared accumulator class that is Serializable but no POJO, confined to an
 * allow-list: that class, its serializable superclasses, and a fixed set of JDK value types (boxes, strings, numbers,
 * dates, primitive arrays, the plain lists, sets and maps). Class names in the stream are looked up in that list only
 * (never loaded by name), and a filter bounds depth, references and array sizes, so that a crafted stream (a gadget
 * chain) is rejected before any of its objects is built. Thread-safe.
 */
final class FilteredObjectInput {

    private static final long MAX_DEPTH = 20;
    private static final long MAX_REFERENCES = 100_000;
    private static final long MAX_ARRAY = 1_000_000;
    private static final List<Class<?>> JDK_VALUES = List.of(
            Boolean.class, Byte.class, Short.class, Integer.class, Long.class, Float.class, Double.class,
            Character.class, Number.class, String.class, java.math.BigDecimal.class, java.math.BigInteger.class,
            java.util.Date.class, java.sql.Date.class, java.sql.Time.class, java.sql.Timestamp.class,
            boolean[].class, byte[].class, short[].class, int[].class, long[].class, float[].class, double[].class,
            char[].class, String[].class, java.util.ArrayList.class, java.util.LinkedList.class,
            java.util.HashSet.class, java.util.LinkedHashSet.class, java.util.HashMap.class,
            java.util.LinkedHashMap.class);

    private final Class<?> declared;
    private final Map<String, Class<?>> allowed = new HashMap<>();
    private final ObjectInputFilter filter;

    FilteredObjectInput(Class<?> declared) {
        this.declared = declared;
        for (Class<?> c : JDK_VALUES) {
            allowed.put(c.getName(), c);
        }
        for (Class<?> c = declared; c != null && Serializable.class.isAssignableFrom(c); c = c.getSuperclass()) {
            allowed.put(c.getName(), c);
        }
        this.filter = info -> {
            if (info.depth() > MAX_DEPTH || info.references() > MAX_REFERENCES || info.arrayLength() > MAX_ARRAY) {
                return ObjectInputFilter.Status.REJECTED;
            }
            Class<?> c = info.serialClass();
            while (c != null && c.isArray()) {
                c = c.getComponentType(); // the collections' own arrays (Object[], Map.Entry[]): elements are checked
            }
            if (c == null || c == Object.class || c == Map.Entry.class || c.isPrimitive()) {
                return info.serialClass() == null ? ObjectInputFilter.Status.UNDECIDED
                        : ObjectInputFilter.Status.ALLOWED;
            }
            return allowed.get(c.getName()) == c ? ObjectInputFilter.Status.ALLOWED
                    : ObjectInputFilter.Status.REJECTED;
        };
    }

    static byte[] serialize(Object v) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (ObjectOutputStream o = new ObjectOutputStream(b)) {
            o.writeObject(v);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serialize an accumulator value of " + v.getClass().getName(), e);
        }
        return b.toByteArray();
    }

    /** The object in {@code bytes}, an instance of the declared class or null; StateException for anything else. */
    Object read(byte[] bytes) {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes)) {
            @Override
            protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException {
                Class<?> c = allowed.get(desc.getName());
                if (c == null) {
                    throw new InvalidClassException(desc.getName(), "not allowed in the state of "
                            + declared.getName());
                }
                return c;
            }

            @Override
            protected Class<?> resolveProxyClass(String[] interfaces) throws IOException {
                throw new InvalidClassException("proxy", "not allowed in the state of " + declared.getName());
            }
        }) {
            in.setObjectInputFilter(filter);
            Object o = in.readObject();
            if (o != null && !declared.isInstance(o)) {
                throw new StateException("the state of " + declared.getName() + " holds a " + o.getClass().getName());
            }
            return o;
        } catch (IOException | ClassNotFoundException | RuntimeException e) {
            if (e instanceof StateException s) {
                throw s;
            }
            throw new StateException("rejected Java-serialized state of " + declared.getName() + ": " + e, e);
        }
    }
}
